// Opening a tcgen05.mma entry shows where D sits in Tensor Memory: a non-empty grid, painted, lanes as rows.
#include "opened_at.hpp"

#include <QImage>

#include <gtest/gtest.h>

namespace test_tcgen05_panel_gui {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

TEST(Tcgen05Panel, OpeningAnMmaEntryPaintsTheTensorMemoryGrid) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128"));
    DiagramView* view = tensorMemoryView(*w.window);
    ASSERT_NE(view, nullptr) << "a Tensor Memory pane";
    const Diagram* d = view->diagram();
    ASSERT_NE(d, nullptr);
    ASSERT_GE(d->panels.size(), 1u);
    EXPECT_EQ(d->panels.front().kind, PanelKind::TensorMemory);
    EXPECT_EQ(d->panels.front().cellCount, 128u * 256u) << "every D element of m128n256";
    // The cell of D(0,0) is at lane 0, column 0 and is painted in its fill.
    const int cell = cellAt(view, 0, 0);
    ASSERT_GE(cell, 0);
    EXPECT_EQ(d->label(d->cells[static_cast<std::size_t>(cell)]), "D(0,0)");
    const QRect r = view->cellViewportRect(cell);
    ASSERT_TRUE(view->viewport()->rect().intersects(r)) << "the grid's first cell is on screen";
    const QImage shot = view->viewport()->grab().toImage();
    const DiagramCell& c = d->cells[static_cast<std::size_t>(cell)];
    // A corner of the cell (the label sits in its middle): what was painted there.
    const QPoint corner = r.intersected(shot.rect()).topLeft() + QPoint(2, 2);
    const QColor px = shot.pixelColor(corner);
    EXPECT_LE(
        std::abs(px.red() - c.fill.r) + std::abs(px.green() - c.fill.g) + std::abs(px.blue() - c.fill.b), 30)
        << "the cell is painted in its lane colour";
}

// D alone (access "none"): its labels would only repeat the headers (lane m holds row m, column n holds n),
// so the pane paints the cells in their colour alone and the row headers name the m. (Composed with the
// epilogue's tcgen05.ld, as it opens, D keeps its labels: the registers panel names the same elements.)
TEST(Tcgen05Panel, TheTensorMemoryCellsCarryTheirNamesOnTheAxes) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128"));
    DiagramView* view = tensorMemoryView(*w.window);
    ASSERT_NE(view, nullptr);
    ASSERT_NE(view->diagram(), nullptr);
    EXPECT_EQ(view->diagram()->panels.front().labels, CellLabels::Every) << "composed, as it opens";
    QString error;
    ASSERT_TRUE(openWith(
        *w.window, [](Params& p) { p.access.reset(); }, &error)) // D alone, at the entry's N
        << error.toStdString();
    view = tensorMemoryView(*w.window);
    ASSERT_NE(view, nullptr);
    const Diagram* d = view->diagram();
    ASSERT_NE(d, nullptr);
    const DiagramPanel& p = d->panels.front();
    EXPECT_EQ(p.labels, CellLabels::None);
    ASSERT_GE(p.rowHeaders.size(), 38u);
    EXPECT_EQ(p.rowHeaders[37], "lane 37 \u00b7 m 37");
    const int cell = cellAt(view, 2, 3);
    ASSERT_GE(cell, 0);
    const QImage shot = view->viewport()->grab().toImage();
    EXPECT_EQ(inkedPixels(view, shot, cell), 0) << "no label painted over D(2,3), which is on screen";
}

} // namespace test_tcgen05_panel_gui
