// The probe API with CUDA: device discovery, and per variant plan -> one launch -> interpretation.
// Every CUDA call is checked; an error ends that variant with the error's name and never a fake result.
#include "lanemap/gpu/experiments.hpp"
#include "lanemap/gpu/probe.hpp"

#include "kernels.hpp"
#include "probe_wgmma.hpp"

#include "lanemap/catalog.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace lanemap::gpu {

namespace {

using cuda::check;
using cuda::CudaFailure;
using cuda::errorText;

std::string driverVersion() {
    // The kernel module's version (e.g. 580.159.04) is what users compare; the runtime only knows the API
    // level.
    std::ifstream in("/proc/driver/nvidia/version");
    std::string line;
    if (in && std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, std::regex(R"(\b(\d{3,}\.\d+(\.\d+)?)\b)"))) return m[1];
    }
    int v = 0;
    if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0)
        return "CUDA driver API " + std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
    return "unknown";
}

Availability discoverOnce() {
    Availability a;
    int count = 0; // cudaGetDeviceCount leaves it unset on failure
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        a.reason =
            (err == cudaErrorNoDevice ? "no CUDA device: " : "no usable CUDA driver: ") + errorText(err);
        return a;
    }
    if (count <= 0) {
        a.reason = "no CUDA device (cudaGetDeviceCount found 0)";
        return a;
    }
    cudaDeviceProp prop{};
    if (const cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) {
        a.reason = "cannot read device 0: " + errorText(e);
        return a;
    }
    int runtime = 0;
    if (const cudaError_t e = cudaRuntimeGetVersion(&runtime); e != cudaSuccess) {
        a.reason = "cannot read the CUDA runtime version: " + errorText(e);
        return a;
    }
    a.available = true;
    a.device.name = prop.name;
    a.device.sm = prop.major * 10 + prop.minor;
    a.device.driver = driverVersion();
    a.device.cudaRuntime = std::to_string(runtime / 1000) + "." + std::to_string((runtime % 1000) / 10);
    return a;
}

std::string isoNow() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

ProbeResult unsupported(const Variant& v, std::string reason) {
    ProbeResult r;
    r.spec = v.spec;
    r.verdict = Verdict::Unsupported;
    r.reason = std::move(reason);
    return r;
}

std::string formsMismatch(const kernels::Entry& entry, const std::vector<Form>& forms) {
    if (entry.forms.size() != forms.size())
        return "the probe kernel runs " + std::to_string(entry.forms.size()) + " forms, the catalog lists " +
               std::to_string(forms.size());
    for (std::size_t i = 0; i < forms.size(); ++i)
        if (forms[i].ptx != entry.forms[i].ptx || forms[i].selector != entry.forms[i].selector)
            return "probe kernel form " + std::to_string(i) + " is " + entry.forms[i].ptx +
                   ", the catalog's is " + forms[i].ptx;
    return "";
}

// The GPU is one resource: transfers, the launch and the error handling of one variant run at a time, while
// other threads plan and interpret (the host work dominates: up to 100k experiments per variant), one thread per
// core up to 16.
std::mutex& gpuMutex() {
    static std::mutex m;
    return m;
}

using Clock = std::chrono::steady_clock;

ProbeResult runOn(const DeviceInfo& device, const Variant& v) {
    if (v.family == Family::Wgmma || v.family == Family::WgmmaSp)
        return runWgmma(device, v, gpuMutex()); // probe_wgmma_cuda.cpp
    if (v.minSm > device.sm)
        return unsupported(v, "needs sm_" + std::to_string(v.minSm) + (v.kind == Kind::None ? "" : "a") +
                                  (v.kind == Kind::None ? "" : " (.kind::" + std::string(toString(v.kind)) + ")") +
                                  "; this device is sm_" + std::to_string(device.sm));
    const kernels::Entry* entry = kernels::find(v.ptx);
    if (!entry) return unsupported(v, "this build has no probe kernel for " + v.ptx);
    const Instruction& in = Catalog::instance().instruction(v);
    std::vector<Form> forms = formsOf(in);
    if (const std::string why = formsMismatch(*entry, forms); !why.empty())
        return unsupported(v, "probe kernel out of date (" + why + "); rebuild lanemap");

    auto start = Clock::now();
    const ProbePlan plan = planProbe(in, std::move(forms));
    const RegisterWords& w = plan.words;
    if (w.a != entry->words.a || w.b != entry->words.b || w.c != entry->words.c || w.d != entry->words.d ||
        w.e != entry->words.e)
        return unsupported(v, "probe kernel registers differ from the catalog's; rebuild lanemap");
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();

    const int experiments = static_cast<int>(plan.experiments.size());
    std::vector<std::uint32_t> raw(plan.outWords());
    int compiled = 0;
    {
        const std::lock_guard<std::mutex> lock(gpuMutex());
        start = Clock::now();
        // Device buffers kept between variants (guarded by the lock above).
        static cuda::DeviceArena arenaIn, arenaModes, arenaOut, arenaFlag;
        try {
            const std::uint32_t* dIn = cuda::upload(arenaIn, plan.images, "register images");
            const std::uint8_t* dModes = cuda::upload(arenaModes, plan.modes, "forms");
            compiled = cuda::launchAndFetch(raw, arenaOut, arenaFlag, [&](std::uint32_t* dOut, int* dCompiled) {
                return entry->launch(dIn, dModes, dOut, experiments, dCompiled);
            });
        } catch (const CudaFailure& failure) {
            return cuda::failedLaunch(v.spec, experiments, failure, "this binary has code for sm_90a and PTX for compute_80",
                                      seconds + std::chrono::duration<double>(Clock::now() - start).count());
        }
        seconds += std::chrono::duration<double>(Clock::now() - start).count();
    }
    if (!compiled)
        return unsupported(v, "the code this device loaded (sm_" + std::to_string(device.sm) +
                                  ") was built without this instruction; build with CMAKE_CUDA_ARCHITECTURES "
                                  "including sm_" +
                                  std::to_string(device.sm));
    start = Clock::now();
    Interpretation interpretation = interpretProbe(plan, raw);
    interpretation.result.seconds = seconds + std::chrono::duration<double>(Clock::now() - start).count();
    return std::move(interpretation.result);
}

} // namespace

bool builtWithCuda() { return true; }

Availability discover() {
    static std::once_flag once;
    static Availability cached;
    std::call_once(once, [] { cached = discoverOnce(); });
    return cached;
}

ProbeResult probe(const Variant& variant) {
    const Availability a = discover();
    if (!a.available) return unsupported(variant, "GPU unavailable: " + a.reason);
    return runOn(a.device, variant);
}

ProbeReport probeAll(const std::vector<const Variant*>& variants, const Progress& progress,
                     const std::atomic<bool>* cancel) {
    ProbeReport report;
    report.lanemapVersion = LANEMAP_VERSION;
    report.date = isoNow();
    const Availability a = discover();
    report.device = a.device;
    // Variants are planned and interpreted on several threads (the GPU part is serialized by gpuMutex);
    // results keep the order of `variants`. A cancel stops handing out variants; those already running
    // finish.
    std::vector<std::optional<ProbeResult>> results(variants.size());
    std::atomic<std::size_t> next{0};
    std::mutex progressMutex;
    std::size_t done = 0;
    auto work = [&] {
        for (;;) {
            if (cancel && cancel->load()) return;
            const std::size_t i = next.fetch_add(1);
            if (i >= variants.size()) return;
            results[i] = a.available ? runOn(a.device, *variants[i])
                                     : unsupported(*variants[i], "GPU unavailable: " + a.reason);
            const std::lock_guard<std::mutex> lock(progressMutex);
            ++done;
            if (progress) progress(done, variants.size(), variants[i]->spec);
        }
    };
    const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < workers && t < variants.size(); ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    for (std::optional<ProbeResult>& r : results)
        if (r) report.results.push_back(std::move(*r));
    return report;
}

} // namespace lanemap::gpu
