// Sparse drawing paths (chunked A with several owners per position, metadata on the A grid and as per-lane
// register bit diagrams), tested on a synthetic mma.sp built from model.hpp's generic MetadataLayout.
#include "lanemap/diagram.hpp"

#include "synthetic.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace test_diagram_sparse {

using namespace lanemap;

namespace {

const DiagramPanel& panel(const Diagram& d, std::string_view operand) {
    for (const DiagramPanel& p : d.panels)
        if (p.name == operand)
            return p;
    throw std::runtime_error("no panel " + std::string(operand));
}

TEST(DiagramSparse, ChunkOwnersAreAllShownSideBySide) {
    const Instruction in = test::sparseM16n8k16();
    const Diagram d = buildDiagram(in);
    const DiagramPanel& a = panel(d, "A");
    EXPECT_EQ(a.cellCount, in.operand(Operand::A)->elements().size()); // every owner drawn, none hidden
    // Row 3, chunk cols 4..7 belongs to lane 13 (g 3, t 1): a0 and a1, each half the chunk.
    const auto at = a.cellsAtGrid(3, 4);
    ASSERT_EQ(at.size(), 1u);
    const DiagramCell& a0 = d.cells[at[0]];
    EXPECT_EQ(d.label(a0), "T13:a0");
    EXPECT_EQ(a0.owners, 2);
    EXPECT_EQ(a0.col, 4);
    EXPECT_EQ(a0.colLast, 7);
    EXPECT_DOUBLE_EQ(a0.rect.w, 2 * a.cellWidth);
    EXPECT_EQ(d.tooltip(a0), "lane 13 a0 \u00b7 r0[15..0] \u00b7 (3,4..7)");
    const auto right = a.cellsAtGrid(3, 6);
    ASSERT_EQ(right.size(), 1u);
    EXPECT_EQ(d.label(d.cells[right[0]]), "T13:a1");
    EXPECT_EQ(d.tooltip(d.cells[right[0]]), "lane 13 a1 \u00b7 r0[31..16] \u00b7 (3,4..7)");
    // Chunk boundaries are drawn.
    int chunkLines = 0;
    for (const DiagramLine& l : d.lines)
        chunkLines += l.width == 1.5 && l.from.x == l.to.x && l.from.y == a.origin.y;
    EXPECT_GE(chunkLines, 3);
}

TEST(DiagramSparse, MetadataOnTheAGridLikeThePtxFigures) {
    const Instruction in = test::sparseM16n8k16();
    const Diagram d = buildDiagram(in);
    ASSERT_TRUE(d.selector.has_value());
    EXPECT_EQ(*d.selector, 0);
    const DiagramPanel& m = panel(d, "metadata");
    EXPECT_EQ(m.kind, PanelKind::Metadata);
    EXPECT_EQ(m.rows, 16);
    EXPECT_EQ(m.cols, 16);
    EXPECT_EQ(m.cellCount, 64u); // 16 rows x 4 chunks, one field each
    const DiagramCell& c = d.cells[m.cellsAtGrid(8, 13)[0]];
    EXPECT_EQ(d.label(c), "T0: [31..28]");
    EXPECT_EQ(c.thread, 0);
    EXPECT_EQ(c.element, -1);
    EXPECT_EQ(c.bitHi, 31);
    EXPECT_EQ(c.bitLo, 28);
    EXPECT_EQ(c.col, 12);
    EXPECT_EQ(c.colLast, 15);
    EXPECT_EQ(d.tooltip(c), "lane 0 e[31..28] \u00b7 (8,12..15) \u00b7 selector 0");
    EXPECT_DOUBLE_EQ(c.rect.w, 4 * m.cellWidth);
    // Another selector moves the fields to lane 4g+2.
    DiagramOptions o;
    o.selector = 2;
    const Diagram d2 = buildDiagram(in, o);
    const DiagramPanel& m2 = panel(d2, "metadata");
    EXPECT_EQ(d2.label(d2.cells[m2.cellsAtGrid(8, 13)[0]]), "T2: [31..28]");
    EXPECT_NE(m2.title.find("selector 2"), std::string::npos);
    o.selector = 4;
    EXPECT_THROW(buildDiagram(in, o), std::invalid_argument);
}

TEST(DiagramSparse, PerLaneRegisterBitDiagrams) {
    const Instruction in = test::sparseM16n8k16();
    const Diagram d = buildDiagram(in);
    ASSERT_EQ(d.bitFields.size(), 8u); // lanes 0, 4, ..., 28 hold the metadata for selector 0
    std::set<int> threads;
    for (const BitFieldDiagram& bd : d.bitFields) {
        threads.insert(bd.thread);
        EXPECT_EQ(bd.bits, 32);
        ASSERT_EQ(bd.fields.size(), 8u);
        for (const BitField& f : bd.fields) {
            // Boxed exactly over its bits, bit 31 on the left.
            EXPECT_DOUBLE_EQ(f.rect.x, bd.bitRect(f.bitHi).x);
            EXPECT_DOUBLE_EQ(f.rect.right(), bd.bitRect(f.bitLo).right());
            // Linked to its metadata cell: same lane, bits, row and chunk; hovering one lights the other.
            const DiagramCell& c = d.cells[static_cast<std::size_t>(f.cell)];
            EXPECT_EQ(c.thread, bd.thread);
            EXPECT_EQ(c.bitHi, f.bitHi);
            EXPECT_EQ(c.row, f.row);
            EXPECT_EQ(c.col, f.colFirst);
            EXPECT_EQ(c.bitLo, f.bitLo);
            EXPECT_EQ(d.hoverId(c),
                      "metadata-t" + std::to_string(bd.thread) + "-b" + std::to_string(f.bitLo));
            EXPECT_EQ(f.fill, c.fill);
        }
    }
    EXPECT_EQ(threads, (std::set<int>{0, 4, 8, 12, 16, 20, 24, 28}));
    const BitFieldDiagram& t4 = d.bitFields[1];
    EXPECT_EQ(t4.title, "T4");
    const BitField& low = t4.fields.back(); // sorted from bit 31 down
    EXPECT_EQ(low.bitLo, 0);
    EXPECT_EQ(low.label, "r1");
    EXPECT_EQ(low.label2, "c0..3");
    EXPECT_EQ(d.bitFieldAt(low.rect.x + 1, low.rect.y + 1), (std::pair<int, int>{1, 7}));
}

TEST(DiagramSparse, MetadataAloneAndWithoutBitDiagrams) {
    const Instruction in = test::sparseM16n8k16();
    DiagramOptions o;
    o.operands = Operand::Metadata;
    const Diagram d = buildDiagram(in, o);
    ASSERT_EQ(d.panels.size(), 1u);
    EXPECT_EQ(d.panels[0].kind, PanelKind::Metadata);
    EXPECT_EQ(d.bitFields.size(), 8u);
    o.metadataBitFields = false;
    EXPECT_TRUE(buildDiagram(in, o).bitFields.empty());
    // A dense instruction has no metadata operand.
    EXPECT_THROW(buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"), o),
                 std::invalid_argument);
}

TEST(DiagramSparse, HoveringALaneFindsItsMetadataToo) {
    const Diagram d = buildDiagram(test::sparseM16n8k16());
    std::map<std::string, int> perPanel;
    for (std::uint32_t i : d.cellsOfThread(4))
        ++perPanel[d.panels[d.cells[i].panel].name];
    EXPECT_EQ(perPanel["A"], 4);
    EXPECT_EQ(perPanel["B"], 4);
    EXPECT_EQ(perPanel["C/D"], 4);
    EXPECT_EQ(perPanel["metadata"], 8);
}

} // namespace

} // namespace test_diagram_sparse
