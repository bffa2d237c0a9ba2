#pragma once
// One tiled TMA load on the GPU, as the host sees it (no CUDA types): encode the map with the driver's
// cuTensorMapEncodeTiled (reached through the runtime's driver entry point, no -lcuda), load the box into
// 1024-byte-aligned shared memory (pre-filled with 0xA5), read it back.
#include "families/tma/tma.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu::tmabox {

struct BoxRun {
    int encodeStatus = -1; // the CUresult of cuTensorMapEncodeTiled (0: accepted)
    std::string error;     // "" when the load ran; else the CUDA error (a trap) or why it did not run
    std::vector<std::uint8_t> image; // shared memory [0, footprintBytes + 1024)
    std::array<std::uint8_t, 128> encoded{};
};

// `tensor`: the global tensor's bytes. Throws nothing: every failure is in the result.
BoxRun runBox(const tma::TensorMap& map, std::span<const std::uint8_t> tensor);

// A multicast load (map.ctaMask != 0, docs/tma.md#multicast) in a cluster of map.clusterCtas() CTAs launched
// with cudaLaunchKernelEx: every CTA fills its shared memory with 0xA5 and arms its own mbarrier (the
// mask's CTAs expect the box's bytes, a split's all of its boxes'); after a cluster barrier the lowest CTA of
// the mask issues the box (map.split: each CTA of the mask issues its own, one box further along the
// outermost dimension and one footprint further in shared memory), with .multicast::cluster and the mask;
// each CTA of the mask waits on its mbarrier, and every CTA writes its shared memory back.
struct ClusterRun {
    int encodeStatus = -1;
    std::string error;
    std::vector<std::vector<std::uint8_t>> images; // per CTA: shared memory [0, loads x footprint + 1024)
    std::array<std::uint8_t, 128> encoded{};
};
ClusterRun runMulticast(const tma::TensorMap& map, std::span<const std::uint8_t> tensor);

} // namespace lanemap::gpu::tmabox
