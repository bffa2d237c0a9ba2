// lanemap-ldmatrix-banks: measures what the bank model (lanemap/banks.hpp) predicts. For each placement it
// runs one warp that executes the instruction `iterations` times with the engine's row addresses, and prints
// the model's wavefronts next to the clock64 cycles per instruction. Run it under Nsight Compute to read the
// shared-memory wavefront counters of each launch (docs/ldmatrix-banks.md has the command and the results).
#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

enum class Op { Ld, St };

constexpr int kSharedBytes = 16384;

template <Op op, int num, bool trans>
__device__ __forceinline__ void once(std::uint32_t a, std::uint32_t (&r)[4]) {
    if constexpr (op == Op::Ld && num == 4 && !trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a)
                     : "memory");
    if constexpr (op == Op::Ld && num == 4 && trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a)
                     : "memory");
    if constexpr (op == Op::Ld && num == 2 && !trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1])
                     : "r"(a)
                     : "memory");
    if constexpr (op == Op::Ld && num == 1 && !trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(a) : "memory");
    if constexpr (op == Op::St && num == 4 && !trans)
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(r[0]),
                     "r"(r[1]), "r"(r[2]), "r"(r[3])
                     : "memory");
}

template <Op op, int num, bool trans>
__global__ void bankKernel(const std::uint32_t* offsets, int iterations, long long* cycles,
                           std::uint32_t* sink) {
    __shared__ __align__(1024) std::uint8_t tile[kSharedBytes];
    const int lane = static_cast<int>(threadIdx.x);
    if constexpr (op == Op::Ld) // stores are not loads: the op_ld counters see only the instruction
        for (int i = lane; i < kSharedBytes / 4; i += 32)
            reinterpret_cast<std::uint32_t*>(tile)[i] = static_cast<std::uint32_t>(i);
    __syncwarp();
    const std::uint32_t a = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile)) + offsets[lane];
    std::uint32_t r[4] = {static_cast<std::uint32_t>(lane), 1u, 2u, 3u};
    std::uint32_t acc = 0;
    const long long start = clock64();
#pragma unroll 8
    for (int i = 0; i < iterations; ++i) {
        once<op, num, trans>(a, r);
        acc += r[0] + r[num - 1]; // every result used: an unused load may be dropped
    }
    const long long stop = clock64();
    if (lane == 0)
        *cycles = stop - start;
    sink[lane] = acc;
}

struct Case {
    const char* spec;
    const char* smem;
};

// Unpadded 64- and 128-byte pitches, padded, every swizzle mode, CuTe swizzles (the search's recommendation
// among them), and the transposed, narrower and store forms.
const Case kCases[] = {
    {"ldmatrix.m8n8.x4.b16", "row-major"},
    {"ldmatrix.m8n8.x4.b16", "pitch=64"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128"},
    {"ldmatrix.m8n8.x4.b16", "pitch=256"},
    {"ldmatrix.m8n8.x4.b16", "pitch=64,pad=16"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128,pad=16"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128,pad=32"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128,mode=32B"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128,mode=64B"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128,mode=128B"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128,swizzle=3,3,3"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128,swizzle=2,3,3"},
    {"ldmatrix.m8n8.x4.b16", "pitch=128,swizzle=1,3,3"},
    {"ldmatrix.m8n8.x4.b16", "pitch=64,mode=64B"},
    {"ldmatrix.m8n8.x4.b16", "pitch=64,swizzle=2,3,3"},
    {"ldmatrix.m8n8.x4.b16", "col-major,pitch=128"},
    {"ldmatrix.m8n8.x4.trans.b16", "pitch=128"},
    {"ldmatrix.m8n8.x4.trans.b16", "pitch=128,mode=128B"},
    {"ldmatrix.m8n8.x2.b16", "pitch=128"},
    {"ldmatrix.m8n8.x1.b16", "pitch=128"},
    {"stmatrix.m8n8.x4.b16", "pitch=128"},
    {"stmatrix.m8n8.x4.b16", "pitch=128,swizzle=3,3,3"},
};

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "lanemap-ldmatrix-banks: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(3);
    }
}

} // namespace

int main(int argc, char** argv) {
    int iterations = 1000;
    if (argc == 3 && std::string(argv[1]) == "--iterations")
        iterations = std::atoi(argv[2]);
    if (iterations <= 0 || argc == 2 || argc > 3) {
        std::fprintf(stderr, "usage: lanemap-ldmatrix-banks [--iterations N]\n");
        return 2;
    }
    std::uint32_t* dOffsets = nullptr;
    long long* dCycles = nullptr;
    std::uint32_t* dSink = nullptr;
    check(cudaMalloc(&dOffsets, 32 * sizeof(std::uint32_t)), "cudaMalloc");
    check(cudaMalloc(&dCycles, sizeof(long long)), "cudaMalloc");
    check(cudaMalloc(&dSink, 32 * sizeof(std::uint32_t)), "cudaMalloc");
    std::printf("case\tspec\tplacement\tmodel_wavefronts\tideal\tcycles_per_instruction\n");
    int index = 0;
    for (const Case& c : kCases) {
        const lanemap::Variant* v = lanemap::Catalog::instance().variant(c.spec);
        std::string error;
        const auto placement = lanemap::banks::parsePlacement(c.smem, error);
        const auto analysis = placement && v ? lanemap::banks::analyze(*v, *placement, error) : std::nullopt;
        if (!analysis) {
            std::fprintf(stderr, "lanemap-ldmatrix-banks: %s %s: %s\n", c.spec, c.smem, error.c_str());
            return 2;
        }
        std::vector<std::uint32_t> offsets(32, 0);
        int used = 0;
        for (const auto& phase : analysis->phases)
            for (const auto& row : phase.rows) {
                offsets[static_cast<std::size_t>(row.thread)] = row.address;
                used = std::max(used, row.thread + 1);
            }
        for (int t = used; t < 32; ++t) // the ISA's rule for .x1/.x2: copy the lower threads' addresses up
            offsets[static_cast<std::size_t>(t)] = offsets[static_cast<std::size_t>(t % used)];
        for (std::uint32_t o : offsets)
            if (o + 16 > kSharedBytes) {
                std::fprintf(stderr, "lanemap-ldmatrix-banks: %s %s needs more than %d bytes\n", c.spec,
                             c.smem, kSharedBytes);
                return 2;
            }
        check(cudaMemcpy(dOffsets, offsets.data(), offsets.size() * sizeof(std::uint32_t),
                         cudaMemcpyHostToDevice),
              "cudaMemcpy");
        const std::string spec = c.spec;
        if (spec == "ldmatrix.m8n8.x4.b16")
            bankKernel<Op::Ld, 4, false><<<1, 32>>>(dOffsets, iterations, dCycles, dSink);
        else if (spec == "ldmatrix.m8n8.x4.trans.b16")
            bankKernel<Op::Ld, 4, true><<<1, 32>>>(dOffsets, iterations, dCycles, dSink);
        else if (spec == "ldmatrix.m8n8.x2.b16")
            bankKernel<Op::Ld, 2, false><<<1, 32>>>(dOffsets, iterations, dCycles, dSink);
        else if (spec == "ldmatrix.m8n8.x1.b16")
            bankKernel<Op::Ld, 1, false><<<1, 32>>>(dOffsets, iterations, dCycles, dSink);
        else
            bankKernel<Op::St, 4, false><<<1, 32>>>(dOffsets, iterations, dCycles, dSink);
        check(cudaGetLastError(), "launch");
        check(cudaDeviceSynchronize(), "kernel");
        long long cycles = 0;
        check(cudaMemcpy(&cycles, dCycles, sizeof cycles, cudaMemcpyDeviceToHost), "cudaMemcpy");
        std::printf("%d\t%s\t%s\t%d\t%d\t%.2f\n", index++, c.spec, c.smem, analysis->wavefronts,
                    analysis->idealWavefronts, static_cast<double>(cycles) / iterations);
    }
    return 0;
}
