// The tagged-tile probe method (ldmatrix / stmatrix / movmatrix): the simulator passes every .b16 variant
// through the one pipeline, and a device that read a row through another thread's address, or wrote where the
// engine says nothing goes, fails with the cell named.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/matrix_move.hpp"

#include "probe_ldmatrix.hpp"

#ifdef LANEMAP_HAVE_CUDA
#include "kernels_ldmatrix.hpp"
#endif

#include <gtest/gtest.h>

using namespace lanemap;
using namespace lanemap::gpu;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

TEST(TaggedProbe, TheSimulatorPassesEveryB16MoveThroughThePipeline) {
    SimulatedDevice device;
    int probed = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!v->move)
            continue;
        ASSERT_EQ(methodFor(v->family)->name(), "tagged-tile") << v->spec;
        const ProbeResult r = probeOn(device, *v);
        if (v->move->format != RowFormat::B16) {
            EXPECT_EQ(r.verdict, Verdict::Unsupported) << v->spec;
            EXPECT_NE(r.reason.find("needs sm_100a"), std::string::npos) << r.reason;
            continue;
        }
        ++probed;
        EXPECT_EQ(r.verdict, Verdict::Pass) << v->spec;
        EXPECT_EQ(r.experiments, 2) << v->spec;
        // Two experiments, every register slot of the warp each time.
        EXPECT_EQ(r.cellsChecked, 2 * 32 * 2 * v->num) << v->spec;
        EXPECT_FALSE(r.findings.empty()) << v->spec;
    }
    EXPECT_EQ(probed, 13);
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
// Every .b16 move has a kernel whose instruction string is the catalog's PTX.
TEST(TaggedProbe, TheKernelTableCoversEveryB16Move) {
    int covered = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!v->move || v->move->format != RowFormat::B16)
            continue;
        const movekernels::Entry* entry = movekernels::find(v->ptx);
        ASSERT_NE(entry, nullptr) << v->spec;
        EXPECT_EQ(entry->minArch, v->minSm * 10) << v->spec;
        ++covered;
    }
    EXPECT_EQ(covered, 13);
}
#endif

} // namespace
