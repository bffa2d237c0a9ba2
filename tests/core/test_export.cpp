// JSON (docs/reference/json.md), text grids like the PTX figures, and atomic writes.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/selection.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/resource.h>

namespace test_export {

using namespace lanemap;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

TEST(Json, FollowsTheDesignSchema) {
    const json doc = json::parse(toJson(get("mma.m16n8k16.f16")));
    EXPECT_EQ(doc["spec"], "mma.m16n8k16.f16");
    EXPECT_EQ(doc["ptx"], "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    EXPECT_EQ(doc["scope"], "warp");
    EXPECT_EQ(doc["threads"], 32);
    EXPECT_EQ(doc["shape"], (json{{"m", 16}, {"n", 8}, {"k", 16}}));
    EXPECT_EQ(doc["min_sm"], 80);
    ASSERT_EQ(doc["operands"].size(), 4u);
    const json& a = doc["operands"][0];
    EXPECT_EQ(a["name"], "A");
    EXPECT_EQ(a["rows"], 16);
    EXPECT_EQ(a["cols"], 16);
    EXPECT_EQ(a["element_type"], "f16");
    EXPECT_EQ(a["element_bits"], 16);
    EXPECT_EQ(a["registers"], 4);
    EXPECT_EQ(a["register_bits"], 32);
    ASSERT_EQ(a["elements"].size(), 256u);
    const json& e = a["elements"][0];
    EXPECT_EQ(e, (json{{"thread", 0},
                       {"index", 0},
                       {"register", 0},
                       {"bit", 0},
                       {"row", 0},
                       {"col", 0},
                       {"source", "doc"}}));
    // Lane 13, a5: register 2, bits 16..31, row 3, col 11.
    const json& e13 = a["elements"][13 * 8 + 5];
    EXPECT_EQ(e13["thread"], 13);
    EXPECT_EQ(e13["index"], 5);
    EXPECT_EQ(e13["register"], 2);
    EXPECT_EQ(e13["bit"], 16);
    EXPECT_EQ(e13["row"], 3);
    EXPECT_EQ(e13["col"], 11);
    EXPECT_EQ(doc["operands"][3]["name"], "D");
}

TEST(Json, QuadPairElementsCarryTheirProduct) {
    const json doc = json::parse(toJson(get("mma.m8n8k4.row.col.f16")));
    const json& a = doc["operands"][0];
    EXPECT_EQ(a["matrices"], 4);
    EXPECT_EQ(a["elements"][13 * 4 + 2]["matrix"], 3);
    EXPECT_EQ(doc["layouts"]["a"], "row");
}

TEST(Json, ErrataAreListed) {
    const json doc = json::parse(toJson(get("mma.m16n8k256.b1")));
    ASSERT_TRUE(doc.contains("errata"));
    EXPECT_EQ(doc["errata"][0]["id"], "E1");
    EXPECT_EQ(doc["errata"][0]["status"], "confirmed");
    EXPECT_EQ(doc["operands"][0]["elements"][32]["source"], "hardware");
}

TEST(Json, IsDeterministic) {
    EXPECT_EQ(toJson(get("mma.m16n8k32.s8")), toJson(get("mma.m16n8k32.s8")));
}

TEST(Text, GridLooksLikeThePtxFigure) {
    const Instruction& in = get("mma.m16n8k16.f16");
    const std::string grid = toTextGrid(in, *in.operand(Operand::A));
    std::istringstream lines(grid);
    std::string summary, header, row0;
    std::getline(lines, summary);
    std::getline(lines, header);
    std::getline(lines, row0);
    EXPECT_NE(summary.find("4 x 32-bit registers per thread, 2 elements each"), std::string::npos) << summary;
    std::istringstream cells(row0);
    std::vector<std::string> tokens{std::istream_iterator<std::string>(cells), {}};
    ASSERT_EQ(tokens.size(), 17u);
    EXPECT_EQ(tokens[0], "0");
    EXPECT_EQ(tokens[1], "T0:a0");
    EXPECT_EQ(tokens[2], "T0:a1");
    EXPECT_EQ(tokens[3], "T1:a0");
    EXPECT_EQ(tokens[9], "T0:a4");
}

TEST(Text, QuadPairPrintsOneGridPerProduct) {
    const Instruction& in = get("mma.m8n8k4.row.col.f16");
    const std::string grid = toTextGrid(in, *in.operand(Operand::C));
    EXPECT_NE(grid.find("product 3 (quad-pair lanes 12..15, 28..31)"), std::string::npos);
}

class AtomicWrite : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("lanemap-test-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    static std::string read(const fs::path& p) {
        std::ifstream in(p);
        return {std::istreambuf_iterator<char>(in), {}};
    }
    std::size_t entries() const {
        return static_cast<std::size_t>(std::distance(fs::directory_iterator(m_dir), {}));
    }
    fs::path m_dir;
};

TEST_F(AtomicWrite, WritesAndReplaces) {
    const fs::path file = m_dir / "a.json";
    EXPECT_EQ(writeFile(file.string(), "old"), "");
    EXPECT_EQ(writeFile(file.string(), "new"), "");
    EXPECT_EQ(read(file), "new");
    EXPECT_EQ(entries(), 1u) << "no temp files left behind";
}

TEST_F(AtomicWrite, FailureNamesThePathAndLeavesNoTempFile) {
    const fs::path missing = m_dir / "no-such-folder" / "a.json";
    const std::string error = writeFile(missing.string(), "x");
    EXPECT_NE(error.find(missing.string()), std::string::npos) << error;
    EXPECT_NE(error.find("No such file"), std::string::npos) << error;
    EXPECT_EQ(entries(), 0u);
}

TEST_F(AtomicWrite, FailedRenameKeepsWhatWasThere) {
    // A non-empty folder where the file should go: the rename fails, the folder and its file survive.
    const fs::path target = m_dir / "taken";
    fs::create_directories(target);
    { std::ofstream(target / "keep") << "precious"; }
    const std::string error = writeFile(target.string(), "x");
    EXPECT_NE(error.find(target.string()), std::string::npos) << error;
    EXPECT_EQ(read(target / "keep"), "precious");
    EXPECT_EQ(entries(), 1u) << "no temp files left behind";
}

TEST(ExportOptions, RejectUnknownOperandAndSelector) {
    std::string doc, error;
    ExportOptions options;
    options.operands = Operand::Metadata; // a dense instruction has none
    EXPECT_FALSE(exportInstruction(get("mma.m16n8k16.f16"), ExportFormat::Text, options, doc, error));
    EXPECT_NE(error.find("valid operands: A, B, C, D"), std::string::npos) << error;
    // A selector is the instance's parameter: a dense instruction takes none.
    Params params;
    params.selector = 1;
    error = validate({Catalog::instance().variant("mma.m16n8k16.f16"), params});
    EXPECT_NE(error.find("dense"), std::string::npos) << error;
    EXPECT_THROW(instantiate({Catalog::instance().variant("mma.m16n8k16.f16"), params}),
                 std::invalid_argument);
}

} // namespace

namespace {

// A write that runs out of space part-way (simulated with RLIMIT_FSIZE, which fails write() with EFBIG the
// way a full disk fails it with ENOSPC): the old file survives untouched and no temp file is left behind.
TEST_F(AtomicWrite, WriteFailurePartWayKeepsTheOldFile) {
    const fs::path file = m_dir / "keep.json";
    ASSERT_EQ(writeFile(file.string(), "old contents"), "");
    struct rlimit saved {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = saved;
    small.rlim_cur = 64;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const std::string error = writeFile(file.string(), std::string(100000, 'x'));
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous);
    EXPECT_NE(error.find(file.string()), std::string::npos) << error;
    EXPECT_NE(error.find("too large"), std::string::npos) << error;
    EXPECT_EQ(read(file), "old contents");
    EXPECT_EQ(entries(), 1u) << "no temp files left behind";
}

} // namespace

} // namespace test_export
