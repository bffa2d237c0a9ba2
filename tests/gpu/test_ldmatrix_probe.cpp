// The tagged-tile probe method (ldmatrix / stmatrix / movmatrix): the simulator passes every variant (the
// sm_100a .b8 and packed 6/4-bit forms too, with one experiment per tag digit) through the one pipeline, and
// a device that read a row through another thread's address, or wrote where the engine says nothing goes,
// fails with the cell named.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/matrix_move.hpp"

#include "methods/tagged/tagged.hpp"

#ifdef LANEMAP_HAVE_CUDA
#include "methods/tagged/kernels.hpp"
#endif

#include <gtest/gtest.h>

namespace test_ldmatrix_probe {

using namespace lanemap;
using namespace lanemap::gpu;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

// Tags as wide as the element: .b16 keys fit one tag (2 experiments: rows in order and scrambled); .b8 and
// 6-bit tags carry a 10-bit key in two digits (4 experiments), 4-bit ones in four (8 experiments).
int experimentsOf(const Variant& v) {
    switch (matrixMoveOf(v)->format) {
    case RowFormat::B16:
        return 2;
    case RowFormat::B8:
    case RowFormat::B6x16P32:
        return 4;
    case RowFormat::B4x16P64:
        return 8;
    }
    return 0;
}

TEST(TaggedProbe, TheSimulatorPassesEveryMoveThroughThePipeline) {
    SimulatedDevice device;
    int probed = 0, sm100a = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!matrixMoveOf(*v))
            continue;
        ASSERT_EQ(probeMethodOf(*v)->name(), "tagged-tile") << v->spec;
        const ProbeResult r = probeOn(device, *v);
        ++probed;
        sm100a += matrixMoveOf(*v)->archSpecific;
        EXPECT_EQ(r.verdict, Verdict::Pass) << v->spec << ": " << r.reason;
        EXPECT_EQ(r.experiments, experimentsOf(*v)) << v->spec;
        // Every register slot of the warp in every experiment.
        const Instruction& in = Catalog::instance().instruction(*v);
        EXPECT_EQ(r.cellsChecked, r.experiments * 32 * in.operands.back().elementsPerThread()) << v->spec;
        EXPECT_FALSE(r.findings.empty()) << v->spec;
    }
    EXPECT_EQ(probed, 28);
    EXPECT_EQ(sm100a, 15);
}

// ldmatrix .m8n16 .b4x16_p64, worked by hand: element 1 of row 0 is bits 4-7 of the row's first byte in
// memory; lane 0's register byte 1 receives it, the payload in bits 5-2 of the byte (the engine's reading).
// Tag of key 1 (matrix 0 row 0 element 1), digit 0: marker 0x8 | 1 = 0x9, in the container 0x24.
TEST(TaggedProbe, PackedFourBitPlanWorkedByHand) {
    const Instruction& in = get("ldmatrix.m8n16.x1.b8x16.b4x16_p64");
    const tagged::Plan plan = tagged::planProbe(in);
    ASSERT_EQ(plan.experiments.size(), 8u);
    EXPECT_EQ(plan.experiments[1].label, "rows in order, tag digit 2 of 4");
    // Experiment 0 has row 0 in chunk 0: byte 0 = element 0 (0x8) | element 1 (0x9) << 4.
    EXPECT_EQ(plan.inputs[0] & 0xffu, 0x98u);
    // Row 0's 64 payload bits end at word 2: the padding stays zero.
    EXPECT_EQ(plan.inputs[2], 0u);
    EXPECT_EQ(plan.inputs[3], 0u);
    const std::vector<std::uint32_t> raw = tagged::simulate(plan);
    EXPECT_EQ(raw[0] >> 8 & 0xffu, 0x24u);
    // A device that put the payload in the low four bits instead fails, naming the container it saw.
    std::vector<std::uint32_t> low = raw;
    low[0] = (low[0] & ~0xff00u) | 0x0900u;
    const Interpretation i = tagged::interpret(plan, low);
    EXPECT_EQ(i.result.verdict, Verdict::Fail);
    ASSERT_FALSE(i.result.mismatches.empty());
    EXPECT_EQ(i.result.mismatches.front().thread, 0);
    EXPECT_EQ(i.result.mismatches.front().index, 1);
    EXPECT_NE(i.result.mismatches.front().observed.find("container 0x9"), std::string::npos)
        << i.result.mismatches.front().observed;
}

// stmatrix .m16n8 .trans .b8: lane 0's register 0 byte 1 (tag 0x80 | key 1) lands in memory row 1, element 0.
TEST(TaggedProbe, StmatrixB8PlanWorkedByHand) {
    const Instruction& in = get("stmatrix.m16n8.x1.trans.b8");
    const tagged::Plan plan = tagged::planProbe(in);
    ASSERT_EQ(plan.experiments.size(), 4u);
    const std::uint32_t lane0reg0 = plan.inputs[tagged::kImageWords + 32];
    EXPECT_EQ(lane0reg0 >> 8 & 0xffu, 0x81u);
    const std::vector<std::uint32_t> raw = tagged::simulate(plan);
    // Rows in order: memory row 1 is chunk 1 (word 4); its byte 0 is element 0.
    EXPECT_EQ(raw[4] & 0xffu, 0x81u);
}

// Lanes 8 and 9 swap their addresses on the "device": rows 0 and 1 of matrix 1 trade places.
TEST(TaggedProbe, ASwappedRowAddressFailsNamingTheCells) {
    const Instruction& in = get("ldmatrix.m8n8.x2.b16");
    const tagged::Plan plan = tagged::planProbe(in);
    std::vector<std::uint32_t> raw = tagged::simulate(plan);
    // Rows 0 and 1 of matrix 1 are held by lanes 0-3 and 4-7 in register 1.
    for (int lane = 0; lane < 4; ++lane)
        std::swap(raw[32 + lane], raw[32 + lane + 4]);
    const Interpretation i = tagged::interpret(plan, raw);
    EXPECT_EQ(i.result.verdict, Verdict::Fail);
    EXPECT_EQ(i.result.cellsMismatched, 16);
    ASSERT_FALSE(i.result.mismatches.empty());
    const ProbeMismatch& m = i.result.mismatches.front();
    EXPECT_EQ(m.thread, 0);
    EXPECT_EQ(m.matrix, 1);
    EXPECT_EQ(m.expected, "matrix 1 row 0 element 0");
    EXPECT_EQ(m.observed, "matrix 1 row 1 element 0");
}

// The poison row stands where the unused threads point: an .x1 that read it would show it.
TEST(TaggedProbe, AnUnusedAddressThatWasReadShowsThePoisonRow) {
    const Instruction& in = get("ldmatrix.m8n8.x1.trans.b16");
    const tagged::Plan plan = tagged::planProbe(in);
    ASSERT_EQ(plan.experiments.size(), 2u);
    const std::uint32_t poisonAddress = plan.inputs[tagged::kImageWords + 20];
    EXPECT_EQ(poisonAddress, 16u * static_cast<std::uint32_t>(plan.experiments[0].poisonChunk));
    std::vector<std::uint32_t> raw = tagged::simulate(plan);
    raw[5] = 0x0bad0badu;
    const Interpretation i = tagged::interpret(plan, raw);
    EXPECT_EQ(i.result.verdict, Verdict::Fail);
    EXPECT_NE(i.result.mismatches.front().observed.find("poison row"), std::string::npos);
}

// stmatrix: a write outside the named rows is a failure too.
TEST(TaggedProbe, AStoreOutsideTheNamedRowsFails) {
    const Instruction& in = get("stmatrix.m8n8.x1.b16");
    const tagged::Plan plan = tagged::planProbe(in);
    std::vector<std::uint32_t> raw = tagged::simulate(plan);
    raw[4 * static_cast<std::size_t>(plan.experiments[0].poisonChunk)] = 0x80008000u;
    const Interpretation i = tagged::interpret(plan, raw);
    EXPECT_EQ(i.result.verdict, Verdict::Fail);
    EXPECT_NE(i.result.mismatches.back().expected.find("untouched"), std::string::npos);
}

#ifdef LANEMAP_HAVE_CUDA
// Whether this build has the sm_100a kernels (LANEMAP_SM100A_PROBES, ON with nvcc 12.8+).
bool sm100aBuilt() {
    return movekernels::findSm100a("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8") != nullptr;
}

// Every .b16 move has a kernel whose instruction string is the catalog's PTX; so has every sm_100a form when
// this build has the sm_100a kernels, and none of them otherwise.
TEST(TaggedProbe, TheKernelTableCoversEveryMove) {
    int covered = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!matrixMoveOf(*v))
            continue;
        const movekernels::Entry* entry = movekernels::find(v->ptx);
        if (matrixMoveOf(*v)->archSpecific && !sm100aBuilt()) {
            EXPECT_EQ(entry, nullptr) << v->spec;
            continue;
        }
        ASSERT_NE(entry, nullptr) << v->spec;
        EXPECT_EQ(entry->minArch, v->minSm * 10) << v->spec;
        ++covered;
    }
    EXPECT_EQ(covered, sm100aBuilt() ? 28 : 13);
}

// On an H100 (or any GPU but sm_100) the sm_100a forms say in plain words that they need sm_100a; on an
// sm_100 GPU a build with the sm_100a kernels runs them.
TEST(TaggedProbe, Sm100aFormsNeedSm100a) {
    const Variant& v = *Catalog::instance().variant("ldmatrix.m16n16.x2.trans.b8");
    DeviceInfo hopper;
    hopper.sm = 90;
    const std::string reason = tagged::TaggedProbe::cannotRun(v, hopper);
    EXPECT_NE(reason.find("not confirmed on hardware (needs sm_100a)"), std::string::npos) << reason;
    EXPECT_NE(reason.find("this device is sm_90"), std::string::npos) << reason;
    DeviceInfo blackwell;
    blackwell.sm = 100;
    if (sm100aBuilt())
        EXPECT_EQ(tagged::TaggedProbe::cannotRun(v, blackwell), "");
    else
        EXPECT_NE(tagged::TaggedProbe::cannotRun(v, blackwell).find("no sm_100a probe kernel"),
                  std::string::npos);
    // The .b16 forms are not affected.
    EXPECT_EQ(tagged::TaggedProbe::cannotRun(*Catalog::instance().variant("ldmatrix.m8n8.x4.b16"), hopper),
              "");
}
#endif

} // namespace

} // namespace test_ldmatrix_probe
