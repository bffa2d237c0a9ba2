#include "diagram_view.hpp"

#include "view_state.hpp"

#include "lanemap/diagram.hpp"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSet>
#include <QStyle>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace lanemap::gui {

namespace {
constexpr int kTile = 256;        // tile edge in logical pixels
constexpr int kMaxTiles = 600;    // ~150 MB at dpr 1 worst case; the cache is dropped beyond this
constexpr double kMinZoom = 0.02; // fit all of a 64x256 grid in half a laptop screen: colour alone
constexpr double kMaxZoom = 6.0;
constexpr double kMargin = 12; // units around the content

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
    // The overview shows while the pane scrolls and a moment after, then leaves the cells uncovered.
    m_scrollSettle = new QTimer(this);
    m_scrollSettle->setObjectName(QStringLiteral("overviewSettle"));
    m_scrollSettle->setSingleShot(true);
    m_scrollSettle->setInterval(1500);
    connect(m_scrollSettle, &QTimer::timeout, this, [this] {
        m_scrolling = false;
        viewport()->update(overviewPlace());
    });
}

DiagramView::~DiagramView() = default;

QSize DiagramView::sizeHint() const {
    return {420, 320};
}

void DiagramView::setDiagram(std::shared_ptr<const Diagram> diagram) {
    m_diagram = std::move(diagram);
    m_marks = {};
    m_highlight.hoverCell = -1;
    m_highlight.cursorCell = -1;
    if (m_state) {
        // Lanes the new diagram does not have light nothing.
        m_highlight.thread = laneOf(m_state->hoveredLane());
        m_highlight.pinned = laneOf(m_state->pinnedLane());
    }
    const double before = m_options.zoom;
    redraw();
    if (std::abs(m_options.zoom - before) > 1e-9)
        emit zoomChanged(m_options.zoom); // the pane's zoom label follows a refit to the new diagram
}

int DiagramView::laneOf(int thread) const {
    return m_diagram && thread < m_diagram->threads ? thread : -1;
}

void DiagramView::setViewState(const ViewState* state) {
    m_state = state;
    auto lane = [this](int thread) { return laneOf(thread); };
    setColors(viewColors(state->theme()));
    setShowLabels(state->showLabels());
    setPinnedThread(lane(state->pinnedLane()));
    setHighlightThread(lane(state->hoveredLane()));
    connect(state, &ViewState::hoveredLaneChanged, this,
            [this, lane](int t) { setHighlightThread(lane(t)); });
    connect(state, &ViewState::pinnedLaneChanged, this, [this, lane](int t) { setPinnedThread(lane(t)); });
    connect(state, &ViewState::showLabelsChanged, this, &DiagramView::setShowLabels);
    connect(state, &ViewState::themeChanged, this, [this](Theme theme) { setColors(viewColors(theme)); });
}

void DiagramView::setColors(const ViewColors& colors) {
    m_options.colors = colors;
    invalidateTiles();
    viewport()->update();
}

void DiagramView::redraw() {
    invalidateTiles();
    if (m_fit)
        m_options.zoom = fitZoom();
    relayout();
    viewport()->update();
}

void DiagramView::setShowLabels(bool on) {
    if (m_options.labels == on)
        return;
    m_options.labels = on;
    invalidateTiles();
    viewport()->update();
}

void DiagramView::setPanelHeadings(bool on) {
    if (m_options.panelHeadings == on)
        return;
    m_options.panelHeadings = on;
    redraw();
}

void DiagramView::setChrome(bool title, bool legends) {
    m_options.chrome = title;
    m_options.legends = legends;
    redraw();
}

void DiagramView::setPart(DiagramPart part) {
    if (m_options.part == part)
        return;
    m_options.part = part;
    redraw();
}

void DiagramView::setMarks(CellMarks marks) {
    m_marks = std::move(marks);
    invalidateTiles();
    viewport()->update();
}

double DiagramView::fitZoom() const {
    return fitZoom(m_fitMode);
}

double DiagramView::fitZoom(FitMode mode) const {
    if (!m_diagram)
        return 1.0;
    return fitZoomFor(*m_diagram, contentRect(*m_diagram, m_options, kMargin), maximumViewportSize(),
                      style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, this) + 1, mode);
}

double DiagramView::fitZoomFor(const Diagram& diagram, const QRectF& c, QSize vp, double bar, FitMode mode) {
    if (c.width() <= 0 || c.height() <= 0 || vp.width() <= 0 || vp.height() <= 0)
        return 1.0;
    // The whole diagram, but never magnified past 1.6: huge cells on a big screen look broken, not helpful.
    const double both = std::min({vp.width() / c.width(), vp.height() / c.height(), 1.6});
    if (mode == FitMode::All || labelsVisible(diagram, both))
        return std::clamp(both, kMinZoom, kMaxZoom);
    // Too small to read (a 64x16 A or a 64x256 accumulator in a laptop's pane): the smallest zoom that
    // draws the labels, so the pane shows as much as it can read (filling the short side up to 1:1 showed
    // 7 of a 32-row B at 100 % beside an A at 65 %); the short side is filled where that is no larger than a
    // quarter above it. The pane scrolls from the top-left corner, headers sticky.
    const bool wide = vp.width() / c.width() < vp.height() / c.height(); // scrolls horizontally
    const double shortSide =
        std::min(wide ? (vp.height() - bar) / c.height() : (vp.width() - bar) / c.width(), 1.0);
    const double readable = readableZoom(diagram);
    const double z = shortSide <= readable * 1.25 ? std::max(shortSide, readable) : readable;
    return std::clamp(std::max(both, z), kMinZoom, kMaxZoom);
}

void DiagramView::fit(FitMode mode) {
    const bool changed = !m_fit || mode != m_fitMode;
    m_fit = true;
    m_fitMode = mode;
    const double z = fitZoom();
    if (std::abs(z - m_options.zoom) > 1e-9) {
        m_options.zoom = z;
        invalidateTiles();
        emit zoomChanged(z);
    } else if (changed) {
        emit zoomChanged(z); // same scale, but now it follows the pane
    }
    relayout();
    viewport()->update();
}

void DiagramView::setZoom(double zoom, QPoint anchor) {
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const bool wasFit = std::exchange(m_fit, false);
    if (std::abs(zoom - m_options.zoom) < 1e-9) {
        if (wasFit)
            emit zoomChanged(zoom); // same scale, but it no longer follows the pane
        return;
    }
    if (anchor.x() < 0)
        anchor = viewport()->rect().center();
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

void DiagramView::zoomBy(double factor, QPoint anchor) {
    setZoom(m_options.zoom * factor, anchor);
}

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
    // Room to scroll the last cells out from under the overview, along the direction that already scrolls.
    const QRect overview = overviewPlace();
    const bool tall = m_contentPx.height() > vp.height();
    const int extraW = !overview.isEmpty() && !tall ? overview.width() + 16 : 0;
    const int extraH = !overview.isEmpty() && tall ? overview.height() + 16 : 0;
    horizontalScrollBar()->setRange(0, std::max(0, m_contentPx.width() + extraW - vp.width()));
    verticalScrollBar()->setRange(0, std::max(0, m_contentPx.height() + extraH - vp.height()));
    horizontalScrollBar()->setPageStep(vp.width());
    verticalScrollBar()->setPageStep(vp.height());
}

void DiagramView::invalidateTiles() {
    m_tiles.clear();
    m_shadedTiles.clear();
    m_overview = QImage();
}

DiagramView::StickyHeaders DiagramView::stickyHeaders() const {
    StickyHeaders out;
    if (!m_diagram)
        return out;
    const QSize vp = viewport()->size();
    const QPoint s = scrollOffset();
    const double z = m_options.zoom;
    const double font = m_diagram->metrics.headerFont * z;
    if (font < 6) // too small to read: colour alone, as the grid itself
        return out;
    const int stripH = static_cast<int>(std::ceil(font + 6));
    auto toView = [&](double ux, double uy) {
        return QPointF((ux - m_options.origin.x()) * z - s.x(), (uy - m_options.origin.y()) * z - s.y());
    };
    for (const DiagramPanel& p : m_diagram->panels) {
        if (p.rows <= 0 || p.cols <= 0)
            continue;
        const RectF g = p.gridRect();
        const QPointF tl = toView(g.x, g.y), br = toView(g.right(), g.bottom());
        const QRectF grid(tl, br);
        if (grid.right() <= 0 || grid.left() >= vp.width() || grid.bottom() <= stripH ||
            grid.top() >= vp.height())
            continue;
        const double cw = p.cellWidth * z, ch = p.cellHeight * z;
        // Column numbers: the grid's own header row is above the viewport.
        if (tl.y() < stripH && !p.colHeaders.empty()) {
            const QRect strip(
                QPoint(static_cast<int>(std::max(0.0, grid.left())), 0),
                QPoint(static_cast<int>(std::min<double>(vp.width(), grid.right())), stripH - 1));
            out.top = out.top.united(strip);
            const int c0 = std::max(0, static_cast<int>((strip.left() - tl.x()) / cw));
            const int c1 = std::min(p.cols - 1, static_cast<int>((strip.right() - tl.x()) / cw));
            const double labelW = static_cast<double>(std::to_string(p.cols - 1).size() + 1) * font * 0.62;
            int every = 1;
            while (every * cw < labelW)
                every *= 2;
            for (int c = c0; c <= c1; ++c)
                if (c % every == 0)
                    out.labels.emplace_back(
                        QRect(static_cast<int>(tl.x() + c * cw), 0, static_cast<int>(std::ceil(cw * every)),
                              stripH),
                        QString::fromStdString(p.colHeaders[static_cast<std::size_t>(c)]));
        }
        // Row numbers: the grid's own header column is left of the viewport.
        if (!p.rowHeaders.empty()) {
            std::size_t chars = 1;
            for (const std::string& h : p.rowHeaders)
                chars = std::max(chars, h.size());
            const int stripW = static_cast<int>(std::ceil(static_cast<double>(chars) * font * 0.62 + 8));
            if (tl.x() < stripW) {
                const int top =
                    std::max(static_cast<int>(std::max(0.0, grid.top())), out.top.isEmpty() ? 0 : stripH);
                const QRect strip(
                    QPoint(0, top),
                    QPoint(stripW - 1, static_cast<int>(std::min<double>(vp.height(), grid.bottom()))));
                out.left = out.left.united(strip);
                const int r0 = std::max(0, static_cast<int>((strip.top() - tl.y()) / ch));
                const int r1 = std::min(p.rows - 1, static_cast<int>((strip.bottom() - tl.y()) / ch));
                int every = 1;
                while (every * ch < font)
                    every *= 2;
                for (int r = r0; r <= r1; ++r)
                    if (r % every == 0 && tl.y() + r * ch >= top - 1)
                        out.labels.emplace_back(
                            QRect(0, static_cast<int>(tl.y() + r * ch), stripW - 4,
                                  static_cast<int>(std::ceil(ch))),
                            QString::fromStdString(p.rowHeaders[static_cast<std::size_t>(r)]));
            }
        }
    }
    return out;
}

void DiagramView::paintSticky(QPainter& p, const QRegion& region) {
    const StickyHeaders h = stickyHeaders();
    if (h.top.isEmpty() && h.left.isEmpty())
        return;
    p.save();
    p.setClipRegion(region);
    const QColor strip = m_options.colors.background;
    for (const QRect& r : {h.top, h.left})
        if (!r.isEmpty()) {
            p.fillRect(r, strip);
            p.setPen(m_options.colors.gridLine);
            if (&r == &h.top)
                p.drawLine(r.bottomLeft(), r.bottomRight());
            else
                p.drawLine(r.topRight(), r.bottomRight());
        }
    QFont f = font();
    f.setPixelSize(
        std::max(7, static_cast<int>(std::lround(m_diagram->metrics.headerFont * m_options.zoom))));
    p.setFont(f);
    p.setPen(m_options.colors.muted);
    for (const auto& [rect, text] : h.labels) {
        const bool row = h.left.contains(rect.topLeft()) && rect.left() == 0;
        p.drawText(rect, (row ? Qt::AlignRight : Qt::AlignHCenter) | Qt::AlignVCenter, text);
    }
    p.restore();
}

QRect DiagramView::overviewRect() const {
    // At rest the cells come first: only a scroll (for a moment) or the pointer over the pane brings it.
    if (!m_pointerInside && !m_overviewDrag && !m_scrolling)
        return {};
    return overviewPlace();
}

void DiagramView::setPointerInside(bool inside) {
    if (inside == m_pointerInside)
        return;
    const QRect place = overviewPlace();
    m_pointerInside = inside;
    if (!place.isEmpty())
        viewport()->update(place);
}

QRect DiagramView::overviewPlace() const {
    if (!m_diagram)
        return {};
    const QSize vp = viewport()->size();
    // Only for content well beyond the pane (half as large again along one side): a grid that misses a few
    // columns keeps every cell uncovered; the scroll bar says enough. Judged without scroll bars.
    const QSize room = maximumViewportSize();
    if (m_contentPx.width() <= room.width() * 1.5 && m_contentPx.height() <= room.height() * 1.5)
        return {};
    // At most a fifth of the pane's width and a third of its height, the content's aspect kept.
    const double maxW = std::max(40.0, vp.width() / 5.0), maxH = std::max(30.0, vp.height() / 3.0);
    const double scale = std::min(maxW / m_contentPx.width(), maxH / m_contentPx.height());
    const QSize size(std::max(8, static_cast<int>(m_contentPx.width() * scale)),
                     std::max(8, static_cast<int>(m_contentPx.height() * scale)));
    if (size.width() * 3 > vp.width() || size.height() * 2 > vp.height())
        return {}; // a pane too small for it: the scroll bars say enough
    return QRect(QPoint(vp.width() - size.width() - 8, vp.height() - size.height() - 8), size);
}

void DiagramView::scrollToOverview(QPoint pos) {
    const QRect o = overviewRect();
    if (o.isEmpty())
        return;
    const double fx = std::clamp((pos.x() - o.left()) / static_cast<double>(o.width()), 0.0, 1.0);
    const double fy = std::clamp((pos.y() - o.top()) / static_cast<double>(o.height()), 0.0, 1.0);
    const QSize vp = viewport()->size();
    horizontalScrollBar()->setValue(static_cast<int>(fx * m_contentPx.width() - vp.width() / 2.0));
    verticalScrollBar()->setValue(static_cast<int>(fy * m_contentPx.height() - vp.height() / 2.0));
}

void DiagramView::paintOverview(QPainter& p) {
    const QRect o = overviewRect();
    if (o.isEmpty())
        return;
    if (m_overview.size() != o.size()) {
        // Colour alone at this size: the diagram without labels, rendered once.
        PaintOptions mini = m_options;
        mini.labels = false;
        mini.zoom = m_options.zoom * o.width() / std::max(1, m_contentPx.width());
        m_overview = QImage(o.size(), QImage::Format_ARGB32_Premultiplied);
        m_overview.fill(m_options.colors.background);
        QPainter mp(&m_overview);
        paintStatic(mp, *m_diagram, mini, nullptr, QRectF(QPointF(0, 0), QSizeF(o.size())));
    }
    p.save();
    p.setClipping(false);
    p.setOpacity(0.92);
    p.drawImage(o.topLeft(), m_overview);
    p.setOpacity(1);
    p.setPen(QPen(m_options.colors.muted, 1));
    p.drawRect(o.adjusted(0, 0, -1, -1));
    // The visible part.
    const QPoint s = scrollOffset();
    const QSize vp = viewport()->size();
    const double k = static_cast<double>(o.width()) / std::max(1, m_contentPx.width());
    QRect seen(o.left() + static_cast<int>(std::max(0, s.x()) * k),
               o.top() + static_cast<int>(std::max(0, s.y()) * k),
               static_cast<int>(std::min(vp.width(), m_contentPx.width()) * k),
               static_cast<int>(std::min(vp.height(), m_contentPx.height()) * k));
    p.setPen(QPen(m_options.colors.highlight, 2));
    p.drawRect(seen.intersected(o).adjusted(1, 1, -1, -1));
    p.restore();
}

QRect DiagramView::chromeRepaintRect(int dx, int dy) const {
    QRect r = overviewPlace(); // also where it was: a scroll back to the start hides it
    const StickyHeaders h = stickyHeaders();
    const QSize vp = viewport()->size();
    // The strips stay where they are while the content moves under them: their old pixels moved by (dx, dy).
    if (!h.top.isEmpty() || dy != 0)
        r = r.united(QRect(0, 0, vp.width(), (h.top.isEmpty() ? 0 : h.top.height()) + std::abs(dy) + 24));
    if (!h.left.isEmpty() || dx != 0)
        r = r.united(QRect(0, 0, (h.left.isEmpty() ? 0 : h.left.width()) + std::abs(dx) + 24, vp.height()));
    if (!r.isEmpty())
        r = r.united(r.translated(dx, dy));
    return r;
}

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

const QImage& DiagramView::tile(int tx, int ty, bool shadedTile) {
    const quint64 key = tileKey(tx, ty);
    QHash<quint64, QImage>& cache = shadedTile ? m_shadedTiles : m_tiles;
    auto it = cache.find(key);
    if (it != cache.end())
        return *it;
    if (cache.size() >= kMaxTiles)
        cache.clear();
    if (shadedTile) {
        // The shade is static too: the plain tile with the shade laid over it once, not on every frame.
        QImage img = tile(tx, ty, false);
        {
            QPainter p(&img);
            const QRectF exposed =
                QRectF(tx * kTile, ty * kTile, kTile, kTile).intersected(QRectF(QPointF(0, 0), m_contentPx));
            p.translate(-tx * kTile, -ty * kTile);
            p.setClipRect(exposed);
            Highlight shadeOnly;
            shadeOnly.thread =
                std::numeric_limits<int>::max(); // a thread with no cells: shade, light nothing
            paintOverlay(p, *m_diagram, m_options, shadeOnly, exposed);
        }
        return *cache.insert(key, std::move(img));
    }
    const double dpr = viewport()->devicePixelRatioF();
    QImage img(static_cast<int>(std::ceil(kTile * dpr)), static_cast<int>(std::ceil(kTile * dpr)),
               QImage::Format_ARGB32_Premultiplied);
    img.setDevicePixelRatio(dpr);
    img.fill(m_options.colors.background);
    {
        QPainter p(&img);
        p.translate(-tx * kTile, -ty * kTile);
        // Clipped to the content: a part's neighbour (the metadata registers under their grid) stays out.
        const QRectF exposed =
            QRectF(tx * kTile, ty * kTile, kTile, kTile).intersected(QRectF(QPointF(0, 0), m_contentPx));
        p.setClipRect(exposed);
        paintStatic(p, *m_diagram, m_options, m_marks.empty() ? nullptr : &m_marks, exposed);
    }
    return *cache.insert(key, std::move(img));
}

void DiagramView::paintEvent(QPaintEvent* event) {
    QElapsedTimer timer;
    timer.start();
    QPainter p(viewport());
    const QRegion region = event->region();
    const QRect bounds = region.boundingRect();
    if (!m_diagram) {
        p.fillRect(bounds, m_options.colors.background);
    } else {
        const QPoint s = scrollOffset();
        const QRect contentPx(QPoint(0, 0), m_contentPx);
        // Outside the content: background only.
        const QRegion outside = region.subtracted(QRegion(contentPx.translated(-s)));
        for (const QRect& r : outside)
            p.fillRect(r, m_options.colors.background);
        const bool shade = shaded();
        // A fresh diagram (or zoom) has no tiles yet: painting the exposed cells directly is about three
        // times cheaper than rendering the tiles that cover them, so the first frame does that and the tiles
        // are rendered in idle time right after.
        int missing = 0;
        const QRect need = bounds.translated(s).intersected(contentPx);
        if (!need.isEmpty())
            for (int ty = need.top() / kTile; ty <= need.bottom() / kTile; ++ty)
                for (int tx = need.left() / kTile; tx <= need.right() / kTile; ++tx)
                    missing += !(shade ? m_shadedTiles : m_tiles).contains(tileKey(tx, ty));
        if (missing > 4) {
            p.fillRect(bounds, m_options.colors.background);
            p.translate(-s);
            p.setClipRegion(region.translated(s).intersected(contentPx));
            const QRectF exposed(bounds.translated(s).intersected(contentPx));
            paintStatic(p, *m_diagram, m_options, m_marks.empty() ? nullptr : &m_marks, exposed);
            paintOverlay(p, *m_diagram, m_options, paintedHighlight(), exposed);
            p.resetTransform();
            paintSticky(p, region);
            paintOverview(p);
            m_lastPaintMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
            ++m_paintCount;
            if (!m_warmPending) {
                m_warmPending = true;
                QTimer::singleShot(0, this, &DiagramView::warmTiles);
            }
            emit painted(m_lastPaintMs);
            return;
        }
        // Blit the tiles under each exposed rectangle (a hover repaints a few cell-sized rectangles only).
        QSet<quint64> drawn;
        for (const QRect& r : region) {
            const QRect content = r.translated(s).intersected(contentPx);
            if (content.isEmpty())
                continue;
            const int tx0 = content.left() / kTile, tx1 = content.right() / kTile;
            const int ty0 = content.top() / kTile, ty1 = content.bottom() / kTile;
            for (int ty = ty0; ty <= ty1; ++ty)
                for (int tx = tx0; tx <= tx1; ++tx) {
                    if (region.rectCount() > 1) {
                        // Several small rectangles: copy only the part of the tile each one needs.
                        const QRect tileRect(tx * kTile, ty * kTile, kTile, kTile);
                        const QRect part = tileRect.intersected(content);
                        const QImage& img = tile(tx, ty, shade);
                        const double dpr = img.devicePixelRatio();
                        const QRectF source(QPointF(part.topLeft() - tileRect.topLeft()) * dpr,
                                            QSizeF(part.size()) * dpr);
                        p.drawImage(QRectF(part.translated(-s)), img, source);
                        continue;
                    }
                    if (!drawn.contains(tileKey(tx, ty))) {
                        drawn.insert(tileKey(tx, ty));
                        p.drawImage(QPoint(tx * kTile - s.x(), ty * kTile - s.y()), tile(tx, ty, shade));
                    }
                }
        }
        p.translate(-s);
        p.setClipRegion(region.translated(s).intersected(contentPx));
        // The shade is in the tiles; the overlay adds the lit lanes, the hovered cell and the cursor.
        paintOverlay(p, *m_diagram, m_options, paintedHighlight(), QRectF(bounds.translated(s)),
                     /*shadeDone=*/true);
        p.resetTransform();
        paintSticky(p, region);
        p.setClipRegion(region);
        if (region.intersects(overviewRect()))
            paintOverview(p);
    }
    m_lastPaintMs = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    ++m_paintCount;
    emit painted(m_lastPaintMs);
}

void DiagramView::warmTiles() {
    m_warmPending = false;
    if (!m_diagram || !isVisible())
        return;
    // Render the visible tiles (plain, then shaded for hovering) a few milliseconds at a time.
    QElapsedTimer budget;
    budget.start();
    const QPoint s = scrollOffset();
    const QRect need = viewport()->rect().translated(s).intersected(QRect(QPoint(0, 0), m_contentPx));
    if (need.isEmpty())
        return;
    for (bool shadedTile : {false, true})
        for (int ty = need.top() / kTile; ty <= need.bottom() / kTile; ++ty)
            for (int tx = need.left() / kTile; tx <= need.right() / kTile; ++tx) {
                if ((shadedTile ? m_shadedTiles : m_tiles).contains(tileKey(tx, ty)))
                    continue;
                if (budget.elapsed() > 6) {
                    m_warmPending = true;
                    QTimer::singleShot(0, this, &DiagramView::warmTiles);
                    return;
                }
                tile(tx, ty, shadedTile);
            }
}

QRegion DiagramView::threadRegion(int thread) const {
    QRegion region;
    if (!m_diagram || thread < 0)
        return region;
    const QRect vp = viewport()->rect();
    for (std::uint32_t idx : m_diagram->cellsOfThread(thread)) {
        const QRect r = cellViewportRect(static_cast<int>(idx)).adjusted(-2, -2, 2, 2);
        if (r.intersects(vp))
            region += r;
    }
    for (const BitFieldDiagram& bd : m_diagram->bitFields)
        if (bd.thread == thread)
            region += QRectF((bd.rect.x - m_options.origin.x()) * m_options.zoom - 3,
                             (bd.rect.y - m_options.origin.y()) * m_options.zoom - 3,
                             bd.rect.w * m_options.zoom + 6, bd.rect.h * m_options.zoom + 6)
                          .toAlignedRect()
                          .translated(-scrollOffset());
    return region;
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

void DiagramView::scrollContentsBy(int dx, int dy) {
    // Move the pixels already painted; only the strip that scrolls in is painted, plus the sticky headers
    // and the overview, which stay put while the content moves.
    viewport()->scroll(dx, dy);
    m_scrolling = true;
    m_scrollSettle->start();
    const QRect chrome = chromeRepaintRect(dx, dy);
    if (!chrome.isEmpty())
        viewport()->update(chrome);
}

int DiagramView::cellAtViewport(QPoint pos) const {
    if (!m_diagram)
        return -1;
    // The overview and the sticky headers cover the cells under them.
    if (overviewRect().contains(pos))
        return -1;
    if (const StickyHeaders h = stickyHeaders(); h.top.contains(pos) || h.left.contains(pos))
        return -1;
    const QPointF u = toUnits(pos);
    if (!m_content.contains(u))
        return -1; // outside the part shown
    const int cell = m_diagram->cellAt(u.x(), u.y());
    if (cell >= 0)
        return cell;
    const auto [bd, field] = m_diagram->bitFieldAt(u.x(), u.y());
    if (bd >= 0)
        return m_diagram->bitFields[static_cast<std::size_t>(bd)]
            .fields[static_cast<std::size_t>(field)]
            .cell;
    return -1;
}

QRect DiagramView::cellViewportRect(int cell) const {
    if (!m_diagram)
        return {};
    return cellRect(*m_diagram, m_options, cell).toRect().translated(-scrollOffset());
}

QRect DiagramView::viewportRect(const QRectF& units) const {
    const double z = m_options.zoom;
    return QRectF((units.topLeft() - m_options.origin) * z, units.size() * z)
        .toAlignedRect()
        .translated(-scrollOffset());
}

void DiagramView::ensureCellVisible(int cell) {
    const QRect r = cellViewportRect(cell);
    if (r.isNull())
        return;
    const QRect vp = viewport()->rect();
    if (r.left() < 0)
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.left() - 8);
    else if (r.right() > vp.right())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.right() - vp.right() + 8);
    if (r.top() < 0)
        verticalScrollBar()->setValue(verticalScrollBar()->value() + r.top() - 8);
    else if (r.bottom() > vp.bottom())
        verticalScrollBar()->setValue(verticalScrollBar()->value() + r.bottom() - vp.bottom() + 8);
    // Not under the sticky headers or the overview, which cover the cells beneath them.
    for (int i = 0; i < 2; ++i) {
        const QRect now = cellViewportRect(cell);
        const StickyHeaders h = stickyHeaders();
        if (!h.top.isEmpty() && now.top() < h.top.bottom() + 2)
            verticalScrollBar()->setValue(verticalScrollBar()->value() + now.top() - h.top.bottom() - 4);
        if (!h.left.isEmpty() && now.left() < h.left.right() + 2)
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() + now.left() - h.left.right() - 4);
        const QRect o = overviewRect();
        if (!o.intersects(cellViewportRect(cell)))
            continue;
        if (m_contentPx.height() > viewport()->height())
            verticalScrollBar()->setValue(verticalScrollBar()->value() + cellViewportRect(cell).bottom() -
                                          o.top() + 6);
        else
            horizontalScrollBar()->setValue(horizontalScrollBar()->value() + cellViewportRect(cell).right() -
                                            o.left() + 6);
    }
}

void DiagramView::updateCell(int cell) {
    if (cell < 0)
        return;
    viewport()->update(cellViewportRect(cell).adjusted(-4, -4, 4, 4));
}

void DiagramView::setHover(int cell) {
    if (cell == m_highlight.hoverCell)
        return;
    updateCell(m_highlight.hoverCell);
    updateCell(partnerCell());
    m_highlight.hoverCell = cell;
    updateCell(cell);
    updateCell(partnerCell());
    emit cellHovered(cell);
}

int DiagramView::partnerCell() const {
    return m_diagram ? gui::partnerCell(*m_diagram, m_highlight.hoverCell >= 0 ? m_highlight.hoverCell
                                                                               : m_highlight.cursorCell)
                     : -1;
}

void DiagramView::setHighlightThread(int thread) {
    if (thread == m_highlight.thread)
        return;
    const bool wasShaded = shaded();
    const int old = m_highlight.thread;
    m_highlight.thread = thread;
    if (wasShaded != shaded()) {
        viewport()->update(); // the shade comes or goes everywhere
        return;
    }
    // Lane to lane: only the two lanes' cells change.
    viewport()->update(threadRegion(old) + threadRegion(thread));
}

void DiagramView::setPinnedThread(int thread) {
    if (thread == m_highlight.pinned)
        return;
    m_highlight.pinned = thread;
    // The registers part follows a pinned lane: its register scrolls into view (the grid beside it is where
    // the lane was clicked; the bits it asks about are here).
    if (m_options.part == DiagramPart::Registers && m_diagram && thread >= 0)
        for (const BitFieldDiagram& bd : m_diagram->bitFields)
            if (bd.thread == thread) {
                scrollIntoView(viewportRect(
                    QRectF(bd.titlePos.x, bd.rect.y, bd.rect.right() - bd.titlePos.x, bd.rect.h)));
                break;
            }
    viewport()->update();
}

void DiagramView::scrollIntoView(QRect r) {
    // Out of view along an axis: its start goes to the pane's start there (away from the overview, which sits
    // in the bottom-right corner).
    const QRect vp = viewport()->rect().adjusted(4, 4, -4, -4);
    if (r.left() < vp.left() || r.right() > vp.right())
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + r.left() - vp.left());
    if (r.top() < vp.top() || r.bottom() > vp.bottom())
        verticalScrollBar()->setValue(verticalScrollBar()->value() + r.top() - vp.top());
}

void DiagramView::setCursorCell(int cell) {
    if (m_diagram && (cell < -1 || cell >= static_cast<int>(m_diagram->cells.size())))
        cell = -1;
    if (cell == m_highlight.cursorCell)
        return;
    updateCell(m_highlight.cursorCell);
    updateCell(partnerCell());
    m_highlight.cursorCell = cell;
    updateCell(cell);
    updateCell(partnerCell());
    if (const BitField* f = m_options.part == DiagramPart::Registers ? fieldOfCell(cell) : nullptr)
        scrollIntoView(viewportRect(QRectF(f->rect.x, f->rect.y, f->rect.w, f->rect.h)));
    else if (cell >= 0)
        ensureCellVisible(cell);
    emit cursorMoved(cell);
}

int DiagramView::litCellCount() const {
    if (!m_diagram)
        return 0;
    int n = 0;
    if (m_highlight.pinned >= 0)
        n += static_cast<int>(m_diagram->cellsOfThread(m_highlight.pinned).size());
    if (m_highlight.thread >= 0 && m_highlight.thread != m_highlight.pinned)
        n += static_cast<int>(m_diagram->cellsOfThread(m_highlight.thread).size());
    return n;
}

const BitField* DiagramView::fieldOfCell(int cell) const {
    if (!m_diagram || cell < 0)
        return nullptr;
    for (const BitFieldDiagram& reg : m_diagram->bitFields)
        for (const BitField& f : reg.fields)
            if (f.cell == cell)
                return &f;
    return nullptr;
}

bool DiagramView::moveCursorOverFields(int dRow, int dCol) {
    std::vector<const BitField*> fields;
    for (const BitFieldDiagram& reg : m_diagram->bitFields)
        for (const BitField& f : reg.fields)
            if (f.cell >= 0)
                fields.push_back(&f);
    if (fields.empty())
        return false;
    const BitField* here = fieldOfCell(m_highlight.cursorCell);
    if (!here) {
        setCursorCell(fields.front()->cell);
        return true;
    }
    // The nearest field in the direction of travel, staying on its line (register) before changing line.
    const double cx = here->rect.x + here->rect.w / 2, cy = here->rect.y + here->rect.h / 2;
    const BitField* best = nullptr;
    double bestScore = 0;
    for (const BitField* f : fields) {
        const double dx = f->rect.x + f->rect.w / 2 - cx, dy = f->rect.y + f->rect.h / 2 - cy;
        const double along = dCol != 0 ? dx * dCol : dy * dRow;
        const double across = dCol != 0 ? std::abs(dy) : std::abs(dx);
        if (along <= 1e-6)
            continue;
        const double score = along + 4 * across;
        if (!best || score < bestScore) {
            best = f;
            bestScore = score;
        }
    }
    if (!best)
        return false;
    setCursorCell(best->cell);
    return true;
}

bool DiagramView::moveCursor(int dRow, int dCol) {
    if (!m_diagram || m_diagram->cells.empty())
        return false;
    if (m_options.part == DiagramPart::Registers)
        return moveCursorOverFields(dRow, dCol);
    const int current = m_highlight.cursorCell;
    if (current < 0) {
        setCursorCell(0);
        return true;
    }
    const DiagramCell& c = m_diagram->cells[static_cast<std::size_t>(current)];
    const DiagramPanel& panel = m_diagram->panels[c.panel];
    // The panel's own grid column (a band of a wrapped grid starts at a later matrix column).
    const int first =
        std::clamp(static_cast<int>(std::floor((c.rect.x - panel.origin.x) / panel.cellWidth + 1e-6)), 0,
                   panel.cols - 1);
    const int last = first + (c.colLast - c.col);
    // Owners side by side in one position are visited one by one before leaving the position.
    if (dCol != 0 && c.owners > 1) {
        const std::span<const std::uint32_t> here = panel.cellsAtGrid(c.row, dCol > 0 ? last : first);
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
    int col = dCol > 0 ? last + dCol : dCol < 0 ? first + dCol : first;
    // Skip empty positions (e.g. the gaps of a filtered or chunked grid) in the direction of travel.
    while (row >= 0 && row < panel.rows && col >= 0 && col < panel.cols) {
        const auto cells = panel.cellsAtGrid(row, col);
        if (!cells.empty()) {
            setCursorCell(static_cast<int>(dCol < 0 ? cells.back() : cells.front()));
            return true;
        }
        row += dRow;
        col += dCol;
        if (dRow == 0 && dCol == 0)
            break;
    }
    return false;
}

bool DiagramView::event(QEvent* e) {
    if (e->type() == QEvent::ShortcutOverride && static_cast<QKeyEvent*>(e)->key() == Qt::Key_Escape) {
        e->accept(); // Esc in a pane clears its cursor too (keyPressEvent), before the window's unpin
        return true;
    }
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
            QToolTip::showText(
                help->globalPos(),
                QString::fromStdString(m_diagram->tooltip(m_diagram->cells[static_cast<std::size_t>(cell)])),
                this);
        else
            QToolTip::hideText();
        return true;
    }
    return QAbstractScrollArea::event(e);
}

void DiagramView::mouseMoveEvent(QMouseEvent* event) {
    setPointerInside(true);
    if (m_overviewDrag && (event->buttons() & Qt::LeftButton)) {
        scrollToOverview(event->position().toPoint());
        return;
    }
    setHover(cellAtViewport(event->position().toPoint()));
    QAbstractScrollArea::mouseMoveEvent(event);
}

void DiagramView::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    setPointerInside(true);
    if (event->button() == Qt::LeftButton && overviewRect().contains(event->position().toPoint())) {
        m_overviewDrag = true;
        scrollToOverview(event->position().toPoint());
        return;
    }
    if (event->button() == Qt::LeftButton) {
        const int cell = cellAtViewport(event->position().toPoint());
        if (cell >= 0)
            setCursorCell(cell);
        emit cellClicked(cell);
    }
    QAbstractScrollArea::mousePressEvent(event);
}

void DiagramView::mouseReleaseEvent(QMouseEvent* event) {
    m_overviewDrag = false;
    QAbstractScrollArea::mouseReleaseEvent(event);
}

void DiagramView::leaveEvent(QEvent* event) {
    setHover(-1);
    setPointerInside(false);
    QAbstractScrollArea::leaveEvent(event);
}

void DiagramView::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = event->angleDelta().y() / 120.0;
        if (steps != 0)
            zoomBy(std::pow(1.2, steps), event->position().toPoint());
        event->accept();
        return;
    }
    QAbstractScrollArea::wheelEvent(event);
}

void DiagramView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Left:
        moveCursor(0, -1);
        return;
    case Qt::Key_Right:
        moveCursor(0, 1);
        return;
    case Qt::Key_Up:
        moveCursor(-1, 0);
        return;
    case Qt::Key_Down:
        moveCursor(1, 0);
        return;
    case Qt::Key_Home:
        setCursorCell(m_diagram && !m_diagram->cells.empty() ? 0 : -1);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        emit cellClicked(m_highlight.cursorCell);
        return;
    case Qt::Key_Escape:
        setCursorCell(-1);
        emit cellClicked(-1);
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        return;
    case Qt::Key_Minus:
        zoomBy(0.8);
        return;
    case Qt::Key_0:
        fit();
        return;
    default:
        break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void DiagramView::focusInEvent(QFocusEvent* event) {
    QAbstractScrollArea::focusInEvent(event);
    if (m_diagram && !m_diagram->cells.empty() && event->reason() != Qt::MouseFocusReason) {
        if (m_highlight.cursorCell < 0) {
            // Tab or F6 into the pane: onto the pinned lane's first cell, where the user is looking.
            int cell = 0;
            for (std::size_t i = 0; m_highlight.pinned >= 0 && i < m_diagram->cells.size(); ++i)
                if (m_diagram->cells[i].thread == m_highlight.pinned) {
                    cell = static_cast<int>(i);
                    break;
                }
            setCursorCell(cell);
        } else {
            emit cursorMoved(m_highlight.cursorCell); // the Cell dock describes this pane's cell again
        }
    }
    viewport()->update();
}

void DiagramView::focusOutEvent(QFocusEvent* event) {
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update(); // the cursor is drawn only while the pane has the focus
}

Highlight DiagramView::paintedHighlight() const {
    Highlight h = m_highlight;
    // One cursor on screen: the focused pane's (an unfocused pane remembers its position).
    if (!hasFocus())
        h.cursorCell = -1;
    return h;
}

QImage DiagramView::renderImage(double scale) const {
    if (!m_diagram)
        return {};
    return renderDiagram(*m_diagram, m_options, m_marks.empty() ? nullptr : &m_marks, scale);
}

} // namespace lanemap::gui
