#pragma once
// What the tiled-mma kernel and its CPU twin share (no CUDA types): the tile as the kernel is told it, and
// the m16n8k16 .f16 fragments as PTX ISA 9.7.14.5.8 states them. The kernel places every element itself, from
// the atom's fragment and CuTe's tiling rule, with code of its own: lanemap's composition
// (core/src/model/tile.cpp) is what the run checks, not what it runs.
#include <cstdint>

#if defined(__CUDACC__)
#define LANEMAP_TILE_HD __host__ __device__
#else
#define LANEMAP_TILE_HD
#endif

namespace lanemap::gpu::tiledmma {

// The tile a kernel runs: extents, atoms per mode, rests per mode and the values each thread holds. The table
// that goes with it is [warp -> (wm, wn, wk)] x warps, then the permutations of M, N and K (global index of
// each tile index).
struct KernelTile {
    int m = 0, n = 0, k = 0;
    int atomsM = 1, atomsN = 1, atomsK = 1;
    int restM = 1, restN = 1, restK = 1;
    int threads = 32;
    int perA = 0, perB = 0, perD = 0; // values per thread: 8 restM restK, 4 restN restK, 4 restM restN
    // 0: each thread loads its A and B elements from global memory one by one; 1: the CTA stages A (M x K)
    // and B (K x N), row-major, in shared memory and each warp loads its registers with ldmatrix — A by .x4,
    // B by .x2.trans (the tiled copy of docs/tiles.md#tiled-copy), each lane pointing at the row ldsmRowA/B
    // name.
    // 2: the CTA stages A and B K-major (A row m, B column n: one line of K elements, `padBytes` after it)
    // and each thread loads its own fragment by ld.shared of `loadA` / `loadB` bytes (4, 8, 16), registers in
    // CuTe's value order (A: atom registers, then rest M, rest K; B: then rest N, rest K), the plain tiled
    // copy (UniversalCopy); each load's address is that of the first element of its first register.
    int copy = 0;
    int loadA = 4, loadB = 4;
    int padBytes = 0;
    // copy 2: a swizzle of both staged tiles on byte offsets from the start of shared memory,
    // offset ^ ((offset >> swizzleShift) & (((1 << swizzleBits) - 1) << swizzleBase)); 0 bits: none. (CuTe's
    // Swizzle<B,M,S> on 16-bit element offsets is <B,M+1,S> on bytes; the 128B mode <3,4,3>.)
    int swizzleBits = 0, swizzleBase = 0, swizzleShift = 0;
    LANEMAP_TILE_HD int words() const { return perA + perB + perD; }
    LANEMAP_TILE_HD long lineBytes() const { return 2L * k + padBytes; }
    // copy 2: A's region, rounded up to 1024 bytes (a swizzle's repeat), then B's.
    LANEMAP_TILE_HD long regionA() const { return (static_cast<long>(m) * lineBytes() + 1023) / 1024 * 1024; }
    LANEMAP_TILE_HD long sharedBytes() const {
        if (copy == 2)
            return (regionA() + static_cast<long>(n) * lineBytes() + 1023) / 1024 * 1024;
        return copy ? 2L * (static_cast<long>(m) * k + static_cast<long>(k) * n) : 0L;
    }
    LANEMAP_TILE_HD long swizzled(long offset) const {
        return offset ^ ((offset >> swizzleShift) & (((1L << swizzleBits) - 1) << swizzleBase));
    }
    // copy 2: the byte of A[m][k] and of B[k][n] (global indices) in the staged tiles.
    LANEMAP_TILE_HD long stagedA(int row, int col) const { return swizzled(row * lineBytes() + 2L * col); }
    LANEMAP_TILE_HD long stagedB(int kk, int col) const {
        return swizzled(regionA() + col * lineBytes() + 2L * kk);
    }
};
inline constexpr int kMaxFragmentWords = 128; // copy 2: A's (or B's) registers a thread keeps
inline constexpr int kAtomM = 16, kAtomN = 8, kAtomK = 16;
inline constexpr int kMaxAccumulators = 256; // restM x restN x 4 floats a thread keeps

// mma.m16n8k16 .f16 A (16x16): element i of a lane.
LANEMAP_TILE_HD inline void atomA(int lane, int i, int& row, int& col) {
    row = (lane >> 2) + 8 * ((i >> 1) & 1);
    col = (lane & 3) * 2 + (i & 1) + 8 * (i >> 2);
}
// B (16x8, k x n).
LANEMAP_TILE_HD inline void atomB(int lane, int i, int& k, int& n) {
    k = (lane & 3) * 2 + (i & 1) + 8 * (i >> 1);
    n = lane >> 2;
}
// C and D (16x8, f32).
LANEMAP_TILE_HD inline void atomC(int lane, int i, int& row, int& col) {
    row = (lane >> 2) + 8 * (i >> 1);
    col = (lane & 3) * 2 + (i & 1);
}

// The row lane `lane` points ldmatrix.x4 at for A: matrix q = lane / 8 is the atom's 8x8 block (q % 2, q / 2)
// (register q of the fragment: rows 8 (q % 2).., k 8 (q / 2)..), its row lane % 8; (row, col) of the row's
// first element in the atom's 16x16 A.
LANEMAP_TILE_HD inline void ldsmRowA(int lane, int& row, int& col) {
    const int q = lane >> 3;
    row = (q & 1) * 8 + (lane & 7);
    col = (q >> 1) * 8;
}
// For B by ldmatrix.x2.trans from a row-major (N contiguous) K x N tile: lanes 0..15 point at k rows 0..15 of
// the atom's 16x8 B (matrix lane / 8: b0 b1 then b2 b3), n from 0; lanes 16..31 as 0..15 (ignored by .x2).
LANEMAP_TILE_HD inline void ldsmRowB(int lane, int& k, int& n) {
    k = lane & 15;
    n = 0;
}

} // namespace lanemap::gpu::tiledmma
