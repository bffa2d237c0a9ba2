// The app's selections, widget-free: text read once into a Selection (the form, a tcgen05.mma's N, a pasted
// vector size), the view's defaults, what "the same view" is, the words of an instance, and Back / Forward /
// Recent kept as selections.
#include "history.hpp"
#include "paint_timing.hpp"
#include "selections.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram_tmem.hpp"

#include <QObject>
#include <QSet>

#include <gtest/gtest.h>

namespace test_selections {

using namespace lanemap;
using namespace lanemap::gui;

TEST(Selections, TextIsReadOnceWithWhatItSaysBeyondTheVariant) {
    QString error;
    const Selection n32 =
        parseSelection(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n32"), &error);
    ASSERT_TRUE(n32) << error.toStdString();
    EXPECT_EQ(n32.variant->spec, "tcgen05.mma.cta_group::1.kind::f16.m128");
    EXPECT_EQ(n32.params.n, 32);
    // A pasted block-scaled instruction: the vector size it names, IDs 0.
    const Selection pasted = parseSelection(QStringLiteral(
        "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::2X [d], a, b, i, [sfa], [sfb], p;"));
    ASSERT_TRUE(pasted);
    ASSERT_TRUE(pasted.params.blockScale);
    EXPECT_EQ(pasted.params.blockScale->vec, tcgen05::ScaleVec::X2);
    EXPECT_EQ(pasted.params.blockScale->sfaId, 0);
    // A bad spec: no selection, and why.
    EXPECT_FALSE(parseSelection(QStringLiteral("mma.m16n8k16.tf32"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("valid types"))) << error.toStdString();
}

TEST(Selections, TheViewOpensDComposedAndKeepsTheSharedMemoryChoiceWhereItApplies) {
    const Selection tcgen05 = parseSelection(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n64"));
    const Selection opened = withViewDefaults(tcgen05, {});
    ASSERT_TRUE(opened.params.access) << "D composed with the epilogue's load";
    EXPECT_EQ(tmem::specOf(*opened.params.access), "tcgen05.ld.32x32b.x32");
    EXPECT_TRUE(validate(opened).empty());

    Params shown;
    shown.smem = smem::Choice{smem::Major::MN, smem::Swizzle::B64};
    const Selection f16 = withViewDefaults(parseSelection(QStringLiteral("wgmma.m64n64k16.f16")), shown);
    EXPECT_EQ(f16.params.smem, shown.smem) << "another wgmma keeps the choice";
    const Selection tf32 = withViewDefaults(parseSelection(QStringLiteral("wgmma.m64n8k8.tf32")), shown);
    ASSERT_TRUE(tf32.params.smem);
    EXPECT_EQ(tf32.params.smem->major, smem::Major::K) << "MN-major exists for 16-bit types only";
    EXPECT_EQ(tf32.params.smem->swizzle, smem::Swizzle::B64);
    EXPECT_FALSE(withViewDefaults(parseSelection(QStringLiteral("mma.m16n8k16.f16")), shown).params.smem)
        << "mma reads no shared memory";
}

TEST(Selections, TheSameTextAgainNamesTheSameViewAnotherNDoesNot) {
    const Selection typed = parseSelection(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n64"));
    Selection shown = withViewDefaults(typed, {});
    shown.params.access.reset(); // the user picked "none"
    EXPECT_TRUE(namesSameView(typed, shown));
    EXPECT_FALSE(
        namesSameView(parseSelection(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n32")), shown));
    EXPECT_FALSE(namesSameView(parseSelection(QStringLiteral("mma.m16n8k16.f16")), shown));
}

TEST(Selections, AnInstanceIsNamedWithItsN) {
    const Selection s = parseSelection(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n64"));
    EXPECT_EQ(specText(*instantiate(s)), QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n64"));
    EXPECT_EQ(specText(*instantiate(parseSelection(QStringLiteral("mma.m16n8k16.f16")))),
              QStringLiteral("mma.m16n8k16.f16"));
}

TEST(History, BackForwardAndRecentKeepSelections) {
    History h;
    const Selection a = parseSelection(QStringLiteral("mma.m16n8k16.f16"));
    const Selection b = parseSelection(QStringLiteral("mma.m16n8k8.tf32"));
    const Selection c =
        withViewDefaults(parseSelection(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n64")), {});
    h.visit(a, QStringLiteral("a"));
    h.visit(b, QStringLiteral("b"));
    h.visit(c, QStringLiteral("c"));
    Selection other = c;
    other.params.n = 32; // the pane's tools: the visit says the N now shown
    h.update(other, QStringLiteral("c32"));
    EXPECT_FALSE(h.canGoForward());
    EXPECT_EQ(h.back(), b);
    h.visit(b, QStringLiteral("b")); // what opening it reports: not a new visit
    EXPECT_EQ(h.forward(), other) << "forward restores the parameters the view had";
    EXPECT_EQ(h.back(), b);
    h.visit(a, QStringLiteral("a")); // a new visit drops the forward part
    EXPECT_FALSE(h.canGoForward());
    ASSERT_EQ(h.recent().size(), 3u) << "each variant once";
    EXPECT_EQ(h.recent().front().label, QStringLiteral("a"));
    EXPECT_EQ(h.recent()[2].label, QStringLiteral("c32"));
}

TEST(PaintTiming, TheFirstPaintIsTheLastVisibleViewsPaint) {
    PaintTiming t;
    QObject a, b, hidden;
    t.select();
    t.await({&a, &b, &hidden});
    EXPECT_FALSE(t.painted(&a, 1.0, {&a, &b}));
    EXPECT_TRUE(t.painted(&b, 1.0, {&a, &b})) << "a view nobody sees never paints";
    EXPECT_GE(t.selectToFirstPaintMs(), 0.0);
    t.hovered();
    t.painted(&a, 2.5, {&a, &b});
    EXPECT_TRUE(t.report().contains(QStringLiteral("hover frames: 1, mean 2.50 ms, max 2.50 ms")))
        << t.report().toStdString();
}

} // namespace test_selections
