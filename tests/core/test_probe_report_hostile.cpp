// Hostile probe reports: wrong types in optional fields, a "pass" that lists mismatches, files that are not
// files or are far too large. Each is rejected with the field or the reason named.
#include "lanemap/probe_report.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
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

} // namespace

} // namespace test_probe_report_hostile
