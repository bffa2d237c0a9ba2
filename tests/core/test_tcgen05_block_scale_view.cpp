// The block scale and sparse metadata of a tcgen05.mma view (diagram_tmem.hpp, tmem::viewJson): every vector
// size and scale-factor ID a user can choose is drawn where the table puts it, exported to JSON and SVG; the
// metadata of every covered kind and M is drawn, the rest are findings; and the composed view opens with
// CUTLASS's epilogue load for the layout.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"
#include "lanemap/tmem.hpp"

#include <nlohmann/json.hpp>

#include "catalog_entry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace test_tcgen05_block_scale_view {

using namespace lanemap;
using lanemap::test::catalogEntry;

const DiagramPanel* panelOf(const Diagram& d, std::string_view operand) {
    for (const DiagramPanel& p : d.panels)
        if (p.kind == PanelKind::TensorMemory && p.name == operand)
            return &p;
    return nullptr;
}

// The hover text of some cell: what the app's hover line and the SVG's tooltip script show for it (the SVG
// builds it in the viewer, tests/site checks that byte for byte).
bool someTooltipIs(const Diagram& d, std::string_view text) {
    return std::any_of(d.cells.begin(), d.cells.end(),
                       [&](const DiagramCell& c) { return d.tooltip(c) == text; });
}

bool captionHas(const Diagram& d, std::string_view text) {
    return std::any_of(d.caption.begin(), d.caption.end(),
                       [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

TEST(TensorMemoryBlockScale, EveryVectorSizeAndIdIsDrawnWhereTheTableSays) {
    for (const std::string spec :
         {"tcgen05.mma.cta_group::1.kind::mxf8f6f4.m128", "tcgen05.mma.cta_group::1.kind::mxf4.m128",
          "tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128"}) {
        const Instruction& in = catalogEntry(spec);
        const tcgen05::Kind kind = tmem::mmaOf(in)->kind;
        for (const tcgen05::ScaleVec vec : tcgen05::scaleVecsOf(kind))
            for (const int id : tcgen05::ruleOf(vec).ids) {
                TensorMemoryOptions o;
                o.params.n = 32;
                o.params.blockScale = tcgen05::BlockScale{vec, id, id};
                const Diagram d = buildTensorMemoryDiagram(in, o);
                const DiagramPanel* sa = panelOf(d, "scale A");
                const DiagramPanel* sb = panelOf(d, "scale B");
                ASSERT_TRUE(sa && sb) << spec;
                const int factors = tcgen05::ruleOf(vec).factorsPerRow;
                EXPECT_EQ(sa->cellCount, 128u * 4u * static_cast<unsigned>(factors));
                EXPECT_EQ(sb->cellCount, 32u * 4u * static_cast<unsigned>(factors));
                for (std::uint32_t i = sa->firstCell; i < sa->firstCell + sa->cellCount; ++i) {
                    const DiagramCell& c = d.cells[i];
                    const auto places =
                        tcgen05::scaleFactorPlaces(kind, vec, id, Operand::A, c.element, c.bitLo);
                    const tmem::Address at = tmem::Address::decode(c.address);
                    EXPECT_NE(std::find(places.begin(), places.end(),
                                        tcgen05::TmemPlace{at.lane, at.column, c.groupID, 8}),
                              places.end());
                    EXPECT_EQ(c.groupID / 8, id + c.bitLo) << "byte ID + factor";
                }
                EXPECT_NE(d.title.find("SFA ID " + std::to_string(id)), std::string::npos) << d.title;
            }
    }
}

TEST(TensorMemoryBlockScale, AnIdTheVectorSizeDoesNotTakeIsRefusedWithTheValidOnes) {
    const Instruction& in = catalogEntry("tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128");
    TensorMemoryOptions o;
    o.params.blockScale = tcgen05::BlockScale{tcgen05::ScaleVec::X4, 0, 2};
    EXPECT_NE(validate(in, o).find("SFB ID 2 is invalid"), std::string::npos);
    EXPECT_NE(validate(in, o).find("valid: 0"), std::string::npos);
    EXPECT_THROW(buildTensorMemoryDiagram(in, o), std::invalid_argument);
    // A kind without block scaling ignores no choice silently: it is refused.
    TensorMemoryOptions f16;
    f16.params.blockScale = tcgen05::BlockScale{};
    EXPECT_NE(validate(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128"), f16).find("not block-scaled"),
              std::string::npos);
}

TEST(TensorMemoryBlockScale, TheTwoByTwoDatapathsBFactorsAreAFindingNotAGuess) {
    const Diagram d =
        buildTensorMemoryDiagram(catalogEntry("tcgen05.mma.cta_group::2.kind::mxf8f6f4.m128"), {});
    EXPECT_NE(panelOf(d, "scale A"), nullptr);
    EXPECT_EQ(panelOf(d, "scale B"), nullptr);
    EXPECT_TRUE(captionHas(d, "finding: B's scale factors of cta_group::2 with M = 128"));
}

TEST(TensorMemoryBlockScale, JsonAndSvgCarryTheChosenIds) {
    tmem::View v{*tmem::mmaOf(catalogEntry("tcgen05.mma.cta_group::1.kind::mxf4.m128")), std::nullopt};
    v.mma.n = 64;
    v.blockScale = tcgen05::BlockScale{tcgen05::ScaleVec::X2, 2, 0};
    const auto j = nlohmann::json::parse(tmem::viewJson(v));
    EXPECT_EQ(j["block_scale"]["scale_vec"], "scale_vec::2X");
    EXPECT_EQ(j["block_scale"]["sfa_id"], 2);
    EXPECT_EQ(j["block_scale"]["valid_ids"], nlohmann::json::array({0, 2}));
    // Row 37 of A, factor 1, with SFA ID 2: byte 3 of column 1, lane 5 of each subpartition.
    EXPECT_EQ(j["scale_factors"]["A"]["rows"][37][1][0], nlohmann::json::array({5, 1, 24}));
    EXPECT_EQ(j["scale_factors"]["A"]["rows"][37][1][3], nlohmann::json::array({101, 1, 24}));
    EXPECT_EQ(j["scale_factors"]["B"]["rows"].size(), 64u);
    EXPECT_EQ(j["scale_factors"]["B"]["rows"][0][0][0], nlohmann::json::array({0, 0, 0}));
    EXPECT_NE(j["scale_factors"]["A"]["source"].get<std::string>().find("not confirmed on hardware"),
              std::string::npos);
    v.blockScale->sfaId = 1;
    EXPECT_NE(tmem::validate(v).find("valid: 0, 2"), std::string::npos);

    TensorMemoryOptions o;
    o.params.n = 64;
    o.params.blockScale = tcgen05::BlockScale{tcgen05::ScaleVec::X2, 2, 0};
    const Diagram scaled =
        buildTensorMemoryDiagram(catalogEntry("tcgen05.mma.cta_group::1.kind::mxf4.m128"), o);
    const std::string svg = toSvg(scaled);
    EXPECT_NE(svg.find("SFA ID 2"), std::string::npos);
    EXPECT_NE(svg.find("Figure 232"), std::string::npos) << "A's 2X figure is named";
    EXPECT_NE(svg.find(">SFA(37,1)<"), std::string::npos);
    EXPECT_TRUE(someTooltipIs(scaled, "SFA(37,1) \u00b7 CTA 0 lane 5 column 1[31..24] \u00b7 warp 0"));
}

TEST(TensorMemoryMetadata, EveryCoveredKindIsDrawnAndExported) {
    for (const std::string spec :
         {"tcgen05.mma.sp.cta_group::1.kind::f16.m128", "tcgen05.mma.sp.cta_group::1.kind::tf32.m128",
          "tcgen05.mma.sp.cta_group::2.kind::i8.m256", "tcgen05.mma.sp.cta_group::1.kind::mxf4nvf4.m128"}) {
        const Instruction& in = catalogEntry(spec);
        const tmem::MmaShape shape = *tmem::mmaOf(in);
        const Diagram d = buildTensorMemoryDiagram(in, {});
        const DiagramPanel* md = panelOf(d, "metadata");
        ASSERT_NE(md, nullptr) << spec;
        const int groups = tcgen05::metadataGroupsPerRow(shape.kind);
        EXPECT_EQ(md->cellCount, static_cast<unsigned>(128 * groups)) << spec;
        for (std::uint32_t i = md->firstCell; i < md->firstCell + md->cellCount; ++i) {
            const DiagramCell& c = d.cells[i];
            const tcgen05::TmemPlace at =
                tcgen05::sparseMetadataPlace(shape.kind, shape.m, shape.ctaGroup, c.element, c.bitLo);
            EXPECT_EQ(tmem::Address::decode(c.address), (tmem::Address{at.lane, at.column}));
            EXPECT_EQ(c.groupID, at.lowBit);
        }
        const auto j = nlohmann::json::parse(tmem::viewJson(tmem::View{shape, std::nullopt}));
        ASSERT_TRUE(j.contains("metadata")) << spec;
        EXPECT_EQ(j["metadata"]["rows"].size(), 128u);
        EXPECT_EQ(j["metadata"]["rows"][0].size(), static_cast<std::size_t>(groups));
        EXPECT_NE(j["metadata"]["source"].get<std::string>().find("Figure 26"), std::string::npos);
    }
    // f16 row 9, group 1 (CUTLASS's interleave): lane 1, bits 23..20.
    const Diagram f16 =
        buildTensorMemoryDiagram(catalogEntry("tcgen05.mma.sp.cta_group::1.kind::f16.m128"), {});
    EXPECT_NE(toSvg(f16).find(">E(9,1)<"), std::string::npos);
    EXPECT_TRUE(someTooltipIs(f16, "E(9,1) \u00b7 CTA 0 lane 1 column 0[23..20] \u00b7 warp 0"));
    EXPECT_TRUE(captionHas(f16, "finding: sparse metadata: ambiguity"));
}

TEST(TensorMemoryMetadata, CasesWithoutATranscribedFigureAreFindingsInJsonToo) {
    for (const std::string spec :
         {"tcgen05.mma.sp.cta_group::1.kind::f16.m64", "tcgen05.mma.sp.cta_group::2.kind::f8f6f4.m128",
          "tcgen05.mma.ws.sp.cta_group::1.kind::tf32.m32"}) {
        const Instruction& in = catalogEntry(spec);
        const Diagram d = buildTensorMemoryDiagram(in, {});
        EXPECT_EQ(panelOf(d, "metadata"), nullptr) << spec;
        EXPECT_TRUE(captionHas(d, "finding: sparse metadata")) << spec;
        const auto j = nlohmann::json::parse(tmem::viewJson(tmem::View{*tmem::mmaOf(in), std::nullopt}));
        EXPECT_FALSE(j.contains("metadata"));
        bool found = false;
        for (const auto& f : j["findings"])
            found |= f.get<std::string>().find("sparse metadata") != std::string::npos;
        EXPECT_TRUE(found) << spec;
    }
}

TEST(TensorMemoryEpilogueDefault, EachLayoutOpensWithCutlasssLoad) {
    // CUTLASS's sm100_get_tmem_load_op: 32 data paths a warp -> 32dp32b, 16 (layout F) -> 16dp128b.
    const std::pair<const char*, const char*> cases[] = {
        {"tcgen05.mma.cta_group::1.kind::f16.m128", "tcgen05.ld.32x32b.x32"},    // D
        {"tcgen05.mma.cta_group::2.kind::f16.m256", "tcgen05.ld.32x32b.x32"},    // A
        {"tcgen05.mma.cta_group::2.kind::f16.m128", "tcgen05.ld.32x32b.x32"},    // B
        {"tcgen05.mma.sp.cta_group::2.kind::f16.m128", "tcgen05.ld.32x32b.x32"}, // C
        {"tcgen05.mma.cta_group::1.kind::f16.m64", "tcgen05.ld.16x128b.x16"},    // F: 64 columns
        {"tcgen05.mma.ws.cta_group::1.kind::f16.m64", "tcgen05.ld.32x32b.x32"},  // E (lanemap's)
        {"tcgen05.mma.ws.cta_group::1.kind::f16.m32", "tcgen05.ld.32x32b.x32"},  // G (lanemap's)
    };
    for (const auto& [spec, want] : cases) {
        const Instruction& in = catalogEntry(spec);
        const tmem::MmaShape shape = shapeOf(in, {});
        const tmem::Access a = defaultAccess(shape, tmem::Op::Ld);
        EXPECT_EQ(tmem::specOf(a), want) << spec;
        EXPECT_EQ(tmem::validateComposition(shape, a), "") << spec;
        const EpilogueLoad& load = epilogueLoadOf(tmem::layoutOf(shape).layout);
        EXPECT_EQ(load.shape, a.shape);
        EXPECT_EQ(tmem::recordOf(load.shape).lanes >= load.dataPaths, true);
    }
    // A narrow D loads only its columns: layout F with N = 8 takes two 4-column repetitions.
    TensorMemoryOptions o;
    o.params.n = 8;
    EXPECT_EQ(tmem::specOf(defaultAccess(shapeOf(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m64"), o),
                                         tmem::Op::Ld)),
              "tcgen05.ld.16x128b.x2");
    // Every layout has exactly one line.
    for (const tmem::Layout l : {tmem::Layout::A, tmem::Layout::B, tmem::Layout::C, tmem::Layout::D,
                                 tmem::Layout::E, tmem::Layout::F, tmem::Layout::G})
        EXPECT_EQ(std::count_if(epilogueLoads().begin(), epilogueLoads().end(),
                                [&](const EpilogueLoad& e) { return e.layout == l; }),
                  1);
}

} // namespace test_tcgen05_block_scale_view
