// The window's shared view state and diagram cache, tested without any widget.
#include "diagram_cache.hpp"
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
