// lanemap-cli end to end: list/show/export, exit codes and messages (README.md#the-command-line).
#include "cli.hpp"
#include "cli_run.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/gpu/probe.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace test_cli {

namespace fs = std::filesystem;

namespace {

using Result = lanemap::test::CliResult;
const auto run = lanemap::test::runCli;

fs::path tempDir(const std::string& name) {
    return lanemap::test::freshTempDir(name);
}

TEST(CliList, OneSpecPerLineWithMinSm) {
    const Result r = run({"list"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("mma.m16n8k16.f16\tsm_80\n"), std::string::npos);
    EXPECT_NE(r.out.find("mma.m8n8k4.row.col.f16\tsm_70\n"), std::string::npos);
    const auto lines = static_cast<std::size_t>(std::count(r.out.begin(), r.out.end(), '\n'));
    EXPECT_EQ(lines, lanemap::Catalog::instance().size());
}

TEST(CliList, FiltersBySm) {
    const Result r = run({"list", "--sm", "80"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out.find("e4m3"), std::string::npos) << "fp8 needs sm_89";
    EXPECT_NE(r.out.find("mma.m16n8k16.bf16"), std::string::npos);
    EXPECT_EQ(run({"list", "--family", "tcgen05"}).code, 2);
}

TEST(CliShow, PrintsTheGrid) {
    const Result r = run({"show", "mma.m16n8k8.tf32", "--operand", "a"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("0 T0:a0  T1:a0  T2:a0  T3:a0  T0:a2"), std::string::npos) << r.out;
}

TEST(CliShow, WholeInstructionHasEveryOperand) {
    const Result r = run({"show", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* head : {"\nA (16x16", "\nB (16x8", "\nC (16x8", "\nD (16x8"})
        EXPECT_NE(r.out.find(head), std::string::npos) << head;
}

TEST(CliShow, BadSpecExits2WithSuggestions) {
    const Result r = run({"show", "mma.m16n8k16.f61"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("invalid spec 'mma.m16n8k16.f61'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("mma.m16n8k16.f16"), std::string::npos) << r.err;
}

TEST(CliShow, BadOperandExits2) {
    const Result r = run({"show", "mma.m16n8k16.f16", "--operand", "metadata"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("no metadata operand"), std::string::npos) << r.err;
}

// A strict JSON parse that builds no tree (nlohmann's SAX interface): whether the document parses, and its
// top-level "spec". The catalog-wide test reads ~800 MB of JSON; a tree per file was most of its time.
struct TopLevelSpec {
    using json = nlohmann::json;
    int depth = 0;
    bool specNext = false;
    std::string spec;
    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(json::number_integer_t) { return value(); }
    bool number_unsigned(json::number_unsigned_t) { return value(); }
    bool number_float(json::number_float_t, const json::string_t&) { return value(); }
    bool string(json::string_t& s) {
        if (specNext)
            spec = s;
        return value();
    }
    bool binary(json::binary_t&) { return value(); }
    bool start_object(std::size_t) { return open(); }
    bool start_array(std::size_t) { return open(); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(json::string_t& k) {
        specNext = depth == 1 && k == "spec";
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

  private:
    bool value() {
        specNext = false;
        return true;
    }
    bool open() {
        specNext = false;
        ++depth;
        return true;
    }
    bool close() {
        --depth;
        return true;
    }
};

TEST(CliExport, AllJsonWritesOneParsableFilePerSpec) {
    const fs::path dir = tempDir("all");
    const Result r = run({"export", "--all", "--format", "json", "-o", dir.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    std::size_t files = 0;
    for (const lanemap::Variant* v : lanemap::Catalog::instance().variants()) {
        const fs::path file = dir / (v->spec + ".json");
        ASSERT_TRUE(fs::exists(file)) << file;
        std::ifstream in(file, std::ios::binary);
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        TopLevelSpec top;
        ASSERT_TRUE(nlohmann::json::sax_parse(text, &top)) << file << " does not parse";
        EXPECT_EQ(top.spec, v->spec);
        ++files;
    }
    EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {})), files);
    fs::remove_all(dir);
}

TEST(CliExport, OneSpecToAFileAndToStdout) {
    const fs::path dir = tempDir("one");
    fs::create_directories(dir);
    const fs::path file = dir / "x.txt";
    Result r = run({"export", "mma.m16n8k16.s8", "--format", "txt", "-o", file.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream in(file);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    EXPECT_EQ(text.rfind("mma.m16n8k16.s8  (", 0), 0u);
    r = run({"export", "mma.m16n8k16.s8", "-o", "-"});
    ASSERT_EQ(r.code, 0);
    EXPECT_EQ(nlohmann::json::parse(r.out)["spec"], "mma.m16n8k16.s8");
    fs::remove_all(dir);
}

// `-o FOLDER` with one spec writes SPEC.EXT into it, the name `--all` gives that spec, for every kind of
// export (a catalog family, a tcgen05.mma view, a matrix move with --smem), says which file it wrote, and the
// file is what `-o -` prints. (The tcgen05.mma view and --smem refused a folder: "it is a directory".)
TEST(CliExport, OneSpecIntoAFolderIsNamedAsAllNamesIt) {
    const fs::path dir = tempDir("into-folder");
    fs::create_directories(dir);
    struct Case {
        std::vector<std::string> args;
        std::string name;
    };
    const std::vector<Case> cases = {
        {{"export", "mma.m16n8k16.f16", "--format", "svg"}, "mma.m16n8k16.f16.svg"},
        {{"export", "wgmma.m64n8k16.f16", "--format", "cuda"}, "wgmma.m64n8k16.f16.cuh"},
        {{"export", "tcgen05.mma.cta_group::1.kind::f16.m128", "--format", "svg"},
         "tcgen05.mma.cta_group::1.kind::f16.m128.svg"},
        {{"export", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=64", "--format", "json"},
         "ldmatrix.m8n8.x4.b16.json"},
    };
    for (const Case& c : cases) {
        std::vector<std::string> toFolder = c.args, toStdout = c.args;
        toFolder.insert(toFolder.end(), {"-o", dir.string()});
        toStdout.insert(toStdout.end(), {"-o", "-"});
        const Result r = run(toFolder);
        ASSERT_EQ(r.code, 0) << c.name << ": " << r.err;
        const fs::path file = dir / c.name;
        EXPECT_EQ(r.out, "wrote 1 file to " + file.string() + "\n");
        std::ifstream in(file, std::ios::binary);
        ASSERT_TRUE(in) << file;
        const std::string text{std::istreambuf_iterator<char>(in), {}};
        const Result printed = run(toStdout);
        ASSERT_EQ(printed.code, 0) << printed.err;
        EXPECT_EQ(text, printed.out) << c.name;
    }
    EXPECT_EQ(static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), {})), cases.size());
    fs::remove_all(dir);
}

TEST(CliExport, UsageErrorsExit2) {
    EXPECT_EQ(run({"export", "mma.m16n8k16.f16", "--format", "pdf", "-o", "/tmp/x"}).code, 2);
    EXPECT_EQ(run({"export", "mma.m16n8k16.f16"}).code, 2);
    EXPECT_EQ(run({"export", "--all", "mma.m16n8k16.f16", "-o", "/tmp/x"}).code, 2);
    EXPECT_EQ(run({"export", "--all", "-o", "-"}).code, 2);
    const Result r = run({"export", "mma.m16n8k16.f16", "-o", "/nonexistent-dir/x.json"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("/nonexistent-dir/x.json"), std::string::npos) << r.err;
    EXPECT_EQ(run({"frobnicate"}).code, 2);
    EXPECT_EQ(run({}).code, 2);
}

TEST(CliExport, FormatErrorListsValidFormats) {
    const Result r = run({"export", "mma.m16n8k16.f16", "--format", "pdf", "-o", "/tmp/x"});
    EXPECT_NE(r.err.find("unknown format 'pdf'; valid formats: json, txt, svg"), std::string::npos) << r.err;
}

TEST(CliBinary, ExitCodesReachTheShell) {
    const std::string bin = LANEMAP_CLI_BINARY;
    int status = std::system((bin + " show mma.nope >/dev/null 2>&1").c_str());
    EXPECT_EQ(WEXITSTATUS(status), 2);
    status = std::system((bin + " list >/dev/null").c_str());
    EXPECT_EQ(WEXITSTATUS(status), 0);
    status = std::system((bin + " --help >/dev/null").c_str());
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

} // namespace

namespace {

TEST(CliProbe, WithoutAGpuExits3AndSaysWhy) {
    if (lanemap::gpu::discover().available)
        GTEST_SKIP() << "a GPU is present: covered by the gpu tests";
    const Result r = run({"probe", "mma.m16n8k16.f16"});
    EXPECT_EQ(r.code, 3);
    EXPECT_NE(r.err.find("GPU unavailable: "), std::string::npos) << r.err;
}

TEST(CliProbe, BadInputIsAUsageErrorEvenWithoutAGpu) {
    EXPECT_EQ(run({"probe"}).code, 2);
    EXPECT_EQ(run({"probe", "mma.m16n8k16.f61"}).code, 2);
    EXPECT_EQ(run({"probe", "--all", "mma.m16n8k16.f16"}).code, 2);
}

} // namespace

} // namespace test_cli
