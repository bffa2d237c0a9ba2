// The file writer against hostile targets: FIFOs, device nodes behind links, links, hard links, modes, long
// names, a file-size limit standing in for a full disk, and a signal in the middle of a write.
#include "lanemap/write.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>

#include "fifo.hpp"
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <sys/resource.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace test_write {

namespace fs = std::filesystem;
using lanemap::writeFile;

namespace {
using lanemap::testing::readFifo;

class Writer : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("lanemap-write-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }
    static std::string read(const fs::path& p) {
        std::ifstream in(p);
        return {std::istreambuf_iterator<char>(in), {}};
    }
    static mode_t mode(const fs::path& p) {
        struct stat st {};
        EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
        return st.st_mode;
    }
    std::size_t tempFiles() const {
        std::size_t n = 0;
        for (const auto& e : fs::directory_iterator(m_dir))
            n += e.path().filename().string().find(".tmp.") != std::string::npos;
        return n;
    }
    fs::path m_dir;
};

TEST_F(Writer, FifoGetsTheBytesAndStaysAFifo) {
    const fs::path fifo = m_dir / "f";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto reader = std::async(std::launch::async, [&] { return readFifo(fifo.string()); });
    EXPECT_EQ(writeFile(fifo.string(), "through the pipe"), "");
    EXPECT_EQ(reader.get(), "through the pipe");
    EXPECT_TRUE(S_ISFIFO(mode(fifo))) << "the FIFO was replaced by a regular file";
    EXPECT_EQ(tempFiles(), 0u);
}

TEST_F(Writer, DeviceNodeBehindALinkIsWrittenNotReplaced) {
    const fs::path link = m_dir / "null";
    fs::create_symlink("/dev/null", link);
    EXPECT_EQ(writeFile(link.string(), "discarded"), "");
    EXPECT_TRUE(S_ISLNK(mode(link))) << "the link was replaced";
    EXPECT_TRUE(S_ISCHR(mode("/dev/null")));
    EXPECT_EQ(tempFiles(), 0u);
}

TEST_F(Writer, FullDeviceReportsTheErrorAndStaysADevice) {
    const fs::path link = m_dir / "full";
    fs::create_symlink("/dev/full", link);
    const std::string error = writeFile(link.string(), "no room");
    EXPECT_NE(error.find("No space left"), std::string::npos) << error;
    EXPECT_TRUE(S_ISLNK(mode(link)));
}

TEST_F(Writer, SymlinkIsFollowedAndKept) {
    const fs::path file = m_dir / "real.json", link = m_dir / "link.json";
    std::ofstream(file) << "old";
    fs::create_symlink("real.json", link); // relative, as users make them
    EXPECT_EQ(writeFile(link.string(), "new"), "");
    EXPECT_TRUE(S_ISLNK(mode(link))) << "the link itself was replaced";
    EXPECT_EQ(read(file), "new");
    EXPECT_EQ(tempFiles(), 0u);
}

TEST_F(Writer, DanglingSymlinkCreatesItsTarget) {
    const fs::path link = m_dir / "link.json";
    fs::create_symlink("made.json", link);
    EXPECT_EQ(writeFile(link.string(), "x"), "");
    EXPECT_TRUE(S_ISLNK(mode(link)));
    EXPECT_EQ(read(m_dir / "made.json"), "x");
}

TEST_F(Writer, HardLinkedNameIsReplacedOthersKeepTheOldContents) {
    const fs::path a = m_dir / "a", b = m_dir / "b";
    std::ofstream(a) << "old";
    fs::create_hard_link(a, b);
    EXPECT_EQ(writeFile(a.string(), "new"), "");
    EXPECT_EQ(read(a), "new");
    EXPECT_EQ(read(b), "old") << "documented: the write is atomic, so the other name keeps the old file";
}

TEST_F(Writer, ExistingFileKeepsItsMode) {
    const fs::path file = m_dir / "secret.json";
    std::ofstream(file) << "old";
    ASSERT_EQ(::chmod(file.c_str(), 0600), 0);
    EXPECT_EQ(writeFile(file.string(), "new"), "");
    EXPECT_EQ(mode(file) & 07777, 0600u);
    ASSERT_EQ(::chmod(file.c_str(), 0751), 0);
    EXPECT_EQ(writeFile(file.string(), "newer"), "");
    EXPECT_EQ(mode(file) & 07777, 0751u);
}

TEST_F(Writer, NewFileFollowsTheUmask) {
    const mode_t previous = ::umask(027);
    const std::string error = writeFile((m_dir / "new.json").string(), "x");
    ::umask(previous);
    EXPECT_EQ(error, "");
    EXPECT_EQ(mode(m_dir / "new.json") & 07777, 0640u);
}

TEST_F(Writer, LongestFileNamesWork) {
    for (std::size_t length : {243u, 244u, 250u, 255u}) {
        const fs::path file = m_dir / std::string(length, 'n');
        EXPECT_EQ(writeFile(file.string(), "x"), "") << length;
        EXPECT_EQ(read(file), "x") << length;
    }
    EXPECT_EQ(tempFiles(), 0u);
}

TEST_F(Writer, DirectoryAndEmptyNameAreRefusedWithAReason) {
    EXPECT_NE(writeFile(m_dir.string(), "x").find("is a directory"), std::string::npos);
    EXPECT_NE(writeFile("", "x").find("empty file name"), std::string::npos);
    EXPECT_NE(lanemap::checkWritable(m_dir.string()).find("is a directory"), std::string::npos);
    EXPECT_NE(lanemap::checkWritable((m_dir / "no" / "x").string()).find("No such file"), std::string::npos);
    EXPECT_EQ(lanemap::checkWritable((m_dir / "x").string()), "");
}

// A file-size limit makes write() fail the way a full disk does; in a child, so the limit stays there.
TEST_F(Writer, FailedWriteKeepsTheOldFileAndLeavesNoTempFile) {
    const fs::path file = m_dir / "keep.json";
    std::ofstream(file) << "old contents";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{4096, 4096};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        const std::string error = writeFile(file.string(), std::string(1 << 20, 'x'));
        ::_exit(error.find("File too large") != std::string::npos ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the error does not give the reason";
    EXPECT_EQ(read(file), "old contents");
    EXPECT_EQ(tempFiles(), 0u);
}

// SIGTERM while a large write is in flight: the temp file goes, the old file stays, the signal still kills.
TEST_F(Writer, SignalDuringAWriteRemovesTheTempFile) {
    const fs::path file = m_dir / "big.svg";
    std::ofstream(file) << "old";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        lanemap::installWriteSignalCleanup();
        const std::string big(64u << 20, 'x');
        std::thread writer([&] {
            for (;;)
                writeFile(file.string(), big);
        });
        // Signal only once a temp file exists, so the signal lands inside a write.
        for (;;) {
            for (const auto& e : fs::directory_iterator(m_dir))
                if (e.path().filename().string().find(".tmp.") != std::string::npos)
                    ::raise(SIGTERM);
        }
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    EXPECT_EQ(tempFiles(), 0u) << "a temp file of the interrupted write was left";
    const std::string contents = read(file);
    EXPECT_TRUE(contents == "old" || contents.size() == (64u << 20)) << "never a partial file";
}

} // namespace

} // namespace test_write
