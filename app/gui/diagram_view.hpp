#pragma once
// One pane's canvas: a scroll area that paints a core Diagram. The static layer (cells, labels, headers,
// marks) is rendered once per zoom into 256-px tiles and then only blitted; a hover or scroll frame paints
// the tiles it needs plus the small hover overlay. Only exposed tiles are rendered, so the 16 384-cell wgmma
// m64n256 accumulator costs what the visible part costs.

#include "diagram_painter.hpp"

#include <QAbstractScrollArea>
#include <QHash>
#include <QImage>

#include <memory>
#include <utility>
#include <vector>

class QTimer;

namespace lanemap {
struct Diagram;
}

namespace lanemap::gui {

class ViewState;

class DiagramView : public QAbstractScrollArea {
    Q_OBJECT
  public:
    explicit DiagramView(QWidget* parent = nullptr);
    ~DiagramView() override;

    void setDiagram(std::shared_ptr<const Diagram> diagram);
    const Diagram* diagram() const { return m_diagram.get(); }
    std::shared_ptr<const Diagram> sharedDiagram() const { return m_diagram; }

    // Follows `state`'s hovered and pinned lanes, labels and theme from now on (lanes beyond this diagram's
    // threads light nothing). The state must outlive the view or be destroyed with it.
    void setViewState(const ViewState* state);

    void setColors(const ViewColors& colors);
    void setShowLabels(bool on);
    // Title/caption and legend drawn inside the pane (off for panes: the window shows them once).
    void setChrome(bool title, bool legends);
    // Each panel's title and subtitle lines (PaintOptions::panelHeadings).
    void setPanelHeadings(bool on);
    // The part of the diagram this view shows (DiagramPart::Whole by default); the rest is neither painted
    // nor hit.
    void setPart(DiagramPart part);
    DiagramPart part() const { return m_options.part; }
    void setMarks(CellMarks marks);
    const CellMarks& marks() const { return m_marks; }

    // Zoom: units -> pixels. Each pane has its own. fit() picks the zoom from the pane size and keeps
    // following it until the user zooms: FitMode::Readable shows the whole diagram when its labels stay
    // readable, else fills the short side where that keeps them readable, else takes the smallest zoom that
    // does (readableZoom) and the pane scrolls - labels are what "readable" promises; the sticky headers and
    // the overview keep the place. FitMode::All always shows the whole diagram (colour alone shows the
    // pattern when labels cannot fit).
    enum class FitMode { Readable, All };
    // The fit of a diagram whose content (units) is `content` in a viewport of `viewport` pixels without
    // scroll bars, `scrollBar` pixels being what a scroll bar takes: what fitZoom() says, for a candidate
    // layout (bands) before it is shown.
    static double fitZoomFor(const Diagram& diagram, const QRectF& content, QSize viewport, double scrollBar,
                             FitMode mode);
    double zoom() const { return m_options.zoom; }
    void setZoom(double zoom, QPoint anchor = QPoint(-1, -1));
    void zoomBy(double factor, QPoint anchor = QPoint(-1, -1));
    void fit(FitMode mode = FitMode::Readable);
    bool fitting() const { return m_fit; }
    FitMode fitMode() const { return m_fitMode; }
    double fitZoom() const; // of the current fit mode
    double fitZoom(FitMode mode) const;

    // Highlights shared by every pane.
    void setHighlightThread(int thread);
    int highlightThread() const { return m_highlight.thread; }
    void setPinnedThread(int thread);
    int pinnedThread() const { return m_highlight.pinned; }
    void setCursorCell(int cell);
    int cursorCell() const { return m_highlight.cursorCell; }
    int hoverCell() const { return m_highlight.hoverCell; }
    // A composed view: the other panel's cell of the hovered (else the cursor's) element, framed; -1 none.
    int partnerCell() const;
    // What the overlay draws: the highlight, without the cursor while another widget has the focus.
    Highlight paintedHighlight() const;
    // Cells of the diagram lit by the hovered and pinned lanes (what the overlay draws).
    int litCellCount() const;
    // Moves the keyboard cursor by rows/cols within its panel; true when it moved.
    bool moveCursor(int dRow, int dCol);

    // Where a cell is drawn, in viewport coordinates (tests hover it with QTest::mouseMove).
    QRect cellViewportRect(int cell) const;
    // Any rectangle of the diagram (units), in viewport coordinates: where a metadata register is drawn.
    QRect viewportRect(const QRectF& units) const;
    void ensureCellVisible(int cell);
    // The cell under a viewport point, or -1 (bit fields map to their metadata cell).
    int cellAtViewport(QPoint pos) const;

    // The whole diagram as this pane paints it (for PNG export of a pane).
    QImage renderImage(double scale) const;
    const PaintOptions& paintOptions() const { return m_options; }

    // Timing of the last paint event (ms), for the --timing report.
    double lastPaintMs() const { return m_lastPaintMs; }
    int paintCount() const { return m_paintCount; }

    QSize sizeHint() const override;

    // Row and column indices that stay on screen when a grid's own headers have scrolled away: a strip along
    // the top (column numbers of the visible columns) and one along the left (row numbers), viewport
    // coordinates. Empty rects while the grid's own headers are visible.
    struct StickyHeaders {
        QRect top, left;
        std::vector<std::pair<QRect, QString>> labels;
    };
    StickyHeaders stickyHeaders() const;
    // The overview drawn in the bottom-right corner when the content is well larger than the viewport: the
    // whole diagram in miniature with the visible part framed; clicking it scrolls there. Empty when all
    // fits, and at rest (the pointer elsewhere, no scroll for a moment): it never hides cells from a pane
    // that is only looked at.
    QRect overviewRect() const;
    // Scrolls so the content point under overview pixel `pos` (viewport coordinates) is centred.
    void scrollToOverview(QPoint pos);

  signals:
    void cellHovered(int cell); // -1 when the mouse leaves the cells
    void cellClicked(int cell);
    void cursorMoved(int cell);
    void zoomChanged(double zoom);
    void tabPressed(bool backward);
    void painted(double ms);

  protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

  private:
    void relayout(); // content rect, scroll ranges
    void redraw(); // after what is drawn changed: tiles dropped, refitted in a Fit mode, laid out, repainted
    void paintSticky(QPainter& p, const QRegion& region);
    void paintOverview(QPainter& p);
    QRect overviewPlace() const; // where the overview goes when shown (scroll room is kept for it)
    void setPointerInside(bool inside);
    // The registers pane: the cursor moves over the register fields it shows, not the grid it hides.
    bool moveCursorOverFields(int dRow, int dCol);
    const BitField* fieldOfCell(int cell) const;
    QRect chromeRepaintRect(int dx, int dy) const; // strips and overview, before and after a scroll
    void invalidateTiles();
    void scrollIntoView(QRect viewportRect);
    QPoint scrollOffset() const;
    QPointF toUnits(QPoint viewportPos) const;
    // A static tile; `shaded` is the same tile under the hover shade (so a hover frame is a plain blit).
    const QImage& tile(int tx, int ty, bool shaded);
    bool shaded() const { return m_highlight.thread >= 0 || m_highlight.pinned >= 0; }
    QRegion threadRegion(int thread) const; // viewport region of a thread's visible cells
    void warmTiles();                       // renders missing visible tiles in idle time
    void updateCell(int cell);
    void setHover(int cell);

    int laneOf(int thread) const; // thread, or -1 when this diagram has no such thread

    std::shared_ptr<const Diagram> m_diagram;
    const ViewState* m_state = nullptr;
    PaintOptions m_options;
    CellMarks m_marks;
    Highlight m_highlight;
    QRectF m_content;  // units
    QSize m_contentPx; // content at the current zoom
    bool m_fit = true;
    FitMode m_fitMode = FitMode::Readable;
    bool m_title = false, m_legends = false;
    QHash<quint64, QImage> m_tiles;
    QHash<quint64, QImage> m_shadedTiles;
    QImage m_overview; // the whole content in miniature, rendered once per diagram / zoom / colours
    bool m_overviewDrag = false;
    bool m_pointerInside = false; // the mouse is over the viewport: the overview shows
    bool m_scrolling = false;     // scrolled a moment ago: the overview shows
    QTimer* m_scrollSettle = nullptr;
    bool m_warmPending = false;
    double m_lastPaintMs = 0;
    int m_paintCount = 0;
};

} // namespace lanemap::gui
