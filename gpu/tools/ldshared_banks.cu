// lanemap-ldshared-banks: measures what the bank model says of the plain tiled copy's loads (ld.shared.b32,
// .v2.b32, .v4.b32; docs/ldshared-banks.md). For each case (ldshared_banks_cases.hpp) it runs one warp that
// executes the load `iterations` times with the addresses the engine computes (tiled_copy::analyze), and
// prints the model's wavefronts next to the clock64 cycles per load. Run it under Nsight Compute to read the
// shared-memory wavefront counters of each launch (gpu/tools/ldshared_banks.sh runs both).
#include "ldshared_banks_cases.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr int kSharedBytes = 32768;

template <int bytes> __device__ __forceinline__ void once(std::uint32_t a, std::uint32_t (&r)[4]) {
    if constexpr (bytes == 16)
        asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a)
                     : "memory");
    if constexpr (bytes == 8)
        asm volatile("ld.shared.v2.b32 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(a) : "memory");
    if constexpr (bytes == 4)
        asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r[0]) : "r"(a) : "memory");
}

// `zero` is 0 at run time, which the compiler cannot know: each iteration's address a + i * zero is another
// register value, so no two loads are the same expression and none is merged (ldmatrix_banks.cu's loads of
// one address were: ptxas kept one LDSM of eight). Nsight Compute's instruction count checks it.
template <int bytes>
__global__ void bankKernel(const std::uint32_t* offsets, int iterations, std::uint32_t zero,
                           long long* cycles, std::uint32_t* sink) {
    __shared__ __align__(1024) std::uint8_t tile[kSharedBytes];
    const int lane = static_cast<int>(threadIdx.x);
    for (int i = lane; i < kSharedBytes / 4; i += 32) // stores: the op_ld counters see only the loads
        reinterpret_cast<std::uint32_t*>(tile)[i] = static_cast<std::uint32_t>(i);
    __syncwarp();
    std::uint32_t a = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile)) + offsets[lane];
    std::uint32_t r[4] = {static_cast<std::uint32_t>(lane), 1u, 2u, 3u};
    std::uint32_t acc = 0;
    const long long start = clock64();
#pragma unroll 8
    for (int i = 0; i < iterations; ++i) {
        once<bytes>(a, r);
#pragma unroll
        for (int j = 0; j < bytes / 4; ++j) // every register used: an unused load (or part) may be dropped
            acc += r[j];
        a += zero;
    }
    const long long stop = clock64();
    if (lane == 0)
        *cycles = stop - start;
    sink[lane] = acc;
}

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "lanemap-ldshared-banks: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(3);
    }
}

const char* moveOf(int bytes) {
    return bytes == 16 ? "ld.shared.v4.b32" : bytes == 8 ? "ld.shared.v2.b32" : "ld.shared.b32";
}

std::string phasesOf(const lanemap::ldshared_banks::Warp& w) {
    std::string s;
    for (const int d : w.phaseDegrees)
        s += (s.empty() ? "" : "+") + std::to_string(d);
    return s;
}

} // namespace

int main(int argc, char** argv) {
    int iterations = 1000;
    bool model = false;
    bool usage = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--model")
            model = true;
        else if (arg == "--iterations" && i + 1 < argc)
            iterations = std::atoi(argv[++i]);
        else
            usage = true;
    }
    if (usage || iterations <= 0) {
        std::fprintf(stderr, "usage: lanemap-ldshared-banks [--iterations N] [--model]\n"
                             "  --model: print the cases and the model's wavefronts, run nothing\n");
        return 2;
    }
    std::uint32_t* dOffsets = nullptr;
    long long* dCycles = nullptr;
    std::uint32_t* dSink = nullptr;
    if (!model) {
        check(cudaMalloc(&dOffsets, 32 * sizeof(std::uint32_t)), "cudaMalloc");
        check(cudaMalloc(&dCycles, sizeof(long long)), "cudaMalloc");
        check(cudaMalloc(&dSink, 32 * sizeof(std::uint32_t)), "cudaMalloc");
    }
    std::printf("case\tmove\toperand\tatom_layout\tpermutation\tsmem\twarp\tinstruction\tmodel_wavefronts\t"
                "ideal\tphases\twhole_warp_rule\tcycles_per_load\twhat\n");
    int index = 0;
    for (const lanemap::ldshared_banks::Case& c : lanemap::ldshared_banks::cases()) {
        std::string error;
        const auto warp = lanemap::ldshared_banks::warpOf(c, error);
        if (!warp) {
            std::fprintf(stderr, "lanemap-ldshared-banks: case %d (%s %s %s): %s\n", index, moveOf(c.bytes),
                         c.operand, c.smem, error.c_str());
            return 2;
        }
        for (const std::uint32_t o : warp->offsets)
            if (o + static_cast<std::uint32_t>(c.bytes) > kSharedBytes) {
                std::fprintf(stderr, "lanemap-ldshared-banks: case %d needs more than %d bytes\n", index,
                             kSharedBytes);
                return 2;
            }
        double cycles = 0;
        if (!model) {
            check(cudaMemcpy(dOffsets, warp->offsets.data(), 32 * sizeof(std::uint32_t),
                             cudaMemcpyHostToDevice),
                  "cudaMemcpy");
            if (c.bytes == 16)
                bankKernel<16><<<1, 32>>>(dOffsets, iterations, 0u, dCycles, dSink);
            else if (c.bytes == 8)
                bankKernel<8><<<1, 32>>>(dOffsets, iterations, 0u, dCycles, dSink);
            else
                bankKernel<4><<<1, 32>>>(dOffsets, iterations, 0u, dCycles, dSink);
            check(cudaGetLastError(), "launch");
            check(cudaDeviceSynchronize(), "kernel");
            long long total = 0;
            check(cudaMemcpy(&total, dCycles, sizeof total, cudaMemcpyDeviceToHost), "cudaMemcpy");
            cycles = static_cast<double>(total) / iterations;
        }
        const bool synthetic = c.synthetic != nullptr;
        std::printf("%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%d\t", index, moveOf(c.bytes),
                    synthetic ? "-" : c.operand, synthetic ? "-" : c.atoms,
                    synthetic ? "-" : (*c.permutation ? c.permutation : "_"),
                    synthetic ? "synthetic" : c.smem, c.warp, c.instruction, warp->wavefronts, warp->ideal,
                    phasesOf(*warp).c_str(), warp->wholeWarp);
        if (model)
            std::printf("-\t%s\n", c.why);
        else
            std::printf("%.2f\t%s\n", cycles, c.why);
        ++index;
    }
    if (model) {
        std::printf("\n# Nsight Compute (one launch per case, in case order; %d loads per launch):\n",
                    iterations);
        std::printf("ncu --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,"
                    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum --csv "
                    "build/gpu/lanemap-ldshared-banks --iterations %d\n",
                    iterations);
        std::printf(
            "ncu --metrics smsp__inst_executed_op_shared_ld.sum,sm__sass_inst_executed_op_shared_ld.sum "
            "--csv build/gpu/lanemap-ldshared-banks --iterations %d\n",
            iterations);
    }
    return 0;
}
