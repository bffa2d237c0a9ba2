#include "diagram_view.hpp"

#include "lanemap/diagram.hpp"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace lanemap::gui {

namespace {
constexpr int kTile = 256;          // tile edge in logical pixels
constexpr int kMaxTiles = 600;      // ~150 MB at dpr 1 worst case; the cache is dropped beyond this
constexpr double kMinZoom = 0.05;
constexpr double kMaxZoom = 6.0;
constexpr double kMargin = 12;      // units around the content

quint64 tileKey(int tx, int ty) {
    return (static_cast<quint64>(static_cast<quint32>(tx)) << 32) | static_cast<quint32>(ty);
}
} // namespace

DiagramView::DiagramView(QWidget* parent) : QAbstractScrollArea(parent) {
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    horizontalScrollBar()->setSingleStep(24);
    verticalScrollBar()->setSingleStep(24);
    m_options.chrome = false;
    m_options.legends = false;
}

DiagramView::~DiagramView() = default;

QSize DiagramView::sizeHint() const { return {420, 320}; }

void DiagramView::setDiagram(std::shared_ptr<const Diagram> diagram) {
    m_diagram = std::move(diagram);
    m_marks = {};
    m_highlight.hoverCell = -1;
    m_highlight.cursorCell = -1;
    invalidateTiles();
    if (m_fit) m_options.zoom = fitZoom();
    relayout();
    viewport()->update();
}

void DiagramView::setColors(const ViewColors& colors) {
    m_options.colors = colors;
    invalidateTiles();
    viewport()->update();
}

void DiagramView::setShowLabels(bool on) {
    if (m_options.labels == on) return;
    m_options.labels = on;
    invalidateTiles();
    viewport()->update();
}

void DiagramView::setChrome(bool title, bool legends) {
    m_options.chrome = title;
    m_options.legends = legends;
    invalidateTiles();
    if (m_fit) m_options.zoom = fitZoom();
    relayout();
    viewport()->update();
}

void DiagramView::setMarks(CellMarks marks) {
    m_marks = std::move(marks);
    invalidateTiles();
    viewport()->update();
}

double DiagramView::fitZoom() const {
    if (!m_diagram) return 1.0;
    const QRectF c = contentRect(*m_diagram, m_options, kMargin);
    const QSize vp = viewport()->size();
    if (c.width() <= 0 || c.height() <= 0 || vp.width() <= 0 || vp.height() <= 0) return 1.0;
    // Fit, but never magnify past 1.6: huge cells on a big screen look broken rather than helpful.
    const double z = std::min({vp.width() / c.width(), vp.height() / c.height(), 1.6});
    return std::clamp(z, kMinZoom, kMaxZoom);
}

void DiagramView::fit() {
    m_fit = true;
    const double z = fitZoom();
    if (std::abs(z - m_options.zoom) > 1e-9) {
        m_options.zoom = z;
        invalidateTiles();
        emit zoomChanged(z);
    }
    relayout();
    viewport()->update();
}

void DiagramView::setZoom(double zoom, QPoint anchor) {
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    m_fit = false;
    if (std::abs(zoom - m_options.zoom) < 1e-9) return;
    if (anchor.x() < 0) anchor = viewport()->rect().center();
    const QPointF unit = toUnits(anchor); // keep the unit under the anchor in place
    m_options.zoom = zoom;
    invalidateTiles();
    relayout();
    const QPointF px = (unit - m_options.origin) * zoom;
    horizontalScrollBar()->setValue(static_cast<int>(std::lround(px.x() - anchor.x())));
    verticalScrollBar()->setValue(static_cast<int>(std::lround(px.y() - anchor.y())));
    viewport()->update();
    emit zoomChanged(zoom);
}

void DiagramView::zoomBy(double factor, QPoint anchor) { setZoom(m_options.zoom * factor, anchor); }

void DiagramView::relayout() {
    if (!m_diagram) {
        horizontalScrollBar()->setRange(0, 0);
        verticalScrollBar()->setRange(0, 0);
        return;
    }
    m_content = contentRect(*m_diagram, m_options, kMargin);
    m_options.origin = m_content.topLeft();
    m_contentPx = QSize(static_cast<int>(std::ceil(m_content.width() * m_options.zoom)),
                        static_cast<int>(std::ceil(m_content.height() * m_options.zoom)));
    const QSize vp = viewport()->size();
    horizontalScrollBar()->setRange(0, std::max(0, m_contentPx.width() - vp.width()));
    verticalScrollBar()->setRange(0, std::max(0, m_contentPx.height() - vp.height()));
    horizontalScrollBar()->setPageStep(vp.width());
    verticalScrollBar()->setPageStep(vp.height());
}

void DiagramView::invalidateTiles() { m_tiles.clear(); }

QPoint DiagramView::scrollOffset() const {
    // Content smaller than the pane is centered horizontally and kept at the top.
    const QSize vp = viewport()->size();
    const int padX = std::max(0, (vp.width() - m_contentPx.width()) / 2);
    return {horizontalScrollBar()->value() - padX, verticalScrollBar()->value()};
}

QPointF DiagramView::toUnits(QPoint pos) const {
    const QPoint s = scrollOffset();
    return QPointF(pos + s) / m_options.zoom + m_options.origin;
}

const QImage& DiagramView::tile(int tx, int ty) {
    const quint64 key = tileKey(tx, ty);
    auto it = m_tiles.find(key);
    if (it != m_tiles.end()) return *it;
    if (m_tiles.size() >= kMaxTiles) m_tiles.clear();
    const double dpr = viewport()->devicePixelRatioF();
    QImage img(static_cast<int>(std::ceil(kTile * dpr)), static_cast<int>(std::ceil(kTile * dpr)),
               QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(dpr);
    img.fill(m_options.colors.background);
    {
        QPainter p(&img);
        p.translate(-tx * kTile, -ty * kTile);
        const QRectF exposed(tx * kTile, ty * kTile, kTile, kTile);
        p.setClipRect(exposed);
        paintStatic(p, *m_diagram, m_options, m_marks.empty() ? nullptr : &m_marks, exposed);
    }
    return *m_tiles.insert(key, std::move(img));
}

void DiagramView::paintEvent(QPaintEvent* event) {
    QElapsedTimer timer;
    timer.start();
    QPainter p(viewport());
    const QRect exposed = event->rect();
    p.fillRect(exposed, m_options.colors.background);
    if (m_diagram) {
        const QPoint s = scrollOffset();
        const QRect content = exposed.translated(s).intersected(QRect(QPoint(0, 0), m_contentPx));
        if (!content.isEmpty()) {
            const int tx0 = content.left() / kTile, tx1 = content.right() / kTile;
            const int ty0 = content.top() / kTile, ty1 = content.bottom() / kTile;
            for (int ty = ty0; ty <= ty1; ++ty)
                for (int tx = tx0; tx <= tx1; ++tx) {
                    const QRect target(tx * kTile - s.x(), ty * kTile - s.y(), kTile, kTile);
                    p.drawImage(target.topLeft(), tile(tx, ty));
                }
            p.translate(-s);
            p.setClipRect(exposed.translated(s));
            paintOverlay(p, *m_diagram, m_options, m_highlight, QRectF(exposed.translated(s)));
        }
    }
    m_lastPaintMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    ++m_paintCount;
    emit painted(m_lastPaintMs);
}

void DiagramView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    if (m_fit && m_diagram) {
        const double z = fitZoom();
        if (std::abs(z - m_options.zoom) > 1e-9) {
            m_options.zoom = z;
            invalidateTiles();
            emit zoomChanged(z);
        }
    }
    relayout();
}

void DiagramView::scrollContentsBy(int, int) { viewport()->update(); }

int DiagramView::cellAtViewport(QPoint pos) const {
    if (!m_diagram) return -1;
    const QPointF u = toUnits(pos);
    const int cell = m_diagram->cellAt(u.x(), u.y());
    if (cell >= 0) return cell;
    const auto [bd, field] = m_diagram->bitFieldAt(u.x(), u.y());
    if (bd >= 0) return m_diagram->bitFields[static_cast<std::size_t>(bd)].fields[static_cast<std::size_t>(field)].cell;
    return -1;
}

QRect DiagramView::cellViewportRect(int cell) const {
    if (!m_diagram) return {};
    return cellRect(*m_diagram, m_options, cell).toRect().translated(-scrollOffset());
}

void DiagramView::ensureCellVisible(int cell) {
    const QRect r = cellViewportRect(cell);
    if (r.isNull()) return;
    const QRect vp = viewport()->rect();
    if (r.left() < 0) horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.left() - 8);
    else if (r.right() > vp.right()) horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.right() - vp.right() + 8);
    if (r.top() < 0) verticalScrollBar()->setValue(verticalScrollBar()->value() + r.top() - 8);
    else if (r.bottom() > vp.bottom()) verticalScrollBar()->setValue(verticalScrollBar()->value() + r.bottom() - vp.bottom() + 8);
}

void DiagramView::updateCell(int cell) {
    if (cell < 0) return;
    viewport()->update(cellViewportRect(cell).adjusted(-4, -4, 4, 4));
}

void DiagramView::setHover(int cell) {
    if (cell == m_highlight.hoverCell) return;
    updateCell(m_highlight.hoverCell);
    m_highlight.hoverCell = cell;
    updateCell(cell);
    emit cellHovered(cell);
}

void DiagramView::setHighlightThread(int thread) {
    if (thread == m_highlight.thread) return;
    m_highlight.thread = thread;
    viewport()->update();
}

void DiagramView::setPinnedThread(int thread) {
    if (thread == m_highlight.pinned) return;
    m_highlight.pinned = thread;
    viewport()->update();
}

void DiagramView::setCursorCell(int cell) {
    if (m_diagram && (cell < -1 || cell >= static_cast<int>(m_diagram->cells.size()))) cell = -1;
    if (cell == m_highlight.cursorCell) return;
    updateCell(m_highlight.cursorCell);
    m_highlight.cursorCell = cell;
    updateCell(cell);
    if (cell >= 0) ensureCellVisible(cell);
    emit cursorMoved(cell);
}

int DiagramView::litCellCount() const {
    if (!m_diagram) return 0;
    int n = 0;
    if (m_highlight.pinned >= 0) n += static_cast<int>(m_diagram->cellsOfThread(m_highlight.pinned).size());
    if (m_highlight.thread >= 0 && m_highlight.thread != m_highlight.pinned)
        n += static_cast<int>(m_diagram->cellsOfThread(m_highlight.thread).size());
    return n;
}

bool DiagramView::moveCursor(int dRow, int dCol) {
    if (!m_diagram || m_diagram->cells.empty()) return false;
    const int current = m_highlight.cursorCell;
    if (current < 0) {
        setCursorCell(0);
        return true;
    }
    const DiagramCell& c = m_diagram->cells[static_cast<std::size_t>(current)];
    const DiagramPanel& panel = m_diagram->panels[c.panel];
    // Owners side by side in one position are visited one by one before leaving the position.
    if (dCol != 0 && c.owners > 1) {
        const std::span<const std::uint32_t> here = panel.cellsAtGrid(c.row, dCol > 0 ? c.colLast : c.col);
        auto it = std::find(here.begin(), here.end(), static_cast<std::uint32_t>(current));
        if (it != here.end()) {
            const auto pos = it - here.begin() + dCol;
            if (pos >= 0 && pos < static_cast<std::ptrdiff_t>(here.size())) {
                setCursorCell(static_cast<int>(here[static_cast<std::size_t>(pos)]));
                return true;
            }
        }
    }
    int row = c.row + dRow;
    int col = dCol > 0 ? c.colLast + dCol : dCol < 0 ? c.col + dCol : c.col;
    // Skip empty positions (e.g. the gaps of a filtered or chunked grid) in the direction of travel.
    while (row >= 0 && row < panel.rows && col >= 0 && col < panel.cols) {
        const auto cells = panel.cellsAtGrid(row, col);
        if (!cells.empty()) {
            setCursorCell(static_cast<int>(dCol < 0 ? cells.back() : cells.front()));
            return true;
        }
        row += dRow;
        col += dCol;
        if (dRow == 0 && dCol == 0) break;
    }
    return false;
}

bool DiagramView::event(QEvent* e) {
    if (e->type() == QEvent::KeyPress) {
        auto* k = static_cast<QKeyEvent*>(e);
        if ((k->key() == Qt::Key_Tab || k->key() == Qt::Key_Backtab) &&
            !(k->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
            emit tabPressed(k->key() == Qt::Key_Backtab || (k->modifiers() & Qt::ShiftModifier));
            return true;
        }
    }
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int cell = cellAtViewport(viewport()->mapFrom(this, help->pos()));
        if (cell >= 0 && m_diagram)
            QToolTip::showText(help->globalPos(), QString::fromStdString(m_diagram->cells[static_cast<std::size_t>(cell)].tooltip), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QAbstractScrollArea::event(e);
}

void DiagramView::mouseMoveEvent(QMouseEvent* event) {
    setHover(cellAtViewport(event->position().toPoint()));
    QAbstractScrollArea::mouseMoveEvent(event);
}

void DiagramView::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    if (event->button() == Qt::LeftButton) {
        const int cell = cellAtViewport(event->position().toPoint());
        if (cell >= 0) setCursorCell(cell);
        emit cellClicked(cell);
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void DiagramView::leaveEvent(QEvent* event) {
    setHover(-1);
    QAbstractScrollArea::leaveEvent(event);
}

void DiagramView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        if (steps != 0) zoomBy(std::pow(1.2, steps), event->position().toPoint());
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void DiagramView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Left: moveCursor(0, -1); return;
    case Qt::Key_Right: moveCursor(0, 1); return;
    case Qt::Key_Up: moveCursor(-1, 0); return;
    case Qt::Key_Down: moveCursor(1, 0); return;
    case Qt::Key_Home: setCursorCell(m_diagram && !m_diagram->cells.empty() ? 0 : -1); return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space: emit cellClicked(m_highlight.cursorCell); return;
    case Qt::Key_Escape: setCursorCell(-1); emit cellClicked(-1); return;
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomBy(1.25); return;
    case Qt::Key_Minus: zoomBy(0.8); return;
    case Qt::Key_0: fit(); return;
    default: break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void DiagramView::focusInEvent(QFocusEvent* event) {
    QAbstractScrollArea::focusInEvent(event);
    if (m_highlight.cursorCell < 0 && m_diagram && !m_diagram->cells.empty() && event->reason() != Qt::MouseFocusReason)
        setCursorCell(0);
    viewport()->update();
}

void DiagramView::focusOutEvent(QFocusEvent* event) {
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update();
}

QImage DiagramView::renderImage(double scale) const {
    if (!m_diagram) return {};
    return renderDiagram(*m_diagram, m_options, m_marks.empty() ? nullptr : &m_marks, scale);
}

} // namespace lanemap::gui
