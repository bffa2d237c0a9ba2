// wmma discovery end to end: on a simulated device whose fragments are the recorded H100 report (runs
// everywhere), with a device that scrambles or miscomputes (rejected), and on the real GPU, which must
// rediscover every form exactly as recorded.

#include "lanemap/catalog.hpp"
#include "lanemap/gpu/discover.hpp"
#include "lanemap/wmma.hpp"

#include <gtest/gtest.h>

using namespace lanemap;

namespace {
std::vector<const Variant*> wmmaVariants() {
    std::vector<const Variant*> out;
    for (const Variant* v : Catalog::instance().variants())
        if (v->family == Family::Wmma)
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

// A device whose mma is one off in one element of D.
class MiscomputingDevice : public gpu::SimulatedWmmaDevice {
  public:
    using SimulatedWmmaDevice::SimulatedWmmaDevice;
    std::string mma(const Variant& v, std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
                    std::span<const std::uint32_t> c, std::vector<std::uint32_t>& d) override {
        std::string why = SimulatedWmmaDevice::mma(v, a, b, c, d);
        if (why.empty() && v.ctype == ElementType::S32)
            d[7] += 1;
        return why;
    }
};
} // namespace

TEST(WmmaDiscover, ASimulatedDeviceWithTheRecordedLayoutsIsRediscoveredExactly) {
    gpu::SimulatedWmmaDevice device(recordedH100());
    const wmma::DiscoveryReport got = gpu::discoverWmma(device, wmma::fragmentForms(), wmmaVariants());
    EXPECT_TRUE(got.failures.empty()) << got.failures.front();
    expectSame(got, recordedH100());
    EXPECT_EQ(got.sassTarget, "sm_90");
    for (const wmma::DiscoveryCheck& c : got.checks)
        ASSERT_TRUE(c.store == Verdict::Pass && c.mma == Verdict::Pass) << c.spec << ": " << c.detail;
}

TEST(WmmaDiscover, AScrambledDeviceDiscoversNothing) {
    gpu::SimulatedWmmaDevice device(recordedH100());
    device.scramble = true;
    const std::vector<wmma::FragmentForm> forms{*wmma::formOfKey("m16n16k16.a.row.f16"),
                                                *wmma::formOfKey("m8n8k4.c.row.f64")};
    const wmma::DiscoveryReport got =
        gpu::discoverWmma(device, forms, {Catalog::instance().variant("wmma.m16n16k16.row.col.f16.f32")});
    EXPECT_TRUE(got.fragments.empty());
    ASSERT_EQ(got.failures.size(), 2u);
    EXPECT_NE(got.failures[0].find("m16n16k16.a.row.f16"), std::string::npos);
    ASSERT_EQ(got.checks.size(), 1u);
    EXPECT_EQ(got.checks[0].mma, Verdict::Unsupported);
    EXPECT_NE(got.checks[0].detail.find("not discovered"), std::string::npos);
}

TEST(WmmaDiscover, AProductThatDisagreesFailsTheMmaCheck) {
    MiscomputingDevice device(recordedH100());
    const Variant* v = Catalog::instance().variant("wmma.m16n16k16.row.col.s8.s32");
    ASSERT_TRUE(v);
    std::vector<wmma::FragmentForm> forms;
    for (const Operand op : {Operand::A, Operand::B, Operand::C})
        forms.push_back(*wmma::formOf(*v, op));
    const wmma::DiscoveryReport got = gpu::discoverWmma(device, forms, {v});
    ASSERT_EQ(got.checks.size(), 1u);
    EXPECT_EQ(got.checks[0].store, Verdict::Pass);
    EXPECT_EQ(got.checks[0].mma, Verdict::Fail);
    EXPECT_NE(got.checks[0].detail.find("the CPU product says"), std::string::npos) << got.checks[0].detail;
}

TEST(WmmaDiscoverDevice, TheGpuRediscoversEveryFormAsRecorded) {
    std::string why;
    const std::unique_ptr<gpu::WmmaDevice> device = gpu::openWmmaDevice(why);
    if (!device)
        GTEST_SKIP() << "no GPU to discover on: " << why;
    const wmma::RecordedDiscovery* recorded = wmma::recordedFor(device->sassTarget());
    if (!recorded)
        GTEST_SKIP() << "no recorded report for " << device->sassTarget()
                     << " to compare with (lanemap-cli discover --family wmma --json records one)";
    const wmma::DiscoveryReport got = gpu::discoverWmma(*device, wmma::fragmentForms(), wmmaVariants());
    EXPECT_TRUE(got.failures.empty()) << got.failures.front();
    ASSERT_EQ(got.fragments.size(), wmma::fragmentForms().size()) << "every form must be discovered";
    expectSame(got, recorded->report);
}
