// Issue 14 follow-ups: what a pane shows when an instruction opens on a laptop screen. No cell is hidden
// under the overview at first sight; the overview comes with a scroll or the pointer.
#include "opened_at.hpp"

#include <QApplication>
#include <QScrollBar>

#include "diagram_painter.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace test_issue14_followups {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// Rectangles of everything a pane draws that a user reads: its cells and its register fields.
std::vector<QRect> visibleCellRects(const DiagramView* view) {
    std::vector<QRect> out;
    const QRect vp = view->viewport()->rect();
    const Diagram& d = *view->diagram();
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const QRect r = view->cellViewportRect(static_cast<int>(i));
        if (!r.isEmpty() && r.intersects(vp) && view->cellAtViewport(r.intersected(vp).center()) >= 0)
            out.push_back(r.intersected(vp));
    }
    for (const BitFieldDiagram& reg : d.bitFields)
        for (const BitField& f : reg.fields) {
            const QRect r = view->viewportRect(QRectF(f.rect.x, f.rect.y, f.rect.w, f.rect.h));
            if (!r.isEmpty() && r.intersects(vp) && view->cellAtViewport(r.intersected(vp).center()) >= 0)
                out.push_back(r.intersected(vp));
        }
    return out;
}

TEST(Issue14Followups, NoCellIsUnderTheOverviewWhenAnInstructionOpens) {
    const QStringList specs = {QStringLiteral("mma.sp.m16n8k32.f16"), QStringLiteral("mma.m16n8k16.f16"),
                               QStringLiteral("wgmma.m64n256k16.f16"),
                               QStringLiteral("wgmma.sp.m64n128k32.bf16")};
    int panesSeen = 0;
    for (const QSize size : {QSize(1280, 720), QSize(1600, 900)})
        for (const QString& spec : specs) {
            SCOPED_TRACE(spec.toStdString() + " at " + std::to_string(size.width()) + "x" +
                         std::to_string(size.height()));
            OpenedAt w(size, spec);
            for (DiagramView* view : views(*w.window)) {
                if (!view->isVisible() || !view->diagram())
                    continue;
                ++panesSeen;
                const QRect overview = view->overviewRect();
                for (const QRect& r : visibleCellRects(view))
                    ASSERT_FALSE(overview.intersects(r))
                        << "a cell at (" << r.x() << "," << r.y() << ") is hidden under the overview of a "
                        << view->viewport()->width() << "x" << view->viewport()->height() << " pane";
            }
        }
    EXPECT_GE(panesSeen, 8 * 2) << "every sample opened its panes";
}

TEST(Issue14Followups, TheOverviewComesWithAScrollOrThePointer) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("wgmma.m64n256k16.f16"));
    DiagramView* d = view(*w.window, Operand::D);
    ASSERT_NE(d, nullptr);
    ASSERT_TRUE(d->overviewRect().isEmpty()) << "at the start, untouched: the cells first";
    // The pointer over the pane brings it (the accumulator is far larger than the pane) ...
    QTest::mouseMove(d->viewport(), QPoint(20, 20));
    QTest::mouseMove(d->viewport(), QPoint(21, 21));
    EXPECT_FALSE(d->overviewRect().isEmpty());
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(d, &leave); // the pointer leaves the pane
    EXPECT_TRUE(d->overviewRect().isEmpty());
    // ... and so does a scroll away from the start, where it frames the part shown.
    d->verticalScrollBar()->setValue(d->verticalScrollBar()->maximum());
    d->horizontalScrollBar()->setValue(d->horizontalScrollBar()->maximum());
    EXPECT_FALSE(d->overviewRect().isEmpty());
}

} // namespace

namespace {

// 1600x1000, the screenshot size: with A, the metadata grid and the metadata registers stacked in one column,
// A opens whole and labelled; the grid and the registers below it still open labelled from their start.
TEST(Issue14Followups, SparseAOpensWholeAt1600x1000WithMetadataReadable) {
    OpenedAt w(QSize(1600, 1000), QStringLiteral("mma.sp.m16n8k32.f16"));
    DiagramView* a = view(*w.window, Operand::A);
    ASSERT_NE(a, nullptr);
    EXPECT_TRUE(labelsVisible(*a->diagram(), a->zoom())) << "A zoom " << a->zoom();
    for (const auto& [row, col] : {std::pair{0, 0}, std::pair{15, 31}, std::pair{15, 0}, std::pair{0, 31}}) {
        const int cell = cellAt(a, row, col);
        ASSERT_GE(cell, 0);
        EXPECT_TRUE(a->viewport()->rect().contains(a->cellViewportRect(cell)))
            << "A's cell " << row << "," << col << " on screen at open";
    }
    DiagramView* grid = view(*w.window, Operand::Metadata, DiagramPart::Grids);
    ASSERT_NE(grid, nullptr);
    EXPECT_TRUE(labelsVisible(*grid->diagram(), grid->zoom())) << "metadata grid zoom " << grid->zoom();
    EXPECT_TRUE(grid->viewport()->rect().contains(grid->cellViewportRect(cellAt(grid, 0, 0))));
    DiagramView* regs = view(*w.window, Operand::Metadata, DiagramPart::Registers);
    ASSERT_NE(regs, nullptr);
    EXPECT_TRUE(labelsVisible(*regs->diagram(), regs->zoom())) << "registers zoom " << regs->zoom();
    const BitField& field = regs->diagram()->bitFields.front().fields.front();
    EXPECT_TRUE(regs->viewport()->rect().contains(
        regs->viewportRect(QRectF(field.rect.x, field.rect.y, field.rect.w, field.rect.h))))
        << "the first register's top field on screen";
}

} // namespace

namespace {

// The metadata registers pane shows register fields, not the grid: the arrow keys move the cursor along a
// register's fields and down to the next register, scrolling the field into view.
TEST(Issue14Followups, ArrowsInTheMetadataRegistersPaneMoveOverItsFields) {
    OpenedAt w(QSize(1600, 1000), QStringLiteral("mma.sp.m16n8k32.f16"));
    DiagramView* regs = view(*w.window, Operand::Metadata, DiagramPart::Registers);
    ASSERT_NE(regs, nullptr);
    const Diagram& d = *regs->diagram();
    ASSERT_GE(d.bitFields.size(), 2U);
    const BitFieldDiagram& first = d.bitFields[0];
    ASSERT_GE(first.fields.size(), 2U);
    regs->setFocus();
    regs->setCursorCell(first.fields[0].cell);
    QTest::keyClick(regs, Qt::Key_Right);
    EXPECT_EQ(regs->cursorCell(), first.fields[1].cell) << "the next field of the same register";
    QTest::keyClick(regs, Qt::Key_Left);
    EXPECT_EQ(regs->cursorCell(), first.fields[0].cell);
    // Down: the register drawn below the first one (the next in its column), its field under the cursor.
    const BitFieldDiagram* below = nullptr;
    for (const BitFieldDiagram& reg : d.bitFields)
        if (std::abs(reg.rect.x - first.rect.x) < 1 && reg.rect.y > first.rect.y &&
            (!below || reg.rect.y < below->rect.y))
            below = &reg;
    ASSERT_NE(below, nullptr);
    QTest::keyClick(regs, Qt::Key_Down);
    EXPECT_EQ(regs->cursorCell(), below->fields[0].cell) << "the first field of register T" << below->thread;
    // The cursor's field is brought on screen; the pointer there answers for the same cell.
    const BitField& f = below->fields[0];
    EXPECT_TRUE(regs->viewport()->rect().contains(
        regs->viewportRect(QRectF(f.rect.x, f.rect.y, f.rect.w, f.rect.h))));
    EXPECT_EQ(
        regs->cellAtViewport(regs->viewportRect(QRectF(f.rect.x, f.rect.y, f.rect.w, f.rect.h)).center()),
        f.cell);
}

} // namespace

} // namespace test_issue14_followups
