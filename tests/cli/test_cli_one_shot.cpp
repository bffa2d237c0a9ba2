// A one-shot `show` or `export` registers only the variant it names, and CLI11 gives a help flag only to the
// subcommand named: what a user sees must not depend on either. Each command here runs in a fresh lanemap-cli
// process (the spec is the first and only thing that process asks for) and is compared with the same command
// run in-process after every family table has registered.
#include "cli.hpp"
#include "cli_run.hpp"

#include "lanemap/catalog.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <vector>

namespace test_cli_one_shot {

namespace fs = std::filesystem;

namespace {

using lanemap::test::CliResult;
using lanemap::test::runCli;

std::string readAll(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string quoted(const std::string& arg) {
    std::string q = "'";
    for (char c : arg)
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// The real binary, started for this one command: stdout, stderr and exit code.
CliResult runFresh(const std::vector<std::string>& args) {
    const fs::path dir = lanemap::test::freshTempDir("one-shot");
    fs::create_directories(dir);
    std::string command = LANEMAP_CLI_BINARY;
    for (const std::string& a : args)
        command += " " + quoted(a);
    command += " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
    const int status = std::system(command.c_str());
    CliResult r{WIFEXITED(status) ? WEXITSTATUS(status) : 128, readAll(dir / "out"), readAll(dir / "err")};
    fs::remove_all(dir);
    return r;
}

// In-process, with every family table registered first.
CliResult runAfterEveryTable(const std::vector<std::string>& args) {
    EXPECT_GT(lanemap::Catalog::instance().variants().size(), 1000u);
    return runCli(args);
}

void expectSame(const std::vector<std::string>& args) {
    std::string shown;
    for (const std::string& a : args)
        shown += a + " ";
    const CliResult fresh = runFresh(args);
    const CliResult full = runAfterEveryTable(args);
    EXPECT_EQ(fresh.code, full.code) << shown;
    EXPECT_EQ(fresh.out, full.out) << shown;
    EXPECT_EQ(fresh.err, full.err) << shown;
}

// One spec of every family (and both mma.sp spellings), the first thing its process asks for.
const std::vector<std::string> kOneSpecPerFamily{
    "mma.m16n8k16.f16",           "mma.m8n8k4.row.row.f16",
    "mma.sp.m16n8k32.f16",        "mma.sp::ordered_metadata.m16n8k64.e4m3.f16",
    "wgmma.m64n256k16.f16",       "wgmma.sp.m64n8k32.bf16",
    "ldmatrix.m8n8.x4.trans.b16", "stmatrix.m8n8.x2.b16",
    "movmatrix.m8n8.trans.b16",   "wmma.m16n16k16.row.col.f16.f32",
    "tcgen05.ld.16x64b.x1",       "tcgen05.st.32x32b.x8",
};

TEST(CliOneShot, ShowOfASpecOfEachFamilyAloneInItsProcessPrintsWhatTheWholeCatalogDoes) {
    for (const std::string& spec : kOneSpecPerFamily) {
        const CliResult fresh = runFresh({"show", spec});
        EXPECT_EQ(fresh.code, 0) << spec << ": " << fresh.err;
        EXPECT_NE(fresh.out.find(spec), std::string::npos) << spec;
        expectSame({"show", spec});
    }
}

TEST(CliOneShot, ExportOfASpecOfEachFamilyAloneInItsProcessWritesWhatTheWholeCatalogDoes) {
    for (const std::string& spec : kOneSpecPerFamily)
        for (const char* format : {"svg", "json"})
            expectSame({"export", spec, "--format", format, "-o", "-"});
}

TEST(CliOneShot, OtherSpellingsOfOneVariantResolveAloneInTheirProcess) {
    // PTX strings (one with mixed A/B types), upper case, wmma's short spec and a CUDA C++ fragment type:
    // each resolves to its variant when nothing else was asked for.
    for (const char* text : {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
                             "mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32", "wmma.m16n16k16.f16",
                             "MMA.M16N8K16.F16", "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                             "nvcuda::wmma::fragment<matrix_a,16,16,16,half,row_major>"}) {
        const CliResult fresh = runFresh({"show", text});
        EXPECT_EQ(fresh.code, 0) << text << ": " << fresh.err;
        expectSame({"show", text});
    }
}

TEST(CliOneShot, AnUnknownSpecStillListsItsNearestValidSpecs) {
    // The suggestions need the family tables: they are registered on the error path, as before.
    for (const char* text : {"mma.m16n8k16.f16.nope", "mma.m16n8k17.f16", "wgmma.m64n7k16.f16",
                             "ldmatrix.m8n8.x3.b16", "wmma.m16n16k17.f16", "tcgen05.ld.16x64b.x3", "nope"}) {
        const CliResult fresh = runFresh({"show", text});
        EXPECT_EQ(fresh.code, 2) << text;
        EXPECT_NE(fresh.err.find("invalid spec"), std::string::npos) << text << ": " << fresh.err;
        expectSame({"show", text});
    }
    const CliResult r = runFresh({"show", "mma.m16n8k16.f16.nope"});
    EXPECT_NE(r.err.find("nearest valid specs: mma.m16n8k16.f16"), std::string::npos) << r.err;
}

TEST(CliOneShot, HelpOfEverySubcommandIsWhatItWasWithItsHelpFlagFirst) {
    // Only the named subcommand gets -h,--help (CLI11 would copy it into all eleven): its help still lists
    // it first, and the program's help lists -h,--help and then --version.
    const CliResult top = runFresh({"--help"});
    EXPECT_EQ(top.code, 0);
    const std::size_t help = top.out.find("-h,--help"), version = top.out.find("--version");
    ASSERT_NE(help, std::string::npos) << top.out;
    ASSERT_NE(version, std::string::npos) << top.out;
    EXPECT_LT(help, version) << top.out;
    for (const char* command : {"list", "show", "export", "probe", "banks", "decode", "where", "what",
                                "feeds", "diff", "discover"}) {
        for (const char* flag : {"--help", "-h"}) {
            const CliResult r = runFresh({command, flag});
            EXPECT_EQ(r.code, 0) << command;
            const std::size_t options = r.out.find("Options:");
            ASSERT_NE(options, std::string::npos) << command << ": " << r.out;
            const std::size_t first = r.out.find_first_not_of(" \n", options + 8);
            EXPECT_EQ(r.out.compare(first, 9, "-h,--help"), 0) << command << ": " << r.out;
            expectSame({command, flag});
        }
    }
}

TEST(CliOneShot, ErrorsWithoutOrBesideTheNamedSubcommandAreOneLine) {
    // Subcommands not named are not added: CLI11 said "A subcommand is required" for an unknown command, on
    // two lines, as for every parse error. Each is one line now, naming what is valid or where to look.
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {}, {"nope"}, {"--nope"}, {"mma.m16n8k16.f16"}, {"show", "mma.m16n8k16.f16", "list"}}) {
        const CliResult r = runFresh(args);
        EXPECT_EQ(r.code, 2) << (args.empty() ? "" : args.front());
        EXPECT_EQ(r.err.rfind("lanemap-cli: ", 0), 0u) << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    }
    EXPECT_EQ(runFresh({"nope"}).err,
              "lanemap-cli: unknown command 'nope'; valid: list, show, export, probe, "
              "discover, banks, where, what, feeds, diff, decode, identify, check, conform\n");
    EXPECT_EQ(runFresh({"show", "mma.m16n8k16.f16", "list"}).err,
              "lanemap-cli: The following argument was not expected: list; see lanemap-cli show --help\n");
    const CliResult version = runFresh({"--version"});
    EXPECT_EQ(version.code, 0);
    EXPECT_EQ(version.out.rfind("lanemap-cli ", 0), 0u) << version.out;
}

} // namespace

} // namespace test_cli_one_shot
