// `export --format tex` compiles: pdflatex turns the document into one page per TikZ picture. Skips, saying
// why, where pdflatex is not installed (docs/reference/exports.md#tables records the largest tiles' compile).
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>

namespace test_cli_tex_compile {

namespace {

using lanemap::test::freshTempDir;
using lanemap::test::runCli;

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), {}};
}

bool havePdflatex() {
    return std::system("command -v pdflatex > /dev/null 2>&1") == 0;
}

class TexCompile : public testing::TestWithParam<const char*> {};

TEST_P(TexCompile, PdflatexMakesOnePagePerPicture) {
    if (!havePdflatex())
        GTEST_SKIP()
            << "pdflatex not found on PATH (install texlive-latex-base and texlive-pictures to run this)";
    const std::string spec = GetParam();
    const std::filesystem::path dir = freshTempDir("tex-" + spec);
    std::filesystem::create_directories(dir);
    const std::filesystem::path tex = dir / (spec + ".tex");
    const auto exported = runCli({"export", spec, "--format", "tex", "-o", tex.string()});
    ASSERT_EQ(exported.code, 0) << exported.err;
    const std::string source = readText(tex);
    std::ptrdiff_t pictures = 0;
    for (std::size_t at = source.find("\\begin{tikzpicture}"); at != std::string::npos;
         at = source.find("\\begin{tikzpicture}", at + 1))
        ++pictures;
    ASSERT_GT(pictures, 0);
    const std::string command = "cd '" + dir.string() +
                                "' && pdflatex -interaction=nonstopmode -halt-on-error '" + spec +
                                ".tex' > pdflatex.out 2>&1";
    const int status = std::system(command.c_str());
    const std::string log = readText(dir / "pdflatex.out");
    ASSERT_EQ(status, 0) << "pdflatex failed:\n" << log.substr(log.size() > 3000 ? log.size() - 3000 : 0);
    EXPECT_EQ(log.find("TeX capacity exceeded"), std::string::npos);
    std::smatch pages;
    ASSERT_TRUE(std::regex_search(log, pages, std::regex(R"(Output written on .*\.pdf \((\d+) pages?)")))
        << log;
    EXPECT_EQ(std::stoll(pages[1].str()), pictures) << "one page per picture";
    EXPECT_TRUE(std::filesystem::file_size(dir / (spec + ".pdf")) > 0);
    std::filesystem::remove_all(dir);
}

// A warp tile, a sparse one, and the smallest wgmma tile (the largest take minutes: recorded in the docs).
INSTANTIATE_TEST_SUITE_P(Small, TexCompile,
                         testing::Values("mma.m16n8k16.f16", "mma.sp.m16n8k16.f16", "wgmma.m64n8k16.f16"),
                         [](const testing::TestParamInfo<const char*>& info) {
                             std::string name = info.param;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return name;
                         });

} // namespace

} // namespace test_cli_tex_compile
