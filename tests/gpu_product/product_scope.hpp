#pragma once
// Which variants the GPU product check covers: the warp-level families whose every operand the generated
// header places in registers (mma, mma.sp, wmma) that sm_90 runs (minimum SM <= 90), without block scaling
// (its scale-factor operands have no generated wrapper). wgmma is left out: its B lives in shared memory,
// which the header does not place (docs/reference/exports.md#gpu-product-check). The generator and the
// coverage test share this one rule.
#include "lanemap/model.hpp"

namespace lanemap::product {

inline bool inScope(const Variant& v) {
    return (v.family == Family::Mma || v.family == Family::MmaSp || v.family == Family::Wmma) &&
           v.minSm <= 90 && v.forms.front().scaleVec == ScaleVec::None;
}

} // namespace lanemap::product
