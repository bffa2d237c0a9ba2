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

TEST(CliSite, RefusesOptionsAPageCannotHonour) {
    auto r = runCli({"export", "mma.m16n8k16.f16", "--format", "html", "--operand", "A", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("do not apply to html"), std::string::npos) << r.err;
    r = runCli({"export", "mma.m16n8k16.f16", "--format", "html", "--color", "register", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--format svg only"), std::string::npos) << r.err;
    r = runCli({"export", "mma.m16n8k16.f16", "--format", "pdf", "-o", "-"});
    EXPECT_NE(r.err.find("valid formats: json, txt, svg, html"), std::string::npos) << r.err;
}

} // namespace

} // namespace test_cli_site
