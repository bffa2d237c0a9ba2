// The Tensor Memory panel of a tcgen05.mma entry (diagram_tmem.cpp): every D element drawn once, at the TMEM
// lane and column the data-path layout places it, and the SVG carrying the lane axis.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tmem.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace test_tcgen05_panel {

using namespace lanemap;

TEST(TensorMemoryPanel, OneCellPerDElementAtItsPlacementForEveryLayout) {
    std::set<tmem::Layout> seen;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!tmem::mmaOf(*v) || seen.count(tmem::layoutOf(*tmem::mmaOf(*v)).layout))
            continue;
        Instruction in = Catalog::instance().instruction(*v);
        in.n = 64; // one N valid for every form
        tmem::MmaShape shape = *tmem::mmaOf(*v);
        shape.n = 64;
        ASSERT_EQ(tmem::validate(shape), "") << v->spec;
        seen.insert(tmem::layoutOf(shape).layout);
        const Diagram d = buildDiagram(in);
        ASSERT_EQ(d.panels.size(), 1u) << v->spec;
        const DiagramPanel& p = d.panels.front();
        EXPECT_EQ(p.kind, PanelKind::TensorMemory);
        EXPECT_EQ(p.rows, tmem::kLanes * shape.ctaGroup) << v->spec;
        ASSERT_EQ(d.cells.size(), static_cast<std::size_t>(shape.m * 64)) << v->spec;
        std::set<std::pair<int, int>> elements;
        for (const DiagramCell& c : d.cells) {
            EXPECT_TRUE(elements.insert({c.element, c.bitLo}).second) << v->spec << " D twice";
            const tmem::Placement at = tmem::placeD(shape, c.element, c.bitLo);
            EXPECT_EQ(c.row, at.cta * tmem::kLanes + at.lane) << v->spec;
            EXPECT_EQ(c.col, at.column) << v->spec;
            EXPECT_EQ(c.matrix, at.cta) << v->spec;
            // The hit test finds it where it is drawn.
            EXPECT_EQ(d.cellAt(c.rect.x + 1, c.rect.y + 1), static_cast<int>(&c - d.cells.data()));
        }
    }
    EXPECT_EQ(seen.size(), 7u) << "every data-path layout A-G has a catalog entry";
}

TEST(TensorMemoryPanel, LabelsAndTooltipsNameTheElementLaneColumnAndWarp) {
    const Instruction* in = Catalog::instance().instruction("tcgen05.mma.cta_group::1.kind::f16.m128");
    ASSERT_NE(in, nullptr);
    const Diagram d = buildDiagram(*in);
    ASSERT_FALSE(d.cells.empty());
    // Layout D (M = 128, cta_group::1): D(m, n) at lane m, column n.
    for (const DiagramCell& c : d.cells)
        if (c.element == 37 && c.bitLo == 5) {
            EXPECT_EQ(d.label(c), "D(37,5)");
            EXPECT_EQ(d.tooltip(c), "D(37,5) \u00b7 CTA 0 lane 37 column 5 \u00b7 warp 1");
        }
    bool notOnHardware = false;
    for (const std::string& line : d.caption)
        notOnHardware |= line.find("not confirmed on hardware") != std::string::npos;
    EXPECT_TRUE(notOnHardware);
}

TEST(TensorMemoryPanel, SvgHasTheLaneAxisAndTheWarpBands) {
    const Instruction* in = Catalog::instance().instruction("tcgen05.mma.cta_group::2.kind::f16.m256");
    ASSERT_NE(in, nullptr);
    Instruction narrow = *in;
    narrow.n = 16;
    const std::string svg = toSvg(buildDiagram(narrow));
    EXPECT_NE(svg.find("lane 127"), std::string::npos);
    EXPECT_NE(svg.find("CTA 1 warp 3 (lanes 96..127)"), std::string::npos);
    // CTA 1's last lane holds m 255: its header says so, and no cell repeats it as a label.
    EXPECT_NE(svg.find("lane 127 \u00b7 m 255"), std::string::npos);
    EXPECT_EQ(svg.find(">D(0,0)<"), std::string::npos);
    EXPECT_EQ(svg.find(">D(255,15)<"), std::string::npos);
}

// "m of row" for a panel whose row headers name it ("lane 37 · m 165"), -1 for a row holding none.
std::vector<int> headedRows(const DiagramPanel& p) {
    std::vector<int> m;
    for (const std::string& h : p.rowHeaders) {
        const auto at = h.find(" m ");
        m.push_back(at == std::string::npos ? -1 : std::stoi(h.substr(at + 3)));
    }
    return m;
}

// A D(m,n) label that only repeats its row's m and its column's number is not drawn; every other Tensor
// Memory panel keeps its labels. Both ways, for every data-path layout and every table beside D.
TEST(TensorMemoryPanel, LabelsThatRepeatTheHeadersMoveToTheHeaders) {
    int onAxes = 0, labelled = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!tmem::mmaOf(*v))
            continue;
        const Diagram d = buildDiagram(Catalog::instance().instruction(*v));
        for (const DiagramPanel& p : d.panels) {
            bool repeats = p.elementBits == 32; // every label would be "D(m of its row, its column)"
            std::vector<int> rowElement(static_cast<std::size_t>(p.rows), -1);
            for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i) {
                const DiagramCell& c = d.cells[i];
                int& m = rowElement[static_cast<std::size_t>(c.row)];
                repeats = repeats && c.bitLo == c.col && (m < 0 || m == c.element);
                m = c.element;
            }
            EXPECT_EQ(p.labels == CellLabels::Every, !repeats) << v->spec << " " << p.title;
            if (p.labels == CellLabels::Every) {
                ++labelled;
                continue;
            }
            ++onAxes;
            EXPECT_EQ(headedRows(p), rowElement) << v->spec << ": each row header names the m it holds";
            EXPECT_NE(p.subtitle.find("no cell labels"), std::string::npos) << v->spec;
            // The cells are as wide as a column number, not as a label "D(255,255)".
            EXPECT_LT(p.cellWidth, 4 * d.metrics.charWidth + 8.01) << v->spec;
        }
    }
    // D where a lane holds one m: on the axes; D where it holds several (or one column several n), the scale
    // factors and the metadata (several elements to a cell): labelled.
    EXPECT_GT(onAxes, 0);
    EXPECT_GT(labelled, 0);
}

// A in Tensor Memory (the GUI's Operand box, no access): tf32, one element a column, k = the column: on the
// axes; f16, two elements a column: labelled.
TEST(TensorMemoryPanel, AOnTheAxesOnlyWithOneElementAColumn) {
    for (const auto& [spec, onAxes] : {std::pair{"tcgen05.mma.cta_group::1.kind::tf32.m128", true},
                                       std::pair{"tcgen05.mma.cta_group::1.kind::f16.m128", false}}) {
        const Instruction* in = Catalog::instance().instruction(spec);
        ASSERT_NE(in, nullptr) << spec;
        TensorMemoryOptions o;
        o.params.tensorOperand = Operand::A;
        const Diagram d = buildTensorMemoryDiagram(*in, o);
        ASSERT_FALSE(d.panels.empty());
        const DiagramPanel& p = d.panels.front();
        EXPECT_EQ(p.labels == CellLabels::Every, !onAxes) << spec;
        if (onAxes) {
            EXPECT_EQ(p.rowHeaders[5], "lane 5 \u00b7 m 5") << spec;
            EXPECT_NE(p.subtitle.find("A(m,k) sits in the row whose header names m, in column k"),
                      std::string::npos)
                << p.subtitle;
        }
    }
}

// Composed with a tcgen05.ld, D keeps its labels: the registers panel names the same elements, and the eye
// matches a register to its Tensor Memory cell by them.
TEST(TensorMemoryPanel, AComposedViewKeepsItsLabels) {
    const Instruction* in = Catalog::instance().instruction("tcgen05.mma.cta_group::1.kind::f16.m128");
    ASSERT_NE(in, nullptr);
    TensorMemoryOptions o;
    o.params.n = 64;
    o.params.access = defaultAccess(shapeOf(*in, o), tmem::Op::Ld);
    const Diagram d = buildTensorMemoryDiagram(*in, o);
    ASSERT_EQ(d.panels.size(), 2u);
    EXPECT_EQ(d.panels[0].labels, CellLabels::Every);
    EXPECT_EQ(d.panels[1].labels, CellLabels::Every);
    const std::string svg = toSvg(d);
    EXPECT_NE(svg.find(">D(37,5)<"), std::string::npos);
    // Alone, the same D draws none.
    o.params.access.reset();
    const Diagram alone = buildTensorMemoryDiagram(*in, o);
    EXPECT_EQ(alone.panels[0].labels, CellLabels::None);
    EXPECT_EQ(toSvg(alone).find(">D(37,5)<"), std::string::npos);
}

} // namespace test_tcgen05_panel
