// lanemap-cli with sparse instructions: the metadata view per selector, selector errors (exit 2), sparse
// JSON.
#include "cli.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace test_cli_sparse {

namespace {

using Result = lanemap::test::CliResult;
const auto run = lanemap::test::runCli;

TEST(CliSparse, ListsTheSparseFamily) {
    const Result r = run({"list", "--family", "mma.sp"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("mma.sp.m16n8k16.f16\tsm_80\n"), std::string::npos);
    EXPECT_NE(r.out.find("mma.sp::ordered_metadata.m16n8k128.kind::mxf4nvf4.e2m1\tsm_120\n"),
              std::string::npos);
    EXPECT_EQ(r.out.find("mma.m16n8k16.f16\t"), std::string::npos) << "dense variants filtered out";
}

TEST(CliSparse, ShowsTheMetadataOfOneSelector) {
    const Result r = run({"show", "mma.sp.m16n8k16.f16", "--operand", "metadata", "--selector", "1"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("  0 T1: [3..0]    T1: [7..4]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" 11 T13: [19..16]"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("sparsity selector 0"), std::string::npos);
}

TEST(CliSparse, ShowsAPtxStringWithBlockScaling) {
    const Result r = run({"show",
                          "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale."
                          "scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0",
                          "--operand", "meta"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("lanes supplying metadata: 0 1 2 3"), std::string::npos) << r.out;
}

TEST(CliSparse, InvalidSelectorsExit2WithTheValidOnes) {
    Result r = run({"show", "mma.sp.m16n8k32.f16", "--operand", "metadata", "--selector", "2"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("sparsity selector 2 is not valid for mma.sp.m16n8k32.f16; valid selectors: 0, 1"),
              std::string::npos)
        << r.err;
    r = run({"show", "mma.sp.m16n8k128.s4", "--selector", "3"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid selectors: 0"), std::string::npos) << r.err;
    r = run({"show", "mma.sp.m16n8k16.f16", "--selector", "-4"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--selector must be 0..3"), std::string::npos) << r.err;
    r = run({"show", "mma.m16n8k16.f16", "--selector", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("dense"), std::string::npos) << r.err;
}

TEST(CliSparse, ExportsJsonWithTheMetadataOperand) {
    const Result r = run({"export", "mma.sp::ordered_metadata.m16n8k64.u4", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    const nlohmann::json& md = doc["operands"][4];
    EXPECT_EQ(md["name"], "metadata");
    EXPECT_EQ(md["granularity"], "4:8 pair-wise");
    EXPECT_EQ(md["selectors"].size(), 2u);
    // Fig. 139 was UNRESOLVED; the H100 probe settled it (resources/probe/h100-mma.json): no candidates
    // remain.
    EXPECT_FALSE(md.contains("candidates"));
    EXPECT_EQ(md["selectors"][0]["fields"][0]["source"], "hardware");
}

TEST(CliSparse, OrderedOnlyFormsGetAHint) {
    const Result r = run({"show", "mma.sp.m16n8k64.kind::f8f6f4.e2m1"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("needs mma.sp::ordered_metadata"), std::string::npos) << r.err;
}

} // namespace

} // namespace test_cli_sparse
