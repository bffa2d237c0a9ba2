// A tiled copy (lanemap/tiled_copy.hpp, docs/tiles.md#tiled-copy): ldmatrix loading a tiled MMA's A and B
// from one shared-memory tile — which register each instruction fills, whether it is the one the tile wants,
// and the bank conflicts of every instruction, against the per-instruction numbers Nsight Compute confirmed
// (docs/ldmatrix-banks.md).
#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tiled_copy.hpp"

#include "selection_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <stdexcept>

namespace lanemap::test_tiled_copy {
namespace {

using test::tiled;

const Variant& move(std::string_view spec) {
    const ParsedSpec parsed = parseSpec(spec, Catalog::instance());
    if (!parsed)
        throw std::runtime_error(parsed.error);
    return *parsed.variant;
}

banks::Placement placement(std::string_view text) {
    std::string error;
    const std::optional<banks::Placement> p = banks::parsePlacement(text, error);
    if (!p)
        throw std::runtime_error(error);
    return *p;
}

tiled_copy::Result copy(std::string_view mv, const Instruction& tile, Operand operand,
                        std::string_view smem) {
    std::string error;
    const std::optional<tiled_copy::Result> r =
        tiled_copy::analyze(move(mv), tile, operand, placement(smem), error);
    if (!r)
        throw std::runtime_error(error);
    return *r;
}

TEST(TiledCopy, LdmatrixX4FeedsEveryWarpsAOfTheIssuesTile) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16");
    const tiled_copy::Result r = copy("ldmatrix.m8n8.x4.b16", *t, Operand::A, "row-major");
    EXPECT_EQ(r.rows, 32);
    EXPECT_EQ(r.cols, 16);
    EXPECT_EQ(r.warps, 4);
    EXPECT_EQ(r.perWarp, 1); // one x4 loads an m16n8k16 A
    // 128 threads x 8 slots, every one the element the tile wants.
    EXPECT_EQ(r.slots.size(), 128u * 8u);
    EXPECT_EQ(r.mismatches, 0);
    // Warp 1 is the second atom along M: its lane 0 points at A[16][0].
    const banks::RowAccess& first = r.copies[1].phases[0].rows[0];
    EXPECT_EQ(first.thread, 32);
    EXPECT_EQ(first.tileRow, 16);
    EXPECT_EQ(first.tileCol, 0);
    EXPECT_EQ(first.address, 16u * 32u);
    // Pitch 32 B: the 8 rows of a matrix fall in bank groups 0,2,4,6,0,2,4,6 — 2-way in every phase, as one
    // ldmatrix.x4 on a 16x16 tile at pitch 32 B (8 wavefronts, ideal 4; Nsight Compute agreed).
    EXPECT_EQ(r.wavefronts, 4 * 8);
    EXPECT_EQ(r.idealWavefronts, 4 * 4);
    EXPECT_EQ(r.worstDegree(), 2);
    const nlohmann::json j = nlohmann::json::parse(tiled_copy::toJson(r));
    EXPECT_EQ(j["feeds"], true);
    EXPECT_EQ(j["instructions"].size(), 4u);
}

TEST(TiledCopy, KTilingAtA128BytePitchIs8WayUnlessSwizzled) {
    // A 32x64: four k-steps per warp; each row 128 B, so a matrix's 8 rows share one bank group.
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,_16,_64");
    tiled_copy::Result r = copy("ldmatrix.m8n8.x4.b16", *t, Operand::A, "row-major");
    EXPECT_EQ(r.perWarp, 4);
    EXPECT_EQ(r.copies.size(), 16u);
    EXPECT_EQ(r.mismatches, 0);
    // 16 instructions x 4 phases x 8 wavefronts (the 32 one 16x16 tile at pitch 128 B measures).
    EXPECT_EQ(r.wavefronts, 16 * 32);
    EXPECT_EQ(r.idealWavefronts, 16 * 4);
    EXPECT_EQ(r.worstDegree(), 8);
    // The 128B swizzle (Swizzle<3,4,3> on bytes) makes every instruction of the tile conflict-free.
    r = copy("ldmatrix.m8n8.x4.b16", *t, Operand::A, "row-major,mode=128B");
    EXPECT_EQ(r.wavefronts, r.idealWavefronts);
    EXPECT_EQ(r.mismatches, 0);
    r = copy("ldmatrix.m8n8.x4.b16", *t, Operand::A, "row-major,swizzle=3,3,3");
    EXPECT_EQ(r.wavefronts, r.idealWavefronts);
    // The search over the whole tile puts a conflict-free placement first.
    const auto found =
        tiled_copy::search(move("ldmatrix.m8n8.x4.b16"), *t, Operand::A, placement("row-major"));
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found.front().wavefronts, found.front().idealWavefronts);
    EXPECT_EQ(found.back().wavefronts, 16 * 32); // the unswizzled one last
}

TEST(TiledCopy, BNeedsTransFromAnNMajorTileAndTheFirstWrongCellIsNamed) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16");
    // B 16x32 (K x N); each warp holds 2 rests along N: 4 registers, one x4.trans.
    tiled_copy::Result r = copy("ldmatrix.m8n8.x4.trans.b16", *t, Operand::B, "row-major");
    EXPECT_EQ(r.perWarp, 1);
    EXPECT_EQ(r.mismatches, 0);
    r = copy("ldmatrix.m8n8.x2.trans.b16", *t, Operand::B, "row-major");
    EXPECT_EQ(r.perWarp, 2);
    EXPECT_EQ(r.mismatches, 0);
    // K-major B (col-major K x N): the plain ldmatrix.
    r = copy("ldmatrix.m8n8.x4.b16", *t, Operand::B, "col-major");
    EXPECT_EQ(r.mismatches, 0);
    // Without .trans from the N-major tile: thread 0's register 0 high half holds B[0][1], not B[1][0].
    r = copy("ldmatrix.m8n8.x4.b16", *t, Operand::B, "row-major");
    EXPECT_GT(r.mismatches, 0);
    const tiled_copy::Slot* s = r.firstMismatch();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->thread, 0);
    EXPECT_EQ(s->reg, 0);
    EXPECT_EQ(s->bitLo, 16);
    EXPECT_EQ(std::pair(s->loadedRow, s->loadedCol), std::pair(0, 1));
    EXPECT_EQ(std::pair(s->wantedRow, s->wantedCol), std::pair(1, 0));
    const std::string text = tiled_copy::toText(r);
    EXPECT_NE(text.find("the first: thread 0 (warp 0, lane 0) register 0 bits [31..16] after ldmatrix #0 "
                        "holds B[0][1]; the tiled MMA wants B[1][0] there"),
              std::string::npos)
        << text;
}

// stmatrix drains a tile's 16-bit D the same way backwards: every slot stored where its element belongs; the
// .trans form stores the transpose, the first wrong slot named.
TEST(TiledCopy, StmatrixDrainsEveryWarpsDOfA16BitAccumulatorTile) {
    const auto t = tiled("mma.m16n8k16.f16.f16", "(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16");
    tiled_copy::Result r = copy("stmatrix.m8n8.x4.b16", *t, Operand::D, "row-major");
    EXPECT_TRUE(r.store);
    EXPECT_EQ(r.rows, 32);
    EXPECT_EQ(r.cols, 32);
    EXPECT_EQ(r.perWarp, 1); // each warp's D: 2 registers per atom x 2 rests along N
    EXPECT_EQ(r.mismatches, 0);
    EXPECT_NE(tiled_copy::toText(r).find("drains: every register slot is stored where its element belongs"),
              std::string::npos);
    r = copy("stmatrix.m8n8.x2.b16", *t, Operand::C, "row-major");
    EXPECT_EQ(r.perWarp, 2);
    EXPECT_EQ(r.mismatches, 0);
    r = copy("stmatrix.m8n8.x4.trans.b16", *t, Operand::D, "row-major");
    EXPECT_GT(r.mismatches, 0);
    const tiled_copy::Slot* s = r.firstMismatch();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->thread, 0);
    EXPECT_EQ(s->bitLo, 16);
    EXPECT_EQ(std::pair(s->wantedRow, s->wantedCol), std::pair(0, 1)); // d1 of lane 0
    EXPECT_EQ(std::pair(s->loadedRow, s->loadedCol), std::pair(1, 0)); // .trans stores it transposed
    const std::string text = tiled_copy::toText(r);
    EXPECT_NE(text.find("holds D[0][1]; stmatrix #0 stores it at D[1][0]"), std::string::npos) << text;
    // f32 accumulators are 32-bit: no b16 stmatrix drains them.
    std::string error;
    EXPECT_FALSE(tiled_copy::analyze(move("stmatrix.m8n8.x4.b16"), *tiled("mma.m16n8k16.f16", "(2,2,1)"),
                                     Operand::D, placement("row-major"), error));
    EXPECT_NE(error.find("32-bit elements"), std::string::npos) << error;
}

TEST(TiledCopy, RefusesWhatNoLdmatrixCopyCanDo) {
    std::string error;
    const auto t = tiled("mma.m16n8k16.f16", "(2,1,1)", "_,_,(_8,_2):(_2,_1)");
    // K permuted within a matrix row: A's 16-byte rows are no longer 8 consecutive elements.
    EXPECT_FALSE(
        tiled_copy::analyze(move("ldmatrix.m8n8.x4.b16"), *t, Operand::A, placement("row-major"), error));
    EXPECT_NE(error.find("--permutation K (_8,_2):(_2,_1) splits a 16-byte matrix row"), std::string::npos)
        << error;
    const auto plain = tiled("mma.m16n8k16.f16", "(2,1,1)");
    EXPECT_FALSE(
        tiled_copy::analyze(move("stmatrix.m8n8.x4.b16"), *plain, Operand::A, placement("row-major"), error));
    EXPECT_NE(error.find("stmatrix drains C or D, not A"), std::string::npos) << error;
    EXPECT_FALSE(tiled_copy::analyze(move("movmatrix.m8n8.trans.b16"), *plain, Operand::A,
                                     placement("row-major"), error));
    EXPECT_NE(error.find("is no ldmatrix or stmatrix"), std::string::npos) << error;
    EXPECT_FALSE(
        tiled_copy::analyze(move("ldmatrix.m8n8.x4.b16"), *plain, Operand::C, placement("row-major"), error));
    EXPECT_NE(error.find("ldmatrix feeds A or B"), std::string::npos) << error;
    EXPECT_FALSE(tiled_copy::analyze(move("ldmatrix.m8n8.x4.b16"), *tiled("mma.m16n8k8.tf32", "(2,1,1)"),
                                     Operand::A, placement("row-major"), error));
    EXPECT_NE(error.find("32-bit elements"), std::string::npos) << error;
    // B of one warp holds 2 registers: an x4 loads 4.
    EXPECT_FALSE(tiled_copy::analyze(move("ldmatrix.m8n8.x4.trans.b16"), *plain, Operand::B,
                                     placement("row-major"), error));
    EXPECT_NE(error.find("each warp holds 2 registers of B"), std::string::npos) << error;
    EXPECT_FALSE(tiled_copy::analyze(move("ldmatrix.m8n8.x4.b16"), *plain, Operand::A,
                                     placement("row-major,tile=16x16"), error));
    EXPECT_NE(error.find("is not the tile's A, 32x16"), std::string::npos) << error;
}

} // namespace
} // namespace lanemap::test_tiled_copy
