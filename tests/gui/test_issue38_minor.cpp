// Issue 38, the minor items: a new N's default load, keys wherever the focus is, the one-word fix as the
// nearest spec, help without a display, the manual's link, menus and captions.
#include "gui_test_support.hpp"

#include "catalog_model.hpp"
#include "selections.hpp"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTreeView>

#include "lanemap/tmem.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/wait.h>

namespace test_issue38_minor {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// 8. The composed view: a new N opens with that N's default access (an x32 load kept for N = 16 drew
// r16..r31 empty).
TEST(Issue38, ANewNOpensWithItsDefaultLoad) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n256")));
    ASSERT_TRUE(w->instruction()->params.access);
    EXPECT_EQ(tmem::specOf(*w->instruction()->params.access), "tcgen05.ld.32x32b.x32");
    auto* nBox = w->findChild<QComboBox*>(QStringLiteral("instructionN"));
    ASSERT_NE(nBox, nullptr);
    nBox->setCurrentIndex(nBox->findData(16));
    emit nBox->activated(nBox->currentIndex());
    QApplication::processEvents();
    ASSERT_TRUE(w->instruction()->params.access);
    EXPECT_EQ(tmem::specOf(*w->instruction()->params.access), "tcgen05.ld.32x32b.x16")
        << "N = 16 loads 16 columns";
}

// 10. Esc unpins from the filter too; Ctrl+E reaches the window from a line edit; F6 (and Tab) land on the
// pinned lane, and the Cell dock follows the pane the focus is in.
TEST(Issue38, KeysWorkWhereverTheFocusIs) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    w->activateWindow();
    auto* filter = named<QLineEdit>(*w, "filter");
    w->viewState()->setPinnedLane(5);
    filter->setFocus();
    QTest::keyClick(filter, Qt::Key_Escape);
    EXPECT_EQ(w->viewState()->pinnedLane(), -1) << "Esc unpins while the filter has the focus";
    // Ctrl+E (Export SVG) is not taken by the line edit as "end of line".
    QKeyEvent ctrlE(QEvent::ShortcutOverride, Qt::Key_E, Qt::ControlModifier);
    QApplication::sendEvent(filter, &ctrlE);
    EXPECT_FALSE(ctrlE.isAccepted()) << "the line edit lets Ctrl+E through to Export SVG";
    QKeyEvent ctrlC(QEvent::ShortcutOverride, Qt::Key_C, Qt::ControlModifier);
    QApplication::sendEvent(filter, &ctrlC);
    EXPECT_TRUE(ctrlC.isAccepted()) << "copy stays the line edit's";
    // F6: focus to the first pane, onto the pinned lane.
    w->viewState()->setPinnedLane(5);
    auto* focusPanes = w->findChild<QAction*>(QStringLiteral("actionFocusPanes"));
    ASSERT_NE(focusPanes, nullptr);
    EXPECT_EQ(focusPanes->shortcut(), QKeySequence(Qt::Key_F6));
    focusPanes->trigger();
    DiagramView* a = view(*w, Operand::A);
    ASSERT_TRUE(a->hasFocus());
    ASSERT_GE(a->cursorCell(), 0);
    EXPECT_EQ(a->diagram()->cells[static_cast<std::size_t>(a->cursorCell())].thread, 5);
    EXPECT_EQ(details(*w)->cell().operand, QStringLiteral("A"));
    // Tab to B, then back to A (its cursor kept): the Cell dock describes A again.
    QTest::keyClick(a, Qt::Key_Tab);
    DiagramView* b = view(*w, Operand::B);
    ASSERT_TRUE(b->hasFocus());
    EXPECT_EQ(details(*w)->cell().operand, QStringLiteral("B"));
    EXPECT_EQ(b->diagram()->cells[static_cast<std::size_t>(b->cursorCell())].thread, 5);
    a->setFocus(Qt::BacktabFocusReason);
    EXPECT_EQ(details(*w)->cell().operand, QStringLiteral("A")) << "the dock follows the focus";
}

// 11. A spec one component off suggests the one-component fix first; the bad-spec message names every
// family, wmma included.
TEST(Issue38, TheNearestSpecIsTheOneComponentFix) {
    QString error;
    EXPECT_FALSE(
        parseSelection(QStringLiteral("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m9.f32"), &error));
    EXPECT_TRUE(error.contains(
        QStringLiteral("nearest valid specs: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32")))
        << error.toStdString();
    EXPECT_FALSE(parseSelection(QStringLiteral("mma.m16n8k32.e4m3.e5m9"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("nearest valid specs: mma.m16n8k32.e4m3.f16")))
        << error.toStdString();
    // The suggestion opens what it names.
    EXPECT_TRUE(parseSelection(QStringLiteral("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32")));
    EXPECT_FALSE(parseSelection(QStringLiteral("cuda.m16n8k16.f16"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("wmma"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("tcgen05.mma"))) << error.toStdString();
}

// 12. `lanemap --help` and --version print without a display (they aborted in xcb, exit 134).
TEST(Issue38, HelpAndVersionNeedNoDisplay) {
    QTemporaryDir dir;
    for (const char* option : {"--help", "--version"}) {
        const QString out = dir.filePath(QStringLiteral("out.txt"));
        const std::string command = std::string("env -u DISPLAY -u WAYLAND_DISPLAY QT_QPA_PLATFORM=xcb ") +
                                    LANEMAP_GUI_BINARY + " " + option + " >'" + out.toStdString() +
                                    "' 2>/dev/null";
        const int status = std::system(command.c_str());
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << option << ": status " << status;
        QFile file(out);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        EXPECT_TRUE(text.contains(option == std::string("--help") ? QStringLiteral("--screenshot")
                                                                  : QStringLiteral("lanemap")))
            << option << ": " << text.toStdString();
    }
}

// 12. Help -> PTX manual says so, and shows the link, when no browser starts (the offscreen platform has
// none).
TEST(Issue38, ThePtxManualLinkIsShownWhenNoBrowserStarts) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QAction* manual = nullptr;
    for (QAction* a : w->menuBar()->findChildren<QAction*>())
        if (a->text().contains(QStringLiteral("PTX manual")))
            manual = a;
    ASSERT_NE(manual, nullptr);
    manual->trigger();
    auto* box = w->findChild<QMessageBox*>(QStringLiteral("linkDialog"));
    ASSERT_NE(box, nullptr) << "a failed open says so";
    EXPECT_TRUE(box->text().contains(QStringLiteral("docs.nvidia.com"))) << box->text().toStdString();
    box->close();
}

// 13. Menus and captions: Export as sits with the exports (above Quit) with its formats named as a user
// reads them; the banks dock's menu entry shows its "&"; captions cite no repository file.
TEST(Issue38, MenusAndCaptionsReadRight) {
    Window w;
    QMenu* file = nullptr;
    for (QAction* a : w->menuBar()->actions())
        if (a->text() == QStringLiteral("&File"))
            file = a->menu();
    ASSERT_NE(file, nullptr);
    QStringList entries;
    for (const QAction* a : file->actions())
        entries << a->text();
    const auto exportAs = entries.indexOf(QStringLiteral("E&xport as"));
    const auto quit = entries.indexOf(QStringLiteral("&Quit"));
    ASSERT_GE(exportAs, 0) << entries.join(QLatin1Char('|')).toStdString();
    EXPECT_LT(exportAs, quit) << entries.join(QLatin1Char('|')).toStdString();
    QStringList formats;
    for (const QAction* a : w->findChild<QMenu*>(QStringLiteral("exportAsMenu"))->actions())
        formats << a->text();
    EXPECT_TRUE(formats.contains(QStringLiteral("CUDA header…")))
        << formats.join(QLatin1Char('|')).toStdString();
    for (const QString& f : formats)
        EXPECT_TRUE(f.front().isUpper()) << f.toStdString();
    QStringList panels;
    for (const QAction* a : w->findChild<QMenu*>(QStringLiteral("panelsMenu"))->actions())
        panels << a->text();
    EXPECT_TRUE(panels.contains(QStringLiteral("Shared memory && banks")))
        << panels.join(QLatin1Char('|')).toStdString();
    // A placement that is not the document's says which, without a path into the repository.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.sp.m16n8k32.f16")));
    for (const DiagramView* v : views(*w))
        for (const DiagramPanel& p : v->diagram()->panels)
            EXPECT_EQ(p.subtitle.find("docs/"), std::string::npos) << p.subtitle;
}

// 13. A sparse A cell stands for every column of its chunk: `--hover A:0,1` said "col 0".
TEST(Issue38, ASparseCellNamesTheColumnsItMayHold) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.sp.m16n8k32.f16")));
    ASSERT_TRUE(w->hover(QStringLiteral("A"), 0, 1));
    const CellInfo& cell = details(*w)->cell();
    ASSERT_TRUE(cell.valid);
    EXPECT_TRUE(cell.col == 1 || (cell.col <= 1 && cell.colLast >= 1))
        << "col " << cell.col << " colLast " << cell.colLast;
    EXPECT_TRUE(cell.toPlainText().contains(QStringLiteral("row 0, col ") + cell.colText()))
        << cell.toPlainText().toStdString();
    EXPECT_NE(cell.colText(), QStringLiteral("0"));
}

// 13. Fit readable: a pane that must scroll anyway opens at (about) the smallest zoom that draws its labels,
// as its neighbours do; mma.m16n8k32.e4m3's 32-row B opened at 100 % (7 of 32 rows) beside an A at 65 %.
TEST(Issue38, FitReadableShowsAsMuchAsItCanRead) {
    Window w;
    w->resize(1280, 720);
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k32.e4m3")));
    QApplication::processEvents();
    w->fitAll();
    DiagramView* b = view(*w, Operand::B);
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(labelsVisible(*b->diagram(), b->zoom()));
    EXPECT_LE(b->zoom(), readableZoom(*b->diagram()) * 1.25 + 1e-9) << "zoom " << b->zoom();
}

// 13. The catalog names the family and shape of the rows at its top once their own rows scrolled away.
TEST(Issue38, TheCatalogSaysWhereItsTopRowsBelong) {
    Window w;
    w->resize(1280, 720);
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    QApplication::processEvents();
    auto* tree = named<QTreeView>(*w, "catalogTree");
    auto* path = named(*w, "catalogPath");
    ASSERT_TRUE(tree && path);
    tree->scrollToTop();
    QApplication::processEvents();
    EXPECT_TRUE(path->isHidden()) << "the top row is a family: nothing scrolled away";
    // A leaf at the top: its family and shape rows are above it, out of sight.
    const QModelIndex leaf = tree->currentIndex();
    ASSERT_EQ(leaf.data(CatalogModel::SpecRole).toString(), QStringLiteral("mma.m16n8k16.f16"));
    tree->scrollTo(leaf, QAbstractItemView::PositionAtTop);
    QApplication::processEvents();
    EXPECT_FALSE(path->isHidden());
    EXPECT_TRUE(path->text().contains(QStringLiteral("m16n8k16"))) << path->text().toStdString();
    EXPECT_TRUE(path->text().startsWith(leaf.parent().parent().data().toString()))
        << path->text().toStdString();
}

} // namespace
} // namespace test_issue38_minor
