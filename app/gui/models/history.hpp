#pragma once
// Go > Back / Forward and File > Recent instructions, as a browsing tool keeps them: the selections visited,
// each with the words its menu entry shows. Selections, never spec text: going back restores the
// parameters the view had (a tcgen05.mma's N and access, wgmma's shared-memory choice).

#include "lanemap/selection.hpp"

#include <QString>

#include <optional>
#include <vector>

namespace lanemap::gui {

class History {
  public:
    struct Entry {
        Selection selection;
        QString label; // "mma.m16n8k16.f16"
    };

    // A variant opened: a new visit drops the forward part; the one being gone back or forward to is not
    // visited again. Recent: newest first, each variant once, at most 10.
    void visit(const Selection& selection, const QString& label);
    // Other parameters of the variant shown: its entries now say those.
    void update(const Selection& selection, const QString& label);

    // The selection to open, moving the position; nullopt at either end.
    std::optional<Selection> back();
    std::optional<Selection> forward();
    bool canGoBack() const { return m_position > 0; }
    bool canGoForward() const { return m_position + 1 < static_cast<int>(m_visits.size()); }

    const std::vector<Entry>& recent() const { return m_recent; }

  private:
    void remember(const Entry& entry);

    std::vector<Entry> m_visits; // oldest first
    int m_position = -1;
    std::vector<Entry> m_recent;
};

} // namespace lanemap::gui
