#pragma once
// mma.sp helpers shared by the planner and the simulator.
#include "lanemap/gpu/simulate.hpp"

#include <cstdint>

namespace lanemap::gpu::detail {

// Simulator: the logical column of compressed A element `flat` under the metadata words `meta` ([lane]) and
// selector, read with the reference's metadata fields; -1 when the metadata gives it none.
int simulatedColumn(const SimReference& reference, std::size_t flat, const MetadataLayout& metadata, int selector,
                    const std::uint32_t* meta);

} // namespace lanemap::gpu::detail
