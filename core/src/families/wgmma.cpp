// Warpgroup-level wgmma.mma_async and wgmma.mma_async.sp: PTX 9.1 §9.7.15 as data.
//
// The ISA states the wgmma register fragments only as figures (148–155, 175–181). What it says in text:
// the register counts and element lists, and that each warp w of the warpgroup owns rows 16w..16w+15 of A
// and D ("Each warp in the warpgroup provides sparsity information for 16 rows of matrix A"). The row/col
// formulas below are ptx-catalog.md §5.1: per warp, the warp-level mma fragment of the matching shape, which
// CUTLASS encodes identically (mma_traits_sm90_gmma.hpp CLayout_64xN, ALayout_64x8/16/32/64;
// mma_traits_sm90_gmma_sparse.hpp ELayout_64x16/32/64). They are marked `figure` (the ISA's figure, read
// through CUTLASS); b1's A has no CUTLASS layout and is marked `inferred`.
//
// Notation as in the ISA: thread = index in the warpgroup (0..127), w = thread / 32, g = groupID,
// t = threadID_in_group, i (or v) = element index.

#include "../build_cache.hpp"
#include "hardware_evidence.hpp"
#include "mma_fragments.hpp"

#include <array>
#include <string>
#include <vector>

namespace lanemap::family::wgmma {

namespace {
constexpr int g(const Lane& l) {
    return l.groupID;
}
constexpr int t(const Lane& l) {
    return l.threadID_in_group;
}
constexpr int w16(const Lane& l) {
    return 16 * l.warp;
}

// --- formulas ------------------------------------------------------------------------------------------

// Accumulator D (Figs. 149, 151, 153, 155), v = 0 .. N/2-1; .f16 packs d[2r] (low) and d[2r+1] (high) in
// register r. The mma m16n8 accumulator of warp w, repeated for each 8-column block of N.
Cell figD(const Lane& l, int v, int) {
    return {w16(l) + g(l) + 8 * ((v >> 1) & 1), 8 * (v >> 2) + 2 * t(l) + (v & 1)};
}

// Dense A in registers (Figs. 148, 150, 152, 154): per warp, the dense mma A fragment of the same K, with
// its rows moved down by 16w.
template <const Fragment& MmaA> Cell perWarp(const Lane& l, int i, int n) {
    Cell c = MmaA.place(l, i, n);
    c.row += w16(l);
    return c;
}

// Sparse A in registers: per warp, the mma.sp A fragment of the matching shape (§9.7.14.6.2), rows + 16w.
// `col` is the chunk [firstcol, lastcol] the non-zero element comes from.
// Fig. 175 (k32 .f16/.bf16) = mma.sp m16n8k32 .f16 (Fig. 120): two non-zeros of a 4-wide chunk per register.
Cell fig175_spA_k32_f16(const Lane& l, int i, int) {
    const int row = (i < 2 || (4 <= i && i < 6)) ? g(l) : g(l) + 8;
    const int firstcol = i < 4 ? t(l) * 4 : t(l) * 4 + 16;
    return {w16(l) + row, firstcol, firstcol + 3};
}
// Fig. 177 (k16 .tf32) = mma.sp m16n8k16 .tf32 (Fig. 123): one non-zero of a 2-wide chunk per register.
Cell fig177_spA_k16_tf32(const Lane& l, int i, int) {
    const int row = (i == 0 || i == 2) ? g(l) : g(l) + 8;
    const int firstcol = i < 2 ? t(l) * 2 : t(l) * 2 + 8;
    return {w16(l) + row, firstcol, firstcol + 1};
}
// Fig. 179 (k64 .e4m3/.e5m2/.s8/.u8) = mma.sp m16n8k64 8-bit (Figs. 130/131): four non-zeros of 8
// consecutive elements per register.
Cell fig179_spA_k64_8bit(const Lane& l, int i, int) {
    const int row = (i < 4 || (8 <= i && i < 12)) ? g(l) : g(l) + 8;
    const int firstcol = i < 8 ? t(l) * 8 : t(l) * 8 + 32;
    return {w16(l) + row, firstcol, firstcol + 7};
}

// Metadata (Figs. 176, 178, 180/181, the mma.sp images): lane `h` of the lanes a selector picks, nibble j
// (bits [4j+3:4j]) -> (row inside the warp's 16, first column of the chunk).
struct MetaCell {
    int row;
    int col;
};
using MetaFn = MetaCell (*)(int h, int j);
// Fig. 176 (= mma.sp Fig. 122), selector F picks lanes 4g+2F+h: lane h covers columns 16h..16h+15; bits
// [15:0] row g, [31:16] row g+8; nibble j -> the 4-wide chunk 4(j&3).   [CUTLASS ELayout_64x32]
MetaCell fig176_meta_k32_f16(int h, int j) {
    return {8 * (j >> 2), 16 * h + 4 * (j & 3)};
}
// Fig. 178 (= mma.sp Fig. 125), lanes 4g+2F+h: lane h covers columns 8h..8h+7; bits [15:0] row g, [31:16]
// row g+8; nibble j -> the 2-wide chunk 2(j&3).   [CUTLASS ELayout_64x16]
MetaCell fig178_meta_k16_tf32(int h, int j) {
    return {8 * (j >> 2), 8 * h + 2 * (j & 3)};
}
// Figs. 180/181 (= mma.sp Figs. 136/137), selector 0, lanes 4g+q: q bit 0 -> row g+8, q bit 1 -> columns
// 32..63; nibble j -> the 4-wide chunk 4j.   [CUTLASS ELayout_64x64]
MetaCell fig180_meta_k64_8bit(int q, int j) {
    return {8 * (q & 1), 32 * (q >> 1) + 4 * j};
}

struct MetadataTable {
    const char* granularity;
    int indexBits;
    int chunk;            // columns of A per field
    int selectors;        // valid selector values 0..selectors-1
    int lanesPerSelector; // selector F uses lanes 4g + F*lanesPerSelector + h
    MetaFn field;
    const char* figures;
};

// --- fragments: {rows, cols, matrices, registers, register bits, elements per register} + formula --------
// clang-format off
const Fragment kA_k16_f16  {{64,  16, 1, 4, 32,  2}, perWarp<mma::kA16n8k16_f16>, Source::Hardware}; // Fig. 148
const Fragment kA_k8_tf32  {{64,   8, 1, 4, 32,  1}, perWarp<mma::kA16n8k8_tf32>, Source::Hardware}; // Fig. 150
const Fragment kA_k32_8bit {{64,  32, 1, 4, 32,  4}, perWarp<mma::kA16n8k32_i8>,  Source::Hardware}; // Fig. 152
const Fragment kA_k256_b1  {{64, 256, 1, 4, 32, 32}, perWarp<mma::kA16n8k256_b1>, Source::Hardware}; // Fig. 154

const Fragment kSpA_k32_f16  {{64, 32, 1, 4, 32, 2}, fig175_spA_k32_f16,  Source::Hardware};
const Fragment kSpA_k16_tf32 {{64, 16, 1, 4, 32, 1}, fig177_spA_k16_tf32, Source::Hardware};
const Fragment kSpA_k64_8bit {{64, 64, 1, 4, 32, 4}, fig179_spA_k64_8bit, Source::Hardware};

const MetadataTable kMeta_k32_f16  {"2:4", 2, 4, 2, 2, fig176_meta_k32_f16,  "Fig. 176 (the mma.sp Fig. 122 image)"};
const MetadataTable kMeta_k16_tf32 {"1:2", 4, 2, 2, 2, fig178_meta_k16_tf32, "Fig. 178 (the mma.sp Fig. 125 image)"};
const MetadataTable kMeta_k64_8bit {"2:4", 2, 4, 1, 4, fig180_meta_k64_8bit, "Figs. 180/181 (the mma.sp Figs. 136/137 images)"};
// clang-format on

// Valid N (§9.7.15.2 Matrix Shape; ptx-catalog.md §2.4): floating types 8..256 step 8; integer and b1
// 8, 16, 24, 32, then 48..256 step 16.
std::vector<int> floatN() {
    std::vector<int> n;
    for (int i = 8; i <= 256; i += 8)
        n.push_back(i);
    return n;
}
std::vector<int> integerN() {
    std::vector<int> n{8, 16, 24};
    for (int i = 32; i <= 256; i += 16)
        n.push_back(i);
    return n;
}

enum class NSet { Float, Integer };

// One row of the wgmma tables: K, A types, accumulators, the A fragment (and metadata for .sp).
struct WgmmaRow {
    int k;
    std::vector<const char*> atypes;
    std::vector<const char*> accums; // first = default accumulator
    NSet nset;
    const Fragment* a;
    const MetadataTable* metadata; // sparse only
    const char* section;
    const char* anchor;
};

// clang-format off
const std::vector<WgmmaRow>& denseTable() {
    static const std::vector<WgmmaRow> rows = {
        // K   A types           accumulators     N         A fragment     meta     section / anchor
        {16,  {"f16"},          {"f32", "f16"},  NSet::Float,   &kA_k16_f16,  nullptr, "9.7.15.5.1.1.1", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n16"},
        {16,  {"bf16"},         {"f32"},         NSet::Float,   &kA_k16_f16,  nullptr, "9.7.15.5.1.1.1", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n16"},
        {8,   {"tf32"},         {"f32"},         NSet::Float,   &kA_k8_tf32,  nullptr, "9.7.15.5.1.1.2", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n8"},
        {32,  {"e4m3", "e5m2"}, {"f32", "f16"},  NSet::Float,   &kA_k32_8bit, nullptr, "9.7.15.5.1.1.3", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n32"},
        {32,  {"s8", "u8"},     {"s32"},         NSet::Integer, &kA_k32_8bit, nullptr, "9.7.15.5.1.1.3", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n32"},
        {256, {"b1"},           {"s32"},         NSet::Integer, &kA_k256_b1,  nullptr, "9.7.15.5.1.1.4", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n256"},
    };
    return rows;
}

const std::vector<WgmmaRow>& sparseTable() {
    static const std::vector<WgmmaRow> rows = {
        {32,  {"f16"},          {"f32", "f16"},  NSet::Float,   &kSpA_k32_f16,  &kMeta_k32_f16,  "9.7.15.6.2.1", "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n32"},
        {32,  {"bf16"},         {"f32"},         NSet::Float,   &kSpA_k32_f16,  &kMeta_k32_f16,  "9.7.15.6.2.1", "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n32"},
        {16,  {"tf32"},         {"f32"},         NSet::Float,   &kSpA_k16_tf32, &kMeta_k16_tf32, "9.7.15.6.2.2", "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n16"},
        {64,  {"e4m3", "e5m2"}, {"f32", "f16"},  NSet::Float,   &kSpA_k64_8bit, &kMeta_k64_8bit, "9.7.15.6.2.3", "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n64"},
        {64,  {"s8", "u8"},     {"s32"},         NSet::Integer, &kSpA_k64_8bit, &kMeta_k64_8bit, "9.7.15.6.2.3", "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n64"},
    };
    return rows;
}
// clang-format on

// D for one N and accumulator type: N/2 .f32/.s32 registers, or N/4 .f16x2 registers of two elements.
Fragment accumulator(int n, std::string_view ctype) {
    if (ctype == "f16")
        return {{64, n, 1, n / 4, 32, 2}, figD, Source::Hardware};
    return {{64, n, 1, n / 2, 32, 1}, figD, Source::Hardware};
}

// figD does not depend on N: the m64nN fragment is the m64n256 one cut after its first N/2 elements (the
// figures draw one 8-column block and repeat it), so every N shares the work of building N = 256.
FragmentLayout accumulatorLayout(int n, const std::string& ctype) {
    const FragmentLayout full = makeOperand("D", ctype, 128, accumulator(256, ctype), 256);
    return FragmentLayout::leadingRegisters(full, accumulator(n, ctype).shape.registers, n);
}

MetadataLayout buildMetadata(const MetadataTable& table) {
    MetadataLayout md;
    md.granularity = table.granularity;
    md.indexBits = table.indexBits;
    for (int f = 0; f < table.selectors; ++f) {
        MetadataSelector sel;
        sel.value = f;
        for (int warp = 0; warp < 4; ++warp)
            for (int group = 0; group < 8; ++group)
                for (int h = 0; h < table.lanesPerSelector; ++h)
                    for (int j = 0; j < 8; ++j) {
                        const MetaCell cell = table.field(h, j);
                        MetadataField field;
                        field.thread = 32 * warp + 4 * group + f * table.lanesPerSelector + h;
                        field.bitHi = 4 * j + 3;
                        field.bitLo = 4 * j;
                        field.row = 16 * warp + group + cell.row;
                        field.colFirst = cell.col;
                        field.colLast = cell.col + table.chunk - 1;
                        field.source = Source::Hardware;
                        sel.fields.push_back(field);
                    }
        md.selectors.push_back(std::move(sel));
    }
    md.notes.push_back(std::string("each warp w supplies the metadata of rows 16w..16w+15 with the mma.sp "
                                   "mapping of ") +
                       table.figures + "; read through CUTLASS (figure only in the ISA); confirmed by the " +
                       kH100WgmmaProbe);
    if (table.selectors == 2)
        md.notes.push_back(
            "sparsity selector 0 uses lanes 4g+0 and 4g+1 of each quad, selector 1 lanes 4g+2 and 4g+3");
    else
        md.notes.push_back("all four lanes of each quad supply metadata; the sparsity selector must be 0");
    return md;
}

// The metadata of a row does not depend on N: every variant of the row shares one table.
std::shared_ptr<const MetadataLayout> metadataFor(const MetadataTable& table) {
    static detail::SharedCache<const MetadataTable*, MetadataLayout> cache;
    return cache.get(&table, [&] { return buildMetadata(table); });
}

// --- errata and notes ----------------------------------------------------------------------------------

Erratum erratumE11() {
    return {
        "E11",
        "sparse wgmma m64nNk64: the metadata operand is described as 16 4-bit vectors",
        "Metadata operand is a .b32 register containing 16 4-bit vectors each storing the indices of two "
        "non-zero elements of a 4-wide chunk of matrix A (64 bits in a 32-bit register)",
        "8 4-bit fields per thread, each holding the two 2-bit indices of one 4-wide chunk; the four lanes "
        "of a quad together cover two rows x 64 columns (Figs. 180/181, CUTLASS ELayout_64x64)",
        std::string("register width; CUTLASS mma_traits_sm90_gmma_sparse.hpp (ptx-catalog.md §10 E11); every field "
                    "confirmed by the ") + kH100WgmmaProbe,
        "confirmed"};
}

Erratum erratumE13() {
    return {"E13",
            "wgmma integer shapes: the .shape list of the syntax stops at m64n224k32",
            "syntax: .shape = {.m64n8k32, ..., .m64n224k32}; the Matrix Shape table and the D fragment rule "
            "(N = 16*i, i = 3..16) include n240 and n256",
            "n240 and n256 are listed (ptxas 13.0 accepts m64n240k32 and m64n256k32 .s8/.u8)",
            std::string("ptxas 13.0 acceptance; the shape table (ptx-catalog.md §10 E13); n240 and n256 run on the ") +
                kH100WgmmaProbe,
            "confirmed"};
}

std::string shapeName(int n, int k) {
    return "m64n" + std::to_string(n) + "k" + std::to_string(k);
}

std::string wgmmaSpec(bool sparse, int n, int k, std::string_view atype, std::string_view ctype) {
    return shortSpec(sparse ? "wgmma.sp" : "wgmma", shapeName(n, k), "", "", atype, ctype, ctype);
}

// `wgmma.mma_async[.sp].sync.aligned.<shape>.<d>.<a>.<b>` plus b1's `.and.popc`.
std::string wgmmaPtx(bool sparse, int n, int k, std::string_view dtype, std::string_view atype,
                     std::string_view btype) {
    std::string s = sparse ? "wgmma.mma_async.sp.sync.aligned." : "wgmma.mma_async.sync.aligned.";
    s += shapeName(n, k);
    for (std::string_view part : {dtype, atype, btype})
        (s += '.') += part;
    if (atype == "b1")
        s += ".and.popc";
    return s;
}

void registerRow(Catalog& catalog, const WgmmaRow& row, bool sparse) {
    const std::vector<int> ns = row.nset == NSet::Float ? floatN() : integerN();
    for (const char* atype : row.atypes) {
        const std::string_view a(atype);
        const bool sixteenBit = a == "f16" || a == "bf16";
        for (const char* ctype : row.accums) {
            for (int n : ns) {
                Variant v;
                v.family = sparse ? Family::WgmmaSp : Family::Wgmma;
                v.scope = Scope::Warpgroup;
                v.threads = 128;
                v.m = 64;
                v.n = n;
                v.k = row.k;
                v.atype = v.btype = atype;
                v.ctype = v.dtype = ctype;
                v.minSm = 90;
                v.section = row.section;
                v.anchor = row.anchor;
                v.spec = wgmmaSpec(sparse, n, row.k, a, ctype);
                v.ptx = wgmmaPtx(sparse, n, row.k, ctype, a, a);
                for (const std::string& b : mixedPartners(a))
                    if (b != a)
                        v.ptxAliases.push_back(wgmmaPtx(sparse, n, row.k, ctype, a, b));
                v.notes.push_back("sm_90a only (ptxas 13.0 rejects sm_90, sm_100a and sm_120a)");
                v.notes.push_back(std::string("A and D (figure only in the ISA) confirmed cell by cell by the ") +
                                  kH100WgmmaProbe + ", with B in every canonical shared-memory layout");
                v.notes.push_back(
                    "A comes from registers (shown) or from shared memory through a descriptor; B "
                    "always comes from shared memory (see the shared-memory view)");
                v.notes.push_back(sixteenBit
                                      ? "imm-trans-a/imm-trans-b select MN-major A (shared memory only) and "
                                        "N-major B; the default is K-major"
                                      : "K-major shared memory only (no imm-trans operands for this type)");
                if (a == "b1") {
                    v.notes.push_back("only .and.popc exists for wgmma .b1 (no .xor)");
                    v.notes.push_back(
                        "the A layout is inferred: mma.m16n8k256 .b1 A (erratum E1 corrected) per warp; "
                        "Fig. 154 could not be read and CUTLASS has no register-A layout for it");
                }
                if (a == "e4m3" || a == "e5m2")
                    v.notes.push_back("A and B may mix .e4m3 and .e5m2; the layout is the same");
                if (a == "s8" || a == "u8")
                    v.notes.push_back(
                        "A and B may mix .s8 and .u8 (PTX 8.4); .satfinite does not change the layout");
                if (sparse)
                    v.notes.push_back(
                        "sparse A in registers holds the non-zeros of each chunk of a row; shared-memory A "
                        "is the compressed M x K/2 matrix");
                if (!sparse && row.nset == NSet::Integer && row.k == 32 && n >= 240)
                    v.errata.push_back(erratumE13());
                if (sparse && row.k == 64)
                    v.errata.push_back(erratumE11());

                const WgmmaRow* r = &row;
                const std::string c(ctype);
                catalog.add(std::move(v), [r, c](Instruction& in) {
                    in.operands.push_back(makeOperand("A", in.atype, 128, *r->a));
                    in.operands.push_back(accumulatorLayout(in.n, c));
                    if (r->metadata) in.metadata = metadataFor(*r->metadata);
                });
            }
        }
    }
}

} // namespace

} // namespace lanemap::family::wgmma

namespace lanemap {

void registerWgmma(Catalog& catalog) {
    using namespace family::wgmma;
    for (const WgmmaRow& row : denseTable())
        registerRow(catalog, row, false);
    for (const WgmmaRow& row : sparseTable())
        registerRow(catalog, row, true);
}

} // namespace lanemap
