// The tcgen05.mma views as Diagrams (diagram_tmem.hpp): the spec's N sizes the grid, A in Tensor Memory, the
// composed "who holds D[m][n]" picture checked cell by cell against tmem::whoHoldsD / whoHoldsA, and the
// scale-factor and metadata panels against their tables.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram_pair.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"
#include "lanemap/tmem.hpp"

#include "catalog_entry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>

namespace test_tcgen05_composed {

using namespace lanemap;
using lanemap::test::catalogEntry;

const DiagramPanel* panelOf(const Diagram& d, PanelKind kind, std::string_view operand) {
    for (const DiagramPanel& p : d.panels)
        if (p.kind == kind && p.name == operand)
            return &p;
    return nullptr;
}

TEST(TensorMemoryView, TheSpecsNSizesTheGrid) {
    const Instruction& in = catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128");
    TensorMemoryOptions o;
    o.params.n = 64;
    const Diagram d = buildTensorMemoryDiagram(in, o);
    ASSERT_EQ(d.panels.size(), 1u);
    EXPECT_EQ(d.panels.front().cols, 64) << "layout D: one column per n";
    EXPECT_EQ(d.cells.size(), 128u * 64u);
    EXPECT_EQ(d.title, "tcgen05.mma.cta_group::1.kind::f16.m128n64");
    // Layout E folds N into two lane halves: N/2 columns.
    const Instruction& ws = catalogEntry("tcgen05.mma.ws.cta_group::1.kind::f16.m64");
    o.params.n = 128;
    EXPECT_EQ(buildTensorMemoryDiagram(ws, o).panels.front().cols, 64);
    o.params.n = 12; // not a valid N for M = 128 (steps of 8)
    EXPECT_THROW(buildTensorMemoryDiagram(in, o), std::invalid_argument);
}

TEST(TensorMemoryView, AInTensorMemoryPacksItsElementsIntoColumns) {
    const Instruction& in = catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128");
    TensorMemoryOptions o;
    o.params.tensorOperand = Operand::A;
    const Diagram d = buildTensorMemoryDiagram(in, o);
    const DiagramPanel* p = panelOf(d, PanelKind::TensorMemory, "A");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->elementBits, 16);
    EXPECT_EQ(p->cols, 8) << "K = 16 f16 elements, two a 32-bit column";
    ASSERT_EQ(d.cells.size(), 128u * 16u);
    for (const DiagramCell& c : d.cells) {
        const tmem::Placement at = tmem::placeA(*tmem::mmaOf(in), c.element, c.bitLo, 16);
        EXPECT_EQ(tmem::Address::decode(c.address), (tmem::Address{at.lane, at.column}));
        EXPECT_EQ(c.groupID, at.bit);
        EXPECT_EQ(d.cellAt(c.rect.x + 1, c.rect.y + 1), static_cast<int>(&c - d.cells.data()));
    }
    for (const DiagramCell& c : d.cells) {
        if (c.element == 3 && c.bitLo == 5) {
            EXPECT_EQ(d.tooltip(c), "A(3,5) \u00b7 CTA 0 lane 3 column 2[31..16] \u00b7 warp 0");
        }
    }
    // Layouts without an A model say so.
    const Instruction& b = catalogEntry("tcgen05.mma.cta_group::2.kind::f16.m128");
    EXPECT_FALSE(modelsAInTensorMemory(*tmem::mmaOf(b)));
    EXPECT_THROW(buildTensorMemoryDiagram(b, o), std::invalid_argument);
}

// Every cell of the composed picture, both panels, against whoHoldsD: one form per layout, a 32-lane and a
// 16-lane shape, packed and not.
TEST(TensorMemoryView, ComposedDiagramMatchesWhoHoldsDForEveryCellOfEveryLayout) {
    std::set<tmem::Layout> seen;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!tmem::mmaOf(*v) || seen.count(tmem::layoutOf(*tmem::mmaOf(*v)).layout))
            continue;
        seen.insert(tmem::layoutOf(*tmem::mmaOf(*v)).layout);
        const Instruction& in = Catalog::instance().instruction(*v);
        TensorMemoryOptions o;
        o.params.n = 64;
        const tmem::MmaShape shape = shapeOf(in, o);
        for (const tmem::Access& a : {tmem::Access{tmem::Op::Ld, tmem::Shape::S32x32b, 16},
                                      tmem::Access{tmem::Op::Ld, tmem::Shape::S16x256b, 2},
                                      tmem::Access{tmem::Op::Ld, tmem::Shape::S16x64b, 4, true}}) {
            o.params.access = a;
            const Diagram d = buildTensorMemoryDiagram(in, o);
            const DiagramPanel* t = panelOf(d, PanelKind::TensorMemory, "D");
            const DiagramPanel* r = panelOf(d, PanelKind::TensorMemoryRegisters, "D");
            ASSERT_TRUE(t && r) << v->spec;
            ASSERT_EQ(t->cellCount, static_cast<std::uint32_t>(shape.m * 64)) << v->spec;
            ASSERT_EQ(r->cellCount, t->cellCount);
            ASSERT_EQ(d.partner.size(), d.cells.size());
            const int regs = tmem::registersOf(a);
            std::set<std::tuple<int, int, int>> slots;
            for (std::uint32_t i = t->firstCell; i < t->firstCell + t->cellCount; ++i) {
                const DiagramCell& c = d.cells[i];
                const tmem::Holder h = tmem::whoHoldsD(shape, a, c.element, c.bitLo);
                const int thread = h.cta * 128 + h.warp * 32 + h.thread;
                EXPECT_EQ(c.thread, thread) << v->spec << " D(" << c.element << "," << c.bitLo << ")";
                EXPECT_EQ(c.reg, h.reg);
                EXPECT_EQ(c.bitHi, h.bit);
                const tmem::Placement at = tmem::placeD(shape, c.element, c.bitLo);
                EXPECT_EQ(c.row, at.cta * 128 + at.lane);
                EXPECT_EQ(c.col, at.column);
                // Its partner: the register cell of the same element, in the holder's row.
                const int pi = d.partner[i];
                ASSERT_GE(pi, 0);
                const DiagramCell& rc = d.cells[static_cast<std::size_t>(pi)];
                EXPECT_EQ(rc.panel, static_cast<std::uint16_t>(r - d.panels.data()));
                EXPECT_EQ(d.partner[static_cast<std::size_t>(pi)], static_cast<int>(i));
                EXPECT_EQ(rc.element, c.element);
                EXPECT_EQ(rc.bitLo, c.bitLo);
                EXPECT_EQ(rc.row, thread);
                EXPECT_EQ(rc.col % regs, h.reg);
                EXPECT_EQ(rc.thread, thread) << "one hover group: lit together";
                EXPECT_TRUE(slots.insert({rc.row, rc.col, h.bit}).second)
                    << "a register slot holds one element";
                EXPECT_EQ(d.cellAt(rc.rect.x + 1, rc.rect.y + 1), pi) << "found where it is drawn";
            }
        }
    }
    EXPECT_EQ(seen.size(), 7u);
}

TEST(TensorMemoryView, ComposedTooltipsNameBothSides) {
    const Instruction& in = catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128");
    TensorMemoryOptions o;
    o.params.access = defaultAccess(shapeOf(in, o), tmem::Op::Ld);
    EXPECT_EQ(tmem::specOf(*o.params.access), "tcgen05.ld.32x32b.x32");
    const Diagram d = buildTensorMemoryDiagram(in, o);
    int found = 0;
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const DiagramCell& c = d.cells[i];
        if (c.element != 37 || c.bitLo != 40)
            continue;
        ++found;
        // Column 40 is in the second access (columns 32..63), register 8.
        if (d.panels[c.panel].kind == PanelKind::TensorMemory)
            EXPECT_EQ(d.tooltip(c),
                      "D(37,40) \u00b7 CTA 0 lane 37 column 40 \u00b7 held by warp 1 lane 5 r8[31..0]");
        else
            EXPECT_EQ(d.tooltip(c), "warp 1 lane 5 r8[31..0] \u00b7 D(37,40) \u00b7 CTA 0 lane 37 column 40");
        EXPECT_EQ(d.label(c), "D(37,40)");
    }
    EXPECT_EQ(found, 2);
    // The SVG writes the same picture: both panels, the tooltips.
    const std::string svg = toSvg(d);
    EXPECT_NE(svg.find("Registers after tcgen05.ld.sync.aligned.32x32b.x32.b32"), std::string::npos);
    EXPECT_NE(svg.find("held by warp 1 lane 5 r8[31..0]"), std::string::npos);
}

TEST(TensorMemoryView, StoreOfAComposesWithWhoHoldsA) {
    const Instruction& in = catalogEntry("tcgen05.mma.cta_group::1.kind::f8f6f4.m64");
    TensorMemoryOptions o;
    o.params.tensorOperand = Operand::A;
    const tmem::MmaShape shape = shapeOf(in, o);
    o.params.access = defaultAccess(shape, tmem::Op::St);
    const Diagram d = buildTensorMemoryDiagram(in, o);
    const DiagramPanel* t = panelOf(d, PanelKind::TensorMemory, "A");
    const DiagramPanel* r = panelOf(d, PanelKind::TensorMemoryRegisters, "A");
    ASSERT_TRUE(t && r);
    EXPECT_EQ(r->elementBits, 8);
    for (std::uint32_t i = t->firstCell; i < t->firstCell + t->cellCount; ++i) {
        const DiagramCell& c = d.cells[i];
        const tmem::Holder h = tmem::whoHoldsA(shape, *o.params.access, c.element, c.bitLo, 8);
        EXPECT_EQ(c.thread, h.warp * 32 + h.thread);
        EXPECT_EQ(c.reg, h.reg);
        EXPECT_EQ(c.bitHi, h.bit);
        EXPECT_EQ(d.cells[static_cast<std::size_t>(d.partner[i])].row, h.warp * 32 + h.thread);
    }
    // A ld of A, or a st of D, is refused with the reason.
    o.params.access->op = tmem::Op::Ld;
    EXPECT_THROW(buildTensorMemoryDiagram(in, o), std::invalid_argument);
}

TEST(TensorMemoryView, ComposableAccessesAreExactlyTheValidCompositions) {
    const Instruction& in = catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128");
    const tmem::MmaShape shape = shapeOf(in, {});
    const std::vector<tmem::Access> ld = composableAccesses(shape, tmem::Op::Ld);
    std::size_t valid = 0;
    for (const tmem::Shape s : tmem::kShapes)
        for (const int num : tmem::validNums(s))
            for (const bool packed : {false, true})
                valid += tmem::validateComposition(shape, {tmem::Op::Ld, s, num, packed}).empty();
    EXPECT_EQ(ld.size(), valid);
    EXPECT_GT(ld.size(), 40u);
    EXPECT_NE(std::find(ld.begin(), ld.end(), defaultAccess(shape, tmem::Op::Ld)), ld.end());
    for (const tmem::Access& a : composableAccesses(shape, tmem::Op::St))
        EXPECT_FALSE(a.packed) << "A is stored without .unpack::16b";
}

TEST(TensorMemoryView, ScaleFactorPanelsFollowTheTable) {
    const Instruction& in = catalogEntry("tcgen05.mma.cta_group::1.kind::mxf8f6f4.m128");
    TensorMemoryOptions o;
    o.params.n = 64;
    const Diagram d = buildTensorMemoryDiagram(in, o);
    const DiagramPanel* sa = panelOf(d, PanelKind::TensorMemory, "scale A");
    const DiagramPanel* sb = panelOf(d, PanelKind::TensorMemory, "scale B");
    ASSERT_TRUE(sa && sb);
    EXPECT_EQ(sa->cellCount, 128u * 4u) << "one 1X factor per row, copied into four subpartitions";
    EXPECT_EQ(sb->cellCount, 64u * 4u) << "one per column n of B";
    for (std::uint32_t i = sa->firstCell; i < sa->firstCell + sa->cellCount; ++i) {
        const DiagramCell& c = d.cells[i];
        const auto places = tcgen05::scaleFactorPlaces(tcgen05::Kind::MXF8F6F4, tcgen05::ScaleVec::X1, 0,
                                                       Operand::A, c.element, c.bitLo);
        const tmem::Address at = tmem::Address::decode(c.address);
        EXPECT_NE(
            std::find(places.begin(), places.end(), tcgen05::TmemPlace{at.lane, at.column, c.groupID, 8}),
            places.end());
    }
    bool source = false;
    for (const DiagramText& t : d.texts)
        source |= t.text.find("§9.7.16.10.7") != std::string::npos &&
                  t.text.find("not confirmed on hardware") != std::string::npos;
    EXPECT_TRUE(source) << "the panel names its source and says it is not confirmed";
}

TEST(TensorMemoryView, SparseMetadataPanelFollowsTheTable) {
    const Instruction& in = catalogEntry("tcgen05.mma.sp.cta_group::1.kind::f8f6f4.m128");
    const Diagram d = buildTensorMemoryDiagram(in, TensorMemoryOptions{});
    const DiagramPanel* md = panelOf(d, PanelKind::TensorMemory, "metadata");
    ASSERT_NE(md, nullptr);
    EXPECT_EQ(md->cellCount, 128u * 16u);
    EXPECT_EQ(md->cols, 2);
    for (std::uint32_t i = md->firstCell; i < md->firstCell + md->cellCount; ++i) {
        const DiagramCell& c = d.cells[i];
        const tcgen05::TmemPlace at = tcgen05::sparseMetadataPlace(tcgen05::Kind::F8F6F4, c.element, c.bitLo);
        EXPECT_EQ(tmem::Address::decode(c.address), (tmem::Address{at.lane, at.column}));
        EXPECT_EQ(c.groupID, at.lowBit);
    }
    for (std::uint32_t i = md->firstCell; i < md->firstCell + md->cellCount; ++i) {
        if (d.cells[i].element == 5 && d.cells[i].bitLo == 3) {
            EXPECT_EQ(d.tooltip(d.cells[i]), "E(5,3) \u00b7 CTA 0 lane 5 column 0[15..12] \u00b7 warp 0");
        }
    }
    // A case whose figure is not transcribed (M = 64) is a finding in the caption, not a panel.
    const Diagram f16 =
        buildTensorMemoryDiagram(catalogEntry("tcgen05.mma.sp.cta_group::1.kind::f16.m64"), {});
    EXPECT_EQ(panelOf(f16, PanelKind::TensorMemory, "metadata"), nullptr);
    bool said = false;
    for (const std::string& line : f16.caption)
        said |= line.find("finding: sparse metadata") != std::string::npos &&
                line.find("Figure 262") != std::string::npos;
    EXPECT_TRUE(said);
}

// Composed with a tcgen05.ld of D, the scale-factor and metadata cells said "held by warp 1 lane 37 r0":
// no load moves them (lane 37 is no lane of a warp). Their tooltip names the warp that reaches their lane,
// as without a load; D's cells still name their holder.
TEST(TensorMemoryView, ScaleFactorsAndMetadataAreHeldByNoRegisterOfTheLoad) {
    const Instruction& in = catalogEntry("tcgen05.mma.sp.cta_group::1.kind::mxf4.m128");
    TensorMemoryOptions o;
    o.params.n = 32;
    o.params.access = defaultAccess(shapeOf(in, o), tmem::Op::Ld);
    const Diagram d = buildTensorMemoryDiagram(in, o);
    int extras = 0, held = 0;
    for (const DiagramCell& c : d.cells) {
        const DiagramPanel& p = d.panels[c.panel];
        if (p.kind != PanelKind::TensorMemory)
            continue;
        const std::string tip = d.tooltip(c);
        if (p.name == "D") {
            held += tip.find(" \u00b7 held by warp ") != std::string::npos;
            continue;
        }
        ++extras;
        const int lane = tmem::Address::decode(c.address).lane;
        EXPECT_EQ(tip.find("held by"), std::string::npos) << tip;
        EXPECT_EQ(tip.substr(tip.rfind(" \u00b7 ")), " \u00b7 warp " + std::to_string(lane / 32)) << tip;
    }
    EXPECT_EQ(extras, 128 * 2 * 4 + 32 * 2 * 4 + 128 * 16) << "SFA, SFB (4 copies each), E";
    EXPECT_EQ(held, 128 * 32);
}

// Each CTA's A and B appended under D extend the hover index instead of indexing D's 65,536 cells again: the
// index must be the one a rebuild gives, or hovering a cell would light another's group.
TEST(TensorMemoryView, CtaPartsAppendedUnderDIndexTheirHoverGroups) {
    const ParsedSpec parsed = parseSpec("tcgen05.mma.cta_group::2.kind::f16.m256", Catalog::instance());
    ASSERT_TRUE(parsed) << parsed.error;
    const std::shared_ptr<const Instruction> in = instantiate(selectionOf(parsed));
    Diagram d = buildTensorMemoryDiagram(*in, {});
    const std::size_t tmemCells = d.cells.size();
    ASSERT_TRUE(appendCtaSharedMemory(d, *in, Operand::A));
    ASSERT_TRUE(appendCtaSharedMemory(d, *in, Operand::B));
    ASSERT_GT(d.cells.size(), tmemCells);
    Diagram rebuilt = d;
    rebuildHoverIndex(rebuilt);
    EXPECT_EQ(d.threads, rebuilt.threads);
    EXPECT_EQ(d.threadOffsets, rebuilt.threadOffsets);
    EXPECT_EQ(d.threadCells, rebuilt.threadCells);
    for (const std::size_t i : {std::size_t{0}, tmemCells, d.cells.size() - 1}) {
        const auto group = d.cellsOfThread(d.cells[i].thread);
        EXPECT_NE(std::find(group.begin(), group.end(), i), group.end()) << "cell " << i;
        for (const std::uint32_t j : group)
            EXPECT_EQ(d.cells[j].thread, d.cells[i].thread) << "cell " << i;
    }
}

} // namespace test_tcgen05_composed
