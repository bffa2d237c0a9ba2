// The tiled-wgmma kernel (tiled_wgmma.hpp): one CTA of warpgroups, each running wgmma.m64nNk16.f32.f16.f16 at
// its place in the tile, the permutations applied to the global indices as A and B are staged. sm_90a only.
#include "cuda_check.hpp"
#include "methods/class_coded/kernels_lists.inc"
#include "methods/tiled_wgmma/run_tile.hpp"

#include <cuda_runtime.h>

#include <vector>

namespace lanemap::gpu::tiledwgmma {

namespace {

using std::uint32_t;
using std::uint64_t;

// One wgmma: %0..%3 A's registers (RS), %4 A's descriptor (SS), %5 B's, %6 unused, %7 scale-d (accumulate
// when non-zero), then D (kernels_lists.inc numbers D from %8). LM_WGD_W lists W registers; the instruction's
// N is 2 W: the macros are named by W, the PTX by N.
template <int W> struct Atom;
#define LM_WGT_ATOM(N, W)                                                                                    \
    template <> struct Atom<W> {                                                                             \
        __device__ static void run(int aShared, uint32_t (&a)[4], uint64_t descA, uint64_t descB,            \
                                   uint32_t scale, uint32_t (&d)[W]) {                                       \
            uint32_t unused = 0;                                                                             \
            if (aShared)                                                                                     \
                LM_WGT_SS(N, W);                                                                             \
            else                                                                                             \
                LM_WGT_RS(N, W);                                                                             \
        }                                                                                                    \
    };
// clang-format off
#define LM_WGT_ASM_N(N, W, OPERANDS)                                                                             \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %7, 0;\nwgmma.fence.sync.aligned;\n"                         \
                 "wgmma.mma_async.sync.aligned.m64n" #N "k16.f32.f16.f16 {" LM_WGD_##W "}, " OPERANDS ";\n"     \
                 "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n}"                        \
                 : "+r"(a[0]), "+r"(a[1]), "+r"(a[2]), "+r"(a[3]), "+l"(descA), "+l"(descB), "+r"(unused),     \
                   "+r"(scale), LM_WGO_##W                                                                       \
                 :                                                                                               \
                 : "memory")
#define LM_WGT_RS(N, W) LM_WGT_ASM_N(N, W, "{%0,%1,%2,%3}, %5, p, 1, 1, 0")
#define LM_WGT_SS(N, W) LM_WGT_ASM_N(N, W, "%4, %5, p, 1, 1, 0, 0")
// clang-format on
LM_WGT_ATOM(8, 4)
LM_WGT_ATOM(16, 8)
LM_WGT_ATOM(32, 16)
LM_WGT_ATOM(64, 32)
LM_WGT_ATOM(128, 64)
LM_WGT_ATOM(256, 128)

template <int W>
__global__ void __launch_bounds__(maxThreads(2 * W), 1)
    tiledWgmma(KernelTile t, const int* __restrict__ table, const uint64_t* __restrict__ descriptors,
               const std::uint16_t* __restrict__ A, const std::uint16_t* __restrict__ B,
               uint32_t* __restrict__ out, int doMma, int* compiled) {
    extern __shared__ uint4 dynamicSmem[]; // 1024 bytes more than the image needs, to align its base
    const int tid = static_cast<int>(threadIdx.x), v = tid % kWarpgroup, g = tid / kWarpgroup;
    const int groups = t.threads / kWarpgroup;
    const int wm = table[3 * g], wn = table[3 * g + 1], wk = table[3 * g + 2];
    const int* pM = table + 3 * groups;
    const int* pN = pM + t.m;
    const int* pK = pN + t.n;
    const int* addressA = table + t.tableAddressesA();
    const int* addressB = table + t.tableAddressesB();

    const uint32_t raw = static_cast<uint32_t>(__cvta_generic_to_shared(dynamicSmem));
    const uint32_t pad = (1024u - (raw & 1023u)) & 1023u;
    uint4* base = dynamicSmem + pad / 16;
    std::uint16_t* image = reinterpret_cast<std::uint16_t*>(base);
    for (int i = tid; i < t.imageBytes() / 16; i += t.threads)
        base[i] = make_uint4(0, 0, 0, 0);
    __syncthreads();
    // Stage: tile element (n, k) of B is global B[pK(k)][pN(n)], at the byte lanemap::smem names; A likewise.
    for (int i = tid; i < t.n * t.k; i += t.threads)
        image[addressB[i] / 2] = B[pK[i % t.k] * t.n + pN[i / t.k]];
    if (t.aShared)
        for (int i = tid; i < t.m * t.k; i += t.threads)
            image[addressA[i] / 2] = A[pM[i / t.k] * t.k + pK[i % t.k]];
    // Written by ordinary stores, read by wgmma (the async proxy): fence in every writing thread, then the
    // barrier.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    uint32_t* o = out + static_cast<long>(tid) * t.words();
    uint32_t* dump = out + static_cast<long>(t.threads) * t.words();
    for (int i = tid; i < t.imageWords(); i += t.threads)
        dump[i] = reinterpret_cast<const uint32_t*>(base)[i];

    const uint64_t encodedBase = ((raw + pad) & 0x3FFFFu) >> 4;
    uint32_t acc[kMaxAccumulators];
    for (int i = 0; i < t.perD; ++i)
        acc[i] = 0u; // f32 0
    for (int rk = 0; rk < t.restK; ++rk)
        for (int rm = 0; rm < t.restM; ++rm)
            for (int rn = 0; rn < t.restN; ++rn) {
                const int bm = wm + t.atomsM * rm, bn = wn + t.atomsN * rn, bk = wk + t.atomsK * rk;
                uint32_t a[4] = {0, 0, 0, 0};
                if (!t.aShared)
                    for (int i = 0; i < 8; ++i) {
                        int r = 0, c = 0;
                        atomA(v, i, r, c);
                        const uint32_t h = A[pM[r + kAtomM * bm] * t.k + pK[c + kAtomK * bk]];
                        if (rn == 0)
                            o[i + 8 * (rm + t.restM * rk)] = h;
                        a[i >> 1] |= h << (16 * (i & 1));
                    }
                if (!doMma)
                    continue;
                const uint64_t descA = descriptors[bm * t.blocksK() + bk] + encodedBase;
                const uint64_t descB =
                    descriptors[t.blocksM() * t.blocksK() + bn * t.blocksK() + bk] + encodedBase;
                uint32_t d[W];
                uint32_t* at = acc + W * (rm + t.restM * rn);
                for (int i = 0; i < W; ++i)
                    d[i] = at[i];
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
                Atom<W>::run(t.aShared, a, descA, descB, 1u, d);
                if (tid == 0)
                    *compiled = 1;
#endif
                for (int i = 0; i < W; ++i)
                    at[i] = d[i];
            }
    for (int i = 0; i < t.perD; ++i)
        o[t.perA + i] = acc[i];
}

template <int W>
void launch(const KernelTile& t, const int* table, const uint64_t* descriptors, const std::uint16_t* A,
            const std::uint16_t* B, uint32_t* out, int doMma, int* compiled) {
    const std::size_t shared = static_cast<std::size_t>(t.imageBytes()) + 1024;
    cuda::check(cudaFuncSetAttribute(tiledWgmma<W>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(shared)),
                "cudaFuncSetAttribute (the tile's shared memory)");
    tiledWgmma<W><<<1, t.threads, shared>>>(t, table, descriptors, A, B, out, doMma, compiled);
    cuda::check(cudaGetLastError(), doMma ? "tiled-wgmma launch (values)" : "tiled-wgmma launch (tags)");
}

} // namespace

int runTile(const KernelTile& tile, const std::vector<int>& tableHost,
            const std::vector<uint64_t>& descriptorsHost, const std::vector<std::uint16_t>& tagsAHost,
            const std::vector<std::uint16_t>& tagsBHost, const std::vector<std::uint16_t>& valuesAHost,
            const std::vector<std::uint16_t>& valuesBHost, std::vector<uint32_t>& raw) {
    // Kept between tiles (the GPU device runs one plan at a time, under its lock).
    static cuda::DeviceArena table, descriptors, tagsA, tagsB, valuesA, valuesB, out, flag;
    const int* dTable = cuda::upload(table, tableHost, "tile table");
    const uint64_t* dDescriptors = cuda::upload(descriptors, descriptorsHost, "tile descriptors");
    const std::uint16_t* dTagsA = cuda::upload(tagsA, tagsAHost, "A tags");
    const std::uint16_t* dTagsB = cuda::upload(tagsB, tagsBHost, "B tags");
    const std::uint16_t* dValuesA = cuda::upload(valuesA, valuesAHost, "A values");
    const std::uint16_t* dValuesB = cuda::upload(valuesB, valuesBHost, "B values");
    const std::size_t segment =
        static_cast<std::size_t>(tile.threads) * static_cast<std::size_t>(tile.words()) +
        static_cast<std::size_t>(tile.imageWords());
    raw.assign(4 * segment, 0u);
    uint32_t* dOut = out.reserve<uint32_t>(raw.size(), "cudaMalloc (registers)");
    cuda::check(cudaMemset(dOut, 0, raw.size() * sizeof(uint32_t)), "cudaMemset (registers)");
    int* dCompiled = flag.reserve<int>(1, "cudaMalloc (compiled flag)");
    cuda::check(cudaMemset(dCompiled, 0, sizeof(int)), "cudaMemset (compiled flag)");
    for (int form = 0; form < 2; ++form)
        for (int run = 0; run < 2; ++run) {
            KernelTile t = tile;
            t.aShared = form;
            const std::uint16_t* a = run ? dValuesA : dTagsA;
            const std::uint16_t* b = run ? dValuesB : dTagsB;
            uint32_t* o = dOut + static_cast<std::size_t>(2 * form + run) * segment;
            switch (tile.atomN) {
            case 8:
                launch<4>(t, dTable, dDescriptors, a, b, o, run, dCompiled);
                break;
            case 16:
                launch<8>(t, dTable, dDescriptors, a, b, o, run, dCompiled);
                break;
            case 32:
                launch<16>(t, dTable, dDescriptors, a, b, o, run, dCompiled);
                break;
            case 64:
                launch<32>(t, dTable, dDescriptors, a, b, o, run, dCompiled);
                break;
            case 128:
                launch<64>(t, dTable, dDescriptors, a, b, o, run, dCompiled);
                break;
            case 256:
                launch<128>(t, dTable, dDescriptors, a, b, o, run, dCompiled);
                break;
            default:
                throw cuda::CudaFailure(cudaErrorInvalidValue,
                                        "no tiled-wgmma kernel for N " + std::to_string(tile.atomN));
            }
        }
    cuda::check(cudaDeviceSynchronize(), "tiled-wgmma execution");
    cuda::check(cudaMemcpy(raw.data(), dOut, raw.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                "cudaMemcpy (registers)");
    int compiled = 0;
    cuda::check(cudaMemcpy(&compiled, dCompiled, sizeof(int), cudaMemcpyDeviceToHost),
                "cudaMemcpy (compiled flag)");
    return compiled;
}

} // namespace lanemap::gpu::tiledwgmma
