#pragma once
// The wmma discovery kernels (kernels.cu), behind a CUDA-free interface: every pointer is a device
// pointer, every launch is one warp, and each function says whether the build has a kernel for its form.

#include "lanemap/model.hpp"
#include "lanemap/wmma.hpp"

#include <cstdint>

namespace lanemap::gpu::wmmak {

// What a launch found: no kernel for the form in this build, or launched (errors come from the CUDA calls).
enum class Launch : std::uint8_t { NoKernel, Launched };

// wmma.load of `form` from `matrix` (ldm elements; form.layout); writes every lane's fragment words to
// out[lane * W + w] and W (the words the CUDA fragment has) to *words.
Launch load(const wmma::FragmentForm& form, const void* matrix, unsigned ldm, std::uint32_t* out, int* words);
// wmma.store.d of an accumulator fragment whose lane l holds in[l * W ...] to `matrix` (form.layout).
Launch store(const wmma::FragmentForm& form, const std::uint32_t* in, void* matrix, unsigned ldm, int* words);
// wmma.mma (b1: .and.popc) on fragments filled from a, b, c (lane-major words); D's words to d.
Launch mma(const Variant& variant, const std::uint32_t* a, const std::uint32_t* b, const std::uint32_t* c,
           std::uint32_t* d, int* words);

// The SASS version the kernels run as on device 0 (90 for sm_90): cudaFuncGetAttributes' binaryVersion; -1
// when the runtime cannot say.
int binaryVersion();

} // namespace lanemap::gpu::wmmak
