#pragma once
// The tagged-tile kernel body every matrix-move kernel shares (kernels.cu for sm_75/sm_90,
// kernels_sm100.cu for sm_100a): one warp copies an experiment's image into shared memory, runs the
// move with the address the engine gave each lane, and writes the registers (ldmatrix, movmatrix) or the
// shared memory (stmatrix) back. The two files differ only in which instructions `move` issues.
#include <cstddef>
#include <cstdint>

namespace lanemap::gpu::movekernels {

// One experiment's input: the tile image, one address offset per lane, four registers per lane.
constexpr int kImageWords = 256, kInWords = 256 + 32 + 128, kOutWords = 256;

// `move(address, r)` issues the instruction and returns false where this build has no code for it (the caller
// then reports the form not compiled for the device).
template <bool writesSharedMemory, class Move>
__device__ void runMoves(const std::uint32_t* in, std::uint32_t* out, int experiments, int* compiled,
                         Move move) {
    __shared__ __align__(1024) std::uint32_t tile[kImageWords];
    const int lane = static_cast<int>(threadIdx.x);
    bool ran = false;
    for (int x = 0; x < experiments; ++x) {
        const std::uint32_t* words = in + static_cast<std::size_t>(x) * kInWords;
        for (int w = lane; w < kImageWords; w += 32)
            tile[w] = words[w];
        __syncwarp();
        const std::uint32_t address =
            static_cast<std::uint32_t>(__cvta_generic_to_shared(tile)) + words[kImageWords + lane];
        std::uint32_t r[4];
        for (int j = 0; j < 4; ++j)
            r[j] = words[kImageWords + 32 + j * 32 + lane];
        ran = move(address, r);
        __syncwarp();
        std::uint32_t* o = out + static_cast<std::size_t>(x) * kOutWords;
        if constexpr (writesSharedMemory) {
            for (int w = lane; w < kImageWords; w += 32)
                o[w] = tile[w];
        } else {
            for (int j = 0; j < 4; ++j)
                o[j * 32 + lane] = r[j];
        }
        __syncwarp();
    }
    if (lane == 0 && ran)
        *compiled = 1;
}

} // namespace lanemap::gpu::movekernels
