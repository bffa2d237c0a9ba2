#include "lanemap/write.hpp"

#include "lanemap/excerpt.hpp"
#include "io/write_links.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lanemap {

namespace {

namespace fs = std::filesystem;

// Paths are user input: quoted escaped and cut (a 5,000-byte path made a 5,055-byte message).
constexpr std::size_t kPathExcerpt = 200;

std::string failure(const std::string& path, const std::string& reason) {
    return "cannot write '" + excerpt(path, kPathExcerpt) + "': " + reason;
}

// The signals whose default action ends the process and that a user sends to stop a run: their handler
// removes the temp files of writes in flight first.
constexpr std::array<int, 4> kCleanupSignals{SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// Temp files of writes in flight, for the signal handler: fixed slots, no allocation, async-signal-safe
// reads.
constexpr std::size_t kSlots = 16;
struct TempSlot {
    std::atomic<bool> used{false};
    std::array<char, PATH_MAX> name{};
};
std::array<TempSlot, kSlots> g_temps;
// A signal handled on one thread while another creates its temp file: the handler marks the process as dying,
// then waits until no creation is between mkostemp and registration, so it sees every temp file that exists;
// a creation that starts after the mark does not create one. (Creations run with the signals blocked in
// their own thread, so the handler never waits on the thread it runs in.)
std::atomic<bool> g_dying{false};
std::atomic<int> g_creating{0};

int registerTemp(const std::string& name) {
    if (name.size() >= PATH_MAX)
        return -1;
    static std::mutex claim;
    std::lock_guard lock(claim);
    for (std::size_t i = 0; i < kSlots; ++i) {
        if (g_temps[i].used.load())
            continue;
        // Fill the name first, then publish it to the handler.
        std::memcpy(g_temps[i].name.data(), name.c_str(), name.size() + 1);
        g_temps[i].used.store(true);
        return static_cast<int>(i);
    }
    return -1; // more than kSlots concurrent writes: that one is not cleaned up on a signal
}

void releaseTemp(int slot) {
    if (slot >= 0)
        g_temps[static_cast<std::size_t>(slot)].used.store(false);
}

void removeTempsAndReraise(int signal) {
    g_dying.store(true);
    for (long spin = 0; g_creating.load() != 0 && spin < (1l << 28); ++spin) {
        // Another thread is registering its temp file: a few instructions away.
    }
    for (TempSlot& slot : g_temps)
        if (slot.used.load())
            ::unlink(slot.name.data());
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

mode_t currentUmask() {
    static std::mutex m;
    std::lock_guard lock(m);
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return mask;
}

// A write past the file-size limit (ulimit -f) raises SIGXFSZ, whose default action kills the process before
// write() can return EFBIG: no message, and the temp file stays. It is held in this thread while writing, and
// the one a failed write raised is taken back, so the write fails with "File too large" like a full disk.
class FileSizeSignalHeld {
  public:
    FileSizeSignalHeld() {
        sigemptyset(&m_set);
        sigaddset(&m_set, SIGXFSZ);
        ::pthread_sigmask(SIG_BLOCK, &m_set, &m_previous);
    }
    ~FileSizeSignalHeld() {
        if (m_raised && !sigismember(&m_previous, SIGXFSZ)) {
            const timespec now{0, 0};
            while (::sigtimedwait(&m_set, nullptr, &now) == -1 && errno == EINTR) {
            }
        }
        ::pthread_sigmask(SIG_SETMASK, &m_previous, nullptr);
    }
    FileSizeSignalHeld(const FileSizeSignalHeld&) = delete;
    FileSizeSignalHeld& operator=(const FileSizeSignalHeld&) = delete;
    void raised() { m_raised = true; }

  private:
    sigset_t m_set{}, m_previous{};
    bool m_raised = false;
};

std::string writeAll(int fd, std::string_view contents) {
    FileSizeSignalHeld held;
    const char* data = contents.data();
    std::size_t left = contents.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            if (error == EFBIG)
                held.raised();
            return std::strerror(error);
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    return {};
}

// The descriptor that /dev/stdout, /dev/stderr, /dev/stdin, /dev/fd/N, /proc/self/fd/N (also
// /proc/thread-self/fd/N and /proc/<this pid>/fd/N) name. Opening such a name would open the file behind the
// descriptor afresh: at offset 0, and replaced by an atomic write (a log redirected with 2>> was wiped).
std::optional<int> openStreamNamed(const fs::path& path) {
    const std::string p = path.lexically_normal().string();
    if (p == "/dev/stdin")
        return 0;
    if (p == "/dev/stdout")
        return 1;
    if (p == "/dev/stderr")
        return 2;
    std::string_view rest;
    const std::string self = "/proc/" + std::to_string(::getpid()) + "/fd/";
    for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/"),
                                          std::string_view("/proc/thread-self/fd/"), std::string_view(self)})
        if (p.size() > prefix.size() && std::string_view(p).substr(0, prefix.size()) == prefix)
            rest = std::string_view(p).substr(prefix.size());
    int fd = -1;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), fd);
    if (rest.empty() || ec != std::errc() || end != rest.data() + rest.size() || fd < 0)
        return std::nullopt;
    return fd;
}

// Writes into an open descriptor where it stands: at its offset, appending where it was opened to append
// (2>>), streaming into a pipe. Standard output and error are flushed first, so the document lands after
// what the program printed before it.
std::string writeOpenStream(const std::string& path, int fd, std::string_view contents) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags == -1 || (flags & O_ACCMODE) == O_RDONLY)
        return failure(path, "descriptor " + std::to_string(fd) + " is not open for writing");
    if (fd == STDOUT_FILENO)
        std::fflush(stdout);
    if (fd == STDERR_FILENO)
        std::fflush(stderr);
    const std::string reason = writeAll(fd, contents);
    return reason.empty() ? std::string() : failure(path, reason);
}

// Writes to a FIFO or character device as a stream: no temp file, no rename. Opened by its name, so the
// kernel follows a link to it as it does for the shell's `>`.
std::string writeStream(const std::string& path, std::string_view contents) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return failure(path, std::strerror(errno));
    std::string reason = writeAll(fd, contents);
    if (::close(fd) != 0 && reason.empty())
        reason = std::strerror(errno);
    return reason.empty() ? std::string() : failure(path, reason);
}

// What a write to `path` lands in.
struct Target {
    std::optional<int> stream; // an open descriptor (openStreamNamed)
    fs::path file;             // else: the node to write or replace (links followed)
    bool exists = false;
    struct stat st {};
};

std::optional<Target> locate(const std::string& path, std::string& error) {
    if (path.empty()) {
        error = failure(path, "empty file name");
        return std::nullopt;
    }
    Target t;
    std::string reason;
    const std::optional<LinkChain> chain = followLinks(path, reason);
    if (!chain) {
        error = failure(path, reason);
        return std::nullopt;
    }
    for (const fs::path& hop : chain->names)
        if ((t.stream = openStreamNamed(hop)))
            return t;
    t.file = chain->names.back();
    t.exists = ::stat(t.file.c_str(), &t.st) == 0;
    if (!t.exists && errno != ENOENT) {
        error = failure(path, std::strerror(errno));
        return std::nullopt;
    }
    if (t.exists && S_ISDIR(t.st.st_mode)) {
        error = failure(path, "it is a directory");
        return std::nullopt;
    }
    if (t.exists && !S_ISREG(t.st.st_mode) && !S_ISFIFO(t.st.st_mode) && !S_ISCHR(t.st.st_mode)) {
        error = failure(path, "not a regular file, FIFO or character device");
        return std::nullopt;
    }
    return t;
}

} // namespace

// ---- links --------------------------------------------------------------------------------------------

namespace {
std::optional<bool> g_protectedSymlinksOverride;

bool protectedSymlinks() {
    if (g_protectedSymlinksOverride)
        return *g_protectedSymlinksOverride;
    std::ifstream in("/proc/sys/fs/protected_symlinks");
    int value = 1; // unreadable: assume the Debian default, on
    in >> value;
    return value != 0;
}
} // namespace

void setProtectedSymlinksForTesting(std::optional<bool> on) {
    g_protectedSymlinksOverride = on;
}

std::string refusedLink(const fs::path& link) {
    // fs.protected_symlinks: in a sticky world-writable folder (/tmp) a link is followed only by its owner,
    // or when the folder's owner owns it; another user's link there could point anywhere.
    struct stat ls {
    }, ds{};
    const fs::path dir = link.has_parent_path() ? link.parent_path() : fs::path(".");
    if (::lstat(link.c_str(), &ls) != 0 || ::stat(dir.c_str(), &ds) != 0)
        return {};
    const bool stickyWorldWritable = (ds.st_mode & S_ISVTX) && (ds.st_mode & S_IWOTH);
    if (!stickyWorldWritable || ls.st_uid == ::geteuid() || ls.st_uid == ds.st_uid || !protectedSymlinks())
        return {};
    return std::string(std::strerror(EACCES)) +
           " (a link in a sticky world-writable folder, owned by another user: fs.protected_symlinks)";
}

std::optional<LinkChain> followLinks(const std::string& path, std::string& reason) {
    LinkChain chain;
    fs::path current(path);
    chain.names.push_back(current);
    for (int hops = 0;; ++hops) {
        // A name that stands for an open descriptor is not followed: its magic link names the file behind it.
        if (openStreamNamed(current))
            return chain;
        struct stat st {};
        if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            break;
        if (hops == 40) {
            reason = std::strerror(ELOOP);
            return std::nullopt;
        }
        if (std::string why = refusedLink(current); !why.empty()) {
            reason = std::move(why);
            return std::nullopt;
        }
        std::error_code ec;
        const fs::path next = fs::read_symlink(current, ec);
        if (ec) {
            reason = ec.message();
            return std::nullopt;
        }
        current = next.is_absolute() ? next : current.parent_path() / next;
        chain.names.push_back(current);
    }
    if (chain.names.size() > 1) {
        // The kernel has the last word on following the link (its own protected_symlinks, a loop, a folder
        // on the way it may not search), as for the shell's `>`: where the chain ends in an existing node,
        // open the link itself and use what the kernel reached.
        const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
        if (fd < 0 && errno != ENOENT) {
            reason = std::strerror(errno);
            return std::nullopt;
        }
        if (fd >= 0) {
            std::array<char, PATH_MAX> buffer{};
            const std::string proc = "/proc/self/fd/" + std::to_string(fd);
            const ssize_t n = ::readlink(proc.c_str(), buffer.data(), buffer.size() - 1);
            ::close(fd);
            if (n > 0 && buffer[0] == '/')
                chain.names.back() = fs::path(std::string(buffer.data(), static_cast<std::size_t>(n)));
        }
    }
    return chain;
}

std::optional<int> openDescriptorOf(const std::string& path) {
    std::string error;
    const std::optional<Target> t = path.empty() ? std::nullopt : locate(path, error);
    return t ? t->stream : std::nullopt;
}

std::string checkWritable(const std::string& path) {
    std::string error;
    const std::optional<Target> t = locate(path, error);
    if (!t)
        return error;
    if (t->stream) {
        const int flags = ::fcntl(*t->stream, F_GETFL);
        if (flags == -1 || (flags & O_ACCMODE) == O_RDONLY)
            return failure(path, "descriptor " + std::to_string(*t->stream) + " is not open for writing");
        return {};
    }
    const fs::path& target = t->file;
    if (t->exists && !S_ISREG(t->st.st_mode))
        return ::access(target.c_str(), W_OK) != 0 ? failure(path, std::strerror(errno)) : std::string();
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0)
        return failure(path, std::strerror(errno));
    if (!S_ISDIR(ds.st_mode))
        return failure(path, "'" + excerpt(dir.string(), kPathExcerpt) + "' is not a directory");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return failure(path, std::strerror(errno));
    return {};
}

std::string writeFile(const std::string& path, std::string_view contents) {
    std::string error;
    const std::optional<Target> located = locate(path, error);
    if (!located)
        return error;
    if (located->stream)
        return writeOpenStream(path, *located->stream, contents);
    const fs::path& target = located->file;
    const bool exists = located->exists;
    const struct stat& old = located->st;
    if (exists && (S_ISFIFO(old.st_mode) || S_ISCHR(old.st_mode)))
        return writeStream(path, contents);

    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    // The temp name adds 12 characters; shorten the copied name so that 255-character file names still work.
    std::string base = target.filename().string();
    constexpr std::size_t kNameMax = 255, kTempExtra = 12;
    if (base.size() + kTempExtra > kNameMax)
        base.resize(kNameMax - kTempExtra);
    std::string tmpl = (dir / ("." + base + ".tmp.XXXXXX")).string();
    // The cleanup signals wait until the temp file is registered: a signal between creating and registering
    // it would leave it behind.
    sigset_t block, previous;
    sigemptyset(&block);
    for (const int signal : kCleanupSignals)
        sigaddset(&block, signal);
    ::pthread_sigmask(SIG_BLOCK, &block, &previous);
    g_creating.fetch_add(1);
    const bool dying = g_dying.load(); // another thread is handling a cleanup signal: create nothing
    const int fd = dying ? -1 : ::mkostemp(tmpl.data(), O_CLOEXEC);
    const int createError = dying ? EINTR : errno;
    const int slot = fd >= 0 ? registerTemp(tmpl) : -1;
    g_creating.fetch_sub(1);
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    if (fd < 0)
        return failure(path, std::strerror(createError));
    const std::string tmp = tmpl;
    auto fail = [&](const std::string& why, bool open) {
        if (open)
            ::close(fd);
        ::unlink(tmp.c_str());
        releaseTemp(slot);
        return failure(path, why);
    };
    if (std::string why = writeAll(fd, contents); !why.empty())
        return fail(why, true);
    if (::fsync(fd) != 0)
        return fail(std::strerror(errno), true);
    // mkstemp creates 0600: an existing file keeps its mode (and owner, where we may), a new one follows the
    // umask.
    if (exists) {
        if (::fchown(fd, old.st_uid, old.st_gid) != 0) {
            // Not permitted for another user's file: keep our ownership, the mode still carries over.
        }
        if (::fchmod(fd, old.st_mode & 07777) != 0)
            return fail(std::strerror(errno), true);
    } else if (::fchmod(fd, 0666 & ~currentUmask()) != 0) {
        return fail(std::strerror(errno), true);
    }
    if (::close(fd) != 0)
        return fail(std::strerror(errno), false);
    if (std::rename(tmp.c_str(), target.c_str()) != 0)
        return fail(std::strerror(errno), false);
    releaseTemp(slot);
    return {};
}

void installWriteSignalCleanup() {
    for (const int signal : kCleanupSignals) {
        struct sigaction current {};
        if (::sigaction(signal, nullptr, &current) != 0)
            continue;
        if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO))
            continue; // someone else's handler, or ignored (nohup)
        struct sigaction action {};
        action.sa_handler = removeTempsAndReraise;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        ::sigaction(signal, &action, nullptr);
    }
}

} // namespace lanemap
