#pragma once
// The QPainter backend of the core Diagram (the SVG writer is the other one). Stateless functions that paint
// into any QPainter — a widget, a cached tile or an offscreen QImage — so benchmarks can time them without a
// window (BM_PaintFull, BM_HoverFrame, BM_FirstPaint).
//
// Coordinates: a Diagram is laid out in units; a unit point u is painted at (u - origin) * zoom, in the
// painter's current coordinate system.

#include "theme.hpp"

#include <QImage>
#include <QPointF>
#include <QRectF>

#include <cstdint>
#include <vector>

class QPainter;

namespace lanemap {
struct Diagram;
struct DiagramCell;
} // namespace lanemap

namespace lanemap::gui {

// Which part of a diagram a view shows. A sparse instruction's metadata diagram is a grid over A and, under
// it, one 32-bit register per lane: two panes show its two parts side by side on screen, each readable at
// first sight, where one pane would push the registers below the fold.
enum class DiagramPart : std::uint8_t {
    Whole,
    Grids,     // panels, legends, title: everything but the bit-field registers
    Registers, // the bit-field registers and their heading
};

struct PaintOptions {
    DiagramPart part = DiagramPart::Whole;
    double zoom = 1.0;
    QPointF origin;     // unit point painted at (0, 0)
    bool labels = true; // cell labels (level of detail still drops them when cells are too small)
    bool chrome = true; // the diagram's title and caption lines
    // Each panel's title and subtitle lines: a pane whose header says them draws the grid from its column
    // headers down (the lines took the rows a laptop screen lacked).
    bool panelHeadings = true;
    bool legends = true;
    ViewColors colors = viewColors(Theme::Light);
};

// Marks that change rarely and so live in the cached static layer: one entry per Diagram cell (or empty).
struct CellMarks {
    enum Verdict : std::uint8_t { NoVerdict = 0, Confirmed = 1, Mismatch = 2 };
    std::vector<std::uint8_t>
        verdict;                    // probe verdict per cell; only Mismatch is painted (a frame on the edge)
    std::vector<std::uint8_t> diff; // compare: 1 = differs from the other variant
    bool empty() const { return verdict.empty() && diff.empty(); }
};

// What changes on every hover: painted over the cached layer.
struct Highlight {
    int thread = -1;     // hovered lane/thread: its cells are lit in every pane
    int pinned = -1;     // clicked lane: stays lit
    int hoverCell = -1;  // the cell under the mouse
    int cursorCell = -1; // keyboard cursor
    bool active() const { return thread >= 0 || pinned >= 0 || hoverCell >= 0 || cursorCell >= 0; }
};

// The part of the diagram in units that `options` paints: panels, bit fields, and (when enabled) legends and
// the title/caption block, of `options.part`; `margin` units around. A backend clips to it (a part's
// neighbour is laid out next to it).
QRectF contentRect(const Diagram& diagram, const PaintOptions& options, double margin = 12);

// Level of detail: whether cell labels are drawn at this zoom.
bool labelsVisible(const Diagram& diagram, double zoom);
// The smallest zoom at which they are: what "fit readable" never goes below.
double readableZoom(const Diagram& diagram);

// Paints everything static (texts, cells, lines, legends, bit fields, marks) that intersects `exposed`
// (painter coordinates). Cells outside `exposed` are skipped, which is what makes large diagrams cheap to
// scroll.
void paintStatic(QPainter& painter, const Diagram& diagram, const PaintOptions& options,
                 const CellMarks* marks, const QRectF& exposed);

// The cell holding the same element as `cell` in the other panel of a composed view (Diagram::partner), or
// -1: the overlay frames it with the hovered (or cursor) cell.
int partnerCell(const Diagram& diagram, int cell);

// Paints the hover / pin / cursor layer over a painted static layer. Returns the number of cells lit.
// `shadeDone`: the shade over unlit cells is already painted (cached shaded tiles); draw only what is lit.
int paintOverlay(QPainter& painter, const Diagram& diagram, const PaintOptions& options,
                 const Highlight& highlight, const QRectF& exposed, bool shadeDone = false);

// The whole diagram as an image: `scale` device pixels per unit (2 = crisp on high-DPI and in documents).
QImage renderDiagram(const Diagram& diagram, const PaintOptions& options, const CellMarks* marks = nullptr,
                     double scale = 1.0);

// The rectangle of one cell in painter coordinates.
QRectF cellRect(const Diagram& diagram, const PaintOptions& options, int cell);

} // namespace lanemap::gui
