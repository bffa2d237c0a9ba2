// lanemap-cli with wgmma: the shared-memory view of B (and A) with --major/--swizzle, and its input errors.
#include "cli.hpp"
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace test_cli_wgmma {

namespace {

using Result = lanemap::test::CliResult;
const auto run = lanemap::test::runCli;

TEST(CliWgmma, ShowOperandBPrintsTheSharedMemoryAddressGrid) {
    const Result r = run({"show", "wgmma.m64n64k16.f16", "--operand", "B", "--swizzle", "128B"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("B in shared memory (K x N = 16 x 64, .f16, 16 bits): K-major, 128B swizzle", 0),
              0u);
    EXPECT_NE(r.out.find("byte address of each element (hex; row = k, col = n):"), std::string::npos);
    EXPECT_NE(r.out.find("\n  0 0    90   120  1b0"), std::string::npos) << r.out.substr(0, 1500);

    const Result none = run({"show", "wgmma.m64n64k16.f16", "--operand", "b", "--swizzle", "none"});
    ASSERT_EQ(none.code, 0) << none.err;
    EXPECT_NE(none.out.find("K-major, none swizzle"), std::string::npos);
    EXPECT_NE(none.out.find("\n  0 0   10  20  30"), std::string::npos) << none.out.substr(0, 1500);
}

TEST(CliWgmma, ShowOperandAWithMajorIsItsSharedMemoryView) {
    const Result r =
        run({"show", "wgmma.m64n8k16.bf16", "--operand", "A", "--major", "MN", "--swizzle", "64B"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("A in shared memory (M x K = 64 x 16, .bf16, 16 bits): MN-major, 64B swizzle", 0),
              0u);
    const Result regs = run({"show", "wgmma.m64n8k16.bf16", "--operand", "A"});
    ASSERT_EQ(regs.code, 0);
    EXPECT_EQ(regs.out.rfind("A (64x16, .bf16): 4 x 32-bit registers per thread", 0), 0u)
        << regs.out.substr(0, 200);
}

TEST(CliWgmma, ExportJsonWithAnotherLayout) {
    const Result r = run({"export", "wgmma.m64n32k16.bf16", "--major", "MN", "--swizzle", "none", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    const nlohmann::json& b = doc["shared_memory"][1];
    EXPECT_EQ(b["major"], "MN");
    EXPECT_EQ(b["swizzle"], "none");
    EXPECT_EQ(b["sbo"], 128);
    EXPECT_EQ(b["lbo"], 512) << "4 core matrices of 16 bytes x 8 k along N, then the next 8 k";
}

TEST(CliWgmma, BadSharedMemoryOptionsExit2WithTheValidChoices) {
    Result r = run({"show", "wgmma.m64n64k16.f16", "--operand", "B", "--swizzle", "48B"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown --swizzle '48B'; valid: none, 32B, 64B, 128B"), std::string::npos) << r.err;
    r = run({"show", "wgmma.m64n64k16.f16", "--major", "row"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown --major 'row'; valid: K, MN"), std::string::npos) << r.err;
    r = run({"show", "wgmma.m64n8k8.tf32", "--operand", "B", "--major", "MN"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("exists only for .f16/.bf16"), std::string::npos) << r.err;
    r = run({"show", "mma.m16n8k16.f16", "--swizzle", "32B"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("every operand in registers"), std::string::npos) << r.err;
    r = run({"show", "wgmma.m64n8k16.f16", "--operand", "C"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid operands: A, D, B (shared memory)"), std::string::npos) << r.err;
}

TEST(CliWgmma, InvalidNListsTheValidN) {
    const Result r = run({"show", "wgmma.m64n136k32.s8"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid N: 8, 16, 24, 32, 48, 64"), std::string::npos) << r.err;
}

} // namespace

} // namespace test_cli_wgmma
