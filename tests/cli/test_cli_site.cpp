// lanemap-cli --version and the html format (the static site; docs/site.md).
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace test_cli_site {

using lanemap::test::freshTempDir;
using lanemap::test::runCli;

namespace {

TEST(CliVersion, NamesVersionAndGitRevision) {
    const auto r = runCli({"--version"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.rfind("lanemap-cli " LANEMAP_VERSION " (git ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find(")"), std::string::npos) << r.out;
}

TEST(CliSite, OnePageToAFileAndToStdout) {
    const auto dir = freshTempDir("site-one");
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "page.html").string();
    const auto r = runCli({"export", "mma.m16n8k16.f16", "--format", "html", "-o", file});
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream in(file);
    std::stringstream page;
    page << in.rdbuf();
    EXPECT_EQ(page.str().rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(page.str().find("<h1>mma.m16n8k16.f16</h1>"), std::string::npos);
    const auto out = runCli({"export", "mma.m16n8k16.f16", "--format", "html", "-o", "-"});
    EXPECT_EQ(out.code, 0);
    EXPECT_EQ(out.out, page.str());
    std::filesystem::remove_all(dir);
}

// export SPEC --atom-layout ... --format html: the tile's page, opening coloured as --color says
// (docs/tiles.md).
TEST(CliSite, ATileExportsAsAPageOfEveryOperand) {
    const auto dir = freshTempDir("site-tile");
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "tile.html").string();
    auto r = runCli({"export", "mma.m16n8k16.f16", "--atom-layout", "(2,2,1)", "--permutation",
                     "_32,(_8,_2,_2):(_1,_16,_8),_16", "--format", "html", "--color", "thread", "-o", file});
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream in(file);
    std::stringstream page;
    page << in.rdbuf();
    EXPECT_NE(page.str().find("<h1>mma.m16n8k16.f16 tile 32x32x16 (atom layout (2,2,1), permutation "
                              "_32,(_8,_2,_2):(_1,_16,_8),_16)</h1>"),
              std::string::npos);
    EXPECT_NE(page.str().find("<option value=\"thread\" selected>thread</option>"), std::string::npos);
    EXPECT_NE(page.str().find("\"operand\":\"A\""), std::string::npos);
    EXPECT_NE(page.str().find("\"operand\":\"B\""), std::string::npos);
    EXPECT_NE(page.str().find("\"operand\":\"C/D\""), std::string::npos);
    // Thread 64 (warp 2, lane 0) holds C[0][16] of this tile (docs/tiles.md's tooltip).
    EXPECT_NE(page.str().find("\"warp 2 lane 0 c0 \u00b7 r0[31..0] \u00b7 (0,16)\""), std::string::npos);
    // A wgmma tile's and a tcgen05.mma tile's pages.
    r = runCli({"export", "wgmma.m64n16k16.f16", "--atom-layout", "(2,1,1)", "--format", "html", "--color",
                "warpgroup", "-o", "-"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("<option value=\"warpgroup\" selected>"), std::string::npos);
    r = runCli({"export", "tcgen05.mma.cta_group::2.kind::f16.m128n32", "--atom-layout", "(2,1,1)",
                "--format", "html", "-o", "-"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("D in Tensor Memory"), std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST(CliSite, RefusesOptionsAPageCannotHonour) {
    auto r = runCli({"export", "mma.m16n8k16.f16", "--format", "html", "--operand", "A", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("do not apply to html"), std::string::npos) << r.err;
    // The page opens coloured as --color says, among the colourings it offers; --lanes is the page's box.
    r = runCli({"export", "mma.m16n8k16.f16", "--format", "html", "--color", "register", "-o", "-"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("<option value=\"register\" selected>"), std::string::npos);
    r = runCli({"export", "mma.m16n8k16.f16", "--format", "html", "--color", "warp", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("colours by lane, register, group; 'warp' is not one of them"), std::string::npos)
        << r.err;
    r = runCli({"export", "mma.m16n8k16.f16", "--format", "html", "--lanes", "0-3", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--lanes applies to --format svg only"), std::string::npos) << r.err;
    r = runCli({"export", "mma.m16n8k16.f16", "--format", "pdf", "-o", "-"});
    EXPECT_NE(r.err.find("valid formats: json, txt, svg, html"), std::string::npos) << r.err;
}

} // namespace

} // namespace test_cli_site
