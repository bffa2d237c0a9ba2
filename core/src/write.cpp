#include "lanemap/write.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lanemap {

namespace {

namespace fs = std::filesystem;

std::string failure(const std::string& path, const std::string& reason) {
    return "cannot write '" + path + "': " + reason;
}

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

std::string writeAll(int fd, std::string_view contents) {
    const char* data = contents.data();
    std::size_t left = contents.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return std::strerror(errno);
        }
        data += n;
        left -= static_cast<std::size_t>(n);
    }
    return {};
}

// Follows a chain of symlinks to the path a write should replace (which may not exist yet).
bool resolveLinks(fs::path& target, std::string& reason) {
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st {};
        if (::lstat(target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            return true;
        std::error_code ec;
        const fs::path next = fs::read_symlink(target, ec);
        if (ec) {
            reason = ec.message();
            return false;
        }
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    reason = std::strerror(ELOOP);
    return false;
}

// Writes to a FIFO or character device as a stream: no temp file, no rename.
std::string writeStream(const std::string& path, const fs::path& target, std::string_view contents) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return failure(path, std::strerror(errno));
    std::string reason = writeAll(fd, contents);
    if (::close(fd) != 0 && reason.empty())
        reason = std::strerror(errno);
    return reason.empty() ? std::string() : failure(path, reason);
}

} // namespace

// The file a write to `path` lands in (links followed); empty with `error` set when there is none.
static std::optional<fs::path> targetOf(const std::string& path, std::string& error) {
    if (path.empty()) {
        error = failure(path, "empty file name");
        return std::nullopt;
    }
    fs::path target(path);
    std::string reason;
    if (!resolveLinks(target, reason)) {
        error = failure(path, reason);
        return std::nullopt;
    }
    return target;
}

std::string checkWritable(const std::string& path) {
    std::string error;
    const std::optional<fs::path> resolved = targetOf(path, error);
    if (!resolved)
        return error;
    const fs::path& target = *resolved;
    struct stat st {};
    if (::stat(target.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return failure(path, "it is a directory");
        if (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
            if (!S_ISREG(st.st_mode) && ::access(target.c_str(), W_OK) != 0)
                return failure(path, std::strerror(errno));
        } else {
            return failure(path, "not a regular file, FIFO or character device");
        }
        if (!S_ISREG(st.st_mode))
            return {};
    } else if (errno != ENOENT) {
        return failure(path, std::strerror(errno));
    }
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0)
        return failure(path, std::strerror(errno));
    if (!S_ISDIR(ds.st_mode))
        return failure(path, "'" + dir.string() + "' is not a directory");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        return failure(path, std::strerror(errno));
    return {};
}

std::string writeFile(const std::string& path, std::string_view contents) {
    std::string error;
    const std::optional<fs::path> resolved = targetOf(path, error);
    if (!resolved)
        return error;
    const fs::path& target = *resolved;

    struct stat old {};
    const bool exists = ::stat(target.c_str(), &old) == 0;
    if (!exists && errno != ENOENT)
        return failure(path, std::strerror(errno));
    if (exists && S_ISDIR(old.st_mode))
        return failure(path, "it is a directory");
    if (exists && (S_ISFIFO(old.st_mode) || S_ISCHR(old.st_mode)))
        return writeStream(path, target, contents);
    if (exists && !S_ISREG(old.st_mode))
        return failure(path, "not a regular file, FIFO or character device");

    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    // The temp name adds 12 characters; shorten the copied name so that 255-character file names still work.
    std::string base = target.filename().string();
    constexpr std::size_t kNameMax = 255, kTempExtra = 12;
    if (base.size() + kTempExtra > kNameMax)
        base.resize(kNameMax - kTempExtra);
    std::string tmpl = (dir / ("." + base + ".tmp.XXXXXX")).string();
    // SIGINT/SIGTERM wait until the temp file is registered: a signal between creating and registering it
    // would leave it behind.
    sigset_t block, previous;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    ::pthread_sigmask(SIG_BLOCK, &block, &previous);
    g_creating.fetch_add(1);
    const bool dying = g_dying.load(); // another thread is handling SIGINT/SIGTERM: create nothing
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
    for (int signal : {SIGINT, SIGTERM}) {
        struct sigaction current {};
        if (::sigaction(signal, nullptr, &current) != 0)
            continue;
        if (current.sa_handler != SIG_DFL || (current.sa_flags & SA_SIGINFO))
            continue; // someone else's handler
        struct sigaction action {};
        action.sa_handler = removeTempsAndReraise;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        ::sigaction(signal, &action, nullptr);
    }
}

} // namespace lanemap
