// The Diagram model (design.md §2): what the GUI paints and the SVG writer serializes.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

using namespace lanemap;

namespace {

const Instruction& get(const char* spec) { return *Catalog::instance().instruction(spec); }

template <class Fn> DiagramOptions with(Fn&& set) {
    DiagramOptions o;
    set(o);
    return o;
}

const DiagramPanel* panelNamed(const Diagram& d, std::string_view operand) {
    for (const DiagramPanel& p : d.panels)
        if (p.operand == operand) return &p;
    return nullptr;
}

TEST(Diagram, ClassicArrangementMergesIdenticalCAndD) {
    const Diagram d = buildDiagram(get("mma.m16n8k16.f16"));
    ASSERT_EQ(d.panels.size(), 3u);
    EXPECT_EQ(d.panels[0].operand, "A");
    EXPECT_EQ(d.panels[1].operand, "B");
    EXPECT_EQ(d.panels[2].operand, "C/D");
    // Left to right, top-aligned.
    EXPECT_LT(d.panels[0].bounds.right(), d.panels[1].bounds.x);
    EXPECT_LT(d.panels[1].bounds.right(), d.panels[2].bounds.x);
    EXPECT_EQ(d.panels[0].bounds.y, d.panels[2].bounds.y);
    EXPECT_EQ(d.cells.size(), 256u + 128u + 128u);
    EXPECT_EQ(d.caption.front(), "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    EXPECT_NE(d.caption[1].find("\u00a79.7.14.5.8"), std::string::npos);
    EXPECT_NE(d.caption[1].find("#warp-level-matrix-fragment-mma-16816-float"), std::string::npos);
}

TEST(Diagram, CellOfLane13A5MatchesTheEngine) {
    const Instruction& in = get("mma.m16n8k16.f16");
    const Diagram d = buildDiagram(in);
    const Element& e = in.operand("A")->element(13, 5);
    const DiagramPanel& a = *panelNamed(d, "A");
    const auto at = a.cellsAtGrid(e.row, e.col);
    ASSERT_EQ(at.size(), 1u);
    const DiagramCell& c = d.cells[at[0]];
    EXPECT_EQ(c.label, "T13:a5");
    EXPECT_EQ(c.thread, 13);
    EXPECT_EQ(c.element, 5);
    EXPECT_EQ(c.reg, 2);
    EXPECT_EQ(c.bitLo, 16);
    EXPECT_EQ(c.bitHi, 31);
    EXPECT_EQ(c.row, 3);
    EXPECT_EQ(c.col, 11);
    EXPECT_EQ(c.hoverId, "A-t13-e5");
    EXPECT_EQ(c.tooltip, "lane 13 a5: reg 2 [31..16], row 3 col 11");
    // Hit test lands on the same cell from its centre, and misses outside every grid.
    const double cx = c.rect.x + c.rect.w / 2, cy = c.rect.y + c.rect.h / 2;
    EXPECT_EQ(d.cellAt(cx, cy), static_cast<int>(at[0]));
    EXPECT_EQ(d.cellAt(0, 0), -1);
}

TEST(Diagram, HoveringALaneFindsItInEveryPanel) {
    const Diagram d = buildDiagram(get("mma.m16n8k16.f16"));
    const auto cells = d.cellsOfThread(13);
    ASSERT_EQ(cells.size(), 8u + 4u + 4u); // a0..a7, b0..b3, c0..c3
    std::set<int> panels;
    for (std::uint32_t i : cells) {
        EXPECT_EQ(d.cells[i].thread, 13);
        panels.insert(d.cells[i].panel);
    }
    EXPECT_EQ(panels.size(), 3u);
}

TEST(Diagram, EveryDenseVariantDrawsEveryElementOnce) {
    for (const Variant* v : Catalog::instance().variants()) {
        const Instruction& in = Catalog::instance().instruction(*v);
        const Diagram d = buildDiagram(in, with([](DiagramOptions& o) { o.mergeIdenticalCD = false; }));
        std::size_t elements = 0;
        for (const FragmentLayout& op : in.operands) elements += op.elements().size();
        EXPECT_EQ(d.cells.size(), elements) << v->spec;
        for (const DiagramCell& c : d.cells) {
            const RectF& g = d.panels[c.panel].gridRect();
            EXPECT_TRUE(c.rect.x >= g.x && c.rect.right() <= g.right() + 1e-6 && c.rect.y >= g.y &&
                        c.rect.bottom() <= g.bottom() + 1e-6)
                << v->spec << " " << c.hoverId;
        }
    }
}

TEST(Diagram, BadOptionsNameWhatIsValid) {
    const Instruction& in = get("mma.m16n8k16.f16");
    try {
        buildDiagram(in, with([](DiagramOptions& o) { o.operand = "E"; }));
        FAIL() << "expected an error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("valid operands: A, B, C, D"), std::string::npos) << e.what();
    }
    EXPECT_THROW(buildDiagram(in, with([](DiagramOptions& o) { o.selector = 0; })), std::invalid_argument);
    EXPECT_THROW(buildDiagram(in, with([](DiagramOptions& o) { o.threads = {32}; })), std::invalid_argument);
}

} // namespace
