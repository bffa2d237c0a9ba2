#pragma once
// How the simulated hardware reads compressed A (mma.sp and wgmma.sp), shared by the one-hot and class-coded
// simulators.
#include "lanemap/gpu/simulate.hpp"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace lanemap::gpu::detail {

// Reads compressed A the way the simulated hardware does: each element's chunk and slot from the reference A
// table (a thread's elements in one row and column range fill its chunks in column order, `kept` per chunk,
// in increasing element index), its chunk's field from the reference metadata, and the field's value from the
// metadata words, decoded by the storage rule.
class SparseSim {
  public:
    SparseSim(const SimReference& reference, const MetadataLayout& metadata);
    // The logical column of compressed A element `flat`; -1 when the metadata gives it none.
    int column(std::size_t flat, int selector, const std::uint32_t* meta) const;

  private:
    const SimReference& m_ref;
    int m_pattern = 0; // sparse::Pattern
    std::vector<int> m_chunkFirst, m_slot;
    std::map<std::tuple<int, int, int>, const MetadataField*>
        m_field; // (selector, row, chunk first) -> field
};

} // namespace lanemap::gpu::detail
