// Tools → "Decode tcgen05 descriptor…": a pasted value shows every field with its bits and meaning, the kind
// changes how an idesc reads, and a value the ISA forbids names the broken rule.
#include "descriptor_decoder.hpp"
#include "gui_test_support.hpp"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QMenuBar>
#include <QTableWidget>

#include <gtest/gtest.h>

namespace test_descriptor_decoder {

using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

QString cell(const DescriptorDecoder& d, int row, int col) {
    const QTableWidgetItem* item = d.fieldTable()->item(row, col);
    return item ? item->text() : QString();
}

int rowOf(const DescriptorDecoder& d, const QString& field) {
    for (int row = 0; row < d.fieldTable()->rowCount(); ++row)
        if (cell(d, row, 1) == field)
            return row;
    return -1;
}

// LANEMAP_SCREENSHOT_DIR set: the dialog as a user sees it, for the docs and for a human look.
void screenshot(DescriptorDecoder& d, const char* name) {
    const QByteArray dir = qgetenv("LANEMAP_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        d.grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name)));
}

TEST(DescriptorDecoder, SharedMemoryDescriptorShowsEveryField) {
    DescriptorDecoder d;
    d.show();
    d.setValue(QStringLiteral("0x4000404000010040"));
    ASSERT_EQ(d.fieldTable()->rowCount(), 10);
    const int start = rowOf(d, QStringLiteral("matrix start address"));
    ASSERT_GE(start, 0);
    EXPECT_EQ(cell(d, start, 0), QStringLiteral("[13..0]"));
    EXPECT_TRUE(cell(d, start, 3).startsWith(QStringLiteral("1024 bytes")))
        << cell(d, start, 3).toStdString();
    EXPECT_TRUE(cell(d, rowOf(d, QStringLiteral("swizzling mode")), 3).contains(QStringLiteral("128-byte")));
    EXPECT_TRUE(d.valid());
    EXPECT_TRUE(d.status().contains(QStringLiteral("valid: no rule broken")));
    screenshot(d, "tcgen05-decoder-smem.png");
}

TEST(DescriptorDecoder, AWgmmaDescriptorNamesTheVersionBits) {
    DescriptorDecoder d;
    d.setValue(QStringLiteral("0x4000004000010040"));
    EXPECT_FALSE(d.valid());
    EXPECT_TRUE(d.status().contains(QStringLiteral("version"))) << d.status().toStdString();
    d.setValue(QStringLiteral("not hex"));
    EXPECT_EQ(d.fieldTable()->rowCount(), 0);
    EXPECT_TRUE(d.status().contains(QStringLiteral("64-bit hex value")));
}

TEST(DescriptorDecoder, InstructionDescriptorReadsPerKindAndForm) {
    DescriptorDecoder d;
    d.show();
    d.setDescriptorType(1);
    d.setKind(QStringLiteral("f16"));
    d.setValue(QStringLiteral("08400490"));
    EXPECT_TRUE(d.valid()) << d.status().toStdString();
    EXPECT_TRUE(d.status().contains(QStringLiteral("M = 128, N = 256, K = 16")));
    EXPECT_EQ(cell(d, rowOf(d, QStringLiteral("atype (matrix A type)")), 3), QStringLiteral(".bf16"));
    // The same bits as kind::mxf8f6f4: bits 5-4 are the B scale-factor ID, bit 23 the scale type.
    d.setKind(QStringLiteral("mxf8f6f4"));
    EXPECT_GE(rowOf(d, QStringLiteral("matrix B scale factor data ID")), 0);
    EXPECT_LT(rowOf(d, QStringLiteral("dtype (matrix D type)")), 0);
    // M = 256 with kind::f16 needs cta_group::2: the form picker changes the verdict.
    d.setKind(QStringLiteral("f16"));
    d.setValue(QStringLiteral("0x10400490"));
    EXPECT_TRUE(d.valid()) << d.status().toStdString();
    auto* form = d.findChild<QComboBox*>(QStringLiteral("ctaGroup"));
    ASSERT_NE(form, nullptr);
    form->setCurrentIndex(1); // cta_group::1
    EXPECT_FALSE(d.valid());
    EXPECT_TRUE(d.status().contains(QStringLiteral("M: 256 is not an M"))) << d.status().toStdString();
    form->setCurrentIndex(2);
    EXPECT_TRUE(d.valid());
    form->setCurrentIndex(0);
    d.setValue(QStringLiteral("0x08400490"));
    screenshot(d, "tcgen05-decoder-idesc.png");
}

TEST(DescriptorDecoder, ToolsMenuOpensOneDecoder) {
    Window w;
    QAction* open = nullptr;
    for (QAction* a : w->menuBar()->findChildren<QAction*>())
        if (a->text().contains(QStringLiteral("Decode descriptor")))
            open = a;
    ASSERT_NE(open, nullptr);
    open->trigger();
    open->trigger();
    const auto decoders = w->findChildren<DescriptorDecoder*>();
    ASSERT_EQ(decoders.size(), 1);
    EXPECT_TRUE(decoders.front()->isVisible());
}

} // namespace

} // namespace test_descriptor_decoder
