// lanemap-cli and cp.async.bulk.tensor (docs/tma.md): the box as json, and bad input refused with the
// parameter and its valid range, exit 2, nothing written.
#include "cli_run.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace test_cli_tma {

using namespace lanemap::test;

TEST(CliTma, TheIssuesCommandWritesEveryBoxElement) {
    const CliResult r =
        runCli({"export", "cp.async.bulk.tensor.2d", "--elem-bytes", "2", "--tensor", "128x192", "--box",
                "8x64", "--swizzle", "128B", "--origin", "0,0", "--format", "json", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["elements"].size(), 512u);
    // Row 1, column 0 sits at byte 128 ^ 16 (the 128B swizzle's XOR of chunk 0 with row 1).
    EXPECT_EQ(j["elements"][64]["smem_offset"], 144);
    EXPECT_EQ(j["elements"][64]["row"], 1);
    EXPECT_EQ(j["elements"][64]["col"], 0);
    EXPECT_NE(j["parameters"].get<std::string>().find("swizzle=128B"), std::string::npos);
}

TEST(CliTma, FillIsNullInJsonAndMarkedInText) {
    const CliResult r =
        runCli({"show", "cp.async.bulk.tensor.2d", "tensor=128x192", "box=8x64", "origin=126,0"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("=(127,0)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("=fill"), std::string::npos) << r.out;
}

TEST(CliTma, BadInputNamesTheParameterExitsTwoAndWritesNothing) {
    const std::filesystem::path dir = freshTempDir("tma");
    std::filesystem::create_directories(dir);
    const std::filesystem::path kept = dir / "kept.json";
    std::ofstream(kept) << "keep";
    const std::filesystem::path fresh = dir / "fresh.json";
    struct Case {
        std::vector<std::string> words;
        std::vector<std::string> says;
    };
    const std::vector<Case> cases = {
        {{"--tensor", "512x512", "--box", "8x257"}, {"box dimension 0 (innermost) is 257", "valid 1 to 256"}},
        {{"--tensor", "64x64", "--strides", "136"}, {"stride of dimension 1", "multiple of 16"}},
        {{"--tensor", "4x64x64"}, {"tensor=4x64x64 has 3 values; a rank-2 map needs 2"}},
        {{"--tensor", "64x256", "--box", "8x128", "--swizzle", "128B"},
         {"swizzle 128B spans 128 bytes", "inner extent is 256 bytes"}},
        {{"--box", "8x4"}, {"8 bytes: it must be a multiple of 16 bytes"}},
        {{"--origin", "0,3"}, {"innermost coordinate 3 is 6 bytes", "traps", "e.g. 0 or 8"}},
        {{"--elem-bytes", "3"}, {"elem-bytes=3: valid 1, 2, 4 or 8"}},
    };
    for (const Case& c : cases)
        for (const std::filesystem::path& out : {kept, fresh}) {
            std::vector<std::string> args = {"export", "cp.async.bulk.tensor.2d"};
            args.insert(args.end(), c.words.begin(), c.words.end());
            args.insert(args.end(), {"--format", "json", "-o", out.string()});
            const CliResult r = runCli(args);
            EXPECT_EQ(r.code, 2) << c.words.front();
            for (const std::string& s : c.says)
                EXPECT_NE(r.err.find(s), std::string::npos) << r.err;
            EXPECT_FALSE(std::filesystem::exists(fresh)) << c.words.front();
            std::stringstream text;
            text << std::ifstream(kept).rdbuf();
            EXPECT_EQ(text.str(), "keep");
        }
    std::filesystem::remove_all(dir);
}

TEST(CliTma, WordsAfterASpecWithoutAGrammarAreRefusedAsBefore) {
    const CliResult r = runCli({"export", "mma.m16n8k16.f16", "--bogus", "--format", "json", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("The following argument was not expected: --bogus"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CliTma, AMulticastListsTheCtasOfEachElementAndPerCta) {
    // docs/tma.md#multicast: CTAs 0 and 2 of a 4-CTA cluster receive the box; CTAs 1 and 3 nothing.
    const CliResult r =
        runCli({"export", "cp.async.bulk.tensor.2d tensor=128x64 box=8x64 cta-mask=0b0101 cluster=4",
                "--format", "json", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["elements"][0]["ctas"], nlohmann::json::array({0, 2}));
    EXPECT_EQ(j["cluster"]["ctas"], 4);
    EXPECT_EQ(j["cluster"]["per_cta"][1]["elements"], 0);
    EXPECT_EQ(j["cluster"]["per_cta"][2]["bytes"], 8 * 64 * 2);
    const CliResult bad =
        runCli({"show", "cp.async.bulk.tensor.2d tensor=64x64 box=8x64 cta-mask=0x10 cluster=4"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("names CTA 4 of a 4-CTA cluster: valid bits 0 to 3"), std::string::npos)
        << bad.err;
}

} // namespace test_cli_tma
