// lanemap-cli feeds SPEC --into CONSUMER:OPERAND (docs/tma.md#feeds): exit 0 equal, 1 differ (the first cell
// named), 2 bad input.
#include "cli_run.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

namespace test_cli_tma_feeds {

using namespace lanemap::test;

namespace {
constexpr const char* kBox = "cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B";
}

TEST(CliTmaFeeds, TheCanonicalBoxFeedsWgmmaExitZero) {
    const CliResult r = runCli({"feeds", kBox, "--into", "wgmma.m64n64k16.f16:A", "--major", "K"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("feeds: yes, equal cell by cell: all 4096 cells"), std::string::npos) << r.out;
}

TEST(CliTmaFeeds, AWrongSwizzleExitsOneNamingTheFirstCellInJson) {
    const CliResult r =
        runCli({"feeds", kBox, "--into", "wgmma.m64n64k16.f16:A", "--swizzle", "64B", "--json"});
    ASSERT_EQ(r.code, 1) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["feeds"], false);
    EXPECT_EQ(j["first_difference"]["smem_offset"], 64);
    EXPECT_EQ(j["first_difference"]["reader_expects"]["row"], 1);
    EXPECT_EQ(j["first_difference"]["reader_expects"]["col"], 0);
    EXPECT_EQ(j["first_difference"]["expected_written_at"], 144);
    EXPECT_EQ(j["first_difference"]["wrote"]["col"], 32);
}

TEST(CliTmaFeeds, MnVersusKMajorIsNamedInText) {
    const CliResult r =
        runCli({"feeds", kBox, "--into", "wgmma.m64n64k16.f16:A", "--major", "MN", "--inner", "K"});
    ASSERT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.out.find("first difference at byte 2 (0x2)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("the reader expects m=1, k=0"), std::string::npos) << r.out;
}

TEST(CliTmaFeeds, AnLdmatrixTileTakesSmem) {
    const CliResult r =
        runCli({"feeds", "cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B", "--into",
                "ldmatrix.m8n8.x4.b16", "--smem", "row-major,mode=128B"});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
}

TEST(CliTmaFeeds, BadInputExitsTwoWithWhatIsValid) {
    struct Case {
        std::vector<std::string> args;
        std::string says;
    };
    const std::vector<Case> cases = {
        {{"feeds", kBox, "--into", "wgmma.m64n64k16.f16"}, "names no operand"},
        {{"feeds", kBox, "--into", "wgmma.m64n64k16.f16:D"}, "must be A or B"},
        {{"feeds", kBox, "--into", "wgmma.m64n64k16.f16:A", "--major", "X"}, "valid: K, MN"},
        {{"feeds", kBox, "--into", "wgmma.m64n64k16.f16:A", "--swizzle", "96B"}, "unknown --swizzle"},
        {{"feeds", kBox, "--into", "mma.m16n8k16.f16:A"}, "reads no operand from shared memory"},
        {{"feeds", kBox, "1", "2", "--into", "wgmma.m64n64k16.f16:A"}, "ROW, COL and --selector"},
        {{"feeds", kBox, "--major", "K"}, "give --into"},
        {{"feeds", "wgmma.m64n64k16.f16"}, "feeds needs ROW and COL"},
        {{"feeds", "cp.async.bulk.tensor.2d type=f32 box=8x32 swizzle=128B", "--into",
          "wgmma.m64n64k16.f16:A"},
         "4 bytes and the reader's 2"},
        {{"feeds", kBox, "--into", "wgmma.m64n64k16.f16:A", "--swizzle", "128B-32B"}, "tcgen05 mode"},
    };
    for (const Case& c : cases) {
        const CliResult r = runCli(c.args);
        EXPECT_EQ(r.code, 2) << c.args[1] << " " << r.out;
        EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

TEST(CliTmaFeeds, TheRegisterFormStillAnswers) {
    const CliResult r = runCli({"feeds", "mma.m16n8k16.f16", "0", "0"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_FALSE(r.out.empty());
}

} // namespace test_cli_tma_feeds
