#include "diagram_cache.hpp"

namespace lanemap::gui {

namespace {

std::string keyOf(const Instruction& in, const DiagramOptions& o) {
    std::string key = in.spec + '|' + o.operand.value_or("*") + '|' + std::string(toString(o.colorBy)) + '|' +
                      std::string(toString(o.palette)) + '|' +
                      (o.selector ? std::to_string(*o.selector) : "-") + '|' +
                      (o.mergeIdenticalCD ? 'm' : 's') + (o.metadataBitFields ? 'b' : '-') + '|';
    for (int t : o.threads)
        key += std::to_string(t) + ',';
    return key;
}

} // namespace

std::shared_ptr<const Diagram> DiagramCache::get(const Instruction& instruction,
                                                 const DiagramOptions& options) {
    const std::string key = keyOf(instruction, options);
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it)
        if (it->key == key && it->instruction == &instruction) {
            m_entries.splice(m_entries.begin(), m_entries, it);
            return m_entries.front().diagram;
        }
    auto diagram = std::make_shared<const Diagram>(buildDiagram(instruction, options));
    ++m_builds;
    m_entries.push_front({key, &instruction, diagram});
    if (m_entries.size() > m_capacity)
        m_entries.pop_back();
    return diagram;
}

void DiagramCache::forget(const Instruction& instruction) {
    m_entries.remove_if([&](const Entry& e) { return e.instruction == &instruction; });
}

} // namespace lanemap::gui
