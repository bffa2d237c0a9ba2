// Device helpers of the tensor-memory probe kernels (ld/st forms and mma): sm_100a code only, empty
// elsewhere.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace lanemap::gpu::tckernels::detail {

__device__ __forceinline__ std::uint32_t sharedAddress(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// A fence pair around a block barrier: orders every warp's tcgen05 work before the barrier with what follows.
__device__ __forceinline__ void tcgen05Barrier() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
#endif
}

// One 32-bit cell of this warp's 32-lane subpartition (`rows`: its lane in address bits 31-16) through
// .32x32b.x1, the shape every method fills and reads back with.
__device__ __forceinline__ void storeCell(std::uint32_t rows, int column, std::uint32_t value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    asm volatile(
        "tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" ::"r"(rows + static_cast<std::uint32_t>(column)),
        "r"(value)
        : "memory");
#endif
}

// Every cell of this warp's subpartition, columns [0, columns), into out[column * 128 + 32 * warp + lane].
__device__ __forceinline__ void readColumns(std::uint32_t* out, std::uint32_t rows, int columns, int warp,
                                            int lane) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    for (int c = 0; c < columns; ++c) {
        std::uint32_t v = 0;
        asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];"
                     : "=r"(v)
                     : "r"(rows + static_cast<std::uint32_t>(c))
                     : "memory");
        asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
        out[c * 128 + 32 * warp + lane] = v;
    }
#endif
}

} // namespace lanemap::gpu::tckernels::detail
