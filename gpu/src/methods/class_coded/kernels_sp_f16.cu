// wgmma.sp .f16 (f32 and f16 accumulators) and .bf16 probe kernels, every N, both selectors
// (kernels.cuh).
#include "kernels.cuh"

namespace lanemap::gpu::wgkernels {
namespace {
// clang-format off
#define LM_V(N, W32, W16)                                                                                          \
    LM_WG_SPARSE16(SpF16F32_##N, W32, LM_WG_PTX(".sp", N, 32, "f32.f16.f16"))                                     \
    LM_WG_SPARSE16(SpF16F16_##N, W16, LM_WG_PTX(".sp", N, 32, "f16.f16.f16"))                                     \
    LM_WG_SPARSE16(SpBf16_##N, W32, LM_WG_PTX(".sp", N, 32, "f32.bf16.bf16"))
LM_WG_FLOAT_N(LM_V)
#undef LM_V
#define LM_V(N, W32, W16) wgEntry<SpF16F32_##N>(N), wgEntry<SpF16F16_##N>(N), wgEntry<SpBf16_##N>(N),
const Entry kEntries[] = {LM_WG_FLOAT_N(LM_V)};
#undef LM_V
// clang-format on
} // namespace

std::span<const Entry> entriesSparseF16() {
    return kEntries;
}

} // namespace lanemap::gpu::wgkernels
