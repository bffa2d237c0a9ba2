#pragma once
// Helpers shared by the GUI tests: a window with its own temporary settings, cell lookup. Sparse and wgmma
// instructions come from tests/support/synthetic.hpp until their tables land in the catalog.

#include "compare_page.hpp"
#include "details_panel.hpp"
#include "diagram_view.hpp"
#include "main_window.hpp"
#include "pane_area.hpp"
#include "registers_pane.hpp"
#include "shared_memory_pane.hpp"
#include "tensor_memory_pane.hpp"
#include "view_state.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/diagram_tmem.hpp"

#include <QApplication>
#include <QImage>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cstdlib>
#include <functional>
#include <memory>
#include <vector>

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

// The window's panes and models, as a user finds them on screen: the pane area's panes in its order, a pane
// by what it shows (typed: never by name), the Cell dock, the compare sides.
inline std::vector<Pane*> panes(const MainWindow& w) {
    const PaneArea* area = w.findChild<PaneArea*>();
    return area ? area->panes() : std::vector<Pane*>{};
}
// What each pane's header names it ("A", "C/D", "metadata registers", "shared memory", "Tensor Memory").
inline QStringList paneLabels(const MainWindow& w) {
    QStringList labels;
    for (const Pane* p : panes(w))
        labels << p->label();
    return labels;
}
inline RegistersPane* registersPane(const MainWindow& w, OperandSet operands,
                                    DiagramPart part = DiagramPart::Whole) {
    for (Pane* p : panes(w))
        if (p->key() == PaneKey{Space::Registers, operands, part})
            return static_cast<RegistersPane*>(p);
    return nullptr;
}
template <class P> P* paneOf(const MainWindow& w) {
    for (Pane* p : panes(w))
        if (auto* found = qobject_cast<P*>(p))
            return found;
    return nullptr;
}
// The view of the register pane showing `operands` (empty: the quad-pair products), or nullptr.
inline DiagramView* view(const MainWindow& w, OperandSet operands, DiagramPart part = DiagramPart::Whole) {
    const RegistersPane* p = registersPane(w, operands, part);
    return p ? p->view() : nullptr;
}
inline DiagramView* sharedMemoryView(const MainWindow& w) {
    const auto* p = paneOf<SharedMemoryPane>(w);
    return p ? p->view() : nullptr;
}
inline DiagramView* tensorMemoryView(const MainWindow& w) {
    const auto* p = paneOf<TensorMemoryPane>(w);
    return p ? p->view() : nullptr;
}
// Every pane's view, in the window's order.
inline std::vector<DiagramView*> views(const MainWindow& w) {
    std::vector<DiagramView*> out;
    for (const Pane* p : panes(w))
        out.push_back(p->view());
    return out;
}
// A widget of the window by its object name ("filter", "probeStatus", "smemSwizzle").
template <class T = QLabel> T* named(const MainWindow& w, const char* objectName) {
    return w.findChild<T*>(QString::fromLatin1(objectName));
}
inline ComparePage* comparePage(const MainWindow& w) {
    return w.findChild<ComparePage*>();
}
inline DiagramView* compareView(const MainWindow& w, int side) {
    const ComparePage* page = comparePage(w);
    return page ? page->view(side) : nullptr;
}
inline DetailsPanel* details(const MainWindow& w) {
    return w.findChild<DetailsPanel*>();
}
// The mma shape of the instance's Tensor Memory placement (at its N).
inline tmem::MmaShape tensorShape(const MainWindow& w) {
    for (const Placement& p : w.instruction()->placements)
        if (const TensorMemorySource* t = p.tensor())
            return t->mma;
    return {};
}
// Opens the instance shown with other parameters, as a pane's tools do.
inline bool openWith(MainWindow& w, const std::function<void(Params&)>& change, QString* error = nullptr) {
    Selection s = w.viewState()->selection();
    change(s.params);
    return w.open(s, error);
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
    MainWindow& operator*() const { return *window; }
};

} // namespace lanemap::gui::test
