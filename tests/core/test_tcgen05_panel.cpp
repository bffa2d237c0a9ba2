// The Tensor Memory panel of a tcgen05.mma entry (diagram_tmem.cpp): every D element drawn once, at the TMEM
// lane and column the data-path layout places it, and the SVG carrying the lane axis.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tmem.hpp"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

namespace test_tcgen05_panel {

using namespace lanemap;

TEST(TensorMemoryPanel, OneCellPerDElementAtItsPlacementForEveryLayout) {
    std::set<tmem::Layout> seen;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!v->tmemMma || seen.count(tmem::layoutOf(*v->tmemMma).layout))
            continue;
        Instruction in = Catalog::instance().instruction(*v);
        in.n = 64; // one N valid for every form
        tmem::MmaShape shape = *v->tmemMma;
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
    EXPECT_NE(svg.find("D(255,15)"), std::string::npos);
}

} // namespace test_tcgen05_panel
