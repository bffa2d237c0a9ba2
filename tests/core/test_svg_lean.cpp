// Issue 21's SVG goals, decided in the Diagram so the window and every backend show the same thing
// (docs/svg.md#tooltips): one short tooltip grammar, and sub-byte shared memory drawn one cell per byte.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/svg.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace test_svg_lean {

using namespace lanemap;

namespace {

const Instruction& get(const char* spec) {
    const Instruction* in = Catalog::instance().instruction(spec);
    if (!in)
        throw std::runtime_error(std::string("no variant ") + spec);
    return *in;
}

const DiagramPanel* panelOf(const Diagram& d, PanelKind kind) {
    for (const DiagramPanel& p : d.panels)
        if (p.kind == kind)
            return &p;
    return nullptr;
}

smem::SharedOperand sharedB(const Instruction& in) {
    std::string why;
    for (const smem::SharedOperand& op :
         smem::operands(in, smem::Choice{smem::Major::K, smem::Swizzle::B128}, why))
        if (op.operand == Operand::B)
            return op;
    throw std::runtime_error("no shared B: " + why);
}

// Every field a reader relies on, in one short line: lane (and warp in a warpgroup), element, register,
// bits, row and column.
TEST(TooltipGrammar, RegisterElementsSayLaneElementRegisterBitsAndPosition) {
    const Diagram mma = buildDiagram(get("mma.m16n8k16.f16"));
    const DiagramPanel& a = mma.panels.front();
    const DiagramCell& a5 = mma.cells[a.cellsAtGrid(3, 11).front()];
    EXPECT_EQ(mma.tooltip(a5), "lane 13 a5 \u00b7 r2[31..16] \u00b7 (3,11)");

    DiagramOptions d;
    d.operands = Operand::D;
    const Diagram wg = buildDiagram(get("wgmma.m64n256k16.f16"), d);
    const DiagramCell& d108 = wg.cells[wg.panels.front().cellsAtGrid(2, 222).front()];
    EXPECT_EQ(wg.label(d108), "T11:d108");
    EXPECT_EQ(wg.tooltip(d108), "warp 0 lane 11 d108 \u00b7 r108[31..0] \u00b7 (2,222)");
}

// A 256 x 256 one-bit B was 65,536 cells of one bit each; a byte is what an address names, so a cell is a
// byte holding 8 k of one n, and every element still finds its byte.
TEST(SharedMemoryBytes, OneBitBIsDrawnOneCellPerByte) {
    const smem::SharedOperand op = sharedB(get("wgmma.m64n256k256.b1"));
    ASSERT_EQ(op.rows, 256); // K
    ASSERT_EQ(op.cols, 256); // N
    const Diagram d = buildSharedMemoryDiagram(op);
    const DiagramPanel* grid = panelOf(d, PanelKind::SharedMemory);
    ASSERT_NE(grid, nullptr);
    EXPECT_EQ(grid->rowElements, 8);
    EXPECT_EQ(grid->colElements, 1);
    EXPECT_EQ(grid->rows, 32);
    EXPECT_EQ(grid->cols, 256);
    EXPECT_EQ(grid->cellCount, 32u * 256u);
    EXPECT_EQ(grid->rowHeaders[1], "8..15");
    // Each of the 65,536 elements lies in the byte its cell names.
    for (int k = 0; k < op.rows; ++k)
        for (int n = 0; n < op.cols; ++n) {
            const smem::Coord lc = op.toLayout(k, n);
            const smem::Placement pl = op.layout.placement(lc.mn, lc.k);
            const auto at = grid->cellsAtGrid(k / 8, n);
            ASSERT_EQ(at.size(), 1u);
            ASSERT_EQ(d.cells[at[0]].address, pl.address) << "k " << k << " n " << n;
        }
    // n 105, k 8..15: its label is the byte, its tooltip the elements it holds and where the byte sits.
    const DiagramCell& c = d.cells[grid->cellsAtGrid(1, 105).front()];
    const smem::Coord lc = op.toLayout(8, 105);
    const std::uint32_t byte = op.layout.placement(lc.mn, lc.k).address;
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", byte);
    EXPECT_EQ(d.label(c), hex) << "a byte, no bit suffix";
    const std::string tip = d.tooltip(c);
    EXPECT_EQ(tip.rfind(std::string("B k8..15 n105 \u00b7 ") + hex + " \u00b7 line ", 0), 0u) << tip;
    char banks[32];
    const unsigned chunk = (byte >> 4) & 7u;
    std::snprintf(banks, sizeof banks, " chunk %u \u00b7 banks %u..%u", chunk, 4 * chunk, 4 * chunk + 3);
    EXPECT_NE(tip.find(banks), std::string::npos) << tip;
    // Hover still lights the chunk: the byte cells of one 16-byte chunk share its hover group.
    const DiagramCell& same = d.cells[grid->cellsAtGrid(2, 105).front()];
    EXPECT_EQ(c.thread == same.thread, (c.address >> 4) == (same.address >> 4));
}

// The largest catalog SVG was 16.7 MB, 13 of them B's one-bit cells.
TEST(SharedMemoryBytes, TheLargestCatalogSvgShrinks) {
    std::string svg, error;
    ASSERT_TRUE(exportInstruction(get("wgmma.m64n256k256.b1"), ExportFormat::Svg, {}, svg, error)) << error;
    EXPECT_LT(svg.size(), 5'000'000u);
    EXPECT_NE(svg.find("one cell per byte"), std::string::npos);
}

} // namespace

} // namespace test_svg_lean
