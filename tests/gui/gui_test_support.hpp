#pragma once
// Helpers shared by the GUI tests: a window with its own temporary settings, cell lookup. Sparse and wgmma
// instructions come from tests/support/synthetic.hpp until their tables land in the catalog.

#include "diagram_view.hpp"
#include "main_window.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"

#include <QApplication>
#include <QImage>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <memory>

namespace lanemap::gui::test {

// Index of the cell at matrix (row, col) of the first operand drawn in `view` (matrix: quad-pair product), or
// -1. By the cells' matrix positions, so a grid wrapped into bands answers the same.
inline int cellAt(const DiagramView* view, int row, int col, int matrix = -1) {
    const Diagram* d = view ? view->diagram() : nullptr;
    if (!d)
        return -1;
    const DiagramPanel* first = nullptr;
    for (const DiagramPanel& p : d->panels)
        if (p.matrix == matrix && !first)
            first = &p;
    if (!first)
        return -1;
    for (std::size_t i = 0; i < d->cells.size(); ++i) {
        const DiagramCell& c = d->cells[i];
        const DiagramPanel& p = d->panels[c.panel];
        if (p.matrix == matrix && p.name == first->name && p.kind == first->kind && c.row == row &&
            c.col <= col && col <= c.colLast)
            return static_cast<int>(i);
    }
    return -1;
}

// Moves the mouse onto the cell. Two moves, because QTest drops a move to where the mouse already is (a cell
// of an earlier window may have been at the same spot).
inline void hover(DiagramView* view, int cell) {
    const QPoint center = view->cellViewportRect(cell).center();
    QTest::mouseMove(view->viewport(), center + QPoint(1, 1));
    QTest::mouseMove(view->viewport(), center);
}

// The cell of element (m, n) of D (or A) in the Tensor Memory panel of `kind` (the grid or the registers of
// the composed view), or -1.
inline int elementCell(const Diagram& d, PanelKind kind, int m, int n) {
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const DiagramCell& c = d.cells[i];
        const DiagramPanel& p = d.panels[c.panel];
        if (p.kind == kind && (p.name == "D" || p.name == "A") && c.element == m && c.bitLo == n)
            return static_cast<int>(i);
    }
    return -1;
}

// Brings the cell into view (the cursor scrolls to it), then moves the mouse onto it.
inline void hoverInView(DiagramView* view, int cell) {
    view->setCursorCell(cell);
    QApplication::processEvents();
    hover(view, cell);
    QApplication::processEvents();
}

// Pixels of a cell, as the view painted it into `shot` (its viewport grabbed), that differ from the cell's
// fill: its label's glyphs. -1 when less than a few pixels of the cell are on screen.
inline int inkedPixels(const DiagramView* view, const QImage& shot, int cell) {
    const DiagramCell& c = view->diagram()->cells[static_cast<std::size_t>(cell)];
    const QRect r = view->cellViewportRect(cell).adjusted(2, 2, -2, -2).intersected(shot.rect());
    if (r.width() * r.height() <= 20)
        return -1;
    int n = 0;
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor px = shot.pixelColor(x, y);
            n += std::abs(px.red() - c.fill.r) + std::abs(px.green() - c.fill.g) +
                     std::abs(px.blue() - c.fill.b) >
                 30;
        }
    return n;
}

struct Window {
    QTemporaryDir dir;
    std::unique_ptr<QSettings> settings;
    std::unique_ptr<MainWindow> window;

    explicit Window(bool restore = false, const QString& reports = QStringLiteral(":/lanemap/probe")) {
        settings =
            std::make_unique<QSettings>(dir.filePath(QStringLiteral("lanemap.ini")), QSettings::IniFormat);
        open(restore, reports);
    }
    void open(bool restore, const QString& reports = QStringLiteral(":/lanemap/probe")) {
        MainWindow::Options o;
        o.settings = settings.get();
        o.restore = restore;
        o.recordedReports = reports;
        window = std::make_unique<MainWindow>(o);
        window->resize(1500, 950);
        window->show();
        (void)QTest::qWaitForWindowExposed(window.get());
    }
    MainWindow* operator->() const { return window.get(); }
};

} // namespace lanemap::gui::test
