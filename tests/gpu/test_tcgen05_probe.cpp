// The tensor-memory probe method (tcgen05.ld / tcgen05.st / tcgen05.mma): the simulator passes every tcgen05
// entry through the one pipeline; a device that swaps two lanes, ignores the half-subpartition offset or puts
// a half-datapath layout at the wrong lane alignment fails with the cell named (so the method is not vacuous
// before a Blackwell GPU runs it); anything but an sm_100a-class GPU says what the form needs.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/pipeline.hpp"

#include "methods/tensor_memory/tensor_memory.hpp"

#ifdef LANEMAP_TCGEN05_PROBES
#include "methods/tensor_memory/kernels.hpp"
#endif

#include "catalog_entry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

namespace test_tcgen05_probe {

using namespace lanemap;
using lanemap::test::catalogEntry;
using namespace lanemap::gpu;

namespace {

DeviceInfo h100() {
    DeviceInfo d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.sm = 90;
    return d;
}

bool anyMismatch(const ProbeResult& r, const std::string& expected, const std::string& observed) {
    return std::any_of(r.mismatches.begin(), r.mismatches.end(), [&](const ProbeMismatch& m) {
        return m.expected.find(expected) != std::string::npos &&
               m.observed.find(observed) != std::string::npos;
    });
}

} // namespace

TEST(Tcgen05Probe, TheSimulatorPassesEveryTcgen05EntryThroughThePipeline) {
    SimulatedDevice device;
    int ld = 0, st = 0, mma = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!tmem::accessOf(*v) && !tmem::mmaOf(*v))
            continue;
        ASSERT_EQ(probeMethodOf(*v)->name(), "tensor-memory") << v->spec;
        const ProbeResult r = probeOn(device, *v);
        EXPECT_EQ(r.verdict, Verdict::Pass) << v->spec << ": " << r.reason;
        EXPECT_FALSE(r.findings.empty()) << v->spec;
        const tc::Plan plan = tc::planProbe(Catalog::instance().instruction(*v));
        if (tmem::accessOf(*v)) {
            const tmem::Access& a = *tmem::accessOf(*v);
            // Both halves of a 16-lane shape; every register element of the four warps (ld), every cell of
            // the lanes x columns the access spans (st).
            EXPECT_EQ(r.experiments, tmem::recordOf(a.shape).lanes == 16 ? 2 : 1) << v->spec;
            const int perExperiment = a.op == tmem::Op::Ld
                                          ? 4 * 32 * tmem::registersOf(a) * tmem::elementsPerRegister(a)
                                          : tmem::kLanes * tmem::columnsOf(a);
            EXPECT_EQ(r.cellsChecked, r.experiments * perExperiment) << v->spec;
            (a.op == tmem::Op::Ld ? ld : st) += 1;
        } else {
            // Every cell of the columns the layout uses, in each CTA, with A from shared memory and from
            // Tensor Memory.
            EXPECT_EQ(r.cellsChecked, 2 * tmem::mmaOf(*v)->ctaGroup * tmem::kLanes * plan.columns) << v->spec;
            EXPECT_GE(plan.columns, plan.mma->n / 4) << v->spec;
            ++mma;
        }
    }
    EXPECT_EQ(ld, 74);
    EXPECT_EQ(st, 74);
    EXPECT_EQ(mma, 83);
}

TEST(Tcgen05Probe, HopperAndConsumerBlackwellSayWhatTheFormNeeds) {
    const Variant& ld = catalogEntry("tcgen05.ld.16x256b.x8");
    const std::string why = tc::unsupportedOn(ld, h100());
    EXPECT_NE(why.find("needs sm_100a: tcgen05 and Tensor Memory exist only on sm_100a, sm_103a and sm_110a; "
                       "this device is sm_90, NVIDIA H100 80GB HBM3, a Hopper GPU"),
              std::string::npos)
        << why;
    // One sentence: the probe report prints the reason inside its own parentheses ("0 cells (...)"), which
    // read "(needs sm_100a (this device is ...))" when the reason had its own.
    EXPECT_EQ(why.find_first_of("()"), std::string::npos) << why;
    EXPECT_NE(why.find("sm_100a, sm_103a and sm_110a"), std::string::npos) << why;
    DeviceInfo rtx;
    rtx.sm = 120;
    EXPECT_NE(
        tc::unsupportedOn(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128"), rtx).find("needs sm_100a"),
        std::string::npos);
    DeviceInfo b200;
    b200.sm = 100;
    EXPECT_EQ(tc::unsupportedOn(ld, b200), "");
}

#ifdef LANEMAP_HAVE_CUDA
// The GPU device asks the method's kernel binding (its row's): on Hopper every tcgen05 entry is unsupported
// with the capability message, before any kernel is looked up.
TEST(Tcgen05Probe, TheGpuBindingRefusesEveryEntryOnHopperWithTheCapability) {
    for (const Variant* v : Catalog::instance().variants()) {
        if (!tmem::accessOf(*v) && !tmem::mmaOf(*v))
            continue;
        EXPECT_NE(tc::TensorMemoryProbe::cannotRun(*v, h100()).find("needs sm_100a: tcgen05"),
                  std::string::npos)
            << v->spec;
    }
}
#endif

#ifdef LANEMAP_TCGEN05_PROBES
// The sm_100a kernels cover the catalog: every tcgen05.ld / tcgen05.st form has a kernel moving as many
// registers as the catalog's access, and every tcgen05.mma PTX string has a probe kernel.
TEST(Tcgen05Probe, TheSm100aKernelsCoverEveryCatalogForm) {
    const std::span<const char* const> mma = tckernels::mmaForms();
    for (const Variant* v : Catalog::instance().variants()) {
        if (tmem::accessOf(*v)) {
            const tckernels::Entry* e = tckernels::find(v->ptx);
            ASSERT_NE(e, nullptr) << v->spec;
            EXPECT_EQ(e->registers, tmem::registersOf(*tmem::accessOf(*v))) << v->spec;
        } else if (tmem::mmaOf(*v)) {
            EXPECT_NE(std::find_if(mma.begin(), mma.end(), [&](const char* p) { return v->ptx == p; }),
                      mma.end())
                << v->spec;
            // The probe kernel for the entry's PTX string, launched as a pair for cta_group::2.
            const tckernels::MmaEntry* e = tckernels::findMma(v->ptx);
            ASSERT_NE(e, nullptr) << v->spec;
            EXPECT_EQ(e->ctaGroup, tmem::mmaOf(*v)->ctaGroup) << v->spec;
        }
    }
    EXPECT_EQ(tckernels::entriesLd().size() + tckernels::entriesSt().size(), 148u);
    EXPECT_EQ(mma.size(), 36u);
    EXPECT_EQ(tckernels::entriesMma().size(), 36u);
}
#endif

// A device whose Tensor Memory lanes 3 and 4 are swapped: the registers of threads 3 and 4 hold each other's
// cells.
TEST(Tcgen05Probe, ALdThatSwapsTwoLanesFailsNamingTheCell) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.ld.32x32b.x2"));
    std::vector<std::uint32_t> raw = tc::simulate(plan);
    // [experiment][warp][register][thread]: warp 0, register 1.
    std::swap(raw[32 + 3], raw[32 + 4]);
    const ProbeResult r = tc::interpret(plan, raw).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_EQ(r.cellsMismatched, 2);
    EXPECT_TRUE(anyMismatch(r, "thread 3 register 1 holds lane 3 column 1", "lane 4 column 1"));
    EXPECT_TRUE(anyMismatch(r, "thread 4 register 1 holds lane 4 column 1", "lane 3 column 1"));
}

// A device that ignores the lane offset selecting the upper 16-lane half: the upper-half experiment reads the
// lower half again.
TEST(Tcgen05Probe, ALdThatIgnoresTheHalfSubpartitionOffsetFails) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.ld.16x64b.x1"));
    ASSERT_EQ(plan.experiments.size(), 2u);
    std::vector<std::uint32_t> raw = tc::simulate(plan);
    const std::size_t half = raw.size() / 2;
    std::copy(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(half),
              raw.begin() + static_cast<std::ptrdiff_t>(half));
    const ProbeResult r = tc::interpret(plan, raw).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_EQ(r.cellsMismatched, 4 * 32); // every register of the upper-half experiment
    ASSERT_FALSE(r.mismatches.empty());
    EXPECT_NE(r.mismatches.front().experiment.find("upper half"), std::string::npos);
    // .16x64b: thread 0 reads lane 0 of its half, column 0.
    EXPECT_TRUE(anyMismatch(r, "thread 0 register 0 holds lane 16 column 0", "lane 0 column 0"));
}

// tcgen05.st the other way: the upper-half store landed in the lower half; the cells it should have written
// still hold the sentinel, and the lower half holds what it should not.
TEST(Tcgen05Probe, AStThatIgnoresTheHalfSubpartitionOffsetFails) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.st.16x128b.x1"));
    ASSERT_EQ(plan.experiments.size(), 2u);
    std::vector<std::uint32_t> raw = tc::simulate(plan);
    const std::size_t half = raw.size() / 2;
    std::copy(raw.begin(), raw.begin() + static_cast<std::ptrdiff_t>(half),
              raw.begin() + static_cast<std::ptrdiff_t>(half));
    const ProbeResult r = tc::interpret(plan, raw).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    // 16 lanes x 4 columns x 4 warps not written where they should be, and as many written where not.
    EXPECT_EQ(r.cellsMismatched, 2 * 16 * 4 * 4);
    EXPECT_TRUE(anyMismatch(r, "lane 16 column 0 holds warp 0 thread 0 register 0", "nothing written"));
    EXPECT_TRUE(anyMismatch(r, "lane 0 column 0 holds nothing written", "warp 0 thread 0 register 0"));
}

// tcgen05.st .unpack::16b: the two halves of a register in swapped columns.
TEST(Tcgen05Probe, AnUnpackingStWithTheHalvesSwappedFails) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.st.32x32b.x1.unpack::16b"));
    std::vector<std::uint32_t> raw = tc::simulate(plan);
    // [column][lane]: lane 7's columns 0 and 1.
    std::swap(raw[7], raw[tmem::kLanes + 7]);
    const ProbeResult r = tc::interpret(plan, raw).result;
    EXPECT_EQ(r.cellsMismatched, 2);
    EXPECT_TRUE(anyMismatch(r, "lane 7 column 0 holds warp 0 thread 7 register 0 bits 15-0",
                            "warp 0 thread 7 register 0 bits 31-16"));
}

// tcgen05.mma, layout D (M = 128, one CTA): Tensor Memory lanes 5 and 6 swapped.
TEST(Tcgen05Probe, AnMmaWhoseLanesAreSwappedFailsNamingTheElement) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128"));
    std::vector<std::uint32_t> raw = tc::simulate(plan);
    const std::size_t cells = static_cast<std::size_t>(tmem::kLanes * plan.columns);
    for (std::size_t x = 0; x < plan.experiments.size(); ++x)
        std::swap(raw[x * cells + 5], raw[x * cells + 6]); // column 0
    const ProbeResult r = tc::interpret(plan, raw).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_EQ(r.cellsMismatched, 2 * 2); // two cells, with A from shared memory and from Tensor Memory
    EXPECT_TRUE(anyMismatch(r, "lane 5 column 0 holds D(5,0)", "D(6,0)"));
    ASSERT_FALSE(r.mismatches.empty());
    EXPECT_EQ(r.mismatches.front().row, 5);
    EXPECT_EQ(r.mismatches.front().col, 0);
}

// Layout F (M = 64, half datapath) with lane alignment 16, on a device that used alignment 0: rows land in
// the lower 16 lanes of each subpartition.
TEST(Tcgen05Probe, AHalfDatapathLayoutAtTheWrongLaneAlignmentFails) {
    const tc::Plan want = tc::planProbe(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m64.lane16"));
    const tc::Plan device = tc::planProbe(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m64"));
    ASSERT_EQ(want.outWords(), device.outWords());
    const ProbeResult r = tc::interpret(want, tc::simulate(device)).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_TRUE(anyMismatch(r, "lane 16 column 0 holds D(0,0)", "nothing (the sentinel)"));
    EXPECT_TRUE(anyMismatch(r, "lane 0 column 0 holds nothing (outside the layout)", "D(0,0)"));
}

// cta_group::2 (layout A): the two CTAs' rows exchanged.
TEST(Tcgen05Probe, AnMmaPairWithItsCtasExchangedFailsNamingTheCta) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.mma.cta_group::2.kind::f16.m256"));
    std::vector<std::uint32_t> raw = tc::simulate(plan);
    const std::size_t cells = static_cast<std::size_t>(tmem::kLanes * plan.columns);
    for (std::size_t x = 0; x < plan.experiments.size(); ++x)
        std::swap_ranges(raw.begin() + static_cast<std::ptrdiff_t>(2 * x * cells),
                         raw.begin() + static_cast<std::ptrdiff_t>((2 * x + 1) * cells),
                         raw.begin() + static_cast<std::ptrdiff_t>((2 * x + 1) * cells));
    const ProbeResult r = tc::interpret(plan, raw).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_EQ(r.cellsMismatched,
              2 * 2 * tmem::kLanes * plan.columns); // every cell of both CTAs, both A sources
    EXPECT_TRUE(anyMismatch(r, "CTA 0 lane 0 column 0 holds D(0,0)", "D(128,0)"));
}

// e2m1 (kind::mxf4) carries 1, 2 and 4 exactly: m and n take three digits each, six experiments; the coded
// operands make D[m][n] the digit.
TEST(Tcgen05Probe, FourBitKindsSpellTheIndexInThreeBitDigits) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.mma.cta_group::1.kind::mxf4.m128"));
    EXPECT_EQ(plan.digitBits, 3);
    ASSERT_EQ(plan.experiments.size(), 12u);       // A from shared memory, then from Tensor Memory
    const tc::Experiment& x = plan.experiments[1]; // rows, digit 2: bits 3..5 of m
    EXPECT_EQ(x.axis, tc::Axis::Rows);
    // D[m][n] = sum_k A[m][k] B[k][n] = digit of m: m = 0b101'000 has digit 2 = 5.
    int d = 0;
    for (int k = 0; k < 8; ++k)
        d += tc::operandValue(plan, x, Operand::A, 40, k) * tc::operandValue(plan, x, Operand::B, 9, k);
    EXPECT_EQ(d, 5);
    EXPECT_EQ(tc::planProbe(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128")).experiments.size(), 4u);
}

} // namespace test_tcgen05_probe
