// Issue 38, the window fits the screen: docks and tools wrap or shrink, a first start fills a laptop's
// screen, the corner overview leaves the cells alone at rest, a restored zoom starts at the top-left.
#include "gui_test_support.hpp"

#include "app.hpp"
#include "legend_bar.hpp"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>

#include <gtest/gtest.h>

namespace test_issue38_screen {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// 2. The window never outgrows a laptop screen: the banks dock of a matrix move and a long filter error
// wrap, shrink or scroll.
TEST(Issue38, TheWindowNeverOutgrowsALaptopScreen) {
    Window w;
    w->resize(1280, 720);
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QApplication::processEvents();
    auto* catalogDock = w->findChild<QDockWidget*>(QStringLiteral("catalogDock"));
    ASSERT_NE(catalogDock, nullptr);
    const int catalogWidth = catalogDock->width();
    for (const char* spec : {"ldmatrix.m8n8.x4.b16", "stmatrix.m16n8.x4.trans.b8", "wgmma.m64n256k16.f16",
                             "tcgen05.mma.cta_group::2.kind::mxf4nvf4.m256", "mma.m16n8k16.f16"}) {
        ASSERT_TRUE(w->openSpec(QString::fromLatin1(spec))) << spec;
        QApplication::processEvents();
        EXPECT_LE(w->minimumSizeHint().width(), 1280) << spec;
        EXPECT_LE(w->minimumSizeHint().height(), 720) << spec;
        EXPECT_LE(w->width(), 1280) << spec;
        EXPECT_LE(w->height(), 720) << spec;
    }
    // A malformed PTX string's error wraps in the catalog dock instead of widening it.
    named<QLineEdit>(*w, "filter")
        ->setText(
            QStringLiteral("mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32.and.a.long.tail.of.dotted."
                           "words.that.never.breaks.anywhere.at.all"));
    QApplication::processEvents();
    EXPECT_FALSE(named(*w, "filterError")->isHidden());
    EXPECT_LE(catalogDock->width(), catalogWidth + 2);
    EXPECT_LE(w->width(), 1280);
    EXPECT_LE(w->minimumSizeHint().width(), 1280);
}

// 5. A first start fills a laptop's screen (it opened at 853x480 on 1280x720, B and C/D cut), and 90 % of a
// larger one.
TEST(Issue38, AFirstStartFillsALaptopScreen) {
    MainWindow::Options o;
    MainWindow laptop(o);
    placeFirstWindow(laptop, QRect(0, 0, 1280, 720));
    EXPECT_TRUE(laptop.windowState() & Qt::WindowMaximized);
    EXPECT_EQ(laptop.geometry().size(), QSize(1280, 720));
    MainWindow desk(o);
    placeFirstWindow(desk, QRect(0, 0, 1920, 1080));
    EXPECT_FALSE(desk.windowState() & Qt::WindowMaximized);
    EXPECT_EQ(desk.geometry().size(), QSize(1728, 972));
    EXPECT_LE((desk.geometry().center() - QPoint(960, 540)).manhattanLength(), 4) << "centred";
}

// 5. At 1280x720 the legend's 32 lanes take one row (two took the height the panes need).
TEST(Issue38, TheLegendTakesOneRowOnALaptop) {
    Window w;
    w->resize(1280, 720);
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QApplication::processEvents();
    auto* legend = w->findChild<LegendBar*>(QStringLiteral("legend"));
    ASSERT_NE(legend, nullptr);
    ASSERT_EQ(legend->entryCount(), 32);
    EXPECT_EQ(legend->entryRect(31).top(), legend->entryRect(0).top()) << "legend width " << legend->width();
    EXPECT_GE(legend->entryRect(0).width(), 18) << "numbers still readable";
}

// 6. The corner overview shows while the pane scrolls or the pointer is over it, never at rest over cells;
// a restored zoom starts every pane at its top-left corner.
TEST(Issue38, TheOverviewLeavesWhenTheScrollSettles) {
    Window w;
    w->resize(1280, 720);
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n256k16.f16")));
    QApplication::processEvents();
    DiagramView* d = view(*w, Operand::D);
    ASSERT_NE(d, nullptr);
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(d, &leave); // the pointer is elsewhere
    d->verticalScrollBar()->setValue(d->verticalScrollBar()->maximum() / 2);
    d->horizontalScrollBar()->setValue(d->horizontalScrollBar()->maximum() / 2);
    ASSERT_FALSE(d->overviewRect().isEmpty()) << "while it scrolls";
    EXPECT_TRUE(QTest::qWaitFor([d] { return d->overviewRect().isEmpty(); }))
        << "at rest, scrolled away from the start, it no longer covers cells";
}

TEST(Issue38, ARestoredZoomStartsAtTheTopLeft) {
    Window w;
    w->resize(1280, 720);
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QApplication::processEvents();
    w->zoomIn(); // 125 %: larger than the panes
    w->zoomIn();
    w->savePreferences();
    w.window.reset();
    w.open(true);
    w->resize(1280, 720);
    QApplication::processEvents();
    ASSERT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k16.f16"));
    for (DiagramView* v : views(*w)) {
        EXPECT_FALSE(v->fitting()) << "the saved zoom";
        EXPECT_EQ(v->horizontalScrollBar()->value(), 0) << v->objectName().toStdString();
        EXPECT_EQ(v->verticalScrollBar()->value(), 0) << v->objectName().toStdString();
    }
}

} // namespace
} // namespace test_issue38_screen
