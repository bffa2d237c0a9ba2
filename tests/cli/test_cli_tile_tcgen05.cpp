// lanemap-cli and tiles of tcgen05.mma atoms over the CTAs of a cluster (docs/tiles.md): show / export /
// where / what --cta of a tile, each CTA's A and B drawn in shared memory, and bad tiles refused with what is
// valid, exit 2, nothing written.
#include "cli_run.hpp"

#include "lanemap/gpu/probe.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace test_cli_tile_tcgen05 {

using namespace lanemap::test;

// Two cta_group::2 m256n16 atoms along M: 4 CTAs, a 512 x 16 x 16 tile.
const std::string kPairs = "tcgen05.mma.cta_group::2.kind::f16.m256n16";

// probe of a tile of tcgen05.mma atoms: exit 3, as every probe that cannot run, saying it needs a Blackwell
// GPU and what is here (docs/tiles.md#tiles-of-tcgen05mma-atoms).
TEST(CliTileOverCtas, ProbeSaysATileOfCtasNeedsABlackwellGpu) {
    const CliResult r = runCli({"probe", kPairs, "--atom-layout", "(2,1,1)"});
    EXPECT_EQ(r.code, 3) << r.out << r.err;
    const std::string says =
        "a tile of tcgen05.mma atoms runs over a cluster of 4 CTAs and needs a Blackwell "
        "GPU, sm_100a; ";
    const lanemap::gpu::Availability a = lanemap::gpu::discover();
    if (!a.available) {
        EXPECT_NE(
            r.err.find("lanemap-cli: tcgen05.mma.cta_group::2.kind::f16.m256n16 tile 512x16x16 (atom layout "
                       "(2,1,1)): " +
                       says + "there is no GPU here (" + a.reason + ")"),
            std::string::npos)
            << r.err;
        EXPECT_EQ(r.err.find("wgmma"), std::string::npos) << r.err;
    } else {
        EXPECT_NE(r.out.find("unsupported\t"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find(says + "this device is sm_" + std::to_string(a.device.sm)), std::string::npos)
            << r.out;
    }
}

TEST(CliTileOverCtas, WhereNamesTheCtaOfTheClusterAndItsTensorMemoryCell) {
    const CliResult r = runCli({"where", kPairs, "D", "300", "5", "--atom-layout", "(2,1,1)", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["tile"]["ctas"], 4);
    ASSERT_EQ(j["holders"].size(), 1u);
    const auto& h = j["holders"][0];
    EXPECT_EQ(h["cta"], 2); // the second pair (atom (1,0,0)), its CTA 0
    EXPECT_EQ(h["atom"], nlohmann::json::array({1, 0, 0}));
    EXPECT_EQ(h["atom_cta"], 0);
    EXPECT_EQ(h["lane"], 44);
    EXPECT_EQ(h["column"], 5);
    // B is shared by both pairs: two holders, CTA 1 and CTA 3, at the same byte of their shared memory.
    const CliResult b = runCli({"where", kPairs, "B", "3", "12", "--atom-layout", "(2,1,1)"});
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_NE(b.out.find("CTA 1 of 4 (atom (0,0,0), its CTA 1"), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("CTA 3 of 4 (atom (1,0,0), its CTA 1"), std::string::npos) << b.out;
    EXPECT_NE(b.out.find("its B[3][4]: shared memory byte"), std::string::npos) << b.out;
}

TEST(CliTileOverCtas, WhatCtaListsTheRowsEachCtaOfTheClusterHolds) {
    const CliResult r = runCli({"what", kPairs, "--cta", "3", "--atom-layout", "(2,1,1)"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("CTA 3 of 4 (a cluster)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("A rows 384..511 (its 128x16): shared memory"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("B columns 8..15 (its 16x8)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("D rows 384..511 (its 128x16): Tensor Memory lanes 0..127, columns 0..15"),
              std::string::npos)
        << r.out;
    const CliResult bad = runCli({"what", kPairs, "--cta", "4", "--atom-layout", "(2,1,1)"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("CTA 4 is outside"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("valid: 0..3"), std::string::npos) << bad.err;
    const CliResult lane = runCli({"what", kPairs, "--lane", "0", "--atom-layout", "(2,1,1)"});
    EXPECT_EQ(lane.code, 2);
    EXPECT_NE(lane.err.find("--cta C"), std::string::npos) << lane.err;
}

TEST(CliTileOverCtas, ExportJsonListsEveryHolderAndShowPrintsEachCta) {
    const CliResult r = runCli({"export", kPairs, "--atom-layout", "(2,1,1)", "--format", "json", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["scope"], "cluster");
    EXPECT_EQ(j["ctas"], 4);
    EXPECT_EQ(j["shape"], nlohmann::json::array({512, 16, 16}));
    ASSERT_EQ(j["operands"].size(), 3u);
    const auto& a = j["operands"][0];
    EXPECT_EQ(a["operand"], "A");
    EXPECT_EQ(a["cta_part"], nlohmann::json::array({128, 16}));
    EXPECT_EQ(a["elements"].size(), 512u * 16u); // one CTA per element of A
    const auto& b = j["operands"][1];
    EXPECT_EQ(b["elements"].size(), 2u * 16u * 16u); // both pairs hold B
    const auto& d = j["operands"][2];
    EXPECT_EQ(d["element_fields"][6], "lane");
    bool found = false;
    for (const auto& e : d["elements"])
        if (e[0] == 300 && e[1] == 5) {
            EXPECT_EQ(e[2], 2);
            EXPECT_EQ(e[6], 44);
            found = true;
        }
    EXPECT_TRUE(found);
    const CliResult show = runCli({"show", kPairs, "--atom-layout", "(2,1,1)"});
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_NE(show.out.find("4 CTAs of a cluster"), std::string::npos) << show.out;
    EXPECT_NE(show.out.find("m 300: c2 L44 C0"), std::string::npos) << show.out;
}

TEST(CliTileOverCtas, TheSvgBandsDByCtaOfTheCluster) {
    const CliResult r = runCli({"export", kPairs, "--atom-layout", "(2,1,1)", "--format", "svg", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("4 CTAs x 128 lanes"), std::string::npos);
    EXPECT_NE(r.out.find("CTA 3 warp 3 (lanes 96..127)"), std::string::npos);
}

// A tcgen05.mma's picture draws D in Tensor Memory and, under it, each CTA's part of A and B in its shared
// memory, titled with the CTA and its rows or columns.
TEST(CliTileOverCtas, TheSvgOfAPairDrawsEachCtasAAndBInSharedMemory) {
    const CliResult r =
        runCli({"export", "tcgen05.mma.cta_group::2.kind::f16.m128n64", "--format", "svg", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("CTA 0: rows 0..63 of A (cta_group::2), A in shared memory"), std::string::npos);
    EXPECT_NE(r.out.find("CTA 1: rows 64..127 of A (cta_group::2), A in shared memory"), std::string::npos);
    EXPECT_NE(r.out.find("CTA 1: columns 32..63 of B (cta_group::2), B in shared memory"), std::string::npos);
    // The tooltips (written by the SVG's script from each panel's name) name the CTA, the element and the
    // byte: "CTA 1 A m0 k0 · 0x0 · ...".
    EXPECT_NE(r.out.find("\"o\":\"CTA 1 A\""), std::string::npos);
    EXPECT_NE(r.out.find("\"o\":\"CTA 1 B\""), std::string::npos);
    const CliResult one =
        runCli({"export", "tcgen05.mma.cta_group::1.kind::f16.m128n64", "--format", "svg", "-o", "-"});
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_NE(one.out.find("CTA 0: all of B, B in shared memory"), std::string::npos);
    EXPECT_EQ(one.out.find("CTA 1"), std::string::npos);
}

TEST(CliTileOverCtas, BadTilesAreRefusedNothingWritten) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "lanemap-tile-tcgen05";
    std::filesystem::create_directories(dir);
    const std::filesystem::path kept = dir / "kept.json", fresh = dir / "fresh.json";
    std::filesystem::remove(fresh);
    {
        std::ofstream f(kept);
        f << "keep";
    }
    struct Case {
        std::vector<std::string> words;
        std::string says;
    };
    const std::vector<Case> cases = {
        {{"--atom-layout", "(9,1,1)"}, "18 CTAs; a cluster has at most 16"},
        {{"--atom-layout", "(1,1,1)", "--permutation", "_512,_,_"}, "is a reordering of _256"},
        {{"--atom-layout", "(2,1,1)", "--format", "cuda"},
         "a tile of tcgen05.mma atoms exports as json, txt, svg or html"},
        {{"--atom-layout", "(2,1,1)", "--ld", "32x32b.x16"}, "describe one instruction"},
    };
    for (const Case& c : cases)
        for (const std::filesystem::path& out : {kept, fresh}) {
            std::vector<std::string> args = {"export", kPairs, "-o", out.string()};
            args.insert(args.end(), c.words.begin(), c.words.end());
            const CliResult r = runCli(args);
            EXPECT_EQ(r.code, 2) << c.says;
            EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
            EXPECT_FALSE(std::filesystem::exists(fresh)) << c.says;
            std::ifstream in(kept);
            std::stringstream s;
            s << in.rdbuf();
            EXPECT_EQ(s.str(), "keep") << c.says;
        }
}

} // namespace test_cli_tile_tcgen05
