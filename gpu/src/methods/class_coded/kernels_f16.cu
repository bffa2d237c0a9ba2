// wgmma .f16 probe kernels, f32 and f16 accumulators, every N (kernels.cuh).
#include "kernels.cuh"

namespace lanemap::gpu::wgkernels {
namespace {
// clang-format off
#define LM_V(N, W32, W16)                                                                                          \
    LM_WG_DENSE16(F16F32_##N, W32, LM_WG_PTX("", N, 16, "f32.f16.f16"))                                           \
    LM_WG_DENSE16(F16F16_##N, W16, LM_WG_PTX("", N, 16, "f16.f16.f16"))
LM_WG_FLOAT_N(LM_V)
#undef LM_V
#define LM_V(N, W32, W16) wgEntry<F16F32_##N>(N), wgEntry<F16F16_##N>(N),
const Entry kEntries[] = {LM_WG_FLOAT_N(LM_V)};
#undef LM_V
// clang-format on
} // namespace

std::span<const Entry> entriesF16() {
    return kEntries;
}

} // namespace lanemap::gpu::wgkernels
