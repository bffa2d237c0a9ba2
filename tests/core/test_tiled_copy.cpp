// A tiled copy (lanemap/tiled_copy.hpp, docs/tiles.md#tiled-copy): ldmatrix loading a tiled MMA's A and B
// from one shared-memory tile — which register each instruction fills, whether it is the one the tile wants,
// and the bank conflicts of every instruction, against the per-instruction numbers Nsight Compute confirmed
// (docs/ldmatrix-banks.md).
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tiled_copy.hpp"

#include "selection_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
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

// --- plain vectorized loads (ld.shared.b32/.v2/.v4, CuTe's UniversalCopy) ---------------------------------

tiled_copy::Result load(int bytes, const Instruction& tile, Operand operand, std::string_view smem) {
    std::string error;
    const std::optional<tiled_copy::Result> r =
        tiled_copy::analyze(tiled_copy::SharedLoad{bytes}, tile, operand, placement(smem), error);
    if (!r)
        throw std::runtime_error(error);
    return *r;
}

std::string refusal(int bytes, const Instruction& tile, Operand operand, std::string_view smem) {
    std::string error;
    EXPECT_FALSE(tiled_copy::analyze(tiled_copy::SharedLoad{bytes}, tile, operand, placement(smem), error));
    return error;
}

TEST(TiledCopyLdShared, SpellingsParseOnceAndOthersAreNamed) {
    std::string error;
    EXPECT_EQ(tiled_copy::parseSharedLoad("ld.shared.b32", error)->bytes, 4);
    EXPECT_EQ(tiled_copy::parseSharedLoad("ld.shared.v2.b32", error)->bytes, 8);
    EXPECT_EQ(tiled_copy::parseSharedLoad("ld.shared.v4.b32", error)->bytes, 16);
    EXPECT_EQ(tiled_copy::toString(tiled_copy::SharedLoad{8}), "ld.shared.v2.b32");
    EXPECT_FALSE(tiled_copy::parseSharedLoad("ld.shared.v8.b32", error));
    EXPECT_NE(error.find("'ld.shared.v8.b32'"), std::string::npos) << error;
    EXPECT_NE(error.find("valid: ld.shared.b32, ld.shared.v2.b32, ld.shared.v4.b32"), std::string::npos);
    // The list the app's and the web app's pickers offer: each entry reads back as itself, narrowest first.
    int bytes = 0;
    for (const tiled_copy::SharedLoad load : tiled_copy::kSharedLoads) {
        EXPECT_EQ(tiled_copy::parseSharedLoad(tiled_copy::toString(load), error), load);
        EXPECT_GT(load.bytes, bytes);
        bytes = load.bytes;
    }
    EXPECT_EQ(bytes, 16);
}

// Worked by hand: the (2,2,1) tile's A is 32 x 16, row-major, pitch 32 B. Lane l (g = l / 4, t = l % 4)
// holds a0a1 = A[g][2t..2t+1], a2a3 = A[g+8][2t..], a4a5 = A[g][2t+8..], a6a7 = A[g+8][2t+8..]: each register
// is 4 contiguous bytes, but registers 0 and 1 are rows g and g+8, 256 bytes apart — so b32 only.
TEST(TiledCopyLdShared, RowMajorATakesB32OnlyAndIsTwoWayAtA32BytePitch) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)");
    const std::string v2 = refusal(8, *t, Operand::A, "row-major");
    EXPECT_NE(v2.find("thread 0 (warp 0, lane 0) registers 0..1 hold A[0][1] and then A[8][0], at 0x0002 and "
                      "0x0100: not contiguous"),
              std::string::npos)
        << v2;
    EXPECT_NE(v2.find("the widest load that works here is ld.shared.b32"), std::string::npos) << v2;
    EXPECT_NE(
        refusal(16, *t, Operand::A, "row-major").find("the widest load that works here is ld.shared.b32"),
        std::string::npos);

    const tiled_copy::Result r = load(4, *t, Operand::A, "row-major");
    EXPECT_TRUE(r.sharedLoad);
    EXPECT_EQ(r.perWarp, 4); // four registers, one b32 each
    EXPECT_EQ(r.copies.size(), 16u);
    EXPECT_EQ(r.mismatches, 0); // each thread loads its own elements
    EXPECT_EQ(r.slots.size(), 128u * 8u);
    // One phase of 32 threads; lane l reads word 8g + t: lanes 16.. (g = 4) hit banks 0..3 again, 128 bytes
    // on — another word of the same banks, so every instruction is 2-way: 32 wavefronts, ideal 16.
    const banks::Phase& ph = r.copies[0].phases.at(0);
    EXPECT_EQ(r.copies[0].phases.size(), 1u);
    EXPECT_EQ(ph.degree, 2);
    EXPECT_EQ(ph.rows[4].address, 32u); // lane 4: A[1][0]
    EXPECT_EQ(ph.rows[4].bankGroup, 8);
    EXPECT_EQ(ph.rows[16].address, 128u); // lane 16: A[4][0], bank 0 again
    EXPECT_EQ(ph.rows[16].bankGroup, 0);
    EXPECT_EQ(ph.rows[16].wavefront, 1);
    EXPECT_EQ(r.wavefronts, 32);
    EXPECT_EQ(r.idealWavefronts, 16);
    EXPECT_EQ(r.worstDegree(), 2);
    // Warp 1 is the second atom along M: its lane 0 loads A[16][0], register 2 is A[16][8].
    EXPECT_EQ(r.copies[4 + 2].phases[0].rows[0].address, 16u * 32u + 16u);
    // A 16-byte pad turns row g's words to 12g + t: eight rows cover the 32 banks once.
    const tiled_copy::Result padded = load(4, *t, Operand::A, "row-major,pad=16");
    EXPECT_EQ(padded.wavefronts, 16);
    const std::vector<banks::SearchResult> found =
        tiled_copy::search(tiled_copy::SharedLoad{4}, *t, Operand::A, r.placement);
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found.front().wavefronts, found.front().idealWavefronts);
    const auto given = std::find_if(found.begin(), found.end(),
                                    [&](const banks::SearchResult& s) { return s.placement == r.placement; });
    ASSERT_NE(given, found.end()); // the placement as given is one of the candidates
    EXPECT_EQ(given->wavefronts, 32);
}

// B (K x N) from a K-major tile (col-major: a line is one column n). With the K permutation
// (_2,_4,_2):(_1,_4,_2) lane l's b0..b3 (atom k 2t, 2t+1, 2t+8, 2t+9) land on tile k 4t..4t+3: one 8-byte
// vector at 32n + 8t. Half-warp phases: lanes 0..15 cover bytes 0..127 once, lanes 16..31 the next 128.
TEST(TiledCopyLdShared, APermutedKMajorBTakesV2ConflictFreeWhereB32Conflicts) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,_16,(_2,_4,_2):(_1,_4,_2)");
    const tiled_copy::Result v2 = load(8, *t, Operand::B, "col-major");
    EXPECT_EQ(v2.perWarp, 1);
    EXPECT_EQ(v2.mismatches, 0);
    ASSERT_EQ(v2.copies[0].phases.size(), 2u);
    EXPECT_EQ(v2.copies[0].phases[0].rows.size(), 16u);
    EXPECT_EQ(v2.copies[0].phases[0].rows[5].address, 32u * 1 + 8u * 1); // lane 5: n 1, k 4
    EXPECT_EQ(v2.copies[0].phases[0].rows[5].bankGroup, 5);
    EXPECT_EQ(v2.wavefronts, 8);
    EXPECT_EQ(v2.idealWavefronts, 8);
    // b32: words 8n + 2t (+1); n and n + 4 meet in one phase of 32 — 2-way.
    const tiled_copy::Result b32 = load(4, *t, Operand::B, "col-major");
    EXPECT_EQ(b32.perWarp, 2);
    EXPECT_EQ(b32.wavefronts, 16);
    EXPECT_EQ(b32.idealWavefronts, 8);
    const std::string v4 = refusal(16, *t, Operand::B, "col-major");
    EXPECT_NE(v4.find("each thread holds 2 registers of B; ld.shared.v4.b32 loads 4 at a time (give "
                      "ld.shared.v2.b32)"),
              std::string::npos)
        << v4;
    // Without the permutation b1 (k 2t+8) does not follow b0 (k 2t+1): b32 at most.
    const auto plain = tiled("mma.m16n8k16.f16", "(2,2,1)");
    EXPECT_NE(
        refusal(8, *plain, Operand::B, "col-major").find("widest load that works here is ld.shared.b32"),
        std::string::npos);
    // An N-major B splits even one register's two halves (k and k + 1 are a line apart).
    const std::string nMajor = refusal(4, *plain, Operand::B, "row-major");
    EXPECT_NE(nMajor.find("register 0 holds B[0][0] and then B[1][0], at 0x0000 and 0x0020: not contiguous"),
              std::string::npos)
        << nMajor;
    EXPECT_NE(nMajor.find("no ld.shared of 32 bits or more works here"), std::string::npos) << nMajor;
}

// 16 bytes: a K-tiled B whose K permutation (_2,_4,_2,_2):(_1,_8,_2,_4) puts a thread's four registers (atom
// k 2t.., 2t+8.., rest k + 16, + 24) on tile k 8t..8t+7. Quarter-warp phases: lanes 8p..8p+7 read columns
// n = 2p, 2p + 1 at 64n + 16t: eight distinct 16-byte groups, one wavefront each.
TEST(TiledCopyLdShared, V4OfAKTiledBIsFourQuarterWarpWavefronts) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,_16,(_2,_4,_2,_2):(_1,_8,_2,_4)");
    const tiled_copy::Result r = load(16, *t, Operand::B, "col-major");
    EXPECT_EQ(r.perWarp, 1);
    EXPECT_EQ(r.mismatches, 0);
    ASSERT_EQ(r.copies[0].phases.size(), 4u);
    EXPECT_EQ(r.copies[0].phases[1].rows.front().thread, 8);
    EXPECT_EQ(r.copies[0].phases[1].rows.front().address, 128u);
    EXPECT_EQ(r.wavefronts, 16);
    EXPECT_EQ(r.idealWavefronts, 16);
    // pitch 80 B: column n at 80n — lanes 0..7 (n 0, 1) reach 16-byte groups 0..3 and 5..7, 0: 2-way.
    const tiled_copy::Result pitched = load(16, *t, Operand::B, "col-major,pitch=80");
    EXPECT_EQ(pitched.copies[0].phases[0].degree, 2);
}

TEST(TiledCopyLdShared, ASwizzleThatSplitsARegisterAndAMisalignedStartAreNamed) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)");
    // Swizzle<1,0,3> swaps element offsets 8 and 9: A[0][8..9], register 2 of thread 0, come apart.
    const std::string swz = refusal(4, *t, Operand::A, "row-major,swizzle=1,0,3");
    EXPECT_NE(swz.find("thread 0 (warp 0, lane 0) register 2 holds A[0][8] and then A[0][9], at 0x0012 and "
                       "0x0010: contiguous before the swizzle, which moves them apart"),
              std::string::npos)
        << swz;
    const std::string odd = refusal(4, *t, Operand::A, "row-major,start=2");
    EXPECT_NE(odd.find("register 0 would start at 0x0002 (A[0][0]), not a multiple of 4 bytes: misaligned"),
              std::string::npos)
        << odd;
    EXPECT_NE(refusal(4, *tiled("wgmma.m64n16k16.f16", "(2,1,1)"), Operand::A, "row-major").find("wgmma"),
              std::string::npos);
}

TEST(TiledCopyLdShared, JsonNamesTheWidthTheRegisterAndTheFirstBank) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,_16,(_2,_4,_2):(_1,_4,_2)");
    const nlohmann::json j = nlohmann::json::parse(tiled_copy::toJson(load(8, *t, Operand::B, "col-major")));
    EXPECT_EQ(j["move"], "ld.shared.v2.b32");
    EXPECT_EQ(j["access_bytes"], 8);
    EXPECT_EQ(j["feeds"], true);
    const nlohmann::json& row = j["instructions"][0]["phases"][0]["rows"][5];
    EXPECT_EQ(row["register"], 0);
    EXPECT_FALSE(row.contains("matrix"));
    EXPECT_EQ(row["bank_group"], 5);
    EXPECT_EQ(row["first_bank"], 10);
}

// --- the picture of the whole copy (buildTiledCopyDiagram) -------------------------------------------------

std::vector<const DiagramCell*> cellsOf(const Diagram& d, PanelKind kind) {
    std::vector<const DiagramCell*> out;
    for (const DiagramCell& c : d.cells)
        if (d.panels[c.panel].kind == kind)
            out.push_back(&c);
    return out;
}

TEST(TiledCopyDiagram, EveryRowOfEveryLdmatrixIsOneCellColouredByItsWarp) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)");
    const tiled_copy::Result r = copy("ldmatrix.m8n8.x4.b16", *t, Operand::A, "row-major");
    const Diagram d = buildTiledCopyDiagram(r);
    ASSERT_EQ(d.panels.size(), 2u);
    // 4 warps x 1 x4 x 32 rows; A is loaded twice (warps 0 and 2, 1 and 3): two cells per 16-byte row.
    const std::vector<const DiagramCell*> tile = cellsOf(d, PanelKind::CopyTile);
    EXPECT_EQ(tile.size(), 128u);
    const DiagramCell* lane0 = nullptr;
    for (const DiagramCell* c : tile)
        if (c->thread == 32)
            lane0 = c;
    ASSERT_NE(lane0, nullptr);
    // Warp 1 lane 0 points at A[16][0] (matrix 0 row 0): banks 0..3, 2-way in its phase.
    EXPECT_EQ(d.label(*lane0), "w1#0 b0-3");
    EXPECT_EQ(d.tooltip(*lane0),
              "T32 warp 1 lane 0 \u00b7 ldmatrix #0 matrix 0 row 0 \u00b7 A m16 k0..7 \u00b7 0x200 "
              "\u00b7 banks 0..3 \u00b7 phase 0 \u00b7 wavefront 1 of 2");
    EXPECT_EQ(lane0->owners, 2);
    EXPECT_EQ(lane0->fill, paletteColor(Palette::Default, ColorBy::Warp, 1));
    // The worst phase (the first 2-way one: warp 0 #0 phase 0) is framed: its 8 rows, nothing else.
    int framed = 0;
    for (const DiagramCell* c : tile)
        if (c->conflict) {
            ++framed;
            EXPECT_EQ(c->warp, 0);
            EXPECT_EQ(c->groupID, 0);
        }
    EXPECT_EQ(framed, 8);
    // One phase cell per phase of each instruction, its wavefronts as label.
    const std::vector<const DiagramCell*> phases = cellsOf(d, PanelKind::CopyPhases);
    ASSERT_EQ(phases.size(), 16u);
    EXPECT_EQ(d.label(*phases[5]), "2");
    EXPECT_TRUE(phases[5]->conflict);
    EXPECT_EQ(d.tooltip(*phases[5]),
              "warp 1 #0 phase 1 \u00b7 threads 40..47 \u00b7 2 wavefronts (ideal 1) \u00b7 "
              "bank conflict");
    const std::string svg = toSvg(d);
    EXPECT_NE(svg.find("w1#0 b0-3"), std::string::npos);
    EXPECT_NE(svg.find("the worst phase 2-way (framed: warp 0 #0 phase 0)"), std::string::npos);
    // A conflict-free placement frames nothing and says so.
    const Diagram free =
        buildTiledCopyDiagram(copy("ldmatrix.m8n8.x4.b16", *t, Operand::A, "row-major,pad=16"));
    for (const DiagramCell& c : free.cells)
        EXPECT_FALSE(c.conflict);
    EXPECT_NE(free.caption.back().find("every phase conflict-free"), std::string::npos)
        << free.caption.back();
}

TEST(TiledCopyDiagram, AnLdSharedVectorCoversItsElementsAndNamesItsRegisters) {
    const auto t = tiled("mma.m16n8k16.f16", "(2,2,1)", "_32,_16,(_2,_4,_2):(_1,_4,_2)");
    const Diagram d = buildTiledCopyDiagram(load(8, *t, Operand::B, "col-major"));
    const std::vector<const DiagramCell*> tile = cellsOf(d, PanelKind::CopyTile);
    ASSERT_EQ(tile.size(), 128u); // one v2 per thread
    const DiagramCell* lane5 = nullptr;
    for (const DiagramCell* c : tile)
        if (c->thread == 5)
            lane5 = c;
    ASSERT_NE(lane5, nullptr);
    // Col-major B: a grid row is a column n (line 1), k 4..7 along it.
    EXPECT_EQ(lane5->row, 1);
    EXPECT_EQ(lane5->col, 4);
    EXPECT_EQ(lane5->colLast, 7);
    EXPECT_EQ(d.label(*lane5), "w0#0 b10-11");
    EXPECT_EQ(d.tooltip(*lane5),
              "T5 warp 0 lane 5 \u00b7 ld.shared #0 r0..r1 \u00b7 B n1 k4..7 \u00b7 0x28 \u00b7 "
              "banks 10..11 \u00b7 phase 0 \u00b7 wavefront 1 of 1");
}

} // namespace
} // namespace lanemap::test_tiled_copy
