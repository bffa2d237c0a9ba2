#pragma once
// Device helpers of the generated wgmma product kernels (products_wgmma.cu). B, and A for the SS form, are
// written into shared memory at the generated header's smem_offset / smem_bit and described by its
// smem_descriptor; A in registers, the metadata and D go through the same helpers as mma
// (product_kernels.cuh). Nothing here knows a layout.

#include "product_kernels.cuh"

#include <cstdint>

namespace lanemap::product {

// Zeroes `bytes` bytes of shared memory (a multiple of 16), the warpgroup's threads in turn.
__device__ inline void clearShared(unsigned char* base, std::uint32_t bytes, int tid, int threads) {
    for (std::uint32_t i = static_cast<std::uint32_t>(tid) * 16u; i < bytes;
         i += static_cast<std::uint32_t>(threads) * 16u)
        *reinterpret_cast<uint4*>(base + i) = make_uint4(0, 0, 0, 0);
}

// Element (row, col) with value `v` at the header's byte and bit. OR into the aligned 32-bit word: elements
// narrower than a byte (b1) share bytes, and no element crosses a word.
template <class S> __device__ void placeElement(unsigned char* base, int row, int col, std::uint64_t v) {
    const std::uint32_t offset = static_cast<std::uint32_t>(S::offset(row, col));
    const std::uint32_t shift = (offset & 3u) * 8u + static_cast<std::uint32_t>(S::bit(row, col));
    atomicOr(reinterpret_cast<unsigned int*>(base + (offset & ~3u)),
             static_cast<unsigned int>((v & mask<S>()) << shift));
}

// A dense operand (row-major kRows x kCols in global memory) into shared memory.
template <class S>
__device__ void placeShared(unsigned char* base, const std::uint64_t* g, int tid, int threads) {
    for (int cell = tid; cell < S::kRows * S::kCols; cell += threads)
        placeElement<S>(base, cell / S::kCols, cell % S::kCols, g[cell]);
}

// Sparse A for the SS form: the compressed kRows x kCols (= K/2) matrix, whose stored column j is the
// (j % Kept)-th kept element of chunk j / Kept; `keptCols` lists each (row, chunk)'s kept logical columns in
// that order, and `g` is the logical row-major A (kCols * 2 columns).
template <class S, int Kept>
__device__ void placeSharedSparse(unsigned char* base, const std::uint64_t* g, const int* keptCols, int tid,
                                  int threads) {
    constexpr int logicalCols = 2 * S::kCols, chunks = S::kCols / Kept;
    for (int cell = tid; cell < S::kRows * S::kCols; cell += threads) {
        const int r = cell / S::kCols, j = cell % S::kCols;
        const int column = keptCols[(r * chunks + j / Kept) * Kept + j % Kept];
        placeElement<S>(base, r, j, g[r * logicalCols + column]);
    }
}

struct NoMetadata {};

// One wgmma product in one warpgroup: B (and for aShared A) into shared memory, A (otherwise) and the
// metadata into registers, D loaded with C, then warpgroup::fence, Mma (the header's mma() with scale-d = 1:
// D = A x B + C), commit, wait, and D stored. Every place comes from the header (OpA, OpD, SA, SB, Md);
// Kept > 0 marks sparse A (Kept elements kept per chunk of ChunkCols).
template <class OpA, class OpD, class SA, class SB, class Mma, class Md, int Kept, int ChunkCols>
__device__ void runWgmma(const Buffers& buf, int aShared) {
    constexpr int threads = 128;
    constexpr std::uint32_t aAt = (SB::kBytes + 1023u) / 1024u * 1024u;
    constexpr std::uint32_t total = aAt + SA::kBytes;
    // 1024 bytes more than the operands need, to start them on the 128B swizzle's period.
    __shared__ alignas(16) unsigned char raw[total + 1024];
    const int tid = static_cast<int>(threadIdx.x);
    const std::uint32_t rawAddress = static_cast<std::uint32_t>(__cvta_generic_to_shared(raw));
    const std::uint32_t pad = (1024u - (rawAddress & 1023u)) & 1023u;
    unsigned char* base = raw + pad;
    clearShared(base, total, tid, threads);
    __syncthreads();
    placeShared<SB>(base, buf.b, tid, threads);
    if (aShared) {
        if constexpr (Kept > 0)
            placeSharedSparse<SA, Kept>(base + aAt, buf.a, buf.keptCols, tid, threads);
        else
            placeShared<SA>(base + aAt, buf.a, tid, threads);
    }
    lanemap_gen::warpgroup::fence_proxy_async();
    __syncthreads();

    typename OpA::T a[OpA::kRegisters] = {};
    if (!aShared) {
        if constexpr (Kept > 0)
            loadSparse<OpA, Kept, ChunkCols>(a, buf.a, buf.keptCols, tid);
        else
            load<OpA>(a, buf.a, tid);
    }
    std::uint32_t e = 0;
    if constexpr (Kept > 0)
        e = metadata<Md, OpA::kRows, OpA::kCols / ChunkCols>(buf.fields, tid);
    typename OpD::T d[OpD::kRegisters];
    load<OpD>(d, buf.c, tid); // wgmma accumulates into D: start it at C
    const std::uint32_t address = rawAddress + pad;
    const std::uint64_t bDescriptor = SB::descriptor(address);
    const std::uint64_t aDescriptor = SA::descriptor(address + aAt);
    lanemap_gen::warpgroup::fence_operands(d);
    lanemap_gen::warpgroup::fence();
    if (aShared)
        Mma::shared(d, aDescriptor, bDescriptor, e);
    else
        Mma::registers(d, a, bDescriptor, e);
    lanemap_gen::warpgroup::commit_group();
    lanemap_gen::warpgroup::wait_group<0>();
    lanemap_gen::warpgroup::fence_operands(d);
    store<OpD>(d, buf.d, tid);
}

} // namespace lanemap::product

// Adapts the shared-memory functions of operand namespace NS (A or B of a generated wgmma header).
#define LANEMAP_PRODUCT_SHARED(NAME, NS)                                                                     \
    struct NAME {                                                                                            \
        static constexpr int kRows = NS::kSmemRows, kCols = NS::kSmemCols,                                   \
                             kElementBits = NS::kSmemElementBits;                                            \
        static constexpr std::uint32_t kBytes = NS::kSmemBytes, kAlignment = NS::kSmemAlignment;             \
        __device__ static int offset(int r, int c) { return NS::smem_offset(r, c); }                         \
        __device__ static int bit(int r, int c) { return NS::smem_bit(r, c); }                               \
        __device__ static std::uint64_t descriptor(std::uint32_t base) { return NS::smem_descriptor(base); } \
    }
