// The file writer against hostile targets: FIFOs, device nodes behind links, links, hard links, modes, long
// names, a file-size limit standing in for a full disk, and a signal in the middle of a write.
#include "lanemap/write.hpp"
#include "io/write_links.hpp"

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
        // SIGXFSZ keeps its default action (end the process), as in a shell under `ulimit -f`: the writer
        // itself must keep it from killing the process, and leave it neither blocked nor pending.
        const rlimit limit{4096, 4096};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        const std::string error = writeFile(file.string(), std::string(1 << 20, 'x'));
        sigset_t mask, pending;
        ::pthread_sigmask(SIG_SETMASK, nullptr, &mask);
        ::sigpending(&pending);
        const bool clean = !sigismember(&mask, SIGXFSZ) && !sigismember(&pending, SIGXFSZ);
        ::_exit(error.find("File too large") != std::string::npos ? (clean ? 0 : 2) : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_FALSE(WIFSIGNALED(status)) << "killed by signal " << WTERMSIG(status);
    EXPECT_EQ(WEXITSTATUS(status), 0)
        << "1: the error does not give the reason; 2: SIGXFSZ left blocked or pending";
    EXPECT_EQ(read(file), "old contents");
    EXPECT_EQ(tempFiles(), 0u);
}

// SIGTERM (SIGHUP, SIGQUIT) while a large write is in flight: the temp file goes, the old file stays, the
// signal still kills.
class WriterSignal : public Writer, public ::testing::WithParamInterface<int> {};

TEST_P(WriterSignal, SignalDuringAWriteRemovesTheTempFile) {
    const int signal = GetParam();
    const fs::path file = m_dir / "big.svg";
    std::ofstream(file) << "old";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const rlimit noCore{0, 0}; // SIGQUIT dumps core by default
        ::setrlimit(RLIMIT_CORE, &noCore);
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
                    ::raise(signal);
        }
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal);
    EXPECT_EQ(tempFiles(), 0u) << "a temp file of the interrupted write was left";
    const std::string contents = read(file);
    EXPECT_TRUE(contents == "old" || contents.size() == (64u << 20)) << "never a partial file";
}

INSTANTIATE_TEST_SUITE_P(CleanupSignals, WriterSignal, ::testing::Values(SIGTERM, SIGINT, SIGHUP, SIGQUIT));

// /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are descriptors the program holds open: opening the
// name reopens the file behind it (at offset 0, and an atomic write replaced it: a log redirected with 2>>
// was wiped), and for a pipe there is no file at all ("No such file or directory").
int openAt(const fs::path& p, int flags) {
    return ::open(p.c_str(), flags | O_WRONLY | O_CLOEXEC, 0644);
}

TEST_F(Writer, DescriptorNamesAppendWhereTheDescriptorAppends) {
    const fs::path log = m_dir / "b.log";
    std::ofstream(log) << "LOG1\n";
    struct stat before {};
    ASSERT_EQ(::stat(log.c_str(), &before), 0);
    const int fd = openAt(log, O_APPEND);
    ASSERT_GE(fd, 0);
    const std::string n = std::to_string(fd);
    EXPECT_EQ(writeFile("/proc/self/fd/" + n, "doc1\n"), "");
    EXPECT_EQ(writeFile("/dev/fd/" + n, "doc2\n"), "");
    EXPECT_EQ(writeFile("/proc/" + std::to_string(::getpid()) + "/fd/" + n, "doc3\n"), "");
    ::close(fd);
    EXPECT_EQ(read(log), "LOG1\ndoc1\ndoc2\ndoc3\n");
    struct stat after {};
    ASSERT_EQ(::stat(log.c_str(), &after), 0);
    EXPECT_EQ(after.st_ino, before.st_ino) << "the file behind the descriptor was replaced";
    EXPECT_EQ(tempFiles(), 0u);
}

TEST_F(Writer, DescriptorNamesWriteAtTheDescriptorsOffset) {
    const fs::path out = m_dir / "f";
    const int fd = openAt(out, O_CREAT | O_TRUNC);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::write(fd, "BEFORE\n", 7), 7);
    EXPECT_EQ(writeFile("/dev/fd/" + std::to_string(fd), "doc\n"), "");
    ASSERT_EQ(::write(fd, "AFTER\n", 6), 6);
    ::close(fd);
    EXPECT_EQ(read(out), "BEFORE\ndoc\nAFTER\n");
}

TEST_F(Writer, DescriptorNamesStreamIntoAPipe) {
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    EXPECT_EQ(lanemap::checkWritable("/proc/self/fd/" + std::to_string(fds[1])), "");
    EXPECT_EQ(writeFile("/proc/self/fd/" + std::to_string(fds[1]), "through"), "");
    // A link to the name is the name too.
    fs::create_symlink("/dev/fd/" + std::to_string(fds[1]), m_dir / "out");
    EXPECT_EQ(lanemap::openDescriptorOf((m_dir / "out").string()), fds[1]);
    EXPECT_EQ(writeFile((m_dir / "out").string(), " the pipe"), "");
    ::close(fds[1]);
    char buffer[64] = {};
    EXPECT_EQ(::read(fds[0], buffer, sizeof buffer), 16);
    ::close(fds[0]);
    EXPECT_EQ(std::string(buffer), "through the pipe");
    EXPECT_TRUE(fs::is_symlink(m_dir / "out"));
}

TEST_F(Writer, ClosedOrReadOnlyDescriptorIsRefused) {
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    const std::string name = "/dev/fd/" + std::to_string(fd);
    EXPECT_NE(writeFile(name, "x").find("not open for writing"), std::string::npos);
    EXPECT_NE(lanemap::checkWritable(name).find("not open for writing"), std::string::npos);
    ::close(fd);
    EXPECT_NE(writeFile(name, "x").find("not open for writing"), std::string::npos);
    EXPECT_EQ(lanemap::openDescriptorOf("/dev/stdout"), 1);
    EXPECT_EQ(lanemap::openDescriptorOf((m_dir / "file").string()), std::nullopt);
}

// fs.protected_symlinks: in a sticky world-writable folder (/tmp) a link owned by another user (and not by
// the folder's owner) is not followed, where the shell's `>` is refused too. Reading the link in user space
// followed it anyway. Needs root (a link owned by another user); the setting is taken as on.
class ProtectedSymlinks : public Writer {
  protected:
    void SetUp() override {
        Writer::SetUp();
        lanemap::setProtectedSymlinksForTesting(true);
        m_sticky = m_dir / "tmp";
        fs::create_directories(m_sticky);
        ASSERT_EQ(::chmod(m_sticky.c_str(), 01777), 0);
    }
    void TearDown() override {
        lanemap::setProtectedSymlinksForTesting(std::nullopt);
        Writer::TearDown();
    }
    // A link owned by uid 65534 (nobody), or false when this user may not give it away.
    static bool foreignLink(const std::string& to, const fs::path& link) {
        fs::create_symlink(to, link);
        return ::lchown(link.c_str(), 65534, 65534) == 0;
    }
    fs::path m_sticky;
};

TEST_F(ProtectedSymlinks, AnotherUsersLinkInAStickyFolderIsNotFollowed) {
    const fs::path victim = m_dir / "victim", link = m_sticky / "planted";
    std::ofstream(victim) << "precious";
    if (!foreignLink(victim.string(), link))
        GTEST_SKIP() << "not root: cannot make a link owned by another user";
    std::string error = writeFile(link.string(), "overwritten");
    EXPECT_NE(error.find("Permission denied"), std::string::npos) << error;
    EXPECT_NE(lanemap::checkWritable(link.string()).find("Permission denied"), std::string::npos);
    EXPECT_EQ(read(victim), "precious");
    // Dangling: the file it names is not created.
    const fs::path made = m_dir / "made", dangling = m_sticky / "dangling";
    ASSERT_TRUE(foreignLink(made.string(), dangling));
    error = writeFile(dangling.string(), "x");
    EXPECT_NE(error.find("Permission denied"), std::string::npos) << error;
    EXPECT_FALSE(fs::exists(made));
}

TEST_F(ProtectedSymlinks, OwnLinksTheFolderOwnersAndLinksElsewhereAreFollowed) {
    const fs::path target = m_dir / "target";
    std::ofstream(target) << "old";
    fs::create_symlink(target, m_sticky / "mine");
    EXPECT_EQ(writeFile((m_sticky / "mine").string(), "new"), "");
    EXPECT_EQ(read(target), "new");
    EXPECT_TRUE(fs::is_symlink(m_sticky / "mine"));
    // Outside a sticky world-writable folder, another user's link is followed.
    if (!foreignLink(target.string(), m_dir / "theirs"))
        GTEST_SKIP() << "not root: cannot make a link owned by another user";
    EXPECT_EQ(writeFile((m_dir / "theirs").string(), "newer"), "");
    EXPECT_EQ(read(target), "newer");
    // In a sticky folder of that user, their link is followed.
    ASSERT_EQ(::chown(m_sticky.c_str(), 65534, 65534), 0);
    ASSERT_EQ(::chmod(m_sticky.c_str(), 01777), 0);
    ASSERT_TRUE(foreignLink(target.string(), m_sticky / "owners"));
    EXPECT_EQ(writeFile((m_sticky / "owners").string(), "newest"), "");
    EXPECT_EQ(read(target), "newest");
}

} // namespace

} // namespace test_write
