// Warpgroup-level wgmma.mma_async and wgmma.mma_async.sp: PTX 9.1 §9.7.15 as data.
//
// The ISA states the wgmma register fragments only as figures (148–155, 175–181). What it says in text:
// the register counts and element lists, and that each warp w of the warpgroup owns rows 16w..16w+15 of A
// and D ("Each warp in the warpgroup provides sparsity information for 16 rows of matrix A"). The row/col
// formulas below (docs/reference/ptx-facts.md#wgmma-fragments): per warp, the warp-level mma fragment of the
// matching shape, which CUTLASS encodes identically (mma_traits_sm90_gmma.hpp CLayout_64xN,
// ALayout_64x8/16/32/64; mma_traits_sm90_gmma_sparse.hpp ELayout_64x16/32/64). They are marked `figure` (the
// ISA's figure, read through CUTLASS); b1's A has no CUTLASS layout and is marked `inferred`.
//
// Notation as in the ISA: thread = index in the warpgroup (0..127), w = thread / 32, g = groupID,
// t = threadID_in_group, i (or v) = element index.

#include "families/mma/mma_fragments.hpp"
#include "families/mma_sp/mma_sparse.hpp"

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

// --- fragments: {rows, cols, matrices, registers, register bits, elements per register} + formula --------
// clang-format off
const Fragment kA_k16_f16  {{64,  16, 1, 4, 32,  2}, perWarp<mma::kA16n8k16_f16>, Source::Figure};   // Fig. 148
const Fragment kA_k8_tf32  {{64,   8, 1, 4, 32,  1}, perWarp<mma::kA16n8k8_tf32>, Source::Figure};   // Fig. 150
const Fragment kA_k32_8bit {{64,  32, 1, 4, 32,  4}, perWarp<mma::kA16n8k32_i8>,  Source::Figure};   // Fig. 152
const Fragment kA_k256_b1  {{64, 256, 1, 4, 32, 32}, perWarp<mma::kA16n8k256_b1>, Source::Inferred}; // Fig. 154 unreadable

const Fragment kSpA_k32_f16  {{64, 32, 1, 4, 32, 2}, fig175_spA_k32_f16,  Source::Figure};
const Fragment kSpA_k16_tf32 {{64, 16, 1, 4, 32, 1}, fig177_spA_k16_tf32, Source::Figure};
const Fragment kSpA_k64_8bit {{64, 64, 1, 4, 32, 4}, fig179_spA_k64_8bit, Source::Figure};

// clang-format on

// Valid N (§9.7.15.2 Matrix Shape; docs/reference/ptx-facts.md#wgmma): floating types 8..256 step 8; integer
// and b1 8, 16, 24, 32, then 48..256 step 16.
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

// D (Figs. 149, 151, 153, 155): N/2 .f32/.s32 registers, or N/4 .f16x2 registers of two elements.
Fragment accumulator(ElementType type, int n) {
    if (type == ElementType::F16)
        return {{64, n, 1, n / 4, 32, 2}, figD, Source::Figure};
    return {{64, n, 1, n / 2, 32, 1}, figD, Source::Figure};
}

using enum ElementType;
constexpr const Family *W = &kWgmma, *WS = &kWgmmaSp;
const std::vector<Accumulator> kF32{acc(F32)}, kF32F16{acc(F32), acc(F16)}, kS32{acc(S32)};
const std::vector<int> kFloatN = floatN(), kIntegerN = integerN();
using mmasp::kMeta16n8k16_tf32;
using mmasp::kMeta16n8k32_f16;
using mmasp::kMeta16n8k64_8bit;

// One atom per register-fragment section (§9.7.15.5.1.1, §9.7.15.6.2); B comes from shared memory (smem.hpp).
// clang-format off
const std::vector<Atom>& wgmmaAtoms() {
    static const std::vector<Atom> atoms = {
        // fam m   N          K    A types       accums   A fragment      B        D            SM  section           anchor                                                                        metadata (sparse)
        {W,  64, kFloatN,    16, {F16},        kF32F16, &kA_k16_f16,    nullptr, accumulator, 90, "9.7.15.5.1.1.1", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n16"},
        {W,  64, kFloatN,    16, {BF16},       kF32,    &kA_k16_f16,    nullptr, accumulator, 90, "9.7.15.5.1.1.1", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n16"},
        {W,  64, kFloatN,     8, {TF32},       kF32,    &kA_k8_tf32,    nullptr, accumulator, 90, "9.7.15.5.1.1.2", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n8"},
        {W,  64, kFloatN,    32, {E4M3, E5M2}, kF32F16, &kA_k32_8bit,   nullptr, accumulator, 90, "9.7.15.5.1.1.3", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n32"},
        {W,  64, kIntegerN,  32, {S8, U8},     kS32,    &kA_k32_8bit,   nullptr, accumulator, 90, "9.7.15.5.1.1.3", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n32"},
        {W,  64, kIntegerN, 256, {B1},         kS32,    &kA_k256_b1,    nullptr, accumulator, 90, "9.7.15.5.1.1.4", "asynchronous-warpgroup-level-matrix-register-fragment-wgmma-64n256"},
        {WS, 64, kFloatN,    32, {F16},        kF32F16, &kSpA_k32_f16,  nullptr, accumulator, 90, "9.7.15.6.2.1",   "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n32", &kMeta16n8k32_f16},
        {WS, 64, kFloatN,    32, {BF16},       kF32,    &kSpA_k32_f16,  nullptr, accumulator, 90, "9.7.15.6.2.1",   "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n32", &kMeta16n8k32_f16},
        {WS, 64, kFloatN,    16, {TF32},       kF32,    &kSpA_k16_tf32, nullptr, accumulator, 90, "9.7.15.6.2.2",   "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n16", &kMeta16n8k16_tf32},
        {WS, 64, kFloatN,    64, {E4M3, E5M2}, kF32F16, &kSpA_k64_8bit, nullptr, accumulator, 90, "9.7.15.6.2.3",   "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n64", &kMeta16n8k64_8bit},
        {WS, 64, kIntegerN,  64, {S8, U8},     kS32,    &kSpA_k64_8bit, nullptr, accumulator, 90, "9.7.15.6.2.3",   "asynchronous-warpgroup-level-matrix-fragment-sparse-wgmma-64n64", &kMeta16n8k64_8bit},
    };
    return atoms;
}
// clang-format on

} // namespace

} // namespace lanemap::family::wgmma

namespace lanemap {

void registerWgmma(Catalog& catalog) {
    for (const family::Atom& atom : family::wgmma::wgmmaAtoms())
        family::registerAtom(catalog, atom);
}

} // namespace lanemap
