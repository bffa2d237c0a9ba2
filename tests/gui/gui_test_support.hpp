#pragma once
// Helpers shared by the GUI tests: a window with its own temporary settings, cell lookup, a synthetic sparse
// instruction (until the sparse tables land in the catalog, the metadata pane is tested on this one).

#include "diagram_view.hpp"
#include "main_window.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace lanemap::gui::test {

// Index of the cell at (row, col) of the first panel of `view` (matrix: quad-pair product), or -1.
inline int cellAt(const DiagramView* view, int row, int col, int matrix = -1) {
    const Diagram* d = view ? view->diagram() : nullptr;
    if (!d) return -1;
    for (const DiagramPanel& p : d->panels) {
        if (p.matrix != matrix) continue;
        const auto cells = p.cellsAtGrid(row, col);
        if (!cells.empty()) return static_cast<int>(cells.front());
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

struct Window {
    QTemporaryDir dir;
    std::unique_ptr<QSettings> settings;
    std::unique_ptr<MainWindow> window;

    explicit Window(bool restore = false, const QString& reports = QStringLiteral(":/lanemap/probe")) {
        settings = std::make_unique<QSettings>(dir.filePath(QStringLiteral("lanemap.ini")), QSettings::IniFormat);
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

// mma.m16n8k16.f16 with a made-up 2-selector metadata layout: selector s puts the fields in lanes 4g+s,
// 4-bit fields [4j+3..4j] for row g (j < 4) or g+8 (j >= 4), chunk cols 4(j%4)..4(j%4)+3.
inline std::unique_ptr<Instruction> syntheticSparse() {
    auto in = std::make_unique<Instruction>(*Catalog::instance().instruction("mma.m16n8k16.f16"));
    in->spec = "mma.sp.test.m16n8k16.f16";
    in->family = Family::MmaSp;
    MetadataLayout md;
    md.granularity = "2:4";
    md.indexBits = 2;
    for (int s = 0; s < 2; ++s) {
        MetadataSelector sel;
        sel.value = s;
        for (int g = 0; g < 8; ++g)
            for (int j = 0; j < 8; ++j) {
                MetadataField f;
                f.thread = 4 * g + s;
                f.bitLo = 4 * j;
                f.bitHi = 4 * j + 3;
                f.row = j < 4 ? g : g + 8;
                f.colFirst = 4 * (j % 4);
                f.colLast = f.colFirst + 3;
                sel.fields.push_back(f);
            }
        md.selectors.push_back(sel);
    }
    in->metadata = md;
    return in;
}

} // namespace lanemap::gui::test
