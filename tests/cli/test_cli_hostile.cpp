// lanemap-cli against hostile targets, streams and flags: every bad input or failed write exits non-zero with
// a message, and nothing the user had is lost.
#include "cli.hpp"
#include "cli_run.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/gpu/probe.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>

#include "fifo.hpp"
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <streambuf>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

namespace test_cli_hostile {

namespace fs = std::filesystem;

namespace {
using lanemap::testing::readFifo;

using lanemap::test::runCli;

struct Shell {
    int code;
    std::string err;
};

// Runs the real binary through the shell (redirections are the point), stderr captured.
Shell shell(const std::string& arguments, const fs::path& dir) {
    const fs::path errFile = dir / "stderr.txt";
    const int status =
        std::system((std::string(LANEMAP_CLI_BINARY) + " " + arguments + " 2>" + errFile.string()).c_str());
    std::ifstream in(errFile);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            {std::istreambuf_iterator<char>(in), {}}};
}

class CliHostile : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = lanemap::test::freshTempDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

TEST_F(CliHostile, ExportToAFifoStreamsIntoIt) {
    const fs::path fifo = m_dir / "f";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto reader = std::async(std::launch::async, [&] { return readFifo(fifo.string()); });
    const auto r = runCli({"export", "mma.m16n8k16.f16", "-o", fifo.string()});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(reader.get().find("\"spec\": \"mma.m16n8k16.f16\""), std::string::npos);
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO became a regular file";
}

TEST_F(CliHostile, ExportKeepsTheModeOfTheFileItReplaces) {
    const fs::path file = m_dir / "private.json";
    std::ofstream(file) << "old";
    ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
    ASSERT_EQ(runCli({"export", "mma.m16n8k16.f16", "-o", file.string()}).code, 0);
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write);
}

TEST_F(CliHostile, FailedStdoutIsAnErrorNotASuccess) {
    for (const std::string& command :
         {std::string("show mma.m16n8k16.f16 >/dev/full"), std::string("list >/dev/full"),
          std::string("export mma.m16n8k16.f16 -o - >/dev/full"), std::string("show mma.m16n8k16.f16 >&-")}) {
        const Shell r = shell(command, m_dir);
        EXPECT_EQ(r.code, 2) << command;
        EXPECT_NE(r.err.find("could not be written"), std::string::npos) << command << ": " << r.err;
    }
}

// A stream that refuses every byte: what std::cout becomes on a full disk.
struct FullBuffer : std::streambuf {
    int overflow(int) override { return traits_type::eof(); }
};

TEST_F(CliHostile, InProcessFailedOutputStreamExits2) {
    FullBuffer full;
    std::ostream out(&full);
    std::ostringstream err;
    EXPECT_EQ(lanemap::cli::run({"show", "mma.m16n8k16.f16"}, out, err), 2);
    EXPECT_NE(err.str().find("could not be written"), std::string::npos) << err.str();
}

// Runs `script` with bash in the test folder, $CLI naming the binary; returns the exit status.
int bash(const std::string& script, const fs::path& dir) {
    const fs::path file = dir / "script.sh";
    std::ofstream(file) << "cd '" << dir.string() << "' || exit 99\nCLI='" << LANEMAP_CLI_BINARY << "'\n"
                        << script << '\n';
    const int status = std::system(("bash '" + file.string() + "'").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// -o /dev/stderr, /dev/stdout, /proc/self/fd/N name the streams the shell opened: written where they stand.
// Reopening the name (and replacing the file behind it) wiped a log redirected with 2>>; into a pipe it
// failed with "No such file or directory".
TEST_F(CliHostile, StreamNamesAreTheOpenStreams) {
    ASSERT_EQ(
        bash("echo LOG1 > b.log; \"$CLI\" export mma.m16n8k16.f16 --format cute -o /dev/stderr 2>>b.log",
             m_dir),
        0);
    const std::string log = slurp(m_dir / "b.log");
    EXPECT_EQ(log.rfind("LOG1\n// mma.m16n8k16.f16", 0), 0u) << log.substr(0, 200);

    ASSERT_EQ(
        bash(
            "{ echo BEFORE; \"$CLI\" export mma.m16n8k16.f16 --format cute -o /dev/stdout; echo AFTER; } > f",
            m_dir),
        0);
    const std::string f = slurp(m_dir / "f");
    EXPECT_EQ(f.rfind("BEFORE\n// mma.m16n8k16.f16", 0), 0u) << f.substr(0, 200);
    EXPECT_EQ(f.substr(f.size() - 6), "AFTER\n");
    EXPECT_EQ(f.find("wrote 1 file"), std::string::npos) << "a status line inside the document";

    ASSERT_EQ(
        bash("set -o pipefail; \"$CLI\" export mma.m16n8k16.f16 -o /dev/stdout 2>err | cat > piped; \"$CLI\" "
             "export mma.m16n8k16.f16 -o /proc/self/fd/1 | cat >> piped2",
             m_dir),
        0)
        << slurp(m_dir / "err");
    EXPECT_EQ(nlohmann::json::parse(slurp(m_dir / "piped"))["spec"], "mma.m16n8k16.f16");
    EXPECT_EQ(slurp(m_dir / "piped2"), slurp(m_dir / "piped"));
}

// Under `ulimit -f` a write past the limit raised SIGXFSZ, which killed the CLI with no message and left its
// temp file. It now fails like a full disk: exit 2, "File too large", the old file kept, no temp file.
TEST_F(CliHostile, FileSizeLimitIsAnErrorNotASignal) {
    std::ofstream(m_dir / "old.svg") << "old";
    for (const std::string& command : {std::string("export wgmma.m64n256k16.f16 --format svg -o old.svg"),
                                       std::string("banks ldmatrix.m8n8.x4.b16 --format svg -o old.svg"),
                                       std::string("export --all --format svg -o all")}) {
        const int code = bash("ulimit -f 2; \"$CLI\" " + command + " 2>err", m_dir);
        EXPECT_EQ(code, 2) << command;
        EXPECT_NE(slurp(m_dir / "err").find("File too large"), std::string::npos)
            << command << ": " << slurp(m_dir / "err");
        EXPECT_EQ(slurp(m_dir / "old.svg"), "old");
    }
    for (const fs::path& dir : {m_dir, m_dir / "all"})
        for (const auto& e : fs::directory_iterator(dir))
            EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

class CliHostileSignal : public CliHostile, public ::testing::WithParamInterface<int> {};

TEST_P(CliHostileSignal, InterruptedExportAllLeavesNoTempFiles) {
    const int signal = GetParam();
    const fs::path out = m_dir / "svg";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const rlimit noCore{0, 0}; // SIGQUIT dumps core by default
        ::setrlimit(RLIMIT_CORE, &noCore);
        ::execl(LANEMAP_CLI_BINARY, LANEMAP_CLI_BINARY, "export", "--all", "--format", "svg", "-o",
                out.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Signal once a temp file shows up, i.e. inside a write.
    bool sent = false;
    int status = 0;
    while (!sent && ::waitpid(child, &status, WNOHANG) == 0) {
        std::error_code ec;
        for (fs::directory_iterator it(out, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().filename().string().find(".tmp.") != std::string::npos) {
                ::kill(child, signal);
                sent = true;
                break;
            }
    }
    if (sent)
        ASSERT_EQ(::waitpid(child, &status, 0), child);
    if (!sent)
        GTEST_SKIP() << "the export finished before a temp file was seen";
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal);
    for (const auto& e : fs::directory_iterator(out))
        EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

// SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\) left temp files: only SIGINT and SIGTERM were handled.
INSTANTIATE_TEST_SUITE_P(CleanupSignals, CliHostileSignal, ::testing::Values(SIGTERM, SIGHUP, SIGQUIT));

TEST_F(CliHostile, ProbeChecksTheJsonPathBeforeTheRun) {
    for (const fs::path& bad : {m_dir / "missing" / "r.json", m_dir}) {
        const auto r = runCli({"probe", "mma.m16n8k16.f16", "--json", bad.string()});
        EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("--json: cannot write"), std::string::npos) << r.err;
    }
}

TEST_F(CliHostile, ExportAllSaysWhatItSkipped) {
    auto r =
        runCli({"export", "--all", "--format", "svg", "--lanes", "64-127", "-o", (m_dir / "o").string()});
    EXPECT_EQ(r.code, 0) << r.err;
    // Every warp-level variant (32 threads) has no lane 64-127, nor a copy issued by one thread
    // (cp.async.bulk.tensor, which has no register operands to filter).
    std::size_t warpLevel = 0;
    for (const lanemap::Variant* v : lanemap::Catalog::instance().variants())
        warpLevel += v->threads <= 32;
    EXPECT_NE(r.err.find("skipped " + std::to_string(warpLevel) + " of " +
                         std::to_string(lanemap::Catalog::instance().size()) + " variants"),
              std::string::npos)
        << r.err;
    r = runCli({"export", "--all", "--format", "svg", "--lanes", "64-127", "--operand", "metadata", "-o",
                (m_dir / "p").string()});
    EXPECT_NE(r.err.find("skipped"), std::string::npos) << r.err;
}

TEST_F(CliHostile, NegativeSelectorIsRejected) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"show", "mma.sp.m16n8k16.f16", "--selector", "-1"},
          std::vector<std::string>{"export", "mma.sp.m16n8k16.f16", "--selector", "-1", "-o", "-"}}) {
        const auto r = runCli(args);
        EXPECT_EQ(r.code, 2) << args[0];
        EXPECT_NE(r.err.find("--selector -1"), std::string::npos) << r.err;
    }
}

TEST_F(CliHostile, LongAndControlCharacterInputIsQuotedShortAndEscaped) {
    const std::string huge(120'000, 'x');
    auto r = runCli({"show", "mma.m16n8k16." + huge});
    EXPECT_EQ(r.code, 2);
    EXPECT_LT(r.err.size(), 2000u) << "the error repeats the whole input";
    r = runCli({"show", "mma.m16n8k16.\x1b[31mred"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "a terminal escape reached stderr";
    EXPECT_NE(r.err.find("\\x1b"), std::string::npos) << r.err;
    r = runCli({"list", "--family", "\x1b]0;title\x07"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
}

} // namespace

namespace {

TEST(CliPtxForms, MixedTypesKeepTheirOwnPtxString) {
    const auto r =
        lanemap::test::runCli({"show", "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32", "--operand", "A"});
    EXPECT_EQ(r.code, 0) << r.err;
    auto j = lanemap::test::runCli(
        {"export", "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e2m1.f32", "-o", "-"});
    ASSERT_EQ(j.code, 0) << j.err;
    EXPECT_NE(j.out.find("\"ptx\": \"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e2m1.f32\""),
              std::string::npos)
        << j.out.substr(0, 400);
    const auto bad = lanemap::test::runCli({"show", "mma.sync.aligned.m16n8k16.row.col.f32.f16.s8.f32"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("B type '.s8'"), std::string::npos) << bad.err;
}

} // namespace

} // namespace test_cli_hostile
