// lanemap-cli with wmma: list, show (and --target), export, discover's usage errors and --validate of a
// contributed report (exit 2 on every malformed or inconsistent report, never a crash).

#include "cli_run.hpp"
#include "lanemap/wmma.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace test_cli_wmma {

using lanemap::test::freshTempDir;
using lanemap::test::runCli;

namespace {
std::string recordedReport() {
    std::ifstream in(std::string(LANEMAP_SOURCE_DIR) + "/resources/discovery/h100-wmma.json");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string writeTemp(const std::string& name, const std::string& text) {
    const auto dir = freshTempDir("wmma-" + name);
    std::filesystem::create_directories(dir);
    const std::string path = (dir / name).string();
    std::ofstream(path) << text;
    return path;
}
} // namespace

TEST(CliWmma, ListsTheFamily) {
    const auto r = runCli({"list", "--family", "wmma"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("wmma.m16n16k16.row.col.f16.f32\tsm_70\tdiscovered sm_90"), std::string::npos);
    EXPECT_NE(r.out.find("wmma.m8n8k128.row.col.b1.s32\tsm_75"), std::string::npos);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 71);
    // A plain list (what shell completion reads) does not read the reports: no targets column.
    const auto all = runCli({"list"});
    EXPECT_NE(all.out.find("wmma.m16n16k16.row.col.f16.f32\tsm_70\n"), std::string::npos);
}

TEST(CliWmma, ShowSaysUnspecifiedObservedTargetAndDrawsBothHolders) {
    const auto r =
        runCli({"show", "wmma::fragment<matrix_a, 16, 16, 16, half, row_major>", "--target", "sm_90"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("leave the wmma fragment layout unspecified"), std::string::npos);
    EXPECT_NE(r.out.find("SASS sm_90"), std::string::npos);
    EXPECT_NE(r.out.find("other targets may differ"), std::string::npos);
    EXPECT_NE(r.out.find("T0:a0/T0:a8"), std::string::npos) << "a cell held twice shows both holders";
    EXPECT_NE(r.out.find("relation (computed from the placements): A = 1 x mma.m16n8k16.f16"),
              std::string::npos);
}

TEST(CliWmma, TargetWithoutAReportOrOnAnotherFamilyIsAUsageError) {
    auto r = runCli({"show", "wmma.m16n16k16.f16", "--target", "sm_80"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("recorded targets: sm_90"), std::string::npos) << r.err;
    r = runCli({"show", "mma.m16n8k16.f16", "--target", "sm_90"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("wmma only"), std::string::npos) << r.err;
}

TEST(CliWmma, ExportsSvgWithTheObservedTarget) {
    const auto r = runCli({"export", "wmma.m16n16k16.row.col.f16.f32", "--format", "svg", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("SASS sm_90"), std::string::npos);
    EXPECT_NE(r.out.find("unspecified"), std::string::npos);
}

TEST(CliWmma, DiscoverUsageErrors) {
    EXPECT_EQ(runCli({"discover"}).code, 2);
    EXPECT_EQ(runCli({"discover", "wmma.m16n16k16.f16", "--family", "wmma"}).code, 2);
    auto r = runCli({"discover", "--family", "mma"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--family takes wmma"), std::string::npos);
    r = runCli({"discover", "mma.m16n8k16.f16"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("documented layout"), std::string::npos);
    r = runCli({"discover", "--family", "wmma", "--expect", "/nonexistent/report.json"});
    EXPECT_EQ(r.code, 2);
}

TEST(CliWmma, ValidatesTheRecordedReport) {
    const auto r = runCli(
        {"discover", "--validate", std::string(LANEMAP_SOURCE_DIR) + "/resources/discovery/h100-wmma.json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("88 fragments, 71 checks, 0 failures"), std::string::npos) << r.out;
}

TEST(CliWmma, RejectsEveryMalformedOrInconsistentContribution) {
    const std::string good = recordedReport();
    ASSERT_FALSE(good.empty());
    struct Case {
        const char* name;
        std::function<std::string()> text;
        const char* says;
    };
    auto edited = [&](const std::function<void(nlohmann::ordered_json&)>& edit) {
        return [&good, edit] {
            auto doc = nlohmann::ordered_json::parse(good);
            edit(doc);
            return doc.dump();
        };
    };
    const std::vector<Case> cases{
        {"truncated", [&] { return good.substr(0, good.size() / 2); }, "not JSON"},
        {"empty", [] { return std::string(); }, "not JSON"},
        {"probe-report", [] { return std::string("{\"device\": {}, \"results\": []}"); },
         "not a lanemap discovery"},
        {"no-target", edited([](auto& d) { d.erase("sass_target"); }), "sass_target"},
        {"unknown-fragment", edited([](auto& d) { d["fragments"][3]["fragment"] = "m64n8k16.a.row.f16"; }),
         "unknown fragment"},
        {"short-lane", edited([](auto& d) { d["fragments"][0]["lanes"][5].erase(2); }), "lane 5 must list"},
        {"out-of-range", edited([](auto& d) { d["fragments"][0]["lanes"][0][0][1] = -1; }), "inside the"},
        {"uncovered", edited([](auto& d) {
             d["fragments"][4]["lanes"][0][0] = {1, 1};
         }),
         "inconsistent report"},
        {"summary", edited([](auto& d) { d["fragments"][0]["unique_cells"] = 255; }), "contradict the lanes"},
        {"verdict", edited([](auto& d) { d["checks"][0]["store"] = 1; }), "\"store\" must be a string"},
    };
    for (const Case& c : cases) {
        const auto r = runCli({"discover", "--validate", writeTemp(c.name, c.text())});
        EXPECT_EQ(r.code, 2) << c.name;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << c.name << ": " << r.err;
    }
    EXPECT_EQ(runCli({"discover", "--validate", "/"}).code, 2) << "a folder is no report";
}

// A contributed report of another target (a synthetic sm_89: the H100's with lane 0's and lane 1's x[0] of
// A swapped) in a discovery folder: list and show --target offer it, a broken file next to it is named and
// left out, and a target no report holds is a usage error naming the valid ones.
TEST(CliWmma, ContributedReportsInTheDiscoveryFolderAreListedAndShownPerTarget) {
    lanemap::wmma::DiscoveryReport report;
    std::string error;
    ASSERT_TRUE(lanemap::wmma::parseDiscoveryReport(recordedReport(), report, error)) << error;
    report.sassTarget = "sm_89";
    report.device.name = "NVIDIA L40 (synthetic)";
    report.device.sm = 89;
    for (lanemap::wmma::DiscoveredFragment& f : report.fragments)
        if (f.form.key() == "m16n16k16.a.row.f16")
            std::swap(f.cells[0], f.cells[static_cast<std::size_t>(f.numElements())]);
    const auto dir = freshTempDir("wmma-contributed");
    std::filesystem::create_directories(dir);
    std::ofstream((dir / "l40-wmma.json").string()) << lanemap::wmma::toJson(report);
    std::ofstream((dir / "broken.json").string()) << "{\"format\": \"lanemap-discovery/1\"";
    const std::vector<std::string> refused = lanemap::wmma::loadDiscoveryFolder(dir.string());
    ASSERT_EQ(refused.size(), 1u);
    EXPECT_NE(refused[0].find("broken.json: "), std::string::npos) << refused[0];

    auto r = runCli({"list", "--family", "wmma"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("wmma.m16n16k16.row.col.f16.f32\tsm_70\tdiscovered sm_90,sm_89\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find("ignored discovery report"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("broken.json"), std::string::npos) << r.err;

    const auto sm90 = runCli({"show", "wmma.m16n16k16.row.col.f16.f32", "--target", "sm_90"});
    const auto sm89 = runCli({"show", "wmma.m16n16k16.row.col.f16.f32", "--target", "sm_89"});
    ASSERT_EQ(sm89.code, 0) << sm89.err;
    EXPECT_NE(sm89.out.find("observed on NVIDIA L40 (synthetic), SASS sm_89"), std::string::npos);
    EXPECT_NE(sm89.out, sm90.out);

    r = runCli({"show", "wmma.m16n16k16.row.col.f16.f32", "--target", "sm_75"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("recorded targets: sm_90, sm_89"), std::string::npos) << r.err;
}

} // namespace test_cli_wmma
