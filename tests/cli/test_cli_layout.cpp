// lanemap-cli and pasted layouts (docs/layouts-in.md): show draws a CuTe or Triton layout as text, SVG and
// JSON; identify names the operand; check exits 0 / 1 / 2 and names the first differing cells in both
// notations and whether the operand is hardware-confirmed; conform prints the matrix.
#include "cli_run.hpp"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace test_cli_layout {

using namespace lanemap::test;

namespace {

constexpr const char* kSm80A = "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))";
constexpr const char* kTritonA = "#ttg.linear<{register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], "
                                 "[1, 0], [2, 0], [4, 0]], warp = [], block = []}>";

std::filesystem::path writeTemp(const std::string& name, const std::string& text) {
    const std::filesystem::path dir = freshTempDir(name);
    std::filesystem::create_directories(dir);
    const std::filesystem::path file = dir / "layouts.txt";
    std::ofstream(file) << text;
    return file;
}

} // namespace

TEST(CliLayout, ShowDrawsACuteLayoutAsTextJsonAndSvg) {
    CliResult r = runCli({"show", kSm80A, "--shape", "16x16"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("layout (CuTe Shape:Stride): ((4,8),(2,2,2)):((32,1),(16,8,128))"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("32 threads x 8 values; every cell held once"), std::string::npos) << r.out;
    // Row 0 of mma.m16n8k16's A: T0 a0 a1, T1 a0 a1, ... (PTX's figure).
    EXPECT_NE(r.out.find("\n 0  T0:v0  T0:v1  T1:v0  T1:v1  T2:v0"), std::string::npos) << r.out;

    r = runCli({"show", kSm80A, "--shape", "16x16", "--format", "json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["threads"], 32);
    EXPECT_EQ(j["elements"].size(), 256u);
    EXPECT_EQ(j["elements"][1], nlohmann::json({0, 1, 0, 1})); // T0 v1 holds (m 0, k 1)

    r = runCli({"show", kSm80A, "--shape", "16x16", "--format", "svg", "--operand", "A"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("<svg"), std::string::npos) << r.out.substr(0, 80);
    EXPECT_NE(r.out.find("T0:a1"), std::string::npos);
}

TEST(CliLayout, ShowReadsATritonAttributeTypedWithoutQuotes) {
    // The shell splits an unquoted attribute into words: they are joined back.
    const CliResult r =
        runCli({"show", "#ttg.linear<{register", "=", "[[0,", "1]],", "lane", "=", "[[1,", "0]]}>"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("shape 2x2 [dim0, dim1]; 2 threads x 2 values"), std::string::npos) << r.out;
}

// A tile's options on a pasted layout were silently ignored: refused, naming what they apply to.
TEST(CliLayout, TileOptionsOnAPastedLayoutAreRefused) {
    const CliResult r = runCli({"show", kSm80A, "--shape", "16x16", "--atom-layout", "(2,2,1)"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("tile a catalog atom"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CliLayout, BadLayoutsExitTwoNamingTheColumn) {
    CliResult r = runCli({"show", "((4,8),(2,2]:((32,1),(16,8))", "--shape", "16x16"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("line 1, column 12: expected ',' or ')' after a mode, found ']'"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("\n             ^"), std::string::npos) << r.err; // the caret under column 12
    r = runCli({"show", kSm80A});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--shape"), std::string::npos) << r.err;
    r = runCli({"show", kSm80A, "--shape", "16x8"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("outside the 16x8 shape"), std::string::npos) << r.err;
    r = runCli({"show", kSm80A, "--shape", "sixteen"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("invalid --shape 'sixteen'"), std::string::npos) << r.err;
    r = runCli({"check", kSm80A, "--against", "mma.m16n8k16.f16"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("SPEC:OPERAND"), std::string::npos) << r.err;
    r = runCli({"check", kSm80A, "--against", "wgmma.m64n64k16.f16:B"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("no register operand B"), std::string::npos) << r.err;
    r = runCli({"check", "@/nonexistent/layout.txt", "--against", "mma.m16n8k16.f16:A"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("cannot read '/nonexistent/layout.txt': No such file or directory"),
              std::string::npos)
        << r.err;
    r = runCli({"conform", "/"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("cannot read '/': Is a directory"), std::string::npos) << r.err;
}

TEST(CliLayout, IdentifyNamesTheOperandOrTheNearest) {
    CliResult r = runCli({"identify", kTritonA});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("  mma.m16n8k16.f16 A"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  mma.m16n8k16.bf16 A"), std::string::npos) << r.out;
    r = runCli({"identify", "((4,8),(2,2,2)):((32,1),(8,16,128))", "--shape", "16x16"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("equal to no catalog operand; the nearest"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("128 of 256 cells differ"), std::string::npos) << r.out;
}

TEST(CliLayout, CheckExitsZeroWhenEqualAndSaysWhereItWasConfirmed) {
    const CliResult r = runCli({"check", kSm80A, "--against", "mma.m16n8k16.f16:A"});
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("equal: every one of the 256 cells"), std::string::npos) << r.out;
    // resources/probe/ holds the H100 run that confirmed mma.m16n8k16.f16.
    EXPECT_NE(r.out.find(
                  "mma.m16n8k16.f16: hardware-confirmed, cell by cell, by the hardware probe on NVIDIA H100"),
              std::string::npos)
        << r.out;
}

TEST(CliLayout, CheckExitsOneNamingTheFirstCellsInBothNotations) {
    CliResult r = runCli({"check", "((4,8),(2,2,2)):((32,1),(8,16,128))", "--against", "mma.m16n8k16.f16:A"});
    ASSERT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.out.find("differs in 128 of 256 cells (128 of them held by the same threads"),
              std::string::npos)
        << r.out;
    EXPECT_NE(
        r.out.find("(m 8, k 0) = index 8, lanemap A(8,0): layout T0 V1 (T0:a1); mma.m16n8k16.f16 A T0 V2 "
                   "(T0:a2)"),
        std::string::npos)
        << r.out;
    // B in CuTe is (N,K): the transposed lanemap B; the Triton B is K x N. Both read the same operand.
    r = runCli({"check", "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))", "--against", "mma.m16n8k16.f16:B"});
    EXPECT_EQ(r.code, 0) << r.out;
    r = runCli({"export", "mma.m16n8k16.f16", "--format", "triton", "-o", "-"});
    ASSERT_EQ(r.code, 0);
    const std::filesystem::path doc = writeTemp("layout-triton", r.out);
    r = runCli({"check", "@" + doc.string(), "--against", "mma.m16n8k16.f16:B"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    // Sparse A cannot be one layout: exit 1, saying why.
    r = runCli({"check", kSm80A, "--against", "mma.sp.m16n8k32.f16:A"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("chosen at run time by the"), std::string::npos) << r.out;
}

TEST(CliLayout, ConformPrintsTheMatrix) {
    const std::filesystem::path file =
        writeTemp("layout-conform",
                  std::string("# CUTLASS atoms and a spec\n") + "SM80_16x8x16_F32F16F16F32_TN:A " + kSm80A +
                      "\n" + "SM80_16x8x16_F32F16F16F32_TN:C ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))\n" +
                      "SM80_16x8x16_F32F16F16F32_TN:B ((_4,_8),(_2,_2)):((_16,_1),(_64,_8))\n" +
                      "mma.sp.m16n8k32.f16:A " + kSm80A + "\n" + "SM99_NO_SUCH_ATOM:A " + kSm80A + "\n");
    CliResult r = runCli({"conform", file.string()});
    ASSERT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.out.find("SM80_16x8x16_F32F16F16F32_TN  equal       differs     equal"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("mma.sp.m16n8k32.f16           not linear"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("SM99_NO_SUCH_ATOM             unknown"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("5 layouts: 2 equal, 1 differ, 1 not linear, 1 unknown"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("line 4, SM80_16x8x16_F32F16F16F32_TN:B: differs"), std::string::npos) << r.out;

    const std::filesystem::path bad =
        writeTemp("layout-conform-bad", "mma.m16n8k16.f16:A ((4,8),(2,2]:(1,1)\n");
    r = runCli({"conform", bad.string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("line 1, column 31: expected ',' or ')'"), std::string::npos) << r.err;
}

TEST(CliLayout, CheckReadsATritonIrDumpWithItsAliases) {
    // Two lines as an IR dump prints them; no --shape: the operand's.
    const std::filesystem::path file =
        writeTemp("cli-layout-dot-op",
                  "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
                  "instrShape = [16, 8]}>\n#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>\n");
    CliResult r = runCli({"check", "@" + file.string(), "--against", "mma.m16n8k16.f16:B"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("over 16x8 = #ttg.linear<{register = [[1, 0], [8, 0]]"), std::string::npos) << r.out;
    // The same B is not A's layout: exit 1, cell by cell.
    r = runCli({"check", "@" + file.string(), "--against", "mma.m16n8k16.f16:A"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
}

TEST(CliLayout, CheckComparesASwizzledLayoutByteForByte) {
    // CuTe's GMMA::Layout_K_SW128_Atom<half_t>, as cute::print writes it: wgmma's 128B K-major B, byte for
    // byte.
    constexpr const char* kAtom = "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)";
    CliResult r = runCli({"check", kAtom, "--against", "wgmma.m64n64k16.f16:B"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("equal: every one of the 512 elements at the same byte"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("hardware-confirmed"), std::string::npos) << r.out;
    // The same swizzle on the element offset (an SM80 layout of 16-bit elements) is the same bytes.
    r = runCli({"check", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "--against", "wgmma.m64n64k16.f16:B"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    // A 64B swizzle against lanemap's 128B: the first row that differs is n 4 (bit 9 of the byte address).
    r = runCli({"check", "Sw<2,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "--against",
                "wgmma.m64n64k16.f16:B", "--swizzle", "128B"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("differs in 256 of 512 elements"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("(n 4, k 0) = CuTe (4,0): layout byte 512; lanemap B(0,4) byte 576"),
              std::string::npos)
        << r.out;
    // An MN-major atom against K-major A differs; with --major MN it is A.
    constexpr const char* kMn = "Sw<3,4,3> o smem_ptr[16b](unset) o (_64,_8):(_1,_64)";
    EXPECT_EQ(runCli({"check", kMn, "--against", "wgmma.m64n64k16.f16:A"}).code, 1);
    EXPECT_EQ(runCli({"check", kMn, "--against", "wgmma.m64n64k16.f16:A", "--major", "MN"}).code, 0);
    // Errors name the column, or what is valid.
    r = runCli({"check", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64]:(_64,_1)", "--against",
                "wgmma.m64n64k16.f16:B"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("line 1, column 43: expected ',' or ')' after a mode"), std::string::npos) << r.err;
    r = runCli({"check", kAtom, "--against", "mma.m16n8k16.f16:A"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("compare it with the A or B of a wgmma"), std::string::npos) << r.err;
    r = runCli({"show", "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("element size is not in the text"), std::string::npos) << r.err;
    // identify names the shared-memory operands it is: wgmma's A and B, K-major, 128B swizzle.
    r = runCli({"identify", kAtom});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("wgmma A, K-major, 128B swizzle"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("wgmma B, K-major, 128B swizzle"), std::string::npos) << r.out;
    // A thread-value reader still refuses it by name.
    r = runCli({"check", kAtom, "--against", "mma.m16n8k16.f16:A"});
    EXPECT_EQ(r.code, 2);
}

namespace {

constexpr const char* kNvmma128 =
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>";

} // namespace

TEST(CliLayout, TritonNvmmaSharedIsCheckedAgainstWgmmaByteForByte) {
    // K-major 128B A over [64, 64]: equal, the swizzle and major-ness the encoding names.
    CliResult r = runCli({"check", kNvmma128, "--shape", "64x64", "--against", "wgmma.m64n64k16.f16:A"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("K-major, 128B swizzle"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("equal: every one of the 4096 elements at the same byte"), std::string::npos)
        << r.out;
    // Its memdesc type carries the shape; against B (Triton's [K, N], not transposed) it is N-major.
    r = runCli({"check", "!ttg.memdesc<64x64xf16, " + std::string(kNvmma128) + ", #smem, mutable>",
                "--against", "wgmma.m64n64k16.f16:B"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("MN-major, 128B swizzle"), std::string::npos) << r.out;
    // Forced to lanemap's 64B: the first element at another byte, in Triton's words and lanemap's.
    r = runCli(
        {"check", kNvmma128, "--shape", "64x64", "--against", "wgmma.m64n64k16.f16:A", "--swizzle", "64B"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(
        r.out.find("(m 0, k 32) = Triton [0, 32] (offset 32): layout byte 64; lanemap A(0,32) byte 4096"),
        std::string::npos)
        << r.out;
    // The instruction's own 64 x 16 A with the swizzle Triton gives it (32B) is equal; 128B is refused as
    // Triton refuses it.
    EXPECT_EQ(
        runCli({"check",
                "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>",
                "--against", "wgmma.m64n64k16.f16:A"})
            .code,
        0);
    r = runCli({"check", kNvmma128, "--against", "wgmma.m64n64k16.f16:A"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("fewer than the 128-byte swizzle's 64"), std::string::npos) << r.err;
    // A swizzled_shared takes the operand's element size.
    r = runCli({"check", "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                "--shape", "64x64", "--against", "wgmma.m64n64k16.f16:A"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    // Bad input: the position and what was expected.
    r = runCli({"check",
                "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = flase, elementBitWidth = 16}>",
                "--shape", "64x64", "--against", "wgmma.m64n64k16.f16:A"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("line 1, column 59: expected true or false after transposed ="), std::string::npos)
        << r.err;
    r = runCli({"show", "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                "--shape", "8x64", "--element-bits", "12"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("invalid --element-bits '12'; valid: 8, 16, 32, 64"), std::string::npos) << r.err;
}

TEST(CliLayout, TritonSharedEncodingsAreShownAndIdentified) {
    CliResult r = runCli({"show", kNvmma128, "--shape", "8x64", "--format", "json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["notation"], "Triton #ttg.nvmma_shared");
    EXPECT_EQ(doc["shape"], nlohmann::json::array({8, 64}));
    EXPECT_EQ(doc["elements"][64], nlohmann::json::array({1, 0, 144}));
    r = runCli({"show", "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                "--shape", "8x64", "--element-bits", "16", "--format", "svg"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("0x90"), std::string::npos); // byte 144's chunk labelled, as the CuTe atom's
    r = runCli({"show", kNvmma128, "--shape", "8x64"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("rows dim0, columns dim1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(
                  "= #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], "
                  "[2, 16], [4, 32]], block = []}>"),
              std::string::npos)
        << r.out;
    // identify: wgmma's K-major 128B A, N-major 128B B; tcgen05.mma's too.
    r = runCli({"identify", kNvmma128, "--shape", "64x64"});
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("wgmma A, K-major, 128B swizzle"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("wgmma B, MN-major, 128B swizzle"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("tcgen05.mma A, K-major, 128B swizzle"), std::string::npos) << r.out;
    // No shape: said how to give it.
    r = runCli({"identify", kNvmma128});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--shape"), std::string::npos) << r.err;
}

TEST(CliLayout, ConformReadsSharedMemoryLines) {
    const std::filesystem::path file = writeTemp(
        "conform-shared", "wgmma.m64n64k16.f16:A !ttg.memdesc<64x64xf16, " + std::string(kNvmma128) +
                              ", #ttg.shared_memory>\n"
                              "wgmma.m64n64k16.f16:B Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)\n"
                              "wgmma.m64n64k16.f16:B !ttg.memdesc<16x64xf16, #ttg.swizzled_shared<{vec = 4, "
                              "perPhase = 1, maxPhase = 8, order = [1, 0]}>, #ttg.shared_memory>\n");
    CliResult r = runCli({"conform", file.string()});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("3 layouts: 2 equal, 1 differ"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("line 3, wgmma.m64n64k16.f16:B: differs"), std::string::npos) << r.out;
}

TEST(CliLayout, ShowDrawsASwizzledLayoutsBytes) {
    CliResult r =
        runCli({"show", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "--format", "json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["shape"], nlohmann::json::array({8, 64}));
    ASSERT_EQ(doc["elements"].size(), 512u);
    // Row 1's first 16-byte chunk moved to chunk 1 of its 128-byte row (1 ^ 0 = ... 128 + 16): element (1, 0)
    // at byte 144.
    EXPECT_EQ(doc["elements"][64], nlohmann::json::array({1, 0, 144}));
    r = runCli({"show", "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)", "--format", "svg"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("<svg"), std::string::npos);
    EXPECT_NE(r.out.find("0x90"), std::string::npos); // byte 144's chunk labelled
}

} // namespace test_cli_layout
