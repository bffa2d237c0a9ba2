// lanemap-cli against hostile arguments: every bad number, value or name is one line on stderr, `lanemap-cli:
// ...`, that names it escaped and cut and says what is valid, with exit 2; nothing is read as something else
// (an empty number as 0, a repeated key as its last value, N=0 as the largest N).
#include "cli_run.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace test_cli_hostile_arguments {

namespace fs = std::filesystem;
using lanemap::test::CliResult;
using lanemap::test::runCli;

namespace {

// Bytes a terminal would act on: C0 controls and DEL, a raw 0x9b (CSI to an 8-bit terminal), and the UTF-8
// C1 controls U+0080..U+009F (0xc2 0x80..0x9f).
std::string controlIn(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && !(c == '\n' && i + 1 == text.size())) || c == 0x7f || c == 0x9b)
            return "byte " + std::to_string(c) + " at " + std::to_string(i);
        if (c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
            static_cast<unsigned char>(text[i + 1]) <= 0x9f)
            return "C1 control at " + std::to_string(i);
    }
    return {};
}

// One line, `lanemap-cli: ...`, no terminal controls, exit 2, containing `expected`.
void expectOneLineError(const std::vector<std::string>& args, const std::string& expected) {
    std::string command;
    for (const std::string& a : args)
        command += " " + a;
    const CliResult r = runCli(args);
    EXPECT_EQ(r.code, 2) << command << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("lanemap-cli: ", 0), 0u) << command << "\n" << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << command << ": not one line\n" << r.err;
    EXPECT_EQ(controlIn(r.err), "") << command << "\n" << r.err;
    EXPECT_NE(r.err.find(expected), std::string::npos) << command << "\n" << r.err;
}

// Item 9: CLI11 refused numbers beyond int in two lines ("Could not convert: row = 2147483648", "Run with
// --help ...") that named no range.
TEST(CliHostileArguments, NumbersBeyondIntNameTheValidRange) {
    expectOneLineError({"where", "mma.m16n8k16.f16", "A", "2147483648", "0"},
                       "row 2147483648 is outside A (16x16); valid: 0..15");
    expectOneLineError({"where", "mma.m16n8k16.f16", "A", "0", "-99999999999999999999999"},
                       "column -99999999999999999999999 is outside A (16x16); valid: 0..15");
    expectOneLineError({"what", "mma.m16n8k16.f16", "--lane", "99999999999"}, "lane 99999999999 is outside");
    expectOneLineError({"what", "mma.m16n8k16.f16", "--lane", "99999999999"}, "valid: 0..31");
    expectOneLineError({"what", "mma.m16n8k16.f16", "--lane", "1", "--register", "4294967296"},
                       "register 4294967296 is outside every operand of mma.m16n8k16.f16; valid: 0..3");
    expectOneLineError({"feeds", "mma.m16n8k16.f16", "99999999999", "0"}, "row 99999999999 is outside D");
    expectOneLineError(
        {"feeds", "mma.sp.m16n8k32.f16", "3", "5", "--selector", "9999999999"},
        "sparsity selector 9999999999 is not valid for mma.sp.m16n8k32.f16; valid selectors: 0, 1");
    expectOneLineError({"show", "tcgen05.ld.16x32bx2.x2", "--imm-half-splitoff", "99999999999"},
                       "immHalfSplitoff 99999999999 out of range for tcgen05.ld.16x32bx2.x2: valid 2 to 510");
    expectOneLineError({"show", "mma.sp.m16n8k16.f16", "--selector", "99999999999"},
                       "--selector 99999999999 is out of range: --selector must be 0..3");
    expectOneLineError({"show", "tcgen05.mma.cta_group::1.kind::mxf8f6f4.m128n64", "--sfa-id", "99999999999"},
                       "--sfa-id 99999999999 is out of range");
    expectOneLineError({"list", "--sm", "99999999999"}, "--sm 99999999999 is out of range: valid 1 to 999");
    expectOneLineError({"decode", "--idesc", "0x08400490", "--kind", "f16", "--cta-group", "4294967297"},
                       "--cta-group 4294967297 is not a CTA group; valid: 1, 2");
}

// CLI11's other parse errors: one line too, with where to look.
TEST(CliHostileArguments, ParseErrorsAreOneLine) {
    expectOneLineError({"where", "mma.m16n8k16.f16", "A", "3"},
                       "col is required; see lanemap-cli where --help");
    expectOneLineError({"what", "mma.m16n8k16.f16"}, "see lanemap-cli what --help");
    expectOneLineError({"show", "mma.m16n8k16.f16", "--operand"}, "see lanemap-cli show --help");
    expectOneLineError({"nope"}, "unknown command 'nope'; valid: list, show");
}

// Item 10: an empty number was read as 0 (`where SPEC A '' ''` answered A[0][0], exit 0).
TEST(CliHostileArguments, EmptyOrMalformedNumbersAreRefused) {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"where", "mma.m16n8k16.f16", "A", "", ""},
             {"where", "mma.m16n8k16.f16", "A", "3", ""},
             {"where", "mma.m16n8k16.f16", "A", "3x", "1"},
             {"what", "mma.m16n8k16.f16", "--lane", ""},
             {"what", "mma.m16n8k16.f16", "--thread", " 1"},
             {"what", "mma.m16n8k16.f16", "--lane", "1", "--register", ""},
             {"feeds", "mma.m16n8k16.f16", "", "1"},
             {"feeds", "mma.sp.m16n8k32.f16", "3", "5", "--selector", ""},
             {"show", "mma.sp.m16n8k16.f16", "--selector", ""},
             {"export", "mma.sp.m16n8k16.f16", "--selector", "", "-o", "-"},
             {"show", "tcgen05.ld.16x32bx2.x2", "--imm-half-splitoff", ""},
             {"show", "tcgen05.mma.cta_group::1.kind::mxf8f6f4.m128n64", "--sfb-id", "+1"},
             {"list", "--sm", ""},
             {"decode", "--idesc", "0x08400490", "--kind", "f16", "--cta-group", ""}})
        expectOneLineError(args, "is not a whole number");
}

TEST(CliHostileArguments, InvalidAndRepeatedValuesAreRefused) {
    // N = 0 showed the largest N (256); a leading zero was read as the number (m016n8k16 is refused).
    for (const char* spec :
         {"tcgen05.mma.cta_group::1.kind::f16.m128n0", "tcgen05.mma.cta_group::1.kind::f16.m0128n8",
          "tcgen05.mma.cta_group::1.kind::f16.m128n08"}) {
        expectOneLineError({"show", spec}, "invalid shape");
        expectOneLineError({"export", spec, "--format", "json", "-o", "-"}, "invalid shape");
    }
    expectOneLineError({"show", "wmma.m016n16k16.row.col.f16.f32"}, "unknown component 'm016n16k16'");
    expectOneLineError({"show", "wmma::fragment<matrix_a,16,16,016,half,row_major>"},
                       "M, N and K of wmma::fragment must be numbers");
    expectOneLineError({"show", "wmma::fragment<matrix_a,16,16,16abc,half,row_major>"},
                       "M, N and K of wmma::fragment must be numbers");
    // A repeated key took its last value, silently; pitch=0 meant "the tile's own line".
    expectOneLineError({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=32,pitch=64"},
                       "pitch= given twice");
    expectOneLineError({"show", "ldmatrix.m8n8.x4.b16", "--smem", "pad=16,pitch=128,pad=0"},
                       "pad= given twice");
    expectOneLineError({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=0"},
                       "pitch 0 is not a line length");
    expectOneLineError({"decode", "--idesc-from", "kind=f16,m=128,m=64"}, "'m' is given twice");
    expectOneLineError({"decode", "--idesc-from", "kind=f16,KIND=tf32"}, "'kind' is given twice");
    expectOneLineError({"decode", "--smem-desc-from", "start=0x400,start=0"}, "'start' is given twice");
    // What was valid still is.
    EXPECT_EQ(runCli({"show", "tcgen05.mma.cta_group::1.kind::f16.m128n8"}).code, 0);
    EXPECT_EQ(runCli({"banks", "ldmatrix.m8n8.x4.b16", "--smem", "pitch=128,pad=16"}).code, 0);
    EXPECT_EQ(runCli({"decode", "--idesc-from", "kind=f16,m=128,n=256"}).code, 0);
}

// Item 8: raw ESC/BEL/LF and C1 controls reached the terminal from CLI11's errors, paths, decode keys,
// --lanes and wmma components, and paths were not cut.
TEST(CliHostileArguments, EchoedInputIsEscapedAndCut) {
    const std::string esc = "\x1b]0;owned\x07\n",
                      csi = "\xc2\x9b"
                            "31m",
                      raw = "\x9b"
                            "31m";
    for (const std::string& bad : {esc, csi, raw}) {
        expectOneLineError({"show", "mma.m16n8k16.f16", bad}, "not expected");
        expectOneLineError({"where", "mma.m16n8k16.f16", "A", bad, "0"}, "is not a whole number");
        expectOneLineError({"export", "mma.m16n8k16.f16", "-o", "/nonexistent-" + bad + "/x.json"},
                           "cannot write");
        expectOneLineError({"decode", "--idesc-from", "kind=f16," + bad + "=1"}, "unknown key");
        expectOneLineError({"decode", "--smem-desc-from", "mode=" + bad}, "mode '");
        expectOneLineError(
            {"export", "mma.m16n8k16.f16", "--format", "svg", "--lanes", "0-3," + bad, "-o", "-"},
            "bad lane list");
        expectOneLineError({"show", "wmma.m16n16k16." + bad + ".f16"}, "unknown component");
        expectOneLineError({"show", "wmma::fragment<matrix_a,16,16,16," + bad + ",row_major>"},
                           "unknown fragment element type");
        expectOneLineError({"show", "tcgen05.mma.cta_group::1.kind::f16.m128" + bad}, "invalid");
        expectOneLineError({"list", "--family", bad}, "unknown family");
    }
    expectOneLineError({"show", "mma.m16n8k16.f16", csi}, "\\u009b31m");
    expectOneLineError({"show", "mma.m16n8k16.f16", raw}, "\\x9b31m");
    // A 5,000-character path gave a 5,055-byte message.
    const CliResult r =
        runCli({"export", "mma.m16n8k16.f16", "-o", "/nonexistent/" + std::string(5000, 'p')});
    EXPECT_EQ(r.code, 2);
    EXPECT_LT(r.err.size(), 400u) << r.err.size();
    EXPECT_NE(r.err.find("(5013 bytes)"), std::string::npos) << r.err;
}

// Item 11: an empty output name wrote to stdout (banks) or skipped the check made before the run (probe and
// discover: the run would be lost at the end).
TEST(CliHostileArguments, EmptyOutputNamesAreRefused) {
    const CliResult banks = runCli({"banks", "ldmatrix.m8n8.x4.b16", "--format", "svg", "-o", ""});
    EXPECT_EQ(banks.code, 2);
    EXPECT_EQ(banks.out, "");
    EXPECT_NE(banks.err.find("empty file name"), std::string::npos) << banks.err;
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"probe", "mma.m16n8k16.f16", "--json", ""},
          std::vector<std::string>{"discover", "--family", "wmma", "--json", ""}}) {
        const CliResult r = runCli(args); // exit 2 before the GPU is looked for (3: unavailable)
        EXPECT_EQ(r.code, 2) << args[0] << ": " << r.err;
        EXPECT_NE(r.err.find("--json: cannot write '': empty file name"), std::string::npos) << r.err;
    }
}

// Item 12: with SIGPIPE ignored, `list` into a closed pipe said so twice (run() and main() each).
TEST(CliHostileArguments, AClosedPipeIsOneErrorLine) {
    int out[2], err[2];
    ASSERT_EQ(::pipe(out), 0);
    ASSERT_EQ(::pipe(err), 0);
    ::close(out[0]); // nobody reads: every write fails with EPIPE
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGPIPE, SIG_IGN); // inherited through exec
        ::dup2(out[1], STDOUT_FILENO);
        ::dup2(err[1], STDERR_FILENO);
        ::execl(LANEMAP_CLI_BINARY, LANEMAP_CLI_BINARY, "list", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(out[1]);
    ::close(err[1]);
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = ::read(err[0], buffer, sizeof buffer)) > 0;)
        text.append(buffer, static_cast<std::size_t>(n));
    ::close(err[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 2);
    EXPECT_NE(text.find("could not be written"), std::string::npos) << text;
    EXPECT_EQ(text.find('\n'), text.size() - 1) << "more than one line for one failure:\n" << text;
}

// Item 13: a tcgen05.mma view holds no register operand. `where` said "valid operands: " (an empty list),
// `what` printed a bare header with exit 0, `feeds` said "has no D operand". `where` now names the CTA of the
// pair and the Tensor Memory or shared-memory place (docs/tiles.md#cta-pairs); `what` and `feeds` point to
// it.
TEST(CliHostileArguments, QueriesOfATcgen05MmaSayWhereDIs) {
    const std::string spec = "tcgen05.mma.cta_group::1.kind::f16.m128n256";
    for (const std::vector<std::string>& args : {std::vector<std::string>{"what", spec, "--lane", "127"},
                                                 std::vector<std::string>{"feeds", spec, "0", "0"}}) {
        expectOneLineError(args, "keeps D in Tensor Memory, not in registers");
        expectOneLineError(args, "--ld SHAPE");
        expectOneLineError(args, "names the CTA of the pair that holds an element");
        EXPECT_EQ(runCli(args).out, "") << args[0];
    }
    const CliResult d = runCli({"where", spec, "D", "0", "0"});
    EXPECT_EQ(d.code, 0) << d.err;
    EXPECT_NE(d.out.find("CTA 0 (cta_group::1: one CTA holds all of D), its D[0][0]: Tensor Memory lane 0, "
                         "column 0"),
              std::string::npos)
        << d.out;
    const CliResult pair = runCli({"where", "tcgen05.mma.cta_group::2.kind::f16.m256n64", "A", "200", "3"});
    EXPECT_EQ(pair.code, 0) << pair.err;
    EXPECT_NE(pair.out.find("CTA 1 of the pair (cta_group::2: CTA 1 holds A's rows 128..255), its A[72][3]: "
                            "shared memory byte"),
              std::string::npos)
        << pair.out;
    expectOneLineError({"where", spec, "A", "300", "0"}, "row 300 is outside A (128x16); valid: 0..127");
    // what --cta: the CTA's part of A, B and D; with --lane, or without either, one line and exit 2.
    const CliResult cta = runCli({"what", "tcgen05.mma.cta_group::2.kind::f16.m256n256", "--cta", "1"});
    EXPECT_EQ(cta.code, 0) << cta.err;
    EXPECT_NE(cta.out.find("D rows 128..255 (its 128x256): Tensor Memory lanes 0..127, columns 0..255"),
              std::string::npos)
        << cta.out;
    expectOneLineError({"what", spec, "--cta", "0", "--lane", "3"}, "not --lane or --register");
    expectOneLineError({"what", spec, "--cta", "2"}, "CTA 2 is outside");
    expectOneLineError({"what", "mma.m16n8k16.f16", "--cta", "0"}, "give --lane or --thread");
}

} // namespace

} // namespace test_cli_hostile_arguments
