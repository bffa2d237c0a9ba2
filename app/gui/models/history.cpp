#include "history.hpp"

#include <algorithm>

namespace lanemap::gui {

void History::visit(const Selection& selection, const QString& label) {
    const bool here =
        m_position >= 0 && m_visits[static_cast<std::size_t>(m_position)].selection == selection;
    if (!here) {
        m_visits.resize(static_cast<std::size_t>(m_position + 1)); // a new visit drops the forward part
        m_visits.push_back({selection, label});
        m_position = static_cast<int>(m_visits.size()) - 1;
    }
    remember({selection, label});
}

void History::update(const Selection& selection, const QString& label) {
    if (m_position >= 0 &&
        m_visits[static_cast<std::size_t>(m_position)].selection.variant == selection.variant)
        m_visits[static_cast<std::size_t>(m_position)] = {selection, label};
    remember({selection, label});
}

std::optional<Selection> History::back() {
    if (!canGoBack())
        return std::nullopt;
    return m_visits[static_cast<std::size_t>(--m_position)].selection;
}

std::optional<Selection> History::forward() {
    if (!canGoForward())
        return std::nullopt;
    return m_visits[static_cast<std::size_t>(++m_position)].selection;
}

void History::remember(const Entry& entry) {
    std::erase_if(m_recent, [&](const Entry& e) { return e.selection.variant == entry.selection.variant; });
    m_recent.insert(m_recent.begin(), entry);
    if (m_recent.size() > 10)
        m_recent.pop_back();
}

} // namespace lanemap::gui
