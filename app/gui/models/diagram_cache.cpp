#include "diagram_cache.hpp"

namespace lanemap::gui {

std::shared_ptr<const Diagram> DiagramCache::get(const std::shared_ptr<const Instruction>& instance,
                                                 const DiagramOptions& options) {
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        if (it->instance == instance && it->options == options) {
            m_entries.splice(m_entries.begin(), m_entries, it);
            return m_entries.front().diagram;
        }
    auto diagram = std::make_shared<const Diagram>(buildDiagram(*instance, options));
    ++m_builds;
    m_entries.push_front({instance, options, diagram});
    if (m_entries.size() > m_capacity)
        m_entries.pop_back();
    return diagram;
}

std::shared_ptr<const Diagram> DiagramCache::get(const Instruction& instruction,
                                                 const DiagramOptions& options) {
    return get(std::shared_ptr<const Instruction>(std::shared_ptr<void>(), &instruction), options);
}

void DiagramCache::forget(const Instruction& instruction) {
    m_entries.remove_if([&](const Entry& e) { return e.instance.get() == &instruction; });
}

} // namespace lanemap::gui
