// N is one parameter for every instruction whose N varies: the header's N box steps a wgmma through its
// sibling rows and a tcgen05.mma entry through its Ns alike, and hides for instructions whose N is fixed.
#include "gui_test_support.hpp"

#include <QApplication>
#include <QComboBox>
#include <QLabel>

#include <gtest/gtest.h>

namespace test_n_parameter {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

QComboBox* nBox(MainWindow& w) {
    return w.findChild<QComboBox*>(QStringLiteral("instructionN"));
}

void choose(QComboBox* box, int n) {
    box->setCurrentIndex(box->findData(n));
    emit box->activated(box->currentIndex());
    QApplication::processEvents();
}

TEST(NParameter, TheNBoxStepsAWgmmaThroughItsRows) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n64k16.f16")));
    QComboBox* box = nBox(*w);
    ASSERT_NE(box, nullptr);
    EXPECT_FALSE(box->isHidden()) << "wgmma's N varies: the box is offered";
    EXPECT_EQ(box->count(), 32) << "N 8..256 in steps of 8";
    EXPECT_EQ(box->currentData().toInt(), 64);
    choose(box, 128);
    EXPECT_EQ(w->instruction()->spec, "wgmma.m64n128k16.f16") << "N picks the row of that N";
    EXPECT_EQ(w->instruction()->params.n, 0) << "one spelling: the row says N";
    EXPECT_EQ(box->currentData().toInt(), 128);
    // The choice is an opened instruction like any other: Back returns to N 64.
    w->goBack();
    QApplication::processEvents();
    EXPECT_EQ(w->instruction()->spec, "wgmma.m64n64k16.f16");
    EXPECT_EQ(box->currentData().toInt(), 64);
}

TEST(NParameter, TheBoxHidesWhereNIsFixed) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QComboBox* box = nBox(*w);
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->isHidden()) << "an mma's N is fixed";
    ASSERT_TRUE(w->openSpec(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n64")));
    EXPECT_FALSE(box->isHidden());
    EXPECT_EQ(box->currentData().toInt(), 64);
    choose(box, 16);
    EXPECT_EQ(w->instruction()->n, 16);
    EXPECT_EQ(w->instruction()->params.n, 16) << "a tcgen05.mma entry stands for every N: N is its parameter";
}

} // namespace

} // namespace test_n_parameter
