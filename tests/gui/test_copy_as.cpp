// Edit > Copy as and File > Export as (copy_as.cpp): the current operand reaches the clipboard in the chosen
// notation.
#include "gui_test_support.hpp"

#include "copy_as.hpp"
#include "copy_as_menu.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>

#include <gtest/gtest.h>

namespace test_copy_as {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

TEST(CopyAs, TextHoldsTheOperandInEachNotation) {
    const Instruction& in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    const QString cute = copyAsText(in, Operand::A, CopyFormat::Cute);
    EXPECT_TRUE(cute.contains(QStringLiteral("((4,8),(2,2,2)):((32,1),(16,8,128))"))) << cute.toStdString();
    EXPECT_FALSE(cute.contains(QStringLiteral("B: (T32"))) << "only the current operand";
    const QString triton = copyAsText(in, kAccumulator, CopyFormat::Triton);
    EXPECT_TRUE(triton.contains(QStringLiteral("\"operand\":\"D\""))) << triton.toStdString();
    EXPECT_TRUE(
        copyAsText(in, Operand::B, CopyFormat::Cuda).contains(QStringLiteral("namespace mma_m16n8k16_f16")));
    EXPECT_TRUE(copyAsText(in, Operand::B, CopyFormat::Markdown).contains(QStringLiteral("#### B (16x8)")));
}

TEST(CopyAs, MenuActionPutsTheWholeAtomOnTheClipboard) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    QMenu* menu = w->findChild<QMenu*>(QStringLiteral("copyAsMenu"));
    ASSERT_NE(menu, nullptr);
    EXPECT_EQ(menu->actions().size(), 4);
    ASSERT_NE(w->findChild<QMenu*>(QStringLiteral("exportAsMenu")), nullptr);
    QApplication::clipboard()->clear();
    view(*w, Operand::B)->setFocus(); // issue 38: the focus no longer picks one operand
    QApplication::processEvents();
    auto* act = w->findChild<QAction*>(QStringLiteral("actionCopyAs3")); // Markdown
    ASSERT_NE(act, nullptr);
    act->trigger();
    const QString text = QApplication::clipboard()->text();
    for (const QString& op : {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("D")})
        EXPECT_TRUE(text.contains(QStringLiteral("#### ") + op)) << op.toStdString() << '\n'
                                                                 << text.left(200).toStdString();
}

} // namespace

} // namespace test_copy_as
