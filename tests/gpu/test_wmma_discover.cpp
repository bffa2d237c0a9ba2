// wmma discovery as a method of the probe pipeline, end to end: on the pipeline's simulated device (which
// answers as the recorded H100 report), on simulated instructions that scramble, miscompute or hold another
// layout (rejected, or told apart from the recorded report), through probeOn / probeMany like every method,
// and on the real GPU, which must rediscover every form exactly as recorded.

#include "lanemap/catalog.hpp"
#include "lanemap/gpu/discover.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/wmma.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

namespace test_wmma_discover {

using namespace lanemap;

namespace {
std::vector<const Variant*> wmmaVariants() {
    std::vector<const Variant*> out;
    for (const Variant* v : Catalog::instance().variants())
        if (v->family->name == "wmma")
            out.push_back(v);
    return out;
}

const wmma::DiscoveryReport& recordedH100() {
    const wmma::RecordedDiscovery* r = wmma::recordedFor("sm_90");
    if (!r)
        throw std::logic_error("the recorded H100 report is not built in");
    return r->report;
}

// Every placement and verdict of `got` equals `want`'s.
void expectSame(const wmma::DiscoveryReport& got, const wmma::DiscoveryReport& want) {
    ASSERT_EQ(got.fragments.size(), want.fragments.size());
    for (const wmma::DiscoveredFragment& f : want.fragments) {
        const wmma::DiscoveredFragment* g = got.fragment(f.form);
        ASSERT_TRUE(g) << f.form.key();
        ASSERT_EQ(g->cells.size(), f.cells.size()) << f.form.key();
        for (std::size_t i = 0; i < f.cells.size(); ++i)
            ASSERT_TRUE(g->cells[i].row == f.cells[i].row && g->cells[i].col == f.cells[i].col)
                << f.form.key() << " slot " << i;
    }
    ASSERT_EQ(got.checks.size(), want.checks.size());
    for (const wmma::DiscoveryCheck& c : want.checks) {
        const wmma::DiscoveryCheck* g = got.check(c.spec);
        ASSERT_TRUE(g) << c.spec;
        EXPECT_EQ(g->store, c.store) << c.spec << ": " << g->detail;
        EXPECT_EQ(g->mma, c.mma) << c.spec << ": " << g->detail;
    }
}

// Instructions whose mma is one off in one element of D (integer accumulators).
class MiscomputingWmma : public gpu::SimulatedWmma {
  public:
    using SimulatedWmma::SimulatedWmma;
    bool mma(const Variant& v, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
             std::span<const std::uint32_t> c, std::span<std::uint32_t> d, int& words) override {
        const bool ran = SimulatedWmma::mma(v, a, b, c, d, words);
        if (ran && v.ctype == ElementType::S32)
            d[7] += 1;
        return ran;
    }
};

// The recorded report with two slots of lane 0 and lane 1 of one fragment swapped, labelled `target`.
wmma::DiscoveryReport permuted(const std::string& target, const std::string& key) {
    wmma::DiscoveryReport r = recordedH100();
    r.sassTarget = target;
    for (wmma::DiscoveredFragment& f : r.fragments)
        if (f.form.key() == key)
            std::swap(f.cells[0], f.cells[static_cast<std::size_t>(f.numElements())]);
    return r;
}

const Variant& variant(const char* spec) {
    const Variant* v = Catalog::instance().variant(spec);
    if (!v)
        throw std::logic_error(std::string("no variant ") + spec);
    return *v;
}
} // namespace

TEST(WmmaDiscover, IsThePipelinesMethodForWmma) {
    const gpu::ProbeMethod* method = gpu::probeMethodOf(variant("wmma.m16n16k16.row.col.f16.f32"));
    ASSERT_TRUE(method);
    EXPECT_EQ(method->name(), "discovery");
    // Its forms are the loads a variant needs: A, B, C row- and column-major.
    const std::vector<gpu::ProbeForm> forms =
        method->forms(Catalog::instance().instruction(variant("wmma.m16n16k16.row.col.f16.f32")));
    ASSERT_EQ(forms.size(), 4u);
    EXPECT_EQ(forms[0].ptx, "wmma.load.a.sync.aligned.row.m16n16k16.f16");
}

TEST(WmmaDiscover, ThePipelinesSimulatedDeviceRediscoversTheRecordedReportExactly) {
    gpu::SimulatedDevice device; // the CPU stand-in: answers as the recorded report does
    const wmma::DiscoveryReport got = gpu::discoverOn(device, wmma::fragmentForms(), wmmaVariants());
    EXPECT_TRUE(got.failures.empty()) << got.failures.front();
    expectSame(got, recordedH100());
    EXPECT_EQ(got.sassTarget, "sm_90");
    for (const wmma::DiscoveryCheck& c : got.checks)
        ASSERT_TRUE(c.store == Verdict::Pass && c.mma == Verdict::Pass) << c.spec << ": " << c.detail;
    // And the report it gathers is one `discover --validate` accepts.
    wmma::DiscoveryReport parsed;
    std::string error;
    EXPECT_TRUE(wmma::parseDiscoveryReport(wmma::toJson(got), parsed, error)) << error;
}

TEST(WmmaDiscover, ProbeOnAWmmaVariantPassesWhereTheRecordedLayoutIsReproduced) {
    gpu::SimulatedDevice device;
    const ProbeResult r = gpu::probeOn(device, variant("wmma.m16n16k16.row.col.f16.f32"));
    EXPECT_EQ(r.verdict, Verdict::Pass) << r.reason;
    EXPECT_EQ(r.cellsChecked, 4 * 32 * 16 - 2 * 32 * 8); // A and B: 16 slots a lane; C twice: 8
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_NE(r.findings[0].find("exactly as resources/discovery/h100-wmma.json records"), std::string::npos)
        << r.findings[0];
}

TEST(WmmaDiscover, ProbeFailsAndNamesTheSlotWhereADeviceDiffersFromTheRecordedReport) {
    gpu::SimulatedWmma instructions(permuted("sm_90", "m16n16k16.a.row.f16"));
    gpu::SimulatedWmmaDevice device(instructions);
    const ProbeResult r = gpu::probeOn(device, variant("wmma.m16n16k16.row.col.f16.f32"));
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_NE(
        r.reason.find("m16n16k16.a.row.f16 differs from resources/discovery/h100-wmma.json: lane 0 x[0]"),
        std::string::npos)
        << r.reason;
}

TEST(WmmaDiscover, AnotherTargetsLayoutIsDiscoveredAsItIsAndNotComparedWithTheH100s) {
    const wmma::DiscoveryReport truth = permuted("sm_80", "m16n16k16.a.row.f16");
    gpu::SimulatedWmma instructions(truth);
    gpu::SimulatedWmmaDevice device(instructions);
    const Variant& v = variant("wmma.m16n16k16.row.col.f16.f32");
    const wmma::DiscoveryReport got = gpu::discoverOn(device, gpu::discoveryForms(v), {&v});
    EXPECT_EQ(got.sassTarget, "sm_80");
    ASSERT_TRUE(got.failures.empty()) << got.failures.front();
    const wmma::DiscoveredFragment* a = got.fragment(*wmma::formOfKey("m16n16k16.a.row.f16"));
    ASSERT_TRUE(a);
    auto same = [](const wmma::DiscoveredFragment& x, const wmma::DiscoveredFragment& y) {
        return std::equal(x.cells.begin(), x.cells.end(), y.cells.begin(), y.cells.end(),
                          [](Cell p, Cell q) { return p.row == q.row && p.col == q.col; });
    };
    EXPECT_TRUE(same(*a, *truth.fragment(a->form)));
    EXPECT_FALSE(same(*a, *recordedH100().fragment(a->form)));
    const ProbeResult r = gpu::probeOn(device, v);
    EXPECT_EQ(r.verdict, Verdict::Pass) << r.reason;
    EXPECT_NE(r.findings.at(0).find("a target with no recorded report"), std::string::npos);
}

TEST(WmmaDiscover, AScrambledDeviceDiscoversNothing) {
    gpu::SimulatedWmma instructions(recordedH100());
    instructions.scramble = true;
    gpu::SimulatedWmmaDevice device(instructions);
    const Variant& v = variant("wmma.m16n16k16.row.col.f16.f32");
    const std::vector<wmma::FragmentForm> forms{*wmma::formOfKey("m16n16k16.a.row.f16"),
                                                *wmma::formOfKey("m8n8k4.c.row.f64")};
    const wmma::DiscoveryReport got = gpu::discoverOn(device, forms, {&v});
    EXPECT_TRUE(got.fragments.empty());
    ASSERT_EQ(got.failures.size(), 2u);
    EXPECT_NE(got.failures[0].find("m16n16k16.a.row.f16: lane"), std::string::npos) << got.failures[0];
    EXPECT_NE(got.failures[1].find("m8n8k4.c.row.f64: no variant checked loads it"), std::string::npos)
        << got.failures[1];
    ASSERT_EQ(got.checks.size(), 1u);
    EXPECT_EQ(got.checks[0].mma, Verdict::Unsupported);
    EXPECT_NE(got.checks[0].detail.find("not discovered"), std::string::npos);
    EXPECT_EQ(gpu::probeOn(device, v).verdict, Verdict::Fail);
}

TEST(WmmaDiscover, AProductThatDisagreesFailsTheMmaCheck) {
    MiscomputingWmma instructions(recordedH100());
    gpu::SimulatedWmmaDevice device(instructions);
    const Variant& v = variant("wmma.m16n16k16.row.col.s8.s32");
    const wmma::DiscoveryReport got = gpu::discoverOn(device, gpu::discoveryForms(v), {&v});
    ASSERT_EQ(got.checks.size(), 1u);
    EXPECT_EQ(got.checks[0].store, Verdict::Pass);
    EXPECT_EQ(got.checks[0].mma, Verdict::Fail);
    EXPECT_NE(got.checks[0].detail.find("the CPU product says"), std::string::npos) << got.checks[0].detail;
    const ProbeResult r = gpu::probeOn(device, v);
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_NE(r.reason.find("the CPU product says"), std::string::npos) << r.reason;
}

TEST(WmmaDiscover, InstructionsWithoutAKernelLeaveTheFormUndiscoveredAndSaySo) {
    wmma::DiscoveryReport truth = recordedH100();
    std::erase_if(truth.fragments,
                  [](const wmma::DiscoveredFragment& f) { return f.form.operand == Operand::B; });
    gpu::SimulatedWmma instructions(truth);
    gpu::SimulatedWmmaDevice device(instructions);
    const Variant& v = variant("wmma.m16n16k16.row.col.f16.f32");
    const wmma::DiscoveryReport got = gpu::discoverOn(device, gpu::discoveryForms(v), {&v});
    EXPECT_EQ(got.fragments.size(), 3u);
    ASSERT_EQ(got.failures.size(), 1u);
    EXPECT_EQ(got.failures[0], "m16n16k16.b.col.f16: this build has no kernel for m16n16k16.b.col.f16");
    const std::vector<std::string> lines = gpu::discoveryLines(got, gpu::discoveryForms(v));
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[1], "failed\tm16n16k16.b.col.f16\tthis build has no kernel for m16n16k16.b.col.f16");
    EXPECT_EQ(lines[4], "checked\twmma.m16n16k16.row.col.f16.f32\tstore unsupported, mma unsupported (a "
                        "fragment of the variant was not discovered)");
}

TEST(WmmaDiscover, AnAbsentDeviceIsUnsupportedForEveryVariantWithItsReason) {
    gpu::AbsentDevice device("GPU unavailable: no CUDA device");
    const Variant& v = variant("wmma.m8n8k4.row.col.f64.f64");
    const wmma::DiscoveryReport got = gpu::discoverOn(device, gpu::discoveryForms(v), {&v});
    EXPECT_TRUE(got.fragments.empty());
    ASSERT_EQ(got.failures.size(), 4u);
    EXPECT_EQ(got.failures[0], "m8n8k4.a.row.f64: GPU unavailable: no CUDA device");
    ASSERT_EQ(got.checks.size(), 1u);
    EXPECT_EQ(got.checks[0].detail, "GPU unavailable: no CUDA device");
}

TEST(WmmaDiscover, ProgressComesPerVariantAndCancelStopsTheRun) {
    gpu::SimulatedDevice device;
    const std::vector<const Variant*> variants = wmmaVariants();
    std::atomic<bool> cancel{false};
    std::size_t calls = 0;
    const wmma::DiscoveryReport got = gpu::discoverOn(
        device, wmma::fragmentForms(), variants,
        [&](std::size_t done, std::size_t total, const std::string&) {
            ++calls;
            EXPECT_EQ(total, variants.size());
            if (done == 3)
                cancel = true;
        },
        &cancel);
    EXPECT_EQ(calls, 3u);
    EXPECT_EQ(got.checks.size(), 3u);
    EXPECT_FALSE(got.failures.empty()); // forms only later variants load were never discovered
}

TEST(WmmaDiscoverDevice, TheGpuRediscoversEveryFormAsRecorded) {
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU to discover on: " << a.reason;
    const wmma::DiscoveryReport got =
        gpu::discoverOn(gpu::localDevice(), wmma::fragmentForms(), wmmaVariants());
    const wmma::RecordedDiscovery* recorded = wmma::recordedFor(got.sassTarget);
    if (!recorded)
        GTEST_SKIP() << "no recorded report for " << got.sassTarget
                     << " to compare with (lanemap-cli discover --family wmma --json records one)";
    EXPECT_TRUE(got.failures.empty()) << got.failures.front();
    ASSERT_EQ(got.fragments.size(), wmma::fragmentForms().size()) << "every form must be discovered";
    expectSame(got, recorded->report);
}

TEST(WmmaDiscoverDevice, TheGpuProbesEveryWmmaVariantThroughThePipeline) {
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU to probe on: " << a.reason;
    const ProbeReport report = gpu::probeAll(wmmaVariants());
    ASSERT_EQ(report.results.size(), wmmaVariants().size());
    for (const ProbeResult& r : report.results)
        EXPECT_EQ(r.verdict, Verdict::Pass) << r.spec << ": " << r.reason;
}

} // namespace test_wmma_discover
