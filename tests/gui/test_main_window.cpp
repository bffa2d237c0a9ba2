// The window as a user drives it: open an instruction, hover, click, keyboard, lane filter, compare.
#include "gui_test_support.hpp"
#include "synthetic.hpp"

#include "catalog_model.hpp"
#include "catalog_panel.hpp"
#include "details_panel.hpp"
#include "legend_bar.hpp"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QScrollBar>
#include <QStatusBar>
#include <QToolButton>
#include <QTreeView>
#include <QWheelEvent>

#include <gtest/gtest.h>

namespace test_main_window {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

CatalogFilterModel* filterModel(const Window& w) {
    return w->findChild<CatalogPanel*>()->filterModel();
}

std::size_t cellCount(const DiagramView* view) {
    return view && view->diagram() ? view->diagram()->cells.size() : 0;
}

TEST(MainWindow, SelectingASpecShowsItsPanesAndCells) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    EXPECT_EQ(paneLabels(*w), (QStringList{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C/D")}));
    EXPECT_EQ(cellCount(view(*w, Operand::A)), 16u * 16u);
    EXPECT_EQ(cellCount(view(*w, Operand::B)), 16u * 8u);
    EXPECT_EQ(cellCount(view(*w, kAccumulator)), 16u * 8u);
    EXPECT_EQ(view(*w, Operand::Metadata, DiagramPart::Grids), nullptr);
    EXPECT_FALSE(named<QComboBox>(*w, "selector")->isEnabled())
        << "a dense instruction has no sparsity selector";
    EXPECT_TRUE(w->windowTitle().startsWith(QStringLiteral("mma.m16n8k16.f16")));
    // The tree follows.
    EXPECT_EQ(named<QTreeView>(*w, "catalogTree")->currentIndex().data(CatalogModel::SpecRole).toString(),
              QStringLiteral("mma.m16n8k16.f16"));

    // Volta quad-pairs: four products, and C (f16) differs from D (f32): one pane with a row of A | B | C |
    // D per product, as the SVG draws them.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m8n8k4.row.col.f16.f16.f32")));
    EXPECT_EQ(paneLabels(*w), QStringList{QStringLiteral("products")});
    EXPECT_EQ(view(*w, OperandSet{})->diagram()->panels.size(), 4u * 4u);
    EXPECT_EQ(cellCount(view(*w, OperandSet{})), 4u * (8u * 4u + 4u * 8u + 8u * 8u + 8u * 8u));

    // A bad spec leaves the view alone and says why.
    QString error;
    EXPECT_FALSE(w->openSpec(QStringLiteral("mma.m16n8k16.tf32"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("valid types"))) << error.toStdString();
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m8n8k4.row.col.f16.f16.f32"));
}

TEST(MainWindow, ClickingATreeLeafOpensIt) {
    Window w;
    const QModelIndex source =
        w->findChild<CatalogPanel*>()->model()->indexOfSpec(QStringLiteral("mma.m16n8k8.tf32"));
    const QModelIndex idx = filterModel(w)->mapFromSource(source);
    ASSERT_TRUE(idx.isValid());
    named<QTreeView>(*w, "catalogTree")->setCurrentIndex(idx);
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k8.tf32"));
    EXPECT_EQ(cellCount(view(*w, Operand::A)), 16u * 8u);
}

TEST(MainWindow, FilterBoxAcceptsAPtxStringAndShowsParseErrors) {
    Window w;
    named<QLineEdit>(*w, "filter")
        ->setText(QStringLiteral("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"));
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k16.bf16"));
    EXPECT_TRUE(named(*w, "filterError")->isHidden());
    EXPECT_EQ(filterModel(w)->matchingVariants(), 1);

    named<QLineEdit>(*w, "filter")
        ->setText(QStringLiteral("mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32"));
    EXPECT_FALSE(named(*w, "filterError")->isHidden());
    EXPECT_TRUE(named(*w, "filterError")->text().contains(QStringLiteral("invalid spec")))
        << named(*w, "filterError")->text().toStdString();
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k16.bf16"))
        << "an invalid string must not change the view";

    named<QLineEdit>(*w, "filter")->clear();
    EXPECT_TRUE(named(*w, "filterError")->isHidden());
}

// The filter box parsed only mma/wgmma text: a tcgen05 spec with its N (or a pasted tcgen05 or ldmatrix
// instruction) matched nothing and Enter opened nothing.
TEST(MainWindow, FilterBoxOpensAnyFamilysInstructionATcgen05MmaAtItsN) {
    Window w;
    named<QLineEdit>(*w, "filter")->setText(QStringLiteral("tcgen05.mma.sp.cta_group::1.kind::mxf4.m128n32"));
    EXPECT_EQ(w->currentSpec(), QStringLiteral("tcgen05.mma.sp.cta_group::1.kind::mxf4.m128"));
    EXPECT_TRUE(named(*w, "filterError")->isHidden()) << named(*w, "filterError")->text().toStdString();
    EXPECT_EQ(filterModel(w)->matchingVariants(), 1);
    DiagramView* tmem = tensorMemoryView(*w);
    ASSERT_NE(tmem, nullptr);
    ASSERT_NE(tmem->diagram(), nullptr);
    EXPECT_EQ(tmem->diagram()->panels.front().cols, 32) << "D drawn at the N typed";
    named<QLineEdit>(*w, "filter")
        ->setText(QStringLiteral("tcgen05.ld.sync.aligned.16x256b.x8.b32 {r0, r1}, [taddr];"));
    EXPECT_EQ(w->currentSpec(), QStringLiteral("tcgen05.ld.16x256b.x8"));
    named<QLineEdit>(*w, "filter")
        ->setText(QStringLiteral("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {r0, r1, r2, r3}, [p];"));
    EXPECT_TRUE(w->currentSpec().startsWith(QStringLiteral("ldmatrix.m8n8.x4")))
        << w->currentSpec().toStdString();
    named<QLineEdit>(*w, "filter")->setText(QStringLiteral("tcgen05"));
    EXPECT_TRUE(named(*w, "filterError")->isHidden()) << "a family's name alone is a search, not a bad spec";
    EXPECT_GT(filterModel(w)->matchingVariants(), 200);
}

TEST(MainWindow, HoverShowsDetailsAndLightsTheLaneInEveryPane) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* a = view(*w, Operand::A);
    // §9.7.14.5.8: row 9, col 3 of A is a3 of lane 5 (groupID 1 + 8, threadID_in_group 1): register 1,
    // bits 16..31.
    const int cell = cellAt(a, 9, 3);
    ASSERT_GE(cell, 0);
    hover(a, cell);
    EXPECT_EQ(a->hoverCell(), cell);
    const CellInfo& info = details(*w)->cell();
    ASSERT_TRUE(info.valid);
    ASSERT_EQ(info.owners.size(), 1u);
    EXPECT_EQ(info.owners[0].lane, 5);
    EXPECT_EQ(info.owners[0].element, QStringLiteral("a3"));
    EXPECT_EQ(info.owners[0].reg, 1);
    EXPECT_EQ(info.owners[0].bitLo, 16);
    EXPECT_EQ(info.owners[0].bitHi, 31);
    EXPECT_EQ(info.row, 9);
    EXPECT_EQ(info.col, 3);
    EXPECT_EQ(info.section, QStringLiteral("9.7.14.5.8"));
    const QString shown = details(*w)->shownText();
    EXPECT_TRUE(shown.contains(QStringLiteral("a3"))) << shown.toStdString();
    EXPECT_TRUE(shown.contains(QStringLiteral("[31..16]"))) << shown.toStdString();
    // One bit-range notation everywhere (issue 14.12): the diagram's tooltip, the CLI and the SVG write
    // [hi..lo].
    EXPECT_FALSE(shown.contains(QStringLiteral("16–31"))) << shown.toStdString();
    // Lane 5 is lit everywhere: 8 elements of A, 4 of B, 4 of C/D.
    for (DiagramView* v : views(*w))
        EXPECT_EQ(v->highlightThread(), 5) << v->objectName().toStdString();
    EXPECT_EQ(a->litCellCount(), 8);
    EXPECT_EQ(view(*w, Operand::B)->litCellCount(), 4);
    EXPECT_EQ(view(*w, kAccumulator)->litCellCount(), 4);

    // Copy puts the same facts on the clipboard.
    w->copyCellInfo();
    const QString copied = QApplication::clipboard()->text();
    EXPECT_TRUE(copied.contains(QStringLiteral("lane 5"))) << copied.toStdString();
    EXPECT_TRUE(copied.contains(QStringLiteral("a3, register 1, bits [31..16]"))) << copied.toStdString();

    // Leaving the cells turns the light off.
    QTest::mouseMove(a->viewport(), QPoint(1, 1));
    for (DiagramView* v : views(*w))
        EXPECT_EQ(v->highlightThread(), -1);
}

TEST(MainWindow, ClickPinsALaneAndClickingAgainUnpins) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* b = view(*w, Operand::B);
    const int cell = cellAt(b, 0, 3); // b0 of lane 12 (row t*2, col g)
    ASSERT_GE(cell, 0);
    ASSERT_EQ(b->diagram()->cells[static_cast<std::size_t>(cell)].thread, 12);
    QTest::mouseClick(b->viewport(), Qt::LeftButton, {}, b->cellViewportRect(cell).center());
    EXPECT_EQ(w->viewState()->pinnedLane(), 12);
    for (DiagramView* v : views(*w))
        EXPECT_EQ(v->pinnedThread(), 12);
    QTest::mouseMove(b->viewport(), QPoint(1, 1)); // hover off: the pinned lane stays lit
    EXPECT_EQ(view(*w, Operand::A)->litCellCount(), 8);
    QTest::mouseClick(b->viewport(), Qt::LeftButton, {}, b->cellViewportRect(cell).center());
    EXPECT_EQ(w->viewState()->pinnedLane(), -1);
}

TEST(MainWindow, ArrowsMoveTheCellCursorAndTabMovesBetweenPanes) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* a = view(*w, Operand::A);
    a->setFocus();
    a->setCursorCell(cellAt(a, 0, 0));
    QTest::keyClick(a, Qt::Key_Right);
    QTest::keyClick(a, Qt::Key_Down);
    const int cursor = a->cursorCell();
    ASSERT_GE(cursor, 0);
    EXPECT_EQ(a->diagram()->cells[static_cast<std::size_t>(cursor)].row, 1);
    EXPECT_EQ(a->diagram()->cells[static_cast<std::size_t>(cursor)].col, 1);
    // The cursor drives the details and the lane light like the mouse: (1, 1) is a1 of lane 4.
    EXPECT_EQ(details(*w)->cell().row, 1);
    EXPECT_EQ(details(*w)->cell().owners.at(0).lane, 4);
    EXPECT_EQ(view(*w, kAccumulator)->highlightThread(), 4);
    // Left at column 0 stays put.
    a->setCursorCell(cellAt(a, 5, 0));
    QTest::keyClick(a, Qt::Key_Left);
    EXPECT_EQ(a->cursorCell(), cellAt(a, 5, 0));

    QTest::keyClick(a, Qt::Key_Tab);
    EXPECT_TRUE(view(*w, Operand::B)->hasFocus());
    QTest::keyClick(view(*w, Operand::B), Qt::Key_Tab);
    EXPECT_TRUE(view(*w, kAccumulator)->hasFocus());
    QTest::keyClick(view(*w, kAccumulator), Qt::Key_Backtab);
    EXPECT_TRUE(view(*w, Operand::B)->hasFocus());
}

TEST(MainWindow, LaneFilterGreysOtherLanesAndRejectsBadLists) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    ASSERT_TRUE(w->setLaneFilter(QStringLiteral("0-3,13")));
    const Diagram* d = view(*w, Operand::A)->diagram();
    int lit = 0;
    for (const DiagramCell& c : d->cells) {
        const bool inFilter = c.thread <= 3 || c.thread == 13;
        EXPECT_EQ(c.dimmed, !inFilter);
        lit += !c.dimmed;
    }
    EXPECT_EQ(lit, 5 * 8);
    QString error;
    EXPECT_FALSE(w->setLaneFilter(QStringLiteral("0-40"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("0..31"))) << error.toStdString();
    EXPECT_EQ(w->preferences().laneFilter, QStringLiteral("0-3,13"))
        << "a bad list keeps the last good filter";
    ASSERT_TRUE(w->setLaneFilter(QString()));
    for (const DiagramCell& c : view(*w, Operand::A)->diagram()->cells)
        EXPECT_FALSE(c.dimmed);
}

TEST(MainWindow, ColorByRegisterRecolorsEveryPane) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    w->viewState()->setColorBy(ColorBy::Register);
    for (DiagramView* v : views(*w)) {
        EXPECT_EQ(v->diagram()->colorBy, ColorBy::Register);
        for (const DiagramCell& c : v->diagram()->cells)
            EXPECT_EQ(c.colorKey, static_cast<std::uint32_t>(c.reg));
    }
    EXPECT_EQ(w->preferences().colorBy, ColorBy::Register);
}

TEST(MainWindow, ZoomWithKeysCtrlWheelAndFit) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* a = view(*w, Operand::A);
    ASSERT_TRUE(a->fitting());
    const double fitted = a->zoom();
    a->setFocus();
    QTest::keyClick(a, Qt::Key_Plus);
    EXPECT_NEAR(a->zoom(), fitted * 1.25, 1e-9);
    EXPECT_FALSE(a->fitting());
    QTest::keyClick(a, Qt::Key_Minus);
    QTest::keyClick(a, Qt::Key_Minus);
    EXPECT_NEAR(a->zoom(), fitted * 1.25 * 0.8 * 0.8, 1e-9);
    // Ctrl+wheel zooms under the mouse; a plain wheel scrolls instead.
    const QPoint at = a->viewport()->rect().center();
    QWheelEvent up(at, a->viewport()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                   Qt::ControlModifier, Qt::NoScrollPhase, false);
    const double before = a->zoom();
    QApplication::sendEvent(a->viewport(), &up);
    EXPECT_NEAR(a->zoom(), before * 1.2, 1e-9);
    QTest::keyClick(a, Qt::Key_0);
    EXPECT_TRUE(a->fitting());
    EXPECT_NEAR(a->zoom(), fitted, 1e-9);
    // The window's zoom actions act on every pane.
    w->zoomIn();
    for (DiagramView* v : views(*w))
        EXPECT_FALSE(v->fitting());
    w->fitAll();
    for (DiagramView* v : views(*w))
        EXPECT_TRUE(v->fitting());
}

TEST(MainWindow, LegendFollowsTheColoringAndLightsALane) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    EXPECT_EQ(w->findChild<LegendBar*>()->entryCount(), 32) << "one swatch per lane";
    w->viewState()->setColorBy(ColorBy::Register);
    EXPECT_EQ(w->findChild<LegendBar*>()->entryCount(), 4) << "A's four registers";
    w->viewState()->setColorBy(ColorBy::Lane);
    // Hovering the swatch of lane 7 lights lane 7 in every pane.
    const QPoint swatch = w->findChild<LegendBar*>()->entryRect(7).center();
    QTest::mouseMove(w->findChild<LegendBar*>(), swatch + QPoint(1, 1));
    QTest::mouseMove(w->findChild<LegendBar*>(), swatch);
    for (DiagramView* v : views(*w))
        EXPECT_EQ(v->highlightThread(), 7);
}

TEST(MainWindow, CompareMarksThePositionsHeldDifferently) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    w->viewState()->setCompareOperand(Operand::A);
    ASSERT_TRUE(w->setCompare(QStringLiteral("mma.m16n8k8.f16")));
    DiagramView* left = compareView(*w, 0);
    DiagramView* right = compareView(*w, 1);
    ASSERT_TRUE(left && right);
    EXPECT_EQ(left->diagram()->spec, "mma.m16n8k8.tf32");
    EXPECT_EQ(right->diagram()->spec, "mma.m16n8k8.f16");
    // (0, 0) is a0 of lane 0 in both; (0, 1) is a0 of lane 1 in tf32 but a1 of lane 0 in f16.
    const auto& marks = left->marks().diff;
    ASSERT_EQ(marks.size(), left->diagram()->cells.size());
    EXPECT_EQ(marks[static_cast<std::size_t>(cellAt(left, 0, 0))], 0);
    EXPECT_EQ(marks[static_cast<std::size_t>(cellAt(left, 0, 1))], 1);
    EXPECT_EQ(right->marks().diff[static_cast<std::size_t>(cellAt(right, 0, 1))], 1);
    EXPECT_GT(comparePage(*w)->differences(), 0);
    EXPECT_LT(comparePage(*w)->differences(), 16 * 8);
    // Hovering in one side lights the lane on both.
    hover(left, cellAt(left, 0, 1));
    EXPECT_EQ(right->highlightThread(), 1);

    // Comparing a variant with itself finds nothing; clearing turns compare off.
    ASSERT_TRUE(w->setCompare(QStringLiteral("mma.m16n8k8.tf32")));
    EXPECT_EQ(comparePage(*w)->differences(), 0);
    ASSERT_TRUE(w->setCompare(QString()));
    EXPECT_EQ(compareView(*w, 0), nullptr);
    QString error;
    EXPECT_FALSE(w->setCompare(QStringLiteral("mma.m99n8k8.f16"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("invalid spec"))) << error.toStdString();
}

TEST(MainWindow, SparseInstructionsGetAMetadataPaneWithSelector) {
    const Instruction sparse = lanemap::test::sparseM16n8k16();
    Window w;
    w->showInstruction(sparse);
    EXPECT_EQ(paneLabels(*w),
              (QStringList{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C/D"),
                           QStringLiteral("metadata"), QStringLiteral("metadata registers")}));
    DiagramView* md = view(*w, Operand::Metadata, DiagramPart::Grids);
    ASSERT_NE(md, nullptr);
    EXPECT_EQ(md->diagram()->cells.size(), 64u);
    EXPECT_EQ(md->diagram()->bitFields.size(), 8u) << "one register diagram per lane that holds metadata";
    EXPECT_EQ(named<QComboBox>(*w, "selector")->count(), 4);
    EXPECT_TRUE(named<QComboBox>(*w, "selector")->isEnabled());
    for (const DiagramCell& c : md->diagram()->cells)
        EXPECT_EQ(c.thread % 4, 0) << "selector 0: lanes 4g";

    ASSERT_TRUE(w->viewState()->setSelector(1));
    md = view(*w, Operand::Metadata, DiagramPart::Grids);
    ASSERT_EQ(md->diagram()->selector, 1);
    for (const DiagramCell& c : md->diagram()->cells)
        EXPECT_EQ(c.thread % 4, 1) << "selector 1: lanes 4g+1";
    EXPECT_FALSE(w->viewState()->setSelector(4)) << "4 is not a selector of this instruction";

    // Hovering a field names the metadata bits and the chunk: row g+8 = 8, cols 4..7 is nibble 1 of the
    // upper half of lane 1's e: bits 23..20.
    const int cell = cellAt(md, 8, 4);
    ASSERT_GE(cell, 0);
    md->ensureCellVisible(cell);
    hover(md, cell);
    const CellInfo& info = details(*w)->cell();
    EXPECT_EQ(info.operand, QStringLiteral("metadata"));
    EXPECT_EQ(info.selector, 1);
    ASSERT_EQ(info.owners.size(), 1u);
    EXPECT_EQ(info.owners[0].lane, 1);
    EXPECT_EQ(info.owners[0].bitHi, 23);
    EXPECT_EQ(info.owners[0].bitLo, 20);
    EXPECT_EQ(info.fieldColFirst, 4);
    EXPECT_EQ(info.fieldColLast, 7);
    // ... and lights lane 1 in A as well.
    EXPECT_EQ(view(*w, Operand::A)->highlightThread(), 1);

    // A sparse A position is a chunk shared by two non-zeros of one lane: both are named.
    DiagramView* a = view(*w, Operand::A);
    hover(a, cellAt(a, 0, 0));
    const CellInfo& chunk = details(*w)->cell();
    ASSERT_EQ(chunk.owners.size(), 2u);
    EXPECT_EQ(chunk.owners[0].lane, 0);
    EXPECT_EQ(chunk.owners[0].colFirst, 0);
    EXPECT_EQ(chunk.owners[0].colLast, 3);
    EXPECT_TRUE(details(*w)->plainText().contains(QStringLiteral("chunk cols 0..3")))
        << details(*w)->plainText().toStdString();
}

TEST(MainWindow, WarpgroupInstructionsNameTheWarp) {
    const Instruction wgmma = lanemap::test::wgmmaM64n256k16();
    Window w;
    w->showInstruction(wgmma);
    // B comes from shared memory: its pane shows it there (issue 14.6).
    EXPECT_EQ(paneLabels(*w),
              (QStringList{QStringLiteral("A"), QStringLiteral("D"), QStringLiteral("shared memory")}));
    DiagramView* d = view(*w, Operand::D);
    EXPECT_EQ(d->diagram()->cells.size(), 64u * 256u);
    // Row 37, col 10: warp 2 (rows 32..47), groupID 5, t 1, v = 4 + 1 -> thread 64 + 21 = 85.
    const int cell = cellAt(d, 37, 10);
    ASSERT_GE(cell, 0);
    d->ensureCellVisible(cell);
    hover(d, cell);
    const CellInfo& info = details(*w)->cell();
    ASSERT_EQ(info.owners.size(), 1u);
    EXPECT_EQ(info.owners[0].thread, 85);
    EXPECT_EQ(info.owners[0].warp, 2);
    EXPECT_EQ(info.owners[0].lane, 21);
    EXPECT_TRUE(details(*w)->shownText().contains(QStringLiteral("warp")))
        << details(*w)->shownText().toStdString();
    // Thread 85 holds 128 accumulator elements and 8 of A.
    EXPECT_EQ(d->litCellCount(), 128);
    EXPECT_EQ(view(*w, Operand::A)->litCellCount(), 8);
    // A lane filter on a warpgroup takes threads 0..127.
    EXPECT_TRUE(w->setLaneFilter(QStringLiteral("64-95")));
    QString error;
    EXPECT_FALSE(w->setLaneFilter(QStringLiteral("128"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("0..127"))) << error.toStdString();
}

} // namespace

// Issue 14.2: zoom is per pane and predictable.
TEST(MainWindow, ChoicesThatRebuildTheDiagramsKeepAnExplicitZoom) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* a = view(*w, Operand::A);
    a->setZoom(2.0);
    w->viewState()->setPalette(Palette::ColorBlind);
    w->viewState()->setShowLabels(false);
    w->viewState()->setColorBy(ColorBy::Register);
    ASSERT_TRUE(w->setLaneFilter(QStringLiteral("0-3")));
    EXPECT_EQ(view(*w, Operand::A), a);
    EXPECT_FALSE(a->fitting()) << "a rebuild must not throw away the user's zoom";
    EXPECT_DOUBLE_EQ(a->zoom(), 2.0);
    // Another pane that was left fitted stays fitted.
    EXPECT_TRUE(view(*w, Operand::B)->fitting());
    // A newly opened instruction starts fitted, scrolled to its headers.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.f16")));
    for (DiagramView* v : views(*w)) {
        EXPECT_TRUE(v->fitting()) << v->objectName().toStdString();
        EXPECT_EQ(v->horizontalScrollBar()->value(), 0);
        EXPECT_EQ(v->verticalScrollBar()->value(), 0);
    }
}

TEST(MainWindow, ASavedZoomAppliesOnlyToTheInstructionItWasSavedWith) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    w->zoomIn();
    w->zoomIn();
    w->savePreferences();
    w.open(true); // restart
    ASSERT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k16.f16"));
    EXPECT_FALSE(view(*w, Operand::A)->fitting()) << "the last view comes back as it was";
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.f16")));
    for (DiagramView* v : views(*w))
        EXPECT_TRUE(v->fitting()) << "a saved zoom must not override Fit for "
                                  << v->objectName().toStdString();
}

TEST(MainWindow, FitAllShowsTheWholeGridWhereFitReadableScrolls) {
    Window w;
    w->setWrapBands(false); // the plain 8 x 128 grid (bands: below)
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m8n8k128.b1")));
    DiagramView* a = view(*w, Operand::A);
    const QSize vp = a->maximumViewportSize();
    auto contentPx = [&] { return contentRect(*a->diagram(), a->paintOptions()).size() * a->zoom(); };
    ASSERT_TRUE(labelsVisible(*a->diagram(), a->zoom())) << "fit readable keeps the labels";
    ASSERT_GT(contentPx().width(), vp.width()) << "128 columns do not fit readably: this pane scrolls";
    w->fitWhole();
    EXPECT_TRUE(a->fitting());
    EXPECT_EQ(a->fitMode(), DiagramView::FitMode::All);
    EXPECT_LE(contentPx().width(), vp.width() + 1);
    EXPECT_LE(contentPx().height(), vp.height() + 1);
    w->fitAll();
    EXPECT_EQ(a->fitMode(), DiagramView::FitMode::Readable);
    EXPECT_TRUE(labelsVisible(*a->diagram(), a->zoom()));
    // With long rows wrapped into bands, Fit readable shows all 128 columns, readable, without scrolling.
    w->setWrapBands(true);
    w->fitAll();
    EXPECT_GT(a->diagram()->panels.size(), 1u);
    EXPECT_TRUE(labelsVisible(*a->diagram(), a->zoom()));
    EXPECT_LE(contentPx().width(), vp.width() + 1);
}

TEST(MainWindow, AFilterWithNoHitsShowsAHintWhoseLinksOpenTheNearestSpec) {
    Window w;
    named<QLineEdit>(*w, "filter")->setText(QStringLiteral("m16n8k16 bf61"));
    EXPECT_TRUE(named(*w, "filterHint")->isVisible());
    EXPECT_TRUE(named(*w, "filterHint")->text().contains(QStringLiteral("bf16")))
        << named(*w, "filterHint")->text().toStdString();
    const QString nearest = filterModel(w)->nearestSpecs().front();
    emit named(*w, "filterHint")->linkActivated(nearest);
    EXPECT_EQ(w->currentSpec(), nearest);
    named<QLineEdit>(*w, "filter")->setText(QStringLiteral("m16n8k16 bf16"));
    EXPECT_FALSE(named(*w, "filterHint")->isVisible());
}

// Issue 14.11: nothing of the previous instruction stays after switching; one cursor on screen.
TEST(MainWindow, SwitchingInstructionLeavesNoStaleCellHoverTextOrSecondCursor) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* a = view(*w, Operand::A);
    hover(a, cellAt(a, 3, 5));
    ASSERT_TRUE(details(*w)->cell().valid);
    auto* hoverStatus = w->findChild<QLabel*>(QStringLiteral("hoverStatus"));
    ASSERT_NE(hoverStatus, nullptr);
    ASSERT_FALSE(hoverStatus->text().isEmpty());
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    EXPECT_FALSE(details(*w)->cell().valid) << "the Cell panel must not describe the previous variant";
    EXPECT_TRUE(hoverStatus->text().isEmpty()) << hoverStatus->text().toStdString();

    a = view(*w, Operand::A);
    a->setFocus();
    a->setCursorCell(cellAt(a, 1, 1));
    QTest::keyClick(a, Qt::Key_Tab);
    DiagramView* focused = qobject_cast<DiagramView*>(QApplication::focusWidget());
    ASSERT_NE(focused, nullptr);
    ASSERT_NE(focused, a);
    EXPECT_GE(focused->paintedHighlight().cursorCell, 0);
    EXPECT_EQ(a->paintedHighlight().cursorCell, -1) << "the unfocused pane must not draw a second cursor";
    EXPECT_EQ(a->cursorCell(), cellAt(a, 1, 1)) << "but it remembers where its cursor was";
}

// Issue 14.4: the window works on a laptop and snaps to half of a 1920 screen; docks close and come back.
TEST(MainWindow, FitsALaptopScreenAndHalfAFullHdOne) {
    Window w;
    EXPECT_LE(w->minimumSizeHint().width(), 960) << "half of a 1920 px screen";
    w->resize(1280, 720);
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QApplication::processEvents();
    ASSERT_EQ(w->width(), 1280);
    for (const OperandSet operands : {OperandSet(Operand::A), OperandSet(Operand::B), kAccumulator}) {
        DiagramView* v = view(*w, operands);
        const std::string name = toString(operands);
        const QSizeF content = contentRect(*v->diagram(), v->paintOptions()).size() * v->zoom();
        EXPECT_TRUE(labelsVisible(*v->diagram(), v->zoom())) << name << " must be labeled";
        EXPECT_LE(content.width(), v->maximumViewportSize().width() + 1)
            << name << " is clipped: " << content.width() << " > " << v->maximumViewportSize().width();
    }
}

TEST(MainWindow, DocksCloseAndComeBackFromViewPanels) {
    Window w;
    QMenu* panels = w->findChild<QMenu*>(QStringLiteral("panelsMenu"));
    ASSERT_NE(panels, nullptr);
    const auto docks = w->findChildren<QDockWidget*>();
    ASSERT_GE(docks.size(), 2);
    for (QDockWidget* dock : docks) {
        EXPECT_TRUE(dock->features() & QDockWidget::DockWidgetClosable) << dock->objectName().toStdString();
        QAction* toggle = dock->toggleViewAction();
        EXPECT_TRUE(panels->actions().contains(toggle)) << dock->objectName().toStdString();
        dock->close();
        EXPECT_FALSE(dock->isVisible());
        EXPECT_FALSE(toggle->isChecked());
        toggle->trigger();
        EXPECT_TRUE(dock->isVisible());
    }
}

// Issue 14.5: provenance notes never push the grids down; they are one click away.
TEST(MainWindow, SparseProvenanceNotesFoldAwayAboveTheGrids) {
    Window w;
    w->resize(1280, 800);
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QApplication::processEvents();
    const int denseTop = view(*w, Operand::A)->mapTo(w.window.get(), QPoint(0, 0)).y();
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.sp.m16n8k32.f16")));
    QApplication::processEvents();
    const int sparseTop = view(*w, Operand::A)->mapTo(w.window.get(), QPoint(0, 0)).y();
    EXPECT_LE(sparseTop - denseTop, 24)
        << "the notes pushed the grids down by " << sparseTop - denseTop << " px";
    auto* notes = w->findChild<QLabel*>(QStringLiteral("notes"));
    auto* toggle = w->findChild<QToolButton*>(QStringLiteral("notesToggle"));
    ASSERT_NE(notes, nullptr);
    ASSERT_NE(toggle, nullptr);
    EXPECT_FALSE(notes->isVisible());
    EXPECT_TRUE(toggle->isVisible());
    EXPECT_TRUE(toggle->text().contains(QStringLiteral("erratum"))) << toggle->text().toStdString();
    toggle->click();
    EXPECT_TRUE(notes->isVisible());
    EXPECT_FALSE(notes->text().isEmpty());
}

// Issue 14.12: desktop conventions.
TEST(MainWindow, BackForwardAndRecentInstructions) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m8n8k4.f64")));
    auto* back = w->findChild<QAction*>(QStringLiteral("actionBack"));
    auto* forward = w->findChild<QAction*>(QStringLiteral("actionForward"));
    ASSERT_NE(back, nullptr);
    ASSERT_NE(forward, nullptr);
    EXPECT_EQ(back->shortcut(), QKeySequence(QKeySequence::Back));
    back->trigger();
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k8.tf32"));
    back->trigger();
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k16.f16"));
    forward->trigger();
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k8.tf32"));
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k32.s8")));
    EXPECT_FALSE(forward->isEnabled()) << "a new visit drops the forward history";
    auto* recent = w->findChild<QMenu*>(QStringLiteral("recentMenu"));
    ASSERT_NE(recent, nullptr);
    ASSERT_GE(recent->actions().size(), 4);
    EXPECT_EQ(recent->actions().front()->text(), QStringLiteral("mma.m16n8k32.s8"));
    recent->actions().at(1)->trigger();
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k8.tf32"));
}

TEST(MainWindow, HelpShortcutsAboutQtCopyImageAndLegendPin) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    bool aboutQt = false, printFree = true;
    for (QAction* a : w->findChildren<QAction*>()) {
        aboutQt = aboutQt || a->text().remove(QLatin1Char('&')) == QStringLiteral("About Qt");
        printFree = printFree && a->shortcut() != QKeySequence(Qt::CTRL | Qt::Key_P);
    }
    EXPECT_TRUE(aboutQt);
    EXPECT_TRUE(printFree) << "Ctrl+P is Print by convention, not Probe";
    auto* keys = w->findChild<QAction*>(QStringLiteral("actionShortcuts"));
    ASSERT_NE(keys, nullptr);
    keys->trigger();
    auto* dialog = w->findChild<QMessageBox*>(QStringLiteral("shortcutsDialog"));
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->text().contains(QStringLiteral("Fit readable"))) << dialog->text().toStdString();
    EXPECT_TRUE(dialog->text().contains(QStringLiteral("Back")));
    dialog->close();

    QApplication::clipboard()->clear();
    auto* copy = w->findChild<QAction*>(QStringLiteral("actionCopyImage"));
    ASSERT_NE(copy, nullptr);
    copy->trigger();
    EXPECT_GT(QApplication::clipboard()->image().width(), 200);

    LegendBar* legend = w->findChild<LegendBar*>();
    QTest::mouseClick(legend, Qt::LeftButton, {}, legend->entryRect(5).center());
    EXPECT_EQ(w->viewState()->pinnedLane(), 5) << "clicking a lane swatch pins the lane";
}

// Issue 14.9: compare fits a laptop, lines the two sides up and leaves no stale error.
TEST(MainWindow, CompareStaysInTheWindowLinesUpAndClearsOldErrors) {
    Window w;
    w->resize(1280, 720);
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QLineEdit* edit = w->findChild<QLineEdit*>(QStringLiteral("compare"));
    ASSERT_NE(edit, nullptr);
    edit->setText(QStringLiteral("mma.m16n8k99.f16"));
    emit edit->editingFinished();
    EXPECT_FALSE(w->statusBar()->currentMessage().isEmpty()) << "a bad spec is named";
    edit->setText(QStringLiteral("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"));
    emit edit->editingFinished();
    QApplication::processEvents();
    ASSERT_NE(compareView(*w, 1), nullptr);
    EXPECT_TRUE(w->statusBar()->currentMessage().isEmpty()) << w->statusBar()->currentMessage().toStdString();
    EXPECT_LE(w->width(), 1280) << "entering a compare spec must not widen the window";
    EXPECT_LE(w->minimumSizeHint().width(), 1366);
    EXPECT_DOUBLE_EQ(compareView(*w, 0)->zoom(), compareView(*w, 1)->zoom()) << "one zoom: cells line up";
    // Entering it again (or another) shows two sides, never the previous pair next to the new one.
    ASSERT_TRUE(w->setCompare(QStringLiteral("mma.m16n8k8.bf16")));
    int sides = 0;
    for (DiagramView* v : w->findChildren<DiagramView*>())
        sides += v->isVisible() && v->objectName().startsWith(QStringLiteral("pane_compare"));
    EXPECT_EQ(sides, 2);
}

} // namespace test_main_window
