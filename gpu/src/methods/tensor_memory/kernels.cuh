// The tensor-memory probe kernel (kernels.hpp), one instantiation per form: sm_100a only.
#pragma once
#include "kernels.hpp"
#include "kernels_device.cuh"

#include <cuda_runtime.h>

namespace lanemap::gpu::tckernels {

namespace detail {

// Kernel ld: fill the cells from `in` ([column][lane]) through .32x32b.x1, then read with the form.
// Kernel st: fill with the sentinel, write the registers from `in` ([warp][register][thread]) with the form,
// read every cell back through .32x32b.x1 into out ([column][lane]).
template <typename Form, bool kLoad>
__global__ void __launch_bounds__(128)
    probe(const std::uint32_t* in, std::uint32_t* out, int columns, int allocColumns, int* compiled) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    __shared__ std::uint32_t tmemBase;
    const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
    const int experiment = static_cast<int>(blockIdx.x);
    if (threadIdx.x == 0)
        *compiled = 1;
    if (warp == 0) {
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
                         sharedAddress(&tmemBase)),
                     "r"(allocColumns)
                     : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    }
    tcgen05Barrier();
    const std::uint32_t tmem = tmemBase;
    // This warp's subpartition: lane 32 w in address bits 31-16.
    const std::uint32_t rows = tmem + (static_cast<std::uint32_t>(32 * warp) << 16);
    for (int c = 0; c < columns; ++c)
        storeCell(rows, c, kLoad ? in[c * 128 + 32 * warp + lane] : 0xffffffffu);
    asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
    tcgen05Barrier();
    const std::uint32_t taddr = tmem + (static_cast<std::uint32_t>(32 * warp + 16 * experiment) << 16);
    std::uint32_t r[Form::registers];
    if constexpr (kLoad) {
        Form::run(taddr, r);
        asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
        std::uint32_t* o = out + static_cast<std::size_t>(experiment) * 4 * Form::registers * 32;
#pragma unroll
        for (int i = 0; i < Form::registers; ++i)
            o[(warp * Form::registers + i) * 32 + lane] = r[i];
    } else {
#pragma unroll
        for (int i = 0; i < Form::registers; ++i)
            r[i] = in[(warp * Form::registers + i) * 32 + lane];
        Form::run(taddr, r);
        asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
        tcgen05Barrier();
        readColumns(out + static_cast<std::size_t>(experiment) * 128 * static_cast<std::size_t>(columns),
                    rows, columns, warp, lane);
    }
    tcgen05Barrier();
    if (warp == 0)
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(allocColumns)
                     : "memory");
#else
    (void)in;
    (void)out;
    (void)columns;
    (void)allocColumns;
    (void)compiled;
#endif
}

template <typename Form, bool kLoad>
int launch(const std::uint32_t* in, std::uint32_t* out, int experiments, int columns, int allocColumns,
           int* compiled) {
    probe<Form, kLoad><<<experiments, 128>>>(in, out, columns, allocColumns, compiled);
    return static_cast<int>(cudaGetLastError());
}

} // namespace detail

} // namespace lanemap::gpu::tckernels
