// wgmma .bf16 and .tf32 probe kernels, every N (kernels.cuh).
#include "kernels.cuh"

namespace lanemap::gpu::wgkernels {
namespace {
// clang-format off
#define LM_V(N, W32, W16)                                                                                          \
    LM_WG_DENSE16(Bf16_##N, W32, LM_WG_PTX("", N, 16, "f32.bf16.bf16"))                                           \
    LM_WG_DENSE_K(Tf32_##N, W32, LM_WG_PTX("", N, 8, "f32.tf32.tf32"), LM_WG_TF)
LM_WG_FLOAT_N(LM_V)
#undef LM_V
#define LM_V(N, W32, W16) wgEntry<Bf16_##N>(N), wgEntry<Tf32_##N>(N),
const Entry kEntries[] = {LM_WG_FLOAT_N(LM_V)};
#undef LM_V
// clang-format on
} // namespace

std::span<const Entry> entriesBf16Tf32() {
    return kEntries;
}

} // namespace lanemap::gpu::wgkernels
