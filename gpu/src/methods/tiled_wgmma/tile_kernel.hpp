#pragma once
// What the tiled-wgmma kernel and its CPU twin share (no CUDA types): the tile as the kernel is told it and
// the wgmma .m64nNk16 .f16 fragments (f32 accumulators) as PTX ISA 9.7.15.5.1.1 states them. The kernel
// places every register element and every staged shared-memory element itself, from the atom's fragments and
// CuTe's tiling rule, in code of its own; lanemap's composition (core/src/model/tile.cpp) is what the run
// checks.
#include <cstdint>

#if defined(__CUDACC__)
#define LANEMAP_WGTILE_HD __host__ __device__
#else
#define LANEMAP_WGTILE_HD
#endif

namespace lanemap::gpu::tiledwgmma {

inline constexpr int kAtomM = 64, kAtomK = 16, kWarpgroup = 128;
// The atom Ns the kernel is built for (kernels.cu instantiates one kernel per N; D is N/2 f32 registers).
inline constexpr int kAtomNs[] = {8, 16, 32, 64, 128, 256};
inline constexpr int kMaxAccumulators = 128; // restM x restN x N/2 floats a thread keeps
// The CTA's threads the kernel of an atom N is built for (its __launch_bounds__): a wgmma of N/2 accumulators
// needs that many registers of each thread at once, and a CTA shares 65536.
LANEMAP_WGTILE_HD constexpr int maxThreads(int atomN) {
    return atomN >= 256 ? 256 : atomN >= 64 ? 512 : 1024;
}

// The tile a kernel runs. The table that goes with it: [warpgroup -> (wm, wn, wk)] x warpgroups, the
// permutations of M, N and K (global index of each tile index), then the byte address (relative to the
// image's 1024-byte aligned base) of tile element (m, k) of A (M x K entries, row-major) and of (n, k) of B
// (N x K entries). The descriptors: one per atom block of A (blocksM x blocksK), then of B (blocksN x
// blocksK), start addresses relative to the base.
struct KernelTile {
    int m = 0, n = 0, k = 0, atomN = 8;
    int atomsM = 1, atomsN = 1, atomsK = 1;
    int restM = 1, restN = 1, restK = 1;
    int threads = kWarpgroup;
    int perA = 0, perD = 0; // values per thread: A (the RS form) 8 restM restK, D N/2 restM restN
    int aShared = 0;        // 0: A from registers (RS); 1: A from shared memory through descriptors (SS)
    int aBytes = 0, bAt = 0, bBytes = 0; // the A image at 0, the B image at bAt (1024-byte aligned)
    LANEMAP_WGTILE_HD int words() const { return perA + perD; }
    LANEMAP_WGTILE_HD int blocksM() const { return m / kAtomM; }
    LANEMAP_WGTILE_HD int blocksN() const { return n / atomN; }
    LANEMAP_WGTILE_HD int blocksK() const { return k / kAtomK; }
    LANEMAP_WGTILE_HD int imageBytes() const { return bAt + bBytes; }
    LANEMAP_WGTILE_HD int imageWords() const { return imageBytes() / 4; }
    LANEMAP_WGTILE_HD int tableAddressesA() const { return 3 * (threads / kWarpgroup) + m + n + k; }
    LANEMAP_WGTILE_HD int tableAddressesB() const { return tableAddressesA() + m * k; }
};

// wgmma .m64nNk16 .f16 A in registers (64 x 16): element i (0..7) of warpgroup thread v.
LANEMAP_WGTILE_HD inline void atomA(int v, int i, int& row, int& col) {
    const int lane = v & 31;
    row = 16 * (v >> 5) + (lane >> 2) + 8 * ((i >> 1) & 1);
    col = (lane & 3) * 2 + (i & 1) + 8 * (i >> 2);
}
// D (64 x N, f32): element i (0..N/2-1) of warpgroup thread v.
LANEMAP_WGTILE_HD inline void atomD(int v, int i, int& row, int& col) {
    const int lane = v & 31;
    row = 16 * (v >> 5) + (lane >> 2) + 8 * ((i >> 1) & 1);
    col = 8 * (i >> 2) + (lane & 3) * 2 + (i & 1);
}

} // namespace lanemap::gpu::tiledwgmma
