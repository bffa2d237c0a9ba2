// wgmma .s8/.u8 (with the mixed-sign forms) and .b1 (.and.popc) probe kernels, every N (kernels.cuh).
#include "kernels.cuh"

namespace lanemap::gpu::wgkernels {
namespace {
// clang-format off
#define LM_V(N, W32, W16)                                                                                          \
    LM_WG_DENSE_K_ALIAS(S8_##N, W32, LM_WG_PTX("", N, 32, "s32.s8.s8"), LM_WG_PTX("", N, 32, "s32.s8.u8"), LM_WG_TI) \
    LM_WG_DENSE_K_ALIAS(U8_##N, W32, LM_WG_PTX("", N, 32, "s32.u8.u8"), LM_WG_PTX("", N, 32, "s32.u8.s8"), LM_WG_TI) \
    LM_WG_DENSE_K(B1_##N, W32, LM_WG_PTX("", N, 256, "s32.b1.b1.and.popc"), LM_WG_TI)
LM_WG_INT_N(LM_V)
#undef LM_V
#define LM_V(N, W32, W16) wgEntry<S8_##N>(N), wgEntry<U8_##N>(N), wgEntry<B1_##N>(N),
const Entry kEntries[] = {LM_WG_INT_N(LM_V)};
#undef LM_V
// clang-format on
} // namespace

std::span<const Entry> entriesInt() {
    return kEntries;
}

} // namespace lanemap::gpu::wgkernels
