// Issue 38, the app does only what you ask: the filter opens nothing unasked and finds tcgen05 shapes,
// compare ends where it cannot apply, Copy image and Export PNG take the comparison, Copy as the whole atom.
#include "gui_test_support.hpp"

#include "catalog_model.hpp"
#include "catalog_panel.hpp"
#include "theme.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTreeView>

#include <gtest/gtest.h>

namespace test_issue38_asked {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

QStringList recentLabels(const MainWindow& w) {
    QStringList labels;
    if (const auto* recent = w.findChild<QMenu*>(QStringLiteral("recentMenu")))
        for (const QAction* a : recent->actions())
            labels << a->text();
    return labels;
}

// 1. Typing filters; it opens nothing the text does not name, and history holds only what was opened.
TEST(Issue38, TypingInTheFilterOpensNothingItDoesNotName) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    ASSERT_TRUE(w->openSpec(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16")));
    const QString opened = w->currentSpec();
    const QStringList recent = recentLabels(*w);
    w->findChild<CatalogPanel*>()->focusFilter();
    auto* filter = named<QLineEdit>(*w, "filter");
    QTest::keyClicks(filter, QStringLiteral("mma.s"));
    EXPECT_EQ(w->currentSpec(), opened) << "typing a search must not switch the instruction";
    EXPECT_EQ(recentLabels(*w), recent) << "nothing entered Recent";
    // The tree marks no other row as the one open.
    const QModelIndex current = named<QTreeView>(*w, "catalogTree")->currentIndex();
    EXPECT_TRUE(!current.isValid() || current.data(CatalogModel::SpecRole).toString() == w->currentSpec())
        << current.data(CatalogModel::SpecRole).toString().toStdString();
    // Back goes to what was opened before, not to something the filter passed over.
    w->goBack();
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k16.f16"));
    // Text naming exactly one instruction opens it.
    filter->setText(QStringLiteral("mma.m16n8k8.tf32"));
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k8.tf32"));
}

// 7. The filter finds tcgen05.mma shapes the N box reaches, and opens the entry at that N.
TEST(Issue38, TheFilterFindsTcgen05ShapesAndOpensThemAtThatN) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    auto* filter = named<QLineEdit>(*w, "filter");
    auto* model = w->findChild<CatalogPanel*>()->filterModel();
    filter->setText(QStringLiteral("tcgen05 m128n16"));
    EXPECT_GT(model->matchingVariants(), 0) << "m128n16 is a shape of the m128 entries";
    EXPECT_TRUE(named(*w, "filterHint")->isHidden()) << named(*w, "filterHint")->text().toStdString();
    filter->setText(QStringLiteral("tcgen05.mma m128n16"));
    EXPECT_GT(model->matchingVariants(), 0);
    EXPECT_TRUE(named(*w, "filterError")->isHidden()) << "a search, not an error";
    emit filter->returnPressed(); // Enter: the first match, at N = 16
    ASSERT_NE(w->instruction(), nullptr);
    EXPECT_TRUE(w->currentSpec().startsWith(QStringLiteral("tcgen05.mma"))) << w->currentSpec().toStdString();
    EXPECT_EQ(tensorShape(*w).n, 16) << w->currentSpec().toStdString();
    EXPECT_EQ(tensorShape(*w).m, 128);
}

// 4. Compare ends, and says so, when the instance shown has no operand the partner has; the clear button
// ends it; Copy image and Export PNG include the comparison, Export SVG says it does not.
TEST(Issue38, CompareEndsWithAMessageWhereItsOperandDoesNotExist) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16")));
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    ASSERT_TRUE(w->setCompare(QStringLiteral("mma.m16n8k8.f16")));
    ASSERT_NE(compareView(*w, 0), nullptr);
    w->goBack(); // onto the tcgen05.mma: its A and D are in Tensor Memory
    QApplication::processEvents();
    EXPECT_TRUE(w->currentSpec().startsWith(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16")))
        << w->currentSpec().toStdString();
    EXPECT_EQ(w->viewState()->compareInstance(), nullptr) << "compare ended";
    EXPECT_EQ(compareView(*w, 0), nullptr);
    EXPECT_FALSE(comparePage(*w)->isVisible()) << "the panes are shown again";
    EXPECT_TRUE(w->statusBar()->currentMessage().contains(QStringLiteral("Compare ended")))
        << w->statusBar()->currentMessage().toStdString();
    EXPECT_TRUE(named<QLineEdit>(*w, "compare")->text().isEmpty());
    // Asked for directly: refused with why, nothing compared.
    QString error;
    EXPECT_FALSE(w->setCompare(QStringLiteral("mma.m16n8k8.f16"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("no operand in common"))) << error.toStdString();
    EXPECT_EQ(w->viewState()->compareInstance(), nullptr);
}

TEST(Issue38, TheClearButtonEndsCompare) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    auto* edit = named<QLineEdit>(*w, "compare");
    edit->setText(QStringLiteral("mma.m16n8k8.f16"));
    emit edit->editingFinished();
    ASSERT_NE(w->viewState()->compareInstance(), nullptr);
    edit->clear(); // what the × does
    EXPECT_EQ(w->viewState()->compareInstance(), nullptr) << "no Enter needed";
    EXPECT_EQ(compareView(*w, 0), nullptr);
}

TEST(Issue38, CopyImageAndExportPngIncludeTheComparison) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    QApplication::clipboard()->setImage(QImage()); // nothing from an earlier test
    w->copyImage();
    const QSize alone = QApplication::clipboard()->image().size();
    ASSERT_FALSE(alone.isEmpty());
    ASSERT_TRUE(w->setCompare(QStringLiteral("mma.m16n8k8.f16")));
    w->copyImage();
    const QImage compared = QApplication::clipboard()->image();
    EXPECT_TRUE(w->statusBar()->currentMessage().contains(QStringLiteral("comparison")))
        << w->statusBar()->currentMessage().toStdString();
    // Two A operands side by side, with their differences in the compare colour.
    ASSERT_FALSE(compared.isNull());
    const QColor diff = viewColors(w->theme()).diff;
    int marked = 0;
    for (int y = 0; y < compared.height(); y += 2)
        for (int x = 0; x < compared.width(); x += 2) {
            const QColor px = compared.pixelColor(x, y);
            marked += std::abs(px.red() - diff.red()) + std::abs(px.green() - diff.green()) +
                          std::abs(px.blue() - diff.blue()) <
                      30;
        }
    EXPECT_GT(marked, 50) << "the differing positions are marked";
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("x.png"));
    ASSERT_TRUE(w->exportPng(png));
    EXPECT_EQ(QImage(png).size(), compared.size()) << "Export PNG writes the comparison too";
}

// 9. Copy as copies the whole atom, as the CLI exports it, and says which operands.
TEST(Issue38, CopyAsCopiesTheWholeAtomAndSaysSo) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    view(*w, Operand::B)->setFocus(); // where the focus is does not matter
    QApplication::processEvents();
    for (const char* name : {"actionCopyAs0", "actionCopyAs1", "actionCopyAs3"}) {
        QApplication::clipboard()->clear();
        w->findChild<QAction*>(QString::fromLatin1(name))->trigger();
        const QString text = QApplication::clipboard()->text();
        EXPECT_FALSE(text.isEmpty()) << name;
        EXPECT_TRUE(w->statusBar()->currentMessage().contains(QStringLiteral("A, B, C, D")))
            << name << ": " << w->statusBar()->currentMessage().toStdString();
        if (std::string(name) == "actionCopyAs3") { // Markdown: a table per operand
            for (const QString& op : {QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("D")})
                EXPECT_TRUE(text.contains(QStringLiteral("#### ") + op)) << op.toStdString();
        }
        if (std::string(name) == "actionCopyAs1") { // Triton: every operand
            EXPECT_TRUE(text.contains(QStringLiteral("\"operand\":\"A\"")) &&
                        text.contains(QStringLiteral("\"operand\":\"D\"")))
                << text.left(300).toStdString();
        }
    }
}

} // namespace
} // namespace test_issue38_asked
