// Issue 38 item 5: where B over C/D beside A cuts B and C/D (rows 0-10 of m16n8k16's 16 shown) but all three
// in one row show every cell at a readable zoom, the panes stand in one row.
#include "gui_test_support.hpp"
#include "opened_at.hpp"

#include "diagram_painter.hpp"
#include "panes/pane_area.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTest>

#include <gtest/gtest.h>

namespace test_pane_row {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// Whether every pane's picture shows whole (no scrolling) with its labels drawn.
void expectWholeAndReadable(const MainWindow& w) {
    const PaneArea* area = w.findChild<PaneArea*>();
    ASSERT_NE(area, nullptr);
    ASSERT_EQ(area->views().size(), 3u) << "A, B and C/D";
    for (const DiagramView* v : area->views()) {
        EXPECT_EQ(v->horizontalScrollBar()->maximum(), 0) << v->diagram()->title;
        EXPECT_EQ(v->verticalScrollBar()->maximum(), 0) << v->diagram()->title;
        EXPECT_GE(v->zoom(), readableZoom(*v->diagram()) - 1e-9) << v->diagram()->title;
    }
}

TEST(PaneRow, BAndCDStandBesideAWhereStackingThemWouldCutThem) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("mma.m16n8k16.f16"));
    for (const char* dock : {"catalogDock", "detailsDock"})
        w.window->findChild<QDockWidget*>(QString::fromLatin1(dock))->hide();
    QApplication::processEvents();
    QTest::qWait(200);
    QApplication::processEvents();
    expectWholeAndReadable(*w.window);
}

// With the catalog and Cell docks open, B over C/D beside A: every cell whole once the register panes leave
// their grid's title and subtitle lines to the header (they scrolled at row 10 of 16 before).
TEST(PaneRow, TheFirstWindowAtALaptopsSizeShowsEveryCellOfM16n8k16) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("mma.m16n8k16.f16"));
    expectWholeAndReadable(*w.window);
    // What the grid's title and subtitle said is the pane header's tooltip.
    const RegistersPane* b = registersPane(*w.window, Operand::B);
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(b->title()->toolTip().contains(QStringLiteral("registers of 32 bits per thread")))
        << b->title()->toolTip().toStdString();
}

TEST(PaneRow, AWideScreenKeepsBOverCD) {
    OpenedAt w(QSize(1920, 1080), QStringLiteral("mma.m16n8k16.f16"));
    expectWholeAndReadable(*w.window);
    const auto* splitter = w.window->findChild<QSplitter*>(QStringLiteral("panes"));
    ASSERT_NE(splitter, nullptr);
    EXPECT_EQ(splitter->orientation(), Qt::Horizontal);
}

} // namespace

} // namespace test_pane_row
