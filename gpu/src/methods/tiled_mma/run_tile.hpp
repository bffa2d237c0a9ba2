#pragma once
// The tiled-mma kernel as the host calls it (kernels.cu; no CUDA types): both launches of one tile, the
// registers of run 0 (tags) then run 1 (values, the mma run) into `raw`. Throws cuda::CudaFailure.
#include "methods/tiled_mma/tile_kernel.hpp"

#include <cstdint>
#include <vector>

namespace lanemap::gpu::tiledmma {

void runTile(const KernelTile& tile, const std::vector<int>& table, const std::vector<std::uint16_t>& tagsA,
             const std::vector<std::uint16_t>& tagsB, const std::vector<std::uint16_t>& valuesA,
             const std::vector<std::uint16_t>& valuesB, std::vector<std::uint32_t>& raw);

} // namespace lanemap::gpu::tiledmma
