// The Tensor Memory pane as a user meets it: the spec's N sizes the grid, the pane opens composed with the
// epilogue's tcgen05.ld, hovering D[m][n] lights and frames the register that holds it (and the reverse), the
// ld combo offers exactly the accesses that compose, and the titles name Tensor Memory's axes.
#include "details_panel.hpp"
#include "opened_at.hpp"
#include "pane_frame.hpp"
#include "view_state.hpp"

#include "lanemap/diagram_tmem.hpp"
#include "lanemap/tmem.hpp"

#include <QApplication>
#include <QComboBox>
#include <QLabel>

#include <gtest/gtest.h>

#include <set>

namespace test_tcgen05_composed_gui {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

const QString kSpec = QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n64");

// A box of the window by name: the header's "instructionN", the Tensor Memory pane's "tmemAccess", ...
QComboBox* box(const OpenedAt& w, const char* name) {
    return w.window->findChild<QComboBox*>(QString::fromLatin1(name));
}

// The access an item of the access box composes with; nullopt for "none".
std::optional<tmem::Access> accessAt(const QComboBox* box, int i) {
    const QVariant data = box->itemData(i);
    return data.isValid() ? std::optional(data.value<tmem::Access>()) : std::nullopt;
}

const DiagramPanel* panelOf(const Diagram& d, PanelKind kind) {
    for (const DiagramPanel& p : d.panels)
        if (p.kind == kind && (p.name == "D" || p.name == "A"))
            return &p;
    return nullptr;
}

TEST(Tcgen05Composed, TheSpecsNSizesTheGrid) {
    OpenedAt w(QSize(1280, 720), kSpec);
    DiagramView* view = tensorMemoryView(*w.window);
    ASSERT_NE(view, nullptr);
    const DiagramPanel* t = panelOf(*view->diagram(), PanelKind::TensorMemory);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->cols, 64) << "N = 64 from the spec, not the form's largest N";
    EXPECT_EQ(t->cellCount, 128u * 64u);
    ASSERT_NE(box(w, "instructionN"), nullptr);
    EXPECT_EQ(box(w, "instructionN")->currentData().toInt(), 64);
    // Another N of the same entry, typed: the grid follows.
    ASSERT_TRUE(w.window->openSpec(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n16")));
    QApplication::processEvents();
    t = panelOf(*view->diagram(), PanelKind::TensorMemory);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->cols, 16);
    EXPECT_EQ(box(w, "instructionN")->currentData().toInt(), 16);
    // Picked in the N box.
    QComboBox* nBox = box(w, "instructionN");
    nBox->setCurrentIndex(nBox->findData(32));
    emit nBox->activated(nBox->currentIndex());
    QApplication::processEvents();
    view = tensorMemoryView(*w.window);
    EXPECT_EQ(panelOf(*view->diagram(), PanelKind::TensorMemory)->cols, 32);
}

TEST(Tcgen05Composed, HoveringDLightsTheRegisterHoldingItAndTheReverse) {
    OpenedAt w(QSize(1920, 1080), kSpec);
    DiagramView* view = tensorMemoryView(*w.window);
    ASSERT_NE(view, nullptr);
    const Diagram& d = *view->diagram();
    ASSERT_TRUE(w.window->instruction()->params.access);
    EXPECT_EQ(tmem::specOf(*w.window->instruction()->params.access), "tcgen05.ld.32x32b.x32")
        << "opens composed with the epilogue's load";
    // D(37,40): lane 37, column 40 -> warp 1, lane 5, the second access (columns 32..63), register 8.
    const int dCell = elementCell(d, PanelKind::TensorMemory, 37, 40);
    const int rCell = elementCell(d, PanelKind::TensorMemoryRegisters, 37, 40);
    ASSERT_GE(dCell, 0);
    ASSERT_GE(rCell, 0);
    const DiagramCell& rc = d.cells[static_cast<std::size_t>(rCell)];
    EXPECT_EQ(rc.row, 37) << "thread 37 of the warpgroup";
    EXPECT_EQ(rc.col, 32 + 8) << "access #1, r8";

    hoverInView(view, dCell);
    EXPECT_EQ(view->hoverCell(), dCell);
    EXPECT_EQ(w.window->viewState()->hoveredLane(), 37) << "the holding thread, through the shared state";
    EXPECT_EQ(view->partnerCell(), rCell) << "the register cell is framed";
    const auto lit = d.cellsOfThread(w.window->viewState()->hoveredLane());
    EXPECT_NE(std::find(lit.begin(), lit.end(), static_cast<std::uint32_t>(rCell)), lit.end());
    const QLabel* status = w.window->findChild<QLabel*>(QStringLiteral("hoverStatus"));
    ASSERT_NE(status, nullptr);
    EXPECT_EQ(status->text(),
              QString::fromUtf8("D(37,40) \u00b7 CTA 0 lane 37 column 40 \u00b7 held by warp 1 "
                                "lane 5 r8[31..0]"))
        << "the hover line names both sides";

    hoverInView(view, rCell);
    EXPECT_EQ(view->hoverCell(), rCell);
    EXPECT_EQ(w.window->viewState()->hoveredLane(), 37);
    EXPECT_EQ(view->partnerCell(), dCell) << "the reverse: the register frames its Tensor Memory cell";
}

// The Cell dock describes a Tensor Memory cell as the hover line does (it stayed empty), and copies it.
TEST(Tcgen05Composed, TheCellDockDescribesTensorMemoryCells) {
    OpenedAt w(QSize(1920, 1080), kSpec);
    DiagramView* view = tensorMemoryView(*w.window);
    ASSERT_NE(view, nullptr);
    const int dCell = elementCell(*view->diagram(), PanelKind::TensorMemory, 37, 40);
    ASSERT_GE(dCell, 0);
    hoverInView(view, dCell);
    const CellInfo& info = details(*w.window)->cell();
    ASSERT_TRUE(info.valid) << "a Tensor Memory cell is described";
    const QString shown = details(*w.window)->shownText();
    EXPECT_TRUE(shown.contains(QString::fromUtf8("D(37,40) \u00b7 CTA 0 lane 37 column 40")))
        << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("held by warp 1 lane 5 r8[31..0]"))) << shown.toStdString();
    EXPECT_TRUE(info.toPlainText().startsWith(QString::fromStdString(std::string("tcgen05.mma"))))
        << info.toPlainText().toStdString();
}

TEST(Tcgen05Composed, TheLdComboListsExactlyTheAccessesThatCompose) {
    OpenedAt w(QSize(1280, 720), kSpec);
    QComboBox* access = box(w, "tmemAccess");
    ASSERT_NE(access, nullptr);
    const tmem::MmaShape shape = tensorShape(*w.window);
    std::set<QString> listed, valid;
    for (int i = 0; i < access->count(); ++i)
        if (const std::optional<tmem::Access> a = accessAt(access, i))
            listed.insert(QString::fromStdString(tmem::specOf(*a)));
    for (const tmem::Shape s : tmem::kShapes)
        for (const int num : tmem::validNums(s))
            for (const bool packed : {false, true}) {
                const tmem::Access a{tmem::Op::Ld, s, num, packed};
                if (tmem::validateComposition(shape, a).empty())
                    valid.insert(QString::fromStdString(tmem::specOf(a)));
            }
    EXPECT_EQ(listed, valid);
    EXPECT_EQ(tmem::specOf(*accessAt(access, access->currentIndex())), "tcgen05.ld.32x32b.x32");
    EXPECT_TRUE(access->currentText().contains(QStringLiteral("epilogue default")));

    // Picking a 16-lane shape recomposes the picture.
    access->setCurrentIndex(
        access->findData(QVariant::fromValue(tmem::Access{tmem::Op::Ld, tmem::Shape::S16x256b, 2})));
    ASSERT_GE(access->currentIndex(), 0);
    emit access->activated(access->currentIndex());
    QApplication::processEvents();
    const Diagram& d = *tensorMemoryView(*w.window)->diagram();
    const DiagramPanel* r = panelOf(d, PanelKind::TensorMemoryRegisters);
    ASSERT_NE(r, nullptr);
    EXPECT_NE(r->title.find("16x256b.x2"), std::string::npos);
    const int rCell = elementCell(d, PanelKind::TensorMemoryRegisters, 37, 40);
    const tmem::Holder h = tmem::whoHoldsD(shape, {tmem::Op::Ld, tmem::Shape::S16x256b, 2}, 37, 40);
    EXPECT_EQ(d.cells[static_cast<std::size_t>(rCell)].row, h.warp * 32 + h.thread);

    // "none": D alone.
    access->setCurrentIndex(0);
    emit access->activated(0);
    QApplication::processEvents();
    EXPECT_EQ(panelOf(*tensorMemoryView(*w.window)->diagram(), PanelKind::TensorMemoryRegisters), nullptr);
}

TEST(Tcgen05Composed, AInTensorMemoryComposesWithAStore) {
    OpenedAt w(QSize(1280, 720), kSpec);
    QString error;
    ASSERT_TRUE(openWith(
        *w.window,
        [](Params& p) {
            p.n = 64;
            p.tensorOperand = Operand::A;
            p.access = tmem::Access{tmem::Op::St, tmem::Shape::S32x32b, 8};
        },
        &error))
        << error.toStdString();
    const Diagram& d = *tensorMemoryView(*w.window)->diagram();
    const DiagramPanel* t = panelOf(d, PanelKind::TensorMemory);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->operands, OperandSet(Operand::A));
    EXPECT_EQ(t->elementBits, 16);
    for (int i = 0; i < box(w, "tmemAccess")->count(); ++i) {
        const std::optional<tmem::Access> item = accessAt(box(w, "tmemAccess"), i);
        EXPECT_TRUE(!item || item->op == tmem::Op::St) << box(w, "tmemAccess")->itemText(i).toStdString();
    }
    // A layout without an A model refuses, naming why, and leaves the view as it was.
    ASSERT_TRUE(w.window->openSpec(QStringLiteral("tcgen05.mma.cta_group::2.kind::f16.m128n64")));
    EXPECT_FALSE(openWith(
        *w.window,
        [](Params& p) {
            p.n = 64;
            p.tensorOperand = Operand::A;
            p.access.reset();
        },
        &error));
    EXPECT_TRUE(error.contains(QStringLiteral("layouts A, D and F"))) << error.toStdString();
    EXPECT_EQ(w.window->instruction()->params.tensorOperand, Operand::D);
}

TEST(Tcgen05Composed, PaneTitlesNameTensorMemorysAxes) {
    OpenedAt w(QSize(1920, 1080), kSpec);
    PaneFrame* frame = paneOf<TensorMemoryPane>(*w.window);
    ASSERT_NE(frame, nullptr);
    const QString title = frame->title()->toolTip() + frame->title()->text();
    EXPECT_TRUE(title.contains(QStringLiteral("TMEM lane"))) << title.toStdString();
    EXPECT_TRUE(title.contains(QStringLiteral("register"))) << title.toStdString();
    EXPECT_FALSE(title.contains(QStringLiteral("rows M"))) << title.toStdString();

    // A tcgen05.ld entry: its fragment's rows and columns are TMEM lanes and columns, not M and N.
    ASSERT_TRUE(w.window->openSpec(QStringLiteral("tcgen05.ld.16x256b.x8")));
    QApplication::processEvents();
    PaneFrame* d = registersPane(*w.window, Operand::D);
    ASSERT_NE(d, nullptr);
    const QString ld = d->title()->toolTip() + d->title()->text();
    EXPECT_TRUE(ld.contains(QStringLiteral("TMEM lane"))) << ld.toStdString();
    EXPECT_FALSE(ld.contains(QStringLiteral("rows M"))) << ld.toStdString();
}

} // namespace test_tcgen05_composed_gui
