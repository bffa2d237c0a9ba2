#pragma once
// A CPU stand-in for the tensor core, for tests without a GPU: it executes a probe plan's register images the
// way the hardware would if the hardware used `reference` as its layout, and returns raw D words exactly as
// the probe kernel writes them. A test that permutes the reference plays a GPU that disagrees with the
// engine.

#include "lanemap/gpu/experiments.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace lanemap::gpu {

// Where the simulated hardware keeps each element: a copy of the engine's tables that tests may edit.
struct SimReference {
    std::vector<Element> a, b, c, d;        // by flat element (thread * elements per thread + index)
    std::optional<MetadataLayout> metadata; // mma.sp: which lane and bits hold each chunk's indices
};

SimReference referenceOf(const Instruction& instruction);

// D = C + A·B (b1: popcounts of a & b or a ^ b) for every experiment, computed from the register images
// alone. Output layout: [experiment][D word][lane].
std::vector<std::uint32_t> simulate(const ProbePlan& plan, const SimReference& reference);

} // namespace lanemap::gpu
