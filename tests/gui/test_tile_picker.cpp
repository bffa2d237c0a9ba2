// The tile picker in the window (docs/tiles.md, docs/gui.md#a-tile): typing an atom layout and a permutation
// and pressing Enter turns the view into the tile, named by its extents; a bad value is named in the CLI's
// words and the view stays; clearing returns to the atom; an instruction that cannot be tiled disables the
// fields and says why. And the Shared memory & banks pane's tiled copy: with a tile and a Feeds consumer it
// draws core's whole tiled copy (ldmatrix or ld.shared), hover naming a cell's thread, warp and banks.
#include "banks_pane.hpp"
#include "gui_test_support.hpp"
#include "tile_picker.hpp"

#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"
// Qt's `slots` keyword (a macro) would eat tiled_copy::Result::slots.
#pragma push_macro("slots")
#undef slots
#include "lanemap/tiled_copy.hpp"
#pragma pop_macro("slots")

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include <gtest/gtest.h>

namespace test_tile_picker {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

const char* const kPermutation = "_32,(_8,_2,_2):(_1,_16,_8),_16";

// Types `text` into `edit` as a user would (replacing what is there) and presses Enter.
void typeAndEnter(QLineEdit* edit, const QString& text) {
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    QApplication::processEvents();
}

// Clicks the field's clear button (×).
void clearButton(QLineEdit* edit) {
    auto* clear = edit->findChild<QToolButton*>();
    ASSERT_NE(clear, nullptr);
    ASSERT_TRUE(clear->isVisible());
    QTest::mouseClick(clear, Qt::LeftButton);
    QApplication::processEvents();
    ASSERT_TRUE(edit->text().isEmpty());
}

std::string title(const MainWindow& w) {
    return named<QLabel>(w, "title")->text().toStdString();
}

// The CLI's message for a tile text (what `lanemap-cli show SPEC --atom-layout ...` prints after
// "lanemap-cli: ").
QString parserError(const char* atoms, const char* permutation) {
    std::string error;
    EXPECT_FALSE(tile::parseTileLayout(atoms, permutation, error));
    return QString::fromStdString(error);
}

TEST(TilePicker, EnterTurnsTheAtomIntoTheTileNamedByItsExtents) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    auto* atoms = named<QLineEdit>(*w, "tileAtomLayout");
    auto* permutation = named<QLineEdit>(*w, "tilePermutation");
    ASSERT_TRUE(atoms && permutation);
    EXPECT_TRUE(atoms->isEnabled());
    EXPECT_TRUE(atoms->isVisible());
    QTest::keyClicks(permutation, QString::fromLatin1(kPermutation));
    typeAndEnter(atoms, QStringLiteral("(2,2,1)"));
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 32x32x16");
    EXPECT_TRUE(w->windowTitle().startsWith(QStringLiteral("mma.m16n8k16.f16 tile 32x32x16")))
        << w->windowTitle().toStdString();
    ASSERT_TRUE(w->instruction()->tile);
    EXPECT_EQ(w->instruction()->threads, 128);
    EXPECT_EQ(w->instruction()->tile->permutation, kPermutation);
    // The panes are the tile's: C/D is 32 x 32, its cell (0,16) held by thread 64 (warp 2).
    DiagramView* cd = view(*w, kAccumulator);
    ASSERT_NE(cd, nullptr);
    const int cell = cellAt(cd, 0, 16);
    ASSERT_GE(cell, 0);
    EXPECT_EQ(cd->diagram()->cells[static_cast<std::size_t>(cell)].thread, 64);
    // A permutation alone tiles one warp, CuTe's (1,1,1), and the fields show what is in effect.
    typeAndEnter(atoms, QString());
    typeAndEnter(permutation, QStringLiteral("_64,_16,_16"));
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 64x16x16");
    EXPECT_EQ(atoms->text().toStdString(), "(1,1,1)");
    EXPECT_EQ(w->instruction()->threads, 32);
}

TEST(TilePicker, ABadValueIsNamedInTheClisWordsAndTheViewStays) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    auto* atoms = named<QLineEdit>(*w, "tileAtomLayout");
    auto* error = named<QLabel>(*w, "tileError");
    ASSERT_TRUE(atoms && error);
    typeAndEnter(atoms, QStringLiteral("(2,2,1)"));
    ASSERT_EQ(title(*w), "mma.m16n8k16.f16 tile 32x16x16");
    EXPECT_FALSE(error->isVisible());
    // Two modes: the parser's message, naming the three modes it wants; the tile shown stays.
    typeAndEnter(atoms, QStringLiteral("(2,2)"));
    EXPECT_TRUE(error->isVisible());
    EXPECT_EQ(error->text().toStdString(), parserError("(2,2)", "").toStdString());
    EXPECT_TRUE(error->text().contains(QStringLiteral("three"))) << error->text().toStdString();
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 32x16x16");
    EXPECT_EQ(atoms->text().toStdString(), "(2,2)"); // left to be corrected
    // Parsed, but too many threads for a CTA: the atom's refusal (validate), as the CLI prints it.
    typeAndEnter(atoms, QStringLiteral("(8,8,1)"));
    EXPECT_TRUE(error->text().contains(QStringLiteral("1024"))) << error->text().toStdString();
    Selection tooBig = w->viewState()->selection();
    std::string ignored;
    tooBig.params.tile = tile::parseTileLayout("(8,8,1)", "", ignored);
    EXPECT_EQ(error->text().toStdString(), validate(tooBig));
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 32x16x16");
    // A permutation that is no bijection.
    auto* permutation = named<QLineEdit>(*w, "tilePermutation");
    typeAndEnter(atoms, QStringLiteral("(1,1,1)"));
    typeAndEnter(permutation, QStringLiteral("_,(_8,_2):(_1,_4),_"));
    EXPECT_TRUE(error->text().contains(QStringLiteral("bijection"))) << error->text().toStdString();
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 16x8x16");
    // A good value clears the message.
    typeAndEnter(permutation, QString());
    typeAndEnter(atoms, QStringLiteral("(1,2,1)"));
    EXPECT_FALSE(error->isVisible());
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 16x16x16");
}

TEST(TilePicker, ClearingReturnsToTheAtom) {
    Window w;
    std::string error;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16"), nullptr,
                            tile::parseTileLayout("(2,2,1)", kPermutation, error)));
    auto* atoms = named<QLineEdit>(*w, "tileAtomLayout");
    auto* permutation = named<QLineEdit>(*w, "tilePermutation");
    // Opened from the command line, the fields show the tile as CuTe writes it.
    EXPECT_EQ(atoms->text().toStdString(), "(2,2,1)");
    EXPECT_EQ(permutation->text().toStdString(), kPermutation);
    ASSERT_EQ(title(*w), "mma.m16n8k16.f16 tile 32x32x16");
    // Emptied by typing, nothing happens until Enter.
    permutation->setFocus();
    permutation->selectAll();
    QTest::keyClick(permutation, Qt::Key_Backspace);
    QApplication::processEvents();
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 32x32x16");
    QTest::keyClick(permutation, Qt::Key_Return);
    QApplication::processEvents();
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 32x16x16");
    // The clear buttons apply at once: the permutation's drops the permutation, the atom layout's returns to
    // the atom, the permutation with it.
    typeAndEnter(permutation, QStringLiteral("_64,_32,_16"));
    ASSERT_EQ(title(*w), "mma.m16n8k16.f16 tile 64x32x16");
    clearButton(permutation);
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16 tile 32x16x16");
    typeAndEnter(permutation, QStringLiteral("_64,_32,_16"));
    ASSERT_EQ(title(*w), "mma.m16n8k16.f16 tile 64x32x16");
    clearButton(atoms);
    EXPECT_TRUE(permutation->text().isEmpty());
    EXPECT_EQ(title(*w), "mma.m16n8k16.f16");
    EXPECT_FALSE(w->instruction()->tile);
    EXPECT_EQ(w->instruction()->threads, 32);
    EXPECT_EQ(w->windowTitle().toStdString(), "mma.m16n8k16.f16 — lanemap");
}

TEST(TilePicker, AnInstructionThatCannotBeTiledDisablesTheFieldsSayingWhy) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    auto* picker = named<TilePicker>(*w, "tilePicker");
    ASSERT_NE(picker, nullptr);
    EXPECT_FALSE(picker->isEnabled());
    Selection tiled = w->viewState()->selection();
    std::string ignored;
    tiled.params.tile = tile::parseTileLayout("(1,1,1)", "", ignored);
    const QString why = QString::fromStdString(validate(tiled));
    ASSERT_FALSE(why.isEmpty());
    EXPECT_TRUE(picker->atomLayoutEdit()->toolTip().contains(why))
        << picker->atomLayoutEdit()->toolTip().toStdString();
    // A wgmma atom is tiled over warpgroups: enabled again, its own help back.
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n16k16.f16")));
    EXPECT_TRUE(picker->isEnabled());
    EXPECT_FALSE(picker->atomLayoutEdit()->toolTip().contains(why));
    typeAndEnter(picker->atomLayoutEdit(), QStringLiteral("(2,1,1)"));
    EXPECT_EQ(title(*w), "wgmma.m64n16k16.f16 tile 128x16x16");
}

// --- the Banks pane's tiled copy -------------------------------------------------------------------------

BanksPane* banksPane(const MainWindow& w) {
    return w.findChild<BanksPane*>();
}

// The Diagram `lanemap-cli banks MOVE --feeds mma.m16n8k16.f16:A --atom-layout ATOMS --format svg` draws.
Diagram cliDiagram(const char* move, const char* atoms) {
    std::string error;
    Selection s;
    s.variant = parseSpec("mma.m16n8k16.f16", Catalog::instance()).variant;
    s.params.tile = tile::parseTileLayout(atoms, "", error);
    const auto tiled = instantiate(s);
    std::optional<tiled_copy::Result> r;
    if (tiled_copy::isSharedLoad(move))
        r = tiled_copy::analyze(*tiled_copy::parseSharedLoad(move, error), *tiled, Operand::A, {}, error);
    else
        r = tiled_copy::analyze(*parseSpec(move, Catalog::instance()).variant, *tiled, Operand::A, {}, error);
    EXPECT_TRUE(r) << error;
    return r ? buildTiledCopyDiagram(*r) : Diagram{};
}

TEST(BanksTiledCopy, ATileAndFeedsDrawTheWholeTiledCopyAsTheCliDoes) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    BanksPane* pane = banksPane(*w);
    ASSERT_NE(pane, nullptr);
    QString error;
    ASSERT_TRUE(pane->setFeeds(QStringLiteral("mma.m16n8k16.f16:A"), &error)) << error.toStdString();
    EXPECT_FALSE(pane->tiledCopy()); // no tile yet: one instruction
    EXPECT_FALSE(pane->moveBox()->isEnabled());
    typeAndEnter(pane->tilePicker()->atomLayoutEdit(), QStringLiteral("(2,2,1)"));
    ASSERT_TRUE(pane->tiledCopy()) << pane->error().toStdString();
    EXPECT_TRUE(pane->moveBox()->isEnabled());
    // The tile's A (32 x 16, pitch 32 B): one x4 per warp, each 2-way — 32 wavefronts, ideal 16.
    EXPECT_EQ(pane->summary().toStdString(),
              std::string("2-way bank conflict: L1 Wavefronts Shared 32, Ideal 16, L1 "
                          "Wavefronts Shared Excessive 16 — 4 instructions (1 per warp, "
                          "4 warps)"));
    EXPECT_TRUE(pane->feedVerdict().contains(QStringLiteral("every register slot of every thread")))
        << pane->feedVerdict().toStdString();
    const Diagram* d = pane->view()->diagram();
    ASSERT_NE(d, nullptr);
    const Diagram cli = cliDiagram("ldmatrix.m8n8.x4.b16", "(2,2,1)");
    EXPECT_EQ(d->title, cli.title);
    ASSERT_EQ(d->cells.size(), cli.cells.size());
    for (std::size_t i = 0; i < cli.cells.size(); ++i)
        ASSERT_EQ(d->tooltip(d->cells[i]), cli.tooltip(cli.cells[i])) << i;
    // Coloured by warp: warp 1's first row is a cell of its own colour, and hovering it names the cell in the
    // status bar (thread, warp, lane, instruction, banks, phase).
    int cell = -1;
    for (std::size_t i = 0; i < d->cells.size() && cell < 0; ++i)
        if (d->cells[i].thread == 32 && d->cells[i].warp == 1)
            cell = static_cast<int>(i);
    ASSERT_GE(cell, 0);
    EXPECT_EQ(d->cells[static_cast<std::size_t>(cell)].colorKey, 1u);
    hoverInView(pane->view(), cell);
    const QString status = named<QLabel>(*w, "hoverStatus")->text();
    EXPECT_TRUE(status.startsWith(QStringLiteral("T32 warp 1 lane 0 · ldmatrix #0"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("banks"))) << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("phase"))) << status.toStdString();
    // The Cell dock describes it too: the copy it belongs to, its panel and the same words.
    const QString dock = w->viewState()->cell().toPlainText();
    EXPECT_TRUE(dock.contains(status)) << dock.toStdString();
    EXPECT_TRUE(dock.contains(QStringLiteral("mma.m16n8k16.f16 tile 32x16x16"))) << dock.toStdString();
    EXPECT_TRUE(dock.contains(
        QString::fromStdString(d->panels[d->cells[static_cast<std::size_t>(cell)].panel].title)))
        << dock.toStdString();
    // The worst phase is framed: some cell carries the conflict frame.
    bool framed = false;
    for (const DiagramCell& c : d->cells)
        framed |= c.conflict;
    EXPECT_TRUE(framed);
    // Clearing the tile returns to the one instruction.
    clearButton(pane->tilePicker()->atomLayoutEdit());
    EXPECT_FALSE(pane->tiledCopy());
    EXPECT_FALSE(pane->tile());
    ASSERT_NE(pane->view()->diagram(), nullptr);
    EXPECT_NE(pane->view()->diagram()->title, cli.title);
}

TEST(BanksTiledCopy, MoveOffersPlainLdSharedLoadsNamingWhyAWidthFails) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    BanksPane* pane = banksPane(*w);
    ASSERT_TRUE(pane->setFeeds(QStringLiteral("mma.m16n8k16.f16:A"), nullptr));
    std::string error;
    pane->setTile(tile::parseTileLayout("(2,2,1)", "", error));
    QComboBox* move = pane->moveBox();
    EXPECT_EQ(move->itemText(0).toStdString(), "ldmatrix.m8n8.x4.b16");
    move->setCurrentIndex(move->findData(QStringLiteral("ld.shared.b32")));
    ASSERT_TRUE(pane->tiledCopy()) << pane->error().toStdString();
    EXPECT_TRUE(pane->tiledCopy()->sharedLoad);
    // b32: 4 loads per warp, each 2-way — 32 wavefronts for 16 ideal (docs/tiles.md).
    EXPECT_TRUE(pane->summary().startsWith(QStringLiteral(
        "2-way bank conflict: L1 Wavefronts Shared 32, Ideal 16, L1 Wavefronts Shared Excessive 16 — 16")))
        << pane->summary().toStdString();
    EXPECT_EQ(pane->view()->diagram()->title, cliDiagram("ld.shared.b32", "(2,2,1)").title);
    // v2: A's registers 0..1 are not contiguous: refused by name with the widest load that works.
    move->setCurrentIndex(move->findData(QStringLiteral("ld.shared.v2.b32")));
    EXPECT_FALSE(pane->tiledCopy());
    EXPECT_TRUE(pane->error().contains(QStringLiteral("not contiguous in shared memory")))
        << pane->error().toStdString();
    EXPECT_TRUE(pane->error().contains(QStringLiteral("the widest load that works here is ld.shared.b32")))
        << pane->error().toStdString();
    EXPECT_EQ(pane->view()->diagram(), nullptr);
}

TEST(BanksTiledCopy, ATileWithoutFeedsOrATileTooBigIsNamed) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    BanksPane* pane = banksPane(*w);
    std::string error;
    pane->setTile(tile::parseTileLayout("(2,2,1)", "", error));
    EXPECT_FALSE(pane->tiledCopy());
    EXPECT_TRUE(pane->feedVerdict().contains(QStringLiteral("give Feeds")))
        << pane->feedVerdict().toStdString();
    ASSERT_NE(pane->view()->diagram(), nullptr); // the one instruction stays drawn
    ASSERT_TRUE(pane->setFeeds(QStringLiteral("mma.m16n8k16.f16:A"), nullptr));
    typeAndEnter(pane->tilePicker()->atomLayoutEdit(), QStringLiteral("(8,8,1)"));
    EXPECT_FALSE(pane->tiledCopy());
    EXPECT_TRUE(pane->error().contains(QStringLiteral("1024"))) << pane->error().toStdString();
    QString why;
    EXPECT_FALSE(pane->setFeeds(QStringLiteral("mma.m16n8k16.f16"), &why));
    EXPECT_TRUE(why.contains(QStringLiteral("SPEC:OPERAND"))) << why.toStdString();
}

// The window's command line routes a matrix move's tile to the pane: the tiled copy, not a refusal.
TEST(BanksTiledCopy, TheWindowGivesAMatrixMovesTileToThePane) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    std::string error;
    const auto t = tile::parseTileLayout("(2,2,1)", "", error);
    QString why;
    EXPECT_FALSE(w->setTiledCopy(QStringLiteral("mma.m16n8k16.f16:A"), t, &why));
    EXPECT_TRUE(why.contains(QStringLiteral("ldmatrix or stmatrix"))) << why.toStdString();
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    ASSERT_TRUE(w->setTiledCopy(QStringLiteral("mma.m16n8k16.f16:A"), t, &why)) << why.toStdString();
    BanksPane* pane = banksPane(*w);
    ASSERT_TRUE(pane->tiledCopy());
    EXPECT_EQ(pane->tilePicker()->atomLayoutEdit()->text().toStdString(), "(2,2,1)");
}

} // namespace
} // namespace test_tile_picker

namespace test_tile_picker {
namespace {

// A tiled copy is the tile and its phase table side by side: the dock widens to show both (it stayed 620 px,
// the phase table scrolled out of sight).
TEST(BanksTiledCopy, TheDockWidensForATiledCopy) {
    Window w;
    w->resize(1600, 1000);
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    QApplication::processEvents();
    auto* dock = w->findChild<QDockWidget*>(QStringLiteral("banksDock"));
    ASSERT_TRUE(dock && dock->isVisible());
    ASSERT_LT(dock->width(), 1600 * 45 / 100);
    std::string error;
    ASSERT_TRUE(
        w->setTiledCopy(QStringLiteral("mma.m16n8k16.f16:A"), tile::parseTileLayout("(2,2,1)", "", error)));
    QApplication::processEvents();
    QApplication::processEvents();
    EXPECT_GE(dock->width(), 1600 * 45 / 100 - 8);
}

} // namespace
} // namespace test_tile_picker
