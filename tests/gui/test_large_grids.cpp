// Issue 14.7: large grids keep their row and column indices on screen (sticky headers) and show where the
// visible part is (an overview that also scrolls there).
#include "gui_test_support.hpp"

#include <QScrollBar>

#include <gtest/gtest.h>

namespace test_large_grids {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

bool hasLabel(const DiagramView::StickyHeaders& h, const QString& text) {
    for (const auto& [rect, label] : h.labels)
        if (label == text)
            return true;
    return false;
}

TEST(LargeGrids, HeadersStayOnScreenAndTheOverviewShowsAndMovesTheView) {
    Window w;
    w->resize(1280, 720);
    w->setWrapBands(false); // the plain 64 x 256 grid: its headers and overview (bands: test_issue14_finish)
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n256k16.f16")));
    DiagramView* d = view(*w, Operand::D);
    ASSERT_NE(d, nullptr);
    // The accumulator keeps most of its column (the shared-memory pane beside it does not squeeze it).
    EXPECT_GT(d->viewport()->height(), 250);
    d->setZoom(1.0); // 64 x 256 cells at full size: scrolls both ways
    QScrollBar* h = d->horizontalScrollBar();
    QScrollBar* v = d->verticalScrollBar();
    ASSERT_GT(h->maximum(), 0);
    ASSERT_GT(v->maximum(), 0);

    // At the top-left the grid's own headers are on screen: nothing sticks.
    h->setValue(0);
    v->setValue(0);
    DiagramView::StickyHeaders s = d->stickyHeaders();
    EXPECT_TRUE(s.top.isEmpty());
    EXPECT_TRUE(s.left.isEmpty());

    // Bottom-right: the last row and column are still named.
    h->setValue(h->maximum());
    v->setValue(v->maximum());
    s = d->stickyHeaders();
    EXPECT_FALSE(s.top.isEmpty());
    EXPECT_FALSE(s.left.isEmpty());
    EXPECT_TRUE(hasLabel(s, QStringLiteral("255")) || hasLabel(s, QStringLiteral("254")) ||
                hasLabel(s, QStringLiteral("252")))
        << "a column number near the right edge";
    EXPECT_TRUE(hasLabel(s, QStringLiteral("63")) || hasLabel(s, QStringLiteral("62")));
    // What is painted there is the strip, not cells: its background under the labels' line.
    const QImage shot = d->viewport()->grab().toImage();
    const QColor strip = shot.pixelColor(s.top.left() + 1, s.top.top() + 1);
    EXPECT_EQ(strip.red(), d->paintOptions().colors.background.red());
    // A cell under a strip is not hovered through it.
    EXPECT_EQ(d->cellAtViewport(s.top.center()), -1);

    // The overview: present, framing the bottom-right, and a click on its top-left corner scrolls there.
    const QRect o = d->overviewRect();
    ASSERT_FALSE(o.isEmpty());
    EXPECT_TRUE(d->viewport()->rect().contains(o));
    QTest::mouseClick(d->viewport(), Qt::LeftButton, {}, o.topLeft());
    EXPECT_EQ(h->value(), 0);
    EXPECT_EQ(v->value(), 0);
    EXPECT_TRUE(d->stickyHeaders().top.isEmpty());

    // Every cell can still be brought out from under the overview and hovered.
    const int last = cellAt(d, 63, 255);
    ASSERT_GE(last, 0);
    d->ensureCellVisible(last);
    EXPECT_FALSE(d->overviewRect().intersects(d->cellViewportRect(last)));
    EXPECT_EQ(d->cellAtViewport(d->cellViewportRect(last).center()), last);

    // Fit all truly fits all 256 columns (colour alone at this size), and then there is no overview.
    d->fit(DiagramView::FitMode::All);
    const QRectF all = contentRect(*d->diagram(), d->paintOptions());
    EXPECT_LE(all.width() * d->zoom(), d->maximumViewportSize().width() + 1);
    EXPECT_TRUE(d->overviewRect().isEmpty());
}

} // namespace

} // namespace test_large_grids
