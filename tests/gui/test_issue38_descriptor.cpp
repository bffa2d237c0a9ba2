// Issue 38, the shared-memory story: the wgmma matrix descriptor decoded in the pane (with Copy) and in
// the descriptor decoder's wgmma (sm_90) mode.
#include "gui_test_support.hpp"

#include "descriptor_decoder.hpp"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QTableWidget>
#include <QToolButton>

#include "lanemap/smem.hpp"

#include <gtest/gtest.h>

namespace test_issue38_descriptor {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// 3. The wgmma descriptor is decoded in the shared-memory pane (with a Copy button), and the decoder has a
// wgmma (sm_90) mode.
TEST(Issue38, TheSharedMemoryPaneDecodesTheWgmmaDescriptor) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n256k16.f16")));
    ASSERT_TRUE(openWith(*w, [](Params& p) { p.smem = smem::Choice{smem::Major::MN, smem::Swizzle::B64}; }));
    const smem::SharedOperand* tile = paneOf<SharedMemoryPane>(*w)->tile();
    ASSERT_NE(tile, nullptr);
    const smem::MatrixDescriptor d = tile->layout.descriptor();
    const QString note = named(*w, "smemNote")->text();
    for (const QString& field :
         {QStringLiteral("start"), QStringLiteral("LBO"), QStringLiteral("SBO"),
          QStringLiteral("base offset"), QStringLiteral("64B"), QStringLiteral("Swizzle&lt;2,4,3&gt; o")})
        EXPECT_TRUE(note.contains(field)) << field.toStdString() << " in " << note.toStdString();
    EXPECT_TRUE(note.contains(QStringLiteral("SBO %1 B").arg(d.strideByteOffset))) << note.toStdString();
    auto* copy = named<QToolButton>(*w, "smemCopyDescriptor");
    ASSERT_NE(copy, nullptr);
    QApplication::clipboard()->clear();
    copy->click();
    const QString copied = QApplication::clipboard()->text();
    EXPECT_TRUE(copied.contains(QString::fromStdString(smem::hex(tile->layout.encodedDescriptor()))))
        << copied.toStdString();
    EXPECT_TRUE(
        copied.contains(QStringLiteral("[45..32] stride byte offset: %1 bytes").arg(d.strideByteOffset)))
        << copied.toStdString();
    EXPECT_TRUE(copied.contains(QStringLiteral("layout: Swizzle<2,4,3> o"))) << copied.toStdString();
}

TEST(Issue38, TheDescriptorDecoderHasAWgmmaMode) {
    DescriptorDecoder decoder;
    decoder.setValue(QStringLiteral("0x8000010000200000")); // wgmma m64n256k16 B, MN-major, 64B
    decoder.setDescriptorType(0);
    EXPECT_TRUE(decoder.status().contains(QStringLiteral("wgmma"))) << "a tcgen05 decode points at wgmma";
    decoder.setDescriptorType(2);
    EXPECT_TRUE(decoder.valid()) << decoder.status().toStdString();
    QStringList rows;
    for (int r = 0; r < decoder.fieldTable()->rowCount(); ++r)
        rows << decoder.fieldTable()->item(r, 0)->text() + QLatin1Char(' ') +
                    decoder.fieldTable()->item(r, 1)->text() + QStringLiteral(": ") +
                    decoder.fieldTable()->item(r, 3)->text();
    const QString all = rows.join(QLatin1Char('\n'));
    EXPECT_TRUE(all.contains(QStringLiteral("[29..16] leading byte offset: 512 bytes"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("[45..32] stride byte offset: 4096 bytes"))) << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("[63..62] swizzle: 2: 64B"))) << all.toStdString();
    // A reserved bit set is a rule broken, named.
    decoder.setValue(QStringLiteral("0x8000010000208000"));
    EXPECT_FALSE(decoder.valid());
    EXPECT_TRUE(decoder.status().contains(QStringLiteral("[15..14]"))) << decoder.status().toStdString();
}

} // namespace
} // namespace test_issue38_descriptor
