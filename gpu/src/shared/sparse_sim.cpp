// The simulators' reading of compressed A (sparse_sim.hpp): one-hot's (mma.sp) and class-coded's (wgmma.sp).
#include "sparse_sim.hpp"

#include "lanemap/sparse.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace lanemap::gpu::detail {

SparseSim::SparseSim(const SimReference& ref, const MetadataLayout& md) : m_ref(ref) {
    const sparse::StorageRule* rule = sparse::ruleFor(md.granularity);
    if (!rule)
        throw std::logic_error("simulate: unknown sparsity '" + std::string(md.granularity) + "'");
    m_pattern = static_cast<int>(rule->pattern);
    std::map<std::tuple<int, int, int, int>, int> seen; // (thread, row, col, colLast) -> elements so far
    std::vector<std::size_t> order(ref.a.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return ref.a[x].index < ref.a[y].index; });
    m_chunkFirst.assign(ref.a.size(), 0);
    m_slot.assign(ref.a.size(), 0);
    for (std::size_t i : order) {
        const Element& e = ref.a[i];
        const int position = seen[{e.thread, e.row, e.col, e.colLast}]++;
        m_chunkFirst[i] = e.col + (position / rule->kept) * rule->chunkCols;
        m_slot[i] = position % rule->kept;
    }
    for (const MetadataSelector& s : md.selectors)
        for (const MetadataField& f : s.fields)
            m_field[{s.value, f.row, f.colFirst}] = &f;
}

int SparseSim::column(std::size_t flat, int selector, const std::uint32_t* meta) const {
    const Element& e = m_ref.a[flat];
    const auto it = m_field.find({selector, e.row, m_chunkFirst[flat]});
    if (it == m_field.end())
        return -1;
    const MetadataField& f = *it->second;
    const unsigned width = static_cast<unsigned>(f.bitHi - f.bitLo + 1);
    const unsigned value = (meta[f.thread] >> f.bitLo) & ((1u << width) - 1u);
    const std::vector<int> offsets = sparse::decodeField(static_cast<sparse::Pattern>(m_pattern), value);
    if (m_slot[flat] >= static_cast<int>(offsets.size()))
        return -1;
    return m_chunkFirst[flat] + offsets[static_cast<std::size_t>(m_slot[flat])];
}

} // namespace lanemap::gpu::detail
