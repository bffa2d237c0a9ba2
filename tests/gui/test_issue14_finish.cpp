// Issue 14's last points: quad-pair products in one pane at one zoom, pane headers that fit a laptop's narrow
// panes, long N wrapped into bands, one lane-range notation in the window and the exported pictures, and the
// desktop's light/dark switch followed while the app runs.
#include "gui_test_support.hpp"

#include "diagram_painter.hpp"
#include "pane_frame.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram_bands.hpp"
#include "lanemap/svg.hpp"

#include <QApplication>
#include <QEvent>
#include <QLabel>
#include <QScrollBar>

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace test_issue14_finish {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// Lets the splitters settle and the band choice (a short timer after a resize) run.
void settle(MainWindow* w, QSize size) {
    w->resize(size);
    QApplication::processEvents();
    QTest::qWait(350);
    QApplication::processEvents();
}

// Cells of `view` drawn at least partly inside its viewport.
int cellsOnScreen(const DiagramView* view) {
    int n = 0;
    const QRect vp = view->viewport()->rect();
    for (std::size_t i = 0; i < view->diagram()->cells.size(); ++i)
        if (view->cellViewportRect(static_cast<int>(i)).intersects(vp))
            ++n;
    return n;
}

int findCell(const Diagram& d, const std::string& operand, int row, int col, int matrix = -1) {
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const DiagramCell& c = d.cells[i];
        if (d.panels[c.panel].name == operand && c.row == row && c.col == col && c.matrix == matrix)
            return static_cast<int>(i);
    }
    return -1;
}

TEST(QuadPair, TheFourProductsShareOnePaneAndOneZoomWithNothingCutSideways) {
    Window w;
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
        SCOPED_TRACE(size.width());
        ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m8n8k4.row.col.f16")));
        settle(w.window.get(), size);
        // One pane, as the SVG draws it: a row of A | B | C/D per product, so every operand is at one zoom.
        ASSERT_EQ(paneLabels(*w), QStringList{QStringLiteral("products")});
        DiagramView* view = gui::test::view(*w, OperandSet{});
        const Diagram& d = *view->diagram();
        std::set<std::pair<int, std::string>> panels;
        for (const DiagramPanel& p : d.panels)
            panels.insert({p.matrix, p.name});
        EXPECT_EQ(panels.size(), 12u) << "four products of A, B and C/D";
        EXPECT_TRUE(view->fitting());
        EXPECT_TRUE(labelsVisible(d, view->zoom())) << "labels readable at Fit: zoom " << view->zoom();
        // Nothing cut mid-row: every product row is whole across the pane.
        EXPECT_EQ(view->horizontalScrollBar()->maximum(), 0);
        // Product rows line up: A, B and C/D of a product start at one height.
        for (int m = 0; m < 4; ++m) {
            const int a = findCell(d, "A", 0, 0, m), b = findCell(d, "B", 0, 0, m),
                      cd = findCell(d, "C/D", 0, 0, m);
            ASSERT_GE(a, 0);
            ASSERT_GE(b, 0);
            ASSERT_GE(cd, 0);
            EXPECT_EQ(d.cells[static_cast<std::size_t>(a)].rect.y,
                      d.cells[static_cast<std::size_t>(b)].rect.y);
            EXPECT_EQ(d.cells[static_cast<std::size_t>(a)].rect.y,
                      d.cells[static_cast<std::size_t>(cd)].rect.y);
        }
    }
    // At 1920x1080 the whole instruction is on screen at once.
    DiagramView* view = gui::test::view(*w, OperandSet{});
    EXPECT_EQ(view->verticalScrollBar()->maximum(), 0);
    // Hover answers for the product under the mouse.
    const int cell = findCell(*view->diagram(), "B", 1, 5, 2);
    ASSERT_GE(cell, 0);
    hover(view, cell);
    auto* status = w->findChild<QLabel*>(QStringLiteral("hoverStatus"));
    ASSERT_NE(status, nullptr);
    EXPECT_TRUE(status->text().contains(QStringLiteral("product 2"))) << status->text().toStdString();
    EXPECT_EQ(view->diagram()->cells[static_cast<std::size_t>(cell)].thread / 4 % 4, 2);
}

TEST(PaneHeader, ANarrowPaneKeepsItsTitleWholeAndShrinksTheBadgeToAnIcon) {
    auto* view = new DiagramView;
    PaneFrame frame(view);
    frame.setTitle(QStringLiteral("<b>A</b> &nbsp;rows M = 64, columns K = 16"),
                   QStringLiteral("<b>A</b> &nbsp;M×K 64×16"));
    frame.setBadge(QStringLiteral("✓ confirmed on hardware"), true, QStringLiteral("H100, 2026-11-20"),
                   QStringLiteral("✓"));
    frame.resize(900, 300);
    frame.show();
    QApplication::processEvents();
    EXPECT_FALSE(frame.badgeCompact());
    EXPECT_EQ(frame.badge()->text(), QStringLiteral("✓ confirmed on hardware"));
    frame.resize(270, 300);
    QApplication::processEvents();
    EXPECT_TRUE(frame.badgeCompact());
    EXPECT_EQ(frame.badge()->text(), QStringLiteral("✓"));
    EXPECT_TRUE(frame.badge()->toolTip().contains(QStringLiteral("confirmed on hardware")));
    EXPECT_LE(frame.title()->sizeHint().width(), frame.title()->width()) << "the title is not cut";
    // Narrower still: the title says it shorter, the full one in its tooltip.
    frame.resize(200, 300);
    QApplication::processEvents();
    EXPECT_LE(frame.title()->sizeHint().width(), frame.title()->width())
        << frame.title()->text().toStdString();
    EXPECT_TRUE(frame.title()->toolTip().contains(QStringLiteral("rows M = 64, columns K = 16")));
}

TEST(PaneHeader, EveryPaneTitleIsWholeAt1280AsTheWindowFirstOpens) {
    // As the app starts (and --screenshot runs): sized, the instruction opened, then shown.
    for (const char* spec : {"wgmma.m64n256k16.f16", "mma.m16n8k16.f16", "mma.sp.m16n8k32.s8"}) {
        SCOPED_TRACE(spec);
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("lanemap.ini")), QSettings::IniFormat);
        MainWindow::Options o;
        o.settings = &settings;
        o.restore = false;
        MainWindow w(o);
        w.resize(1280, 720);
        ASSERT_TRUE(w.openSpec(QString::fromLatin1(spec)));
        w.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
        QApplication::processEvents();
        for (Pane* frame : panes(w)) {
            SCOPED_TRACE(frame->label().toStdString());
            ASSERT_NE(frame, nullptr);
            EXPECT_LE(frame->title()->sizeHint().width(), frame->title()->width())
                << frame->title()->text().toStdString();
            if (frame->space() == Space::SharedMemory)
                continue; // the probe checks registers, not shared memory: no badge
            // Every pane of these is confirmed by the built-in reports: the badge shows, whole, inside the
            // header.
            EXPECT_TRUE(frame->badge()->isVisible());
            EXPECT_TRUE(frame->rect().contains(frame->badge()->geometry()))
                << frame->badge()->geometry().x() << "," << frame->badge()->geometry().y() << " "
                << frame->badge()->width() << " in " << frame->width() << " text "
                << frame->badge()->text().toStdString();
            EXPECT_FALSE(frame->title()->geometry().intersects(frame->badge()->geometry()));
            EXPECT_LE(frame->badge()->sizeHint().width(), frame->badge()->width())
                << frame->badge()->text().toStdString() << " in " << frame->width();
        }
    }
}

TEST(Bands, ALongAccumulatorIsWrappedIntoBandsThatShowMoreAndStillHoverExactly) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n256k16.f16")));
    settle(w.window.get(), QSize(3840, 2160));
    ASSERT_TRUE(w->wrapBands()) << "on by default";
    // Fit all: every cell on screen, so the bands that make the cells largest.
    w->fitWhole();
    QApplication::processEvents();
    DiagramView* view = gui::test::view(*w, Operand::D);
    ASSERT_NE(view, nullptr) << paneLabels(*w).join(QLatin1Char(' ')).toStdString();
    const Diagram& d = *view->diagram();
    ASSERT_GT(d.panels.size(), 1u) << "a 64 x 256 accumulator at 4K is wrapped into bands " << w->width()
                                   << "x" << w->height() << " vp " << view->maximumViewportSize().width()
                                   << "x" << view->maximumViewportSize().height() << " zoom " << view->zoom();
    EXPECT_EQ(d.cells.size(), 64u * 256u);
    // Each band has its own column numbers: those of its first matrix column on.
    int next = 0;
    for (const DiagramPanel& p : d.panels) {
        ASSERT_FALSE(p.colHeaders.empty());
        EXPECT_EQ(p.colHeaders.front(), std::to_string(next));
        const DiagramCell& first = d.cells[p.firstCell];
        EXPECT_GE(first.col, next);
        next += p.cols;
    }
    EXPECT_EQ(next, 256);
    EXPECT_TRUE(view->fitting());
    EXPECT_EQ(view->fitMode(), DiagramView::FitMode::All);
    // The pane's header says the zoom of the bands, not of the grid before them.
    EXPECT_TRUE(registersPane(*w, Operand::D)
                    ->zoomLabel()
                    ->text()
                    .contains(QString::number(std::lround(view->zoom() * 100)) + QStringLiteral(" %")))
        << registersPane(*w, Operand::D)->zoomLabel()->text().toStdString() << " at " << view->zoom();
    EXPECT_EQ(cellsOnScreen(view), 64 * 256) << "the whole grid";
    const double wrappedZoom = view->zoom();
    // Hover and lookup stay exact in a later band.
    const int cell = findCell(d, "D", 40, 250);
    ASSERT_GE(cell, 0);
    const QPoint centre = view->cellViewportRect(cell).center();
    EXPECT_EQ(view->cellAtViewport(centre), cell);
    hover(view, cell);
    auto* status = w->findChild<QLabel*>(QStringLiteral("hoverStatus"));
    EXPECT_TRUE(status->text().contains(QStringLiteral("(40,250)"))) << status->text().toStdString();
    // Keyboard: right of the band's last column is the next position of that band, never another row.
    view->setFocus();
    view->setCursorCell(cell);
    ASSERT_TRUE(view->moveCursor(0, 1));
    EXPECT_EQ(d.cells[static_cast<std::size_t>(view->cursorCell())].row, 40);
    EXPECT_EQ(d.cells[static_cast<std::size_t>(view->cursorCell())].col, 251);

    // Turned off: one plain grid, whose whole is drawn smaller in the same pane.
    w->setWrapBands(false);
    w->fitWhole();
    QApplication::processEvents();
    ASSERT_EQ(view->diagram()->panels.size(), 1u);
    EXPECT_LT(view->zoom() * 1.3, wrappedZoom);
}

TEST(Bands, WrapColumnsKeepsEveryCellAndItsMatrixPosition) {
    const Instruction* in = Catalog::instance().instruction("wgmma.m64n256k16.f16");
    ASSERT_NE(in, nullptr);
    DiagramOptions o;
    o.operands = Operand::D;
    const Diagram plain = buildDiagram(*in, o);
    ASSERT_TRUE(canWrapColumns(plain));
    const Diagram bands = wrapColumns(plain, 64);
    ASSERT_EQ(bands.panels.size(), 4u);
    ASSERT_EQ(bands.cells.size(), plain.cells.size());
    for (std::size_t i = 0; i < bands.cells.size(); ++i) {
        const DiagramCell& c = bands.cells[i];
        // Found where it is drawn, and it is in its band.
        const RectF& r = c.rect;
        EXPECT_EQ(bands.cellAt(r.x + r.w / 2, r.y + r.h / 2), static_cast<int>(i));
        EXPECT_EQ(c.panel, c.col / 64);
        // The same label and tooltip as in the plain grid.
        EXPECT_EQ(bands.label(c).substr(0, 2), std::string("T") + std::to_string(c.thread).substr(0, 1));
    }
    EXPECT_LT(bands.width, plain.width);
    EXPECT_GT(bands.height, plain.height);
    // The cheap estimate the window compares band widths with is the bands' true extent.
    RectF all = bands.panels.front().bounds;
    for (const DiagramPanel& p : bands.panels) {
        const double right = std::max(all.right(), p.bounds.right()),
                     bottom = std::max(all.bottom(), p.bounds.bottom());
        all = {all.x, all.y, right - all.x, bottom - all.y};
    }
    const RectF estimate = wrappedBounds(plain, 64);
    EXPECT_DOUBLE_EQ(estimate.x, all.x);
    EXPECT_DOUBLE_EQ(estimate.y, all.y);
    EXPECT_DOUBLE_EQ(estimate.w, all.w);
    EXPECT_DOUBLE_EQ(estimate.h, all.h);
    // A quad-pair diagram (several products) is left as it is.
    const Instruction* quad = Catalog::instance().instruction("mma.m8n8k4.row.col.f16");
    ASSERT_NE(quad, nullptr);
    EXPECT_FALSE(canWrapColumns(buildDiagram(*quad, {})));
}

TEST(LaneRanges, TheWindowAndTheExportedPictureWriteRangesTheSameWay) {
    const Instruction* quad = Catalog::instance().instruction("mma.m8n8k4.row.col.f16");
    ASSERT_NE(quad, nullptr);
    DiagramOptions o;
    o.colorBy = ColorBy::ThreadGroup;
    const Diagram d = buildDiagram(*quad, o);
    const std::string svg = toSvg(d);
    // The notation of the cell panel, tooltips and bit ranges ("cols 12..15", "[31..16]").
    EXPECT_NE(svg.find("product 1 (lanes 4..7, 20..23)"), std::string::npos);
    EXPECT_NE(svg.find("(lanes 12..15)"), std::string::npos);
    EXPECT_EQ(svg.find("\u2013"), std::string::npos) << "no en-dash ranges left in the picture";
    // The window shows the same titles.
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m8n8k4.row.col.f16")));
    bool found = false;
    for (const DiagramPanel& p : view(*w, OperandSet{})->diagram()->panels)
        found = found || p.title.find("product 1 (lanes 4..7, 20..23)") != std::string::npos;
    EXPECT_TRUE(found);
}

TEST(LiveTheme, TheDesktopSwitchingToDarkIsFollowedUntilTheUserPicksATheme) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("lanemap.ini")), QSettings::IniFormat);
    Theme desktop = Theme::Light;
    MainWindow::Options o;
    o.settings = &settings;
    o.systemTheme = Theme::Light;
    o.desktopTheme = [&desktop] { return desktop; };
    MainWindow w(o);
    w.show();
    ASSERT_EQ(w.theme(), Theme::Light);
    ASSERT_TRUE(w.themeFollowsSystem());
    // The platform says its theme changed: the desktop is dark now.
    desktop = Theme::Dark;
    QEvent change(QEvent::ThemeChange);
    QApplication::sendEvent(&w, &change);
    EXPECT_EQ(w.theme(), Theme::Dark);
    EXPECT_LT(qApp->palette().color(QPalette::Window).lightness(), 128);
    // And back.
    desktop = Theme::Light;
    QApplication::sendEvent(&w, &change);
    EXPECT_EQ(w.theme(), Theme::Light);
    // The user's choice wins over the desktop.
    w.setTheme(Theme::Light);
    desktop = Theme::Dark;
    QApplication::sendEvent(&w, &change);
    EXPECT_EQ(w.theme(), Theme::Light);
}

} // namespace

} // namespace test_issue14_finish
