#pragma once
// The tagged-tile probe kernels (ldmatrix / stmatrix / movmatrix .b16) as the host sees them: no CUDA types.
#include <cstdint>
#include <string_view>

namespace lanemap::gpu::movekernels {

struct Entry {
    const char* ptx; // canonical PTX of the variant
    int minArch;     // __CUDA_ARCH__ the instruction needs (750, 900)
    // One warp; per experiment in = [image 256][address 32][registers 4 x 32] words, out = 256 words.
    // *compiled = 1 when the device's code contains the instruction. Returns the cudaError_t of the launch.
    int (*launch)(const std::uint32_t* in, std::uint32_t* out, int experiments, int* compiled);
};

const Entry* find(std::string_view ptx);

} // namespace lanemap::gpu::movekernels
