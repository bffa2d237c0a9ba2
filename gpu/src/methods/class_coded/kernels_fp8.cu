// wgmma .e4m3/.e5m2 probe kernels, f32 and f16 accumulators, every N, with the mixed-type forms
// (kernels.cuh).
#include "kernels.cuh"

namespace lanemap::gpu::wgkernels {
namespace {
// clang-format off
#define LM_V(N, W32, W16)                                                                                          \
    LM_WG_DENSE_K_ALIAS(E4m3F32_##N, W32, LM_WG_PTX("", N, 32, "f32.e4m3.e4m3"), LM_WG_PTX("", N, 32, "f32.e4m3.e5m2"), LM_WG_TF) \
    LM_WG_DENSE_K_ALIAS(E4m3F16_##N, W16, LM_WG_PTX("", N, 32, "f16.e4m3.e4m3"), LM_WG_PTX("", N, 32, "f16.e4m3.e5m2"), LM_WG_TF) \
    LM_WG_DENSE_K_ALIAS(E5m2F32_##N, W32, LM_WG_PTX("", N, 32, "f32.e5m2.e5m2"), LM_WG_PTX("", N, 32, "f32.e5m2.e4m3"), LM_WG_TF) \
    LM_WG_DENSE_K_ALIAS(E5m2F16_##N, W16, LM_WG_PTX("", N, 32, "f16.e5m2.e5m2"), LM_WG_PTX("", N, 32, "f16.e5m2.e4m3"), LM_WG_TF)
LM_WG_FLOAT_N(LM_V)
#undef LM_V
#define LM_V(N, W32, W16) wgEntry<E4m3F32_##N>(N), wgEntry<E4m3F16_##N>(N), wgEntry<E5m2F32_##N>(N), wgEntry<E5m2F16_##N>(N),
const Entry kEntries[] = {LM_WG_FLOAT_N(LM_V)};
#undef LM_V
// clang-format on
} // namespace

std::span<const Entry> entriesFp8() {
    return kEntries;
}

} // namespace lanemap::gpu::wgkernels
