#pragma once
// The tagged-tile probe kernels (ldmatrix / stmatrix / movmatrix) as the host sees them: no CUDA types.
#include <cstdint>
#include <string_view>

namespace lanemap::gpu::movekernels {

struct Entry {
    const char* ptx; // canonical PTX of the variant
    int minArch;     // __CUDA_ARCH__ the instruction needs (750, 900; 1000: sm_100a exactly)
    // One warp; per experiment in = [image 256][address 32][registers 4 x 32] words, out = 256 words.
    // *compiled = 1 when the device's code contains the instruction. Returns the cudaError_t of the launch.
    int (*launch)(const std::uint32_t* in, std::uint32_t* out, int experiments, int* compiled);
};

// The .b16 forms (kernels.cu, the probe's architectures).
const Entry* findB16(std::string_view ptx);
// The sm_100a forms (kernels_sm100.cu, sm_100a code only); nullptr in a build without them
// (gpu/CMakeLists.txt LANEMAP_SM100A_PROBES).
const Entry* findSm100a(std::string_view ptx);
// The kernel of a variant's PTX, either kind; nullptr when this build has none (tagged_cuda.cpp).
const Entry* find(std::string_view ptx);

} // namespace lanemap::gpu::movekernels
