// lanemap-cli where / what / feeds / diff (docs/reference/queries.md): answers, JSON, and exit 2 naming what
// is wrong and what is valid.
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace test_cli_query {

namespace {

const auto run = lanemap::test::runCli;
using lanemap::test::CliResult;

TEST(CliWhere, NamesLaneRegisterBitsAndElement) {
    // m16n8k16 .f16 A (PTX figure): a4, a5 sit in row groupID, column 8 + 2 * threadID_in_group + (i & 1).
    // A[3][11]: groupID 3, threadID_in_group 1 -> lane 13, a5, the high half of register 2.
    const CliResult r = run({"where", "mma.m16n8k16.f16", "A", "3", "11"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("lane 13  register 2  bits [31:16]  element a5  A[3][11]"), std::string::npos)
        << r.out;
}

TEST(CliWhere, JsonListsEveryHolderOfASparseChunk) {
    const CliResult r = run({"where", "mma.sp.m16n8k32.f16", "a", "0", "1", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["query"], "where");
    ASSERT_EQ(doc["holders"].size(), 2u) << "2:4: two kept elements may land in the chunk";
    EXPECT_EQ(doc["holders"][0]["col"], 0);
    EXPECT_EQ(doc["holders"][0]["col_last"], 3);
}

TEST(CliWhere, WgmmaBIsInSharedMemory) {
    const CliResult r = run({"where", "wgmma.m64n64k16.f16", "B", "1", "0", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_TRUE(doc["holders"].empty());
    // K-major, 128B swizzle: B[k=1][n=0] is the second 2-byte element of row n = 0.
    EXPECT_EQ(doc["shared_memory"]["byte"], 2);
}

// The text names the byte in decimal and in hex, as the figure and the shared-memory pane label it (B(k 3, n
// 3) of wgmma.m64n8k16.f16 is the cell hovered as 0x1b6 there); feeds names B's bytes the same way.
TEST(CliWhere, WgmmaBByteIsAlsoInHexAsTheFigureShowsIt) {
    const CliResult r = run({"where", "wgmma.m64n8k16.f16", "B", "3", "3"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(
        r.out.find("shared memory (K-major, 128B swizzle): byte 438 (0x1b6) from a 1024-byte aligned base"),
        std::string::npos)
        << r.out;
    const CliResult f = run({"feeds", "wgmma.m64n8k16.f16", "0", "3"});
    ASSERT_EQ(f.code, 0) << f.err;
    EXPECT_NE(f.out.find("  B  shared memory B[3][3] byte 438 (0x1b6) (K-major, 128B swizzle)"),
              std::string::npos)
        << f.out;
}

TEST(CliWhere, BadInputExits2NamingWhatIsValid) {
    CliResult r = run({"where", "mma.m16n8k16.f16", "A", "16", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("row 16 is outside A (16x16); valid: 0..15"), std::string::npos) << r.err;
    r = run({"where", "mma.m16n8k16.f16", "Q", "0", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid operands: A, B, C, D, metadata"), std::string::npos) << r.err;
    r = run({"where", "mma.m16n8k16.f16", "metadata", "0", "0"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid operands: A, B, C, D"), std::string::npos) << r.err;
    r = run({"where", "mma.m16n8k16.f61", "A", "0", "0"});
    EXPECT_EQ(r.code, 2);
    r = run({"where", "mma.m16n8k16.f16", "A", "x", "0"});
    EXPECT_EQ(r.code, 2);
}

TEST(CliWhat, ListsEveryElementOfALaneRegister) {
    const CliResult r = run({"what", "mma.m16n8k16.f16", "--lane", "13", "--register", "2", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    // Register 2: A's a4, a5 (A[3][10], A[3][11]) and the f32 accumulators' c2, d2 (row 8 + 3, column 2);
    // B has two registers only.
    ASSERT_EQ(doc["elements"].size(), 4u) << r.out;
    EXPECT_EQ(doc["elements"][2]["operand"], "C");
    EXPECT_EQ(doc["elements"][3]["operand"], "D");
    EXPECT_EQ(doc["elements"][3]["row"], 11);
    EXPECT_EQ(doc["elements"][3]["col"], 2);
    EXPECT_EQ(doc["elements"][0]["operand"], "A");
    EXPECT_EQ(doc["elements"][0]["row"], 3);
    EXPECT_EQ(doc["elements"][0]["col"], 10);
    EXPECT_EQ(doc["elements"][1]["col"], 11);
    EXPECT_EQ(doc["elements"][1]["bits"], nlohmann::json::array({31, 16}));
}

TEST(CliWhat, WarpgroupThreadsAndRangeErrors) {
    CliResult r = run({"what", "wgmma.m64n8k16.f16", "--thread", "127"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("thread 127 (warp 3, lane 31)"), std::string::npos) << r.out;
    r = run({"what", "mma.m16n8k16.f16", "--lane", "32"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("lane 32 is outside mma.m16n8k16.f16 (32 threads); valid: 0..31"), std::string::npos)
        << r.err;
    r = run({"what", "mma.m16n8k16.f16", "--lane", "0", "--register", "9"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid: 0..3"), std::string::npos) << r.err;
}

TEST(CliFeeds, DenseNamesARowBColumnAndC) {
    const CliResult r = run({"feeds", "mma.m16n8k16.f16", "3", "5", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["d"].size(), 1u);
    int a = 0, b = 0, c = 0;
    for (const auto& h : doc["inputs"]) {
        a += h["operand"] == "A";
        b += h["operand"] == "B";
        c += h["operand"] == "C";
        if (h["operand"] == "A")
            EXPECT_EQ(h["row"], 3);
        if (h["operand"] == "B")
            EXPECT_EQ(h["col"], 5);
    }
    EXPECT_EQ(a, 16);
    EXPECT_EQ(b, 16);
    EXPECT_EQ(c, 1);
}

TEST(CliFeeds, SparseNamesTheMetadataFieldsOfTheRow) {
    const CliResult r = run({"feeds", "mma.sp.m16n8k32.f16", "3", "5", "--selector", "0", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["metadata"].size(), 8u) << "K = 32: eight 4-column chunks in row 3";
    for (const auto& f : doc["metadata"]) {
        EXPECT_EQ(f["row"], 3);
        EXPECT_EQ(f["selector"], 0);
    }
    const CliResult bad = run({"feeds", "mma.m16n8k16.f16", "0", "0", "--selector", "1"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("is dense"), std::string::npos) << bad.err;
    const CliResult range = run({"feeds", "mma.m16n8k16.f16", "0", "8"});
    EXPECT_EQ(range.code, 2);
    EXPECT_NE(range.err.find("column 8 is outside D (16x8); valid: 0..7"), std::string::npos) << range.err;
}

TEST(CliDiff, IdenticalLayoutsAndDifferentShapes) {
    CliResult r = run({"diff", "mma.m16n8k16.f16", "mma.m16n8k16.bf16", "--operand", "A"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("A: identical, 0 of 256 cells"), std::string::npos) << r.out;
    r = run({"diff", "mma.m16n8k16.f16", "mma.m16n8k8.f16", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["operands"][0]["relation"], "incomparable");
    EXPECT_EQ(doc["operands"][2]["relation"], "identical") << "C of both is the 16x8 f16 fragment";
}

TEST(CliDiff, QuadPairLayoutsDifferByARegisterPermutationOrShuffle) {
    // m8n8k4 .f16: A row-major vs column-major hold A in different elements of the same lanes, or in
    // different lanes; either way the diff names the relation instead of "incomparable".
    const CliResult r =
        run({"diff", "mma.m8n8k4.row.col.f16", "mma.m8n8k4.col.col.f16", "--operand", "A", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    const std::string relation = doc["operands"][0]["relation"];
    EXPECT_NE(relation, "identical");
    EXPECT_NE(relation, "incomparable");
    EXPECT_GT(doc["operands"][0]["differing"].get<int>(), 0);
}

TEST(CliDiff, BadOperandExits2) {
    const CliResult r = run({"diff", "wgmma.m64n8k16.f16", "mma.m16n8k16.f16", "--operand", "B"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid operands: A, D"), std::string::npos) << r.err;
}

} // namespace

} // namespace test_cli_query
