// The Tensor Memory pane's block-scale boxes as a user meets them: shown for the block-scaled kinds only,
// they list the kind's vector sizes and the IDs the chosen size takes, and picking one redraws the
// scale-factor panels at the bytes the table gives; the metadata panel of a sparse f16 form; the layout-F
// form opens with CUTLASS's 16-data-path load.
#include "opened_at.hpp"

#include "lanemap/diagram_tmem.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"

#include <QApplication>
#include <QComboBox>

#include <gtest/gtest.h>

namespace test_tcgen05_block_scale_gui {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

const DiagramPanel* panelOf(const Diagram& d, std::string_view operand) {
    for (const DiagramPanel& p : d.panels)
        if (p.kind == PanelKind::TensorMemory && p.name == operand)
            return &p;
    return nullptr;
}

QStringList items(const QComboBox* box) {
    QStringList out;
    for (int i = 0; i < box->count(); ++i)
        out << box->itemText(i);
    return out;
}

// The Tensor Memory pane's box `name` ("tmemScaleVec", "tmemSfaId", ...).
QComboBox* box(const OpenedAt& w, const char* name) {
    return w.window->findChild<QComboBox*>(QString::fromLatin1(name));
}

// A block scale chosen through the selection, as the pane's boxes choose it.
bool chooseBlockScale(const OpenedAt& w, tcgen05::ScaleVec vec, int sfa, int sfb, QString* error) {
    return openWith(
        *w.window,
        [&](Params& p) {
            p.blockScale = tcgen05::BlockScale{vec, sfa, sfb};
        },
        error);
}

void pick(QComboBox* box, const QVariant& data) {
    box->setCurrentIndex(box->findData(data));
    ASSERT_GE(box->currentIndex(), 0) << data.toString().toStdString();
    emit box->activated(box->currentIndex());
    QApplication::processEvents();
}

// With the three block-scale boxes beside N, Operand and tcgen05.ld, the window could not be narrower than
// 1341 pixels: on a 1280 x 720 screen it overflowed. The boxes sit on a row of their own.
TEST(Tcgen05BlockScaleBoxes, TheWindowFitsA1280PixelScreen) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("tcgen05.mma.sp.cta_group::1.kind::mxf4.m128n32"));
    ASSERT_TRUE(box(w, "tmemScaleVec")->isVisibleTo(w.window.get()));
    EXPECT_LE(w.window->minimumSizeHint().width(), 1280);
    EXPECT_LE(w.window->width(), 1280);
    const QWidget* sfb = box(w, "tmemSfbId");
    EXPECT_LE(sfb->mapTo(w.window.get(), QPoint(sfb->width(), 0)).x(), w.window->width())
        << "the SFB ID box is inside the window";
}

// A pasted instruction naming .scale_vec::2X opened at the kind's default (4X): the vector size typed is the
// one drawn, in the box and the picture.
TEST(Tcgen05BlockScaleBoxes, APastedInstructionOpensAtTheVectorSizeItNames) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("mma.m16n8k16.f16"));
    ASSERT_TRUE(w.window->openSpec(QStringLiteral(
        "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::2X [d], a, b, i, [sfa], [sfb], p;")));
    QApplication::processEvents();
    ASSERT_TRUE(w.window->instruction()->params.blockScale.has_value());
    EXPECT_EQ(w.window->instruction()->params.blockScale->vec, tcgen05::ScaleVec::X2);
    EXPECT_EQ(box(w, "tmemScaleVec")->currentText(), QStringLiteral("2X"));
    const Diagram& d = *tensorMemoryView(*w.window)->diagram();
    EXPECT_NE(d.title.find("scale_vec::2X"), std::string::npos) << d.title;
    // The short spec names no size: the default, 4X.
    ASSERT_TRUE(w.window->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    ASSERT_TRUE(w.window->openSpec(QStringLiteral("tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128n64")));
    EXPECT_EQ(box(w, "tmemScaleVec")->currentText(), QStringLiteral("4X"));
}

TEST(Tcgen05BlockScaleBoxes, PickingAVectorSizeAndIdsRedrawsTheScaleFactors) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128n64"));
    QComboBox* vec = box(w, "tmemScaleVec");
    QComboBox* sfa = box(w, "tmemSfaId");
    QComboBox* sfb = box(w, "tmemSfbId");
    ASSERT_TRUE(vec && sfa && sfb);
    EXPECT_TRUE(vec->isVisibleTo(w.window.get()));
    EXPECT_EQ(items(vec), (QStringList{QStringLiteral("2X"), QStringLiteral("4X")}));
    EXPECT_EQ(vec->currentText(), QStringLiteral("4X")) << "the size the entry's PTX string names";
    EXPECT_EQ(items(sfa), (QStringList{QStringLiteral("0")}));

    pick(vec, static_cast<int>(tcgen05::ScaleVec::X2));
    EXPECT_EQ(items(sfa), (QStringList{QStringLiteral("0"), QStringLiteral("2")}));

    pick(sfa, 2);
    EXPECT_EQ(w.window->instruction()->params.blockScale->sfaId, 2);
    const Diagram& d = *tensorMemoryView(*w.window)->diagram();
    const DiagramPanel* sa = panelOf(d, "scale A");
    ASSERT_NE(sa, nullptr);
    for (std::uint32_t i = sa->firstCell; i < sa->firstCell + sa->cellCount; ++i)
        EXPECT_EQ(d.cells[i].groupID, 8 * (2 + d.cells[i].bitLo)) << "SFA ID 2: bytes 2 and 3";
    EXPECT_NE(d.title.find("SFA ID 2"), std::string::npos);

    // 4X takes only ID 0: the ID boxes follow, and the chosen ID falls back to 0.
    pick(vec, static_cast<int>(tcgen05::ScaleVec::X4));
    EXPECT_EQ(items(sfa), (QStringList{QStringLiteral("0")}));
    EXPECT_EQ(w.window->instruction()->params.blockScale->vec, tcgen05::ScaleVec::X4);
    EXPECT_EQ(w.window->instruction()->params.blockScale->sfaId, 0);
    const Diagram& d4 = *tensorMemoryView(*w.window)->diagram();
    EXPECT_EQ(panelOf(d4, "scale B")->cellCount, 64u * 4u * 4u) << "4 factors per column, 4 copies";

    // A bad choice through the API is refused with the valid IDs and changes nothing.
    QString error;
    EXPECT_FALSE(chooseBlockScale(w, tcgen05::ScaleVec::X2, 1, 0, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("valid: 0, 2"))) << error.toStdString();
    EXPECT_EQ(w.window->instruction()->params.blockScale->vec, tcgen05::ScaleVec::X4);
    // A vector size the kind does not take names the ones it does.
    EXPECT_FALSE(chooseBlockScale(w, tcgen05::ScaleVec::X1, 0, 0, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("valid: scale_vec::2X, scale_vec::4X"))) << error.toStdString();
    EXPECT_TRUE(error.contains(QStringLiteral("kind::mxf4nvf4"))) << error.toStdString();
}

TEST(Tcgen05BlockScaleBoxes, HiddenForKindsWithoutBlockScaling) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("tcgen05.mma.sp.cta_group::1.kind::f16.m128n64"));
    ASSERT_NE(box(w, "tmemScaleVec"), nullptr);
    EXPECT_FALSE(box(w, "tmemScaleVec")->isVisibleTo(w.window.get()));
    const Diagram& d = *tensorMemoryView(*w.window)->diagram();
    const DiagramPanel* md = panelOf(d, "metadata");
    ASSERT_NE(md, nullptr) << "sparse f16 at M = 128: Figure 263's metadata is drawn";
    EXPECT_EQ(md->cellCount, 128u * 8u);
}

TEST(Tcgen05BlockScaleBoxes, LayoutFOpensWithCutlasss16DataPathLoad) {
    OpenedAt w(QSize(1280, 720), QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m64n64"));
    QComboBox* access = box(w, "tmemAccess");
    ASSERT_NE(access, nullptr);
    EXPECT_EQ(tmem::specOf(access->currentData().value<tmem::Access>()), "tcgen05.ld.16x128b.x16");
    EXPECT_TRUE(access->currentText().contains(QStringLiteral("epilogue default")));
}

} // namespace test_tcgen05_block_scale_gui
