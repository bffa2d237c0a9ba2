#pragma once
// What `lanemap --timing` reports: start -> first paint, select -> first paint (every pane of the newly
// opened instruction that the user can see has painted once) and the hover frames. Knows nothing of widgets:
// views are keys, and whether one is on screen is asked.

#include <QElapsedTimer>
#include <QSet>
#include <QString>

class QObject;

namespace lanemap::gui {

class PaintTiming {
  public:
    void setStartTimer(const QElapsedTimer* timer) { m_startTimer = timer; }
    // An instruction is being selected (the time from here counts); then the views whose first paint ends
    // it, once they show it.
    void select();
    void await(const QSet<const QObject*>& views);
    void hovered() { m_hoverPending = true; }
    // `view` painted in `ms`. True when that completes the first paint of the selection. Views not among
    // `visible` (behind the compare page, in a hidden dock, deleted) never paint: they do not count.
    bool painted(const QObject* view, double ms, const QSet<const QObject*>& visible);

    bool waiting() const { return m_waiting; }
    double startToFirstPaintMs() const { return m_startToFirstPaint; }
    double selectToFirstPaintMs() const { return m_selectToFirstPaint; }
    QString report() const;

  private:
    const QElapsedTimer* m_startTimer = nullptr;
    QElapsedTimer m_selectTimer;
    bool m_waiting = false;
    QSet<const QObject*> m_unpainted;
    bool m_startPainted = false;
    double m_startToFirstPaint = -1;
    double m_selectToFirstPaint = -1;
    double m_maxHoverFrame = 0;
    double m_sumHoverFrame = 0;
    int m_hoverFrames = 0;
    bool m_hoverPending = false;
};

} // namespace lanemap::gui
