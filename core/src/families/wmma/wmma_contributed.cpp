// Contributed discovery reports: what users with other GPUs recorded (lanemap-cli discover --json), added at
// run time next to the reports built into the program, so the CLI and the app show every target the same way.
// Each file is validated as `lanemap-cli discover --validate` validates it; a refused file stays out, with
// why.

#include "lanemap/wmma.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <mutex>

namespace lanemap::wmma {

namespace {
namespace fs = std::filesystem;

struct Registry {
    std::mutex mutex;
    std::deque<RecordedDiscovery> reports; // a deque: the app keeps pointers to them while it shows one
    std::vector<std::string> refused;      // "path: why", from the user folder
    bool folderRead = false;
};

Registry& registry() {
    static Registry r;
    return r;
}

// Adds `path` to `r` (lock held); false with `error` when it is refused.
bool addLocked(Registry& r, const std::string& path, std::string& error) {
    RecordedDiscovery d;
    d.file = path;
    if (!loadDiscoveryReportFile(path, d.report, error))
        return false;
    for (const RecordedDiscovery& b : recordedDiscoveries())
        if (b.report.sassTarget == d.report.sassTarget) {
            error = "a report for " + d.report.sassTarget + " is already built in (" + b.file + ")";
            return false;
        }
    for (const RecordedDiscovery& c : r.reports)
        if (c.report.sassTarget == d.report.sassTarget) {
            error = "a report for " + d.report.sassTarget + " is already loaded (" + c.file + ")";
            return false;
        }
    r.reports.push_back(std::move(d));
    return true;
}

void readFolderLocked(Registry& r, const std::string& folder) {
    std::error_code ec;
    if (folder.empty() || !fs::is_directory(folder, ec))
        return;
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(folder, ec))
        if (e.path().extension() == ".json")
            files.push_back(e.path());
    std::sort(files.begin(), files.end()); // the same order on every run
    for (const fs::path& f : files) {
        std::string error;
        if (!addLocked(r, f.string(), error))
            r.refused.push_back(f.string() + ": " + error);
    }
}

// Reads the user folder once, on first use (never when the catalog is registered).
Registry& readyRegistry() {
    Registry& r = registry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.folderRead) {
        r.folderRead = true;
        readFolderLocked(r, userDiscoveryFolder());
    }
    return r;
}
} // namespace

std::string userDiscoveryFolder() {
    if (const char* dir = std::getenv("LANEMAP_DISCOVERY_DIR"))
        return dir;
    if (const char* data = std::getenv("XDG_DATA_HOME"); data && *data)
        return (fs::path(data) / "lanemap" / "discovery").string();
    if (const char* home = std::getenv("HOME"); home && *home)
        return (fs::path(home) / ".local" / "share" / "lanemap" / "discovery").string();
    return {};
}

bool addDiscoveryReport(const std::string& path, std::string& error) {
    Registry& r = readyRegistry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    return addLocked(r, path, error);
}

std::vector<std::string> loadDiscoveryFolder(const std::string& folder) {
    Registry& r = readyRegistry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    const std::size_t before = r.refused.size();
    readFolderLocked(r, folder);
    return {r.refused.begin() + static_cast<std::ptrdiff_t>(before), r.refused.end()};
}

std::vector<std::string> refusedDiscoveryReports() {
    Registry& r = readyRegistry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    return r.refused;
}

std::vector<const RecordedDiscovery*> availableDiscoveries() {
    std::vector<const RecordedDiscovery*> out;
    for (const RecordedDiscovery& b : recordedDiscoveries())
        out.push_back(&b);
    Registry& r = readyRegistry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    for (const RecordedDiscovery& c : r.reports)
        out.push_back(&c);
    return out;
}

} // namespace lanemap::wmma
