// wgmma.sp .tf32 (both selectors) and .s8/.u8 (with the mixed-sign forms) probe kernels, every N
// (kernels.cuh).
#include "kernels.cuh"

namespace lanemap::gpu::wgkernels {
namespace {
// clang-format off
#define LM_V(N, W32, W16) LM_WG_SPARSE_TF32(SpTf32_##N, W32, LM_WG_PTX(".sp", N, 16, "f32.tf32.tf32"))
LM_WG_FLOAT_N(LM_V)
#undef LM_V
#define LM_V(N, W32, W16)                                                                                          \
    LM_WG_SPARSE8(SpS8_##N, W32, LM_WG_PTX(".sp", N, 64, "s32.s8.s8"), LM_WG_PTX(".sp", N, 64, "s32.s8.u8"), LM_WG_TI) \
    LM_WG_SPARSE8(SpU8_##N, W32, LM_WG_PTX(".sp", N, 64, "s32.u8.u8"), LM_WG_PTX(".sp", N, 64, "s32.u8.s8"), LM_WG_TI)
LM_WG_INT_N(LM_V)
#undef LM_V
#define LM_V(N, W32, W16) wgEntry<SpTf32_##N>(N),
#define LM_I(N, W32, W16) wgEntry<SpS8_##N>(N), wgEntry<SpU8_##N>(N),
const Entry kEntries[] = {LM_WG_FLOAT_N(LM_V) LM_WG_INT_N(LM_I)};
#undef LM_V
#undef LM_I
// clang-format on
} // namespace

std::span<const Entry> entriesSparseTf32Int() {
    return kEntries;
}

} // namespace lanemap::gpu::wgkernels
