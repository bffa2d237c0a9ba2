// The Cell dock for cells outside register fragments, as a kernel engineer debugging a TMEM epilogue or a
// shared-memory layout reads it: a Tensor Memory cell gives its CTA, lane, column, address, subpartition and
// reaching warp, the element(s) and, composed, the thread and register of the chosen tcgen05.ld; a
// shared-memory cell gives its address, chunk, banks, swizzle phase, elements and (ldmatrix) the lanes that
// read it. Every value is checked against the core tables; Copy cell info copies the same fields.
#include "banks_pane.hpp"
#include "details_panel.hpp"
#include "opened_at.hpp"
#include "view_state.hpp"

#include "lanemap/banks.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/tmem.hpp"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>

#include <gtest/gtest.h>

namespace test_cell_dock_memory {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

const DiagramPanel* panelOf(const Diagram& d, PanelKind kind) {
    for (const DiagramPanel& p : d.panels)
        if (p.kind == kind)
            return &p;
    return nullptr;
}

// The value the dock lists under `name`, or "(missing)".
QString field(const CellInfo& info, const QString& name) {
    for (const auto& [key, value] : info.fields())
        if (key == name)
            return value;
    return QStringLiteral("(missing)");
}

// Clicks the dock's Copy cell info and returns what landed on the clipboard.
QString copied(MainWindow* w) {
    QApplication::clipboard()->clear();
    QPushButton* copy = nullptr;
    for (QPushButton* b : details(*w)->findChildren<QPushButton*>())
        if (b->text() == QStringLiteral("Copy cell info"))
            copy = b;
    EXPECT_NE(copy, nullptr);
    EXPECT_TRUE(copy && copy->isEnabled());
    if (copy)
        copy->click();
    return QApplication::clipboard()->text();
}

std::string str(const QString& s) {
    return s.toStdString();
}

// Layout A (M = 256, cta_group::2): D(165,40) is row 37 of CTA 1. Hovered in the composed view, the dock
// names the CTA, lane, column, address, subpartition, warp, and the register of the epilogue's load.
TEST(CellDockMemory, ATensorMemoryCellOfCta1OfAPairHasItsFields) {
    OpenedAt w(QSize(1920, 1080), QStringLiteral("tcgen05.mma.cta_group::2.kind::f16.m256n64"));
    DiagramView* view = tensorMemoryView(*w.window);
    ASSERT_NE(view, nullptr);
    const Params& o = w.window->instruction()->params;
    ASSERT_TRUE(o.access);
    const tmem::MmaShape shape = tensorShape(*w.window);
    ASSERT_EQ(tmem::toString(tmem::layoutOf(shape).layout), "A");
    const tmem::Placement at = tmem::placeD(shape, 165, 40);
    ASSERT_EQ(at.cta, 1);
    const tmem::Holder h = tmem::whoHoldsD(shape, *o.access, 165, 40);

    const int cell = elementCell(*view->diagram(), PanelKind::TensorMemory, 165, 40);
    ASSERT_GE(cell, 0);
    hoverInView(view, cell);
    const CellInfo& info = details(*w.window)->cell();
    ASSERT_TRUE(info.tensorMemory) << "a Tensor Memory cell gets its fields";
    const TensorMemoryCell& t = *info.tensorMemory;
    EXPECT_EQ(t.element, QStringLiteral("D(165,40)"));
    EXPECT_EQ(t.cta, at.cta);
    EXPECT_EQ(t.ctas, 2);
    EXPECT_EQ(t.lane, at.lane);
    EXPECT_EQ(t.lane, 37);
    EXPECT_EQ(t.column, at.column);
    EXPECT_EQ(t.address, (tmem::Address{at.lane, at.column}.encode()));
    EXPECT_EQ(t.subpartition, 1);
    ASSERT_TRUE(t.held) << "the view opens composed with the epilogue's load";
    EXPECT_EQ(t.warp, h.warp);
    EXPECT_EQ(t.threadLane, h.thread);
    EXPECT_EQ(t.thread, h.warp * 32 + h.thread);
    EXPECT_EQ(t.reg, h.reg);
    EXPECT_EQ(t.accessLane, h.address.lane);
    EXPECT_EQ(t.accessColumn, h.address.column);
    EXPECT_EQ(t.access, QString::fromStdString(tmem::specOf(*o.access)));

    // What the dock shows, in the words docs/gui.md uses.
    EXPECT_EQ(field(info, QStringLiteral("CTA")), QStringLiteral("1 of the pair (cta_group::2)"));
    EXPECT_EQ(field(info, QStringLiteral("TMEM address")),
              QStringLiteral("0x00250028 (lane << 16 | column)"));
    EXPECT_EQ(field(info, QStringLiteral("subpartition")), QStringLiteral("1 (lanes 32..63)"));
    EXPECT_EQ(field(info, QStringLiteral("reached by")),
              QStringLiteral("warp 1 of the warpgroup (warp id % 4 = 1)"));
    EXPECT_EQ(field(info, QStringLiteral("thread")), QStringLiteral("37 (warp 1, lane 5) of CTA 1"));
    EXPECT_EQ(field(info, QStringLiteral("register")), QStringLiteral("r8 [31..0]"));
    EXPECT_TRUE(field(info, QStringLiteral("layout")).startsWith(QStringLiteral("data-path layout A")));
    EXPECT_EQ(field(info, QStringLiteral("loaded by")),
              QStringLiteral("tcgen05.ld.32x32b.x32, access #1 of each warp"));
    EXPECT_EQ(field(info, QStringLiteral("its taddr")), QStringLiteral("lane 32, column 32 (0x00200020)"));
    const QString shown = details(*w.window)->shownText();
    EXPECT_TRUE(shown.contains(QStringLiteral("0x00250028 (lane << 16 | column)"))) << str(shown);
    EXPECT_TRUE(shown.contains(QStringLiteral("reached by"))) << str(shown);

    // Copy cell info: the same fields as text.
    const QString text = copied(w.window.get());
    EXPECT_EQ(text, info.toPlainText());
    EXPECT_TRUE(text.contains(QStringLiteral("\n  TMEM lane: 37\n  TMEM column: 40\n"))) << str(text);
    EXPECT_TRUE(text.contains(QStringLiteral("\n  thread: 37 (warp 1, lane 5) of CTA 1\n"))) << str(text);
}

// A .16x32bx2 load with .pack::16b: two 16-lane halves, two columns a register. Every D cell of the view is
// described as whoHoldsD places it, and a register holding the upper column says "high half".
TEST(CellDockMemory, A16x32bx2PackedCompositionNamesTheThreadRegisterAndHalf) {
    OpenedAt w(QSize(1920, 1080), QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n64"));
    const tmem::MmaShape shape = tensorShape(*w.window);
    std::optional<tmem::Access> access;
    for (const tmem::Access& a : composableAccesses(shape, tmem::Op::Ld))
        if (a.shape == tmem::Shape::S16x32bx2 && a.packed && !access)
            access = a;
    ASSERT_TRUE(access);
    QString error;
    ASSERT_TRUE(openWith(
        *w.window,
        [&](Params& p) {
            p.n = 64;
            p.tensorOperand = Operand::D;
            p.access = access;
        },
        &error))
        << str(error);
    QApplication::processEvents();
    DiagramView* view = tensorMemoryView(*w.window);
    ASSERT_NE(view, nullptr);
    const Diagram& d = *view->diagram();
    const Params& o = w.window->instruction()->params;
    ASSERT_TRUE(o.access && *o.access == *access);

    // Every D cell, both panels: the core's holder.
    int checked = 0;
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const DiagramCell& c = d.cells[i];
        const DiagramPanel& p = d.panels[c.panel];
        if (p.name != "D")
            continue;
        const CellInfo info = describeTensorMemoryCell(*w.window->instruction(), d, static_cast<int>(i));
        ASSERT_TRUE(info.tensorMemory);
        const TensorMemoryCell& t = *info.tensorMemory;
        const tmem::Placement at = tmem::placeD(shape, c.element, c.bitLo);
        const tmem::Holder h = tmem::whoHoldsD(shape, *access, c.element, c.bitLo);
        ASSERT_EQ(t.lane, at.lane) << i;
        ASSERT_EQ(t.column, at.column) << i;
        ASSERT_EQ(t.bits, 16) << "the low 16 bits of each column";
        ASSERT_TRUE(t.held);
        ASSERT_EQ(t.thread, h.warp * 32 + h.thread) << i;
        ASSERT_EQ(t.reg, h.reg) << i;
        ASSERT_EQ(t.regBitLo, h.bit) << i;
        ASSERT_EQ(t.accessLane, h.address.lane) << i;
        ASSERT_EQ(t.accessColumn, h.address.column) << i;
        ++checked;
    }
    EXPECT_EQ(checked, 2 * 128 * 64);

    // D(21,1): lane 21 is in the upper 16-lane half of warp 0; column 1 is the upper half of its register.
    const tmem::Holder h = tmem::whoHoldsD(shape, *access, 21, 1);
    ASSERT_EQ(h.bit, 16);
    const int cell = elementCell(d, PanelKind::TensorMemoryRegisters, 21, 1);
    ASSERT_GE(cell, 0);
    hoverInView(view, cell);
    const CellInfo& info = details(*w.window)->cell();
    ASSERT_TRUE(info.tensorMemory);
    EXPECT_EQ(field(info, QStringLiteral("element")), QStringLiteral("D(21,1)"));
    EXPECT_EQ(field(info, QStringLiteral("bits")), QStringLiteral("[15..0] of the 32-bit cell (low half)"));
    EXPECT_EQ(field(info, QStringLiteral("register")),
              QStringLiteral("r%1 [31..16] (high half, .pack::16b)").arg(h.reg));
    EXPECT_EQ(field(info, QStringLiteral("thread")),
              QStringLiteral("%1 (warp 0, lane %2)").arg(h.thread).arg(h.thread));
    EXPECT_EQ(field(info, QStringLiteral("its taddr")),
              QStringLiteral("lane %1, column %2 (0x%3)")
                  .arg(h.address.lane)
                  .arg(h.address.column)
                  .arg(h.address.encode(), 8, 16, QLatin1Char('0')));
    EXPECT_EQ(h.address.lane, 16) << "the second 16-lane half of warp 0's access";
}

// A in Tensor Memory (8-bit elements, four a column): the dock lists the cell's four elements and the byte.
TEST(CellDockMemory, ASubColumnElementListsItsCellsElements) {
    OpenedAt w(QSize(1920, 1080), QStringLiteral("tcgen05.mma.cta_group::1.kind::i8.m128n64"));
    QString error;
    ASSERT_TRUE(openWith(
        *w.window,
        [](Params& p) {
            p.n = 64;
            p.tensorOperand = Operand::A;
            p.access.reset();
        },
        &error))
        << str(error);
    const Diagram& d = *tensorMemoryView(*w.window)->diagram();
    const int cell = elementCell(d, PanelKind::TensorMemory, 3, 5);
    ASSERT_GE(cell, 0);
    const CellInfo info = describeTensorMemoryCell(*w.window->instruction(), d, cell);
    ASSERT_TRUE(info.tensorMemory);
    const tmem::MmaShape shape = tensorShape(*w.window);
    const tmem::Placement at = tmem::placeA(shape, 3, 5, 8);
    EXPECT_EQ(info.tensorMemory->column, at.column);
    EXPECT_EQ(info.tensorMemory->bitLo, at.bit);
    EXPECT_EQ(field(info, QStringLiteral("bits")), QStringLiteral("[15..8] of the 32-bit cell (byte 1)"));
    EXPECT_EQ(field(info, QStringLiteral("its cell holds")),
              QStringLiteral("A(3,4) [7..0], A(3,5) [15..8], A(3,6) [23..16], A(3,7) [31..24]"));
    EXPECT_FALSE(info.tensorMemory->held) << "A alone: no access chosen";

    // Composed with the tcgen05.st that puts A there: every A cell names the thread and register that must
    // hold it (four 8-bit elements a register).
    const tmem::Access st = defaultAccess(shape, tmem::Op::St);
    ASSERT_TRUE(openWith(
        *w.window,
        [&](Params& p) {
            p.n = 64;
            p.tensorOperand = Operand::A;
            p.access = st;
        },
        &error))
        << str(error);
    const Diagram& composed = *tensorMemoryView(*w.window)->diagram();
    int checked = 0;
    for (std::size_t i = 0; i < composed.cells.size(); ++i) {
        const DiagramCell& c = composed.cells[i];
        if (composed.panels[c.panel].name != "A")
            continue;
        const CellInfo a = describeTensorMemoryCell(*w.window->instruction(), composed, static_cast<int>(i));
        ASSERT_TRUE(a.tensorMemory && a.tensorMemory->held);
        const tmem::Holder h = tmem::whoHoldsA(shape, st, c.element, c.bitLo, 8);
        ASSERT_EQ(a.tensorMemory->thread, h.warp * 32 + h.thread) << i;
        ASSERT_EQ(a.tensorMemory->reg, h.reg) << i;
        ASSERT_EQ(a.tensorMemory->regBitLo, h.bit) << i;
        ASSERT_FALSE(a.tensorMemory->load);
        ++checked;
    }
    EXPECT_EQ(checked, 2 * 128 * 32) << "A 128 x 32 in both panels";
    const CellInfo a35 = describeTensorMemoryCell(*w.window->instruction(), composed,
                                                  elementCell(composed, PanelKind::TensorMemory, 3, 5));
    EXPECT_TRUE(field(a35, QStringLiteral("stored by")).startsWith(QString::fromStdString(tmem::specOf(st))))
        << str(field(a35, QStringLiteral("stored by")));
    EXPECT_TRUE(field(a35, QStringLiteral("register")).endsWith(QStringLiteral("[15..8] (byte 1)")))
        << str(field(a35, QStringLiteral("register")));
}

// Elements of every width say which part of the 32-bit cell they are (4-bit A of kind::mxf4: a nibble).
TEST(CellDockMemory, NarrowElementsNameTheirPartOfTheCell) {
    CellInfo info;
    info.valid = true;
    TensorMemoryCell t;
    t.element = QStringLiteral("A(0,5)");
    t.bits = 4;
    t.bitLo = 20;
    info.tensorMemory = t;
    EXPECT_EQ(field(info, QStringLiteral("bits")), QStringLiteral("[23..20] of the 32-bit cell (nibble 5)"));
    info.tensorMemory->bits = 2;
    info.tensorMemory->bitLo = 6;
    EXPECT_EQ(field(info, QStringLiteral("bits")),
              QStringLiteral("[7..6] of the 32-bit cell (part 3 of 16)"));
}

// wgmma B in shared memory, K-major, 128B swizzle: B(k 9, n 3) sits at 0x1a2 (linear 0x192, chunk 1 moved
// to chunk 2 by xor 3), its chunk in the map too.
TEST(CellDockMemory, ASharedMemoryElementAndChunkHaveAddressChunkBanksAndSwizzle) {
    OpenedAt opened(QSize(1280, 720), QStringLiteral("wgmma.m64n8k16.f16"));
    MainWindow* w = opened.window.get();
    SharedMemoryPane* pane = paneOf<SharedMemoryPane>(*w);
    ASSERT_NE(pane, nullptr);
    pane->setShown(SharedMemoryPane::Show::Both);
    DiagramView* view = sharedMemoryView(*w);
    ASSERT_NE(view, nullptr);
    const Diagram& d = *view->diagram();
    const DiagramPanel* grid = panelOf(d, PanelKind::SharedMemory);
    ASSERT_NE(grid, nullptr);
    std::string why;
    const auto ops = smem::operands(*w->instruction(), pane->choice(), why);
    ASSERT_EQ(ops.size(), 2u) << why;
    const smem::Placement pl = ops[1].layout.placement(3, 9); // (n, k)
    ASSERT_EQ(pl.address, 0x1a2u);

    const int element = static_cast<int>(grid->cellsAtGrid(9, 3).front());
    hoverInView(view, element);
    const CellInfo& info = details(*w)->cell();
    ASSERT_TRUE(info.sharedMemory) << "a shared-memory cell gets its fields (the dock stayed empty)";
    const SharedMemoryCell& s = *info.sharedMemory;
    EXPECT_EQ(s.address, pl.address);
    EXPECT_EQ(s.linear, pl.linear);
    EXPECT_EQ(s.swizzlePhase, pl.xorValue);
    EXPECT_EQ(field(info, QStringLiteral("element")), QStringLiteral("B(k 9, n 3)"));
    EXPECT_EQ(field(info, QStringLiteral("address")),
              QStringLiteral("0x1a2 (offset 0x1a2 from the tile's start 0x0)"));
    EXPECT_EQ(field(info, QStringLiteral("16-byte chunk")),
              QStringLiteral("0x1a0..0x1af, chunk 2 of the 128-byte line 0x180"));
    EXPECT_EQ(field(info, QStringLiteral("banks")), QStringLiteral("8 (its chunk: 8..11)"));
    EXPECT_EQ(field(info, QStringLiteral("swizzle")),
              QString::fromUtf8("128B, phase 3 of 8: chunk 1 \u2192 2 (xor 3), 0x192 before it"));
    EXPECT_TRUE(field(info, QStringLiteral("read by")).contains(QStringLiteral("matrix descriptor")));
    EXPECT_TRUE(details(*w)->shownText().contains(QStringLiteral("chunk 2 of the 128-byte line 0x180")));

    // The chunk in the map: line 0x180, column 2, holding n3 k8..15.
    const DiagramPanel* map = panelOf(d, PanelKind::SharedMemoryMap);
    ASSERT_NE(map, nullptr);
    const int chunk = static_cast<int>(map->cellsAtGrid(3, 2).front());
    hoverInView(view, chunk);
    const CellInfo& ci = details(*w)->cell();
    ASSERT_TRUE(ci.sharedMemory);
    EXPECT_TRUE(ci.sharedMemory->chunk);
    EXPECT_EQ(field(ci, QStringLiteral("elements")), QStringLiteral("B: n 3, k 8..15"));
    EXPECT_EQ(field(ci, QStringLiteral("banks")), QStringLiteral("8..11"));
    EXPECT_EQ(field(ci, QStringLiteral("address")),
              QStringLiteral("0x1a0 (offset 0x1a0 from the tile's start 0x0)"));
    EXPECT_EQ(field(ci, QStringLiteral("swizzle")),
              QString::fromUtf8("128B, phase 3 of 8: chunk 1 \u2192 2 (xor 3), 0x190 before it"));

    // The screenshot's --hover (Pane::hoverCell) goes the same way as the mouse: the chunk, no lane.
    pane->hoverCell(element);
    EXPECT_EQ(w->viewState()->hoveredLane(), -1) << "a chunk group is not a lane of the register panes";
    EXPECT_EQ(registersPane(*w, Operand::A)->view()->highlightThread(), -1);
    ASSERT_TRUE(details(*w)->cell().sharedMemory);
    pane->hoverCell(chunk);

    const QString text = copied(w);
    EXPECT_EQ(text, ci.toPlainText());
    EXPECT_TRUE(text.contains(QStringLiteral("\n  banks: 8..11\n"))) << str(text);
}

// ldmatrix.x4: the chunk lane 13 supplies (matrix 1, row 5). The dock gives its address and banks from the
// analysis, the phase and wavefront, and the lanes the row lands in (4 x 5 .. 4 x 5 + 3, register 1).
TEST(CellDockMemory, AnLdmatrixRowNamesItsChunkBanksAndTheLanesThatReadIt) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    BanksPane* pane = w->findChild<BanksPane*>();
    ASSERT_NE(pane, nullptr);
    // A 128B swizzle over a 16x16 row-major tile of 32-byte lines.
    pane->modeBox()->setCurrentIndex(pane->modeBox()->findText(QStringLiteral("128B")));
    ASSERT_TRUE(pane->analysis()) << str(pane->error());
    const banks::RowAccess* row = nullptr;
    const banks::Phase* phase = nullptr;
    for (const banks::Phase& ph : pane->analysis()->phases)
        for (const banks::RowAccess& r : ph.rows)
            if (r.thread == 13)
                row = &r, phase = &ph;
    ASSERT_TRUE(row && phase);
    ASSERT_NE(row->linear, row->address) << "the swizzle moves this row";

    DiagramView* view = pane->view();
    const Diagram* d = view->diagram();
    int cell = -1;
    for (std::uint32_t i : d->cellsOfThread(13))
        if (d->panels[d->cells[i].panel].title == "Shared memory")
            cell = static_cast<int>(i);
    ASSERT_GE(cell, 0);
    view->ensureCellVisible(cell);
    hover(view, cell);
    const CellInfo& info = details(*w)->cell();
    ASSERT_TRUE(info.sharedMemory) << "a chunk of the banks pane fills the Cell dock";
    const SharedMemoryCell& s = *info.sharedMemory;
    EXPECT_EQ(s.address, row->address);
    EXPECT_EQ(s.linear, row->linear);
    EXPECT_EQ(s.thread, 13);
    EXPECT_EQ(s.phase, phase->index);
    EXPECT_EQ(field(info, QStringLiteral("elements")),
              QStringLiteral("matrix 1 row 5: tile row %1, cols %2..%3")
                  .arg(row->tileRow)
                  .arg(row->tileCol)
                  .arg(row->tileCol + 7));
    EXPECT_EQ(field(info, QStringLiteral("banks")),
              QStringLiteral("%1..%2").arg(4 * row->bankGroup).arg(4 * row->bankGroup + 3));
    const int before = static_cast<int>((row->linear >> 4) & 7);
    EXPECT_TRUE(field(info, QStringLiteral("swizzle"))
                    .contains(QString::fromUtf8("chunk %1 \u2192 %2 (xor %3)")
                                  .arg(before)
                                  .arg(row->bankGroup)
                                  .arg(before ^ row->bankGroup)))
        << str(field(info, QStringLiteral("swizzle")));
    EXPECT_EQ(field(info, QStringLiteral("row address")),
              QStringLiteral("lane 13 (phase %1: lanes 8..15, wavefront %2 of %3%4)")
                  .arg(phase->index)
                  .arg(row->wavefront + 1)
                  .arg(phase->degree)
                  .arg(d->cells[static_cast<std::size_t>(cell)].conflict ? QStringLiteral(", bank conflict")
                                                                         : QString()));
    EXPECT_EQ(field(info, QStringLiteral("loaded into")), QStringLiteral("lanes 20..23, r1"));

    const QString text = copied(w.window.get());
    EXPECT_TRUE(text.contains(QStringLiteral("\n  loaded into: lanes 20..23, r1"))) << str(text);

    // No swizzle, 32-byte lines: every phase is a 2-way conflict; lane 29's row (matrix 3 row 5) waits.
    pane->modeBox()->setCurrentIndex(pane->modeBox()->findText(QStringLiteral("none")));
    d = view->diagram();
    cell = -1;
    for (std::uint32_t i : d->cellsOfThread(29))
        if (d->panels[d->cells[i].panel].title == "Shared memory")
            cell = static_cast<int>(i);
    ASSERT_GE(cell, 0);
    view->ensureCellVisible(cell);
    hover(view, cell);
    const CellInfo& plain = details(*w)->cell();
    EXPECT_EQ(field(plain, QStringLiteral("swizzle")), QStringLiteral("none"));
    EXPECT_EQ(field(plain, QStringLiteral("address")),
              QStringLiteral("0x1b0 (offset 0x1b0 from the tile's start 0x0)"))
        << "tile row 13 x 32 bytes + col 8 x 2 bytes";
    EXPECT_EQ(field(plain, QStringLiteral("row address")),
              QStringLiteral("lane 29 (phase 3: lanes 24..31, wavefront 2 of 2, bank conflict)"));
    EXPECT_EQ(field(plain, QStringLiteral("loaded into")), QStringLiteral("lanes 20..23, r3"));

    // The keyboard cursor describes its chunk as the mouse does: lane 4's row (matrix 0 row 4).
    for (std::uint32_t i : d->cellsOfThread(4))
        if (d->panels[d->cells[i].panel].title == "Shared memory")
            view->setCursorCell(static_cast<int>(i));
    EXPECT_EQ(field(details(*w)->cell(), QStringLiteral("loaded into")), QStringLiteral("lanes 16..19, r0"));
}

} // namespace test_cell_dock_memory

namespace test_cell_dock_memory_tma {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

// A TMA box (docs/tma.md): hovering a box cell names the global element it holds, or says it is fill.
TEST(CellDockMemory, ATmaBoxCellNamesItsGlobalElementOrFill) {
    OpenedAt opened(QSize(1280, 720),
                    QStringLiteral("cp.async.bulk.tensor.2d tensor=128x192 box=8x64 origin=124,0"));
    MainWindow* w = opened.window.get();
    SharedMemoryPane* pane = paneOf<SharedMemoryPane>(*w);
    ASSERT_NE(pane, nullptr) << "a TMA box opens the shared-memory pane";
    DiagramView* view = pane->view();
    ASSERT_NE(view->diagram(), nullptr);
    const DiagramPanel* grid = nullptr;
    for (const DiagramPanel& p : view->diagram()->panels)
        if (p.kind == PanelKind::SharedMemory)
            grid = &p;
    ASSERT_NE(grid, nullptr);
    pane->hoverCell(static_cast<int>(grid->cellsAtGrid(1, 2).front()));
    EXPECT_TRUE(pane->describe(static_cast<int>(grid->cellsAtGrid(1, 2).front()))
                    .summary.contains(QStringLiteral("global element (125,2), byte 48004 of the tensor")))
        << pane->describe(static_cast<int>(grid->cellsAtGrid(1, 2).front())).summary.toStdString();
    EXPECT_TRUE(pane->describe(static_cast<int>(grid->cellsAtGrid(5, 0).front()))
                    .summary.contains(QStringLiteral("fill: outside the tensor")));
}

// The recorded TMA report proves the box model over the configurations it ran; a box the user configures is
// drawn by that model but was not itself probed, and the verdict line must not say it was.
TEST(CellDockMemory, ATmaBoxOfItsOwnConfigurationIsNotCalledConfirmedCellByCell) {
    OpenedAt opened(QSize(1280, 720),
                    QStringLiteral("cp.async.bulk.tensor.2d tensor=128x192 box=8x64 origin=124,0"));
    const QLabel* verdict = named(*opened.window, "verdictLegend");
    EXPECT_FALSE(verdict->isHidden());
    EXPECT_FALSE(verdict->text().contains(QStringLiteral("Every cell confirmed")))
        << verdict->text().toStdString();
    EXPECT_TRUE(verdict->text().contains(QStringLiteral("this configuration itself was not probed")))
        << verdict->text().toStdString();
    EXPECT_TRUE(verdict->text().contains(QStringLiteral("configurations probed on NVIDIA H200")))
        << verdict->text().toStdString();
}

// The probe ran one CTA's loads: a multicast's other CTAs are drawn, not probed, and the line says so.
TEST(CellDockMemory, AMulticastSaysItsClusterWasNotProbed) {
    OpenedAt opened(QSize(1280, 720),
                    QStringLiteral("cp.async.bulk.tensor.2d tensor=128x64 box=8x64 cta-mask=0x3"));
    const QLabel* verdict = named(*opened.window, "verdictLegend");
    EXPECT_TRUE(verdict->text().contains(QStringLiteral("Nor was a load over a cluster (2 CTAs)")))
        << verdict->text().toStdString();
}

// One thread issues a TMA load: the header says "1 thread", not "1 threads".
TEST(CellDockMemory, TheHeaderCountsTheOneThreadThatIssuesATmaLoad) {
    OpenedAt opened(QSize(1280, 720), QStringLiteral("cp.async.bulk.tensor.2d"));
    QString facts;
    for (const QLabel* label : opened.window->findChildren<QLabel*>())
        if (label->text().contains(QStringLiteral("min <b>sm_")))
            facts = label->text();
    EXPECT_TRUE(facts.startsWith(QStringLiteral("1 thread ("))) << facts.toStdString();
}

} // namespace test_cell_dock_memory_tma
