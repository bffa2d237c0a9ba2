// The one probe pipeline: the method rows, and the driver loop every method runs through (unsupported
// handling, failed runs, progress, cancel, worker threads), driven by the CPU simulator as the device.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/pipeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace test_pipeline {

using namespace lanemap;
using namespace lanemap::gpu;

namespace {

const Variant& variant(const std::string& spec) {
    const Variant* v = Catalog::instance().variant(spec);
    if (!v)
        throw std::runtime_error("unknown spec " + spec);
    return *v;
}

// One small variant of every family.
std::vector<const Variant*> oneOfEachFamily() {
    return {&variant("mma.m16n8k16.f16"), &variant("mma.sp.m16n8k16.f16"), &variant("wgmma.m64n8k16.f16"),
            &variant("wgmma.sp.m64n8k32.f16")};
}

// The simulator, with hooks a test sets to play a device that refuses, fails or disagrees.
class ScriptedDevice : public SimulatedDevice {
  public:
    std::set<std::string> refuseBeforePlan, refuseAfterPlan, fail, zeroOutput;
    std::atomic<bool>* cancelAfterFirst = nullptr;
    unsigned threads = 1;
    std::atomic<int> runs{0};

    unsigned workers() const override { return threads; }
    std::string unsupported(const Variant& v, const ProbeMethod&) const override {
        return refuseBeforePlan.count(v.spec) ? "no kernel for " + v.spec : "";
    }
    DeviceRun run(const Variant& v, const ProbeMethod& method, const PlannedProbe& plan,
                  std::vector<std::uint32_t>& raw) override {
        ++runs;
        if (cancelAfterFirst)
            cancelAfterFirst->store(true);
        if (refuseAfterPlan.count(v.spec))
            return {DeviceRun::Outcome::Unsupported, "kernel out of date", {}, 0.0};
        if (fail.count(v.spec)) {
            DeviceRun r{DeviceRun::Outcome::Failed, "", {}, 0.0};
            r.failure.verdict = Verdict::Fail;
            r.failure.reason = "illegal instruction";
            return r;
        }
        DeviceRun r = SimulatedDevice::run(v, method, plan, raw);
        if (zeroOutput.count(v.spec))
            std::fill(raw.begin(), raw.end(), 0u);
        return r;
    }
};

} // namespace

TEST(ProbePipeline, EveryFamilyHasAMethodAndEachMethodProbesItsFamilies) {
    // wmma's method discovers the layout no document states (discover.hpp) and plugs in like the others;
    // tcgen05 (sm_100a) is one method for its three families (test_tcgen05_probe.cpp).
    const std::map<std::string_view, std::string_view> methodOf = {
        {"mma", "one-hot"},
        {"mma.sp", "one-hot"},
        {"wgmma", "class-coded"},
        {"wgmma.sp", "class-coded"},
        {"ldmatrix", "tagged-tile"},
        {"stmatrix", "tagged-tile"},
        {"movmatrix", "tagged-tile"},
        {"wmma", "discovery"},
        {"tcgen05.ld", "tensor-memory"},
        {"tcgen05.st", "tensor-memory"},
        {"tcgen05.mma", "tensor-memory"},
        {"cp.async.bulk.tensor", "tma-box"},
    };
    for (const Variant* v : Catalog::instance().variants()) {
        const ProbeMethod* method = probeMethodOf(*v);
        ASSERT_NE(method, nullptr) << v->spec;
        ASSERT_TRUE(methodOf.count(v->family->name)) << v->spec;
        EXPECT_EQ(method->name(), methodOf.at(v->family->name)) << v->spec;
    }
}

// The method rows (gpu/src/methods/method_rows.hpp) are the one place that says which method probes a
// variant: every catalog variant of every family resolves to exactly one row, every row probes some variant,
// and a variant of no row's family has no probe method and says so.
TEST(ProbePipeline, EveryCatalogVariantResolvesToExactlyOneMethodRow) {
    std::map<std::string_view, int> probed; // variants per row
    std::set<const Family*> families;
    for (const Variant* v : Catalog::instance().variants()) {
        std::vector<std::string_view> rows;
        for (const ProbeMethod* method : probeMethods())
            if (method->probes(*v))
                rows.push_back(method->name());
        ASSERT_EQ(rows.size(), 1u) << v->spec << " is probed by " << rows.size() << " method rows";
        ASSERT_EQ(probeMethodOf(*v)->name(), rows.front()) << v->spec;
        ++probed[rows.front()];
        families.insert(v->family);
    }
    // mma, mma.sp, wgmma, wgmma.sp, the three moves, wmma, tcgen05 ld/st/mma, cp.async.bulk.tensor
    EXPECT_EQ(families.size(), 12u);
    // Distinct names, none idle but the two tile rows, which probe tiles of atoms (interpretTileOn), no
    // catalog variant.
    const std::set<std::string_view> tileRows = {"tiled-mma", "tiled-wgmma"};
    EXPECT_EQ(probed.size() + tileRows.size(), probeMethods().size());
    for (const ProbeMethod* method : probeMethods())
        if (!tileRows.contains(method->name())) {
            EXPECT_GT(probed[method->name()], 0) << method->name();
        }
    for (std::string_view row : tileRows) {
        EXPECT_NE(probeMethodNamed(row), nullptr) << row;
        EXPECT_EQ(probed.count(row), 0u) << row;
    }

    Variant orphan = variant("mma.m16n8k16.f16");
    const Family stray{.name = "stray"}; // no row lists it
    orphan.family = &stray;
    EXPECT_EQ(probeMethodOf(orphan), nullptr);
    SimulatedDevice device;
    const ProbeResult r = probeOn(device, orphan);
    EXPECT_EQ(r.spec, orphan.spec);
    EXPECT_EQ(r.verdict, Verdict::Unsupported);
    EXPECT_EQ(r.reason, "no probe method for the stray family");
    EXPECT_EQ(r.experiments, 0);
}

TEST(ProbePipeline, TheSimulatorPassesOneVariantOfEveryFamilyThroughTheSameDriver) {
    SimulatedDevice device;
    std::vector<std::pair<std::size_t, std::string>> calls;
    const std::vector<const Variant*> variants = oneOfEachFamily();
    const ProbeReport report =
        probeMany(device, variants, [&](std::size_t done, std::size_t total, const std::string& spec) {
            EXPECT_EQ(total, variants.size());
            calls.emplace_back(done, spec);
        });
    ASSERT_EQ(report.results.size(), variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const ProbeResult& r = report.results[i];
        EXPECT_EQ(r.spec, variants[i]->spec);
        EXPECT_EQ(r.verdict, Verdict::Pass) << r.spec;
        const auto plan = probeMethodOf(*variants[i])->plan(Catalog::instance().instruction(*variants[i]));
        EXPECT_EQ(r.experiments, plan->experiments()) << r.spec;
        EXPECT_GT(r.cellsChecked, 0) << r.spec;
        EXPECT_FALSE(r.findings.empty()) << r.spec;
    }
    ASSERT_EQ(calls.size(), variants.size());
    for (std::size_t i = 0; i < calls.size(); ++i)
        EXPECT_EQ(calls[i].first, i + 1);
    EXPECT_FALSE(report.date.empty());
    EXPECT_EQ(report.device.name, device.info().name);
}

TEST(ProbePipeline, ADeviceThatDisagreesFailsTheVariant) {
    ScriptedDevice device;
    device.zeroOutput = {"mma.m16n8k16.f16", "wgmma.m64n8k16.f16"};
    for (const char* spec : {"mma.m16n8k16.f16", "wgmma.m64n8k16.f16"}) {
        const ProbeResult r = probeOn(device, variant(spec));
        EXPECT_EQ(r.verdict, Verdict::Fail) << spec;
        EXPECT_GT(r.cellsMismatched, 0) << spec;
    }
}

TEST(ProbePipeline, UnsupportedAndFailedRunsSayWhyWithoutInterpreting) {
    ScriptedDevice device;
    device.refuseBeforePlan = {"mma.m16n8k16.f16"};
    device.refuseAfterPlan = {"mma.sp.m16n8k16.f16"};
    device.fail = {"wgmma.m64n8k16.f16"};
    const ProbeReport report = probeMany(device, oneOfEachFamily());
    ASSERT_EQ(report.results.size(), 4u);
    EXPECT_EQ(report.results[0].verdict, Verdict::Unsupported);
    EXPECT_EQ(report.results[0].reason, "no kernel for mma.m16n8k16.f16");
    EXPECT_EQ(report.results[0].experiments, 0);
    EXPECT_EQ(report.results[1].verdict, Verdict::Unsupported);
    EXPECT_EQ(report.results[1].reason, "kernel out of date");
    EXPECT_EQ(report.results[1].cellsChecked, 0);
    EXPECT_EQ(report.results[2].verdict, Verdict::Fail);
    EXPECT_EQ(report.results[2].reason, "illegal instruction");
    EXPECT_EQ(report.results[2].spec, "wgmma.m64n8k16.f16");
    EXPECT_GT(report.results[2].experiments, 0); // the plan was made and sent
    EXPECT_EQ(report.results[2].cellsChecked, 0);
    EXPECT_EQ(report.results[3].verdict, Verdict::Pass);
    EXPECT_EQ(device.runs.load(), 3); // the variant refused before planning never reached the device
}

TEST(ProbePipeline, AnAbsentDeviceAnswersEveryVariantWithItsReason) {
    AbsentDevice device("GPU unavailable: no CUDA device");
    int calls = 0;
    const ProbeReport report =
        probeMany(device, oneOfEachFamily(), [&](std::size_t, std::size_t, const std::string&) { ++calls; });
    ASSERT_EQ(report.results.size(), 4u);
    for (const ProbeResult& r : report.results) {
        EXPECT_EQ(r.verdict, Verdict::Unsupported);
        EXPECT_EQ(r.reason, "GPU unavailable: no CUDA device");
    }
    EXPECT_EQ(calls, 4);
}

TEST(ProbePipeline, CancelStopsHandingOutVariantsAndKeepsThoseThatFinished) {
    ScriptedDevice device;
    std::atomic<bool> cancel{false};
    device.cancelAfterFirst = &cancel;
    const ProbeReport report = probeMany(device, oneOfEachFamily(), {}, &cancel);
    ASSERT_EQ(report.results.size(), 1u);
    EXPECT_EQ(report.results[0].spec, "mma.m16n8k16.f16");
    EXPECT_EQ(report.results[0].verdict, Verdict::Pass);
}

TEST(ProbePipeline, WorkerThreadsKeepTheOrderOfTheVariants) {
    ScriptedDevice device;
    device.threads = 4;
    std::vector<const Variant*> variants = oneOfEachFamily();
    variants.push_back(&variant("mma.m16n8k8.tf32"));
    variants.push_back(&variant("mma.m8n8k4.row.col.f16"));
    std::mutex m;
    std::vector<std::size_t> done;
    const ProbeReport report =
        probeMany(device, variants, [&](std::size_t d, std::size_t, const std::string&) {
            const std::lock_guard<std::mutex> lock(m);
            done.push_back(d);
        });
    ASSERT_EQ(report.results.size(), variants.size());
    for (std::size_t i = 0; i < variants.size(); ++i) {
        EXPECT_EQ(report.results[i].spec, variants[i]->spec);
        EXPECT_EQ(report.results[i].verdict, Verdict::Pass) << variants[i]->spec;
    }
    EXPECT_EQ(done, (std::vector<std::size_t>{1, 2, 3, 4, 5, 6})); // one call at a time, counted in order
}

// Forms are structured; the PTX the kernels switch on is rendered from them and must be the catalog's, for
// every variant: the canonical string first, then every alias once, each a distinct form.
TEST(ProbePipeline, EveryVariantsFormsRenderExactlyItsCatalogPtx) {
    for (const Variant* v : Catalog::instance().variants()) {
        if (v->family->name == "wmma")
            continue; // discovered, not probed (discover.hpp)
        const Instruction& in = Catalog::instance().instruction(*v);
        std::vector<std::string> ptx;
        std::vector<lanemap::Form> distinct;
        for (const ProbeForm& f : probeMethodOf(*v)->forms(in)) {
            if (std::find(ptx.begin(), ptx.end(), f.ptx) != ptx.end())
                continue;
            ptx.push_back(f.ptx);
            EXPECT_EQ(std::find(distinct.begin(), distinct.end(), f.instruction), distinct.end())
                << v->spec << ": two PTX strings with one form: " << f.ptx;
            distinct.push_back(f.instruction);
        }
        std::vector<std::string> want;
        for (const lanemap::Form& f : v->forms)
            want.push_back(ptxOf(*v, f));
        EXPECT_EQ(ptx, want) << v->spec;
    }
}

} // namespace test_pipeline
