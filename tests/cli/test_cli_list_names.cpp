// `lanemap-cli list` prints names written at build time (app/cli/catalog_names.hpp) instead of registering
// the catalog: they must be the catalog's, in its order, or `list` would offer specs that `show` refuses.
#include "catalog_names.hpp"
#include "cli_run.hpp"

#include "lanemap/catalog.hpp"

#include <gtest/gtest.h>

#include <string>

namespace test_cli_list_names {

namespace {

TEST(CliListNames, AreTheCatalogsVariantsInCatalogOrder) {
    const auto& variants = lanemap::Catalog::instance().variants();
    const auto listed = lanemap::cli::listedVariants();
    ASSERT_EQ(listed.size(), variants.size());
    for (std::size_t i = 0; i < listed.size(); ++i) {
        EXPECT_EQ(lanemap::cli::listedSpec(listed[i]), variants[i]->spec) << i;
        EXPECT_EQ(lanemap::cli::listedFamily(listed[i]), variants[i]->family->name) << variants[i]->spec;
        EXPECT_EQ(listed[i].minSm, variants[i]->minSm) << variants[i]->spec;
    }
}

TEST(CliListNames, ListPrintsEverySpecWithItsMinimumSmAndFiltersAsBefore) {
    std::string expected, expectedSp80;
    for (const lanemap::Variant* v : lanemap::Catalog::instance().variants()) {
        const std::string line = v->spec + "\tsm_" + std::to_string(v->minSm) + "\n";
        expected += line;
        if (v->family->name == "mma.sp" && v->minSm <= 80)
            expectedSp80 += line;
    }
    const lanemap::test::CliResult all = lanemap::test::runCli({"list"});
    EXPECT_EQ(all.code, 0);
    EXPECT_EQ(all.out, expected);
    const lanemap::test::CliResult sp = lanemap::test::runCli({"list", "--family", "mma.sp", "--sm", "80"});
    EXPECT_EQ(sp.code, 0);
    EXPECT_EQ(sp.out, expectedSp80);
    EXPECT_FALSE(expectedSp80.empty());
}

} // namespace

} // namespace test_cli_list_names
