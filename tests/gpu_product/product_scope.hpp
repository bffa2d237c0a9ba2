#pragma once
// Which variants the GPU product check covers; the generator and the coverage test share these rules.
//  - inScope: the warp-level families whose every operand the generated header places in registers (mma,
//    mma.sp, wmma) that sm_90 runs (minimum SM <= 90), without block scaling (its scale-factor operands have
//    no generated wrapper).
//  - inWgmmaScope: wgmma and wgmma.sp (every type and accumulator: all sm_90) at the N of kWgmmaProductN.
//    The header's functions for one type are one formula in N (D repeats per 8 columns; B's shared-memory
//    offset is one closed form whose N bits grow with N), so these N exercise every case the generator
//    distinguishes: the smallest tile, a non-power-of-two N (24: three 8-row atoms of B), the middle and the
//    largest register count (N = 256: 128 D registers). Every N of every type (602 variants, 730 kernels) is
//    about five times the nvcc time of these: the build option LANEMAP_PRODUCT_WGMMA_ALL_N=ON builds them
//    (docs/reference/exports.md#gpu-product-check).
#include "lanemap/model.hpp"

#include <algorithm>
#include <array>

namespace lanemap::product {

inline bool inScope(const Variant& v) {
    return (v.family->name == "mma" || v.family->name == "mma.sp" || v.family->name == "wmma") &&
           v.minSm <= 90 && v.forms.front().scaleVec == ScaleVec::None;
}

inline constexpr std::array<int, 6> kWgmmaProductN{8, 16, 24, 64, 128, 256};

// allN: every N (the build option LANEMAP_PRODUCT_WGMMA_ALL_N).
inline bool inWgmmaScope(const Variant& v, bool allN = false) {
    return (v.family->name == "wgmma" || v.family->name == "wgmma.sp") && v.minSm <= 90 &&
           (allN || std::find(kWgmmaProductN.begin(), kWgmmaProductN.end(), v.n) != kWgmmaProductN.end());
}

} // namespace lanemap::product
