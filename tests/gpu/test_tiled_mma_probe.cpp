// The tiled-mma probe method (docs/tiles.md#proof): the kernel's own rule, run on the CPU, agrees with
// lanemap's tiles and a wrong permutation is caught; on a GPU (sm_80 or later) the real kernels confirm every
// register of A, B, C/D of each tile, and the wrong permutation fails. Without a GPU the device tests skip
// and say why.
#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"

#include "methods/tiled_mma/tiled_mma.hpp"

#include <gtest/gtest.h>

#include <optional>
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
// land every element where the tile wants it — unswizzled, padded and under swizzles that move whole 16-byte
// chunks (a vector stays contiguous); a swizzle of 8-byte halves leaves B only v2. A told ld.shared.v2.b32,
// which lanemap refuses, is misaligned.
const Case kPermutedK{"(2,2,1)", "_32,_16,(_2,_4,_2):(_1,_4,_2)"};        // B by v2
const Case kPermutedK4{"(2,2,1)", "_32,_16,(_2,_4,_2,_2):(_1,_8,_2,_4)"}; // B by v4
const Case kKTiled{"(2,2,1)", "_64,_32,_64"};                             // lines of 128 B

struct SharedLoadCase {
    Case tile;
    gpu::tiledmma::SharedLoadCopy loads;
    int loadB = 4; // the width lanemap picks for B (A: b32 always)
    std::string name() const {
        std::string s = tile.atoms + " " + tile.permutation + " pad " + std::to_string(loads.padBytes);
        if (loads.swizzle)
            s += " Swizzle<" + std::to_string(loads.swizzle->b) + "," + std::to_string(loads.swizzle->m) +
                 "," + std::to_string(loads.swizzle->s) + ">";
        if (loads.mode != smem::Swizzle::None)
            s += " " + std::string(smem::toString(loads.mode));
        return s;
    }
};

gpu::tiledmma::SharedLoadCopy staged(int pad, std::optional<banks::CuteSwizzle> swizzle,
                                     smem::Swizzle mode = smem::Swizzle::None) {
    return {0, 0, pad, swizzle, mode};
}

std::vector<SharedLoadCase> sharedLoadSet() {
    std::vector<SharedLoadCase> set;
    for (const Case& c : kTiles)
        set.push_back({c, {}, 4});
    set.push_back({kPermutedK, {}, 8});
    set.push_back({kPermutedK4, {}, 16});
    set.push_back({kPermutedK4, staged(16, std::nullopt), 16}); // a 16-byte pad after every line
    // Swizzled staging: CuTe's Swizzle<3,3,3> and the 128B and 64B modes move 16-byte chunks, so v4 and v2
    // stay contiguous and aligned.
    set.push_back({kPermutedK4, staged(0, banks::CuteSwizzle{3, 3, 3}), 16});
    set.push_back({kPermutedK, staged(0, std::nullopt, smem::Swizzle::B128), 8});
    set.push_back({kKTiled, staged(0, banks::CuteSwizzle{3, 3, 3}), 4});
    set.push_back({kPermutedK4, staged(0, std::nullopt, smem::Swizzle::B64), 16});
    // Swizzle<1,2,3> swaps the 8-byte halves of a 16-byte chunk (bytes: bit 3 ^= bit 6): B's v4 comes apart,
    // lanemap picks v2.
    set.push_back({kPermutedK4, staged(0, banks::CuteSwizzle{1, 2, 3}), 8});
    return set;
}

TEST(TiledMmaProbe, TheLdSharedCopyOnTheCpuFeedsEveryTileAndRefusesAMisalignedWidth) {
    for (const SharedLoadCase& c : sharedLoadSet()) {
        SCOPED_TRACE(c.name());
        const auto tile = tileOf(c.tile.atoms, c.tile.permutation);
        ASSERT_EQ(gpu::tiledmma::unsupportedTile(*tile, gpu::tiledmma::Copy::SharedLoad, c.loads), "");
        const gpu::tiledmma::Plan plan =
            gpu::tiledmma::planProbe(*tile, nullptr, gpu::tiledmma::Copy::SharedLoad, c.loads);
        EXPECT_EQ(plan.kernel.copy, 2);
        EXPECT_EQ(plan.kernel.loadA, 4);
        EXPECT_EQ(plan.kernel.loadB, c.loadB);
        EXPECT_EQ(plan.kernel.regionA() % 1024, 0); // B's tile starts where a swizzle's pattern does
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
    const gpu::tiledmma::Plan plan = gpu::tiledmma::planProbe(*tile, nullptr, gpu::tiledmma::Copy::SharedLoad,
                                                              {8, 0, 0, std::nullopt, smem::Swizzle::None});
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

// Under a swizzle the kernel stages and loads by its own formula (bytes: offset ^ ((offset >> S) & mask)),
// CuTe's Swizzle<3,3,3> on 16-bit elements being <3,4,3> on bytes as the 128B mode is; a v4 told to load
// where the swizzle swaps 8-byte halves (Swizzle<1,2,3>, which lanemap refuses) reads the halves exchanged or
// misaligned; and a wrong permutation fails under the swizzle too.
TEST(TiledMmaProbe, TheLdSharedCopyUnderASwizzleIsTheKernelsOwnAndAWrongOneFails) {
    const auto tile = tileOf(kPermutedK4.atoms, kPermutedK4.permutation);
    const gpu::tiledmma::Plan cute = gpu::tiledmma::planProbe(*tile, nullptr, gpu::tiledmma::Copy::SharedLoad,
                                                              staged(0, banks::CuteSwizzle{3, 3, 3}));
    const gpu::tiledmma::Plan mode = gpu::tiledmma::planProbe(*tile, nullptr, gpu::tiledmma::Copy::SharedLoad,
                                                              staged(0, std::nullopt, smem::Swizzle::B128));
    EXPECT_EQ(cute.kernel.swizzleBits, 3);
    EXPECT_EQ(cute.kernel.swizzleBase, 4);
    EXPECT_EQ(cute.kernel.swizzleShift, 3);
    for (int kk = 0; kk < 32; ++kk)
        for (int n = 0; n < 16; ++n)
            EXPECT_EQ(cute.kernel.stagedB(kk, n), mode.kernel.stagedB(kk, n));
    // The kernel's byte of every element is the one lanemap's placement of the staging gives it.
    const banks::Placement placedA =
        gpu::tiledmma::stagingOf(*tile, Operand::A, staged(0, banks::CuteSwizzle{3, 3, 3}));
    const banks::Placement placedB =
        gpu::tiledmma::stagingOf(*tile, Operand::B, staged(0, banks::CuteSwizzle{3, 3, 3}));
    EXPECT_EQ(placedB.start, static_cast<std::uint32_t>(cute.kernel.regionA()));
    for (int kk = 0; kk < 32; ++kk) {
        for (int n = 0; n < 16; ++n)
            EXPECT_EQ(cute.kernel.stagedB(kk, n),
                      banks::swizzledAddress(placedB,
                                             placedB.start + static_cast<std::uint32_t>(64 * n + 2 * kk), 2));
        for (int m = 0; m < 32; ++m)
            EXPECT_EQ(cute.kernel.stagedA(m, kk),
                      banks::swizzledAddress(placedA, static_cast<std::uint32_t>(64 * m + 2 * kk), 2));
    }
    // B[k = 8][n = 1] (K-major, 64-byte lines): line 1 at regionA + 64, byte 16; bytes 4..6 ^= bits 7..9.
    const long linear = cute.kernel.regionA() + 64 + 16;
    EXPECT_EQ(cute.kernel.stagedB(8, 1), linear ^ ((linear >> 3) & 0x70));
    // The model refuses v4 under Swizzle<1,2,3>; the kernel told v4 there does not feed B.
    std::string why;
    EXPECT_EQ(gpu::tiledmma::widestLoad(*tile, Operand::B, staged(0, banks::CuteSwizzle{1, 2, 3}), why), 8);
    gpu::tiledmma::SharedLoadCopy forced = staged(0, banks::CuteSwizzle{1, 2, 3});
    forced.bytesB = 16;
    const gpu::tiledmma::Plan split =
        gpu::tiledmma::planProbe(*tile, nullptr, gpu::tiledmma::Copy::SharedLoad, forced);
    bool failed = false;
    try {
        failed =
            gpu::tiledmma::interpret(split, gpu::tiledmma::emulate(split)).result.verdict == Verdict::Fail;
    } catch (const std::logic_error& e) {
        failed = std::string(e.what()).find("misaligned") != std::string::npos;
    }
    EXPECT_TRUE(failed);
    // A wrong permutation under the swizzle: the twin fails, naming cells.
    const auto right = tileOf(kRight.atoms, kRight.permutation);
    gpu::tiledmma::TiledMmaProbe wrong(*right, layoutOf(kWrong.atoms, kWrong.permutation),
                                       gpu::tiledmma::Copy::SharedLoad,
                                       staged(0, banks::CuteSwizzle{3, 3, 3}));
    const gpu::Interpretation r =
        gpu::tiledmma::interpret(wrong.plan(), gpu::tiledmma::emulate(wrong.plan()));
    EXPECT_EQ(r.result.verdict, Verdict::Fail);
    EXPECT_GT(r.result.cellsMismatched, 0);
    EXPECT_NE(r.result.findings.front().find("Swizzle<3,3,3>"), std::string::npos)
        << r.result.findings.front();
    // A swizzle that moves elements across 1024-byte blocks is refused by name.
    EXPECT_NE(gpu::tiledmma::unsupportedTile(*tile, gpu::tiledmma::Copy::SharedLoad,
                                             staged(0, banks::CuteSwizzle{2, 9, 3}))
                  .find("within 1024 bytes"),
              std::string::npos);
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
    for (const SharedLoadCase& c : sharedLoadSet()) {
        SCOPED_TRACE(c.name());
        const auto tile = tileOf(c.tile.atoms, c.tile.permutation);
        gpu::tiledmma::TiledMmaProbe copy(*tile, gpu::tiledmma::Copy::SharedLoad, c.loads);
        EXPECT_EQ(copy.plan().kernel.loadB, c.loadB);
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
    // The same under Swizzle<3,3,3>: the swizzled staging does not hide a wrong permutation.
    gpu::tiledmma::TiledMmaProbe wrongSwizzled(*tile, layoutOf(kWrong.atoms, kWrong.permutation),
                                               gpu::tiledmma::Copy::SharedLoad,
                                               staged(0, banks::CuteSwizzle{3, 3, 3}));
    const gpu::Interpretation s = gpu::interpretPlanOn(gpu::localDevice(), *tile, *method, wrongSwizzled);
    EXPECT_EQ(s.result.verdict, Verdict::Fail) << s.result.reason;
    EXPECT_GT(s.result.cellsMismatched, 0) << s.result.reason;
}

} // namespace

} // namespace test_tiled_mma_probe
