// The wgmma probe as built: its kernel table against the catalog (CUDA builds), and the real probe where an
// sm_90 GPU exists. Without one these tests skip and say why; with one, every wgmma variant must be probed
// and pass.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/gpu/wgmma.hpp"

#ifdef LANEMAP_HAVE_CUDA
#include "methods/class_coded/kernels.hpp"
#endif

#include <gtest/gtest.h>

#include <string>

namespace test_wgmma_device {

using namespace lanemap;

namespace {

bool isWgmma(const Variant& v) {
    return v.family->name == "wgmma" || v.family->name == "wgmma.sp";
}

TEST(WgmmaProbeBuild, EveryKernelRunsEverySetupOfItsVariantWithTheCatalogsRegisters) {
    if (!gpu::builtWithCuda())
        GTEST_SKIP() << "built without CUDA (nvcc was not found at configure time): no kernels";
#ifdef LANEMAP_HAVE_CUDA
    int covered = 0, variants = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!isWgmma(*v))
            continue;
        ++variants;
        const gpu::wgkernels::Entry* entry = gpu::wgkernels::find(v->ptx);
        if (!entry)
            continue; // LANEMAP_WGMMA_ALL_N=OFF builds a subset; counted below
        const Instruction& in = Catalog::instance().instruction(*v);
        const gpu::wg::Plan plan = gpu::wg::planProbe(in);
        EXPECT_EQ(entry->n, v->n) << v->spec;
        EXPECT_EQ(entry->dWords, plan.dWords) << v->spec;
        for (const gpu::wg::Setup& s : plan.setups) {
            const gpu::ProbeForm& f = plan.forms[s.form];
            bool found = false;
            for (const gpu::wgkernels::Form& k : entry->forms)
                found =
                    found || (f.ptx == k.ptx && k.aShared == (s.a == gpu::wg::ASource::SharedMemory) &&
                              k.transA == s.transA() && k.transB == s.transB() && k.selector == f.selector);
            EXPECT_TRUE(found) << v->spec << ": no kernel form for " << s.label;
        }
        // Dynamic shared memory stays within what an sm_90 block may take (227 KB).
        EXPECT_LE(plan.smemBytes, 227u * 1024u) << v->spec;
        ++covered;
    }
    EXPECT_EQ(variants, 602);
    EXPECT_EQ(gpu::wgkernels::all().size(), static_cast<std::size_t>(covered))
        << "a kernel for no catalog variant";
    if (gpu::wgkernels::everyN())
        EXPECT_EQ(covered, variants);
    else
        EXPECT_EQ(covered, 6 * 21)
            << "the subset has N = 8, 16, 24, 64, 128, 256 of each of the 21 type rows";
#endif
}

TEST(WgmmaProbeDevice, EveryWgmmaVariantPassesOnAnSm90Gpu) {
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU: " << a.reason;
    std::vector<const Variant*> variants;
    for (const Variant* v : Catalog::instance().variants())
        if (isWgmma(*v))
            variants.push_back(v);
    const ProbeReport report = gpu::probeAll(variants);
    ASSERT_EQ(report.results.size(), variants.size());
    if (a.device.sm != 90) {
        // wgmma is sm_90a only: every variant must say so, none may pass or fail.
        for (const ProbeResult& r : report.results) {
            EXPECT_EQ(r.verdict, Verdict::Unsupported) << r.spec;
            EXPECT_NE(r.reason.find("sm_90a"), std::string::npos) << r.spec << ": " << r.reason;
        }
        GTEST_SKIP() << a.device.name << " is sm_" << a.device.sm << ": wgmma runs only on sm_90a";
    }
    int passed = 0;
    for (const ProbeResult& r : report.results) {
        if (r.verdict == Verdict::Unsupported) {
            // Only variants this build left out (LANEMAP_WGMMA_ALL_N=OFF) may be skipped.
            EXPECT_NE(r.reason.find("no wgmma probe kernel"), std::string::npos)
                << r.spec << ": " << r.reason;
            continue;
        }
        EXPECT_EQ(r.verdict, Verdict::Pass)
            << r.spec << ": " << r.reason
            << (r.mismatches.empty() ? "" : " first mismatch: " + r.mismatches[0].observed);
        EXPECT_GT(r.cellsChecked, 0) << r.spec;
        passed += r.verdict == Verdict::Pass;
    }
    EXPECT_GT(passed, 0) << "nothing was probed on " << a.device.name;
}

} // namespace

} // namespace test_wgmma_device
