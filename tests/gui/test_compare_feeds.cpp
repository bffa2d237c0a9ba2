// The app's Compare with a TMA box shown and the wgmma that reads it (docs/tma.md#feeds): the two drawn side
// by side in shared memory, the verdict and first difference above them, the differing cells marked.
#include "gui_test_support.hpp"

#include <QLabel>

#include <gtest/gtest.h>

namespace test_compare_feeds {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

TEST(CompareFeeds, ABoxAndItsWgmmaReaderShowSideBySideInSharedMemory) {
    Window w;
    ASSERT_TRUE(
        w->openSpec(QStringLiteral("cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B")));
    w->viewState()->setCompareOperand(Operand::A);
    QString error;
    ASSERT_TRUE(w->setCompare(QStringLiteral("wgmma.m64n64k16.f16"), &error)) << error.toStdString();
    DiagramView* left = compareView(*w, 0);
    DiagramView* right = compareView(*w, 1);
    ASSERT_TRUE(left && right);
    auto* summary = w->findChild<QLabel*>(QStringLiteral("compareSummary"));
    ASSERT_NE(summary, nullptr);
    EXPECT_TRUE(summary->text().contains(QStringLiteral("feeds: yes"))) << summary->text().toStdString();
    EXPECT_EQ(comparePage(*w)->differences(), 0);
    for (const DiagramView* v : {left, right})
        EXPECT_TRUE(
            std::none_of(v->marks().diff.begin(), v->marks().diff.end(), [](auto m) { return m != 0; }));

    // The reader is drawn as lanemap draws wgmma by default, K-major 128B: a box with the 64B swizzle
    // differs, first at byte 128 (the box's row 2 is where the reader wants row 1), and the cells are marked.
    ASSERT_TRUE(
        w->openSpec(QStringLiteral("cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x32 swizzle=64B")));
    ASSERT_TRUE(w->setCompare(QStringLiteral("wgmma.m64n64k16.f16"), &error)) << error.toStdString();
    EXPECT_TRUE(summary->text().contains(QStringLiteral("first difference at byte 128")))
        << summary->text().toStdString();
    EXPECT_GT(comparePage(*w)->differences(), 0);
    left = compareView(*w, 0);
    ASSERT_NE(left, nullptr);
    EXPECT_TRUE(
        std::any_of(left->marks().diff.begin(), left->marks().diff.end(), [](auto m) { return m != 0; }));
}

TEST(CompareFeeds, APartnerThatReadsNoSharedMemoryIsStillRefused) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64")));
    QString error;
    EXPECT_FALSE(w->setCompare(QStringLiteral("mma.m16n8k16.f16"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("no operand in common"))) << error.toStdString();
}

TEST(CompareFeeds, TypingAnotherBoxOfTheSameRankOpensIt) {
    // The filter box took a second box of cp.async.bulk.tensor.2d for "what is open already" and kept the
    // first.
    Window w;
    ASSERT_TRUE(
        w->openSpec(QStringLiteral("cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B")));
    ASSERT_TRUE(
        w->openSpec(QStringLiteral("cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x32 swizzle=64B")));
    const Placement* shared = w->viewState()->instance()->placement(Space::SharedMemory, Operand::D);
    ASSERT_NE(shared, nullptr);
    EXPECT_EQ(shared->cols(), 32);
    ASSERT_TRUE(w->viewState()->selection().params.smem);
    EXPECT_EQ(w->viewState()->selection().params.smem->swizzle, smem::Swizzle::B64);
}

} // namespace test_compare_feeds
