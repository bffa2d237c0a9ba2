// Issue 14, the audit's last findings: what a user on a laptop sees when an instruction opens. "Fit readable"
// means readable labels (the wgmma A and D grids at 1280 and 1600 px windows), and every sparse variant shows
// its metadata grid and its per-lane metadata registers readable at first sight at 1280x720.
#include "opened_at.hpp"

#include "details_panel.hpp"
#include "diagram_painter.hpp"

#include "lanemap/catalog.hpp"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QScrollBar>
#include <QTimer>
#include <cstdio>

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

namespace test_first_sight {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// Pixels inside `r` (viewport coordinates) far from the fill and the background: what a painted label
// leaves. Colour alone leaves none.
int inkPixels(const QImage& shot, QRect r, QColor fill) {
    int n = 0;
    r = r.adjusted(2, 2, -2, -2).intersected(shot.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x) {
            const QColor c = shot.pixelColor(x, y);
            const int d = std::abs(c.red() - fill.red()) + std::abs(c.green() - fill.green()) +
                          std::abs(c.blue() - fill.blue());
            n += d > 150;
        }
    return n;
}

// The cell is on screen whole, not under a sticky strip or the overview, and its label is painted.
void expectReadableOnScreen(DiagramView* view, int cell) {
    ASSERT_GE(cell, 0);
    const QRect r = view->cellViewportRect(cell);
    EXPECT_TRUE(view->viewport()->rect().contains(r)) << "top-left cell on screen at first sight";
    EXPECT_FALSE(view->overviewRect().intersects(r));
    EXPECT_EQ(view->cellAtViewport(r.center()), cell);
    const DiagramCell& c = view->diagram()->cells[static_cast<std::size_t>(cell)];
    const QImage shot = view->viewport()->grab().toImage();
    EXPECT_GT(inkPixels(shot, r, QColor(c.fill.r, c.fill.g, c.fill.b)), 6) << "its label is drawn";
}

TEST(FirstSight, WgmmaAAndDOpenWithReadableLabelsAtTheTopLeftOnLaptopWindows) {
    for (const QSize size : {QSize(1280, 720), QSize(1600, 900)}) {
        SCOPED_TRACE(size.width());
        OpenedAt w(size, QStringLiteral("wgmma.m64n256k16.f16"));
        for (const Operand name : {Operand::A, Operand::D}) {
            SCOPED_TRACE(toString(name));
            DiagramView* view = lanemap::gui::test::view(*w.window, name);
            ASSERT_NE(view, nullptr);
            EXPECT_TRUE(view->fitting());
            EXPECT_EQ(view->fitMode(), DiagramView::FitMode::Readable);
            // Readable means labels: never the colour-only zoom "fit all" is for.
            EXPECT_GE(view->zoom(), readableZoom(*view->diagram()));
            EXPECT_TRUE(labelsVisible(*view->diagram(), view->zoom())) << "zoom " << view->zoom();
            EXPECT_EQ(view->horizontalScrollBar()->value(), 0);
            EXPECT_EQ(view->verticalScrollBar()->value(), 0);
            expectReadableOnScreen(view, cellAt(view, 0, 0));
        }
        // Fit all still shows the whole accumulator, colour alone.
        w.window->fitWhole();
        DiagramView* d = view(*w.window, Operand::D);
        const QRectF all = contentRect(*d->diagram(), d->paintOptions());
        EXPECT_LE(all.width() * d->zoom(), d->maximumViewportSize().width() + 1);
        EXPECT_LE(all.height() * d->zoom(), d->maximumViewportSize().height() + 1);
    }
}

TEST(FirstSight, EverySparseVariantShowsItsMetadataGridAndRegistersReadableAt1280x720) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("mma.sp::ordered_metadata.m16n8k32.row.col.f32.f16.f16.f32"));
    int checked = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (v->family->name != "mma.sp" && v->family->name != "wgmma.sp")
            continue;
        const Instruction& in = Catalog::instance().instruction(*v);
        ASSERT_TRUE(in.metadata);
        SCOPED_TRACE(in.spec);
        ASSERT_TRUE(w.window->openSpec(QString::fromStdString(in.spec)));
        // The layout settles (what is on screen where); painting is not what this test looks at.
        for (int i = 0; i < 3; ++i)
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        // The grid over A: from its top-left corner, labelled.
        DiagramView* grid = view(*w.window, Operand::Metadata, DiagramPart::Grids);
        ASSERT_NE(grid, nullptr);
        EXPECT_TRUE(labelsVisible(*grid->diagram(), grid->zoom())) << "metadata grid zoom " << grid->zoom();
        const int first = cellAt(grid, 0, 0);
        ASSERT_GE(first, 0);
        const QRect r = grid->cellViewportRect(first);
        EXPECT_TRUE(grid->viewport()->rect().contains(r));
        EXPECT_EQ(grid->cellAtViewport(r.center()), first);
        // The registers: in a pane of their own, on screen, the first lane's register whole and labelled.
        DiagramView* regs = view(*w.window, Operand::Metadata, DiagramPart::Registers);
        ASSERT_NE(regs, nullptr) << "the per-lane metadata registers have a pane";
        ASSERT_TRUE(regs->isVisible());
        ASSERT_EQ(regs->diagram(), grid->diagram()) << "the same diagram: one hover lights both";
        ASSERT_FALSE(regs->diagram()->bitFields.empty());
        EXPECT_TRUE(labelsVisible(*regs->diagram(), regs->zoom())) << "registers zoom " << regs->zoom();
        const BitFieldDiagram& reg = regs->diagram()->bitFields.front();
        const BitField& field = reg.fields.front(); // bit 31's side, where reading starts
        const QRect fr = regs->viewportRect(QRectF(field.rect.x, field.rect.y, field.rect.w, field.rect.h));
        EXPECT_TRUE(regs->viewport()->rect().contains(fr)) << "the first register's top field on screen";
        EXPECT_FALSE(regs->overviewRect().intersects(fr));
        EXPECT_EQ(regs->cellAtViewport(fr.center()), field.cell) << "hovering it answers for its chunk";
        // Each pane shows its own part: no register in the grid pane, no grid cell in the registers pane.
        EXPECT_EQ(grid->cellAtViewport(
                      grid->viewportRect(QRectF(reg.rect.x, reg.rect.y, reg.rect.w, reg.rect.h)).center()),
                  -1);
        ++checked;
    }
    EXPECT_GT(checked, 300) << "every sparse variant of the catalog";
}

TEST(FirstSight, TheMetadataRegisterPaneLightsTheHoveredLaneAndPaintsItsLabels) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("mma.sp.m16n8k64.s8"));
    DiagramView* regs = view(*w.window, Operand::Metadata, DiagramPart::Registers);
    DiagramView* grid = view(*w.window, Operand::Metadata, DiagramPart::Grids);
    ASSERT_NE(regs, nullptr);
    const BitField& field = regs->diagram()->bitFields.front().fields.front();
    const QRect fr = regs->viewportRect(QRectF(field.rect.x, field.rect.y, field.rect.w, field.rect.h));
    const QImage shot = regs->viewport()->grab().toImage();
    EXPECT_GT(inkPixels(shot, fr, QColor(field.fill.r, field.fill.g, field.fill.b)), 6)
        << "the field's r/c labels are drawn";
    // Hovering a field: its lane lights in the grid and in A, the Cell panel names the metadata bits.
    QTest::mouseMove(regs->viewport(), fr.center() + QPoint(1, 1));
    QTest::mouseMove(regs->viewport(), fr.center());
    const int lane = regs->diagram()->bitFields.front().thread;
    EXPECT_EQ(grid->highlightThread(), lane);
    EXPECT_EQ(view(*w.window, Operand::A)->highlightThread(), lane);
    EXPECT_EQ(details(*w.window)->cell().operand, QStringLiteral("metadata"));
    ASSERT_FALSE(details(*w.window)->cell().owners.empty());
    EXPECT_EQ(details(*w.window)->cell().owners.front().bitHi, field.bitHi);
}

TEST(FirstSight, PinningALaneBringsItsMetadataRegisterIntoView) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("mma.sp::ordered_metadata.m16n8k32.row.col.f32.f16.f16.f32"));
    DiagramView* regs = view(*w.window, Operand::Metadata, DiagramPart::Registers);
    ASSERT_NE(regs, nullptr);
    // The last lane's register is out of view at first (the pane shows the first few).
    const BitFieldDiagram& last = regs->diagram()->bitFields.back();
    auto rect = [&] {
        return regs->viewportRect(QRectF(last.rect.x, last.rect.y, last.rect.w, last.rect.h));
    };
    ASSERT_FALSE(regs->viewport()->rect().contains(rect())) << "precondition: lane " << last.thread;
    // Clicking that lane in the metadata grid pins it: its register scrolls into view, whole and uncovered.
    DiagramView* grid = view(*w.window, Operand::Metadata, DiagramPart::Grids);
    int cell = -1;
    for (std::size_t i = 0; i < grid->diagram()->cells.size() && cell < 0; ++i)
        if (grid->diagram()->cells[i].thread == last.thread)
            cell = static_cast<int>(i);
    ASSERT_GE(cell, 0);
    grid->ensureCellVisible(cell);
    QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, grid->cellViewportRect(cell).center());
    ASSERT_EQ(w.window->viewState()->pinnedLane(), last.thread);
    EXPECT_TRUE(regs->viewport()->rect().contains(rect()));
    EXPECT_FALSE(regs->overviewRect().intersects(rect()));
    const BitField& field = last.fields.front();
    EXPECT_EQ(
        regs->cellAtViewport(
            regs->viewportRect(QRectF(field.rect.x, field.rect.y, field.rect.w, field.rect.h)).center()),
        field.cell);
}

} // namespace

namespace {

// Issue 14.12: the export dialog opens where the last export was written, also after a restart.
TEST(DesktopConventions, TheExportDialogOpensInTheFolderOfTheLastExport) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QAction* exportSvg = nullptr;
    for (QAction* a : w->findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E))
            exportSvg = a;
    ASSERT_NE(exportSvg, nullptr);
    QTemporaryDir out;
    // Answers the dialog the action opens: notes the folder it opened in, then saves there or cancels.
    auto answer = [](QString* opened, const QString& save) {
        QTimer::singleShot(150, [opened, save] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            ASSERT_NE(dialog, nullptr);
            *opened = QFileInfo(dialog->directory().absolutePath()).canonicalFilePath();
            if (save.isEmpty()) {
                dialog->reject();
                return;
            }
            // The file name box, as a user types a path into it.
            auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            ASSERT_NE(name, nullptr);
            name->setText(save);
            static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept: saves to the file chosen
        });
    };
    QString first, second, afterRestart;
    answer(&first, out.filePath(QStringLiteral("a.svg")));
    exportSvg->trigger();
    ASSERT_TRUE(QFileInfo::exists(out.filePath(QStringLiteral("a.svg"))));
    const QString folder = QFileInfo(out.path()).canonicalFilePath();
    EXPECT_NE(first, folder) << "precondition: the first dialog opened elsewhere";
    answer(&second, QString());
    exportSvg->trigger();
    EXPECT_EQ(second, folder);
    // A restart with the same settings.
    w.open(/*restore=*/true);
    for (QAction* a : w->findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_E))
            exportSvg = a;
    answer(&afterRestart, QString());
    exportSvg->trigger();
    EXPECT_EQ(afterRestart, folder);
}

} // namespace

} // namespace test_first_sight
