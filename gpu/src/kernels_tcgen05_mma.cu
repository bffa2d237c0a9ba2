// ptxas acceptance of every tcgen05.mma PTX string of the catalog, sm_100a code only, with what ptxas needs
// added to the block-scaled kinds (docs/probe.md "ptxas acceptance"). Nothing launches these kernels yet: the
// tcgen05.mma probe kernel is not written (the plan and its interpretation are, probe_tcgen05.hpp).
#include "kernels_tcgen05_probe.hpp"

#include <cstdint>

#define LANEMAP_TCGEN05_MMA_KERNEL(NAME)                                                                     \
    __global__ void NAME(int form, std::uint64_t a, std::uint64_t b, std::uint32_t idesc, std::uint32_t d,   \
                         std::uint32_t accumulate, std::uint32_t meta, std::uint32_t scaleA,                 \
                         std::uint32_t scaleB)

// cta_group::1 forms (a kernel's tcgen05 instructions share one .cta_group).
LANEMAP_TCGEN05_MMA_KERNEL(lanemap_tcgen05_mma_forms_cta1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    switch (form) {
#define LANEMAP_TCGEN05_CTA_GROUP 1
#include "kernels_tcgen05_forms_mma.inc"
#undef LANEMAP_TCGEN05_CTA_GROUP
    default:
        break;
    }
#else
    (void)form, (void)a, (void)b, (void)idesc, (void)d, (void)accumulate, (void)meta, (void)scaleA,
        (void)scaleB;
#endif
}

// cta_group::2 forms.
LANEMAP_TCGEN05_MMA_KERNEL(lanemap_tcgen05_mma_forms_cta2) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    switch (form) {
#define LANEMAP_TCGEN05_CTA_GROUP 2
#include "kernels_tcgen05_forms_mma.inc"
#undef LANEMAP_TCGEN05_CTA_GROUP
    default:
        break;
    }
#else
    (void)form, (void)a, (void)b, (void)idesc, (void)d, (void)accumulate, (void)meta, (void)scaleA,
        (void)scaleB;
#endif
}

namespace lanemap::gpu::tckernels {

namespace {
constexpr const char* kMmaForms[] = {
#include "kernels_tcgen05_forms_mma_list.inc"
};
} // namespace

std::span<const char* const> mmaForms() {
    return kMmaForms;
}

} // namespace lanemap::gpu::tckernels
