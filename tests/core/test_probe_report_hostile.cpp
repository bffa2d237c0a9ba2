// Hostile probe reports: wrong types in optional fields, a "pass" that lists mismatches, files that are not
// files or are far too large. Each is rejected with the field or the reason named.
#include "lanemap/probe_report.hpp"
#include "lanemap/wmma.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <unistd.h>

namespace test_probe_report_hostile {

using namespace lanemap;
namespace fs = std::filesystem;

namespace {

nlohmann::ordered_json failingReport() {
    ProbeReport r;
    r.device = {"NVIDIA H100 80GB HBM3", 90, "580.159.04", "13.0"};
    r.date = "2026-11-22T10:00:00Z";
    r.lanemapVersion = "0.1.0";
    ProbeResult fail;
    fail.spec = "mma.m16n8k256.b1";
    fail.verdict = Verdict::Fail;
    fail.cellsChecked = 512;
    fail.cellsMismatched = 1;
    fail.mismatches.push_back({Operand::A, -1, 8, 0, 0, 32, "rows of A vs D", "row 8", "row 0"});
    r.results = {fail};
    return nlohmann::ordered_json::parse(toJson(r));
}

std::string rejection(const nlohmann::ordered_json& doc) {
    ProbeReport r;
    std::string error;
    EXPECT_FALSE(parseProbeReport(doc.dump(), r, error)) << doc.dump();
    return error;
}

TEST(ProbeReportHostile, WrongTypesInOptionalMismatchFieldsAreRejectedByName) {
    auto doc = failingReport();
    doc["results"][0]["mismatches"][0]["thread"] = "notanint";
    EXPECT_NE(rejection(doc).find("results[0].mismatches[0]: \"thread\" must be an integer"),
              std::string::npos);
    doc = failingReport();
    doc["results"][0]["mismatches"][0]["matrix"] = nlohmann::ordered_json::array({1});
    EXPECT_NE(rejection(doc).find("\"matrix\""), std::string::npos);
    doc = failingReport();
    doc["results"][0]["mismatches"][0]["observed"] = 7;
    EXPECT_NE(rejection(doc).find("\"observed\" has the wrong type"), std::string::npos);
    doc = failingReport();
    doc["results"][0]["mismatches"][0] = "a string";
    EXPECT_NE(rejection(doc).find("mismatches[0] is not an object"), std::string::npos);
}

TEST(ProbeReportHostile, PassThatListsMismatchesIsRejected) {
    auto doc = failingReport();
    doc["results"][0]["verdict"] = "pass";
    EXPECT_NE(rejection(doc).find("verdict \"pass\" with mismatches"), std::string::npos);
    doc["results"][0]["mismatches"] = nlohmann::ordered_json::array();
    EXPECT_NE(rejection(doc).find("verdict \"pass\" with mismatches"), std::string::npos)
        << "cells_mismatched 1";
}

class ReportFiles : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("lanemap-report-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

TEST_F(ReportFiles, LoadsARegularFile) {
    const fs::path file = m_dir / "r.json";
    std::ofstream(file) << failingReport().dump();
    ProbeReport r;
    std::string error;
    ASSERT_TRUE(loadProbeReportFile(file.string(), r, error)) << error;
    EXPECT_EQ(r.results.at(0).spec, "mma.m16n8k256.b1");
}

TEST_F(ReportFiles, LinkToADeviceIsNotRead) {
    const fs::path link = m_dir / "zero.json";
    fs::create_symlink("/dev/zero", link);
    ProbeReport r;
    std::string error;
    EXPECT_FALSE(loadProbeReportFile(link.string(), r, error));
    EXPECT_EQ(error, "not a regular file");
}

TEST_F(ReportFiles, OversizedFileIsRejectedBeforeParsing) {
    const fs::path file = m_dir / "huge.json";
    {
        std::ofstream out(file);
        out << "[";
    }
    fs::resize_file(file, kMaxProbeReportBytes + 1); // sparse: no disk used
    ProbeReport r;
    std::string error;
    EXPECT_FALSE(loadProbeReportFile(file.string(), r, error));
    EXPECT_NE(error.find("too large"), std::string::npos) << error;
}

// One object of `keys` keys, "k0" .. : a 0.9 MB file at 80,000 keys, the size of the recorded reports.
std::string flatObject(std::size_t keys) {
    std::string text = "{";
    for (std::size_t i = 0; i < keys; ++i)
        text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
    return text + "}";
}

// `inner` spliced in as results[0]["extra"] of a valid report (the reader ignores keys it does not know).
std::string withExtra(const std::string& inner) {
    std::string text = failingReport().dump();
    const std::string spec = "\"spec\":";
    return text.insert(text.find(spec), "\"extra\":" + inner + ",");
}

// ordered_json finds a new key by comparing it with every key before it: the 80,000-key object took 9 s to
// parse (0.3 s at 20,000, hours for the 32 MiB the reader accepts), in the app's start and `list --family
// wmma` too. Reports never have more than 10 keys in an object, nor nest deeper than 6: the reader checks
// both limits in one pass that builds nothing, before parsing.
TEST(ReportLimits, AnObjectWithMoreKeysThanAnyReportIsRejectedUnparsed) {
    ProbeReport r;
    std::string error;
    const std::string hostile = flatObject(80'000);
    ASSERT_GT(hostile.size(), 850'000u);
    EXPECT_FALSE(parseProbeReport(hostile, r, error));
    EXPECT_NE(error.find("more than 64 keys"), std::string::npos) << error.substr(0, 200);
    EXPECT_FALSE(parseProbeReport(withExtra(hostile), r, error));
    EXPECT_NE(error.find("more than 64 keys"), std::string::npos) << error.substr(0, 200);
    wmma::DiscoveryReport d;
    EXPECT_FALSE(wmma::parseDiscoveryReport(hostile, d, error));
    EXPECT_NE(error.find("more than 64 keys"), std::string::npos) << error.substr(0, 200);
}

TEST(ReportLimits, TheLimitsAreExact) {
    ProbeReport r;
    std::string error;
    EXPECT_TRUE(parseProbeReport(withExtra(flatObject(64)), r, error)) << error;
    EXPECT_FALSE(parseProbeReport(withExtra(flatObject(65)), r, error));
    // The report is 3 levels deep where "extra" sits: 29 more levels are allowed, 30 are not.
    EXPECT_TRUE(parseProbeReport(withExtra(std::string(29, '[') + std::string(29, ']')), r, error)) << error;
    EXPECT_FALSE(parseProbeReport(withExtra(std::string(30, '[') + std::string(30, ']')), r, error));
    EXPECT_NE(error.find("nested deeper than 32 levels"), std::string::npos) << error;
}

TEST(ReportLimits, DeepNestingIsRejected) {
    const std::string deep = std::string(500'000, '[') + std::string(500'000, ']');
    ProbeReport r;
    std::string error;
    EXPECT_FALSE(parseProbeReport(deep, r, error));
    EXPECT_NE(error.find("nested deeper than 32 levels"), std::string::npos) << error.substr(0, 200);
    wmma::DiscoveryReport d;
    EXPECT_FALSE(wmma::parseDiscoveryReport(deep, d, error));
    EXPECT_NE(error.find("nested deeper than 32 levels"), std::string::npos) << error.substr(0, 200);
    // Not JSON at all is still reported as such.
    EXPECT_FALSE(parseProbeReport("{\"device\": ", r, error));
    EXPECT_NE(error.find("not JSON"), std::string::npos) << error;
}

// A discovery report's target is listed against every wmma variant it holds: `sm_0`, a 23-digit number, a
// report of no fragment, a number where the load's PTX goes were all accepted and listed.
TEST(DiscoveryReportHostile, AbsurdTargetsEmptyFragmentsAndWrongTypesAreRejected) {
    std::ifstream in(std::string(LANEMAP_SOURCE_DIR) + "/resources/discovery/h100-wmma.json");
    const nlohmann::ordered_json recorded = nlohmann::ordered_json::parse(in);
    const auto rejection = [&](const std::function<void(nlohmann::ordered_json&)>& corrupt) {
        nlohmann::ordered_json doc = recorded;
        corrupt(doc);
        wmma::DiscoveryReport d;
        std::string error;
        EXPECT_FALSE(wmma::parseDiscoveryReport(doc.dump(), d, error)) << doc.dump().substr(0, 300);
        return error;
    };
    {
        wmma::DiscoveryReport d;
        std::string error;
        ASSERT_TRUE(wmma::parseDiscoveryReport(recorded.dump(), d, error)) << error;
    }
    for (const char* target : {"sm_0", "sm_99999999999999999999999", "sm_090", "sm_9", "sm_1000"})
        EXPECT_NE(rejection([&](auto& d) { d["sass_target"] = target; }).find("\"sass_target\""),
                  std::string::npos)
            << target;
    EXPECT_NE(rejection([](auto& d) { d["fragments"] = nlohmann::ordered_json::array(); }).find("is empty"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["fragments"][0]["ptx"] = 5; }).find("\"ptx\" must be a string"),
              std::string::npos);
    EXPECT_NE(
        rejection([](auto& d) { d["fragments"][0]["cuda"] = nullptr; }).find("\"cuda\" must be a string"),
        std::string::npos);
    // The message quotes the target escaped and cut.
    const std::string escaped =
        rejection([](auto& d) { d["sass_target"] = "sm_9\x1b[31m" + std::string(200, '9'); });
    EXPECT_EQ(escaped.find('\x1b'), std::string::npos) << escaped;
    EXPECT_LT(escaped.size(), 200u) << escaped;
}

} // namespace

} // namespace test_probe_report_hostile
