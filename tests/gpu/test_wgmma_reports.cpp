// The recorded wgmma probe reports (resources/probe/h100-wgmma*.json, untouched output of `lanemap-cli probe
// --all
// --family wgmma|wgmma.sp --json`): they must stay readable, and cover every wgmma variant the catalog has,
// so users without a GPU see when and where each layout was confirmed.
#include "lanemap/catalog.hpp"
#include "lanemap/probe_report.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace test_wgmma_reports {

using namespace lanemap;

namespace {

ProbeReport readReport(const std::string& name) {
    const std::filesystem::path path =
        std::filesystem::path(__FILE__).parent_path() / ".." / ".." / "resources" / "probe" / name;
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    ProbeReport report;
    std::string error;
    if (!parseProbeReport(text.str(), report, error))
        throw std::runtime_error(path.string() + ": " + error);
    return report;
}

TEST(WgmmaProbeReports, TheH100RunsCoverAndPassEveryWgmmaVariantOfTheCatalog) {
    for (const auto& [file, family] : {std::pair{"h100-wgmma.json", familyNamed("wgmma")},
                                       std::pair{"h100-wgmma-sp.json", familyNamed("wgmma.sp")}}) {
        const ProbeReport report = readReport(file);
        EXPECT_EQ(report.device.name, "NVIDIA H100 80GB HBM3") << file;
        EXPECT_EQ(report.device.sm, 90) << file;
        int variants = 0;
        for (const Variant* v : Catalog::instance().variants()) {
            if (v->family != family)
                continue;
            ++variants;
            const ProbeResult* r = report.result(v->spec);
            ASSERT_NE(r, nullptr) << file << " has no result for " << v->spec;
            EXPECT_EQ(r->verdict, Verdict::Pass) << v->spec;
            EXPECT_EQ(r->cellsMismatched, 0) << v->spec;
            EXPECT_GT(r->cellsChecked, 0) << v->spec;
        }
        EXPECT_EQ(static_cast<std::size_t>(variants), report.results.size()) << file;
    }
}

} // namespace

} // namespace test_wgmma_reports
