// The tagged-tile probe kernels: one warp copies an experiment's image into shared memory, runs the
// instruction with the addresses the engine gave each lane, and writes the registers (ldmatrix, movmatrix) or
// the shared memory (stmatrix) back (tagged.hpp).
#include "kernels.hpp"
#include "kernels_body.cuh"

#include <cuda_runtime.h>

#include <cstring>

namespace lanemap::gpu::movekernels {

namespace {

enum class Op { Ld, St, Mov };

template <Op op, int num, bool trans> __device__ bool moveOnce(std::uint32_t address, std::uint32_t (&r)[4]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
    if constexpr (op == Op::Ld) {
        if constexpr (num == 1 && !trans)
            asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(address));
        if constexpr (num == 2 && !trans)
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                         : "=r"(r[0]), "=r"(r[1])
                         : "r"(address));
        if constexpr (num == 4 && !trans)
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                         : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                         : "r"(address));
        if constexpr (num == 1 && trans)
            asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                         : "=r"(r[0])
                         : "r"(address));
        if constexpr (num == 2 && trans)
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                         : "=r"(r[0]), "=r"(r[1])
                         : "r"(address));
        if constexpr (num == 4 && trans)
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                         : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                         : "r"(address));
        return true;
    }
    if constexpr (op == Op::Mov) {
        std::uint32_t d = 0;
        asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(d) : "r"(r[0]));
        r[0] = d;
        return true;
    }
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if constexpr (op == Op::St) {
        if constexpr (num == 1 && !trans)
            asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(address), "r"(r[0])
                         : "memory");
        if constexpr (num == 2 && !trans)
            asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" ::"r"(address), "r"(r[0]),
                         "r"(r[1])
                         : "memory");
        if constexpr (num == 4 && !trans)
            asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(address),
                         "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                         : "memory");
        if constexpr (num == 1 && trans)
            asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(address),
                         "r"(r[0])
                         : "memory");
        if constexpr (num == 2 && trans)
            asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" ::"r"(address),
                         "r"(r[0]), "r"(r[1])
                         : "memory");
        if constexpr (num == 4 && trans)
            asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(address),
                         "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                         : "memory");
        return true;
    }
#endif
    (void)address;
    (void)r;
    return false;
}

template <Op op, int num, bool trans>
__global__ void moveKernel(const std::uint32_t* in, std::uint32_t* out, int experiments, int* compiled) {
    runMoves<op == Op::St>(in, out, experiments, compiled, [](std::uint32_t address, std::uint32_t(&r)[4]) {
        return moveOnce<op, num, trans>(address, r);
    });
}

template <Op op, int num, bool trans>
int launch(const std::uint32_t* in, std::uint32_t* out, int experiments, int* compiled) {
    moveKernel<op, num, trans><<<1, 32>>>(in, out, experiments, compiled);
    return static_cast<int>(cudaGetLastError());
}

const Entry kEntries[] = {
    {"ldmatrix.sync.aligned.m8n8.x1.shared.b16", 750, launch<Op::Ld, 1, false>},
    {"ldmatrix.sync.aligned.m8n8.x2.shared.b16", 750, launch<Op::Ld, 2, false>},
    {"ldmatrix.sync.aligned.m8n8.x4.shared.b16", 750, launch<Op::Ld, 4, false>},
    {"ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16", 750, launch<Op::Ld, 1, true>},
    {"ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", 750, launch<Op::Ld, 2, true>},
    {"ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16", 750, launch<Op::Ld, 4, true>},
    {"stmatrix.sync.aligned.m8n8.x1.shared.b16", 900, launch<Op::St, 1, false>},
    {"stmatrix.sync.aligned.m8n8.x2.shared.b16", 900, launch<Op::St, 2, false>},
    {"stmatrix.sync.aligned.m8n8.x4.shared.b16", 900, launch<Op::St, 4, false>},
    {"stmatrix.sync.aligned.m8n8.x1.trans.shared.b16", 900, launch<Op::St, 1, true>},
    {"stmatrix.sync.aligned.m8n8.x2.trans.shared.b16", 900, launch<Op::St, 2, true>},
    {"stmatrix.sync.aligned.m8n8.x4.trans.shared.b16", 900, launch<Op::St, 4, true>},
    {"movmatrix.sync.aligned.m8n8.trans.b16", 750, launch<Op::Mov, 1, true>},
};

} // namespace

const Entry* findB16(std::string_view ptx) {
    for (const Entry& e : kEntries)
        if (ptx == e.ptx)
            return &e;
    return nullptr;
}

} // namespace lanemap::gpu::movekernels
