// The tiled-wgmma probe method (docs/tiles.md#proof): a tile of wgmma.m64nNk16.f16 atoms over 2 or more
// warpgroups, in the RS and the SS form. The kernel's own rule, run on the CPU with the class-coded method's
// own reading of the descriptors, agrees with lanemap's tiles; a wrong permutation, a wrong atom layout and a
// wrong descriptor are caught, naming the cells; on an H100/H200 the real kernel confirms every element of A,
// B and D of each tile and the wrong permutation fails. Without such a GPU the device test skips and says
// why.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"

#include "methods/tiled_wgmma/tiled_wgmma.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace test_tiled_wgmma_probe {

using namespace lanemap;
namespace tw = gpu::tiledwgmma;

namespace {

tile::TileLayout layoutOf(const std::string& atoms, const std::string& permutation) {
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout(atoms, permutation, error);
    if (!t)
        throw std::runtime_error(error);
    return *t;
}

std::shared_ptr<const Instruction> tileOf(const std::string& spec, const std::string& atoms,
                                          const std::string& permutation) {
    const ParsedSpec parsed = parseSpec(spec, Catalog::instance());
    Selection s = selectionOf(parsed);
    s.params.tile = layoutOf(atoms, permutation);
    return instantiate(s);
}

struct Case {
    std::string spec, atoms, permutation;
};
// Two warpgroups along M and along N, with and without permutations, K tiling, K across warpgroups, four
// warpgroups with a strided atom layout, and a wider atom.
const std::vector<Case> kTiles = {
    {"wgmma.m64n16k16.f16", "(2,1,1)", ""},
    {"wgmma.m64n16k16.f16", "(1,2,1)", ""},
    {"wgmma.m64n16k16.f16", "(2,1,1)", "(_64,_2):(_2,_1),_16,_"},
    {"wgmma.m64n16k16.f16", "(1,2,1)", "_,(_8,_2,_2):(_1,_16,_8),_"},
    {"wgmma.m64n16k16.f16", "(2,1,1)", "_128,_32,(_8,_2,_2):(_1,_16,_8)"},
    {"wgmma.m64n16k16.f16", "(1,1,2)", ""},
    {"wgmma.m64n8k16.f16", "(2,2,1):(2,1,0)", "_128,_32,_32"},
    {"wgmma.m64n64k16.f16", "(2,1,1)", "_,_,_32"},
};
// The N permutation of the (1,2,1) tile, and the kernel told another one.
const Case kRight{"wgmma.m64n16k16.f16", "(1,2,1)", "_,(_8,_2,_2):(_1,_16,_8),_"};
const Case kWrong{"wgmma.m64n16k16.f16", "(1,2,1)", "_,(_8,_2,_2):(_1,_8,_16),_"};

std::string firstOf(const gpu::Interpretation& r) {
    return r.result.mismatches.empty()
               ? r.result.reason
               : r.result.mismatches[0].experiment + ": expected " + r.result.mismatches[0].expected +
                     ", observed " + r.result.mismatches[0].observed;
}

TEST(TiledWgmmaProbe, TheKernelsRuleOnTheCpuAgreesWithEveryTileInBothForms) {
    for (const Case& c : kTiles) {
        SCOPED_TRACE(c.spec + " " + c.atoms + " " + c.permutation);
        const auto tile = tileOf(c.spec, c.atoms, c.permutation);
        ASSERT_EQ(tw::unsupportedTile(*tile), "");
        const tw::Plan plan = tw::planProbe(*tile);
        EXPECT_GE(plan.kernel.threads, 256);
        const gpu::Interpretation r = tw::interpret(plan, tw::emulate(plan));
        EXPECT_EQ(r.result.verdict, Verdict::Pass) << firstOf(r);
        // Every A register (RS), every element each warpgroup's descriptors read — B in both forms, A in the
        // SS form — and every D register in both forms.
        const int a = static_cast<int>(tile->operand(Operand::A)->elements().size());
        const int d = static_cast<int>(tile->operand(Operand::D)->elements().size());
        const tile::TileFacts& f = *tile->tile;
        const int groups = f.threads / 128;
        const int bReads = groups * (f.extent[1] / f.atomsPerMode[1]) * (f.extent[2] / f.atomsPerMode[2]);
        const int aReads = groups * (f.extent[0] / f.atomsPerMode[0]) * (f.extent[2] / f.atomsPerMode[2]);
        EXPECT_EQ(r.result.cellsChecked, a + aReads + 2 * bReads + 2 * d);
        EXPECT_EQ(tw::interpret(plan, tw::simulate(plan)).result.verdict, Verdict::Pass);
    }
}

TEST(TiledWgmmaProbe, AWrongPermutationFailsNamingTheColumnsOfB) {
    const auto tile = tileOf(kRight.spec, kRight.atoms, kRight.permutation);
    const tile::TileLayout wrong = layoutOf(kWrong.atoms, kWrong.permutation);
    const tw::Plan plan = tw::planProbe(*tile, &wrong);
    const gpu::Interpretation r = tw::interpret(plan, tw::emulate(plan));
    EXPECT_EQ(r.result.verdict, Verdict::Fail);
    ASSERT_FALSE(r.result.mismatches.empty());
    // Under (_1,_16,_8) warpgroup 0's atom column 8 is tile column 16; the kernel told (_1,_8,_16), the
    // identity, staged global column 8 there.
    bool bColumn = false;
    for (const ProbeMismatch& m : r.result.mismatches)
        bColumn = bColumn ||
                  (m.operand == Operand::B && m.col == 16 && m.observed.find("][8]") != std::string::npos &&
                   m.experiment.find("warpgroup 0's descriptor reads it") != std::string::npos);
    EXPECT_TRUE(bColumn) << firstOf(r);
    // B's tags in both forms and every D of the second N block are wrong.
    EXPECT_GT(r.result.cellsMismatched, 2 * 16 * 16);
}

TEST(TiledWgmmaProbe, AWrongAtomLayoutFails) {
    // Four warpgroups numbered row-major where the tile numbers them column-major: warpgroups 1 and 2 swap
    // places, so their D rows and columns are not what lanemap's tile says they hold.
    const auto tile = tileOf("wgmma.m64n8k16.f16", "(2,2,1)", "");
    const tile::TileLayout wrong = layoutOf("(2,2,1):(2,1,0)", "");
    const tw::Plan plan = tw::planProbe(*tile, &wrong);
    const gpu::Interpretation r = tw::interpret(plan, tw::emulate(plan));
    EXPECT_EQ(r.result.verdict, Verdict::Fail);
    bool warpgroupOne = false;
    for (const ProbeMismatch& m : r.result.mismatches)
        warpgroupOne = warpgroupOne || (m.thread >= 128 && m.thread < 256);
    EXPECT_TRUE(warpgroupOne) << firstOf(r);
}

TEST(TiledWgmmaProbe, ADescriptorThatSwapsItsOffsetsFailsInTheProduct) {
    // The tags of shared memory are as lanemap says; the hardware reads through descriptors whose leading and
    // stride byte offsets are exchanged: every wgmma reads the wrong elements and D says so.
    const auto tile = tileOf("wgmma.m64n16k16.f16", "(2,1,1)", "_,_,_32");
    tw::Plan plan = tw::planProbe(*tile);
    for (std::uint64_t& d : plan.descriptors) {
        smem::MatrixDescriptor x = smem::decodeDescriptor(d);
        std::swap(x.leadingByteOffset, x.strideByteOffset);
        d = smem::encodeDescriptor(x);
    }
    const gpu::Interpretation r = tw::interpret(plan, tw::emulate(plan));
    EXPECT_EQ(r.result.verdict, Verdict::Fail);
    ASSERT_FALSE(r.result.mismatches.empty());
    bool d = false;
    for (const ProbeMismatch& m : r.result.mismatches)
        d = d || (m.operand == Operand::D &&
                  m.experiment.find("D registers after the tile's wgmma") != std::string::npos);
    EXPECT_TRUE(d) << firstOf(r);
}

TEST(TiledWgmmaProbe, TilesTheKernelCannotRunAreRefusedByName) {
    // A bf16 atom, an f16-accumulator atom, an N the kernel is not built for, too many accumulators.
    for (const auto& [spec, atoms, permutation, words] :
         std::vector<std::tuple<std::string, std::string, std::string, std::string>>{
             {"wgmma.m64n16k16.bf16", "(2,1,1)", "", "tiles of wgmma.m64nNk16.f16 with f32 accumulators"},
             {"wgmma.m64n16k16.f16.f16", "(2,1,1)", "", "tiles of wgmma.m64nNk16.f16 with f32 accumulators"},
             {"wgmma.m64n24k16.f16", "(2,1,1)", "", "N one of 8, 16, 32, 64, 128, 256"},
             {"wgmma.m64n256k16.f16", "(1,1,1)", "_128,_,_", "at most 128 accumulators per thread"},
         }) {
        SCOPED_TRACE(spec);
        const auto tile = tileOf(spec, atoms, permutation);
        const std::string why = tw::unsupportedTile(*tile);
        EXPECT_NE(why.find(words), std::string::npos) << why;
        EXPECT_EQ(tw::interpret(tw::planProbe(*tile), {}).result.verdict, Verdict::Unsupported);
    }
}

// The pipeline sends a wgmma tile to this method (its atom reads B from shared memory) and an mma tile to the
// tiled-mma method; the ldmatrix copy is the mma tile's only.
TEST(TiledWgmmaProbe, ThePipelinePicksTheMethodByWhereTheAtomsBLives) {
    gpu::SimulatedDevice simulated;
    const auto wg = tileOf("wgmma.m64n16k16.f16", "(2,1,1)", "");
    const gpu::Interpretation r = gpu::interpretTileOn(simulated, *wg);
    EXPECT_EQ(r.result.verdict, Verdict::Pass) << firstOf(r);
    EXPECT_EQ(r.result.experiments, 4);
    EXPECT_EQ(r.result.spec, "wgmma.m64n16k16.f16 tile 128x16x16 (atom layout (2,1,1))");
    const gpu::Interpretation copy = gpu::interpretTileOn(simulated, *wg, gpu::TileLoad::Ldmatrix);
    EXPECT_EQ(copy.result.verdict, Verdict::Unsupported);
    EXPECT_NE(
        copy.result.reason.find("reads B (and A in the SS form) from shared memory through descriptors"),
        std::string::npos)
        << copy.result.reason;
    const auto mma = tileOf("mma.m16n8k16.f16", "(2,2,1)", "");
    EXPECT_EQ(gpu::interpretTileOn(simulated, *mma).result.experiments, 2);
}

// A tile of tcgen05.mma atoms is a cluster of CTAs: the pipeline says it needs a Blackwell GPU and names the
// device, not the tiled-wgmma method's words (which it answered with, since its atom too reads shared memory
// through descriptors).
TEST(TiledWgmmaProbe, ATcgen05TileSaysItNeedsABlackwellGpuAndNamesTheDevice) {
    const auto tile = tileOf("tcgen05.mma.cta_group::2.kind::f16.m256n16", "(2,1,1)", "");
    gpu::SimulatedDevice simulated;
    gpu::Interpretation r = gpu::interpretTileOn(simulated, *tile);
    EXPECT_EQ(r.result.verdict, Verdict::Unsupported);
    EXPECT_EQ(r.result.spec,
              "tcgen05.mma.cta_group::2.kind::f16.m256n16 tile 512x16x16 (atom layout (2,1,1))");
    EXPECT_NE(r.result.reason.find("a tile of tcgen05.mma atoms runs over a cluster of 4 CTAs and needs a "
                                   "Blackwell GPU, sm_100a; this device is CPU simulator"),
              std::string::npos)
        << r.result.reason;
    EXPECT_EQ(r.result.reason.find("wgmma"), std::string::npos) << r.result.reason;
    // On a Hopper GPU it names the device; on a Blackwell one it says no method runs the tile yet.
    DeviceInfo h200;
    h200.name = "NVIDIA H200";
    h200.sm = 90;
    gpu::AbsentDevice hopper("the H200's own reason", h200);
    r = gpu::interpretTileOn(hopper, *tile);
    EXPECT_EQ(r.result.verdict, Verdict::Unsupported);
    EXPECT_NE(r.result.reason.find("needs a Blackwell GPU, sm_100a; this device is sm_90, NVIDIA H200"),
              std::string::npos)
        << r.result.reason;
    DeviceInfo b200;
    b200.name = "NVIDIA B200";
    b200.sm = 100;
    gpu::AbsentDevice blackwell("", b200);
    r = gpu::interpretTileOn(blackwell, *tile, gpu::TileLoad::Ldmatrix);
    EXPECT_EQ(r.result.verdict, Verdict::Unsupported);
    EXPECT_NE(
        r.result.reason.find("this device is sm_100, NVIDIA B200, but no lanemap probe method runs such a "
                             "tile yet"),
        std::string::npos)
        << r.result.reason;
    EXPECT_EQ(gpu::clusterTileRefusal(*tile, nullptr),
              "a tile of tcgen05.mma atoms runs over a cluster of 4 CTAs and needs a Blackwell GPU, sm_100a; "
              "there is no GPU here");
}

// On an H100/H200: every tile of the set, both forms, every element; the kernel told the wrong permutation
// fails.
TEST(TiledWgmmaProbeDevice, EveryWgmmaTileIsConfirmedAndAWrongPermutationFails) {
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU: " << a.reason;
    if (a.device.sm != 90)
        GTEST_SKIP() << "the tiled-wgmma kernel needs sm_90a (Hopper); this device is sm_" << a.device.sm;
    for (const Case& c : kTiles) {
        SCOPED_TRACE(c.spec + " " + c.atoms + " " + c.permutation);
        const auto tile = tileOf(c.spec, c.atoms, c.permutation);
        const ProbeReport report = gpu::probeTile(*tile);
        ASSERT_EQ(report.results.size(), 1u);
        const ProbeResult& r = report.results.front();
        EXPECT_EQ(r.verdict, Verdict::Pass)
            << r.reason
            << (r.mismatches.empty()
                    ? ""
                    : " " + r.mismatches[0].experiment + ": expected " + r.mismatches[0].expected +
                          ", observed " + r.mismatches[0].observed);
        EXPECT_GT(r.cellsChecked, 0);
        EXPECT_EQ(r.cellsMismatched, 0);
    }
    const auto tile = tileOf(kRight.spec, kRight.atoms, kRight.permutation);
    tw::TiledWgmmaProbe wrong(*tile, layoutOf(kWrong.atoms, kWrong.permutation));
    const gpu::ProbeMethod* method = gpu::probeMethodNamed("tiled-wgmma");
    ASSERT_NE(method, nullptr);
    const gpu::Interpretation r = gpu::interpretPlanOn(gpu::localDevice(), *tile, *method, wrong);
    EXPECT_EQ(r.result.verdict, Verdict::Fail) << r.result.reason;
    EXPECT_GT(r.result.cellsMismatched, 0);
}

} // namespace

} // namespace test_tiled_wgmma_probe
