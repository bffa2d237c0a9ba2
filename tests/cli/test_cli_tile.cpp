// lanemap-cli and tiles of MMA atoms (docs/tiles.md): the issue's command, show / where / what / svg of a
// tile, and bad tiles refused with what is valid, exit 2, nothing written.
#include "cli_run.hpp"

#include "lanemap/gpu/probe.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace test_cli_tile {

using namespace lanemap::test;

const std::vector<std::string> kIssueTile = {"--atom-layout", "(2,2,1)", "--permutation",
                                             "_32,(_8,_2,_2):(_1,_16,_8),_16"};

std::vector<std::string> with(std::vector<std::string> words, const std::vector<std::string>& more) {
    words.insert(words.end(), more.begin(), more.end());
    return words;
}

TEST(CliTile, TheIssuesCommandWritesEveryElementWithItsCtaThread) {
    const CliResult r =
        runCli(with({"export", "mma.m16n8k16.f16", "--format", "json", "-o", "-"}, kIssueTile));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["threads"], 128);
    EXPECT_EQ(j["tile"]["m"], 32);
    EXPECT_EQ(j["tile"]["n"], 32);
    EXPECT_EQ(j["tile"]["k"], 16);
    EXPECT_EQ(j["tile"]["warps"], 4);
    // A 32x16: each element held by two warps (replication along N); C 32x32 once.
    const auto& a = j["operands"][0];
    EXPECT_EQ(a["rows"], 32);
    EXPECT_EQ(a["cols"], 16);
    EXPECT_EQ(a["elements"].size(), 2u * 32u * 16u);
    const auto& c = j["operands"][2];
    EXPECT_EQ(c["elements"].size(), 32u * 32u);
    // C[0][16]: the permutation gives it to warp 2, lane 0.
    bool found = false;
    for (const auto& e : c["elements"])
        if (e["row"] == 0 && e["col"] == 16) {
            EXPECT_EQ(e["warp"], 2);
            EXPECT_EQ(e["lane"], 0);
            found = true;
        }
    EXPECT_TRUE(found);
}

// export --format triton of a tile, read back by check --against with the same tile: equal, exit 0; against
// the tile without the permutation: the first differing cells named, exit 1.
TEST(CliTile, TheTritonExportChecksEqualToTheTile) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "lanemap-cli-tile-triton";
    std::filesystem::create_directories(dir);
    const std::string bases = (dir / "tile.json").string();
    CliResult r = runCli(with({"export", "mma.m16n8k16.f16", "--format", "triton", "-o", bases}, kIssueTile));
    ASSERT_EQ(r.code, 0) << r.err;
    for (const char* operand : {"A", "B", "C"}) {
        r = runCli(with({"check", "@" + bases, "--against", std::string("mma.m16n8k16.f16:") + operand},
                        kIssueTile));
        EXPECT_EQ(r.code, 0) << operand << ": " << r.out << r.err;
        EXPECT_NE(r.out.find("tile 32x32x16"), std::string::npos) << r.out;
    }
    r = runCli({"check", "@" + bases, "--against", "mma.m16n8k16.f16:C", "--atom-layout", "(2,2,1)",
                "--permutation", "_32,_32,_16"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("differ"), std::string::npos) << r.out;
    // Against the atom alone: another shape.
    r = runCli({"check", "@" + bases, "--against", "mma.m16n8k16.f16:C"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    r = runCli({"check", "@" + bases, "--against", "mma.m16n8k16.f16:C", "--atom-layout", "(8,8,1)"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("2048 threads"), std::string::npos) << r.err;
    std::filesystem::remove_all(dir);
}

// banks MOVE --feeds SPEC:OPERAND with a tile: the tiled copy of the whole tile (docs/tiles.md#tiled-copy).
TEST(CliTile, BanksWithATileChecksTheWholeTiledCopy) {
    CliResult r =
        runCli(with({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16:A", "--smem", "row-major"},
                    kIssueTile));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("4 warps x 1 ldmatrix = 4 instructions"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("every register slot holds the element the tiled MMA wants there (1024 slots)"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("banks: 32 wavefronts (ideal 16, excessive 16); the worst phase 2-way"),
              std::string::npos)
        << r.out;
    // From an N-major B without .trans: exit 1, the first wrong slot named.
    r = runCli(with({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16:B", "--smem", "row-major"},
                    kIssueTile));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.out.find("holds B[0][1]; the tiled MMA wants B[1][0] there"), std::string::npos) << r.out;
    // K-tiled, searched: a conflict-free placement of the whole tile first; json.
    r = runCli({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout", "(2,2,1)",
                "--permutation", "_32,_16,_64", "--smem", "row-major", "--search"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("the worst phase 8-way"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("search (the whole tile, same pitch and start; conflict-free first):\n  "
                         "conflict-free  "),
              std::string::npos)
        << r.out;
    r = runCli({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout", "(2,2,1)",
                "--permutation", "_32,_16,_64", "--smem", "row-major,mode=128B", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["wavefronts"], j["ideal_wavefronts"]);
    EXPECT_EQ(j["instructions"].size(), 16u);
    // stmatrix drains a 16-bit D.
    r = runCli(
        with({"banks", "stmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16.f16:D", "--smem", "row-major"},
             kIssueTile));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("4 warps x 1 stmatrix = 4 instructions"), std::string::npos) << r.out;
    // Bad input: exit 2, a message naming it.
    r = runCli({"banks", "ldmatrix.m8n8.x4.b16", "--atom-layout", "(2,2,1)"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("needs --feeds SPEC:OPERAND"), std::string::npos) << r.err;
    r = runCli({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout", "(2,1,1)",
                "--permutation", "_,_,(_8,_2):(_2,_1)"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("splits a 16-byte matrix row"), std::string::npos) << r.err;
}

// banks ld.shared... --feeds: the plain tiled copy, each thread loading its own fragment
// (docs/tiles.md#tiled-copy).
TEST(CliTile, BanksLdSharedLoadsEachThreadsFragmentOrNamesWhyNot) {
    CliResult r = runCli({"banks", "ld.shared.b32", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout",
                          "(2,2,1)", "--smem", "row-major", "--search"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("4 warps x 4 ld.shared.b32 = 16 instructions"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("banks: 32 wavefronts (ideal 16, excessive 16); the worst phase 2-way"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("conflict-free  row-major, pitch 32 B, pad 16 B, no swizzle"), std::string::npos)
        << r.out;
    r = runCli({"banks", "ld.shared.v2.b32", "--feeds", "mma.m16n8k16.f16:B", "--atom-layout", "(2,2,1)",
                "--permutation", "_32,_16,(_2,_4,_2):(_1,_4,_2)", "--smem", "col-major", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["access_bytes"], 8);
    EXPECT_EQ(j["wavefronts"], 8);
    EXPECT_EQ(j["ideal_wavefronts"], 8);
    // A width the placement cannot serve: exit 2, the thread, the registers, why and the widest that works;
    // no file written.
    const std::filesystem::path out =
        std::filesystem::temp_directory_path() / "lanemap-ldshared-refused.json";
    std::filesystem::remove(out);
    r = runCli({"banks", "ld.shared.v4.b32", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout", "(2,2,1)",
                "--json", "-o", out.string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("thread 0 (warp 0, lane 0) registers 0..3 hold A[0][1] and then A[8][0]"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("the widest load that works here is ld.shared.b32"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
    r = runCli({"banks", "ld.shared.v3.b32", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout", "(2,2,1)"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid: ld.shared.b32, ld.shared.v2.b32, ld.shared.v4.b32"), std::string::npos)
        << r.err;
    r = runCli({"banks", "ld.shared.b32", "--feeds", "mma.m16n8k16.f16:A"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("give --feeds SPEC:A|B and --atom-layout"), std::string::npos) << r.err;
    r = runCli({"banks", "ld.shared.b32", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout", "(2,2,1)",
                "--smem", "row-major,start=2"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("misaligned"), std::string::npos) << r.err;
}

// banks MOVE --feeds ... --format svg with a tile: the picture of the whole copy.
TEST(CliTile, BanksDrawsTheWholeTiledCopy) {
    CliResult r =
        runCli({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout", "(2,2,1)",
                "--permutation", "_32,_16,_64", "--smem", "row-major", "--format", "svg", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("<?xml", 0), 0u);
    EXPECT_NE(r.out.find("w1#3"), std::string::npos);
    EXPECT_NE(r.out.find("the worst phase 8-way (framed: warp 0 #0 phase 0)"), std::string::npos);
    r = runCli({"banks", "ld.shared.b32", "--feeds", "mma.m16n8k16.f16:A", "--atom-layout", "(2,2,1)",
                "--format", "svg", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("ld.shared.b32 \u2192 mma.m16n8k16.f16"), std::string::npos);
}

TEST(CliTile, WhereNamesEveryHolderOfAReplicatedElement) {
    CliResult r = runCli(with({"where", "mma.m16n8k16.f16", "A", "5", "3"}, kIssueTile));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("thread 21 (warp 0, lane 21)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("thread 85 (warp 2, lane 21)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(2 holders)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("tile 32x32x16"), std::string::npos) << r.out;
    // The question the issue asks: who holds C[37][90] of a 64x128 tile.
    r = runCli({"where", "mma.m16n8k16.f16", "C", "37", "90", "--atom-layout", "(2,2,1)", "--permutation",
                "_64,_128,_16", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["holders"].size(), 1u);
    // Row 37 = 5 + 16 (0 + 2 x 1): warp row 0; column 90 = 2 + 8 (1 + 2 x 5): warp column 1, so warp 0 + 2 x
    // 1; the atom's C(5,2) is lane 4 x 5 + 1.
    EXPECT_EQ(j["holders"][0]["warp"], 2);
    EXPECT_EQ(j["holders"][0]["lane"], 21);
    EXPECT_EQ(j["tile"]["threads"], 128);
}

TEST(CliTile, WhatListsWhatOneThreadHolds) {
    const CliResult r = runCli(with({"what", "mma.m16n8k16.f16", "--thread", "64", "--json"}, kIssueTile));
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    // A 8, B 4 x 2 atoms along N, C and D 4 x 2: 8 + 8 + 8 + 8.
    EXPECT_EQ(j["elements"].size(), 32u);
    EXPECT_EQ(j["elements"][0]["warp"], 2);
}

TEST(CliTile, ShowAndSvgDrawTheTile) {
    CliResult r = runCli(with({"show", "mma.m16n8k16.f16", "--operand", "C"}, kIssueTile));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("T64:c0"), std::string::npos) << r.out.substr(0, 400);
    r = runCli(with({"export", "mma.m16n8k16.f16", "--format", "svg", "-o", "-"}, kIssueTile));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("<svg"), std::string::npos);
    // Each thread's cells are grouped by CTA thread and warp; the tooltips name the warp ("w":1).
    EXPECT_NE(r.out.find("class=\"lane lane-0 t64 warp-2"), std::string::npos);
    EXPECT_NE(r.out.find("{\"w\":1"), std::string::npos);
    // A wgmma tile of two warpgroups.
    r = runCli({"show", "wgmma.m64n16k16.f16", "--atom-layout", "(2,1,1)", "--operand", "D"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("T255:"), std::string::npos);
}

// probe SPEC --atom-layout: the tile on the GPU (docs/tiles.md#proof); without one, exit 3 and why.
TEST(CliTile, ProbeRunsTheTileOrSaysWhyNot) {
    const CliResult r = runCli(with({"probe", "mma.m16n8k16.f16"}, kIssueTile));
    if (!lanemap::gpu::discover().available) {
        EXPECT_EQ(r.code, 3) << r.out << r.err;
        EXPECT_NE(r.err.find("GPU unavailable"), std::string::npos) << r.err;
    } else {
        EXPECT_EQ(r.code, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("pass\tmma.m16n8k16.f16 tile 32x32x16"), std::string::npos) << r.out;
    }
    const CliResult copied = runCli(with({"probe", "mma.m16n8k16.f16", "--copy", "ldmatrix"}, kIssueTile));
    if (!lanemap::gpu::discover().available) {
        EXPECT_EQ(copied.code, 3) << copied.out << copied.err;
    } else {
        EXPECT_EQ(copied.code, 0) << copied.out << copied.err;
        EXPECT_NE(
            copied.out.find("tile 32x32x16 (atom layout (2,2,1), permutation _32,(_8,_2,_2):(_1,_16,_8),_16) "
                            "loaded by ldmatrix"),
            std::string::npos)
            << copied.out;
    }
    CliResult bad = runCli({"probe", "--all", "--atom-layout", "(2,2,1)"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("runs one tile of one SPEC"), std::string::npos) << bad.err;
    // --copy ldmatrix: the tiled copy feeds the kernel; a bad value, or no tile, is a usage error.
    bad = runCli({"probe", "mma.m16n8k16.f16", "--atom-layout", "(2,2,1)", "--copy", "cp.async"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("unknown --copy 'cp.async'; valid: direct, ldmatrix"), std::string::npos)
        << bad.err;
    bad = runCli({"probe", "mma.m16n8k16.f16", "--copy", "ldmatrix"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("give the tile"), std::string::npos) << bad.err;
    bad = runCli({"probe", "mma.m16n8k16.f16", "--atom-layout", "(2,2,1)", "--permutation", "_,_,_24"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("the tile's K is a multiple of 16"), std::string::npos) << bad.err;
    // --smem stages the ld.shared copy: a swizzle runs (or needs a GPU); a major, pitch or start the kernel
    // fixes, a bad swizzle, another copy or no tile are usage errors.
    const CliResult swizzled = runCli(
        with({"probe", "mma.m16n8k16.f16", "--copy", "ld.shared", "--smem", "swizzle=3,3,3"}, kIssueTile));
    if (!lanemap::gpu::discover().available) {
        EXPECT_EQ(swizzled.code, 3) << swizzled.out << swizzled.err;
    } else {
        EXPECT_EQ(swizzled.code, 0) << swizzled.out << swizzled.err;
        EXPECT_NE(swizzled.out.find("loaded by ld.shared (Swizzle<3,3,3>)"), std::string::npos)
            << swizzled.out;
    }
    for (const char* smem : {"col-major", "pitch=64", "start=16", "tile=32x16"}) {
        bad = runCli(with({"probe", "mma.m16n8k16.f16", "--copy", "ld.shared", "--smem", smem}, kIssueTile));
        EXPECT_EQ(bad.code, 2) << smem;
        EXPECT_NE(bad.err.find("the kernel stages A row-major and B col-major"), std::string::npos)
            << bad.err;
        EXPECT_NE(bad.err.find("valid: pad=BYTES, swizzle=B,M,S, mode=32B|64B|128B"), std::string::npos);
    }
    bad =
        runCli(with({"probe", "mma.m16n8k16.f16", "--copy", "ld.shared", "--smem", "swizzle=9"}, kIssueTile));
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("swizzle '9' is not B,M,S"), std::string::npos) << bad.err;
    bad = runCli(with({"probe", "mma.m16n8k16.f16", "--copy", "ldmatrix", "--smem", "pad=16"}, kIssueTile));
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("give --copy ld.shared"), std::string::npos) << bad.err;
    bad = runCli({"probe", "mma.m16n8k16.f16", "--smem", "pad=16"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("give the tile"), std::string::npos) << bad.err;
}

// probe of a wgmma tile (docs/tiles.md#proof): two warpgroups on an sm_90a GPU, both forms; without one,
// exit 3.
TEST(CliTile, ProbeRunsAWgmmaTileOrSaysWhyNot) {
    const CliResult r = runCli({"probe", "wgmma.m64n16k16.f16", "--atom-layout", "(2,1,1)"});
    const lanemap::gpu::Availability a = lanemap::gpu::discover();
    if (!a.available) {
        EXPECT_EQ(r.code, 3) << r.out << r.err;
        EXPECT_NE(r.err.find("GPU unavailable"), std::string::npos) << r.err;
    } else if (a.device.sm != 90) {
        EXPECT_EQ(r.code, 3) << r.out << r.err;
        EXPECT_NE(r.out.find("exists only on sm_90a"), std::string::npos) << r.out;
    } else {
        EXPECT_EQ(r.code, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("pass\twgmma.m64n16k16.f16 tile 128x16x16 (atom layout (2,1,1))"),
                  std::string::npos)
            << r.out;
        EXPECT_NE(r.out.find("RS form (A from registers) and the SS form"), std::string::npos) << r.out;
    }
    // The ldmatrix copy feeds an mma tile's registers; a wgmma tile reads shared memory through descriptors.
    const CliResult copied =
        runCli({"probe", "wgmma.m64n16k16.f16", "--atom-layout", "(2,1,1)", "--copy", "ldmatrix"});
    EXPECT_EQ(copied.code, 3) << copied.out << copied.err;
    if (a.available)
        EXPECT_NE(copied.out.find("from shared memory through descriptors"), std::string::npos) << copied.out;
}

TEST(CliTile, BadTilesNameWhatIsWrongExitTwoAndWriteNothing) {
    const std::filesystem::path dir = freshTempDir("tile");
    std::filesystem::create_directories(dir);
    const std::filesystem::path kept = dir / "kept.json";
    std::ofstream(kept) << "keep";
    const std::filesystem::path fresh = dir / "fresh.json";
    struct Case {
        std::vector<std::string> words;
        std::string says;
    };
    const std::vector<Case> cases = {
        {{"--atom-layout", "(8,8,1)"}, "2048 threads; a CTA has at most 1024 (at most 32 warps"},
        {{"--atom-layout", "(2,2,1)", "--permutation", "_,(_8,_2):(_1,_4),_"},
         "is not a bijection onto 0..15"},
        {{"--atom-layout", "(2,2,1)", "--permutation", "_,_,_24"}, "the tile's K is a multiple of 16"},
        {{"--atom-layout", "(2,2)"}, "it has three, the atoms along M, N and K"},
        {{"--atom-layout", "(2,2,1):(1,1,0)"}, "numbers two atoms alike"},
        {{"--permutation", "_32,(8,2"}, "expected ',' or ')'"},
        {{"--atom-layout", "(2,2,1)", "--format", "cuda"},
         "a tile (--atom-layout, --permutation) exports as json"},
        {{"--atom-layout", "(3,1,1)", "--format", "triton"},
         "the tile has no Triton LinearLayout: --atom-layout (3,1,1) puts 3 atoms along M"},
        {{"--permutation", "_,_24,_", "--format", "triton"}, "the tile's N is 24 (--permutation N _24)"},
    };
    for (const Case& c : cases)
        for (const std::filesystem::path& out : {kept, fresh}) {
            std::vector<std::string> args = {"export", "mma.m16n8k16.f16", "-o", out.string()};
            args = with(args, c.words);
            const CliResult r = runCli(args);
            EXPECT_EQ(r.code, 2) << c.says;
            EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
            EXPECT_FALSE(std::filesystem::exists(fresh)) << c.says;
            std::ifstream in(kept);
            std::stringstream s;
            s << in.rdbuf();
            EXPECT_EQ(s.str(), "keep") << c.says;
        }
    // Not an MMA atom; a tile with --all.
    CliResult r = runCli({"show", "ldmatrix.m8n8.x4.b16", "--atom-layout", "(2,1,1)"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("tile an MMA atom"), std::string::npos) << r.err;
    r = runCli({"export", "--all", "--atom-layout", "(2,1,1)", "-o", (dir / "all").string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("give its SPEC, not --all"), std::string::npos) << r.err;
    r = runCli({"what", "mma.m16n8k16.f16", "--thread", "128", "--atom-layout", "(2,2,1)"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid: 0..127"), std::string::npos) << r.err;
    std::filesystem::remove_all(dir);
}

} // namespace test_cli_tile
