#include "diagram_cache.hpp"

namespace lanemap::gui {

std::shared_ptr<const Diagram> DiagramCache::get(const Instruction& instruction,
                                                 const DiagramOptions& options) {
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        if (it->instruction == &instruction && it->options == options) {
            m_entries.splice(m_entries.begin(), m_entries, it);
            return m_entries.front().diagram;
        }
    auto diagram = std::make_shared<const Diagram>(buildDiagram(instruction, options));
    ++m_builds;
    m_entries.push_front({&instruction, options, diagram});
    if (m_entries.size() > m_capacity)
        m_entries.pop_back();
    return diagram;
}

void DiagramCache::forget(const Instruction& instruction) {
    m_entries.remove_if([&](const Entry& e) { return e.instruction == &instruction; });
}

} // namespace lanemap::gui
