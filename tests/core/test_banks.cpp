// Shared-memory placement and bank conflicts of ldmatrix / stmatrix, worked by hand: a 16-byte row at byte
// address a falls in bank group (a >> 4) & 7; a phase of eight rows needs as many wavefronts as the most
// distinct rows in one group. Also the search, bad placements, and feeding the mma fragments.
#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace test_banks {

namespace {

using namespace lanemap;
using namespace lanemap::banks;
using Placement = lanemap::banks::Placement; // not lanemap::Placement

const Variant& variant(const char* spec) {
    return *Catalog::instance().variant(spec);
}

Analysis analyzeText(const char* spec, const char* smem) {
    std::string error;
    const std::optional<Placement> p = parsePlacement(smem, error);
    if (!p)
        throw std::runtime_error(error);
    const std::optional<Analysis> a = analyze(variant(spec), *p, error);
    if (!a)
        throw std::runtime_error(error);
    return *a;
}

std::string placementError(const char* spec, const char* smem) {
    std::string error;
    const std::optional<Placement> p = parsePlacement(smem, error);
    if (p && analyze(variant(spec), *p, error))
        return {};
    return error;
}

// Rows 64 bytes apart: rows 0, 2, 4, 6 of each matrix share bank group 0 (and 1, 3, 5, 7 group 4): 4-way.
TEST(Banks, SixtyFourBytePitchIsFourWay) {
    const Analysis a = analyzeText("ldmatrix.m8n8.x4.b16", "row-major,pitch=64");
    ASSERT_EQ(a.phases.size(), 4u);
    EXPECT_EQ(a.phases[0].degree, 4);
    EXPECT_EQ(a.phases[0].rows[2].address, 128u);
    EXPECT_EQ(a.phases[0].rows[2].bankGroup, 0);
    EXPECT_EQ(a.phases[0].rows[2].wavefront, 1);
    EXPECT_EQ(a.phases[2].rows[0].address, 16u); // matrix 2 = columns 8-15: the second 16 bytes of row 0
    EXPECT_EQ(a.idealWavefronts, 4);
    EXPECT_EQ(a.wavefronts, 16);
    EXPECT_EQ(a.excessive(), 12);
}

TEST(Banks, PitchesPaddingAndSwizzlesAgreeWithHandCounts) {
    EXPECT_EQ(analyzeText("ldmatrix.m8n8.x4.b16", "row-major").wavefronts, 8); // 32 B rows: 2-way
    EXPECT_EQ(analyzeText("ldmatrix.m8n8.x4.b16", "pitch=128").wavefronts, 32);
    EXPECT_EQ(analyzeText("ldmatrix.m8n8.x4.b16", "pitch=128,pad=16").wavefronts, 4);
    EXPECT_EQ(analyzeText("ldmatrix.m8n8.x4.b16", "pitch=128,mode=128B").wavefronts, 4);
    EXPECT_EQ(analyzeText("ldmatrix.m8n8.x4.b16", "pitch=128,swizzle=3,3,3").wavefronts, 4);
    EXPECT_EQ(analyzeText("ldmatrix.m8n8.x4.b16", "pitch=128,mode=64B").wavefronts, 8);
    EXPECT_EQ(analyzeText("ldmatrix.m8n8.x4.b16", "pitch=128,mode=32B").wavefronts, 16);
    // Swizzle<3,3,3> on b16 element offsets is the 128B mode on bytes: the same address for every row.
    const Analysis cute = analyzeText("ldmatrix.m8n8.x4.trans.b16", "pitch=256,swizzle=<3,3,3>,start=0x400");
    const Analysis mode = analyzeText("ldmatrix.m8n8.x4.trans.b16", "pitch=256,mode=128B,start=0x400");
    for (std::size_t p = 0; p < cute.phases.size(); ++p)
        for (std::size_t r = 0; r < 8; ++r)
            EXPECT_EQ(cute.phases[p].rows[r].address, mode.phases[p].rows[r].address);
    // x1 with packed 16-byte rows: eight consecutive chunks, one per bank group.
    EXPECT_EQ(analyzeText("ldmatrix.m8n8.x1.b16", "pitch=16").wavefronts, 1);
}

TEST(Banks, StmatrixAndColumnMajorPlacements) {
    EXPECT_EQ(analyzeText("stmatrix.m8n8.x2.b16", "pitch=128").wavefronts, 16);
    // col-major: the tile's columns are the contiguous lines; matrix 1 (rows 8-15) starts 16 bytes in.
    const Analysis a = analyzeText("ldmatrix.m8n8.x2.b16", "col-major,pitch=32");
    EXPECT_EQ(a.phases[1].rows[0].address, 16u);
    EXPECT_EQ(a.phases[1].rows[0].tileRow, 8);
    EXPECT_EQ(a.wavefronts, 4);
}

TEST(Banks, SearchListsConflictFreePlacementsAndRecommendsOneWithoutPadding) {
    const Variant& v = variant("ldmatrix.m8n8.x4.b16");
    std::string error;
    const Placement base = *parsePlacement("pitch=128", error);
    const std::vector<SearchResult> found = search(v, base);
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found.front().wavefronts, found.front().idealWavefronts);
    bool sawPad16 = false, sawMode128 = false;
    for (const SearchResult& r : found) {
        if (r.wavefronts != r.idealWavefronts)
            continue;
        sawPad16 = sawPad16 || (r.placement.padBytes == 16 && !r.placement.cute);
        sawMode128 = sawMode128 || r.placement.mode == smem::Swizzle::B128;
    }
    EXPECT_TRUE(sawPad16);
    EXPECT_TRUE(sawMode128);
    const std::optional<Placement> best = recommend(v, base);
    ASSERT_TRUE(best);
    EXPECT_EQ(best->padBytes, 0);
    EXPECT_EQ(analyze(v, *best, error)->excessive(), 0);
    // Already conflict-free: the recommendation changes nothing.
    EXPECT_EQ(recommend(v, *parsePlacement("pitch=128,pad=16", error))->padBytes, 16);
}

TEST(Banks, BadPlacementsNameTheProblem) {
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "start=8").find("start 0x0008 is not 16-byte aligned"),
              std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "pitch=40").find("not a multiple of 16"),
              std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "pitch=16").find("shorter than one line"),
              std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "swizzle=3,2,3").find("smaller than 16 bytes"),
              std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "tile=8x8").find("holds 1 matrices"), std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "tile=12x16").find("whole 8x8 matrices"),
              std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "pitch=0x10000").find("227 KiB"), std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "mode=96B").find("mode '96B'"), std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "rowmajor").find("unknown part 'rowmajor'"),
              std::string::npos);
    EXPECT_NE(placementError("ldmatrix.m8n8.x4.b16", "swizzle=3,3,3,mode=128B").find("not both"),
              std::string::npos);
    std::string error;
    EXPECT_FALSE(analyze(variant("movmatrix.m8n8.trans.b16"), Placement{}, error));
    EXPECT_NE(error.find("reads no shared memory"), std::string::npos);
}

TEST(Banks, JsonNamesWavefrontsLikeNsightCompute) {
    const Analysis a = analyzeText("ldmatrix.m8n8.x4.b16", "pitch=64");
    const nlohmann::json doc = nlohmann::json::parse(toJson(variant("ldmatrix.m8n8.x4.b16"), a));
    EXPECT_EQ(doc["wavefronts"], 16);
    EXPECT_EQ(doc["ideal_wavefronts"], 4);
    EXPECT_EQ(doc["excessive_wavefronts"], 12);
    EXPECT_EQ(doc["phases"][0]["rows"][1]["first_bank"], 16);
    EXPECT_EQ(doc["placement"]["pitch_bytes"], 64);
    const std::string text = toText(variant("ldmatrix.m8n8.x4.b16"), a);
    EXPECT_NE(text.find("L1 Wavefronts Shared Excessive 12"), std::string::npos) << text;
    EXPECT_NE(text.find("4-way bank conflict"), std::string::npos);
}

FeedCheck feed(const char* move, const char* consumer, Operand operand, const char* smem) {
    std::string error;
    const std::optional<FeedCheck> c = checkFeed(variant(move), *Catalog::instance().instruction(consumer),
                                                 operand, *parsePlacement(smem, error), error);
    if (!c)
        throw std::runtime_error(error);
    return *c;
}

// ldmatrix.x4 on the four 8x8 quadrants gives exactly the mma.m16n8k16 .f16 A registers a0..a7; B needs
// .x2.trans from a K-row-major tile or .x2 from an N-row-major (col-major) one.
TEST(Feeds, LdmatrixFeedsTheMmaFragmentsItShould) {
    const FeedCheck a = feed("ldmatrix.m8n8.x4.b16", "mma.m16n8k16.f16", Operand::A, "row-major");
    EXPECT_EQ(a.mismatches, 0);
    EXPECT_EQ(a.cells.size(), 32u * 8u);
    EXPECT_EQ(a.addresses[9].tileRow, 9); // T9 supplies &A[9][0]
    EXPECT_EQ(a.addresses[9].tileCol, 0);
    EXPECT_EQ(a.addresses[17].tileCol, 8); // T17 supplies &A[1][8]
    EXPECT_EQ(feed("ldmatrix.m8n8.x2.trans.b16", "mma.m16n8k16.f16", Operand::B, "row-major").mismatches, 0);
    EXPECT_EQ(feed("ldmatrix.m8n8.x2.b16", "mma.m16n8k16.f16", Operand::B, "col-major").mismatches, 0);
    EXPECT_EQ(feed("ldmatrix.m8n8.x2.b16", "mma.m16n8k16.bf16", Operand::B, "col-major,pitch=64,mode=64B")
                  .mismatches,
              0);
    EXPECT_EQ(feed("stmatrix.m8n8.x2.b16", "mma.m16n8k16.f16.f16", Operand::D, "row-major").mismatches, 0);
}

TEST(Feeds, TheWrongMoveShowsTheMismatchCellByCell) {
    const FeedCheck b = feed("ldmatrix.m8n8.x2.b16", "mma.m16n8k16.f16", Operand::B, "row-major");
    EXPECT_GT(b.mismatches, 0);
    // T0's second element: the row-major load gives B[0][1], the fragment wants B[1][0].
    const FeedCell& c = b.cells[1];
    EXPECT_EQ(c.loadedRow, 0);
    EXPECT_EQ(c.loadedCol, 1);
    EXPECT_EQ(c.wantedRow, 1);
    EXPECT_EQ(c.wantedCol, 0);
    EXPECT_NE(toText(variant("ldmatrix.m8n8.x2.b16"), b).find("MISMATCH"), std::string::npos);
    EXPECT_GT(feed("ldmatrix.m8n8.x4.b16", "mma.m16n8k16.f16", Operand::A, "col-major").mismatches, 0);
}

TEST(Feeds, IncomparableOperandsAreRefused) {
    std::string error;
    EXPECT_FALSE(checkFeed(variant("ldmatrix.m8n8.x4.b16"),
                           *Catalog::instance().instruction("mma.m16n8k16.f16"), Operand::D, Placement{},
                           error));
    EXPECT_NE(error.find("ldmatrix feeds A or B"), std::string::npos);
    EXPECT_FALSE(checkFeed(variant("ldmatrix.m8n8.x2.b16"),
                           *Catalog::instance().instruction("mma.m16n8k16.f16"), Operand::A, Placement{},
                           error));
    EXPECT_NE(error.find("moves 4 x 16-bit elements per thread"), std::string::npos) << error;
}

} // namespace

} // namespace test_banks
