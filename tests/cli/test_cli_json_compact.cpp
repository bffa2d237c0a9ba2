// lanemap-cli export --compact and --gzip: the compact JSON form from the command line, gzip for any format
// (one file, --all, stdout), and the usage errors (exit 2) of options that do not fit.
#include "cli.hpp"
#include "cli_run.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_gzip.hpp"
#include "lanemap/export_json.hpp"
#include "lanemap/svg.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace test_cli_json_compact {

namespace fs = std::filesystem;

namespace {

using Result = lanemap::test::CliResult;
const auto run = lanemap::test::runCli;

std::string slurp(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string gunzip(const std::string& data) {
    std::string out, error;
    EXPECT_TRUE(lanemap::gunzipBytes(data, out, error)) << error;
    return out;
}

const lanemap::Instruction& get(const char* spec) {
    return *lanemap::Catalog::instance().instruction(spec);
}

TEST(CliJsonCompact, CompactToStdoutIsTheCompactDocument) {
    const Result r = run({"export", "wgmma.m64n8k16.f16", "--format", "json", "--compact", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, lanemap::toCompactJson(get("wgmma.m64n8k16.f16")));
    // --major/--swizzle still choose the shared-memory layout of the document.
    const Result mn =
        run({"export", "wgmma.m64n8k16.f16", "--compact", "--major", "MN", "--swizzle", "none", "-o", "-"});
    ASSERT_EQ(mn.code, 0) << mn.err;
    EXPECT_EQ(mn.out, lanemap::toCompactJson(get("wgmma.m64n8k16.f16"),
                                             {lanemap::smem::Major::MN, lanemap::smem::Swizzle::None}));
}

TEST(CliJsonCompact, GzipWritesTheSameDocumentCompressed) {
    const fs::path dir = lanemap::test::freshTempDir("gzip");
    fs::create_directories(dir);
    // One file: written where -o says, gzip inside.
    const fs::path file = dir / "m16n8k16.svg.gz";
    Result r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "--gzip", "-o", file.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(gunzip(slurp(file)), lanemap::toSvg(lanemap::buildDiagram(get("mma.m16n8k16.f16"))));
    // stdout: the gzip bytes.
    r = run({"export", "mma.m8n8k4.f64", "--format", "json", "--compact", "--gzip", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(gunzip(r.out), lanemap::toCompactJson(get("mma.m8n8k4.f64")));
    // --all: SPEC.FORMAT.gz per variant.
    const fs::path all = dir / "all";
    r = run({"export", "--all", "--format", "cuda", "--gzip", "-o", all.string()});
    ASSERT_EQ(r.code, 0) << r.err;
    std::size_t files = 0;
    for (const lanemap::Variant* v : lanemap::Catalog::instance().variants()) {
        const fs::path f = all / (v->spec + ".cuh.gz");
        ASSERT_TRUE(fs::exists(f)) << f;
        ++files;
    }
    EXPECT_EQ(files, lanemap::Catalog::instance().variants().size());
    std::string expected, error;
    ASSERT_TRUE(
        lanemap::exportInstruction(get("mma.m16n8k16.f16"), lanemap::ExportFormat::Cuda, {}, expected, error))
        << error;
    EXPECT_EQ(gunzip(slurp(all / "mma.m16n8k16.f16.cuh.gz")), expected);
    fs::remove_all(dir);
}

TEST(CliJsonCompact, OptionsThatDoNotFitExit2) {
    Result r = run({"export", "mma.m16n8k16.f16", "--format", "svg", "--compact", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--compact is a form of the json document; --format svg has none"),
              std::string::npos)
        << r.err;
    r = run({"export", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=128", "--gzip", "-o", "-"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--gzip and --compact apply to plain exports"), std::string::npos) << r.err;
}

} // namespace

} // namespace test_cli_json_compact
