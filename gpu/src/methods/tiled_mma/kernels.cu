// The tiled-mma kernel (tiled_mma.hpp): one CTA, each warp running mma.m16n8k16 .f16 at its place in the
// tile, the permutations applied to the global indices; every register it loads and every accumulator written
// out.
#include "cuda_check.hpp"
#include "methods/tiled_mma/run_tile.hpp"

#include <cuda_runtime.h>

#include <vector>

namespace lanemap::gpu::tiledmma {

namespace {

// ld.shared of 4, 8 or 16 bytes at `p` into out[0..bytes/4).
__device__ void loadShared(const unsigned char* p, int bytes, std::uint32_t* out) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(p));
    if (bytes == 16)
        asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];\n"
                     : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
                     : "r"(a)
                     : "memory");
    else if (bytes == 8)
        asm volatile("ld.shared.v2.b32 {%0,%1}, [%2];\n" : "=r"(out[0]), "=r"(out[1]) : "r"(a) : "memory");
    else
        asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(out[0]) : "r"(a) : "memory");
}

__global__ void tiledMma(KernelTile t, const int* table, const std::uint16_t* A, const std::uint16_t* B,
                         std::uint32_t* out, int doMma) {
    extern __shared__ __align__(16) std::uint16_t staged[]; // copy 1: A (M x K) then B (K x N), row-major
    const int tid = static_cast<int>(threadIdx.x), lane = tid & 31, warp = tid >> 5;
    const int warps = t.threads / 32;
    const int wm = table[3 * warp], wn = table[3 * warp + 1], wk = table[3 * warp + 2];
    const int* pM = table + 3 * warps;
    const int* pN = pM + t.m;
    const int* pK = pN + t.n;
    std::uint32_t* o = out + static_cast<long>(tid) * t.words();
    std::uint16_t* sA = staged;
    std::uint16_t* sB = staged + t.m * t.k;
    if (t.copy == 1) {
        for (int i = tid; i < t.m * t.k; i += t.threads)
            sA[i] = A[i];
        for (int i = tid; i < t.k * t.n; i += t.threads)
            sB[i] = B[i];
        __syncthreads();
    }
    // copy 2: A and B staged K-major, each thread's fragment loaded by ld.shared in CuTe's value order.
    std::uint32_t fragA[kMaxFragmentWords], fragB[kMaxFragmentWords];
    if (t.copy == 2) {
        unsigned char* bytes = reinterpret_cast<unsigned char*>(staged);
        for (int i = tid; i < t.m * t.k; i += t.threads)
            *reinterpret_cast<std::uint16_t*>(bytes + t.stagedA(i / t.k, i % t.k)) = A[i];
        for (int i = tid; i < t.k * t.n; i += t.threads)
            *reinterpret_cast<std::uint16_t*>(bytes + t.stagedB(i / t.n, i % t.n)) = B[i];
        __syncthreads();
        // A register R = q + 4 (rm + restM rk) holds the atom's elements 2q, 2q + 1.
        for (int R = 0; R < t.perA / 2; R += t.loadA / 4) {
            const int q = R % 4, rest = R / 4, rm = rest % t.restM, rk = rest / t.restM;
            int r = 0, c = 0;
            atomA(lane, 2 * q, r, c);
            loadShared(bytes + t.stagedA(pM[r + kAtomM * (wm + t.atomsM * rm)],
                                         pK[c + kAtomK * (wk + t.atomsK * rk)]),
                       t.loadA, fragA + R);
        }
        // B register R = q + 2 (rn + restN rk).
        for (int R = 0; R < t.perB / 2; R += t.loadB / 4) {
            const int q = R % 2, rest = R / 2, rn = rest % t.restN, rk = rest / t.restN;
            int kr = 0, n = 0;
            atomB(lane, 2 * q, kr, n);
            loadShared(bytes + t.stagedB(pK[kr + kAtomK * (wk + t.atomsK * rk)],
                                         pN[n + kAtomN * (wn + t.atomsN * rn)]),
                       t.loadB, fragB + R);
        }
    }
    float acc[kMaxAccumulators];
    for (int i = 0; i < t.perD; ++i)
        acc[i] = 0.0f;
    for (int rk = 0; rk < t.restK; ++rk)
        for (int rm = 0; rm < t.restM; ++rm)
            for (int rn = 0; rn < t.restN; ++rn) {
                std::uint32_t a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
                if (t.copy == 2) {
                    for (int q = 0; q < 4; ++q)
                        a[q] = fragA[q + 4 * (rm + t.restM * rk)];
                    for (int q = 0; q < 2; ++q)
                        b[q] = fragB[q + 2 * (rn + t.restN * rk)];
                } else if (t.copy == 1) {
                    // The tiled copy: each lane points at one 16-byte row; the permutations are applied to
                    // the row's first element (the plan checked they keep runs of 8).
                    int r = 0, c = 0;
                    ldsmRowA(lane, r, c);
                    const int m = pM[r + kAtomM * (wm + t.atomsM * rm)];
                    const int k0 = pK[c + kAtomK * (wk + t.atomsK * rk)];
                    const unsigned rowA = static_cast<unsigned>(__cvta_generic_to_shared(sA + m * t.k + k0));
                    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                                 : "r"(rowA));
                    int kr = 0, n0 = 0;
                    ldsmRowB(lane, kr, n0);
                    const int kk = pK[kr + kAtomK * (wk + t.atomsK * rk)];
                    const int nn = pN[n0 + kAtomN * (wn + t.atomsN * rn)];
                    const unsigned rowB = static_cast<unsigned>(__cvta_generic_to_shared(sB + kk * t.n + nn));
                    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                                 : "=r"(b[0]), "=r"(b[1])
                                 : "r"(rowB));
                }
                if (t.copy) {
                    if (rn == 0)
                        for (int i = 0; i < 8; ++i)
                            o[i + 8 * (rm + t.restM * rk)] = (a[i >> 1] >> (16 * (i & 1))) & 0xFFFFu;
                    if (rm == 0)
                        for (int i = 0; i < 4; ++i)
                            o[t.perA + i + 4 * (rn + t.restN * rk)] = (b[i >> 1] >> (16 * (i & 1))) & 0xFFFFu;
                } else
                    for (int i = 0; i < 8; ++i) {
                        int r = 0, c = 0;
                        atomA(lane, i, r, c);
                        const int m = pM[r + kAtomM * (wm + t.atomsM * rm)];
                        const int k = pK[c + kAtomK * (wk + t.atomsK * rk)];
                        const std::uint32_t h = A[m * t.k + k];
                        if (rn == 0)
                            o[i + 8 * (rm + t.restM * rk)] = h;
                        a[i >> 1] |= h << (16 * (i & 1));
                    }
                for (int i = 0; i < 4 && !t.copy; ++i) {
                    int kr = 0, n = 0;
                    atomB(lane, i, kr, n);
                    const int k = pK[kr + kAtomK * (wk + t.atomsK * rk)];
                    const int nn = pN[n + kAtomN * (wn + t.atomsN * rn)];
                    const std::uint32_t h = B[k * t.n + nn];
                    if (rm == 0)
                        o[t.perA + i + 4 * (rn + t.restN * rk)] = h;
                    b[i >> 1] |= h << (16 * (i & 1));
                }
                if (!doMma)
                    continue;
                float* d = acc + 4 * (rm + t.restM * rn);
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
            }
    for (int v = 0; v < t.perD; ++v)
        o[t.perA + t.perB + v] = __float_as_uint(acc[v]);
}

} // namespace

void runTile(const KernelTile& tile, const std::vector<int>& tableHost,
             const std::vector<std::uint16_t>& tagsAHost, const std::vector<std::uint16_t>& tagsBHost,
             const std::vector<std::uint16_t>& valuesAHost, const std::vector<std::uint16_t>& valuesBHost,
             std::vector<std::uint32_t>& raw) {
    {
        // Kept between tiles (the GPU device runs one plan at a time, under its lock).
        static cuda::DeviceArena table, tagsA, tagsB, valuesA, valuesB, out;
        const int* dTable = cuda::upload(table, tableHost, "tile table");
        const std::uint16_t* dTagsA = cuda::upload(tagsA, tagsAHost, "A tags");
        const std::uint16_t* dTagsB = cuda::upload(tagsB, tagsBHost, "B tags");
        const std::uint16_t* dValuesA = cuda::upload(valuesA, valuesAHost, "A values");
        const std::uint16_t* dValuesB = cuda::upload(valuesB, valuesBHost, "B values");
        raw.assign(2 * static_cast<std::size_t>(tile.threads) * static_cast<std::size_t>(tile.words()), 0u);
        std::uint32_t* dOut = out.reserve<std::uint32_t>(raw.size(), "cudaMalloc (registers)");
        cuda::check(cudaMemset(dOut, 0, raw.size() * sizeof(std::uint32_t)), "cudaMemset (registers)");
        const std::size_t half = raw.size() / 2;
        const std::size_t shared = static_cast<std::size_t>(tile.sharedBytes());
        if (shared > 48 * 1024)
            cuda::check(cudaFuncSetAttribute(tiledMma, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(shared)),
                        "cudaFuncSetAttribute (the tiled copy's shared memory)");
        tiledMma<<<1, tile.threads, shared>>>(tile, dTable, dTagsA, dTagsB, dOut, 0);
        cuda::check(cudaGetLastError(), "tiled-mma launch (tags)");
        tiledMma<<<1, tile.threads, shared>>>(tile, dTable, dValuesA, dValuesB, dOut + half, 1);
        cuda::check(cudaGetLastError(), "tiled-mma launch (values)");
        cuda::check(cudaDeviceSynchronize(), "tiled-mma execution");
        cuda::check(cudaMemcpy(raw.data(), dOut, raw.size() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
                    "cudaMemcpy (registers)");
    }
}

} // namespace lanemap::gpu::tiledmma
