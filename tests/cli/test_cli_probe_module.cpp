// The CUDA probe as a module (liblanemap_probe_kernels.so, docs/architecture.md): lanemap-cli loads it only
// for probe and discover, finds it next to itself in the build tree, and says where it looked when it is
// missing (exit 3, as for any unavailable GPU) instead of crashing.
#include "lanemap/gpu/probe.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace test_cli_probe_module {

namespace fs = std::filesystem;

namespace {

struct Ran {
    int code;
    std::string err;
};

Ran runBinary(const fs::path& binary, const std::string& arguments, const fs::path& dir) {
    const fs::path errFile = dir / "stderr.txt";
    const int status =
        std::system((binary.string() + " " + arguments + " >/dev/null 2>" + errFile.string()).c_str());
    std::ifstream in(errFile);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
            {std::istreambuf_iterator<char>(in), {}}};
}

class CliProbeModule : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!lanemap::gpu::builtWithCuda())
            GTEST_SKIP() << "built without CUDA: there is no probe module";
        m_dir = fs::temp_directory_path() / ("lanemap-cli-probe-module-" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    fs::path m_dir;
};

TEST_F(CliProbeModule, TheBuiltProgramLoadsTheModuleNextToIt) {
    const fs::path cli = LANEMAP_CLI_BINARY;
    ASSERT_TRUE(fs::exists(cli.parent_path() / "liblanemap_probe_kernels.so"));
    const Ran r = runBinary(cli, "probe mma.m16n8k16.f16", m_dir);
    // With a GPU the probe runs; without one the CUDA runtime (inside the module) says why.
    EXPECT_TRUE(r.code == 0 || r.code == 3) << r.err;
    EXPECT_EQ(r.err.find("probe module"), std::string::npos) << r.err;
}

TEST_F(CliProbeModule, AMissingModuleExits3NamingThePathsTried) {
    const fs::path copy = m_dir / "lanemap-cli";
    fs::copy_file(LANEMAP_CLI_BINARY, copy);
    const Ran r = runBinary(copy, "probe mma.m16n8k16.f16", m_dir);
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(
        r.err.find("GPU unavailable: the probe module liblanemap_probe_kernels.so was not found (tried " +
                   (m_dir / "liblanemap_probe_kernels.so").string()),
        std::string::npos)
        << r.err;
    // Commands that never touch the GPU do not need it.
    EXPECT_EQ(runBinary(copy, "show mma.m16n8k16.f16", m_dir).code, 0);
}

TEST_F(CliProbeModule, AModuleThatDoesNotLoadIsNamedWithTheLoadersReason) {
    const fs::path copy = m_dir / "lanemap-cli";
    fs::copy_file(LANEMAP_CLI_BINARY, copy);
    std::ofstream(m_dir / "liblanemap_probe_kernels.so") << "not a shared object\n";
    const Ran r = runBinary(copy, "discover wmma.m16n16k16.row.col.f16.f32", m_dir);
    EXPECT_EQ(r.code, 3) << r.err;
    EXPECT_NE(r.err.find("the probe module " + (m_dir / "liblanemap_probe_kernels.so").string() +
                         " could not be loaded: "),
              std::string::npos)
        << r.err;
}

} // namespace

} // namespace test_cli_probe_module
