// lanemap-cli on a block-scaled tcgen05.mma: --scale-vec, --sfa-id and --sfb-id choose the scale factors the
// JSON lists and the SVG draws; a value the kind or vector size does not take exits 2 naming the valid ones.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace test_cli_tcgen05_scale {

using lanemap::test::runCli;

namespace {

const std::string kMxf4nvf4 = "tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128n64";

TEST(CliTcgen05Scale, TheChosenVectorSizeAndIdsReachTheJson) {
    const auto r = runCli(
        {"export", kMxf4nvf4, "--scale-vec", "block32", "--sfa-id", "2", "--format", "json", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["block_scale"]["scale_vec"], "scale_vec::2X") << "block32 is 2X for mxf4nvf4";
    EXPECT_EQ(j["block_scale"]["sfa_id"], 2);
    EXPECT_EQ(j["block_scale"]["sfb_id"], 0);
    // Row 0 of A, factor 0, ID 2: byte 2 of column 0 in lane 0 (and its three copies).
    EXPECT_EQ(j["scale_factors"]["A"]["rows"][0][0][0], nlohmann::json::array({0, 0, 16}));
    // Without the options: the kind's first vector size, IDs 0.
    const auto def = runCli({"export", kMxf4nvf4, "--format", "json", "-o", "-"});
    ASSERT_EQ(def.code, 0) << def.err;
    EXPECT_EQ(nlohmann::json::parse(def.out)["block_scale"]["sfa_id"], 0);
}

TEST(CliTcgen05Scale, TheSvgDrawsTheChosenId) {
    const auto r = runCli({"export", kMxf4nvf4, "--scale-vec", "4X", "--format", "svg", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("scale_vec::4X SFA ID 0 SFB ID 0"), std::string::npos);
    // The cell's label is drawn; its hover text (CTA, lane, column, bits) is built in the viewer from the
    // file's tables, which the site tests check against the Diagram's byte for byte.
    EXPECT_NE(r.out.find(">SFB(5,3)<"), std::string::npos);
}

TEST(CliTcgen05Scale, BadValuesExitTwoNamingTheValidOnes) {
    const auto id = runCli({"show", kMxf4nvf4, "--scale-vec", "2X", "--sfb-id", "1"});
    EXPECT_EQ(id.code, 2);
    EXPECT_NE(id.err.find("SFB ID 1 is invalid"), std::string::npos) << id.err;
    EXPECT_NE(id.err.find("valid: 0, 2"), std::string::npos) << id.err;
    const auto vec = runCli({"show", "tcgen05.mma.cta_group::1.kind::mxf8f6f4.m128n64", "--scale-vec", "2X"});
    EXPECT_EQ(vec.code, 2);
    EXPECT_NE(vec.err.find("valid: scale_vec::1X"), std::string::npos) << vec.err;
    const auto four = runCli({"show", kMxf4nvf4, "--sfa-id", "2"}); // 4X, the default: only 0
    EXPECT_EQ(four.code, 2);
    EXPECT_NE(four.err.find("the ID must be 0"), std::string::npos) << four.err;
    const auto word = runCli({"show", kMxf4nvf4, "--scale-vec", "8X"});
    EXPECT_EQ(word.code, 2);
    EXPECT_NE(word.err.find("valid: 1X, 2X, 4X, block32, block16"), std::string::npos) << word.err;
    const auto kind = runCli({"show", "tcgen05.mma.cta_group::1.kind::f16.m128n64", "--sfa-id", "0"});
    EXPECT_EQ(kind.code, 2);
    EXPECT_NE(kind.err.find("block-scaled kinds"), std::string::npos) << kind.err;
    const auto other = runCli({"show", "mma.m16n8k16.f16", "--scale-vec", "1X"});
    EXPECT_EQ(other.code, 2);
    EXPECT_NE(other.err.find("not a tcgen05.mma spec"), std::string::npos) << other.err;
}

} // namespace

} // namespace test_cli_tcgen05_scale
