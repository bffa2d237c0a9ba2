#pragma once
// Internal helpers shared by the planner, the interpreter and the simulator.
#include "lanemap/gpu/experiments.hpp"

#include <array>
#include <cstdint>

namespace lanemap::gpu::detail {

// ORs `value` (an element's encoding) into the image at the element's register and bits.
// `image` is [word][lane]; `wordOffset` is the operand's first word.
void putElement(std::uint32_t* image, int wordOffset, const FragmentLayout& layout, const Element& e,
                std::uint64_t value);

// Bits needed to spell the values 1..values.
int bitsFor(std::size_t values);

// The six valid metadata nibbles: two 2-bit indices increasing from the LSB.
const std::array<std::uint8_t, 6>& orderedPatterns();

} // namespace lanemap::gpu::detail
