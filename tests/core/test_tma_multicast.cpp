// cp.async.bulk.tensor .multicast::cluster (docs/tma.md#multicast): every CTA of the ctaMask receives the box
// at the same offset (PTX); CUTLASS's SM90_TMA_LOAD_MULTICAST splits a tile among the mask's CTAs, each
// loading one box that all of them receive.
#include "families/tma/tma.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/feeds.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include <nlohmann/json.hpp>

#include "selection_text.hpp"

#include <gtest/gtest.h>

namespace test_tma_multicast {

using namespace lanemap;
using lanemap::test::parsed;
using lanemap::test::placementIn;
using lanemap::test::refusal;

namespace {

std::vector<int> ctasOf(const Placement& p, int r, int c) {
    std::vector<int> out;
    for (const Holding& h : p.at(r, c))
        out.push_back(std::get<SmemByte>(h.at).cta);
    return out;
}

nlohmann::json json(const Instruction& i) {
    std::string doc, error;
    if (!exportInstruction(i, ExportFormat::Json, {}, doc, error))
        throw std::runtime_error(error);
    return nlohmann::json::parse(doc);
}

} // namespace

TEST(TmaMulticast, EveryCtaOfTheMaskReceivesTheBoxAtTheSameOffset) {
    const auto i =
        instantiate(parsed("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::"
                           "bytes.multicast::cluster tensor=128x64 box=8x64 swizzle=128B "
                           "cta-mask=0b0101 cluster=4"));
    const Placement& s = placementIn(*i, Space::SharedMemory);
    EXPECT_EQ(s.clusterCtas(), 4);
    EXPECT_EQ(ctasOf(s, 1, 0), (std::vector<int>{0, 2}));
    const std::vector<Holding> h = s.at(1, 0);
    EXPECT_EQ(std::get<SmemByte>(h[0].at).address, 144u);
    EXPECT_EQ(std::get<SmemByte>(h[1].at).address, 144u) << "the same CTA-relative offset";
    const nlohmann::json j = json(*i);
    EXPECT_EQ(j["elements"][64]["ctas"], nlohmann::json::array({0, 2}));
    EXPECT_FALSE(j["elements"][64].contains("from_cta")) << "one load: no per-element issuer";
    ASSERT_EQ(j["cluster"]["per_cta"].size(), 4u);
    EXPECT_EQ(j["cluster"]["per_cta"][0]["elements"], 512);
    EXPECT_EQ(j["cluster"]["per_cta"][0]["bytes"], 1024);
    EXPECT_EQ(j["cluster"]["per_cta"][1]["elements"], 0) << "CTA 1 is not in the mask";
    EXPECT_EQ(j["cluster"]["per_cta"][2]["elements"], 512);
    EXPECT_NE(j["parameters"].get<std::string>().find("multicast to CTAs 0, 2 of a 4-CTA cluster"),
              std::string::npos)
        << j["parameters"];
}

TEST(TmaMulticast, ASplitIsTheTileCutlassLoadsEachCtaOneBox) {
    // CUTLASS truncates the CTA tile's outermost dimension by the multicast count: a 128 x 64 tile over 4
    // CTAs is 4 boxes of 32 x 64, box t loaded by the t-th CTA of the mask at row 32 t, to byte 4096 t.
    const auto split = instantiate(parsed("cp.async.bulk.tensor.2d tensor=256x64 box=32x64 swizzle=128B "
                                          "origin=64,0 cta-mask=0xf multicast=split"));
    const auto whole = instantiate(parsed("cp.async.bulk.tensor.2d tensor=256x64 box=128x64 swizzle=128B "
                                          "origin=64,0"));
    const Placement& s = placementIn(*split, Space::SharedMemory);
    const Placement& w = placementIn(*whole, Space::SharedMemory);
    ASSERT_EQ(s.rows(), 128);
    for (int r = 0; r < 128; ++r)
        for (int c = 0; c < 64; ++c)
            ASSERT_EQ(std::get<SmemByte>(s.at(r, c).front().at).address,
                      std::get<SmemByte>(w.at(r, c).front().at).address)
                << r << "," << c;
    const Placement& g = placementIn(*split, Space::Global);
    const GlobalElement e = std::get<GlobalElement>(g.at(40, 3).front().at);
    EXPECT_EQ(e.coord[1], 64u + 40u);
    EXPECT_EQ(e.cta, 1) << "rows 32..63 are the second CTA's load";
    EXPECT_EQ(ctasOf(s, 40, 3), (std::vector<int>{0, 1, 2, 3})) << "and every CTA of the mask receives them";
    const nlohmann::json j = json(*split);
    EXPECT_EQ(j["elements"][40 * 64 + 3]["from_cta"], 1);
    EXPECT_EQ(j["cluster"]["per_cta"][3]["elements"], 128 * 64);
    EXPECT_EQ(j["cluster"]["per_cta"][3]["from"][2]["cta"], 2);
    EXPECT_EQ(j["cluster"]["per_cta"][3]["from"][2]["elements"], 32 * 64);
    // Each CTA's mbarrier counts all four boxes, not one (the one-box count read as the barrier's before).
    const std::string words = j["parameters"];
    EXPECT_NE(words.find("4096 bytes loaded per box"), std::string::npos) << words;
    EXPECT_NE(words.find("every one receives all 4 (16384 bytes, its mbarrier's transaction count)"),
              std::string::npos)
        << words;
    EXPECT_EQ(words.find("4096 bytes loaded (the mbarrier's"), std::string::npos) << words;
    // The tile feeds a 128-row tcgen05.mma A, as the unsplit box does.
    feeds::Request q;
    q.writer =
        parsed("cp.async.bulk.tensor.2d tensor=256x64 box=32x64 swizzle=128B cta-mask=0xf multicast=split");
    q.reader = parsed("tcgen05.mma.cta_group::1.kind::f16.m128n64");
    std::string error;
    const std::optional<feeds::Answer> a = feeds::ask(q, error);
    ASSERT_TRUE(a) << error;
    EXPECT_TRUE(a->comparison.feeds());
}

TEST(TmaMulticast, TheMasksLoadsGoInRankOrder) {
    const auto i = instantiate(parsed("cp.async.bulk.tensor.2d tensor=64x64 box=8x64 cta-mask=0b1010 "
                                      "multicast=split"));
    const Placement& g = placementIn(*i, Space::Global);
    EXPECT_EQ(std::get<GlobalElement>(g.at(0, 0).front().at).cta, 1);
    EXPECT_EQ(std::get<GlobalElement>(g.at(8, 0).front().at).cta, 3);
    EXPECT_EQ(placementIn(*i, Space::SharedMemory).clusterCtas(), 4) << "the mask's highest CTA + 1";
}

TEST(TmaMulticast, BadMasksAreRefusedWithTheValidRange) {
    const std::string base = "cp.async.bulk.tensor.2d tensor=64x64 box=8x64 ";
    EXPECT_NE(refusal(base + "cta-mask=0x10 cluster=4").find("names CTA 4 of a 4-CTA cluster"),
              std::string::npos);
    EXPECT_NE(refusal(base + "cta-mask=0").find("0x1 to 0xffff"), std::string::npos);
    EXPECT_NE(refusal(base + "cta-mask=0x1ffff").find("0x1 to 0xffff"), std::string::npos);
    EXPECT_NE(refusal(base + "cluster=17 cta-mask=1").find("valid 1 to 16"), std::string::npos);
    EXPECT_NE(refusal(base + "multicast=split").find("needs cta-mask"), std::string::npos);
    EXPECT_NE(refusal(base + "multicast=all cta-mask=3").find("valid box"), std::string::npos);
    EXPECT_NE(refusal(base + "cluster=2").find("without cta-mask"), std::string::npos);
    EXPECT_NE(refusal("cp.async.bulk.tensor.2d tensor=1024x128 box=256x128 cta-mask=0xff multicast=split")
                  .find("the 8 boxes of the split span"),
              std::string::npos);
}

TEST(TmaMulticast, TheSpecTextNamesTheMulticast) {
    const auto i =
        instantiate(parsed("cp.async.bulk.tensor.2d tensor=64x64 box=8x64 cta-mask=0x5 multicast=split"));
    const std::string text = tma::specText(tma::mapOf(*i));
    EXPECT_NE(text.find("cta-mask=0x5 cluster=3 multicast=split"), std::string::npos) << text;
    EXPECT_EQ(instantiate(parsed(text))->placements.front().rows(), 16);
}

TEST(TmaSwizzle, TheUndrawnSm100ModesAreRefusedByName) {
    for (const char* mode : {"128B-64B", "128B_ATOM_32B_FLIP_8B"}) {
        const std::string why =
            refusal(std::string("cp.async.bulk.tensor.2d tensor=64x64 box=8x64 swizzle=") + mode);
        EXPECT_NE(why.find("an sm_100 mode lanemap does not draw"), std::string::npos) << why;
        EXPECT_NE(why.find("valid: none, 32B, 64B, 128B, 128B-32B"), std::string::npos) << why;
    }
}

} // namespace test_tma_multicast
