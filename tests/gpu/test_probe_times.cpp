// `probe --timing`: the driver adds each variant's phases to the process-wide probe times, so a user sees
// where a run went (planning, the device, waiting for it, interpretation). Driven by the CPU simulator as the
// device.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace test_probe_times {

using namespace lanemap;
using namespace lanemap::gpu;

namespace {

// The simulator with a device that refuses one spec before planning (as a GPU without the SM does).
class RefusingDevice : public SimulatedDevice {
  public:
    unsigned workers() const override { return 2; }
    std::string unsupported(const Variant& v, const ProbeMethod&) const override {
        return v.spec == "mma.m16n8k8.f16" ? "needs another SM" : "";
    }
};

TEST(ProbeTimes, EveryProbedVariantAddsItsPlanDeviceAndInterpretTime) {
    const Catalog& catalog = Catalog::instance();
    const std::vector<const Variant*> variants{catalog.variant("mma.m16n8k16.f16"),
                                               catalog.variant("wgmma.m64n8k16.f16"),
                                               catalog.variant("mma.m16n8k8.f16")};
    for (const Variant* v : variants)
        ASSERT_NE(v, nullptr);
    const ProbeTimes before = probeTimes();
    RefusingDevice device;
    const ProbeReport report = probeMany(device, variants);
    ASSERT_EQ(report.results.size(), 3u);
    EXPECT_EQ(report.results[0].verdict, Verdict::Pass);
    EXPECT_EQ(report.results[2].verdict, Verdict::Unsupported);

    const ProbeTimes after = probeTimes();
    EXPECT_EQ(after.variants - before.variants, 2u) << "the refused variant is never planned or run";
    EXPECT_GT(after.plan, before.plan);
    EXPECT_GT(after.device, before.device) << "the simulator's run is the device's time";
    EXPECT_GT(after.interpret, before.interpret);
    EXPECT_GE(after.waiting, before.waiting);
    EXPECT_EQ(after.context, before.context) << "no CUDA context is made for the simulator";
    // The phases are what the per-variant seconds are made of.
    const double perVariant = report.results[0].seconds + report.results[1].seconds;
    const double phases =
        (after.plan - before.plan) + (after.device - before.device) + (after.interpret - before.interpret);
    EXPECT_NEAR(phases, perVariant, 1e-3);
}

} // namespace

} // namespace test_probe_times
