// The "Shared memory & banks" pane: shown for ldmatrix / stmatrix only, its placement editor changes the
// conflict it reports, bad placements are named inline, hovering a chunk lights the supplying lane in the
// register panes (ViewState), and the feeds picker gives checkFeed's verdict.
#include "banks_pane.hpp"
#include "gui_test_support.hpp"
#include "view_state.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include <gtest/gtest.h>

namespace test_banks_pane {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

QDockWidget* banksDock(const MainWindow* w) {
    return w->findChild<QDockWidget*>(QStringLiteral("banksDock"));
}
BanksPane* banksPane(const MainWindow* w) {
    return w->findChild<BanksPane*>();
}

// The header's facts line ("32 threads (warp) · m8n8 · min sm_75 ..."), empty when there is none.
QString factsLine(const MainWindow* w) {
    for (const QLabel* label : w->findChildren<QLabel*>())
        if (label->text().contains(QStringLiteral(" threads (")))
            return label->text();
    return {};
}

// Matrix moves have no k: the header names the shape as the spec does.
TEST(BanksPane, HeaderShapeOfAMatrixMoveHasNoK) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    EXPECT_TRUE(factsLine(w.window.get()).contains(QStringLiteral("· m8n8 ·")))
        << factsLine(w.window.get()).toStdString();
    EXPECT_FALSE(factsLine(w.window.get()).contains(QStringLiteral("k0")));
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    EXPECT_TRUE(factsLine(w.window.get()).contains(QStringLiteral("· m16n8k16 ·")));
}

TEST(BanksPane, ShownForLdmatrixNotForMma) {
    Window w;
    ASSERT_NE(banksDock(w.window.get()), nullptr);
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    EXPECT_TRUE(banksDock(w.window.get())->isVisible());
    BanksPane* pane = banksPane(w.window.get());
    ASSERT_NE(pane, nullptr);
    ASSERT_NE(pane->view()->diagram(), nullptr);
    // 32 threads supply one row each: every row is a chunk in the memory panel and in its phase.
    EXPECT_EQ(pane->view()->diagram()->cells.size(), 64u);
    EXPECT_EQ(pane->view()->diagram()->panels.front().kind, PanelKind::Chunks);

    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    EXPECT_FALSE(banksDock(w.window.get())->isVisible());
    EXPECT_EQ(pane->view()->diagram(), nullptr);
    // movmatrix reads no shared memory: no pane either.
    ASSERT_TRUE(w->openSpec(QStringLiteral("movmatrix.m8n8.trans.b16")));
    EXPECT_FALSE(banksDock(w.window.get())->isVisible());
    ASSERT_TRUE(w->openSpec(QStringLiteral("stmatrix.m8n8.x4.b16")));
    EXPECT_TRUE(banksDock(w.window.get())->isVisible());
}

TEST(BanksPane, EditingThePitchChangesTheConflictShown) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    BanksPane* pane = banksPane(w.window.get());
    ASSERT_NE(pane, nullptr);
    // Rows 64 bytes apart: a phase's eight rows fall in two bank groups, four in each: 4-way.
    pane->pitchBox()->setValue(64);
    EXPECT_EQ(pane->worstDegree(), 4);
    EXPECT_TRUE(pane->summary().startsWith(QStringLiteral("4-way bank conflict")))
        << pane->summary().toStdString();
    EXPECT_TRUE(pane->summary().contains(QStringLiteral("L1 Wavefronts Shared 16, Ideal 4")));
    // Rows 128 bytes apart: every row in bank group 0, 8-way.
    pane->pitchBox()->setValue(128);
    EXPECT_EQ(pane->worstDegree(), 8);
    EXPECT_TRUE(pane->summary().startsWith(QStringLiteral("8-way bank conflict")));
    // The picture follows: the first phase panel has 8 wavefront rows.
    ASSERT_NE(pane->view()->diagram(), nullptr);
    EXPECT_EQ(pane->view()->diagram()->panels[1].rows, 8);
    // CuTe Swizzle<3,3,3> on the same pitch: conflict-free.
    pane->cuteBox()->setChecked(true);
    EXPECT_EQ(pane->worstDegree(), 1);
    EXPECT_TRUE(pane->summary().startsWith(QStringLiteral("conflict-free")));
    EXPECT_TRUE(pane->error().isEmpty());

    // A bad placement is named inline and the picture goes away: a CuTe swizzle together with a mode.
    pane->modeBox()->setCurrentIndex(pane->modeBox()->findText(QStringLiteral("128B")));
    EXPECT_FALSE(pane->analysis().has_value());
    EXPECT_TRUE(pane->error().contains(QStringLiteral("not both"))) << pane->error().toStdString();
    EXPECT_EQ(pane->view()->diagram(), nullptr);
    pane->cuteBox()->setChecked(false);
    EXPECT_TRUE(pane->error().isEmpty());
    // A start that is not 16-byte aligned.
    pane->startBox()->setValue(8);
    EXPECT_TRUE(pane->error().contains(QStringLiteral("not 16-byte aligned"))) << pane->error().toStdString();
}

TEST(BanksPane, HoveringAChunkLightsTheLane) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    BanksPane* pane = banksPane(w.window.get());
    ASSERT_NE(pane, nullptr);
    DiagramView* view = pane->view();
    const Diagram* d = view->diagram();
    ASSERT_NE(d, nullptr);
    // The chunk thread 13 supplies (matrix 1, row 5) in the memory panel.
    int cell = -1;
    for (std::uint32_t i : d->cellsOfThread(13))
        if (d->cells[i].panel == 0)
            cell = static_cast<int>(i);
    ASSERT_GE(cell, 0);
    EXPECT_EQ(d->label(d->cells[static_cast<std::size_t>(cell)]), "T13 m1r5");
    view->ensureCellVisible(cell);
    hover(view, cell);
    EXPECT_EQ(w->viewState()->hoveredLane(), 13);
    // The register pane lights the same lane.
    EXPECT_EQ(views(*w).front()->highlightThread(), 13);
}

TEST(BanksPane, FeedsPickerShowsTheVerdict) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    BanksPane* pane = banksPane(w.window.get());
    ASSERT_NE(pane, nullptr);
    pane->feedsEdit()->setText(QStringLiteral("mma.m16n8k16.f16"));
    emit pane->feedsEdit()->editingFinished();
    EXPECT_TRUE(pane->feedVerdict().contains(QStringLiteral("every register slot")))
        << pane->feedVerdict().toStdString();
    // ldmatrix does not feed the accumulator: named inline.
    pane->feedsOperandBox()->setCurrentIndex(pane->feedsOperandBox()->findText(QStringLiteral("D")));
    EXPECT_TRUE(pane->feedVerdict().contains(QStringLiteral("ldmatrix feeds A or B")))
        << pane->feedVerdict().toStdString();
}

// The feeds overlay is drawn, not only named: with ldmatrix.x2 (no .trans) feeding mma.m16n8k16 B from a
// K-row-major tile, the pane's picture gains the addresses and B as loaded / as wanted, the differing slots
// framed; hovering a register slot there lights the lane in the register pane and its chunk in the memory.
TEST(BanksPane, FeedsOverlayIsDrawnAndHoverCrossHighlights) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x2.b16")));
    BanksPane* pane = banksPane(w.window.get());
    ASSERT_NE(pane, nullptr);
    pane->feedsOperandBox()->setCurrentIndex(pane->feedsOperandBox()->findText(QStringLiteral("B")));
    pane->feedsEdit()->setText(QStringLiteral("mma.m16n8k16.f16"));
    emit pane->feedsEdit()->editingFinished();
    EXPECT_TRUE(pane->feedVerdict().contains(QStringLiteral("MISMATCH")))
        << pane->feedVerdict().toStdString();
    DiagramView* view = pane->view();
    const Diagram* d = view->diagram();
    ASSERT_NE(d, nullptr);
    ASSERT_GE(d->panels.size(), 4u);
    EXPECT_EQ(d->panels[0].kind, PanelKind::Addresses);
    EXPECT_EQ(d->panels[1].kind, PanelKind::Operand);
    EXPECT_EQ(d->panels[2].kind, PanelKind::Operand);
    EXPECT_EQ(d->panels[3].kind, PanelKind::Chunks);
    int framed = 0;
    for (std::uint32_t i = d->panels[1].firstCell; i < d->panels[1].firstCell + d->panels[1].cellCount; ++i)
        framed += d->cells[i].conflict;
    EXPECT_GT(framed, 0);
    // Thread 5's b1 as loaded: hovering it lights lane 5 everywhere.
    int cell = -1;
    for (std::uint32_t i : d->cellsOfThread(5))
        if (d->cells[i].panel == 1 && d->cells[i].element == 1)
            cell = static_cast<int>(i);
    ASSERT_GE(cell, 0);
    view->ensureCellVisible(cell);
    hover(view, cell);
    EXPECT_EQ(w->viewState()->hoveredLane(), 5);
    EXPECT_EQ(views(*w).front()->highlightThread(), 5);
    // In the banks view: its address, 4 slots in each grid, its chunk and its bank.
    EXPECT_EQ(view->litCellCount(), 1 + 4 + 4 + 1 + 1);

    // The pane's Export SVG writes the same picture, overlay included.
    const QString path = QDir(QDir::tempPath()).filePath(QStringLiteral("lanemap-banks-feeds-test.svg"));
    QString error;
    ASSERT_TRUE(pane->exportSvg(path, &error)) << error.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    file.close();
    QFile::remove(path);
    EXPECT_TRUE(svg.contains(QStringLiteral("B as ldmatrix.m8n8.x2.b16 loads it")))
        << svg.left(300).toStdString();
    EXPECT_TRUE(svg.contains(QStringLiteral("slots differ")));

    // The right move (.trans) clears the frames.
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x2.trans.b16")));
    ASSERT_NE(pane->view()->diagram(), nullptr);
    EXPECT_TRUE(pane->feedVerdict().contains(QStringLiteral("every register slot")));
    for (const DiagramCell& c : pane->view()->diagram()->cells)
        EXPECT_FALSE(c.conflict);
    EXPECT_EQ(pane->view()->diagram()->panels[1].kind, PanelKind::Operand);
}

} // namespace

} // namespace test_banks_pane
