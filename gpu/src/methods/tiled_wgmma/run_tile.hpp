#pragma once
// The tiled-wgmma kernel as the host calls it (kernels.cu; no CUDA types): the RS and the SS form, each a
// launch with tags and one with values and the wgmma, every thread's words and the shared-memory image into
// `raw` (Plan's order). Returns whether the code the device loaded holds the wgmma. Throws cuda::CudaFailure.
#include "methods/tiled_wgmma/tile_kernel.hpp"

#include <cstdint>
#include <vector>

namespace lanemap::gpu::tiledwgmma {

int runTile(const KernelTile& tile, const std::vector<int>& table,
            const std::vector<std::uint64_t>& descriptors, const std::vector<std::uint16_t>& tagsA,
            const std::vector<std::uint16_t>& tagsB, const std::vector<std::uint16_t>& valuesA,
            const std::vector<std::uint16_t>& valuesB, std::vector<std::uint32_t>& raw);

} // namespace lanemap::gpu::tiledwgmma
