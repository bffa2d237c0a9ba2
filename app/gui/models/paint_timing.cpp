#include "paint_timing.hpp"

#include <QCoreApplication>

#include <algorithm>

namespace lanemap::gui {

void PaintTiming::select() {
    m_selectTimer.start();
    m_waiting = true;
    m_unpainted.clear();
}

void PaintTiming::await(const QSet<const QObject*>& views) {
    if (m_waiting)
        m_unpainted.unite(views);
}

bool PaintTiming::painted(const QObject* view, double ms, const QSet<const QObject*>& visible) {
    if (m_startTimer && !m_startPainted) {
        m_startPainted = true;
        m_startToFirstPaint = static_cast<double>(m_startTimer->nsecsElapsed()) / 1e6;
    }
    if (m_waiting && m_selectTimer.isValid()) {
        m_unpainted.remove(view);
        m_unpainted.intersect(visible);
        if (!m_unpainted.isEmpty())
            return false;
        m_waiting = false;
        m_selectToFirstPaint = static_cast<double>(m_selectTimer.nsecsElapsed()) / 1e6;
        return true;
    }
    if (m_hoverPending) {
        m_maxHoverFrame = std::max(m_maxHoverFrame, ms);
        m_sumHoverFrame += ms;
        ++m_hoverFrames;
    }
    return false;
}

QString PaintTiming::report() const {
    return QCoreApplication::translate(
               "lanemap::gui::MainWindow",
               "start -> first paint %1 ms; select -> first paint %2 ms; hover frames: "
               "%3, mean %4 ms, max %5 ms")
        .arg(m_startToFirstPaint, 0, 'f', 1)
        .arg(m_selectToFirstPaint, 0, 'f', 1)
        .arg(m_hoverFrames)
        .arg(m_hoverFrames ? m_sumHoverFrame / m_hoverFrames : 0.0, 0, 'f', 2)
        .arg(m_maxHoverFrame, 0, 'f', 2);
}

} // namespace lanemap::gui
