// The tiled-mma probe method (docs/tiles.md#proof): the kernel's own rule, run on the CPU, agrees with
// lanemap's tiles and a wrong permutation is caught; on a GPU (sm_80 or later) the real kernels confirm every
// register of A, B, C/D of each tile, and the wrong permutation fails. Without a GPU the device tests skip
// and say why.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"

#include "methods/tiled_mma/tiled_mma.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace test_tiled_mma_probe {

using namespace lanemap;

namespace {

tile::TileLayout layoutOf(const std::string& atoms, const std::string& permutation) {
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout(atoms, permutation, error);
    if (!t)
        throw std::runtime_error(error);
    return *t;
}

std::shared_ptr<const Instruction> tileOf(const std::string& atoms, const std::string& permutation) {
    const ParsedSpec parsed = parseSpec("mma.m16n8k16.f16", Catalog::instance());
    Selection s = selectionOf(parsed);
    s.params.tile = layoutOf(atoms, permutation);
    return instantiate(s);
}

struct Case {
    std::string atoms, permutation;
};
// The set: 2x2 and 4x1 warps with and without a permutation, K tiling, K across warps, a strided atom
// layout.
const std::vector<Case> kTiles = {
    {"(2,2,1)", ""},
    {"(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16"},
    {"(4,1,1)", ""},
    {"(4,1,1)", "(_16,_4):(_4,_1),(_8,_2):(_2,_1),_"},
    {"(2,2,1)", "_64,_32,_64"},
    {"(1,2,2)", ""},
    {"(2,2,1):(2,1,0)", "_32,_16,_32"},
};
// The permutation, and the kernel told another one along N.
const Case kRight{"(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16"};
const Case kWrong{"(2,2,1)", "_32,(_8,_2,_2):(_1,_8,_16),_16"};

TEST(TiledMmaProbe, TheKernelsRuleOnTheCpuAgreesWithEveryTile) {
    for (const Case& c : kTiles) {
        SCOPED_TRACE(c.atoms + " " + c.permutation);
        const auto tile = tileOf(c.atoms, c.permutation);
        ASSERT_EQ(gpu::tiledmma::unsupportedTile(*tile), "");
        const gpu::tiledmma::Plan plan = gpu::tiledmma::planProbe(*tile);
        const gpu::Interpretation r = gpu::tiledmma::interpret(plan, gpu::tiledmma::emulate(plan));
        EXPECT_EQ(r.result.verdict, Verdict::Pass)
            << (r.result.mismatches.empty() ? "" : r.result.mismatches[0].experiment);
        // Every element slot of A, B, C and D was compared.
        int slots = 0;
        for (const FragmentLayout& op : tile->operands)
            slots += static_cast<int>(op.elements().size());
        EXPECT_EQ(r.result.cellsChecked, slots);
        EXPECT_GT(slots, 0);
    }
}

TEST(TiledMmaProbe, AWrongPermutationFailsNamingTheCells) {
    const auto tile = tileOf(kRight.atoms, kRight.permutation);
    const tile::TileLayout wrong = layoutOf(kWrong.atoms, kWrong.permutation);
    const gpu::tiledmma::Plan plan = gpu::tiledmma::planProbe(*tile, &wrong);
    const gpu::Interpretation r = gpu::tiledmma::interpret(plan, gpu::tiledmma::emulate(plan));
    EXPECT_EQ(r.result.verdict, Verdict::Fail);
    ASSERT_FALSE(r.result.mismatches.empty());
    // Column 8 of B is held by warp 0's second atom along N under the tile's permutation; the kernel told
    // (_1,_8,_16) loaded column 16 there.
    bool bColumn = false;
    for (const ProbeMismatch& m : r.result.mismatches)
        bColumn = bColumn ||
                  (m.operand == Operand::B && m.col == 8 && m.observed.find("][16]") != std::string::npos);
    EXPECT_TRUE(bColumn) << r.result.mismatches[0].expected << " / " << r.result.mismatches[0].observed;
    // The simulator (a device that agrees with lanemap) passes the same plan.
    EXPECT_EQ(gpu::tiledmma::interpret(plan, gpu::tiledmma::simulate(plan)).result.verdict, Verdict::Pass);
}

// The tiled copy (docs/tiles.md#tiled-copy): A and B staged in shared memory and loaded by ldmatrix.x4 and
// ldmatrix.x2.trans, the ISA's ldmatrix rule run on the CPU, land every element where the tile wants it — for
// every tile whose K and N permutations keep a 16-byte row's 8 elements together; the others are refused.
TEST(TiledMmaProbe, TheLdmatrixCopyOnTheCpuFeedsEveryTileItCanRead) {
    int copied = 0;
    for (const Case& c : kTiles) {
        SCOPED_TRACE(c.atoms + " " + c.permutation);
        const auto tile = tileOf(c.atoms, c.permutation);
        const std::string why = gpu::tiledmma::unsupportedTile(*tile, gpu::tiledmma::Copy::Ldmatrix);
        if (c.permutation == "(_16,_4):(_4,_1),(_8,_2):(_2,_1),_") {
            EXPECT_NE(why.find("--permutation N (_8,_2):(_2,_1) splits the run 0..7"), std::string::npos)
                << why;
            continue;
        }
        ASSERT_EQ(why, "");
        const gpu::tiledmma::Plan plan =
            gpu::tiledmma::planProbe(*tile, nullptr, gpu::tiledmma::Copy::Ldmatrix);
        EXPECT_EQ(plan.kernel.copy, 1);
        EXPECT_EQ(plan.kernel.sharedBytes(),
                  2L * (plan.kernel.m * plan.kernel.k + plan.kernel.k * plan.kernel.n));
        const gpu::Interpretation r = gpu::tiledmma::interpret(plan, gpu::tiledmma::emulate(plan));
        EXPECT_EQ(r.result.verdict, Verdict::Pass)
            << (r.result.mismatches.empty()
                    ? ""
                    : r.result.mismatches[0].experiment + ": " + r.result.mismatches[0].expected + " / " +
                          r.result.mismatches[0].observed);
        ++copied;
    }
    EXPECT_EQ(copied, 6);
    // The copy told the wrong N permutation: the ldmatrix rows of B land in the wrong registers.
    const auto tile = tileOf(kRight.atoms, kRight.permutation);
    const tile::TileLayout wrong = layoutOf(kWrong.atoms, kWrong.permutation);
    const gpu::tiledmma::Plan plan = gpu::tiledmma::planProbe(*tile, &wrong, gpu::tiledmma::Copy::Ldmatrix);
    const gpu::Interpretation r = gpu::tiledmma::interpret(plan, gpu::tiledmma::emulate(plan));
    EXPECT_EQ(r.result.verdict, Verdict::Fail);
    ASSERT_FALSE(r.result.mismatches.empty());
    EXPECT_NE(r.result.mismatches[0].experiment.find("ldmatrix"), std::string::npos)
        << r.result.mismatches[0].experiment;
}

// The plain tiled copy (docs/tiles.md#tiled-copy): A and B staged K-major, each thread loading its own
// fragment by the widest ld.shared lanemap says works (A: b32, its registers 0 and 1 are rows g and g + 8; B:
// b32, or v2 / v4 where a K permutation makes a thread's k contiguous), run on the CPU as the kernel does it,
// land every element where the tile wants it; A told ld.shared.v2.b32, which lanemap refuses, fails.
const Case kPermutedK{"(2,2,1)", "_32,_16,(_2,_4,_2):(_1,_4,_2)"};        // B by v2
const Case kPermutedK4{"(2,2,1)", "_32,_16,(_2,_4,_2,_2):(_1,_8,_2,_4)"}; // B by v4

std::vector<std::pair<Case, gpu::tiledmma::SharedLoadCopy>> sharedLoadSet() {
    std::vector<std::pair<Case, gpu::tiledmma::SharedLoadCopy>> set;
    for (const Case& c : kTiles)
        set.push_back({c, {}});
    set.push_back({kPermutedK, {}});
    set.push_back({kPermutedK4, {}});
    set.push_back({kPermutedK4, {0, 0, 16}}); // a 16-byte pad after every line
    return set;
}

TEST(TiledMmaProbe, TheLdSharedCopyOnTheCpuFeedsEveryTileAndRefusesAMisalignedWidth) {
    for (const auto& [c, loads] : sharedLoadSet()) {
        SCOPED_TRACE(c.atoms + " " + c.permutation + " pad " + std::to_string(loads.padBytes));
        const auto tile = tileOf(c.atoms, c.permutation);
        ASSERT_EQ(gpu::tiledmma::unsupportedTile(*tile, gpu::tiledmma::Copy::SharedLoad), "");
        const gpu::tiledmma::Plan plan =
            gpu::tiledmma::planProbe(*tile, nullptr, gpu::tiledmma::Copy::SharedLoad, loads);
        EXPECT_EQ(plan.kernel.copy, 2);
        EXPECT_EQ(plan.kernel.loadA, 4);
        EXPECT_EQ(plan.kernel.loadB, c.permutation == kPermutedK.permutation    ? 8
                                     : c.permutation == kPermutedK4.permutation ? 16
                                                                                : 4);
        const gpu::Interpretation r = gpu::tiledmma::interpret(plan, gpu::tiledmma::emulate(plan));
        EXPECT_EQ(r.result.verdict, Verdict::Pass)
            << (r.result.mismatches.empty()
                    ? ""
                    : r.result.mismatches[0].experiment + ": " + r.result.mismatches[0].expected + " / " +
                          r.result.mismatches[0].observed);
        EXPECT_NE(r.result.findings.front().find("ld.shared"), std::string::npos);
    }
    // A told ld.shared.v2.b32: a thread's registers 0 and 1 are rows g and g + 8, and on every tile of the
    // set some thread's pair starts 4 bytes into an 8-byte word. The GPU faults on such a load
    // (cudaErrorMisalignedAddress, which ends the process's CUDA context; found on an H200), so the twin
    // refuses it by name instead of reading it.
    const auto tile = tileOf(kPermutedK4.atoms, kPermutedK4.permutation);
    const gpu::tiledmma::Plan plan =
        gpu::tiledmma::planProbe(*tile, nullptr, gpu::tiledmma::Copy::SharedLoad, {8, 0, 0});
    EXPECT_THROW(
        {
            try {
                gpu::tiledmma::emulate(plan);
            } catch (const std::logic_error& e) {
                EXPECT_NE(std::string(e.what()).find("misaligned"), std::string::npos) << e.what();
                throw;
            }
        },
        std::logic_error);
    // A wrong permutation in the kernel's table, every load aligned: the twin names the first wrong cell.
    const auto right = tileOf(kRight.atoms, kRight.permutation);
    gpu::tiledmma::TiledMmaProbe wrong(*right, layoutOf(kWrong.atoms, kWrong.permutation),
                                       gpu::tiledmma::Copy::SharedLoad);
    const gpu::Interpretation r =
        gpu::tiledmma::interpret(wrong.plan(), gpu::tiledmma::emulate(wrong.plan()));
    EXPECT_EQ(r.result.verdict, Verdict::Fail);
    EXPECT_GT(r.result.cellsMismatched, 0);
}

TEST(TiledMmaProbe, OnlyMmaM16n8k16F16TilesAreRun) {
    const ParsedSpec parsed = parseSpec("wgmma.m64n16k16.f16", Catalog::instance());
    Selection s = selectionOf(parsed);
    s.params.tile = layoutOf("(2,1,1)", "");
    const std::string why = gpu::tiledmma::unsupportedTile(*instantiate(s));
    EXPECT_NE(why.find("runs tiles of mma.m16n8k16.f16"), std::string::npos) << why;
}

TEST(TiledMmaProbeDevice, EveryTileIsConfirmedAndAWrongPermutationFails) {
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU: " << a.reason;
    if (a.device.sm < 80)
        GTEST_SKIP() << "the tiled-mma kernel needs sm_80; this device is sm_" << a.device.sm;
    for (const Case& c : kTiles) {
        SCOPED_TRACE(c.atoms + " " + c.permutation);
        const auto tile = tileOf(c.atoms, c.permutation);
        const ProbeReport report = gpu::probeTile(*tile);
        EXPECT_FALSE(report.date.empty()) << "a recorded report says when it ran";
        EXPECT_EQ(report.lanemapVersion, LANEMAP_VERSION);
        EXPECT_EQ(report.device.name, a.device.name);
        ASSERT_EQ(report.results.size(), 1u);
        const ProbeResult& r = report.results.front();
        EXPECT_EQ(r.verdict, Verdict::Pass) << r.reason;
        EXPECT_GT(r.cellsChecked, 0);
        EXPECT_EQ(r.cellsMismatched, 0);
    }
    const auto tile = tileOf(kRight.atoms, kRight.permutation);
    gpu::tiledmma::TiledMmaProbe wrong(*tile, layoutOf(kWrong.atoms, kWrong.permutation));
    const gpu::ProbeMethod* method = gpu::probeMethodNamed("tiled-mma");
    ASSERT_NE(method, nullptr);
    const gpu::Interpretation r = gpu::interpretPlanOn(gpu::localDevice(), *tile, *method, wrong);
    EXPECT_EQ(r.result.verdict, Verdict::Fail) << r.result.reason;
    EXPECT_GT(r.result.cellsMismatched, 0) << r.result.reason;
}

// On the GPU: the tiled copy (ldmatrix.x4 for A, ldmatrix.x2.trans for B from shared memory) feeds every tile
// of the set it can read — every register of A and B as loaded, and the mma's C/D — and the copy told the
// wrong permutation fails.
TEST(TiledMmaProbeDevice, TheLdmatrixCopyFeedsEveryTileAndAWrongPermutationFails) {
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU: " << a.reason;
    if (a.device.sm < 80)
        GTEST_SKIP() << "the tiled-mma kernel needs sm_80; this device is sm_" << a.device.sm;
    const gpu::ProbeMethod* method = gpu::probeMethodNamed("tiled-mma");
    ASSERT_NE(method, nullptr);
    int ran = 0;
    for (const Case& c : kTiles) {
        SCOPED_TRACE(c.atoms + " " + c.permutation);
        const auto tile = tileOf(c.atoms, c.permutation);
        if (!gpu::tiledmma::unsupportedTile(*tile, gpu::tiledmma::Copy::Ldmatrix).empty())
            continue;
        gpu::tiledmma::TiledMmaProbe copy(*tile, gpu::tiledmma::Copy::Ldmatrix);
        const gpu::Interpretation r = gpu::interpretPlanOn(gpu::localDevice(), *tile, *method, copy);
        EXPECT_EQ(r.result.verdict, Verdict::Pass)
            << r.result.reason
            << (r.result.mismatches.empty()
                    ? ""
                    : " " + r.result.mismatches[0].experiment + ": " + r.result.mismatches[0].expected +
                          " / " + r.result.mismatches[0].observed);
        EXPECT_GT(r.result.cellsChecked, 0);
        EXPECT_EQ(r.result.cellsMismatched, 0);
        ++ran;
    }
    EXPECT_EQ(ran, 6);
    const auto tile = tileOf(kRight.atoms, kRight.permutation);
    gpu::tiledmma::TiledMmaProbe wrong(*tile, layoutOf(kWrong.atoms, kWrong.permutation),
                                       gpu::tiledmma::Copy::Ldmatrix);
    const gpu::Interpretation r = gpu::interpretPlanOn(gpu::localDevice(), *tile, *method, wrong);
    EXPECT_EQ(r.result.verdict, Verdict::Fail) << r.result.reason;
    EXPECT_GT(r.result.cellsMismatched, 0) << r.result.reason;
}

// On the GPU: the plain tiled copy (ld.shared.b32 / .v2 / .v4 from K-major shared memory) feeds every tile of
// the set, and a wrong permutation fails.
TEST(TiledMmaProbeDevice, TheLdSharedCopyFeedsEveryTileAndAWrongPermutationFails) {
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU: " << a.reason;
    if (a.device.sm < 80)
        GTEST_SKIP() << "the tiled-mma kernel needs sm_80; this device is sm_" << a.device.sm;
    const gpu::ProbeMethod* method = gpu::probeMethodNamed("tiled-mma");
    ASSERT_NE(method, nullptr);
    for (const auto& [c, loads] : sharedLoadSet()) {
        SCOPED_TRACE(c.atoms + " " + c.permutation + " pad " + std::to_string(loads.padBytes));
        const auto tile = tileOf(c.atoms, c.permutation);
        gpu::tiledmma::TiledMmaProbe copy(*tile, gpu::tiledmma::Copy::SharedLoad, loads);
        const gpu::Interpretation r = gpu::interpretPlanOn(gpu::localDevice(), *tile, *method, copy);
        EXPECT_EQ(r.result.verdict, Verdict::Pass)
            << r.result.reason
            << (r.result.mismatches.empty()
                    ? ""
                    : " " + r.result.mismatches[0].experiment + ": " + r.result.mismatches[0].expected +
                          " / " + r.result.mismatches[0].observed);
        EXPECT_GT(r.result.cellsChecked, 0);
        EXPECT_EQ(r.result.cellsMismatched, 0);
    }
    // The negative control: a wrong permutation in the kernel's table, every load aligned (a wrong width
    // is misaligned on every tile of the set, which the GPU answers with a fault, not a mismatch).
    const auto tile = tileOf(kRight.atoms, kRight.permutation);
    gpu::tiledmma::TiledMmaProbe wrong(*tile, layoutOf(kWrong.atoms, kWrong.permutation),
                                       gpu::tiledmma::Copy::SharedLoad);
    const gpu::Interpretation r = gpu::interpretPlanOn(gpu::localDevice(), *tile, *method, wrong);
    EXPECT_EQ(r.result.verdict, Verdict::Fail) << r.result.reason;
    EXPECT_GT(r.result.cellsMismatched, 0) << r.result.reason;
}

} // namespace

} // namespace test_tiled_mma_probe
