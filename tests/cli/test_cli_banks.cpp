// lanemap-cli with ldmatrix / stmatrix / movmatrix: list, show, export, and the banks subcommand (table,
// search, --feeds) with its input errors (exit 2 naming the problem).
#include "cli.hpp"
#include "cli_run.hpp"
#include "lanemap/gpu/probe.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace test_cli_banks {

namespace {

using Result = lanemap::test::CliResult;
const auto run = lanemap::test::runCli;

TEST(CliMatrixMove, ListShowsEveryFamily) {
    const Result r = run({"list", "--family", "ldmatrix"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("ldmatrix.m8n8.x4.trans.b16\tsm_75\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ldmatrix.m16n16.x2.trans.b8x16.b4x16_p64\tsm_100\n"), std::string::npos);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 18);
    EXPECT_NE(run({"list", "--family", "stmatrix"}).out.find("stmatrix.m8n8.x2.b16\tsm_90\n"),
              std::string::npos);
    EXPECT_EQ(run({"list", "--family", "movmatrix"}).out, "movmatrix.m8n8.trans.b16\tsm_75\n");
}

TEST(CliMatrixMove, ShowTakesThePtxStringAndPrintsBothMaps) {
    const Result r = run({"show", "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("ldmatrix.m8n8.x4.trans.b16  (ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16)", 0),
              0u)
        << r.out.substr(0, 200);
    EXPECT_NE(r.out.find("matrix 3:  r0<-T24"), std::string::npos);
    EXPECT_NE(r.out.find("T0:d0"), std::string::npos);
}

TEST(CliMatrixMove, ExportWritesJsonAndSvg) {
    const Result json = run({"export", "stmatrix.m8n8.x2.b16", "--format", "json", "-o", "-"});
    ASSERT_EQ(json.code, 0) << json.err;
    const nlohmann::json doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc["matrix_move"]["op"], "stmatrix");
    EXPECT_EQ(doc["operands"][0]["name"], "A");
    const Result svg = run({"export", "movmatrix.m8n8.trans.b16", "--format", "svg", "-o", "-"});
    ASSERT_EQ(svg.code, 0) << svg.err;
    EXPECT_EQ(svg.out.rfind("<?xml", 0), 0u);
    EXPECT_NE(svg.out.find("movmatrix"), std::string::npos);
}

TEST(CliBanks, PrintsThePerPhaseTableInNsightComputeWords) {
    const Result r = run({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "row-major,pitch=128"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("phase 0: threads 0-7, 8 wavefronts (ideal 1), 8-way bank conflict"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("L1 Wavefronts Shared 32, Ideal 4, L1 Wavefronts Shared Excessive 28"),
              std::string::npos);
}

TEST(CliBanks, SearchListsConflictFreeCandidatesAndARecommendation) {
    const Result r = run({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=128", "--search"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("  conflict-free  row-major, pitch 128 B, pad 16 B, no swizzle"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("recommended: row-major, pitch 128 B, pad 0 B, Swizzle<3,3,3>"), std::string::npos);
}

TEST(CliBanks, FeedsChecksTheMmaFragmentAndExitsOneOnAMismatch) {
    const Result ok = run({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16:A"});
    ASSERT_EQ(ok.code, 0) << ok.err;
    EXPECT_NE(ok.out.find("every register slot holds exactly the element the fragment wants (256 cells)"),
              std::string::npos)
        << ok.out;
    EXPECT_NE(ok.out.find("  T17: &A[1][8] (matrix 2 row 1)"), std::string::npos);
    const Result bad = run({"banks", "ldmatrix.m8n8.x2.b16", "--feeds", "mma.m16n8k16.f16:B"});
    EXPECT_EQ(bad.code, 1) << bad.err;
    EXPECT_NE(bad.out.find("T0:b1  [0][1]  [1][0]  MISMATCH"), std::string::npos) << bad.out;
}

TEST(CliBanks, BadInputExitsTwoNamingTheProblem) {
    Result r = run({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=24"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("shorter than one line"), std::string::npos) << r.err;
    r = run({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "start=0x108"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("start 0x0108 is not 16-byte aligned"), std::string::npos) << r.err;
    r = run({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "swizzle=3,2,3"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("smaller than 16 bytes"), std::string::npos) << r.err;
    r = run({"banks", "movmatrix.m8n8.trans.b16"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("reads no shared memory"), std::string::npos) << r.err;
    r = run({"banks", "mma.m16n8k16.f16"});
    EXPECT_EQ(r.code, 2);
    r = run({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("is not SPEC:OPERAND"), std::string::npos) << r.err;
    r = run({"banks", "ldmatrix.m8n8.x4.b16", "--feeds", "mma.m16n8k16.f16:D"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("ldmatrix feeds A or B"), std::string::npos) << r.err;
}

TEST(CliBanks, JsonGoesToTheNamedFile) {
    const auto dir = lanemap::test::freshTempDir("banks-json");
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "banks.json").string();
    const Result r =
        run({"banks", "stmatrix.m8n8.x4.trans.b16", "--smem", "pitch=64,mode=64B", "--json", "-o", path});
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json doc = nlohmann::json::parse(text.str());
    EXPECT_EQ(doc["spec"], "stmatrix.m8n8.x4.trans.b16");
    EXPECT_EQ(doc["placement"]["mode"], "64B");
    EXPECT_EQ(doc["ideal_wavefronts"], 4);
    std::filesystem::remove_all(dir);
}

TEST(CliMatrixMove, ProbeTakesAListOfFamilies) {
    const Result bad = run({"probe", "--all", "--family", "ldmatrix,ldmatrix.b8"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("(or a comma-separated list of them)"), std::string::npos) << bad.err;
    if (lanemap::gpu::discover().available)
        GTEST_SKIP() << "a GPU is present: the device run of this list is recorded in resources/probe";
    const Result r = run({"probe", "--all", "--family", "ldmatrix,stmatrix,movmatrix"});
    EXPECT_EQ(r.code, 3);
    EXPECT_NE(r.err.find("GPU unavailable: "), std::string::npos) << r.err;
}

} // namespace

// --format svg writes the shared-memory picture: the 4-way conflicts of 64-byte rows framed in red, the
// wavefront counts in Nsight Compute's words; an unknown format or one contradicting --json exits 2.
TEST(CliBanks, SvgShowsTheConflicts) {
    const auto dir = lanemap::test::freshTempDir("banks-svg");
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "banks.svg").string();
    const Result r =
        run({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=64", "--format", "svg", "-o", path});
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream in(path);
    std::stringstream svg;
    svg << in.rdbuf();
    EXPECT_EQ(svg.str().rfind("<svg", 0) == 0 || svg.str().rfind("<?xml", 0) == 0, true)
        << svg.str().substr(0, 80);
    EXPECT_NE(svg.str().find("stroke=\"#d62728\""), std::string::npos);
    EXPECT_NE(svg.str().find("4-way bank conflict"), std::string::npos);
    EXPECT_NE(svg.str().find("L1 Wavefronts Shared 16, Ideal 4, L1 Wavefronts Shared Excessive 12"),
              std::string::npos);

    Result bad = run({"banks", "ldmatrix.m8n8.x4.b16", "--format", "png"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("unknown --format 'png'; valid: text, json, svg"), std::string::npos) << bad.err;
    bad = run({"banks", "ldmatrix.m8n8.x4.b16", "--format", "svg", "--json"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("contradict"), std::string::npos) << bad.err;
}

namespace {

// show / export take --smem for a matrix move: the text adds the placement's bank table after the grids,
// the JSON carries the instruction and its banks side by side, the SVG is the shared-memory picture; a spec
// that reads no shared memory, a format that cannot carry it, or a bad placement exits 2 naming it.
TEST(CliMatrixMove, ShowAndExportTakeAPlacement) {
    const Result show = run({"show", "ldmatrix.m8n8.x4.b16", "--smem", "row-major,pitch=64"});
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_NE(show.out.find("T0:d0"), std::string::npos);
    EXPECT_NE(show.out.find("4-way bank conflict"), std::string::npos) << show.out;
    EXPECT_NE(show.out.find("L1 Wavefronts Shared 16, Ideal 4"), std::string::npos);

    const Result json = run(
        {"export", "ldmatrix.m8n8.x4.b16", "--format", "json", "--smem", "pitch=128,mode=128B", "-o", "-"});
    ASSERT_EQ(json.code, 0) << json.err;
    const nlohmann::json doc = nlohmann::json::parse(json.out);
    EXPECT_EQ(doc["instruction"]["matrix_move"]["op"], "ldmatrix");
    EXPECT_EQ(doc["banks"]["placement"]["mode"], "128B");
    EXPECT_EQ(doc["banks"]["excessive_wavefronts"], 0);

    const Result svg =
        run({"export", "stmatrix.m8n8.x4.b16", "--format", "svg", "--smem", "pitch=64", "-o", "-"});
    ASSERT_EQ(svg.code, 0) << svg.err;
    EXPECT_NE(svg.out.find("shared memory &amp; banks"), std::string::npos) << svg.out.substr(0, 400);
    EXPECT_NE(svg.out.find("4-way bank conflict"), std::string::npos);

    Result bad = run({"show", "mma.m16n8k16.f16", "--smem", "pitch=64"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("reads no shared memory"), std::string::npos) << bad.err;
    bad = run({"export", "ldmatrix.m8n8.x4.b16", "--format", "cuda", "--smem", "pitch=64", "-o", "-"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("--smem applies to the txt, json and svg formats"), std::string::npos) << bad.err;
    bad = run({"show", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=24"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("pitch"), std::string::npos) << bad.err;
    bad = run({"export", "--all", "--smem", "pitch=64", "-o", "x"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("one SPEC"), std::string::npos) << bad.err;
}

// banks --feeds --format svg draws the overlay: the addresses, the operand as loaded and as wanted, the
// differing slots framed.
TEST(CliBanks, FeedsSvgDrawsTheOverlay) {
    const Result bad =
        run({"banks", "ldmatrix.m8n8.x2.b16", "--feeds", "mma.m16n8k16.f16:B", "--format", "svg"});
    EXPECT_EQ(bad.code, 1) << bad.err; // a mismatch, as the text verdict
    EXPECT_NE(bad.out.find("B as ldmatrix.m8n8.x2.b16 loads it"), std::string::npos);
    EXPECT_NE(bad.out.find("B as mma.m16n8k16.f16 wants it"), std::string::npos);
    EXPECT_NE(bad.out.find("slots differ"), std::string::npos);
    EXPECT_NE(bad.out.find("lane 9 points at B[9][0]"), std::string::npos);
    const Result ok =
        run({"banks", "ldmatrix.m8n8.x2.trans.b16", "--feeds", "mma.m16n8k16.f16:B", "--format", "svg"});
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_NE(ok.out.find("every register slot holds the element the fragment wants"), std::string::npos);
    EXPECT_EQ(ok.out.find("slots differ"), std::string::npos);
}

} // namespace

namespace {

// banks --feeds --json carries the check: the consumer, the mismatch count and every slot's loaded and wanted
// tile position.
TEST(CliBanks, FeedsJsonCarriesTheCheck) {
    const Result r = run({"banks", "ldmatrix.m8n8.x2.b16", "--feeds", "mma.m16n8k16.f16:B", "--json"});
    EXPECT_EQ(r.code, 1) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    const nlohmann::json& f = doc["feeds"];
    EXPECT_EQ(f["consumer"], "mma.m16n8k16.f16:B");
    EXPECT_EQ(f["operand"], "B");
    EXPECT_EQ(f["mismatches"], 112);
    ASSERT_EQ(f["cells"].size(), 128u);
    // T0's b1: loaded B[0][1], wanted B[1][0].
    EXPECT_EQ(f["cells"][1]["loaded"], nlohmann::json::array({0, 1}));
    EXPECT_EQ(f["cells"][1]["wanted"], nlohmann::json::array({1, 0}));
    EXPECT_EQ(f["cells"][1]["matches"], false);
    EXPECT_FALSE(
        nlohmann::json::parse(run({"banks", "ldmatrix.m8n8.x2.b16", "--json"}).out).contains("feeds"));
}

} // namespace

} // namespace test_cli_banks
