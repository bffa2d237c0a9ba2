// Dense warp-level mma.sync: PTX 9.1 §9.7.14.5.1–.13 as data.
// Each formula is the ISA's text with g = groupID, t = threadID_in_group; each table row is one
// fragment table of the ISA (shape, types, registers, figure).

#include "families/mma/mma_fragments.hpp"

namespace lanemap::family::mma {

namespace {
constexpr int g(const Lane& l) {
    return l.groupID;
}
constexpr int t(const Lane& l) {
    return l.threadID_in_group;
}
constexpr bool high(const Lane& l) {
    return l.lane >= 16;
} // m8n8k4 "high group"
constexpr int quad(const Lane& l) {
    return (l.lane >> 2) & 3;
} // m8n8k4 MMA computation 1..4 -> 0..3
} // namespace

// §9.7.14.5.1 m8n8k4 .f16 ---------------------------------------------------------------------------
Cell fig46_A884_row(const Lane& l, int i, int) {
    return {l.lane % 4 + (high(l) ? 4 : 0), i, -1, quad(l)};
}
Cell fig47_A884_col(const Lane& l, int i, int) {
    return {i % 4 + (high(l) ? 4 : 0), l.lane % 4, -1, quad(l)};
}
Cell fig48_B884_row(const Lane& l, int i, int) {
    return {l.lane % 4, i + (high(l) ? 4 : 0), -1, quad(l)};
}
Cell fig49_B884_col(const Lane& l, int i, int) {
    return {i, l.lane % 4 + (high(l) ? 4 : 0), -1, quad(l)};
}
Cell fig50_C884_f16(const Lane& l, int i, int) {
    return {l.lane % 4 + (high(l) ? 4 : 0), i, -1, quad(l)};
}
Cell fig51_C884_f32(const Lane& l, int i, int) {
    const int X = (l.lane & 0b1) + (i & 0b10);
    return {X + (high(l) ? 4 : 0), (i & 0b100) + (l.lane & 0b10) + (i & 0b1), -1, quad(l)};
}

// §9.7.14.5.2–.5 m8n8kK ------------------------------------------------------------------------------
static Cell fig53_A884_f64(const Lane& l, int, int) {
    return {l.lane >> 2, l.lane % 4};
}
static Cell fig54_B884_f64(const Lane& l, int, int) {
    return {l.lane % 4, l.lane >> 2};
}
static Cell fig55_C8n8(const Lane& l, int i, int) {
    return {g(l), t(l) * 2 + (i & 0x1)};
}
static Cell fig56_A8816(const Lane& l, int i, int) {
    return {g(l), t(l) * 4 + i};
}
static Cell fig57_B8816(const Lane& l, int i, int) {
    return {t(l) * 4 + i, g(l)};
}
static Cell fig59_A8832(const Lane& l, int i, int) {
    return {g(l), t(l) * 8 + i};
}
static Cell fig60_B8832(const Lane& l, int i, int) {
    return {t(l) * 8 + i, g(l)};
}
static Cell fig62_A88128(const Lane& l, int i, int) {
    return {g(l), t(l) * 32 + i};
}
static Cell fig63_B88128(const Lane& l, int i, int) {
    return {t(l) * 32 + i, g(l)};
}

// The m16n8 accumulator ------------------------------------------------------------------------------
Cell fig83_C16n8(const Lane& l, int i, int) {
    return {i < 2 ? g(l) : g(l) + 8, t(l) * 2 + (i & 0x1)};
}

// §9.7.14.5.6 m16n8k4 --------------------------------------------------------------------------------
static Cell fig65_A1684(const Lane& l, int i, int) {
    return {i == 0 ? g(l) : g(l) + 8, t(l)};
}
static Cell fig67_B1684(const Lane& l, int, int) {
    return {t(l), g(l)};
}

// §9.7.14.5.7 m16n8k8 --------------------------------------------------------------------------------
static Cell fig71_A1688_f16(const Lane& l, int i, int) {
    return {i < 2 ? g(l) : g(l) + 8, t(l) * 2 + (i & 0x1)};
}
static Cell fig72_A1688_tf32(const Lane& l, int i, int) {
    return {(i == 0 || i == 2) ? g(l) : g(l) + 8, i < 2 ? t(l) : t(l) + 4};
}
static Cell fig74_B1688_f16(const Lane& l, int i, int) {
    return {t(l) * 2 + i, g(l)};
}
static Cell fig75_B1688_tf32(const Lane& l, int i, int) {
    return {i == 0 ? t(l) : t(l) + 4, g(l)};
}

// §9.7.14.5.8 m16n8k16 floating point ----------------------------------------------------------------
static Cell fig79_A16816_f16(const Lane& l, int i, int) {
    return {(i < 2 || (4 <= i && i < 6)) ? g(l) : g(l) + 8,
            i < 4 ? t(l) * 2 + (i & 0x1) : t(l) * 2 + (i & 0x1) + 8};
}
// Erratum E2: the odd-i branch has an unbalanced parenthesis; (i * 2) - 2 + threadID_in_group is meant.
static Cell fig80_A16816_f64(const Lane& l, int i, int) {
    return {i % 2 == 0 ? g(l) : g(l) + 8, i % 2 == 0 ? (i * 2) + t(l) : (i * 2) - 2 + t(l)};
}
static Cell fig81_B16816_f16(const Lane& l, int i, int) {
    return {i < 2 ? t(l) * 2 + (i & 0x1) : t(l) * 2 + (i & 0x1) + 8, g(l)};
}
static Cell fig82_B16816_f64(const Lane& l, int i, int) {
    return {t(l) + (i * 4), g(l)};
}

// §9.7.14.5.9 m16n8k16 integer and fp8 ---------------------------------------------------------------
static Cell fig84_A16816_i8(const Lane& l, int i, int) {
    return {i < 4 ? g(l) : g(l) + 8, t(l) * 4 + (i & 0x3)};
}
static Cell fig85_B16816_i8(const Lane& l, int i, int) {
    return {t(l) * 4 + i, g(l)};
}

// §9.7.14.5.10 m16n8k32 ------------------------------------------------------------------------------
static Cell fig87_A16832_i4(const Lane& l, int i, int) {
    return {i < 8 ? g(l) : g(l) + 8, t(l) * 8 + (i & 0x7)};
}
static Cell fig88_A16832_i8(const Lane& l, int i, int) {
    return {(i < 4 || (8 <= i && i < 12)) ? g(l) : g(l) + 8,
            i < 8 ? t(l) * 4 + (i & 0x3) : t(l) * 4 + (i & 0x3) + 16};
}
static Cell fig89_B16832_i4(const Lane& l, int i, int) {
    return {t(l) * 8 + (i & 0x7), g(l)};
}
static Cell fig90_B16832_i8(const Lane& l, int i, int) {
    return {i < 4 ? t(l) * 4 + (i & 0x3) : t(l) * 4 + (i & 0x3) + 16, g(l)};
}

// §9.7.14.5.11 m16n8k64 ------------------------------------------------------------------------------
static Cell fig93_A16864_i4(const Lane& l, int i, int) {
    return {(i < 8 || (16 <= i && i < 24)) ? g(l) : g(l) + 8,
            i < 16 ? t(l) * 8 + (i & 0x7) : t(l) * 8 + (i & 0x7) + 32};
}
static Cell fig94_B16864_i4(const Lane& l, int i, int) {
    return {i < 8 ? t(l) * 8 + (i & 0x7) : t(l) * 8 + (i & 0x7) + 32, g(l)};
}

// §9.7.14.5.12 m16n8k128 -----------------------------------------------------------------------------
static Cell fig97_A168128(const Lane& l, int i, int) {
    return {i < 32 ? g(l) : g(l) + 8, t(l) * 32 + (i & 0x1F)};
}
static Cell fig98_B168128(const Lane& l, int i, int) {
    return {t(l) * 32 + i, g(l)};
}

// §9.7.14.5.13 m16n8k256 -----------------------------------------------------------------------------
// Erratum E1: the ISA writes `(threadID_in_group * 32) + i` for i < 64, which overlaps the i >= 64 branch.
// The form that covers the tile exactly once (as m16n8k128 does) masks i with 0x1F.
static Cell fig100_A168256(const Lane& l, int i, int) {
    return {(i < 32 || (64 <= i && i < 96)) ? g(l) : g(l) + 8,
            i < 64 ? t(l) * 32 + (i & 0x1F) : t(l) * 32 + (i & 0x1F) + 128};
}
static Cell fig101_B168256(const Lane& l, int i, int) {
    return {i < 32 ? t(l) * 32 + (i & 0x1F) : t(l) * 32 + (i & 0x1F) + 128, g(l)};
}

// --- fragments: {rows, cols, matrices, registers, register bits, elements per register} + formula -----
// clang-format off
const Fragment kCD16n8_f32   {{16,   8, 1, 4, 32, 1}, fig83_C16n8};
const Fragment kCD16n8_f16   {{16,   8, 1, 2, 32, 2}, fig83_C16n8};
const Fragment kCD16n8_f64   {{16,   8, 1, 4, 64, 1}, fig83_C16n8};
const Fragment kA16n8k8_f16  {{16,   8, 1, 2, 32, 2}, fig71_A1688_f16};
const Fragment kB16n8k8_f16  {{ 8,   8, 1, 1, 32, 2}, fig74_B1688_f16};
const Fragment kA16n8k8_tf32 {{16,   8, 1, 4, 32, 1}, fig72_A1688_tf32};
const Fragment kB16n8k8_tf32 {{ 8,   8, 1, 2, 32, 1}, fig75_B1688_tf32};
const Fragment kA16n8k16_f16 {{16,  16, 1, 4, 32, 2}, fig79_A16816_f16};
const Fragment kB16n8k16_f16 {{16,   8, 1, 2, 32, 2}, fig81_B16816_f16};
const Fragment kA16n8k16_i8  {{16,  16, 1, 2, 32, 4}, fig84_A16816_i8};
const Fragment kB16n8k16_i8  {{16,   8, 1, 1, 32, 4}, fig85_B16816_i8};
const Fragment kA16n8k32_i8  {{16,  32, 1, 4, 32, 4}, fig88_A16832_i8};
const Fragment kB16n8k32_i8  {{32,   8, 1, 2, 32, 4}, fig90_B16832_i8};
const Fragment kA16n8k32_i4  {{16,  32, 1, 2, 32, 8}, fig87_A16832_i4};
const Fragment kB16n8k32_i4  {{32,   8, 1, 1, 32, 8}, fig89_B16832_i4};
const Fragment kA16n8k64_i4  {{16,  64, 1, 4, 32, 8}, fig93_A16864_i4};
const Fragment kB16n8k64_i4  {{64,   8, 1, 2, 32, 8}, fig94_B16864_i4};
const Fragment kA16n8k256_b1 {{16, 256, 1, 4, 32, 32}, fig100_A168256, Source::Inferred}; // E1 corrected

namespace {
const Fragment kA884_f16_row {{8, 4, 4, 2, 32, 2}, fig46_A884_row};
const Fragment kA884_f16_col {{8, 4, 4, 2, 32, 2}, fig47_A884_col};
const Fragment kB884_f16_row {{4, 8, 4, 2, 32, 2}, fig48_B884_row};
const Fragment kB884_f16_col {{4, 8, 4, 2, 32, 2}, fig49_B884_col};
const Fragment kC884_f16     {{8, 8, 4, 4, 32, 2}, fig50_C884_f16};
const Fragment kC884_f32     {{8, 8, 4, 8, 32, 1}, fig51_C884_f32};

const Fragment kA884_f64     {{ 8,   4, 1, 1, 64,  1}, fig53_A884_f64};
const Fragment kB884_f64     {{ 4,   8, 1, 1, 64,  1}, fig54_B884_f64};
const Fragment kCD8n8_f64    {{ 8,   8, 1, 2, 64,  1}, fig55_C8n8};
const Fragment kCD8n8_s32    {{ 8,   8, 1, 2, 32,  1}, fig55_C8n8};
const Fragment kA8816        {{ 8,  16, 1, 1, 32,  4}, fig56_A8816};
const Fragment kB8816        {{16,   8, 1, 1, 32,  4}, fig57_B8816};
const Fragment kA8832        {{ 8,  32, 1, 1, 32,  8}, fig59_A8832};
const Fragment kB8832        {{32,   8, 1, 1, 32,  8}, fig60_B8832};
const Fragment kA88128       {{ 8, 128, 1, 1, 32, 32}, fig62_A88128};
const Fragment kB88128       {{128,  8, 1, 1, 32, 32}, fig63_B88128};
const Fragment kA1684_tf32   {{16,   4, 1, 2, 32,  1}, fig65_A1684};
const Fragment kA1684_f64    {{16,   4, 1, 2, 64,  1}, fig65_A1684};
const Fragment kB1684_tf32   {{ 4,   8, 1, 1, 32,  1}, fig67_B1684};
const Fragment kB1684_f64    {{ 4,   8, 1, 1, 64,  1}, fig67_B1684};
const Fragment kA1688_f64    {{16,   8, 1, 4, 64,  1}, fig72_A1688_tf32};
const Fragment kB1688_f64    {{ 8,   8, 1, 2, 64,  1}, fig75_B1688_tf32};
const Fragment kA16816_f64   {{16,  16, 1, 8, 64,  1}, fig80_A16816_f64};
const Fragment kB16816_f64   {{16,   8, 1, 4, 64,  1}, fig82_B16816_f64};
const Fragment kA168128      {{16, 128, 1, 2, 32, 32}, fig97_A168128};
const Fragment kB168128      {{128,  8, 1, 1, 32, 32}, fig98_B168128};
const Fragment kB168256      {{256,  8, 1, 2, 32, 32}, fig101_B168256};
// clang-format on

// The accumulator fragment of each C/D type.
Fragment cd16n8(ElementType t, int) {
    return t == ElementType::F16 ? kCD16n8_f16 : t == ElementType::F64 ? kCD16n8_f64 : kCD16n8_f32;
}
Fragment cd8n8(ElementType t, int) {
    return t == ElementType::F64 ? kCD8n8_f64 : kCD8n8_s32;
}
Fragment cd884(ElementType t, int) {
    return t == ElementType::F16 ? kC884_f16 : kC884_f32;
}

using enum ElementType;
constexpr const Family* M = &kMma;
const std::vector<Accumulator> kF32{acc(F32)}, kF32F16{acc(F32), acc(F16)}, kS32{acc(S32)}, kF64{acc(F64)};

// One atom per fragment table of §9.7.14.5 (and one per type that takes another A/B fragment or minimum SM).
// clang-format off
const std::vector<Atom>& denseAtoms() {
    static const std::vector<Atom> atoms = {
        // family m  {n}  k  A/B types        accumulators  A              B               C/D     SM   section        anchor
        {M,  8, {8},   4, {F16},           {acc(F16), {F16, F32}, acc(F32)}, &kA884_f16_row, &kB884_f16_row, cd884, 70, "9.7.14.5.1", "warp-level-matrix-fragment-mma-884-f16",
             nullptr, SparseForms::Both, Kind::None, {}, MajorPair{Major::Row, Major::Row}},
        {M,  8, {8},   4, {F16},           {acc(F16), {F16, F32}, acc(F32)}, &kA884_f16_row, &kB884_f16_col, cd884, 70, "9.7.14.5.1", "warp-level-matrix-fragment-mma-884-f16",
             nullptr, SparseForms::Both, Kind::None, {}, MajorPair{Major::Row, Major::Col}},
        {M,  8, {8},   4, {F16},           {acc(F16), {F16, F32}, acc(F32)}, &kA884_f16_col, &kB884_f16_row, cd884, 70, "9.7.14.5.1", "warp-level-matrix-fragment-mma-884-f16",
             nullptr, SparseForms::Both, Kind::None, {}, MajorPair{Major::Col, Major::Row}},
        {M,  8, {8},   4, {F16},           {acc(F16), {F16, F32}, acc(F32)}, &kA884_f16_col, &kB884_f16_col, cd884, 70, "9.7.14.5.1", "warp-level-matrix-fragment-mma-884-f16",
             nullptr, SparseForms::Both, Kind::None, {}, MajorPair{Major::Col, Major::Col}},
        {M,  8, {8},   4, {F64},           kF64,    &kA884_f64,     &kB884_f64,     cd8n8,  80, "9.7.14.5.2",  "warp-level-matrix-fragment-mma-884-f64"},
        {M,  8, {8},  16, {S8, U8},        kS32,    &kA8816,        &kB8816,        cd8n8,  75, "9.7.14.5.3",  "warp-level-matrix-fragment-mma-8816"},
        {M,  8, {8},  32, {S4, U4},        kS32,    &kA8832,        &kB8832,        cd8n8,  75, "9.7.14.5.4",  "warp-level-matrix-fragment-mma-8832"},
        {M,  8, {8}, 128, {B1},            kS32,    &kA88128,       &kB88128,       cd8n8,  75, "9.7.14.5.5",  "warp-level-matrix-fragment-mma-88128"},
        {M, 16, {8},   4, {TF32},          kF32,    &kA1684_tf32,   &kB1684_tf32,   cd16n8, 80, "9.7.14.5.6",  "warp-level-matrix-fragment-mma-1684"},
        {M, 16, {8},   4, {F64},           kF64,    &kA1684_f64,    &kB1684_f64,    cd16n8, 90, "9.7.14.5.6",  "warp-level-matrix-fragment-mma-1684"},
        {M, 16, {8},   8, {F16},           kF32F16, &kA16n8k8_f16,  &kB16n8k8_f16,  cd16n8, 75, "9.7.14.5.7",  "warp-level-matrix-fragment-mma-1688"},
        {M, 16, {8},   8, {BF16},          kF32,    &kA16n8k8_f16,  &kB16n8k8_f16,  cd16n8, 80, "9.7.14.5.7",  "warp-level-matrix-fragment-mma-1688"},
        {M, 16, {8},   8, {TF32},          kF32,    &kA16n8k8_tf32, &kB16n8k8_tf32, cd16n8, 80, "9.7.14.5.7",  "warp-level-matrix-fragment-mma-1688"},
        {M, 16, {8},   8, {F64},           kF64,    &kA1688_f64,    &kB1688_f64,    cd16n8, 90, "9.7.14.5.7",  "warp-level-matrix-fragment-mma-1688"},
        {M, 16, {8},  16, {F16},           kF32F16, &kA16n8k16_f16, &kB16n8k16_f16, cd16n8, 80, "9.7.14.5.8",  "warp-level-matrix-fragment-mma-16816-float"},
        {M, 16, {8},  16, {BF16},          kF32,    &kA16n8k16_f16, &kB16n8k16_f16, cd16n8, 80, "9.7.14.5.8",  "warp-level-matrix-fragment-mma-16816-float"},
        {M, 16, {8},  16, {F64},           kF64,    &kA16816_f64,   &kB16816_f64,   cd16n8, 90, "9.7.14.5.8",  "warp-level-matrix-fragment-mma-16816-float"},
        {M, 16, {8},  16, {S8, U8},        kS32,    &kA16n8k16_i8,  &kB16n8k16_i8,  cd16n8, 80, "9.7.14.5.9",  "warp-level-matrix-fragment-mma-16816-i8-f8"},
        {M, 16, {8},  16, {E4M3, E5M2},    kF32F16, &kA16n8k16_i8,  &kB16n8k16_i8,  cd16n8, 89, "9.7.14.5.9",  "warp-level-matrix-fragment-mma-16816-i8-f8"},
        {M, 16, {8},  32, {S8, U8},        kS32,    &kA16n8k32_i8,  &kB16n8k32_i8,  cd16n8, 80, "9.7.14.5.10", "warp-level-matrix-fragment-mma-16832"},
        {M, 16, {8},  32, {S4, U4},        kS32,    &kA16n8k32_i4,  &kB16n8k32_i4,  cd16n8, 80, "9.7.14.5.10", "warp-level-matrix-fragment-mma-16832"},
        {M, 16, {8},  32, {E4M3, E5M2},    kF32F16, &kA16n8k32_i8,  &kB16n8k32_i8,  cd16n8, 89, "9.7.14.5.10", "warp-level-matrix-fragment-mma-16832"},
        {M, 16, {8},  32, {E4M3, E5M2, E3M2, E2M3, E2M1}, kF32F16, &kA16n8k32_i8, &kB16n8k32_i8, cd16n8, 120, "9.7.14.5.10", "warp-level-matrix-fragment-mma-16832",
             nullptr, SparseForms::Both, Kind::F8F6F4},
        {M, 16, {8},  64, {S4, U4},        kS32,    &kA16n8k64_i4,  &kB16n8k64_i4,  cd16n8, 80, "9.7.14.5.11", "warp-level-matrix-fragment-mma-16864"},
        {M, 16, {8}, 128, {B1},            kS32,    &kA168128,      &kB168128,      cd16n8, 80, "9.7.14.5.12", "warp-level-matrix-fragment-mma-168128"},
        {M, 16, {8}, 256, {B1},            kS32,    &kA16n8k256_b1, &kB168256,      cd16n8, 80, "9.7.14.5.13", "warp-level-matrix-fragment-mma-168256"},
    };
    return atoms;
}
// clang-format on
} // namespace

} // namespace lanemap::family::mma

namespace lanemap {

void registerDenseMma(Catalog& catalog) {
    for (const family::Atom& atom : family::mma::denseAtoms())
        family::registerAtom(catalog, atom);
}

} // namespace lanemap
