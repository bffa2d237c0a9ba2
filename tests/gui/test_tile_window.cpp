// A tile of atoms in the window (docs/tiles.md): opened from the command line's --atom-layout and
// --permutation, named by its extents, coloured by warp, hover naming the CTA thread's warp and lane, and
// never called confirmed on hardware by the atom's report.
#include "gui_test_support.hpp"

#include "lanemap/tile.hpp"
#include "models/cell_info.hpp"

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QStatusBar>

#include <gtest/gtest.h>

namespace test_tile_window {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

TEST(TileWindow, ATileOpensNamedByItsExtentsAndIsNotCalledConfirmed) {
    Window w;
    std::string error;
    const std::optional<tile::TileLayout> t =
        tile::parseTileLayout("(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16", error);
    ASSERT_TRUE(t) << error;
    QString why;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16"), &why, t)) << why.toStdString();
    QApplication::processEvents();
    ASSERT_TRUE(w->instruction()->tile);
    EXPECT_EQ(w->instruction()->threads, 128);
    EXPECT_EQ(named<QLabel>(*w, "title")->text(), QStringLiteral("mma.m16n8k16.f16 tile 32x32x16"));
    // The atom was confirmed on an H100; the tile was not: no "Every cell confirmed" for it.
    const QString verdict = named<QLabel>(*w, "verdictLegend")->text();
    EXPECT_FALSE(verdict.contains(QStringLiteral("Every cell confirmed"))) << verdict.toStdString();
    EXPECT_TRUE(verdict.contains(QStringLiteral("not confirmed on hardware"))) << verdict.toStdString();
    // Coloured by warp, the C/D cell (0,16) belongs to warp 2's colour, and hovering it names warp 2, lane 0.
    w->viewState()->setColorBy(ColorBy::Warp);
    QApplication::processEvents();
    DiagramView* cd = view(*w, kAccumulator);
    ASSERT_NE(cd, nullptr);
    const int cell = cellAt(cd, 0, 16);
    ASSERT_GE(cell, 0);
    const DiagramCell& c = cd->diagram()->cells[static_cast<std::size_t>(cell)];
    EXPECT_EQ(c.thread, 64);
    EXPECT_EQ(c.colorKey, 2u);
    EXPECT_EQ(cd->diagram()->tooltip(c).rfind("warp 2 lane 0 c0", 0), 0u) << cd->diagram()->tooltip(c);
}

// Pin a thread of a tile: clicking C/D's cell (0,16) pins CTA thread 64 (warp 2, lane 0); every pane lights
// what that thread holds — A, B and C/D alike — the status bar names the thread and its values, the Cell
// dock lists them, and a second click unpins.
TEST(TileWindow, ClickingACellPinsItsCtaThreadInEveryOperand) {
    Window w;
    std::string error;
    const std::optional<tile::TileLayout> t =
        tile::parseTileLayout("(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16", error);
    ASSERT_TRUE(t) << error;
    QString why;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16"), &why, t)) << why.toStdString();
    QApplication::processEvents();
    DiagramView* cd = view(*w, kAccumulator);
    DiagramView* a = view(*w, Operand::A);
    DiagramView* b = view(*w, Operand::B);
    ASSERT_TRUE(cd && a && b);
    const int cell = cellAt(cd, 0, 16);
    ASSERT_GE(cell, 0);
    cd->setCursorCell(cell);
    QApplication::processEvents();
    const QPoint at = cd->cellViewportRect(cell).center();
    QTest::mouseClick(cd->viewport(), Qt::LeftButton, {}, at);
    QApplication::processEvents();
    EXPECT_EQ(w->viewState()->pinnedLane(), 64);
    for (DiagramView* v : {a, b, cd}) {
        EXPECT_EQ(v->pinnedThread(), 64);
        // Thread 64 holds 8 values of A, 8 of B, 8 of C/D in this 32x32x16 tile: all of them lit.
        EXPECT_EQ(static_cast<int>(v->diagram()->cellsOfThread(64).size()), 8);
        EXPECT_GE(v->litCellCount(), static_cast<int>(v->diagram()->cellsOfThread(64).size()));
    }
    const QString status = w->statusBar()->currentMessage();
    EXPECT_TRUE(status.startsWith(QStringLiteral("Pinned thread 64 (warp 2, lane 0): 8 values of A, 8 of B")))
        << status.toStdString();
    const QString dock = details(*w)->cell().toPlainText();
    EXPECT_TRUE(dock.contains(QStringLiteral("thread 64 holds:"))) << dock.toStdString();
    // Clicked again: unpinned.
    QTest::mouseClick(cd->viewport(), Qt::LeftButton, {}, at);
    QApplication::processEvents();
    EXPECT_EQ(w->viewState()->pinnedLane(), -1);
    EXPECT_EQ(a->pinnedThread(), -1);
}

// Colour by thread: offered in the toolbar; a tile's threads of one lane differ by warp, its legend keys name
// the warps.
TEST(TileWindow, ColouredByThreadNeighbouringWarpsDiffer) {
    Window w;
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout("(2,2,1)", "", error);
    ASSERT_TRUE(t) << error;
    QString why;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16"), &why, t)) << why.toStdString();
    auto* box = w->findChild<QComboBox*>(QStringLiteral("colorBy"));
    ASSERT_NE(box, nullptr);
    const int index = box->findText(QStringLiteral("thread"));
    ASSERT_GE(index, 0);
    w->viewState()->setColorBy(ColorBy::Thread);
    QApplication::processEvents();
    const Diagram* d = view(*w, kAccumulator)->diagram();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->colorBy, ColorBy::Thread);
    const DiagramCell* lane0Warp0 = nullptr;
    const DiagramCell* lane0Warp1 = nullptr;
    for (const DiagramCell& c : d->cells) {
        if (c.thread == 0 && !lane0Warp0)
            lane0Warp0 = &c;
        if (c.thread == 32 && !lane0Warp1)
            lane0Warp1 = &c;
    }
    ASSERT_TRUE(lane0Warp0 && lane0Warp1);
    EXPECT_NE(lane0Warp0->fill, lane0Warp1->fill);
    ASSERT_FALSE(d->legends.empty());
    EXPECT_EQ(d->legends.front().entries.size(), 4u);
}

} // namespace

} // namespace test_tile_window

namespace test_tile_window {
namespace {

// A tile of tcgen05.mma atoms opens over the CTAs of a cluster: the header counts CTAs, not threads, and the
// Tensor Memory pane draws D per CTA, each CTA's 128 lanes under the previous one's.
// Opens SPEC tiled by the atom layout (2,1,1) in `w`.
void openTwoAlongM(Window& w, const char* spec) {
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout("(2,1,1)", "", error);
    ASSERT_TRUE(t) << error;
    QString why;
    ASSERT_TRUE(w->openSpec(QString::fromLatin1(spec), &why, t)) << why.toStdString();
    QApplication::processEvents();
}

TEST(TileWindow, ATileOfTcgen05AtomsShowsDPerCtaOfTheCluster) {
    Window w;
    ASSERT_NO_FATAL_FAILURE(openTwoAlongM(w, "tcgen05.mma.cta_group::2.kind::f16.m128n32"));
    ASSERT_TRUE(w->instruction()->tile);
    EXPECT_EQ(w->instruction()->tile->threads, 4);
    const QString facts = named<QLabel>(*w, "facts")->text();
    EXPECT_TRUE(facts.startsWith(QStringLiteral("4 CTAs (cluster)"))) << facts.toStdString();
    TensorMemoryPane* pane = paneOf<TensorMemoryPane>(*w);
    ASSERT_NE(pane, nullptr);
    const Diagram& d = *pane->view()->diagram();
    ASSERT_FALSE(d.panels.empty());
    EXPECT_EQ(d.panels.front().rows, 4 * 128);
    // D(128,0) is the second pair's: CTA 2, its lane 0 (layout B of M = 128: 64 rows per CTA).
    bool found = false;
    for (const DiagramCell& c : d.cells)
        if (c.panel == 0 && c.element == 128 && c.bitLo == 0) {
            EXPECT_EQ(c.matrix, 2);
            EXPECT_NE(d.tooltip(c).find("CTA 2 lane 0 column 0"), std::string::npos) << d.tooltip(c);
            found = true;
        }
    EXPECT_TRUE(found);
}

// A tile of sparse tcgen05.mma atoms: the Tensor Memory pane draws each CTA's metadata under D, and the Cell
// dock describes a hovered D or metadata cell of the tile (it said nothing for a tile's cells before).
TEST(TileWindow, ASparseTcgen05TileDrawsItsMetadataAndTheCellDockDescribesIt) {
    Window w;
    ASSERT_NO_FATAL_FAILURE(openTwoAlongM(w, "tcgen05.mma.sp.cta_group::1.kind::f16.m128n64"));
    TensorMemoryPane* pane = paneOf<TensorMemoryPane>(*w);
    ASSERT_NE(pane, nullptr);
    const Diagram& d = *pane->view()->diagram();
    ASSERT_EQ(d.panels.size(), 2u);
    EXPECT_EQ(d.panels[1].name, "metadata");
    EXPECT_EQ(d.panels[1].rows, 2 * 128);
    ASSERT_GE(d.caption.size(), 3u);
    EXPECT_EQ(d.caption[2].rfind("D and the sparse metadata of each CTA", 0), 0u) << d.caption[2];
    int d130 = -1, e130 = -1; // D(130,5) and E(130,3): CTA 1, lane 2
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const DiagramCell& c = d.cells[i];
        if (c.element == 130 && c.bitLo == (c.panel == 0 ? 5 : 3))
            (c.panel == 0 ? d130 : e130) = static_cast<int>(i);
    }
    ASSERT_GE(d130, 0);
    ASSERT_GE(e130, 0);
    EXPECT_NE(d.tooltip(d.cells[static_cast<std::size_t>(e130)]).find("E(130,3)"), std::string::npos);
    for (const int cell : {d130, e130}) {
        const CellInfo info = describeTensorMemoryCell(*w->instruction(), d, cell);
        ASSERT_TRUE(info.tensorMemory) << "cell " << cell;
        EXPECT_EQ(info.tensorMemory->cta, 1);
        EXPECT_EQ(info.tensorMemory->lane, 2);
    }
    const CellInfo e = describeTensorMemoryCell(*w->instruction(), d, e130);
    EXPECT_EQ(e.tensorMemory->element, QStringLiteral("E(130,3)"));
    const std::string text = e.toPlainText().toStdString();
    EXPECT_NE(text.find("E(130,3)"), std::string::npos) << text;
    EXPECT_NE(text.find("CTA 1"), std::string::npos) << text;
}

} // namespace
} // namespace test_tile_window
