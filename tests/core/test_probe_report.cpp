// Probe reports round-trip through JSON; corrupt or foreign files are rejected, not trusted.
#include "lanemap/probe_report.hpp"

#include <gtest/gtest.h>

namespace test_probe_report {

using namespace lanemap;

namespace {

ProbeReport sample() {
    ProbeReport r;
    r.device = {"NVIDIA H100 80GB HBM3", 90, "580.159.04", "13.0"};
    r.date = "2026-11-22T10:00:00Z";
    r.lanemapVersion = "0.1.0";
    ProbeResult pass;
    pass.spec = "mma.m16n8k16.f16";
    pass.verdict = Verdict::Pass;
    pass.experiments = 384;
    pass.cellsChecked = 512;
    pass.seconds = 0.004;
    ProbeResult fail = pass;
    fail.spec = "mma.m16n8k256.b1";
    fail.verdict = Verdict::Fail;
    fail.cellsMismatched = 1;
    fail.mismatches.push_back({Operand::A, -1, 8, 0, 0, 32, "rows of A vs D", "row 8", "row 0"});
    r.results = {pass, fail};
    return r;
}

TEST(ProbeReport, RoundTripsThroughJson) {
    ProbeReport back;
    std::string error;
    ASSERT_TRUE(parseProbeReport(toJson(sample()), back, error)) << error;
    EXPECT_EQ(back.device.name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(back.device.sm, 90);
    ASSERT_EQ(back.results.size(), 2u);
    EXPECT_EQ(back.result("mma.m16n8k256.b1")->mismatches.at(0).observed, "row 0");
    EXPECT_EQ(back.result("mma.m16n8k16.f16")->cellsChecked, 512);
    EXPECT_EQ(toJson(back), toJson(sample()));
}

TEST(ProbeReport, RejectsCorruptAndForeignFiles) {
    ProbeReport r;
    std::string error;
    EXPECT_FALSE(parseProbeReport("{not json", r, error));
    EXPECT_NE(error.find("not JSON"), std::string::npos);
    EXPECT_FALSE(parseProbeReport(R"({"name": "package.json"})", r, error));
    EXPECT_NE(error.find("not a lanemap probe report"), std::string::npos);
    std::string text = toJson(sample());
    text.replace(text.find("\"pass\""), 6, "\"maybe\"");
    EXPECT_FALSE(parseProbeReport(text, r, error));
    EXPECT_NE(error.find("verdict 'maybe'"), std::string::npos) << error;
    EXPECT_FALSE(parseProbeReport(R"({"device": {"name": 1}, "results": []})", r, error));
    EXPECT_NE(error.find("wrong type"), std::string::npos) << error;
}

} // namespace

namespace {
TEST(ProbeReport, RejectsNumbersThatAreNotIntegers) {
    // Found by fuzzing: a huge float where an integer belongs must be rejected, not narrowed.
    std::string text = toJson(sample());
    text.replace(text.find("\"sm\": 90"), 8, "\"sm\": 4.08889e+64");
    ProbeReport r;
    std::string error;
    EXPECT_FALSE(parseProbeReport(text, r, error));
    EXPECT_NE(error.find("\"sm\" must be an integer"), std::string::npos) << error;
}
} // namespace

namespace {
TEST(ProbeReport, RejectsNumbersOutOfRange) {
    // Found by fuzzing: the JSON reader throws out_of_range for 1e999; the report reader must say "not JSON".
    ProbeReport r;
    std::string error;
    EXPECT_FALSE(parseProbeReport(R"({"device": {"sm": 1e999}, "results": []})", r, error));
    EXPECT_NE(error.find("not JSON"), std::string::npos) << error;
}
} // namespace

} // namespace test_probe_report
