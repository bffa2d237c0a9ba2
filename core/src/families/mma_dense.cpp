// Dense warp-level mma.sync: PTX 9.1 §9.7.14.5.1–.13 as data.
// Each formula is the ISA's text with g = groupID, t = threadID_in_group; each table row is one
// fragment table of the ISA (shape, types, registers, figure).

#include "mma_fragments.hpp"

#include "hardware_evidence.hpp"

#include <array>
#include <string>
#include <vector>

namespace lanemap::family::mma {

namespace {
constexpr int g(const Lane& l) { return l.groupID; }
constexpr int t(const Lane& l) { return l.threadID_in_group; }
constexpr bool high(const Lane& l) { return l.lane >= 16; } // m8n8k4 "high group"
constexpr int quad(const Lane& l) { return (l.lane >> 2) & 3; } // m8n8k4 MMA computation 1..4 -> 0..3
} // namespace

// §9.7.14.5.1 m8n8k4 .f16 ---------------------------------------------------------------------------
Cell fig46_A884_row(const Lane& l, int i, int) { return {l.lane % 4 + (high(l) ? 4 : 0), i, -1, quad(l)}; }
Cell fig47_A884_col(const Lane& l, int i, int) { return {i % 4 + (high(l) ? 4 : 0), l.lane % 4, -1, quad(l)}; }
Cell fig48_B884_row(const Lane& l, int i, int) { return {l.lane % 4, i + (high(l) ? 4 : 0), -1, quad(l)}; }
Cell fig49_B884_col(const Lane& l, int i, int) { return {i, l.lane % 4 + (high(l) ? 4 : 0), -1, quad(l)}; }
Cell fig50_C884_f16(const Lane& l, int i, int) { return {l.lane % 4 + (high(l) ? 4 : 0), i, -1, quad(l)}; }
Cell fig51_C884_f32(const Lane& l, int i, int) {
    const int X = (l.lane & 0b1) + (i & 0b10);
    return {X + (high(l) ? 4 : 0), (i & 0b100) + (l.lane & 0b10) + (i & 0b1), -1, quad(l)};
}

// §9.7.14.5.2–.5 m8n8kK ------------------------------------------------------------------------------
static Cell fig53_A884_f64(const Lane& l, int, int) { return {l.lane >> 2, l.lane % 4}; }
static Cell fig54_B884_f64(const Lane& l, int, int) { return {l.lane % 4, l.lane >> 2}; }
static Cell fig55_C8n8(const Lane& l, int i, int) { return {g(l), t(l) * 2 + (i & 0x1)}; }
static Cell fig56_A8816(const Lane& l, int i, int) { return {g(l), t(l) * 4 + i}; }
static Cell fig57_B8816(const Lane& l, int i, int) { return {t(l) * 4 + i, g(l)}; }
static Cell fig59_A8832(const Lane& l, int i, int) { return {g(l), t(l) * 8 + i}; }
static Cell fig60_B8832(const Lane& l, int i, int) { return {t(l) * 8 + i, g(l)}; }
static Cell fig62_A88128(const Lane& l, int i, int) { return {g(l), t(l) * 32 + i}; }
static Cell fig63_B88128(const Lane& l, int i, int) { return {t(l) * 32 + i, g(l)}; }

// The m16n8 accumulator ------------------------------------------------------------------------------
Cell fig83_C16n8(const Lane& l, int i, int) { return {i < 2 ? g(l) : g(l) + 8, t(l) * 2 + (i & 0x1)}; }

// §9.7.14.5.6 m16n8k4 --------------------------------------------------------------------------------
static Cell fig65_A1684(const Lane& l, int i, int) { return {i == 0 ? g(l) : g(l) + 8, t(l)}; }
static Cell fig67_B1684(const Lane& l, int, int) { return {t(l), g(l)}; }

// §9.7.14.5.7 m16n8k8 --------------------------------------------------------------------------------
static Cell fig71_A1688_f16(const Lane& l, int i, int) { return {i < 2 ? g(l) : g(l) + 8, t(l) * 2 + (i & 0x1)}; }
static Cell fig72_A1688_tf32(const Lane& l, int i, int) {
    return {(i == 0 || i == 2) ? g(l) : g(l) + 8, i < 2 ? t(l) : t(l) + 4};
}
static Cell fig74_B1688_f16(const Lane& l, int i, int) { return {t(l) * 2 + i, g(l)}; }
static Cell fig75_B1688_tf32(const Lane& l, int i, int) { return {i == 0 ? t(l) : t(l) + 4, g(l)}; }

// §9.7.14.5.8 m16n8k16 floating point ----------------------------------------------------------------
static Cell fig79_A16816_f16(const Lane& l, int i, int) {
    return {(i < 2 || (4 <= i && i < 6)) ? g(l) : g(l) + 8, i < 4 ? t(l) * 2 + (i & 0x1) : t(l) * 2 + (i & 0x1) + 8};
}
// Erratum E2: the odd-i branch has an unbalanced parenthesis; (i * 2) - 2 + threadID_in_group is meant.
static Cell fig80_A16816_f64(const Lane& l, int i, int) {
    return {i % 2 == 0 ? g(l) : g(l) + 8, i % 2 == 0 ? (i * 2) + t(l) : (i * 2) - 2 + t(l)};
}
static Cell fig81_B16816_f16(const Lane& l, int i, int) {
    return {i < 2 ? t(l) * 2 + (i & 0x1) : t(l) * 2 + (i & 0x1) + 8, g(l)};
}
static Cell fig82_B16816_f64(const Lane& l, int i, int) { return {t(l) + (i * 4), g(l)}; }

// §9.7.14.5.9 m16n8k16 integer and fp8 ---------------------------------------------------------------
static Cell fig84_A16816_i8(const Lane& l, int i, int) { return {i < 4 ? g(l) : g(l) + 8, t(l) * 4 + (i & 0x3)}; }
static Cell fig85_B16816_i8(const Lane& l, int i, int) { return {t(l) * 4 + i, g(l)}; }

// §9.7.14.5.10 m16n8k32 ------------------------------------------------------------------------------
static Cell fig87_A16832_i4(const Lane& l, int i, int) { return {i < 8 ? g(l) : g(l) + 8, t(l) * 8 + (i & 0x7)}; }
static Cell fig88_A16832_i8(const Lane& l, int i, int) {
    return {(i < 4 || (8 <= i && i < 12)) ? g(l) : g(l) + 8,
            i < 8 ? t(l) * 4 + (i & 0x3) : t(l) * 4 + (i & 0x3) + 16};
}
static Cell fig89_B16832_i4(const Lane& l, int i, int) { return {t(l) * 8 + (i & 0x7), g(l)}; }
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
static Cell fig97_A168128(const Lane& l, int i, int) { return {i < 32 ? g(l) : g(l) + 8, t(l) * 32 + (i & 0x1F)}; }
static Cell fig98_B168128(const Lane& l, int i, int) { return {t(l) * 32 + i, g(l)}; }

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
const Fragment kA16n8k256_b1 {{16, 256, 1, 4, 32, 32}, fig100_A168256, Source::Hardware}; // E1 confirmed

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

// Errata of ptx-catalog.md §10 that touch dense mma.
Erratum erratumE1() {
    return {"E1", "mma.m16n8k256 .b1: the A column formula overlaps itself",
            "col = (threadID_in_group * 32) + i for ai where i < 64 — for 32 <= i < 64 this gives columns "
            "32..159, overlapping the i >= 64 branch and breaking the row g / g+8 split",
            "col = (threadID_in_group * 32) + (i & 0x1F) for i < 64, as in m16n8k128: the only reading that "
            "covers the 16x256 tile exactly once",
            std::string(kH100Probe) + ": a32..a63 of every lane sit at row groupID+8, k = threadID_in_group*32 + "
            "(i & 0x1F) in all 2048 placements (.xor.popc and .and.popc); the manual's formula matches none",
            "confirmed"};
}
Erratum erratumE2() {
    return {"E2", "mma.m16n8k16 .f64: unbalanced parenthesis in the A column formula",
            "(i * 2) - 2 + (threadID_in_group      Otherwise", "(i * 2) - 2 + threadID_in_group for odd i",
            std::string("the only balanced reading; it covers the tile exactly once. ") + kH100Probe +
                ": the odd elements sit there in all 128 placements",
            "confirmed"};
}
Erratum erratumE3() {
    return {"E3", "mma .f64 syntax lists shape .m8n84",
            ".shape = {.m8n84, .m16n8k4, .m16n8k8, .m16n8k16}; the .rnd qualifier is missing from the syntax",
            ".m8n8k4 (ptxas accepts .m8n8k4 and .rn/.rz/.rm/.rp)", "ptxas 13.0 acceptance", "confirmed"};
}
Erratum erratumE4() {
    return {"E4", "mma.m16n8k16 integer section: .f16 accumulator element list reads c0, c1, c1, c2",
            "c0, c1, c1, c2", "c0, c1, c2, c3 (two .f16x2 registers, four elements)",
            std::string("register count: two .f16x2 registers hold four distinct elements. ") + kH100Probe +
                ": C and D of mma.m16n8k16 .e4m3/.e5m2 .f16 agree cell by cell",
            "confirmed"};
}
Erratum erratumE14() {
    return {"E14", "fp8 mma.m16n8k16 (and f16 accumulation): target architecture not stated",
            "PTX 8.7 adds .m16n8k16 with .e4m3/.e5m2 and .f16 accumulation; the target notes only say "
            "e4m3/e5m2 requires sm_89",
            "listed with min SM 89 (ptxas 13.0 accepts it for sm_89/sm_90/sm_90a)",
            std::string("ptxas 13.0 acceptance; ") + kH100Probe +
                ": .e4m3/.e5m2 (mixed too) with .f32 and .f16 accumulation run on sm_90 and agree in every cell",
            "confirmed"};
}

// One row of the dense catalog: shape, operand fragments and every (atype, ctype) it takes.
struct Accum {
    const char* ctype;
    const Fragment* cd;
};
struct DenseRow {
    const char* shape;
    int m, n, k;
    std::vector<const char*> atypes;
    std::vector<Accum> accums; // first = default accumulator
    const Fragment* a;
    const Fragment* b;
    int minSm;
    const char* section;
    const char* anchor;
    const char* kind = ""; // "f8f6f4" for .kind::f8f6f4
};

const std::vector<DenseRow>& denseTable() {
    static const std::vector<DenseRow> rows = {
        // shape       m   n    k   A/B types                accumulators                       A / B fragments
        {"m8n8k4",     8,  8,   4, {"f64"},                 {{"f64", &kCD8n8_f64}},            &kA884_f64,     &kB884_f64,     80, "9.7.14.5.2", "warp-level-matrix-fragment-mma-884-f64"},
        {"m8n8k16",    8,  8,  16, {"s8", "u8"},            {{"s32", &kCD8n8_s32}},            &kA8816,        &kB8816,        75, "9.7.14.5.3", "warp-level-matrix-fragment-mma-8816"},
        {"m8n8k32",    8,  8,  32, {"s4", "u4"},            {{"s32", &kCD8n8_s32}},            &kA8832,        &kB8832,        75, "9.7.14.5.4", "warp-level-matrix-fragment-mma-8832"},
        {"m8n8k128",   8,  8, 128, {"b1"},                  {{"s32", &kCD8n8_s32}},            &kA88128,       &kB88128,       75, "9.7.14.5.5", "warp-level-matrix-fragment-mma-88128"},
        {"m16n8k4",   16,  8,   4, {"tf32"},                {{"f32", &kCD16n8_f32}},           &kA1684_tf32,   &kB1684_tf32,   80, "9.7.14.5.6", "warp-level-matrix-fragment-mma-1684"},
        {"m16n8k4",   16,  8,   4, {"f64"},                 {{"f64", &kCD16n8_f64}},           &kA1684_f64,    &kB1684_f64,    90, "9.7.14.5.6", "warp-level-matrix-fragment-mma-1684"},
        {"m16n8k8",   16,  8,   8, {"f16"},                 {{"f32", &kCD16n8_f32}, {"f16", &kCD16n8_f16}}, &kA16n8k8_f16, &kB16n8k8_f16, 75, "9.7.14.5.7", "warp-level-matrix-fragment-mma-1688"},
        {"m16n8k8",   16,  8,   8, {"bf16"},                {{"f32", &kCD16n8_f32}},           &kA16n8k8_f16,  &kB16n8k8_f16,  80, "9.7.14.5.7", "warp-level-matrix-fragment-mma-1688"},
        {"m16n8k8",   16,  8,   8, {"tf32"},                {{"f32", &kCD16n8_f32}},           &kA16n8k8_tf32, &kB16n8k8_tf32, 80, "9.7.14.5.7", "warp-level-matrix-fragment-mma-1688"},
        {"m16n8k8",   16,  8,   8, {"f64"},                 {{"f64", &kCD16n8_f64}},           &kA1688_f64,    &kB1688_f64,    90, "9.7.14.5.7", "warp-level-matrix-fragment-mma-1688"},
        {"m16n8k16",  16,  8,  16, {"f16"},                 {{"f32", &kCD16n8_f32}, {"f16", &kCD16n8_f16}}, &kA16n8k16_f16, &kB16n8k16_f16, 80, "9.7.14.5.8", "warp-level-matrix-fragment-mma-16816-float"},
        {"m16n8k16",  16,  8,  16, {"bf16"},                {{"f32", &kCD16n8_f32}},           &kA16n8k16_f16, &kB16n8k16_f16, 80, "9.7.14.5.8", "warp-level-matrix-fragment-mma-16816-float"},
        {"m16n8k16",  16,  8,  16, {"f64"},                 {{"f64", &kCD16n8_f64}},           &kA16816_f64,   &kB16816_f64,   90, "9.7.14.5.8", "warp-level-matrix-fragment-mma-16816-float"},
        {"m16n8k16",  16,  8,  16, {"s8", "u8"},            {{"s32", &kCD16n8_f32}},           &kA16n8k16_i8,  &kB16n8k16_i8,  80, "9.7.14.5.9", "warp-level-matrix-fragment-mma-16816-i8-f8"},
        {"m16n8k16",  16,  8,  16, {"e4m3", "e5m2"},        {{"f32", &kCD16n8_f32}, {"f16", &kCD16n8_f16}}, &kA16n8k16_i8, &kB16n8k16_i8, 89, "9.7.14.5.9", "warp-level-matrix-fragment-mma-16816-i8-f8"},
        {"m16n8k32",  16,  8,  32, {"s8", "u8"},            {{"s32", &kCD16n8_f32}},           &kA16n8k32_i8,  &kB16n8k32_i8,  80, "9.7.14.5.10", "warp-level-matrix-fragment-mma-16832"},
        {"m16n8k32",  16,  8,  32, {"s4", "u4"},            {{"s32", &kCD16n8_f32}},           &kA16n8k32_i4,  &kB16n8k32_i4,  80, "9.7.14.5.10", "warp-level-matrix-fragment-mma-16832"},
        {"m16n8k32",  16,  8,  32, {"e4m3", "e5m2"},        {{"f32", &kCD16n8_f32}, {"f16", &kCD16n8_f16}}, &kA16n8k32_i8, &kB16n8k32_i8, 89, "9.7.14.5.10", "warp-level-matrix-fragment-mma-16832"},
        {"m16n8k32",  16,  8,  32, {"e4m3", "e5m2", "e3m2", "e2m3", "e2m1"}, {{"f32", &kCD16n8_f32}, {"f16", &kCD16n8_f16}}, &kA16n8k32_i8, &kB16n8k32_i8, 120, "9.7.14.5.10", "warp-level-matrix-fragment-mma-16832", "f8f6f4"},
        {"m16n8k64",  16,  8,  64, {"s4", "u4"},            {{"s32", &kCD16n8_f32}},           &kA16n8k64_i4,  &kB16n8k64_i4,  80, "9.7.14.5.11", "warp-level-matrix-fragment-mma-16864"},
        {"m16n8k128", 16,  8, 128, {"b1"},                  {{"s32", &kCD16n8_f32}},           &kA168128,      &kB168128,      80, "9.7.14.5.12", "warp-level-matrix-fragment-mma-168128"},
        {"m16n8k256", 16,  8, 256, {"b1"},                  {{"s32", &kCD16n8_f32}},           &kA16n8k256_b1, &kB168256,      80, "9.7.14.5.13", "warp-level-matrix-fragment-mma-168256"},
    };
    return rows;
}

// Other type spellings with the same layout (PTX allows any s8/u8, s4/u4, e4m3/e5m2 mix).
std::vector<std::string> mixedPartners(std::string_view atype) {
    if (atype == "s8" || atype == "u8") return {"s8", "u8"};
    if (atype == "s4" || atype == "u4") return {"s4", "u4"};
    if (atype == "e4m3" || atype == "e5m2") return {"e4m3", "e5m2"};
    return {std::string(atype)};
}

std::string shortSpec(std::string_view shape, std::string_view layouts, std::string_view kind,
                      std::string_view atype, std::string_view ctype, std::string_view dtype,
                      std::string_view family = "mma") {
    std::string s(family);
    s += '.';
    s += shape;
    if (!layouts.empty()) (s += '.') += layouts;
    if (!kind.empty()) (s += ".kind::") += kind;
    (s += '.') += atype;
    const TypeInfo* info = typeInfo(atype);
    const std::string_view defaultC = atype == "f64" ? "f64" : (info && info->floating ? "f32" : "s32");
    if (ctype != defaultC || dtype != ctype) (s += '.') += ctype;
    if (dtype != ctype) (s += '.') += dtype;
    return s;
}

void registerRow(Catalog& catalog, const DenseRow& row) {
    for (const char* atype : row.atypes) {
        for (const Accum& accum : row.accums) {
            Variant v;
            v.family = Family::Mma;
            v.m = row.m;
            v.n = row.n;
            v.k = row.k;
            v.atype = v.btype = atype;
            v.ctype = v.dtype = accum.ctype;
            v.kind = row.kind;
            v.minSm = row.minSm;
            v.section = row.section;
            v.anchor = row.anchor;
            v.spec = shortSpec(row.shape, "", row.kind, atype, accum.ctype, accum.ctype);
            v.ptx = mmaPtx(row.shape, "row", "col", row.kind, accum.ctype, atype, atype, accum.ctype);
            const std::string_view a(atype);
            if (row.kind[0] == '\0') {
                for (const std::string& b : mixedPartners(a))
                    if (b != a) v.ptxAliases.push_back(mmaPtx(row.shape, "row", "col", "", accum.ctype, a, b, accum.ctype));
            }
            if (a == "b1") {
                v.ptxAliases.push_back(mmaPtx(row.shape, "row", "col", "", "s32", "b1", "b1", "s32", "mma", "and"));
                v.notes.push_back(row.minSm < 80 ? "`.xor.popc` needs sm_75, `.and.popc` needs sm_80; the layout is the same"
                                                 : "`.xor.popc` and `.and.popc` share this layout");
            }
            if (a == "e4m3" || a == "e5m2") v.notes.push_back("A and B may mix .e4m3 and .e5m2; the layout is the same");
            if (a == "s8" || a == "u8" || a == "s4" || a == "u4")
                v.notes.push_back("A and B may mix signed and unsigned types; the layout is the same");
            if (!std::string_view(row.kind).empty())
                v.notes.push_back("sm_120 family only (.kind::f8f6f4); every element sits in an 8-bit container");
            if (std::string_view(row.shape) == "m16n8k256") v.errata.push_back(erratumE1());
            if (std::string_view(row.shape) == "m16n8k16" && a == "f64") v.errata.push_back(erratumE2());
            if (a == "f64") v.errata.push_back(erratumE3());
            if (std::string_view(row.shape) == "m16n8k16" && (a == "e4m3" || a == "e5m2")) {
                v.errata.push_back(erratumE14());
                if (std::string_view(accum.ctype) == "f16") v.errata.push_back(erratumE4());
            }
            const DenseRow* r = &row;
            const Accum acc = accum;
            catalog.add(std::move(v), [r, acc](Instruction& in) {
                in.operands.push_back(makeOperand("A", in.atype, 32, *r->a));
                in.operands.push_back(makeOperand("B", in.btype, 32, *r->b));
                in.operands.push_back(makeOperand("C", acc.ctype, 32, *acc.cd));
                in.operands.push_back(makeOperand("D", acc.ctype, 32, *acc.cd));
            });
        }
    }
}

// m8n8k4 .f16 (Volta quad-pairs): every A/B major-ness and the three legal (D, C) type pairs.
void registerQuadPair(Catalog& catalog) {
    struct Major {
        const char* name;
        const Fragment* a;
        const Fragment* b;
    };
    static const std::array<Major, 2> majors{Major{"row", &kA884_f16_row, &kB884_f16_row},
                                             Major{"col", &kA884_f16_col, &kB884_f16_col}};
    struct DC {
        const char* d;
        const char* c;
    };
    // C = f32 forces D = f32 (ptxas rejects D = f16 with C = f32).
    static const std::array<DC, 3> accums{DC{"f16", "f16"}, DC{"f32", "f16"}, DC{"f32", "f32"}};
    for (const Major& am : majors) {
        for (const Major& bm : majors) {
            for (const DC& dc : accums) {
                Variant v;
                v.family = Family::Mma;
                v.m = 8;
                v.n = 8;
                v.k = 4;
                v.atype = v.btype = "f16";
                v.ctype = dc.c;
                v.dtype = dc.d;
                v.alayout = am.name;
                v.blayout = bm.name;
                v.minSm = 70;
                v.section = "9.7.14.5.1";
                v.anchor = "warp-level-matrix-fragment-mma-884-f16";
                const std::string layouts = std::string(am.name) + "." + bm.name;
                v.spec = shortSpec("m8n8k4", layouts, "", "f16", dc.c, dc.d);
                v.ptx = mmaPtx("m8n8k4", am.name, bm.name, "", dc.d, "f16", "f16", dc.c);
                v.notes.push_back("Volta quad-pair: four independent 8x8x4 products per warp; product q uses lanes "
                                  "4q..4q+3 (low group) and 16+4q..16+4q+3 (high group)");
                v.notes.push_back("optimized for sm_70; may have substantially reduced performance on other targets "
                                  "(CUDA 13 cannot target sm_70; ptxas accepts sm_75 and later)");
                const Fragment* a = am.a;
                const Fragment* b = bm.b;
                const DC types = dc;
                catalog.add(std::move(v), [a, b, types](Instruction& in) {
                    auto cd = [](std::string_view type) {
                        return type == "f16" ? &kC884_f16 : &kC884_f32;
                    };
                    in.operands.push_back(makeOperand("A", "f16", 32, *a));
                    in.operands.push_back(makeOperand("B", "f16", 32, *b));
                    in.operands.push_back(makeOperand("C", types.c, 32, *cd(types.c)));
                    in.operands.push_back(makeOperand("D", types.d, 32, *cd(types.d)));
                });
            }
        }
    }
}
} // namespace

} // namespace lanemap::family::mma

namespace lanemap {

void registerDenseMma(Catalog& catalog) {
    using namespace family::mma;
    registerQuadPair(catalog);
    for (const DenseRow& row : denseTable()) registerRow(catalog, row);
}

} // namespace lanemap
