// The CUDA half of the probe API, in the probe module (probe_module.hpp): device discovery, and the GPU as a
// probe Device (pipeline.hpp) that runs each method's plans through the kernel binding of its row
// (methods/method_rows.hpp). Every CUDA call is checked; an error ends that variant with the error's name and
// never a fake result.
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"

#include "device_cuda.hpp"
#include "methods/method_rows.hpp"
#include "probe_module.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <mutex>
#include <regex>
#include <thread>

namespace lanemap::gpu {

namespace {

using cuda::CudaFailure;
using cuda::errorText;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string driverVersion() {
    // The kernel module's version (e.g. 580.159.04) is what users compare; the runtime only knows the API
    // level.
    std::ifstream in("/proc/driver/nvidia/version");
    std::string line;
    if (in && std::getline(in, line)) {
        std::smatch m;
        if (std::regex_search(line, m, std::regex(R"(\b(\d{3,}\.\d+(\.\d+)?)\b)")))
            return m[1];
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

// The GPU as a probe device. It is one resource: transfers, the launch and the error handling of one variant
// run at a time, while other threads plan and interpret (the host work dominates: up to 100k experiments per
// variant), one thread per core up to 16.
class CudaDevice final : public Device {
  public:
    explicit CudaDevice(DeviceInfo info) : m_info(std::move(info)) {}
    DeviceInfo info() const override { return m_info; }
    unsigned workers() const override { return std::clamp(std::thread::hardware_concurrency(), 1u, 16u); }

    std::string unsupported(const Variant& v, const ProbeMethod& method) const override {
        std::string why = noKernels(method);
        MethodRows::withRow(method, [&]<typename Row>() { why = Row::Probe::cannotRun(v, m_info); });
        return why;
    }

    DeviceRun run(const Variant& v, const ProbeMethod& method, const PlannedProbe& plan,
                  std::vector<std::uint32_t>& raw) override {
        DeviceRun out;
        Clock::time_point start = Clock::now();
        PreparedLaunch launch;
        launch.unsupported = noKernels(method);
        MethodRows::withPlan(method, plan,
                             [&](const auto& probe) { launch = probe.prepareLaunch(v, m_info); });
        out.seconds = since(start);
        if (!launch.unsupported.empty())
            return {DeviceRun::Outcome::Unsupported, launch.unsupported, {}, 0.0};
        int compiled = 0;
        {
            const std::lock_guard<std::mutex> lock(m_gpu); // waiting here is not counted
            start = Clock::now();
            try {
                compiled = launch.launch(raw);
            } catch (const CudaFailure& failure) {
                out.outcome = DeviceRun::Outcome::Failed;
                out.failure = cuda::failedLaunch(v.spec, plan.experiments(), failure, launch.builtFor, 0.0);
                out.seconds += since(start);
                return out;
            }
            out.seconds += since(start);
        }
        if (!compiled)
            return {DeviceRun::Outcome::Unsupported, launch.notCompiled, {}, 0.0};
        return out;
    }

  private:
    // A method of no row (the rows hold every method the pipeline plans with).
    static std::string noKernels(const ProbeMethod& method) {
        return "this build has no probe kernels for the " + std::string(method.name()) + " method";
    }

    DeviceInfo m_info;
    std::mutex m_gpu;
};

} // namespace

Availability discoverCuda() {
    static std::once_flag once;
    static Availability cached;
    std::call_once(once, [] { cached = discoverOnce(); });
    return cached;
}

Device& cudaDevice(const DeviceInfo& info) {
    static CudaDevice device(info); // discover() is cached: the device never changes
    static std::once_flag once;
    std::call_once(once, [] {
        // The context is created here, before the workers start, so that `probe --timing` shows its cost
        // apart from the first variant's. When it cannot be created, every variant's first CUDA call fails
        // with the same error and reports it (checked there, with the call's name).
        const Clock::time_point start = Clock::now();
        const cudaError_t err = cudaFree(nullptr);
        addContextSeconds(since(start));
        (void)err;
    });
    return device;
}

} // namespace lanemap::gpu
