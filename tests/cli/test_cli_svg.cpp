// lanemap-cli export --format svg: every variant, the drawing options and their errors.
#include "cli.hpp"
#include "cli_run.hpp"

#include "lanemap/catalog.hpp"

#include "xml_dom.hpp"
#include "xml_outline.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace test_cli_svg {

namespace fs = std::filesystem;
using lanemap::test::parseXml;
using lanemap::test::XmlNode;

namespace {

using Result = lanemap::test::CliResult;
const auto run = lanemap::test::runCli;

fs::path tempDir(const std::string& name) {
    return lanemap::test::freshTempDir(name);
}

std::string slurp(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

TEST(CliSvg, AllWritesOneWellFormedSvgPerVariant) {
    const fs::path dir = tempDir("all");
    const Result r = run({"export", "--all", "--format", "svg", "-o", dir.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    std::size_t files = 0;
    for (const lanemap::Variant* v : lanemap::Catalog::instance().variants()) {
        const fs::path file = dir / (v->spec + ".svg");
        ASSERT_TRUE(fs::exists(file)) << file;
        // Well-formed (a strict XML parser), an <svg> root titled with the spec: an outline, not a tree.
        const auto doc = lanemap::test::outlineXml(slurp(file));
        ASSERT_TRUE(doc) << file << ": " << doc.error;
        EXPECT_EQ(doc.root, "svg");
        EXPECT_EQ(doc.rootTitle, v->spec + " \u2014 lanemap layout diagram");
        ++files;
    }
    EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {})), files);
    // Deterministic: a second run writes the same bytes. The second run exports that one variant (a second
    // --all run wrote the whole catalog again to compare one file), which also shows that --all carries no
    // state from one variant's figure into the next.
    const Result again = run({"export", "mma.m16n8k16.f16", "--format", "svg", "-o", "-"});
    ASSERT_EQ(again.code, 0) << again.err;
    EXPECT_EQ(again.out, slurp(dir / "mma.m16n8k16.f16.svg"));
    fs::remove_all(dir);
}

TEST(CliSvg, OperandColorPaletteAndLanes) {
    const Result r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "--operand", "a", "--color",
                          "group", "--palette", "colorblind", "--lanes", "0-3,13", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto doc = parseXml(r.out);
    ASSERT_TRUE(doc) << doc.error;
    // Cell labels: the texts in the cells group (their tooltips are built on hover, docs/svg.md#tooltips).
    const auto texts = doc.root->all([](const XmlNode& n) {
        bool inCells = false;
        for (const XmlNode* p = n.parent; p; p = p->parent)
            inCells = inCells || p->hasClass("cells");
        return n.name == "text" && inCells;
    });
    EXPECT_EQ(texts.size(), 256u); // A only
    const auto dim = doc.root->all([](const XmlNode& n) { return n.name == "g" && n.hasClass("dim"); });
    EXPECT_EQ(dim.size(), 27u);
    EXPECT_NE(r.out.find("color = groupID"), std::string::npos);
    EXPECT_NE(r.out.find("lane filter: 0,1,2,3,13"), std::string::npos);
}

TEST(CliSvg, BadDrawingOptionsExit2WithWhatIsValid) {
    Result r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "--color", "rainbow", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown --color 'rainbow'; valid: lane, register, group"), std::string::npos)
        << r.err;
    r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "--palette", "neon", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid: default, colorblind"), std::string::npos) << r.err;
    r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "--lanes", "0-x", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--lanes: bad lane list '0-x'"), std::string::npos) << r.err;
    r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "--lanes", "40", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("40 is not a thread of mma.m16n8k16.f16; valid: 0..31"), std::string::npos) << r.err;
    r = run({"export", "mma.m16n8k16.f16", "--format", "json", "--color", "lane", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("apply to --format svg and html only"), std::string::npos) << r.err;
    r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "--operand", "metadata", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("no metadata operand"), std::string::npos) << r.err;
}

TEST(CliSvg, ReplacesAtomicallyAndNamesTheBadPath) {
    const fs::path dir = tempDir("atomic");
    fs::create_directories(dir);
    const fs::path file = dir / "d.svg";
    ASSERT_EQ(run({"export", "mma.m8n8k4.f64", "--format", "svg", "-o", file.string()}).code, 0);
    ASSERT_EQ(run({"export", "mma.m16n8k16.f16", "--format", "svg", "-o", file.string()}).code, 0);
    const auto doc = parseXml(slurp(file));
    ASSERT_TRUE(doc) << doc.error;
    EXPECT_EQ(doc.root->child("title")->text, "mma.m16n8k16.f16 \u2014 lanemap layout diagram");
    EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {})), 1u)
        << "temp file left behind";
    const fs::path missing = dir / "no-such-folder" / "d.svg";
    const Result r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "-o", missing.string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find(missing.string()), std::string::npos) << r.err;
    fs::remove_all(dir);
}

} // namespace

} // namespace test_cli_svg
