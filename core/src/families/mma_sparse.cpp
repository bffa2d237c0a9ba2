// Sparse warp-level mma.sp / mma.sp::ordered_metadata: PTX 9.1 §9.7.14.6 as data.
// A formulas are the ISA's text (compressed A: each element may sit anywhere in [firstcol..lastcol]); B, C and
// D reuse the dense fragments where the ISA says "same as"; the figure-only B fragments and every metadata
// figure come from ptx-catalog.md §4.3/§4.4 with their evidence as the placement source.

#include "mma_sparse.hpp"

#include "../build_cache.hpp"
#include "hardware_evidence.hpp"

#include "mma_fragments.hpp"

#include <stdexcept>
#include <tuple>
#include <string>
#include <vector>

namespace lanemap::family::mmasp {

namespace {
constexpr int g(const Lane& l) { return l.groupID; }
constexpr int t(const Lane& l) { return l.threadID_in_group; }
} // namespace

// --- compressed A: Cell{row, firstcol, lastcol} ------------------------------------------------------------

// §9.7.14.6.2.1 Fig. 118: m16n8k16 .f16/.bf16
static Cell fig118_A16816_f16(const Lane& l, int i, int) {
    const int firstcol = t(l) * 4;
    return {i < 2 ? g(l) : g(l) + 8, firstcol, firstcol + 3};
}
// §9.7.14.6.2.2 Fig. 120: m16n8k32 .f16/.bf16
static Cell fig120_A16832_f16(const Lane& l, int i, int) {
    const int firstcol = i < 4 ? t(l) * 4 : t(l) * 4 + 16;
    return {(i < 2 || (4 <= i && i < 6)) ? g(l) : g(l) + 8, firstcol, firstcol + 3};
}
// §9.7.14.6.2.3 Fig. 123: m16n8k16 .tf32
static Cell fig123_A16816_tf32(const Lane& l, int i, int) {
    const int firstcol = i < 2 ? t(l) * 2 : t(l) * 2 + 8;
    return {(i == 0 || i == 2) ? g(l) : g(l) + 8, firstcol, firstcol + 1};
}
// §9.7.14.6.2.4 Fig. 126: m16n8k8 .tf32
static Cell fig126_A1688_tf32(const Lane& l, int i, int) {
    const int firstcol = t(l) * 2;
    return {i == 0 ? g(l) : g(l) + 8, firstcol, firstcol + 1};
}
// §9.7.14.6.2.5 Fig. 128: m16n8k32 .u8/.s8
static Cell fig128_A16832_i8(const Lane& l, int i, int) {
    const int firstcol = t(l) * 8;
    return {i < 4 ? g(l) : g(l) + 8, firstcol, firstcol + 7};
}
// §9.7.14.6.2.6 Figs. 130/131: m16n8k64 .u8/.s8/.e4m3/.e5m2/.e3m2/.e2m3/.e2m1
static Cell fig130_A16864_8bit(const Lane& l, int i, int) {
    const int firstcol = i < 8 ? t(l) * 8 : t(l) * 8 + 32;
    return {(i < 4 || (8 <= i && i < 12)) ? g(l) : g(l) + 8, firstcol, firstcol + 7};
}
// §9.7.14.6.2.7 Fig. 138: m16n8k64 .u4/.s4
static Cell fig138_A16864_i4(const Lane& l, int i, int) {
    const int firstcol = t(l) * 16;
    return {i < 8 ? g(l) : g(l) + 8, firstcol, firstcol + 15};
}
// §9.7.14.6.2.8 Figs. 140/141: m16n8k128 .u4/.s4/.e2m1
static Cell fig140_A168128_4bit(const Lane& l, int i, int) {
    const int firstcol = i < 16 ? t(l) * 16 : t(l) * 16 + 64;
    return {(i < 8 || (16 <= i && i < 24)) ? g(l) : g(l) + 8, firstcol, firstcol + 15};
}

// --- B fragments the ISA gives only as figures (ptx-catalog.md §4.4) ---------------------------------------

// Fig. 121 [INF]: extends the dense m16n8k16 B pattern to four registers.
static Cell fig121_B16832_f16(const Lane& l, int i, int) { return {t(l) * 2 + (i & 0x1) + 8 * (i >> 1), g(l)}; }
// Fig. 124 [INF]: the same image is dense m16n8k16 .f64 B (Fig. 82), whose text gives this formula.
static Cell fig124_B16816_tf32(const Lane& l, int i, int) { return {t(l) + i * 4, g(l)}; }
// Figs. 132-135 [CUTLASS] SM120_SPARSE_16x8x64_TN::BLayout.
static Cell fig132_B16864_8bit(const Lane& l, int i, int) { return {t(l) * 4 + (i & 0x3) + 16 * (i >> 2), g(l)}; }
// Figs. 142-145 [CUTLASS] SM120 16x8x128 BLayout.
static Cell fig142_B168128_4bit(const Lane& l, int i, int) { return {t(l) * 8 + (i & 0x7) + 32 * (i >> 3), g(l)}; }

// --- metadata figures: field j = bits [4j+3 : 4j] of lane l under selector F -------------------------------

// Fig. 119 [EMP]: lane 4g+F; fields 0-3 -> row g, chunks 0-3; fields 4-7 -> row g+8.
static std::optional<Cell> fig119_meta16816_f16(const Lane& l, int j, int F) {
    if (t(l) != F) return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 4 * (j % 4)};
}
// Fig. 122 [CUTLASS]: pair 4g+2F (cols 0-15), 4g+2F+1 (cols 16-31); bits [15:0] row g, [31:16] row g+8.
static std::optional<Cell> fig122_meta16832_f16(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F) return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 16 * (t(l) & 1) + 4 * (j % 4)};
}
// Fig. 127 [INF]: the k16 tf32 figure cut down to one lane: lane 4g+F; 2-column chunks.
static std::optional<Cell> fig127_meta1688_tf32(const Lane& l, int j, int F) {
    if (t(l) != F) return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 2 * (j % 4)};
}
// Fig. 125 [CUTLASS]: pair 4g+2F (cols 0-7), 4g+2F+1 (cols 8-15); bits [15:0] row g, [31:16] row g+8.
static std::optional<Cell> fig125_meta16816_tf32(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F) return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 8 * (t(l) & 1) + 2 * (j % 4)};
}
// Figs. 136/137 [CUTLASS]: all four lanes; lane bit 0 -> row g+8, lane bit 1 -> cols 32-63; field j -> chunk j.
static std::optional<Cell> fig136_meta16864_8bit(const Lane& l, int j, int) {
    return Cell{g(l) + 8 * (t(l) & 1), 32 * (t(l) >> 1) + 4 * j};
}
// Figs. 146/147: all four lanes; lane bit 0 -> row g+8, lane bit 1 -> cols 64-127; field j -> 8-column chunk j.
static std::optional<Cell> fig146_meta168128_4bit(const Lane& l, int j, int) {
    return Cell{g(l) + 8 * (t(l) & 1), 64 * (t(l) >> 1) + 8 * j};
}
// Fig. 129 UNRESOLVED, two readings. Rows per lane (the k64 pattern on pair 4g+2F, 4g+2F+1): lane bit 0 -> row.
static std::optional<Cell> fig129_meta16832_i8_rows(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F) return std::nullopt;
    return Cell{g(l) + 8 * (t(l) & 1), 4 * j};
}
// K halves per lane (the f16 k32 pattern): lane bit 0 -> cols 16-31; bits [15:0] row g, [31:16] row g+8.
static std::optional<Cell> fig129_meta16832_i8_khalves(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F) return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 16 * (t(l) & 1) + 4 * (j % 4)};
}
// Fig. 139 UNRESOLVED, the same two readings with 8-column chunks.
static std::optional<Cell> fig139_meta16864_i4_rows(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F) return std::nullopt;
    return Cell{g(l) + 8 * (t(l) & 1), 8 * j};
}
static std::optional<Cell> fig139_meta16864_i4_khalves(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F) return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 32 * (t(l) & 1) + 8 * (j % 4)};
}

// clang-format off
const char* const kRowsPerLane = "lane 4g+2F holds row g and lane 4g+2F+1 row g+8, all of K, one field per chunk "
                                 "(the m16n8k64 8-bit pattern restricted to the selected pair)";
const char* const kKHalvesPerLane = "lane 4g+2F holds the first half of K and lane 4g+2F+1 the second; bits [15:0] "
                                    "row g, bits [31:16] row g+8 (the m16n8k32 .f16 pattern)";

const MetadataFigure kMeta16n8k16_f16{"Fig. 119", {0, 1, 2, 3}, "one lane per quad: lane 4g+F", Source::Hardware,
    "[EMP] kmsmith137/gputils src_bin/test-sparse-mma.cu (randomized GPU test, all four selectors); confirmed by the "
    LANEMAP_H100_PROBE,
    {{"figure", "", fig119_meta16816_f16}}};
const MetadataFigure kMeta16n8k32_f16{"Fig. 122", {0, 1}, "a thread pair: lanes 4g+2F and 4g+2F+1", Source::Hardware,
    "[CUTLASS] ELayout_64x32 in mma_traits_sm90_gmma_sparse.hpp (the ISA draws wgmma m64nNk32 with the same image); "
    "confirmed by the " LANEMAP_H100_PROBE,
    {{"figure", "", fig122_meta16832_f16}}};
const MetadataFigure kMeta16n8k8_tf32{"Fig. 127", {0, 1, 2, 3}, "one lane per quad: lane 4g+F", Source::Hardware,
    "[INF] the m16n8k16 .tf32 figure cut down to one lane (ptx-catalog.md §4.3); confirmed by the " LANEMAP_H100_PROBE,
    {{"figure", "", fig127_meta1688_tf32}}};
const MetadataFigure kMeta16n8k16_tf32{"Fig. 125", {0, 1}, "a thread pair: lanes 4g+2F and 4g+2F+1", Source::Hardware,
    "[CUTLASS] ELayout_64x16 in mma_traits_sm90_gmma_sparse.hpp (wgmma m64nNk16 .tf32 reuses the image); confirmed "
    "by the " LANEMAP_H100_PROBE,
    {{"figure", "", fig125_meta16816_tf32}}};
// Resolved on hardware: the first reading. The refuted one stays in the table as the record of what was ruled out.
const MetadataFigure kMeta16n8k32_i8{"Fig. 129", {0, 1}, "a thread pair: lanes 4g+2F and 4g+2F+1", Source::Hardware,
    "RESOLVED by the " LANEMAP_H100_PROBE ": lane 4g+2F holds row g and lane 4g+2F+1 row g+8, all of K "
    "('rows-per-lane', 256 of 256 A elements per selector); 'k-halves-per-lane' matched 128 of 256 and is refuted",
    {{"rows-per-lane", kRowsPerLane, fig129_meta16832_i8_rows},
     {"k-halves-per-lane", kKHalvesPerLane, fig129_meta16832_i8_khalves}},
    /* primary */ 0};
const MetadataFigure kMeta16n8k64_8bit{"Figs. 136/137", {0}, "all four lanes of each quad (selector 0 only)", Source::Figure,
    "[CUTLASS] wgmma ELayout_64x64 and SM120_SPARSE_16x8x64_TN::ELayout",
    {{"figure", "", fig136_meta16864_8bit}}};
// The same figure for the forms an H100 runs (s8/u8, e4m3/e5m2 with .f32): seen on hardware.
const MetadataFigure kMeta16n8k64_8bit_sm90{"Figs. 136/137", {0}, "all four lanes of each quad (selector 0 only)", Source::Hardware,
    "[CUTLASS] wgmma ELayout_64x64 and SM120_SPARSE_16x8x64_TN::ELayout; confirmed by the " LANEMAP_H100_PROBE,
    {{"figure", "", fig136_meta16864_8bit}}};
const MetadataFigure kMeta16n8k64_i4{"Fig. 139", {0, 1}, "a thread pair: lanes 4g+2F and 4g+2F+1", Source::Hardware,
    "RESOLVED by the " LANEMAP_H100_PROBE ": lane 4g+2F holds row g and lane 4g+2F+1 row g+8, all of K "
    "('rows-per-lane', 512 of 512 A elements per selector); 'k-halves-per-lane' matched 256 of 512 and is refuted",
    {{"rows-per-lane", kRowsPerLane, fig139_meta16864_i4_rows},
     {"k-halves-per-lane", kKHalvesPerLane, fig139_meta16864_i4_khalves}},
    /* primary */ 0};
const MetadataFigure kMeta16n8k128_i4{"Figs. 146/147", {0}, "all four lanes of each quad (selector 0 only)", Source::Hardware,
    "[INF] for .u4/.s4: the figures serve .u4/.s4/.e2m1 alike and CUTLASS encodes them for mxf4 e2m1 only; "
    "confirmed for .u4/.s4 by the " LANEMAP_H100_PROBE,
    {{"figure", "", fig146_meta168128_4bit}}};
const MetadataFigure kMeta16n8k128_e2m1{"Figs. 146/147", {0}, "all four lanes of each quad (selector 0 only)", Source::Figure,
    "[CUTLASS] SM120 16x8x128 (mxf4) ELayout",
    {{"figure", "", fig146_meta168128_4bit}}};
// clang-format on

MetadataLayout buildMetadata(const MetadataFigure& figure, const sparse::StorageRule& rule, bool ordered, int k,
                             int warps) {
    MetadataLayout md;
    md.granularity = std::string(rule.granularity);
    md.indexBits = rule.indexBits;
    md.chunkCols = rule.chunkCols;
    md.fieldBits = rule.fieldBits;
    md.validValues = sparse::validFieldValues(rule.pattern, ordered);
    const int fieldsPerWord = 32 / rule.fieldBits;
    auto selectorsOf = [&](const MetadataReading& reading) {
        std::vector<MetadataSelector> out;
        for (int F : figure.selectors) {
            MetadataSelector sel{F, {}};
            sel.fields.reserve(static_cast<std::size_t>(16 * warps * (k / rule.chunkCols)));
            for (int thread = 0; thread < 32 * warps; ++thread) {
                const Lane lane = Lane::of(thread);
                for (int j = 0; j < fieldsPerWord; ++j) {
                    const std::optional<Cell> chunk = reading.place(lane, j, F);
                    if (!chunk) continue;
                    MetadataField f;
                    f.thread = thread;
                    f.bitLo = j * rule.fieldBits;
                    f.bitHi = f.bitLo + rule.fieldBits - 1;
                    f.row = chunk->row + 16 * lane.warp;
                    f.colFirst = chunk->col;
                    f.colLast = chunk->col + rule.chunkCols - 1;
                    f.source = figure.source;
                    if (f.row >= 16 * warps || f.colFirst % rule.chunkCols != 0 || f.colLast >= k)
                        throw std::logic_error(std::string("metadata figure out of range: ") + figure.figures);
                    sel.fields.push_back(f);
                }
            }
            out.push_back(std::move(sel));
        }
        return out;
    };
    const MetadataReading& primary = figure.readings.at(figure.primary);
    md.selectors = selectorsOf(primary);
    md.notes.push_back(std::string(figure.figures) + ": metadata comes from " + figure.lanes);
    md.notes.push_back(std::string("evidence: ") + figure.evidence);
    if (figure.readings.size() > 1 && figure.source == Source::Hardware) {
        // Settled on hardware: the primary reading is fact; the others are named as refuted, not offered.
        std::string refuted;
        for (const MetadataReading& r : figure.readings)
            if (&r != &primary) refuted += (refuted.empty() ? "'" : ", '") + std::string(r.name) + "' (" + r.description + ")";
        md.notes.push_back("RESOLVED on hardware: '" + std::string(primary.name) + "' (" + primary.description +
                           "); refuted: " + refuted);
    } else if (figure.readings.size() > 1) {
        md.candidate = primary.name;
        for (const MetadataReading& r : figure.readings)
            md.candidates.push_back({r.name, r.description, selectorsOf(r)});
        md.notes.push_back(std::string("UNRESOLVED: ") + std::to_string(figure.readings.size()) +
                           " candidate readings; showing '" + primary.name +
                           "' (a guess, marked inferred) until the hardware probe decides");
    }
    md.notes.push_back("inferred: the elements of one thread in one row and [firstcol..lastcol] range fill its "
                       "chunks in column order, in increasing element index; the k-th kept element of a chunk is "
                       "placed by the k-th index of its field (bits [1:0] first)");
    return md;
}

namespace {

using mma::kB16n8k16_f16;
using mma::kB16n8k32_i8;
using mma::kB16n8k64_i4;
using mma::kB16n8k8_tf32;
using mma::kCD16n8_f16;
using mma::kCD16n8_f32;

// --- fragments: {rows, cols, matrices, registers, register bits, elements per register} + formula -----------
// clang-format off
const Fragment kSpA16n8k16_f16   {{16,  16, 1, 2, 32, 2}, fig118_A16816_f16};
const Fragment kSpA16n8k32_f16   {{16,  32, 1, 4, 32, 2}, fig120_A16832_f16};
const Fragment kSpA16n8k16_tf32  {{16,  16, 1, 4, 32, 1}, fig123_A16816_tf32};
const Fragment kSpA16n8k8_tf32   {{16,   8, 1, 2, 32, 1}, fig126_A1688_tf32};
const Fragment kSpA16n8k32_i8    {{16,  32, 1, 2, 32, 4}, fig128_A16832_i8};
const Fragment kSpA16n8k64_8bit  {{16,  64, 1, 4, 32, 4}, fig130_A16864_8bit};
const Fragment kSpA16n8k64_i4    {{16,  64, 1, 2, 32, 8}, fig138_A16864_i4};
const Fragment kSpA16n8k128_4bit {{16, 128, 1, 4, 32, 8}, fig140_A168128_4bit};

// [INF]/[FIG] B fragments; the forms an H100 runs were confirmed by the hardware probe (hardware_evidence.hpp).
const Fragment kSpB16n8k32_f16   {{32,   8, 1, 4, 32, 2}, fig121_B16832_f16,   Source::Hardware};
const Fragment kSpB16n8k16_tf32  {{16,   8, 1, 4, 32, 1}, fig124_B16816_tf32,  Source::Hardware};
const Fragment kSpB16n8k64_8bit  {{64,   8, 1, 4, 32, 4}, fig132_B16864_8bit,  Source::Figure};   // sm_120 forms
const Fragment kSpB16n8k64_8bit_sm90 {{64, 8, 1, 4, 32, 4}, fig132_B16864_8bit, Source::Hardware};
const Fragment kSpB16n8k128_4bit {{128,  8, 1, 4, 32, 8}, fig142_B168128_4bit, Source::Figure};   // sm_120 forms
const Fragment kSpB16n8k128_4bit_sm90 {{128, 8, 1, 4, 32, 8}, fig142_B168128_4bit, Source::Hardware};
// clang-format on

// Errata of ptx-catalog.md §10 that touch mma.sp.
Erratum erratumE8() {
    return {"E8", "sparse mma.m16n8k16 .tf32: B fragment says four .tf32 elements per register",
            "four .b32 registers, each containing four .tf32 elements from matrix B",
            "four registers with one .tf32 element each (16x8 / 32 lanes = 4 elements per thread)",
            std::string("element count of the 16x8 B tile; ") + kH100Probe + ": B agrees cell by cell",
            "confirmed"};
}
Erratum erratumE9() {
    return {"E9", "sparse mma.m16n8k32 .f16/.bf16: B element list stops at b3",
            "four .b32 registers each containing two elements; elements b0, b1, b2, b3",
            "b0..b7 (four registers x two elements)",
            std::string("element count of the 32x8 B tile; ") + kH100Probe + ": B agrees cell by cell", "confirmed"};
}
Erratum erratumE10() {
    return {"E10", "sparse fp8 with .f16 accumulation: the notes name shape .m16n8k32",
            "shape .m16n8k32 and .f16 dtype/ctype with .e4m3/.e5m2 requires sm_120",
            "listed as m16n8k64 with .f16 accumulation, ::ordered_metadata only, min SM 120: no sparse m16n8k32 fp8 "
            "shape exists in the syntax or the shape table",
            "ptxas 13.0 rejects every sparse m16n8k32 fp8 form and accepts m16n8k64 fp8 .f16 only as "
            "::ordered_metadata on sm_120a/120f/121a",
            "suspected"};
}

struct Accum {
    const char* ctype;
    const Fragment* cd;
};

// PTX spellings of a block-scaled form: qualifiers after .kind, and the scale type after the C type.
struct ScaleForm {
    const char* qualifiers; // ".block_scale.scale_vec::1X"
    const char* stype;      // "ue8m0"
};

enum class Forms : std::uint8_t { Both, OrderedOnly };

// One row of the sparse catalog: ptx-catalog.md §2.3 S1-S13.
struct SparseRow {
    const char* id; // S1..S13
    const char* shape;
    int m, n, k;
    std::vector<const char*> atypes;
    std::vector<Accum> accums; // first = default accumulator
    const Fragment* a;
    const Fragment* b;
    const MetadataFigure* metadata;
    Forms forms;
    int minSm;
    const char* section;
    const char* anchor;
    const char* kind = "";
    std::vector<ScaleForm> scale = {}; // block scaling: first = canonical PTX spelling
};

const std::vector<SparseRow>& sparseTable() {
    static const std::vector<const char*> f8f6f4{"e4m3", "e5m2", "e3m2", "e2m3", "e2m1"};
    static const std::vector<SparseRow> rows = {
        // id    shape        m   n    k   A/B types  accumulators                                       A                   B                   metadata             forms               SM   section         anchor
        {"S1",  "m16n8k16",  16,  8,  16, {"f16"},   {{"f32", &kCD16n8_f32}, {"f16", &kCD16n8_f16}}, &kSpA16n8k16_f16,   &kB16n8k16_f16,     &kMeta16n8k16_f16,   Forms::Both,        80, "9.7.14.6.2.1", "warp-level-matrix-fragment-sparse-mma-16816-f16bf16"},
        {"S1",  "m16n8k16",  16,  8,  16, {"bf16"},  {{"f32", &kCD16n8_f32}},                         &kSpA16n8k16_f16,   &kB16n8k16_f16,     &kMeta16n8k16_f16,   Forms::Both,        80, "9.7.14.6.2.1", "warp-level-matrix-fragment-sparse-mma-16816-f16bf16"},
        {"S2",  "m16n8k32",  16,  8,  32, {"f16"},   {{"f32", &kCD16n8_f32}, {"f16", &kCD16n8_f16}}, &kSpA16n8k32_f16,   &kSpB16n8k32_f16,   &kMeta16n8k32_f16,   Forms::Both,        80, "9.7.14.6.2.2", "warp-level-matrix-fragment-sparse-mma-16832-f16bf16"},
        {"S2",  "m16n8k32",  16,  8,  32, {"bf16"},  {{"f32", &kCD16n8_f32}},                         &kSpA16n8k32_f16,   &kSpB16n8k32_f16,   &kMeta16n8k32_f16,   Forms::Both,        80, "9.7.14.6.2.2", "warp-level-matrix-fragment-sparse-mma-16832-f16bf16"},
        {"S4",  "m16n8k16",  16,  8,  16, {"tf32"},  {{"f32", &kCD16n8_f32}},                         &kSpA16n8k16_tf32,  &kSpB16n8k16_tf32,  &kMeta16n8k16_tf32,  Forms::Both,        80, "9.7.14.6.2.3", "warp-level-matrix-fragment-sparse-mma-16816-tf32"},
        {"S3",  "m16n8k8",   16,  8,   8, {"tf32"},  {{"f32", &kCD16n8_f32}},                         &kSpA16n8k8_tf32,   &kB16n8k8_tf32,     &kMeta16n8k8_tf32,   Forms::Both,        80, "9.7.14.6.2.4", "warp-level-matrix-fragment-sparse-mma-1688-tf32"},
        {"S5",  "m16n8k32",  16,  8,  32, {"s8", "u8"}, {{"s32", &kCD16n8_f32}},                      &kSpA16n8k32_i8,    &kB16n8k32_i8,      &kMeta16n8k32_i8,    Forms::Both,        80, "9.7.14.6.2.5", "warp-level-matrix-fragment-sparse-mma-16832-u8s8"},
        {"S6",  "m16n8k64",  16,  8,  64, {"s8", "u8"}, {{"s32", &kCD16n8_f32}},                      &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit_sm90, &kMeta16n8k64_8bit_sm90, Forms::Both, 80, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8"},
        {"S7",  "m16n8k64",  16,  8,  64, {"e4m3", "e5m2"}, {{"f32", &kCD16n8_f32}},                  &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit_sm90, &kMeta16n8k64_8bit_sm90, Forms::Both, 89, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8"},
        {"S8",  "m16n8k64",  16,  8,  64, {"e4m3", "e5m2"}, {{"f16", &kCD16n8_f16}},                  &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit,  &kMeta16n8k64_8bit,  Forms::OrderedOnly, 120, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8"},
        {"S9",  "m16n8k64",  16,  8,  64, f8f6f4,    {{"f32", &kCD16n8_f32}, {"f16", &kCD16n8_f16}}, &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit,  &kMeta16n8k64_8bit,  Forms::OrderedOnly, 120, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8", "f8f6f4"},
        {"S12", "m16n8k64",  16,  8,  64, f8f6f4,    {{"f32", &kCD16n8_f32}},                         &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit,  &kMeta16n8k64_8bit,  Forms::OrderedOnly, 120, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8", "mxf8f6f4",
                {{".block_scale.scale_vec::1X", "ue8m0"}, {".block_scale", "ue8m0"}}},
        {"S10", "m16n8k64",  16,  8,  64, {"s4", "u4"}, {{"s32", &kCD16n8_f32}},                      &kSpA16n8k64_i4,    &kB16n8k64_i4,      &kMeta16n8k64_i4,    Forms::Both,        80, "9.7.14.6.2.7", "warp-level-matrix-fragment-sparse-mma-16864-u4s4"},
        {"S11", "m16n8k128", 16,  8, 128, {"s4", "u4"}, {{"s32", &kCD16n8_f32}},                      &kSpA16n8k128_4bit, &kSpB16n8k128_4bit_sm90, &kMeta16n8k128_i4, Forms::Both,      80, "9.7.14.6.2.8", "warp-level-matrix-fragment-sparse-mma-168128-u4s4"},
        {"S13", "m16n8k128", 16,  8, 128, {"e2m1"},  {{"f32", &kCD16n8_f32}},                         &kSpA16n8k128_4bit, &kSpB16n8k128_4bit, &kMeta16n8k128_e2m1, Forms::OrderedOnly, 120, "9.7.14.6.2.8", "warp-level-matrix-fragment-sparse-mma-168128-u4s4", "mxf4",
                {{".block_scale.scale_vec::2X", "ue8m0"}, {".block_scale", "ue8m0"}}},
        {"S13", "m16n8k128", 16,  8, 128, {"e2m1"},  {{"f32", &kCD16n8_f32}},                         &kSpA16n8k128_4bit, &kSpB16n8k128_4bit, &kMeta16n8k128_e2m1, Forms::OrderedOnly, 120, "9.7.14.6.2.8", "warp-level-matrix-fragment-sparse-mma-168128-u4s4", "mxf4nvf4",
                {{".block_scale.scale_vec::4X", "ue4m3"}, {".block_scale.scale_vec::2X", "ue8m0"}}},
    };
    return rows;
}

std::string sparsePtx(std::string_view family, const SparseRow& row, const ScaleForm* scale, std::string_view ctype,
                      std::string_view atype, std::string_view btype) {
    std::string kind = row.kind;
    if (scale) kind += scale->qualifiers;
    std::string s = mmaPtx(row.shape, "row", "col", kind, ctype, atype, btype, ctype, family);
    if (scale) (s += '.') += scale->stype;
    return s;
}

void registerRow(Catalog& catalog, const SparseRow& row) {
    static const char* const kPlain = "mma.sp";
    static const char* const kOrdered = "mma.sp::ordered_metadata";
    std::vector<const char*> families;
    if (row.forms == Forms::Both) families.push_back(kPlain);
    families.push_back(kOrdered);
    const std::string_view shape(row.shape);
    for (const char* family : families) {
        const bool ordered = family == kOrdered;
        for (const char* atype : row.atypes) {
            for (const Accum& accum : row.accums) {
                const std::string_view a(atype);
                Variant v;
                v.family = Family::MmaSp;
                v.ordered = ordered;
                v.m = row.m;
                v.n = row.n;
                v.k = row.k;
                v.atype = v.btype = atype;
                v.ctype = v.dtype = accum.ctype;
                v.kind = row.kind;
                v.minSm = row.minSm;
                v.section = row.section;
                v.anchor = row.anchor;
                v.spec = shortSpec(family, shape, "", row.kind, a, accum.ctype, accum.ctype);
                const ScaleForm* scale = row.scale.empty() ? nullptr : &row.scale.front();
                v.ptx = sparsePtx(family, row, scale, accum.ctype, a, a);
                for (std::size_t s = 1; s < row.scale.size(); ++s)
                    v.ptxAliases.push_back(sparsePtx(family, row, &row.scale[s], accum.ctype, a, a));
                if (std::string_view(row.kind).empty())
                    for (const std::string& b : mixedPartners(a))
                        if (b != a) v.ptxAliases.push_back(sparsePtx(family, row, nullptr, accum.ctype, a, b));

                v.notes.push_back(std::string("ptx-catalog.md §2.3 ") + row.id +
                                  "; A is compressed: each thread holds the kept (non-zero) elements of the chunks "
                                  "of its column range [firstcol..lastcol]; the metadata operand says which columns");
                if (!ordered)
                    v.notes.push_back("plain mma.sp may have substantially reduced performance on some targets; "
                                      "PTX advises mma.sp::ordered_metadata (same layout, sorted indices)");
                else
                    v.notes.push_back("::ordered_metadata: the indices of each chunk must be sorted, increasing from "
                                      "the LSB");
                if (a == "e4m3" || a == "e5m2")
                    v.notes.push_back("A and B may mix .e4m3 and .e5m2; the layout is the same");
                if (a == "s8" || a == "u8" || a == "s4" || a == "u4")
                    v.notes.push_back("A and B may mix signed and unsigned types; the layout is the same");
                if (!std::string_view(row.kind).empty())
                    v.notes.push_back(
                        std::string("sm_120 family only (.kind::") + row.kind + "); A and B may be any pair of " +
                        (shape == "m16n8k128" ? "e2m1 (packed 4-bit)" : ".e4m3/.e5m2/.e3m2/.e2m3/.e2m1, each in an "
                                                                         "8-bit container"));
                if (std::string_view(row.kind) == "f8f6f4")
                    v.notes.push_back("ptxas 13.0 also accepts .e4m3/.e5m2-only operands with .f32 accumulation for "
                                      "sm_100a/100f/103a/110a (ptx-catalog.md E15)");
                if (!row.scale.empty()) {
                    std::string forms;
                    for (const ScaleForm& f : row.scale) forms += (forms.empty() ? "" : ", ") + std::string(f.qualifiers) + " ." + f.stype;
                    v.notes.push_back("block scaling (§9.7.14.3): extra operands scale-a-data, {byte-id-a, thread-id-a}, "
                                      "scale-b-data, {byte-id-b, thread-id-b}; the scale-factor operands are not drawn "
                                      "yet; PTX forms: " + forms);
                }
                if (std::string_view(row.kind) == "mxf4nvf4" || std::string_view(row.kind) == "mxf4")
                    v.notes.push_back("sm_120a and sm_121a only (not the sm_120f family)");
                if (shape == "m16n8k32" && (a == "f16" || a == "bf16")) v.errata.push_back(erratumE9());
                if (shape == "m16n8k16" && a == "tf32") v.errata.push_back(erratumE8());
                if (std::string_view(row.id) == "S8") v.errata.push_back(erratumE10());

                const SparseRow* r = &row;
                const Accum acc = accum;
                catalog.add(std::move(v), [r, acc](Instruction& in) {
                    in.operands.push_back(makeOperand("A", in.atype, 32, *r->a));
                    in.operands.push_back(makeOperand("B", in.btype, 32, *r->b));
                    in.operands.push_back(makeOperand("C", acc.ctype, 32, *acc.cd));
                    in.operands.push_back(makeOperand("D", acc.ctype, 32, *acc.cd));
                    const sparse::StorageRule* rule = sparse::ruleForContainerBits(in.operands.front().containerBits());
                    if (!rule) throw std::logic_error("no sparsity rule for the A operand of " + in.spec);
                    // Shared: the .f32 and .f16 accumulator forms (and aliases) of one row have the same table.
                    static detail::SharedCache<std::tuple<const MetadataFigure*, const sparse::StorageRule*, bool, int>,
                                               MetadataLayout>
                        cache;
                    in.metadata = cache.get({r->metadata, rule, in.ordered, in.k},
                                            [&] { return buildMetadata(*r->metadata, *rule, in.ordered, in.k); });
                });
            }
        }
    }
}

} // namespace

} // namespace lanemap::family::mmasp

namespace lanemap {

void registerSparseMma(Catalog& catalog) {
    for (const family::mmasp::SparseRow& row : family::mmasp::sparseTable()) family::mmasp::registerRow(catalog, row);
}

} // namespace lanemap
