// lanemap-cli show / export --imm-half-splitoff N: a tcgen05.ld/st .16x32bx2 drawn with an explicit
// immHalfSplitoff (threads 16-31 at taddr + N columns), range checked (exit 2 naming the valid range),
// refused for other shapes, for tcgen05.mma views and for --all.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace test_cli_tcgen05_split {

using lanemap::test::runCli;

TEST(CliTcgen05Split, ShowDrawsTheSecondHalfAtTheGivenOffset) {
    const auto r = runCli({"show", "tcgen05.ld.16x32bx2.x1", "--imm-half-splitoff", "4"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("D (16x5, .f32)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  0 T0:d0  .      .      .      T16:d0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("immHalfSplitoff 4 (given)"), std::string::npos);
    // Without the option: the halves side by side (CUTLASS's offset, 1 column for .x1).
    const auto d = runCli({"show", "tcgen05.ld.16x32bx2.x1"});
    EXPECT_NE(d.out.find("  0 T0:d0  T16:d0"), std::string::npos) << d.out;
}

TEST(CliTcgen05Split, ExportWritesTheFragmentAtTheOffset) {
    const auto r =
        runCli({"export", "tcgen05.st.16x32bx2.x2.unpack::16b", "--imm-half-splitoff", "100", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    const nlohmann::json& a = doc["operands"][0];
    EXPECT_EQ(a["cols"], 104); // the second half's 4 columns (x2, unpacked) from column 100
    bool at100 = false;
    for (const nlohmann::json& e : a["elements"])
        at100 = at100 || (e["thread"] == 16 && e["col"] == 100);
    EXPECT_TRUE(at100);
}

TEST(CliTcgen05Split, AnOffsetOutOfRangeOrForAnotherShapeExitsTwo) {
    // .x2: one half is 2 columns, so 2 .. 510.
    for (const char* bad : {"1", "511", "-3"}) {
        const auto r = runCli({"show", "tcgen05.ld.16x32bx2.x2", "--imm-half-splitoff", bad});
        EXPECT_EQ(r.code, 2) << bad;
        EXPECT_NE(r.err.find("valid 2 to 510"), std::string::npos) << bad << ": " << r.err;
    }
    const auto other = runCli({"show", "tcgen05.ld.16x64b.x1", "--imm-half-splitoff", "4"});
    EXPECT_EQ(other.code, 2);
    EXPECT_NE(other.err.find(".16x32bx2 shape"), std::string::npos) << other.err;
    const auto mma =
        runCli({"show", "tcgen05.mma.cta_group::1.kind::f16.m128n16", "--imm-half-splitoff", "4"});
    EXPECT_EQ(mma.code, 2);
    EXPECT_NE(mma.err.find("not to a tcgen05.mma view"), std::string::npos) << mma.err;
    const auto all = runCli({"export", "--all", "--imm-half-splitoff", "4", "-o", "/nonexistent-dir"});
    EXPECT_EQ(all.code, 2);
    EXPECT_NE(all.err.find("not --all"), std::string::npos) << all.err;
}

// `split + half > 512` overflowed for a split near INT_MAX, let the offset through and aborted in the
// diagram (exit 134, "fromCells: cell out of range").
TEST(CliTcgen05Split, AnOffsetNearIntMaxIsOutOfRangeNotAnAbort) {
    for (const char* big : {"2147483647", "2147483646"})
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"show", "tcgen05.ld.16x32bx2.x2", "--imm-half-splitoff", big},
              std::vector<std::string>{"export", "tcgen05.ld.16x32bx2.x2", "--imm-half-splitoff", big, "-o",
                                       "-"}}) {
            const auto r = runCli(args);
            EXPECT_EQ(r.code, 2) << args[0] << ' ' << big;
            EXPECT_NE(r.err.find("valid 2 to 510"), std::string::npos) << r.err;
        }
    // .x128: one half is 128 columns, so 128 .. 384; 2^31 - 128 + 128 overflowed.
    const auto r = runCli({"show", "tcgen05.ld.16x32bx2.x128", "--imm-half-splitoff", "2147483520"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid 128 to 384"), std::string::npos) << r.err;
}

} // namespace test_cli_tcgen05_split
