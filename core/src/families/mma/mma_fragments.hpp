#pragma once
// The dense warp-level mma fragments of PTX 9.1 §9.7.14.5, one constant per ISA fragment figure.
// Reused by the sparse table (B, C/D "same as dense") and by wgmma (A per warp, D per 8 columns).

#include "families/atom/atom.hpp"

namespace lanemap::family::mma {

// --- formulas, named after the ISA figure that states them ---------------------------------------
// Each reads like the ISA text: g = groupID, t = threadID_in_group, i = element index.

// m8n8k4 .f16 quad-pair (§9.7.14.5.1): coordinates inside product q = (lane >> 2) & 3.
Cell fig46_A884_row(const Lane& l, int i, int);
Cell fig47_A884_col(const Lane& l, int i, int);
Cell fig48_B884_row(const Lane& l, int i, int);
Cell fig49_B884_col(const Lane& l, int i, int);
Cell fig50_C884_f16(const Lane& l, int i, int);
Cell fig51_C884_f32(const Lane& l, int i, int);

// The m16n8 accumulator every m16n8kK section repeats (Figs. 69, 77, 83, 86, 92, 96, 99, 103).
Cell fig83_C16n8(const Lane& l, int i, int);

// --- fragments -----------------------------------------------------------------------------------
extern const Fragment kCD16n8_f32; // 4 x .f32 / .s32
extern const Fragment kCD16n8_f16; // 2 x .f16x2
extern const Fragment kCD16n8_f64; // 4 x .f64

extern const Fragment kA16n8k8_f16;  // Fig. 71
extern const Fragment kB16n8k8_f16;  // Fig. 74
extern const Fragment kA16n8k8_tf32; // Fig. 72
extern const Fragment kB16n8k8_tf32; // Fig. 75
extern const Fragment kA16n8k16_f16; // Fig. 79
extern const Fragment kB16n8k16_f16; // Fig. 81
extern const Fragment kA16n8k16_i8;  // Fig. 84
extern const Fragment kB16n8k16_i8;  // Fig. 85
extern const Fragment kA16n8k32_i8;  // Fig. 88
extern const Fragment kB16n8k32_i8;  // Figs. 90/91
extern const Fragment kA16n8k32_i4;  // Fig. 87
extern const Fragment kB16n8k32_i4;  // Fig. 89
extern const Fragment kA16n8k64_i4;  // Fig. 93
extern const Fragment kB16n8k64_i4;  // Figs. 94/95
extern const Fragment kA16n8k256_b1; // Fig. 100 (erratum E1 corrected)

} // namespace lanemap::family::mma
