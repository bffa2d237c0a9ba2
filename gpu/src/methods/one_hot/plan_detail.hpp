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

#include "lanemap/sparse.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace lanemap::gpu::detail {

// mma.sp metadata of the probe (plan_sparse.cpp). Base pattern P0 puts 0b0100 in every nibble of every lane
// (each chunk keeps its first kept positions), P1 0b1110 (the last): with every nibble alike, which lane and
// bits the hardware reads does not matter, so the dense experiments see a known logical A.
constexpr std::uint32_t kPatternWord[2] = {0x44444444u, 0xEEEEEEEEu};
constexpr int kNibbles = 32 * 8; // metadata nibbles of a warp: lane * 8 + nibble
constexpr int kLocateBits = 8;   // bits of a nibble id

class SparseImages {
  public:
    SparseImages(const ProbePlan& plan, const FragmentLayout& a, const FragmentLayout& b);

    // Adds the metadata experiments of form `form`: MetaLocate (kLocateBits runs per A element) and MetaValue
    // (one run per valid field value per A element).
    void planMetadata(std::uint16_t form, std::vector<Experiment>& out) const;
    // The metadata word of every lane ([lane]) for experiment x.
    void fillMetadata(const Experiment& x, std::uint32_t* words) const;
    // B for the metadata runs: element (k, n) = 1 where bit n of (k+1) is set, so D's row of the one-hot A
    // element spells (its k + 1) across the 8 columns in one run.
    const std::vector<std::uint32_t>& kByColumn(std::uint16_t form) const { return m_kByColumn[form]; }

  private:
    const ProbePlan& m_plan;
    std::vector<std::optional<sparse::Codec>> m_codecs;  // per form
    std::vector<std::vector<std::uint32_t>> m_kByColumn; // per form
    std::vector<std::vector<std::int16_t>> m_fieldOf;    // per form, per A element: codec field under P0
};

// The codec of the form's selector (the engine's metadata fields), throwing with the codec's message on
// failure.
sparse::Codec codecFor(const Instruction& instruction, int selector);

} // namespace lanemap::gpu::detail
