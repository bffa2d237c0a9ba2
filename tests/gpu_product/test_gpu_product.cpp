// The GPU product check as tests: which variants it covers (no device needed), and on a Hopper GPU that every
// case (mma, mma.sp, wmma, wgmma, wgmma.sp) reproduces the host's product and both negative controls fail.
// Without a usable device the GPU test skips, printing why.
#include "lanemap/catalog.hpp"
#include "product_case.hpp"
#include "product_check.hpp"
#include "product_scope.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace {

using namespace lanemap;

TEST(GpuProductCoverage, EveryHopperMmaVariantAndSelectorHasAKernel) {
    std::map<std::string, std::set<int>> covered;
    int controls = 0;
    for (const product::Case& c : product::mmaCases()) {
        if (c.control) {
            ++controls;
            continue;
        }
        EXPECT_TRUE(covered[c.spec].insert(c.selector).second)
            << c.spec << " selector " << c.selector << " twice";
    }
    EXPECT_EQ(controls, 1);
    int expected = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!product::inScope(*v))
            continue;
        const Instruction& in = Catalog::instance().instruction(*v);
        std::set<int> selectors;
        if (in.metadata)
            for (const MetadataSelector& s : in.metadata->selectors)
                selectors.insert(s.value);
        else
            selectors.insert(-1);
        expected += static_cast<int>(selectors.size());
        EXPECT_EQ(covered[v->spec], selectors) << v->spec;
    }
    EXPECT_EQ(static_cast<int>(product::mmaCases().size()), expected + 1);
    // mma.m16n8k16.f16, mma.m8n8k4 (quad pairs), mma.sp (selectors) and ::ordered_metadata are all there.
    EXPECT_TRUE(covered.count("mma.m16n8k16.f16"));
    EXPECT_TRUE(covered.count("mma.m8n8k4.row.col.f16"));
    EXPECT_TRUE(covered.count("mma.sp::ordered_metadata.m16n8k32.s8"));
    EXPECT_GT(expected, 80);
}

TEST(GpuProductCoverage, EveryWgmmaTypeSelectorAndASourceHasAKernel) {
    // wgmma / wgmma.sp: every variant in scope (every type and accumulator at the N of kWgmmaProductN), every
    // sparsity selector, A from registers and from shared memory.
    std::map<std::string, std::set<std::pair<int, bool>>> covered;
    int controls = 0;
    for (const product::Case& c : product::wgmmaCases()) {
        if (c.control) {
            ++controls;
            EXPECT_FALSE(c.aShared) << "the wgmma control rotates A's registers";
            continue;
        }
        EXPECT_TRUE(covered[c.spec].insert({c.selector, c.aShared}).second)
            << c.spec << " selector " << c.selector << " twice";
    }
    EXPECT_EQ(controls, 1);
    std::size_t expected = 0;
    std::set<std::string> types, sparseTypes;
    std::set<int> ns;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!product::inWgmmaScope(*v)) {
            EXPECT_EQ(covered.count(v->spec), 0u) << v->spec;
            continue;
        }
        const Instruction& in = Catalog::instance().instruction(*v);
        std::set<std::pair<int, bool>> want;
        for (const bool aShared : {false, true})
            if (in.metadata)
                for (const MetadataSelector& s : in.metadata->selectors)
                    want.insert({s.value, aShared});
            else
                want.insert({-1, aShared});
        EXPECT_EQ(covered[v->spec], want) << v->spec;
        expected += want.size();
        // The spec without its shape: every type and accumulator combination of both families.
        const std::string shape = "m64n" + std::to_string(v->n) + "k" + std::to_string(v->k);
        std::string kind = v->spec;
        kind.erase(kind.find(shape), shape.size());
        (in.metadata ? sparseTypes : types).insert(kind);
        ns.insert(v->n);
    }
    EXPECT_EQ(product::wgmmaCases().size(), expected + 1);
    EXPECT_EQ(types.size(), 11u)
        << "f16 (f32 and f16 D), bf16, tf32, e4m3 / e5m2 (f32 and f16 D), s8, u8, b1";
    EXPECT_EQ(sparseTypes.size(), 10u) << "as dense without b1";
    EXPECT_EQ(ns, std::set<int>(product::kWgmmaProductN.begin(), product::kWgmmaProductN.end()));
}

TEST(GpuProduct, EveryCaseReproducesTheHostProduct) {
    if (const std::string why = product::deviceProblem(); !why.empty())
        GTEST_SKIP() << why;
    const product::Run run = product::runAll();
    ASSERT_EQ(run.results.size(), product::cases().size());
    ASSERT_FALSE(run.results.empty());
    int controls = 0;
    for (const product::CaseResult& r : run.results) {
        EXPECT_GT(r.cells, 0) << r.spec;
        if (r.control) {
            // A wrong header must be caught: the check is not vacuous.
            ++controls;
            EXPECT_TRUE(r.error.empty()) << r.error;
            EXPECT_GT(r.mismatches, 0) << r.spec << " reproduced the product with a wrong layout";
            continue;
        }
        EXPECT_TRUE(r.pass()) << r.spec << " selector " << r.selector
                              << (r.aShared ? " A from shared memory" : "") << ": " << r.mismatches
                              << " cells differ (" << r.firstMismatch << ") " << r.error;
    }
    EXPECT_EQ(controls, 2);
}

} // namespace
