// Sparse warp-level mma.sp / mma.sp::ordered_metadata: PTX 9.1 §9.7.14.6 as data.
// A formulas are the ISA's text (compressed A: each element may sit anywhere in [firstcol..lastcol]); B, C
// and D reuse the dense fragments where the ISA says "same as"; the figure-only B fragments and every
// metadata figure carry the document they come from (docs/reference/ptx-facts.md#sparse-metadata) as their
// source.

#include "families/mma_sp/mma_sparse.hpp"

#include "families/mma/mma_fragments.hpp"

#include <vector>

namespace lanemap::family::mmasp {

namespace {
constexpr int g(const Lane& l) {
    return l.groupID;
}
constexpr int t(const Lane& l) {
    return l.threadID_in_group;
}
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

// --- B fragments the ISA gives only as figures (docs/reference/ptx-facts.md#sparse-b-fragments) ------------

// Fig. 121 [INF]: extends the dense m16n8k16 B pattern to four registers.
static Cell fig121_B16832_f16(const Lane& l, int i, int) {
    return {t(l) * 2 + (i & 0x1) + 8 * (i >> 1), g(l)};
}
// Fig. 124 [INF]: the same image is dense m16n8k16 .f64 B (Fig. 82), whose text gives this formula.
static Cell fig124_B16816_tf32(const Lane& l, int i, int) {
    return {t(l) + i * 4, g(l)};
}
// Figs. 132-135 [CUTLASS] SM120_SPARSE_16x8x64_TN::BLayout.
static Cell fig132_B16864_8bit(const Lane& l, int i, int) {
    return {t(l) * 4 + (i & 0x3) + 16 * (i >> 2), g(l)};
}
// Figs. 142-145 [CUTLASS] SM120 16x8x128 BLayout.
static Cell fig142_B168128_4bit(const Lane& l, int i, int) {
    return {t(l) * 8 + (i & 0x7) + 32 * (i >> 3), g(l)};
}

// --- metadata figures: field j = bits [4j+3 : 4j] of lane l under selector F -------------------------------

// Fig. 119 [EMP]: lane 4g+F; fields 0-3 -> row g, chunks 0-3; fields 4-7 -> row g+8.
static std::optional<Cell> fig119_meta16816_f16(const Lane& l, int j, int F) {
    if (t(l) != F)
        return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 4 * (j % 4)};
}
// Fig. 122 [CUTLASS]: pair 4g+2F (cols 0-15), 4g+2F+1 (cols 16-31); bits [15:0] row g, [31:16] row g+8.
static std::optional<Cell> fig122_meta16832_f16(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F)
        return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 16 * (t(l) & 1) + 4 * (j % 4)};
}
// Fig. 127 [INF]: the k16 tf32 figure cut down to one lane: lane 4g+F; 2-column chunks.
static std::optional<Cell> fig127_meta1688_tf32(const Lane& l, int j, int F) {
    if (t(l) != F)
        return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 2 * (j % 4)};
}
// Fig. 125 [CUTLASS]: pair 4g+2F (cols 0-7), 4g+2F+1 (cols 8-15); bits [15:0] row g, [31:16] row g+8.
static std::optional<Cell> fig125_meta16816_tf32(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F)
        return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 8 * (t(l) & 1) + 2 * (j % 4)};
}
// Figs. 136/137 [CUTLASS]: all four lanes; lane bit 0 -> row g+8, lane bit 1 -> cols 32-63; field j -> chunk
// j.
static std::optional<Cell> fig136_meta16864_8bit(const Lane& l, int j, int) {
    return Cell{g(l) + 8 * (t(l) & 1), 32 * (t(l) >> 1) + 4 * j};
}
// Figs. 146/147: all four lanes; lane bit 0 -> row g+8, lane bit 1 -> cols 64-127; field j -> 8-column chunk
// j.
static std::optional<Cell> fig146_meta168128_4bit(const Lane& l, int j, int) {
    return Cell{g(l) + 8 * (t(l) & 1), 64 * (t(l) >> 1) + 8 * j};
}
// Fig. 129 UNRESOLVED, two readings. Rows per lane (the k64 pattern on pair 4g+2F, 4g+2F+1): lane bit 0 ->
// row.
static std::optional<Cell> fig129_meta16832_i8_rows(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F)
        return std::nullopt;
    return Cell{g(l) + 8 * (t(l) & 1), 4 * j};
}
// K halves per lane (the f16 k32 pattern): lane bit 0 -> cols 16-31; bits [15:0] row g, [31:16] row g+8.
static std::optional<Cell> fig129_meta16832_i8_khalves(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F)
        return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 16 * (t(l) & 1) + 4 * (j % 4)};
}
// Fig. 139 UNRESOLVED, the same two readings with 8-column chunks.
static std::optional<Cell> fig139_meta16864_i4_rows(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F)
        return std::nullopt;
    return Cell{g(l) + 8 * (t(l) & 1), 8 * j};
}
static std::optional<Cell> fig139_meta16864_i4_khalves(const Lane& l, int j, int F) {
    if (t(l) >> 1 != F)
        return std::nullopt;
    return Cell{j < 4 ? g(l) : g(l) + 8, 32 * (t(l) & 1) + 8 * (j % 4)};
}

// clang-format off
const char* const kRowsPerLane = "lane 4g+2F holds row g and lane 4g+2F+1 row g+8, all of K, one field per chunk "
                                 "(the m16n8k64 8-bit pattern restricted to the selected pair)";
const char* const kKHalvesPerLane = "lane 4g+2F holds the first half of K and lane 4g+2F+1 the second; bits [15..0] "
                                    "row g, bits [31..16] row g+8 (the m16n8k32 .f16 pattern)";

// clang-format off
const MetadataFigure kMeta16n8k16_f16{"Fig. 119", {0, 1, 2, 3}, "one lane per quad: lane 4g+F", Source::Figure,
    "the ISA figure; a randomized GPU test of all four selectors (kmsmith137/gputils test-sparse-mma.cu) agrees",
    {{"figure", "", fig119_meta16816_f16}}};
const MetadataFigure kMeta16n8k32_f16{"Fig. 122", {0, 1}, "a thread pair: lanes 4g+2F and 4g+2F+1", Source::Cutlass,
    "CUTLASS ELayout_64x32 (mma_traits_sm90_gmma_sparse.hpp); the ISA draws wgmma m64nNk32 with the same image",
    {{"figure", "", fig122_meta16832_f16}}};
const MetadataFigure kMeta16n8k8_tf32{"Fig. 127", {0, 1, 2, 3}, "one lane per quad: lane 4g+F", Source::Inferred,
    "the m16n8k16 .tf32 figure cut down to one lane",
    {{"figure", "", fig127_meta1688_tf32}}};
const MetadataFigure kMeta16n8k16_tf32{"Fig. 125", {0, 1}, "a thread pair: lanes 4g+2F and 4g+2F+1", Source::Cutlass,
    "CUTLASS ELayout_64x16 (mma_traits_sm90_gmma_sparse.hpp); wgmma m64nNk16 .tf32 reuses the image",
    {{"figure", "", fig125_meta16816_tf32}}};
// Two readings of an unreadable figure; the first is shown until a recorded run decides (the H100 did: see the
// evidence overlay, which names the run).
const MetadataFigure kMeta16n8k32_i8{"Fig. 129", {0, 1}, "a thread pair: lanes 4g+2F and 4g+2F+1", Source::Inferred,
    "the figure cannot be read and CUTLASS has no layout for it; two readings follow the neighbouring figures",
    {{"rows-per-lane", kRowsPerLane, fig129_meta16832_i8_rows},
     {"k-halves-per-lane", kKHalvesPerLane, fig129_meta16832_i8_khalves}}};
const MetadataFigure kMeta16n8k64_8bit{"Figs. 136/137", {0}, "all four lanes of each quad (selector 0 only)", Source::Cutlass,
    "CUTLASS wgmma ELayout_64x64 and SM120_SPARSE_16x8x64_TN::ELayout",
    {{"figure", "", fig136_meta16864_8bit}}};
const MetadataFigure kMeta16n8k64_i4{"Fig. 139", {0, 1}, "a thread pair: lanes 4g+2F and 4g+2F+1", Source::Inferred,
    "the figure cannot be read and CUTLASS has no layout for it; two readings follow the neighbouring figures",
    {{"rows-per-lane", kRowsPerLane, fig139_meta16864_i4_rows},
     {"k-halves-per-lane", kKHalvesPerLane, fig139_meta16864_i4_khalves}}};
const MetadataFigure kMeta16n8k128_i4{"Figs. 146/147", {0}, "all four lanes of each quad (selector 0 only)", Source::Inferred,
    "the figures serve .u4/.s4/.e2m1 alike and CUTLASS encodes them for mxf4 e2m1 only",
    {{"figure", "", fig146_meta168128_4bit}}};
const MetadataFigure kMeta16n8k128_e2m1{"Figs. 146/147", {0}, "all four lanes of each quad (selector 0 only)", Source::Cutlass,
    "CUTLASS SM120 16x8x128 (mxf4) ELayout",
    {{"figure", "", fig146_meta168128_4bit}}};
// clang-format on

namespace {

using mma::kB16n8k16_f16;
using mma::kB16n8k32_i8;
using mma::kB16n8k64_i4;
using mma::kB16n8k8_tf32;

// --- fragments: {rows, cols, matrices, registers, register bits, elements per register} + formula
// -----------
// clang-format off
const Fragment kSpA16n8k16_f16   {{16,  16, 1, 2, 32, 2}, fig118_A16816_f16};
const Fragment kSpA16n8k32_f16   {{16,  32, 1, 4, 32, 2}, fig120_A16832_f16};
const Fragment kSpA16n8k16_tf32  {{16,  16, 1, 4, 32, 1}, fig123_A16816_tf32};
const Fragment kSpA16n8k8_tf32   {{16,   8, 1, 2, 32, 1}, fig126_A1688_tf32};
const Fragment kSpA16n8k32_i8    {{16,  32, 1, 2, 32, 4}, fig128_A16832_i8};
const Fragment kSpA16n8k64_8bit  {{16,  64, 1, 4, 32, 4}, fig130_A16864_8bit};
const Fragment kSpA16n8k64_i4    {{16,  64, 1, 2, 32, 8}, fig138_A16864_i4};
const Fragment kSpA16n8k128_4bit {{16, 128, 1, 4, 32, 8}, fig140_A168128_4bit};

// B fragments the ISA gives only as figures: inferred from the dense pattern, or CUTLASS.
const Fragment kSpB16n8k32_f16   {{32,   8, 1, 4, 32, 2}, fig121_B16832_f16,   Source::Inferred};
const Fragment kSpB16n8k16_tf32  {{16,   8, 1, 4, 32, 1}, fig124_B16816_tf32,  Source::Inferred};
const Fragment kSpB16n8k64_8bit  {{64,   8, 1, 4, 32, 4}, fig132_B16864_8bit,  Source::Cutlass};
const Fragment kSpB16n8k128_4bit {{128,  8, 1, 4, 32, 8}, fig142_B168128_4bit, Source::Cutlass};
// clang-format on

Fragment cd16n8(ElementType t, int) {
    return t == ElementType::F16 ? mma::kCD16n8_f16 : mma::kCD16n8_f32;
}

using enum ElementType;
constexpr const Family* S = &kMmaSp;
constexpr SparseForms Both = SparseForms::Both, Ordered = SparseForms::OrderedOnly;
const std::vector<Accumulator> kF32{acc(F32)}, kF16{acc(F16)}, kF32F16{acc(F32), acc(F16)}, kS32{acc(S32)};
const std::vector<ElementType> kF8F6F4{E4M3, E5M2, E3M2, E2M3, E2M1};

// One atom per sparse fragment table (§9.7.14.6.2; S1..S13 of docs/reference/ptx-facts.md#sparse-mma).
// clang-format off
const std::vector<Atom>& sparseAtoms() {
    static const std::vector<Atom> atoms = {
        // fam m  {n}  k   A/B types    accumulators A                   B                   C/D     SM   section         anchor                                                    metadata            forms
        {S, 16, {8},  16, {F16},        kF32F16, &kSpA16n8k16_f16,   &kB16n8k16_f16,     cd16n8,  80, "9.7.14.6.2.1", "warp-level-matrix-fragment-sparse-mma-16816-f16bf16",     &kMeta16n8k16_f16,  Both},
        {S, 16, {8},  16, {BF16},       kF32,    &kSpA16n8k16_f16,   &kB16n8k16_f16,     cd16n8,  80, "9.7.14.6.2.1", "warp-level-matrix-fragment-sparse-mma-16816-f16bf16",     &kMeta16n8k16_f16,  Both},
        {S, 16, {8},  32, {F16},        kF32F16, &kSpA16n8k32_f16,   &kSpB16n8k32_f16,   cd16n8,  80, "9.7.14.6.2.2", "warp-level-matrix-fragment-sparse-mma-16832-f16bf16",     &kMeta16n8k32_f16,  Both},
        {S, 16, {8},  32, {BF16},       kF32,    &kSpA16n8k32_f16,   &kSpB16n8k32_f16,   cd16n8,  80, "9.7.14.6.2.2", "warp-level-matrix-fragment-sparse-mma-16832-f16bf16",     &kMeta16n8k32_f16,  Both},
        {S, 16, {8},  16, {TF32},       kF32,    &kSpA16n8k16_tf32,  &kSpB16n8k16_tf32,  cd16n8,  80, "9.7.14.6.2.3", "warp-level-matrix-fragment-sparse-mma-16816-tf32",        &kMeta16n8k16_tf32, Both},
        {S, 16, {8},   8, {TF32},       kF32,    &kSpA16n8k8_tf32,   &kB16n8k8_tf32,     cd16n8,  80, "9.7.14.6.2.4", "warp-level-matrix-fragment-sparse-mma-1688-tf32",         &kMeta16n8k8_tf32,  Both},
        {S, 16, {8},  32, {S8, U8},     kS32,    &kSpA16n8k32_i8,    &kB16n8k32_i8,      cd16n8,  80, "9.7.14.6.2.5", "warp-level-matrix-fragment-sparse-mma-16832-u8s8",        &kMeta16n8k32_i8,   Both},
        {S, 16, {8},  64, {S8, U8},     kS32,    &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit,  cd16n8,  80, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8",    &kMeta16n8k64_8bit, Both},
        {S, 16, {8},  64, {E4M3, E5M2}, kF32,    &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit,  cd16n8,  89, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8",    &kMeta16n8k64_8bit, Both},
        {S, 16, {8},  64, {E4M3, E5M2}, kF16,    &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit,  cd16n8, 120, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8",    &kMeta16n8k64_8bit, Ordered},
        {S, 16, {8},  64, kF8F6F4,      kF32F16, &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit,  cd16n8, 120, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8",    &kMeta16n8k64_8bit, Ordered, Kind::F8F6F4},
        {S, 16, {8},  64, kF8F6F4,      kF32,    &kSpA16n8k64_8bit,  &kSpB16n8k64_8bit,  cd16n8, 120, "9.7.14.6.2.6", "warp-level-matrix-fragment-sparse-mma-16864-u8s8-fp8",    &kMeta16n8k64_8bit, Ordered, Kind::MXF8F6F4,
             {{ScaleVec::X1, UE8M0}, {ScaleVec::Default, UE8M0}}},
        {S, 16, {8},  64, {S4, U4},     kS32,    &kSpA16n8k64_i4,    &kB16n8k64_i4,      cd16n8,  80, "9.7.14.6.2.7", "warp-level-matrix-fragment-sparse-mma-16864-u4s4",        &kMeta16n8k64_i4,   Both},
        {S, 16, {8}, 128, {S4, U4},     kS32,    &kSpA16n8k128_4bit, &kSpB16n8k128_4bit, cd16n8,  80, "9.7.14.6.2.8", "warp-level-matrix-fragment-sparse-mma-168128-u4s4",       &kMeta16n8k128_i4,  Both},
        {S, 16, {8}, 128, {E2M1},       kF32,    &kSpA16n8k128_4bit, &kSpB16n8k128_4bit, cd16n8, 120, "9.7.14.6.2.8", "warp-level-matrix-fragment-sparse-mma-168128-u4s4",       &kMeta16n8k128_e2m1, Ordered, Kind::MXF4,
             {{ScaleVec::X2, UE8M0}, {ScaleVec::Default, UE8M0}}},
        {S, 16, {8}, 128, {E2M1},       kF32,    &kSpA16n8k128_4bit, &kSpB16n8k128_4bit, cd16n8, 120, "9.7.14.6.2.8", "warp-level-matrix-fragment-sparse-mma-168128-u4s4",       &kMeta16n8k128_e2m1, Ordered, Kind::MXF4NVF4,
             {{ScaleVec::X4, UE4M3}, {ScaleVec::X2, UE8M0}}},
    };
    return atoms;
}
// clang-format on

} // namespace

} // namespace lanemap::family::mmasp

namespace lanemap {

void registerSparseMma(Catalog& catalog) {
    for (const family::Atom& atom : family::mmasp::sparseAtoms())
        family::registerAtom(catalog, atom);
}

} // namespace lanemap
