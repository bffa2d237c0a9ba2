// The window's shared view state and diagram cache, tested without any widget; and the panes an instance
// gets, decided by the spaces of its placements.
#include "diagram_cache.hpp"
#include "pane_area.hpp"
#include "selections.hpp"
#include "view_state.hpp"

#include "lanemap/catalog.hpp"

#include <QSignalSpy>

#include <gtest/gtest.h>

namespace test_view_state {

using namespace lanemap;
using namespace lanemap::gui;

TEST(ViewState, EachChangeIsSignalledOnceAndOnlyWhenItChanges) {
    ViewState state;
    QSignalSpy hovered(&state, &ViewState::hoveredLaneChanged);
    QSignalSpy rebuild(&state, &ViewState::diagramOptionsChanged);
    state.setHoveredLane(13);
    state.setHoveredLane(13);
    EXPECT_EQ(hovered.count(), 1);
    EXPECT_EQ(hovered.front().front().toInt(), 13);
    EXPECT_EQ(rebuild.count(), 0) << "hovering must never rebuild diagrams";

    state.setColorBy(ColorBy::Register);
    state.setColorBy(ColorBy::Register);
    state.setLanes(QStringLiteral("0-3"), {0, 1, 2, 3});
    state.setLanes(QStringLiteral("0..3"), {0, 1, 2, 3});
    EXPECT_EQ(rebuild.count(), 2);
    EXPECT_EQ(state.lanesText(), QStringLiteral("0..3")) << "the text follows what was typed last";
}

TEST(ViewState, DiagramOptionsCarryTheSharedChoices) {
    ViewState state;
    state.setColorBy(ColorBy::ThreadGroup);
    state.setPalette(Palette::ColorBlind);
    state.setLanes(QStringLiteral("4,5"), {4, 5});
    state.setSelector(1);
    const DiagramOptions dense = state.diagramOptions(kAccumulator, false);
    EXPECT_EQ(dense.operands, kAccumulator);
    EXPECT_EQ(dense.colorBy, ColorBy::ThreadGroup);
    EXPECT_EQ(dense.palette, Palette::ColorBlind);
    EXPECT_EQ(dense.threads, (std::vector<int>{4, 5}));
    EXPECT_FALSE(dense.selector.has_value()) << "a dense instruction has no selector";
    EXPECT_EQ(state.diagramOptions({}, true).selector, std::optional<int>(1));
    EXPECT_TRUE(state.diagramOptions({}, true).operands.empty());
}

TEST(ViewState, AnInstanceKeepsTheChoicesThatStillApply) {
    ViewState state;
    QSignalSpy shown(&state, &ViewState::instanceChanged);
    QSignalSpy rebuild(&state, &ViewState::diagramOptionsChanged);
    auto open = [&](const char* spec) {
        const Selection s = parseSelection(QString::fromLatin1(spec));
        state.setInstance(s, instantiate(s));
    };
    open("mma.sp.m16n8k32.f16");
    ASSERT_TRUE(state.setSelector(1));
    EXPECT_FALSE(state.setSelector(7)) << "not a selector of the instance";
    state.setLanes(QStringLiteral("20-31"), {20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31});
    state.setPinnedLane(25);
    rebuild.clear();
    open("wgmma.m64n64k16.f16");
    EXPECT_EQ(state.selector(), 0) << "a dense instruction has none";
    EXPECT_EQ(state.lanes().size(), 12u) << "lanes 20..31 are threads of a warpgroup too";
    EXPECT_EQ(state.pinnedLane(), 25);
    state.setPinnedLane(100);
    open("mma.m16n8k16.f16");
    EXPECT_EQ(state.pinnedLane(), -1) << "a warp has no thread 100";
    EXPECT_EQ(shown.count(), 3);
    EXPECT_EQ(shown.back().at(1).toBool(), true) << "another variant";
    EXPECT_EQ(rebuild.count(), 0) << "a new instance is drawn afresh once, on instanceChanged";
}

// One pane per space the placements live in; the register panes one per operand set. Never by family.
TEST(PanePlan, TheSpacesOfThePlacementsDecideThePanes) {
    ViewState state;
    DiagramCache cache;
    const Pane::Context context{&state, &cache, nullptr};
    auto plan = [&](const char* spec) {
        const Selection s = withViewDefaults(parseSelection(QString::fromLatin1(spec)), {});
        std::vector<std::pair<Space, std::string>> out;
        for (const PaneKey& k : PaneArea::planFor(instantiate(s), context))
            out.emplace_back(k.space, toString(k.operands) + (k.part == DiagramPart::Registers ? "+e" : ""));
        return out;
    };
    using P = std::vector<std::pair<Space, std::string>>;
    EXPECT_EQ(plan("mma.m16n8k16.f16"),
              (P{{Space::Registers, "A"}, {Space::Registers, "B"}, {Space::Registers, "C/D"}}));
    EXPECT_EQ(plan("mma.m8n8k4.row.col.f16.f16.f32"), (P{{Space::Registers, ""}})) << "quad-pair products";
    EXPECT_EQ(plan("mma.sp.m16n8k32.f16"), (P{{Space::Registers, "A"},
                                              {Space::Registers, "B"},
                                              {Space::Registers, "C/D"},
                                              {Space::Registers, "metadata"},
                                              {Space::Registers, "metadata+e"}}));
    EXPECT_EQ(plan("wgmma.m64n64k16.f16"),
              (P{{Space::Registers, "A"}, {Space::Registers, "D"}, {Space::SharedMemory, ""}}));
    EXPECT_EQ(plan("tcgen05.mma.cta_group::1.kind::f16.m128n64"),
              (P{{Space::TensorMemory, ""}, {Space::SharedMemory, ""}}))
        << "D in Tensor Memory, its tcgen05.ld drawn with it; A and B in each CTA's shared memory";
    EXPECT_EQ(plan("tcgen05.ld.32x32b.x2"), (P{{Space::Registers, "D"}}));
    EXPECT_EQ(plan("ldmatrix.m8n8.x4.b16"), (P{{Space::Registers, "D"}}));
}

TEST(DiagramCache, BuildsOncePerInstructionAndOptions) {
    const Instruction& in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    DiagramCache cache(2);
    DiagramOptions a;
    a.operands = Operand::A;
    const auto first = cache.get(in, a);
    EXPECT_EQ(cache.get(in, a), first) << "the same picture is served, not rebuilt";
    EXPECT_EQ(cache.builds(), 1u);
    DiagramOptions byRegister = a;
    byRegister.colorBy = ColorBy::Register;
    const auto recolored = cache.get(in, byRegister);
    EXPECT_NE(recolored, first);
    EXPECT_EQ(recolored->colorBy, ColorBy::Register);
    DiagramOptions filtered = a;
    filtered.threads = {0};
    cache.get(in, filtered);
    EXPECT_EQ(cache.size(), 2u) << "the least recently used diagram is dropped";
    cache.get(in, a);
    EXPECT_EQ(cache.builds(), 4u);
    cache.forget(in);
    EXPECT_EQ(cache.size(), 0u);
}

} // namespace test_view_state
