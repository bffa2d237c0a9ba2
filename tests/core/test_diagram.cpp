// The Diagram model (docs/svg.md): what the GUI paints and the SVG writer serializes.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"

#include "synthetic.hpp"

#include <gtest/gtest.h>

#include <map>

#include <set>
#include <stdexcept>

namespace test_diagram {

using namespace lanemap;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

template <class Fn> DiagramOptions with(Fn&& set) {
    DiagramOptions o;
    set(o);
    return o;
}

const DiagramPanel* panelNamed(const Diagram& d, std::string_view operand) {
    for (const DiagramPanel& p : d.panels)
        if (p.name == operand)
            return &p;
    return nullptr;
}

TEST(Diagram, ClassicArrangementMergesIdenticalCAndD) {
    const Diagram d = buildDiagram(get("mma.m16n8k16.f16"));
    ASSERT_EQ(d.panels.size(), 3u);
    EXPECT_EQ(d.panels[0].name, "A");
    EXPECT_EQ(d.panels[1].name, "B");
    EXPECT_EQ(d.panels[2].name, "C/D");
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
    const Element& e = in.operand(Operand::A)->element(13, 5);
    const DiagramPanel& a = *panelNamed(d, "A");
    const auto at = a.cellsAtGrid(e.row, e.col);
    ASSERT_EQ(at.size(), 1u);
    const DiagramCell& c = d.cells[at[0]];
    EXPECT_EQ(d.label(c), "T13:a5");
    EXPECT_EQ(c.thread, 13);
    EXPECT_EQ(c.element, 5);
    EXPECT_EQ(c.reg, 2);
    EXPECT_EQ(c.bitLo, 16);
    EXPECT_EQ(c.bitHi, 31);
    EXPECT_EQ(c.row, 3);
    EXPECT_EQ(c.col, 11);
    EXPECT_EQ(d.hoverId(c), "A-t13-e5");
    EXPECT_EQ(d.tooltip(c), "lane 13 a5 \u00b7 r2[31..16] \u00b7 (3,11)");
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

// Every element of every operand is one cell (and every metadata field of the drawn selector one more).
TEST(Diagram, EveryVariantDrawsEveryElementOnce) {
    for (const Variant* v : Catalog::instance().variants()) {
        const Instruction& in = Catalog::instance().instruction(*v);
        const Diagram d = buildDiagram(in, with([](DiagramOptions& o) { o.mergeIdenticalCD = false; }));
        std::size_t elements = 0;
        for (const FragmentLayout& op : in.operands)
            elements += op.elements().size();
        if (in.metadata && !in.metadata->selectors.empty())
            elements += in.metadata->selectors.front().fields.size();
        if (tmem::mmaOf(in)) // D in Tensor Memory, one cell per element (test_tcgen05_panel.cpp), and the
                             // scale-factor and metadata panels (test_tcgen05_composed.cpp)
            for (const DiagramPanel& p : d.panels)
                elements += p.kind == PanelKind::TensorMemory && p.name != "D" ? p.cellCount : 0;
        if (tmem::mmaOf(in))
            elements += static_cast<std::size_t>(in.m * in.n);
        EXPECT_EQ(d.cells.size(), elements) << v->spec;
        // Inside its grid to the hundredth a backend writes (cells are floats: DiagramCell::rect).
        constexpr double slack = 1e-3;
        for (const DiagramCell& c : d.cells) {
            const RectF& g = d.panels[c.panel].gridRect();
            EXPECT_TRUE(c.rect.x >= g.x - slack && c.rect.right() <= g.right() + slack &&
                        c.rect.y >= g.y - slack && c.rect.bottom() <= g.bottom() + slack)
                << v->spec << " " << d.hoverId(c);
        }
    }
}

TEST(Diagram, BadOptionsNameWhatIsValid) {
    const Instruction& in = get("mma.m16n8k16.f16");
    try {
        buildDiagram(in, with([](DiagramOptions& o) { o.operands = Operand::Metadata; }));
        FAIL() << "expected an error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("valid operands: A, B, C, D"), std::string::npos) << e.what();
    }
    EXPECT_THROW(buildDiagram(in, with([](DiagramOptions& o) { o.selector = 0; })), std::invalid_argument);
    EXPECT_THROW(buildDiagram(in, with([](DiagramOptions& o) { o.threads = {32}; })), std::invalid_argument);
}

TEST(Diagram, DifferentCAndDAreBothShown) {
    // m8n8k4 .f16 C with .f32 D: two accumulator layouts, so two panels per quad-pair product.
    const Diagram d = buildDiagram(get("mma.m8n8k4.row.col.f16.f16.f32"));
    std::map<std::string, int> panels;
    for (const DiagramPanel& p : d.panels)
        ++panels[p.name];
    EXPECT_EQ(panels["C"], 4);
    EXPECT_EQ(panels["D"], 4);
    EXPECT_EQ(panels.count("C/D"), 0u);
}

TEST(Diagram, QuadPairProductsAreSeparatePanels) {
    const Instruction& in = get("mma.m8n8k4.row.col.f16");
    const Diagram d = buildDiagram(in);
    int aPanels = 0;
    for (const DiagramPanel& p : d.panels) {
        if (p.name != "A")
            continue;
        EXPECT_EQ(p.matrix, aPanels);
        EXPECT_NE(p.title.find("product " + std::to_string(aPanels)), std::string::npos) << p.title;
        for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i)
            EXPECT_EQ(d.cells[i].matrix, p.matrix);
        ++aPanels;
    }
    EXPECT_EQ(aPanels, 4);
    // Product 3 is lanes 12..15 and 28..31: lane 13 a2 lands there.
    const Element& e = in.operand(Operand::A)->element(13, 2);
    EXPECT_EQ(e.matrix, 3);
    bool found = false;
    for (std::uint32_t i : d.cellsOfThread(13))
        found = found || (d.hoverId(d.cells[i]) == "A-m3-t13-e2" && d.cells[i].row == e.row &&
                          d.cells[i].col == e.col);
    EXPECT_TRUE(found);
}

TEST(Diagram, OneOperandAlone) {
    DiagramOptions o;
    o.operands = Operand::B;
    const Diagram d = buildDiagram(get("mma.m16n8k16.f16"), o);
    ASSERT_EQ(d.panels.size(), 1u);
    EXPECT_EQ(d.panels[0].name, "B");
    EXPECT_EQ(d.cells.size(), 128u);
    EXPECT_EQ(d.label(d.cells.front()).substr(0, 3), "T0:");
    EXPECT_EQ(d.label(d.cells.front()).back(), '0');
    o.operands = Operand::D;
    const Diagram dd = buildDiagram(get("mma.m16n8k16.f16"), o);
    ASSERT_EQ(dd.panels.size(), 1u);
    EXPECT_EQ(dd.panels[0].name, "D");
    EXPECT_EQ(dd.panels[0].letter, 'd');
}

TEST(Diagram, ThirtyTwoDistinguishableLaneColorsWithReadableLabels) {
    for (Palette palette : {Palette::Default, Palette::ColorBlind}) {
        std::set<std::tuple<int, int, int>> seen;
        for (int lane = 0; lane < 32; ++lane) {
            const Rgb c = paletteColor(palette, ColorBy::Lane, lane);
            seen.insert({c.r, c.g, c.b});
            // WCAG AA for normal text: a user would notice unreadable labels first.
            EXPECT_GE(contrastRatio(c, labelColorOn(c)), 4.5) << toString(palette) << " lane " << lane;
            if (lane > 0) {
                const Rgb p = paletteColor(palette, ColorBy::Lane, lane - 1);
                const int dist = std::abs(c.r - p.r) + std::abs(c.g - p.g) + std::abs(c.b - p.b);
                EXPECT_GT(dist, 40) << toString(palette) << ": lanes " << lane - 1 << " and " << lane
                                    << " look alike";
            }
        }
        EXPECT_EQ(seen.size(), 32u) << toString(palette);
    }
}

TEST(Diagram, ColoringByRegisterAndByGroup) {
    const Instruction& in = get("mma.m16n8k16.f16");
    DiagramOptions o;
    o.colorBy = ColorBy::Register;
    const Diagram byReg = buildDiagram(in, o);
    for (const DiagramCell& c : byReg.cells) {
        EXPECT_EQ(c.colorKey, static_cast<std::uint32_t>(c.reg));
        EXPECT_EQ(c.fill, paletteColor(Palette::Default, ColorBy::Register, c.reg));
    }
    ASSERT_EQ(byReg.legends.size(), 1u);
    EXPECT_EQ(byReg.legends[0].entries.size(), 4u); // A has registers 0..3
    o.colorBy = ColorBy::ThreadGroup;
    const Diagram byGroup = buildDiagram(in, o);
    for (const DiagramCell& c : byGroup.cells)
        EXPECT_EQ(c.colorKey, static_cast<std::uint32_t>(c.thread >> 2));
    EXPECT_EQ(byGroup.legends[0].entries.size(), 8u);
    EXPECT_EQ(byGroup.legends[0].entries[3].text, "group 3  (lanes 12..15)");
}

TEST(Diagram, LaneFilterGreysTheOtherLanes) {
    DiagramOptions o;
    o.threads = {0, 1, 2, 3, 13};
    const Diagram d = buildDiagram(get("mma.m16n8k16.f16"), o);
    int lit = 0;
    for (const DiagramCell& c : d.cells) {
        const bool shown = c.thread <= 3 || c.thread == 13;
        EXPECT_EQ(c.dimmed, !shown);
        if (shown) {
            ++lit;
            EXPECT_EQ(c.fill, paletteColor(Palette::Default, ColorBy::Lane, c.thread));
        } else {
            EXPECT_EQ(c.fill, (Rgb{0xF0, 0xF0, 0xF0}));
        }
    }
    EXPECT_EQ(lit, 5 * 16);
    const Legend& legend = d.legends.at(0);
    EXPECT_EQ(legend.entries.size(), 6u);
    EXPECT_EQ(legend.entries.back().text, "outside the lane filter");
    EXPECT_NE(d.caption[2].find("lane filter: 0,1,2,3,13"), std::string::npos) << d.caption[2];
}

TEST(Diagram, LaneListParsing) {
    std::string error;
    EXPECT_EQ(parseLaneList("0-3,13", 32, error), (std::vector<int>{0, 1, 2, 3, 13}));
    EXPECT_EQ(parseLaneList("13,2,2", 32, error), (std::vector<int>{2, 13}));
    EXPECT_FALSE(parseLaneList("0-3,x", 32, error));
    EXPECT_NE(error.find("'x'"), std::string::npos) << error;
    EXPECT_FALSE(parseLaneList("5-40", 32, error));
    EXPECT_NE(error.find("valid lanes are 0..31"), std::string::npos) << error;
    EXPECT_FALSE(parseLaneList("3-1", 32, error));
}

// The largest diagram: a 64x256 wgmma D with 128 threads
// (formula of docs/reference/ptx-facts.md#wgmma-fragments).
TEST(DiagramWarpgroup, LargestAccumulatorShowsThreadAndWarp) {
    const Instruction in = test::wgmmaM64n256k16();
    DiagramOptions o;
    o.operands = Operand::D;
    const Diagram d = buildDiagram(in, o);
    ASSERT_EQ(d.panels.size(), 1u);
    const DiagramPanel& p = d.panels[0];
    EXPECT_EQ(p.rows, 64);
    EXPECT_EQ(p.cols, 256);
    EXPECT_EQ(d.cells.size(), 16384u);
    // Thread 77 = warp 2, lane 13 (g 3, t 1); d5: row 32 + 3 = 35, col 8 + 2 + 1 = 11.
    const auto at = p.cellsAtGrid(35, 11);
    ASSERT_EQ(at.size(), 1u);
    const DiagramCell& c = d.cells[at[0]];
    EXPECT_EQ(d.label(c), "T77:d5");
    EXPECT_EQ(c.thread, 77);
    EXPECT_EQ(c.warp, 2);
    EXPECT_EQ(c.lane, 13);
    EXPECT_EQ(d.tooltip(c), "warp 2 lane 13 d5 \u00b7 r5[31..0] \u00b7 (35,11)");
    EXPECT_EQ(d.cellAt(c.rect.x + 1, c.rect.y + 1), static_cast<int>(at[0]));
    EXPECT_EQ(d.cellsOfThread(77).size(), 128u);
    // Rows 16w..16w+15 belong to warp w: the panel says so once per warp.
    EXPECT_EQ(p.rowNotes[32], "warp 2");
    EXPECT_EQ(p.rowNotes[33], "");
    EXPECT_EQ(p.rowNotes[0], "warp 0");
    // Lane coloring: thread 77 wears lane 13's color.
    EXPECT_EQ(c.fill, paletteColor(Palette::Default, ColorBy::Lane, 13));
    EXPECT_NE(d.caption[2].find("128 threads (warpgroup)"), std::string::npos);
}

TEST(DiagramWarpgroup, EveryCellLiesInsideItsGridAndHitTestsBack) {
    const Diagram d = buildDiagram(test::wgmmaM64n256k16());
    ASSERT_EQ(d.cells.size(), 1024u + 16384u);
    for (std::size_t i = 0; i < d.cells.size(); i += 7) {
        const DiagramCell& c = d.cells[i];
        EXPECT_EQ(d.cellAt(c.rect.x + c.rect.w / 2, c.rect.y + c.rect.h / 2), static_cast<int>(i))
            << d.hoverId(c);
    }
    // A shelf layout keeps the 16k-unit-wide D from pushing A off to one side.
    EXPECT_LE(d.width, d.panels[1].bounds.right() + d.metrics.margin + 1);
}

} // namespace

} // namespace test_diagram
