// The GPU product check as tests: which variants it covers (no device needed), and on a Hopper GPU that every
// case reproduces the host's product. Without a usable device the GPU test skips, printing why.
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
    for (const product::Case& c : product::cases()) {
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
    EXPECT_EQ(static_cast<int>(product::cases().size()), expected + controls);
    // mma.m16n8k16.f16, mma.m8n8k4 (quad pairs), mma.sp (selectors) and ::ordered_metadata are all there.
    EXPECT_TRUE(covered.count("mma.m16n8k16.f16"));
    EXPECT_TRUE(covered.count("mma.m8n8k4.row.col.f16"));
    EXPECT_TRUE(covered.count("mma.sp::ordered_metadata.m16n8k32.s8"));
    EXPECT_GT(expected, 80);
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
        EXPECT_TRUE(r.pass()) << r.spec << " selector " << r.selector << ": " << r.mismatches
                              << " cells differ (" << r.firstMismatch << ") " << r.error;
    }
    EXPECT_EQ(controls, 1);
}

} // namespace
