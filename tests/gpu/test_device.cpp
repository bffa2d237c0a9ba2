// The probe as built: its kernel table against the catalog (CUDA builds), and the real probe where a GPU
// exists. Without a GPU these tests skip and say why; with one, they must probe every runnable variant and
// see it pass.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/experiments.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/matrix_move.hpp"

#ifdef LANEMAP_HAVE_CUDA
#include "methods/one_hot/kernels.hpp"
#endif

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace test_device {

using namespace lanemap;

namespace {

// Variants whose instructions ptxas 13.0 assembles for sm_90a (docs/reference/ptx-facts.md: H100 = Yes). Used
// only where the build has kernels.
[[maybe_unused]] bool runsOnSm90a(const Variant& v) {
    // wmma is discovered (gpu/src/methods/discovery/kernels.cu), not probed: no one-hot kernel.
    return v.minSm <= 90 && v.kind == Kind::None && v.family->name != "wgmma" &&
           v.family->name != "wgmma.sp" && v.family->name != "wmma";
}

TEST(ProbeBuild, KernelTableCoversEveryVariantThatRunsOnSm90aWithTheCatalogsForms) {
    if (!gpu::builtWithCuda())
        GTEST_SKIP() << "built without CUDA (nvcc was not found at configure time): no kernels";
#ifdef LANEMAP_HAVE_CUDA
    int covered = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        // This is the one-hot method's table: the other methods have their own (matrix moves:
        // test_ldmatrix_probe.cpp; cp.async.bulk.tensor: one kernel per rank, methods/tma_box).
        const gpu::ProbeMethod* method = gpu::probeMethodOf(*v);
        if (!runsOnSm90a(*v) || matrixMoveOf(*v) || !method || method->name() != "one-hot")
            continue;
        const gpu::kernels::Entry* entry = gpu::kernels::find(v->ptx);
        ASSERT_NE(entry, nullptr) << "no probe kernel for " << v->spec << " (" << v->ptx << ")";
        const Instruction& in = Catalog::instance().instruction(*v);
        const std::vector<gpu::ProbeForm> forms = gpu::formsOf(in);
        ASSERT_EQ(entry->forms.size(), forms.size()) << v->spec;
        for (std::size_t i = 0; i < forms.size(); ++i) {
            EXPECT_EQ(std::string(entry->forms[i].ptx), forms[i].ptx) << v->spec;
            EXPECT_EQ(entry->forms[i].selector, forms[i].selector) << v->spec;
        }
        const gpu::RegisterWords w = gpu::registerWords(in);
        EXPECT_EQ(entry->words.a, w.a) << v->spec;
        EXPECT_EQ(entry->words.b, w.b) << v->spec;
        EXPECT_EQ(entry->words.c, w.c) << v->spec;
        EXPECT_EQ(entry->words.d, w.d) << v->spec;
        EXPECT_EQ(entry->words.e, w.e) << v->spec;
        EXPECT_LE(entry->minArch, v->minSm * 10 < 750 ? 750 : v->minSm * 10) << v->spec;
        ++covered;
    }
    EXPECT_GE(covered, 47);
    EXPECT_EQ(gpu::kernels::all().size(), static_cast<std::size_t>(covered))
        << "a kernel for no catalog variant";
#endif
}

TEST(ProbeDevice, WithoutAGpuEveryVariantSaysWhyItWasNotProbed) {
    const gpu::Availability a = gpu::discover();
    if (a.available)
        GTEST_SKIP() << "a GPU is present (" << a.device.name << "): covered by EveryRunnableVariantPasses";
    EXPECT_FALSE(a.reason.empty());
    const Variant* v = Catalog::instance().variant("mma.m16n8k16.f16");
    ASSERT_NE(v, nullptr);
    const ProbeResult r = gpu::probe(*v);
    EXPECT_EQ(r.verdict, Verdict::Unsupported);
    EXPECT_NE(r.reason.find(gpu::builtWithCuda() ? "GPU unavailable" : "built without CUDA"),
              std::string::npos)
        << r.reason;
    EXPECT_EQ(r.cellsChecked, 0);
}

TEST(ProbeDevice, EveryRunnableVariantPassesOnTheGpu) {
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU: " << a.reason;
    std::vector<const Variant*> variants;
    for (const Variant* v : Catalog::instance().variants())
        if (v->family->name == "mma" || v->family->name == "mma.sp")
            variants.push_back(v);
    const ProbeReport report = gpu::probeAll(variants);
    ASSERT_EQ(report.results.size(), variants.size());
    EXPECT_EQ(report.device.sm, a.device.sm);
    int passed = 0;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const ProbeResult& r = report.results[i];
        if (r.verdict == Verdict::Unsupported) {
            // Only what the device cannot run may be skipped.
            EXPECT_GT(variants[i]->minSm, a.device.sm) << r.spec << ": " << r.reason;
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

} // namespace test_device
