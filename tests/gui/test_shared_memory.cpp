// Issue 14.6: wgmma's shared-memory operands in the window (B, and A for the SS form): byte address per
// element, 16-byte chunks before and after the swizzle, the descriptor decoded, major-ness and swizzle
// pickers, and the same picture in the SVG export.
#include "details_panel.hpp"
#include "gui_test_support.hpp"
#include "opened_at.hpp"
#include "pane_frame.hpp"

#include "lanemap/smem.hpp"
#include "lanemap/svg.hpp"

#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QStandardItemModel>

#include <gtest/gtest.h>

namespace test_shared_memory {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// The shared-memory pane's major-ness and swizzle, chosen as its pickers do.
bool choose(MainWindow& w, smem::Major major, smem::Swizzle swizzle, QString* error = nullptr) {
    return openWith(
        w,
        [&](Params& p) {
            const smem::Choice c{major, swizzle};
            p.smem = c == smem::Choice{} ? std::nullopt : std::optional(c);
        },
        error);
}

const DiagramPanel* panelOf(const Diagram& d, PanelKind kind) {
    for (const DiagramPanel& p : d.panels)
        if (p.kind == kind)
            return &p;
    return nullptr;
}

int cellIn(const DiagramPanel& p, int row, int col) {
    const auto cells = p.cellsAtGrid(row, col);
    return cells.empty() ? -1 : static_cast<int>(cells.front());
}

bool hasText(const Diagram& d, const std::string& needle) {
    for (const DiagramText& t : d.texts)
        if (t.text.find(needle) != std::string::npos)
            return true;
    return false;
}

// A tcgen05.mma reads A and B from the shared memory of each CTA of its pair: the pane draws each CTA's part,
// titled with the CTA and its rows (A) or columns (B), every tooltip naming the CTA; the export carries them.
TEST(SharedMemoryPane, Tcgen05ShowsEachCtasPartOfAAndB) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("tcgen05.mma.cta_group::2.kind::f16.m128n64")));
    SharedMemoryPane* pane = paneOf<SharedMemoryPane>(*w);
    ASSERT_NE(pane, nullptr) << paneLabels(*w).join(QLatin1Char(',')).toStdString();
    EXPECT_TRUE(pane->title()->text().contains(QStringLiteral("B in shared memory")))
        << pane->title()->text().toStdString();
    EXPECT_TRUE(pane->title()->text().contains(QStringLiteral("16 × 32, in 2 CTAs")))
        << pane->title()->text().toStdString();
    const Diagram* d = pane->view()->diagram();
    ASSERT_NE(d, nullptr);
    EXPECT_TRUE(hasText(*d, "CTA 0: columns 0..31 of B (cta_group::2)"));
    EXPECT_TRUE(hasText(*d, "CTA 1: columns 32..63 of B (cta_group::2)"));
    // The second CTA's grid: its element (k 0, n 0) is B[0][32]; the tooltip names CTA 1 and the byte.
    const DiagramPanel* second = nullptr;
    for (const DiagramPanel& p : d->panels)
        if (p.kind == PanelKind::SharedMemory && p.name == "CTA 1 B")
            second = &p;
    ASSERT_NE(second, nullptr);
    const int cell = cellIn(*second, 0, 0);
    ASSERT_GE(cell, 0);
    const std::string tip = d->tooltip(d->cells[static_cast<std::size_t>(cell)]);
    EXPECT_EQ(tip.rfind("CTA 1 B k0 n0 \u00b7 0x0", 0), 0u) << tip;
    // A: each CTA's 64 rows.
    pane->setOperand(Operand::A);
    d = pane->view()->diagram();
    EXPECT_TRUE(hasText(*d, "CTA 1: rows 64..127 of A (cta_group::2)"));
    EXPECT_TRUE(named<QComboBox>(*w, "smemOperand")->isEnabled());
    Diagram exported;
    pane->addToExport(exported);
    EXPECT_TRUE(hasText(exported, "CTA 0: rows 0..63 of A (cta_group::2)"));
}

TEST(SharedMemoryPane, WgmmaShowsBWithAddressesChunksAndTheDescriptor) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n8k16.f16")));
    SharedMemoryPane* pane = paneOf<SharedMemoryPane>(*w);
    ASSERT_NE(pane, nullptr) << paneLabels(*w).join(QLatin1Char(',')).toStdString();
    EXPECT_TRUE(paneLabels(*w).contains(QStringLiteral("shared memory")));
    // The header's promise ("see the shared-memory view") now points at something on screen.
    bool promised = false;
    for (const QLabel* l : w->findChildren<QLabel*>())
        promised = promised || l->text().contains(QStringLiteral("shared-memory view"));
    EXPECT_TRUE(promised);
    EXPECT_TRUE(pane->title()->text().contains(QStringLiteral("B in shared memory")));

    // Addresses first (readable at fit); the memory lines on request, or both.
    EXPECT_EQ(named<QComboBox>(*w, "smemShow")->currentText(), QStringLiteral("addresses"));
    EXPECT_EQ(panelOf(*pane->view()->diagram(), PanelKind::SharedMemoryMap), nullptr);
    pane->setShown(SharedMemoryPane::Show::Both);
    EXPECT_EQ(named<QComboBox>(*w, "smemShow")->currentText(), QStringLiteral("both"));
    DiagramView* view = pane->view();
    const Diagram& d = *view->diagram();
    const DiagramPanel* grid = panelOf(d, PanelKind::SharedMemory);
    const DiagramPanel* map = panelOf(d, PanelKind::SharedMemoryMap);
    ASSERT_TRUE(grid && map);
    EXPECT_EQ(grid->rows, 16); // K
    EXPECT_EQ(grid->cols, 8);  // N
    EXPECT_EQ(map->cols, 8);   // 16-byte chunks of a 128-byte line

    // Default: K-major, 128B swizzle. B(k 9, n 3): linear n*128 + k*2 = 0x192, chunk 1 of its line; the
    // 128B XOR (bits [6:4] ^= bits [9:7] = 3) moves it to chunk 2: byte 0x1a2.
    EXPECT_EQ(named<QComboBox>(*w, "smemMajor")->currentText(), QStringLiteral("K"));
    EXPECT_EQ(named<QComboBox>(*w, "smemSwizzle")->currentText(), QStringLiteral("128B"));
    const int element = cellIn(*grid, 9, 3);
    ASSERT_GE(element, 0);
    const DiagramCell& e = d.cells[static_cast<std::size_t>(element)];
    EXPECT_EQ(d.label(e), "0x1a2");
    const std::string tip = d.tooltip(e);
    EXPECT_NE(tip.find("line 0x180 chunk 2 \u00b7 banks 8..11"), std::string::npos) << tip;
    EXPECT_NE(tip.find("chunk 1 before swizzle"), std::string::npos) << tip;
    // The map holds that chunk in line 3 (0x180), column 2: n3 k8..15.
    const int chunk = cellIn(*map, 3, 2);
    ASSERT_GE(chunk, 0);
    EXPECT_EQ(d.label(d.cells[static_cast<std::size_t>(chunk)]), "n3 k8..15");
    EXPECT_EQ(map->rowNotes[3], "chunk xor 3");

    // The descriptor decoded, from the same model the CLI and the probe use.
    std::string why;
    const auto ops =
        smem::operands(*w->instruction(), smem::Choice{smem::Major::K, smem::Swizzle::B128}, why);
    ASSERT_EQ(ops.size(), 2u) << why;
    EXPECT_TRUE(hasText(d, "descriptor: " + smem::describe(ops[1].layout.descriptor())));
    EXPECT_TRUE(hasText(d, "Swizzle<3,4,3>"));

    // Hovering an element lights its chunk: the 8 elements in it and the chunk in the map; the Cell panel no
    // longer describes the register cell hovered before.
    DiagramView* regA = gui::test::view(*w, Operand::A);
    hover(regA, cellAt(regA, 0, 0));
    ASSERT_FALSE(details(*w)->cell().owners.empty());
    view->ensureCellVisible(element);
    hover(view, element);
    EXPECT_TRUE(details(*w)->cell().owners.empty());
    EXPECT_EQ(view->highlightThread(), e.thread);
    EXPECT_EQ(view->litCellCount(), 9);
    // The register panes are not lit by a chunk.
    EXPECT_EQ(gui::test::view(*w, Operand::A)->highlightThread(), -1);

    // No swizzle: the same element sits at n*16 + k*2 + LBO (128) = 0xb2.
    ASSERT_TRUE(choose(*w, smem::Major::K, smem::Swizzle::None));
    EXPECT_EQ(named<QComboBox>(*w, "smemSwizzle")->currentText(), QStringLiteral("none"));
    const Diagram& plain = *pane->view()->diagram();
    EXPECT_EQ(
        plain.label(
            plain.cells[static_cast<std::size_t>(cellIn(*panelOf(plain, PanelKind::SharedMemory), 9, 3))]),
        "0xb2");

    // The pickers drive it like the API.
    QComboBox* swizzle = named<QComboBox>(*w, "smemSwizzle");
    swizzle->setCurrentIndex(swizzle->findText(QStringLiteral("64B")));
    emit swizzle->activated(swizzle->currentIndex());
    EXPECT_EQ(pane->choice().swizzle, smem::Swizzle::B64);
    EXPECT_TRUE(hasText(*pane->view()->diagram(), "Swizzle<2,4,3>"));

    // A, the SS form: M x K.
    ASSERT_TRUE(choose(*w, smem::Major::K, smem::Swizzle::B128));
    pane->setOperand(Operand::A);
    const Diagram& a = *pane->view()->diagram();
    EXPECT_EQ(panelOf(a, PanelKind::SharedMemory)->rows, 64);
    EXPECT_EQ(panelOf(a, PanelKind::SharedMemory)->cols, 16);
    EXPECT_TRUE(pane->title()->text().contains(QStringLiteral("A in shared memory")));
}

TEST(SharedMemoryPane, TheSvgExportCarriesIt) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n8k16.f16")));
    const Diagram d = w->exportDiagram();
    const DiagramPanel* grid = panelOf(d, PanelKind::SharedMemory);
    ASSERT_NE(grid, nullptr);
    // k 9 of n 3 is the second element of the chunk at 0x1a0: the chunk's first element shows its address,
    // and k 9 is named only by hover.
    const DiagramCell& k9 = d.cells[static_cast<std::size_t>(cellIn(*grid, 9, 3))];
    const DiagramCell& k8 = d.cells[static_cast<std::size_t>(cellIn(*grid, 8, 3))];
    EXPECT_EQ(d.label(k9), "0x1a2");
    EXPECT_EQ(d.label(k8), "0x1a0");
    EXPECT_FALSE(d.drawsLabel(k9));
    EXPECT_TRUE(d.drawsLabel(k8));
    // Its hover groups come after the warpgroup's 128 threads: a chunk never lights a thread's cells.
    for (const DiagramCell& c : d.cells) {
        if (d.panels[c.panel].kind == PanelKind::SharedMemory) {
            ASSERT_GE(c.thread, 128);
        }
    }
    const std::string svg = toSvg(d);
    EXPECT_NE(svg.find("B in shared memory"), std::string::npos);
    EXPECT_NE(svg.find(">0x1a0<"), std::string::npos);
    EXPECT_EQ(svg.find(">0x1a2<"), std::string::npos) << "one label per chunk, as the pane draws it";
    EXPECT_NE(svg.find("n3 k8..15"), std::string::npos);
    EXPECT_NE(svg.find("descriptor: "), std::string::npos);
}

// The pane paints a chunk's address on its first element only: k 8 of n 3 shows 0x1a0, k 9 (0x1a2, the same
// chunk) is its colour alone, as the SVG draws it.
TEST(SharedMemoryPane, PaintsOneAddressPerChunk) {
    OpenedAt w(QSize(1920, 1080), QStringLiteral("wgmma.m64n8k16.f16"));
    DiagramView* view = sharedMemoryView(*w.window);
    ASSERT_NE(view, nullptr);
    const Diagram* d = view->diagram();
    ASSERT_NE(d, nullptr);
    const DiagramPanel* grid = panelOf(*d, PanelKind::SharedMemory);
    ASSERT_NE(grid, nullptr);
    const QImage shot = view->viewport()->grab().toImage();
    EXPECT_GT(inkedPixels(view, shot, cellIn(*grid, 8, 3)), 5)
        << "0x1a0 painted on the chunk's first element";
    EXPECT_EQ(inkedPixels(view, shot, cellIn(*grid, 9, 3)), 0) << "no label on the chunk's second element";
}

TEST(SharedMemoryPane, MnMajorIsOfferedOnlyForSixteenBitTypes) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n8k16.f16")));
    ASSERT_TRUE(choose(*w, smem::Major::MN, smem::Swizzle::B128));
    paneOf<SharedMemoryPane>(*w)->setShown(SharedMemoryPane::Show::Memory);
    EXPECT_EQ(panelOf(*sharedMemoryView(*w)->diagram(), PanelKind::SharedMemory), nullptr);
    const Diagram& mn = *sharedMemoryView(*w)->diagram();
    // MN-major: a chunk holds 8 consecutive n of one k.
    EXPECT_EQ(panelOf(mn, PanelKind::SharedMemoryMap)->rowLetter, 'k');

    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n8k8.tf32")));
    EXPECT_EQ(paneOf<SharedMemoryPane>(*w)->choice().major, smem::Major::K)
        << "tf32 reads shared memory K-major only";
    EXPECT_EQ(named<QComboBox>(*w, "smemMajor")->currentText(), QStringLiteral("K"));
    auto* model = qobject_cast<QStandardItemModel*>(named<QComboBox>(*w, "smemMajor")->model());
    ASSERT_NE(model, nullptr);
    EXPECT_FALSE(model->item(1)->isEnabled());
    QString error;
    EXPECT_FALSE(choose(*w, smem::Major::MN, smem::Swizzle::B128, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("MN-major"))) << error.toStdString();
    // Dense mma has no shared-memory pane.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    EXPECT_EQ(paneOf<SharedMemoryPane>(*w), nullptr);
    EXPECT_FALSE(paneLabels(*w).contains(QStringLiteral("shared memory")));
}

// Issue 21: one-bit B is drawn one cell per byte (the 8 k a byte holds) in the pane as in the SVG; hovering a
// byte names its elements and address in the status line and lights the other bytes of its 16-byte chunk.
TEST(SharedMemoryPane, OneBitBIsOneCellPerByteAndHoverStillLightsItsChunk) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n8k256.b1")));
    ASSERT_TRUE(paneLabels(*w).contains(QStringLiteral("shared memory")));
    DiagramView* view = sharedMemoryView(*w);
    const Diagram& d = *view->diagram();
    const DiagramPanel* grid = panelOf(d, PanelKind::SharedMemory);
    ASSERT_NE(grid, nullptr);
    EXPECT_EQ(grid->rowElements, 8);
    EXPECT_EQ(grid->rows, 32); // K = 256 one-bit elements: 32 bytes per n
    EXPECT_EQ(grid->cols, 8);
    EXPECT_EQ(grid->rowHeaders[1], "8..15");
    const int cell = cellIn(*grid, 1, 3);
    ASSERT_GE(cell, 0);
    const DiagramCell& c = d.cells[static_cast<std::size_t>(cell)];
    EXPECT_EQ(d.label(c).find('.'), std::string::npos) << "a byte address, no bit: " << d.label(c);
    const std::string tip = d.tooltip(c);
    EXPECT_EQ(tip.rfind("B k8..15 n3 \u00b7 " + d.label(c) + " \u00b7 line ", 0), 0u) << tip;

    view->ensureCellVisible(cell);
    hover(view, cell);
    auto* status = w->findChild<QLabel*>(QStringLiteral("hoverStatus"));
    ASSERT_NE(status, nullptr);
    EXPECT_EQ(status->text().toStdString(), tip);
    EXPECT_EQ(view->highlightThread(), c.thread);
    // A 16-byte chunk holds 128 k of one n: 16 byte cells light together.
    EXPECT_EQ(view->litCellCount(), 16);
    EXPECT_EQ(gui::test::view(*w, Operand::D)->highlightThread(), -1);
}

} // namespace

} // namespace test_shared_memory
