// The probe API in a CUDA build (probe.hpp): the CUDA half lives in a module (probe_module.hpp) that is
// loaded on the first call that needs the GPU, so that every other command starts without the CUDA runtime
// and its kernels. A module that is missing or does not load makes the GPU unavailable with a reason naming
// the paths tried; it is never a crash.
#include "probe_module.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include <mutex>
#include <string>
#include <vector>

// Programs that link the CUDA half in (the GPU tests) define this; elsewhere it stays null and the module is
// loaded from disk.
extern "C" const lanemap::gpu::ProbeModule* lanemap_probe_module_v1() __attribute__((weak));

namespace lanemap::gpu {

namespace {

// The directory this program's executable is in ("" when /proc is not mounted).
std::string programDir() {
    std::string path(PATH_MAX, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
    if (n <= 0 || static_cast<std::size_t>(n) >= path.size())
        return "";
    path.resize(static_cast<std::size_t>(n));
    return path.substr(0, path.rfind('/'));
}

// Where the module may be: next to the program (the build tree), then in the installed lib directory relative
// to the installed program (LANEMAP_PROBE_MODULE_RELDIR, from CMake's install directories).
std::vector<std::string> moduleCandidates() {
    const std::string dir = programDir();
    if (dir.empty())
        return {};
    std::vector<std::string> paths{dir + "/" + kProbeModuleFile};
#ifdef LANEMAP_PROBE_MODULE_RELDIR
    paths.push_back(dir + "/" LANEMAP_PROBE_MODULE_RELDIR "/" + kProbeModuleFile);
#endif
    return paths;
}

struct Loaded {
    const ProbeModule* module = nullptr;
    std::string reason; // why there is none
};

Loaded loadOnce() {
    if (lanemap_probe_module_v1)
        return {lanemap_probe_module_v1(), {}};
    const std::vector<std::string> paths = moduleCandidates();
    std::string tried;
    for (const std::string& path : paths) {
        tried += (tried.empty() ? "" : ", ") + path;
        if (::access(path.c_str(), F_OK) != 0)
            continue;
        // RTLD_NOW: a module that does not fit this program fails here, with the missing symbol named, and
        // never later in the middle of a probe. The module stays loaded until the process ends.
        void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char* why = ::dlerror();
            return {nullptr,
                    "the probe module " + path + " could not be loaded: " + (why ? why : "unknown error")};
        }
        using Entry = const ProbeModule* (*)();
        const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "lanemap_probe_module_v1"));
        if (!entry)
            return {nullptr, "the probe module " + path + " has no entry point lanemap_probe_module_v1"};
        const ProbeModule* module = entry();
        if (!module || module->abi != kProbeModuleAbi)
            return {nullptr, "the probe module " + path + " is from another lanemap build (interface " +
                                 std::to_string(module ? module->abi : 0) + ", this program needs " +
                                 std::to_string(kProbeModuleAbi) + "); reinstall lanemap"};
        return {module, {}};
    }
    return {nullptr, "the probe module " + std::string(kProbeModuleFile) + " was not found (tried " +
                         (tried.empty() ? std::string("nothing: /proc/self/exe is unreadable") : tried) +
                         "); reinstall lanemap or rebuild it with CUDA"};
}

const Loaded& loaded() {
    static std::once_flag once;
    static Loaded cached;
    std::call_once(once, [] { cached = loadOnce(); });
    return cached;
}

} // namespace

bool builtWithCuda() {
    return true;
}

Availability discover() {
    const Loaded& l = loaded();
    if (!l.module)
        return Availability{false, l.reason, {}};
    return l.module->discover();
}

Device& localDevice() {
    const Availability a = discover();
    if (!a.available) {
        static AbsentDevice absent("GPU unavailable: " + a.reason, a.device);
        return absent;
    }
    return loaded().module->device(a.device);
}

ProbeResult probe(const Variant& variant) {
    const Availability a = discover();
    if (!a.available)
        return unsupportedResult(variant, "GPU unavailable: " + a.reason);
    return probeOn(loaded().module->device(a.device), variant);
}

ProbeReport probeAll(const std::vector<const Variant*>& variants, const Progress& progress,
                     const std::atomic<bool>* cancel) {
    const Availability a = discover();
    if (!a.available) {
        AbsentDevice absent("GPU unavailable: " + a.reason, a.device);
        return probeMany(absent, variants, progress, cancel);
    }
    return probeMany(loaded().module->device(a.device), variants, progress, cancel);
}

} // namespace lanemap::gpu
