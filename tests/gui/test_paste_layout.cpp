// Tools > Paste a layout (docs/layouts-in.md#the-app): a pasted CuTe or Triton layout drawn with the panes'
// pictures, its errors shown at their column, and "Compare with" an operand of the instruction shown opening
// the compare page with the differing cells marked, the first named, and the operand's hardware verdict.
#include "gui_test_support.hpp"

#include "paste_layout_pane.hpp"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>

#include <gtest/gtest.h>

namespace test_paste_layout {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

PasteLayoutPane* pasteDock(MainWindow& w) {
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("pasteLayoutDock"));
    if (!dock)
        return nullptr;
    dock->show();
    return qobject_cast<PasteLayoutPane*>(dock->widget());
}

int ownedCells(const Diagram& d) {
    int n = 0;
    for (const DiagramCell& c : d.cells)
        n +=
            d.panels[c.panel].kind == PanelKind::Operand || d.panels[c.panel].kind == PanelKind::SharedMemory;
    return n;
}

} // namespace

TEST(PasteLayout, AnIrDumpIsDrawnAsTheOperandsGrid) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    PasteLayoutPane* pane = pasteDock(*w);
    ASSERT_NE(pane, nullptr);
    // Typed into the box, as pasted from an IR dump: the alias line, then the layout.
    auto* text = pane->findChild<QPlainTextEdit*>(QStringLiteral("pasteLayoutText"));
    ASSERT_NE(text, nullptr);
    text->setFocus();
    QTest::keyClicks(text, QStringLiteral("#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                          "warpsPerCTA = [1, 1], instrShape = [16, 8]}>"));
    QTest::keyClick(text, Qt::Key_Return);
    QTest::keyClicks(text, QStringLiteral("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>"));
    QTest::keyClick(text, Qt::Key_Return, Qt::ControlModifier); // Ctrl+Return draws
    ASSERT_TRUE(pane->pasted().ok) << pane->pasted().error.toStdString();
    const Diagram* d = pane->view()->diagram();
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(ownedCells(*d), 256); // 16 x 16, each held once
    auto* status = pane->findChild<QLabel*>(QStringLiteral("pasteLayoutStatus"));
    EXPECT_TRUE(status->text().contains(QStringLiteral("32 threads x 8 values over 16x16")))
        << status->text().toStdString();
    // It is mma.m16n8k16's A: compare says so and that the instruction was confirmed on hardware.
    auto* operand = pane->findChild<QComboBox*>(QStringLiteral("pasteLayoutOperand"));
    ASSERT_NE(operand, nullptr);
    operand->setCurrentIndex(operand->findData(static_cast<int>(Operand::A)));
    QTest::mouseClick(pane->findChild<QPushButton*>(QStringLiteral("pasteLayoutCompare")), Qt::LeftButton);
    EXPECT_TRUE(pane->comparison().ok) << pane->comparison().error.toStdString();
    EXPECT_EQ(pane->comparison().differing, 0);
    EXPECT_TRUE(pane->comparison().text.contains(QStringLiteral("hardware-confirmed")))
        << pane->comparison().text.toStdString();
    ASSERT_NE(comparePage(*w), nullptr);
    EXPECT_EQ(comparePage(*w)->differences(), 0);
}

TEST(PasteLayout, CompareMarksTheFirstDifferingCell) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    PasteLayoutPane* pane = pasteDock(*w);
    ASSERT_NE(pane, nullptr);
    // SM80's A with the value strides 16 and 8 swapped: (m 8, k 0) is v1 here, a2 in the instruction.
    pane->setText(QStringLiteral("((4,8),(2,2,2)):((32,1),(8,16,128))"), QStringLiteral("16x16"));
    pane->draw();
    ASSERT_TRUE(pane->pasted().ok) << pane->pasted().error.toStdString();
    auto* operand = pane->findChild<QComboBox*>(QStringLiteral("pasteLayoutOperand"));
    operand->setCurrentIndex(operand->findData(static_cast<int>(Operand::A)));
    ASSERT_TRUE(pane->compare()) << pane->comparison().error.toStdString();
    EXPECT_EQ(pane->comparison().differing, 128);
    EXPECT_TRUE(pane->comparison().firstDifference.startsWith(QStringLiteral("(m 8, k 0) = index 8")))
        << pane->comparison().firstDifference.toStdString();
    auto* verdict = pane->findChild<QLabel*>(QStringLiteral("pasteLayoutVerdict"));
    EXPECT_TRUE(
        verdict->text().contains(QStringLiteral("Differs from mma.m16n8k16.f16 A in 128 of 256 cells")))
        << verdict->text().toStdString();
    // The compare page: the instruction's A beside the layout, the first differing cell (8, 0) marked on
    // both.
    ComparePage* page = comparePage(*w);
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(page->differences(), 128);
    for (int side = 0; side < 2; ++side) {
        DiagramView* v = compareView(*w, side);
        ASSERT_NE(v, nullptr);
        const int cell = cellAt(v, 8, 0);
        ASSERT_GE(cell, 0) << side;
        EXPECT_NE(v->marks().diff[static_cast<std::size_t>(cell)], 0) << side;
        const int same = cellAt(v, 0, 0); // held by T0 a0 in both
        ASSERT_GE(same, 0);
        EXPECT_EQ(v->marks().diff[static_cast<std::size_t>(same)], 0) << side;
    }
}

TEST(PasteLayout, AnErrorIsShownAtItsColumnAndASwizzleInSharedMemory) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n64k16.f16")));
    PasteLayoutPane* pane = pasteDock(*w);
    ASSERT_NE(pane, nullptr);
    pane->setText(QStringLiteral("((4,8),(2,2]:((32,1),(16,8))"), QStringLiteral("16x8"));
    pane->draw();
    EXPECT_FALSE(pane->pasted().ok);
    auto* status = pane->findChild<QLabel*>(QStringLiteral("pasteLayoutStatus"));
    EXPECT_TRUE(
        status->text().contains(QStringLiteral("line 1, column 12: expected ',' or ')' after a mode")))
        << status->text().toStdString();
    auto* text = pane->findChild<QPlainTextEdit*>(QStringLiteral("pasteLayoutText"));
    EXPECT_EQ(text->textCursor().position(), 11); // the ']' (column 12)
    EXPECT_EQ(pane->view()->diagram(), nullptr);
    // CuTe's 128B K-major GMMA atom: the shared-memory picture, 512 elements, and it is wgmma's B byte for
    // byte.
    pane->setText(QStringLiteral("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"));
    pane->draw();
    ASSERT_TRUE(pane->pasted().ok) << pane->pasted().error.toStdString();
    ASSERT_NE(pane->view()->diagram(), nullptr);
    EXPECT_EQ(ownedCells(*pane->view()->diagram()), 512);
    auto* operand = pane->findChild<QComboBox*>(QStringLiteral("pasteLayoutOperand"));
    const int b = operand->findData(static_cast<int>(Operand::B));
    ASSERT_GE(b, 0);
    operand->setCurrentIndex(b);
    ASSERT_TRUE(pane->compare()) << pane->comparison().error.toStdString();
    EXPECT_EQ(pane->comparison().differing, 0);
    EXPECT_TRUE(pane->comparison().text.contains(QStringLiteral("equal, every element at the same byte")))
        << pane->comparison().text.toStdString();
}

TEST(PasteLayout, ATritonSharedEncodingIsDrawnInSharedMemoryAndCompared) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n64k16.f16")));
    PasteLayoutPane* pane = pasteDock(*w);
    ASSERT_NE(pane, nullptr);
    // Without a shape (and no memdesc type) it says how to give one.
    pane->setText(QStringLiteral(
        "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>"));
    pane->draw();
    EXPECT_FALSE(pane->pasted().ok);
    EXPECT_TRUE(pane->pasted().error.contains(QStringLiteral("--shape")))
        << pane->pasted().error.toStdString();
    // In its memdesc type: the shape and element type with it; wgmma's A (K-major, 128B, as drawn) byte for
    // byte.
    pane->setText(
        QStringLiteral("!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = "
                       "false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>"));
    pane->draw();
    ASSERT_TRUE(pane->pasted().ok) << pane->pasted().error.toStdString();
    ASSERT_NE(pane->view()->diagram(), nullptr);
    EXPECT_EQ(ownedCells(*pane->view()->diagram()), 4096);
    EXPECT_TRUE(
        pane->pasted().summary.startsWith(QStringLiteral("Triton #ttg.nvmma_shared, 64 x 64 (dim0 x dim1)")))
        << pane->pasted().summary.toStdString();
    auto* operand = pane->findChild<QComboBox*>(QStringLiteral("pasteLayoutOperand"));
    const int a = operand->findData(static_cast<int>(Operand::A));
    ASSERT_GE(a, 0);
    operand->setCurrentIndex(a);
    ASSERT_TRUE(pane->compare()) << pane->comparison().error.toStdString();
    EXPECT_EQ(pane->comparison().differing, 0) << pane->comparison().text.toStdString();
}

} // namespace test_paste_layout
