// The tensor-memory probe kernels for every tcgen05.ld form (kernels.hpp), sm_100a code only:
// every CUDA build runs ptxas on each of them.
#include "kernels.cuh"

#include <cstdint>

namespace lanemap::gpu::tckernels {

namespace {
#include "kernels_forms_ld.inc"

#define LANEMAP_ENTRY(F) Entry{F::ptx, F::registers, &detail::launch<F, true>},
constexpr Entry kEntries[] = {LANEMAP_TCGEN05_LD_FORMS(LANEMAP_ENTRY)};
#undef LANEMAP_ENTRY
} // namespace

std::span<const Entry> entriesLd() {
    return kEntries;
}

} // namespace lanemap::gpu::tckernels
