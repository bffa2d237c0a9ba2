// A tile of atoms in the window (docs/tiles.md): opened from the command line's --atom-layout and
// --permutation, named by its extents, coloured by warp, hover naming the CTA thread's warp and lane, and
// never called confirmed on hardware by the atom's report.
#include "gui_test_support.hpp"

#include "lanemap/tile.hpp"

#include <QApplication>
#include <QLabel>

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

} // namespace

} // namespace test_tile_window
