// The CUDA half of the probe API, in the probe module (probe_module.hpp): device discovery, the GPU as a
// probe Device (pipeline.hpp), and the one-hot method's kernels (mma / mma.sp). Every CUDA call is checked;
// an error ends that variant with the error's name and never a fake result.
#include "lanemap/gpu/discover.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"

#include "device_cuda.hpp"
#include "methods.hpp"
#include "methods/one_hot/kernels.hpp"
#include "methods/tagged/tagged.hpp"
#include "methods/tensor_memory/tensor_memory.hpp"
#include "probe_module.hpp"

#include "lanemap/catalog.hpp"

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

std::string formsMismatch(const kernels::Entry& entry, const std::vector<ProbeForm>& forms) {
    if (entry.forms.size() != forms.size())
        return "the probe kernel runs " + std::to_string(entry.forms.size()) + " forms, the catalog lists " +
               std::to_string(forms.size());
    for (std::size_t i = 0; i < forms.size(); ++i)
        if (forms[i].ptx != entry.forms[i].ptx || forms[i].selector != entry.forms[i].selector)
            return "probe kernel form " + std::to_string(i) + " is " + entry.forms[i].ptx +
                   ", the catalog's is " + forms[i].ptx;
    return "";
}

class OneHotKernels final : public KernelBinding {
  public:
    std::string unsupported(const Variant& v, const DeviceInfo& device) const override {
        if (v.minSm > device.sm)
            return "needs sm_" + std::to_string(v.minSm) + (v.kind == Kind::None ? "" : "a") +
                   (v.kind == Kind::None ? "" : " (.kind::" + std::string(toString(v.kind)) + ")") +
                   "; this device is sm_" + std::to_string(device.sm);
        const kernels::Entry* entry = kernels::find(v.ptx);
        if (!entry)
            return "this build has no probe kernel for " + v.ptx;
        const std::string why =
            formsMismatch(*entry, oneHotMethod().forms(Catalog::instance().instruction(v)));
        if (!why.empty())
            return "probe kernel out of date (" + why + "); rebuild lanemap";
        return "";
    }

    PreparedLaunch prepare(const Variant& v, const PlannedProbe& planned,
                           const DeviceInfo& device) const override {
        const ProbePlan& plan = dynamic_cast<const OneHotProbe&>(planned).plan();
        const kernels::Entry* entry = kernels::find(v.ptx);
        PreparedLaunch p;
        const RegisterWords& w = plan.words;
        if (!entry || w.a != entry->words.a || w.b != entry->words.b || w.c != entry->words.c ||
            w.d != entry->words.d || w.e != entry->words.e) {
            p.unsupported = "probe kernel registers differ from the catalog's; rebuild lanemap";
            return p;
        }
        p.builtFor = "this binary has code for sm_90a and PTX for compute_80";
        p.notCompiled =
            "the code this device loaded (sm_" + std::to_string(device.sm) +
            ") was built without this instruction; build with CMAKE_CUDA_ARCHITECTURES including sm_" +
            std::to_string(device.sm);
        p.launch = [&plan, entry](std::vector<std::uint32_t>& raw) {
            // Device buffers kept between variants (guarded by the GPU lock the caller holds).
            static cuda::DeviceArena arenaIn, arenaModes, arenaOut, arenaFlag;
            const std::uint32_t* dIn = cuda::upload(arenaIn, plan.images, "register images");
            const std::uint8_t* dModes = cuda::upload(arenaModes, plan.modes, "forms");
            const int experiments = static_cast<int>(plan.experiments.size());
            return cuda::launchAndFetch(raw, arenaOut, arenaFlag, [&](std::uint32_t* dOut, int* dCompiled) {
                return entry->launch(dIn, dModes, dOut, experiments, dCompiled);
            });
        };
        return p;
    }
};

// The GPU as a probe device. It is one resource: transfers, the launch and the error handling of one variant
// run at a time, while other threads plan and interpret (the host work dominates: up to 100k experiments per
// variant), one thread per core up to 16.
class CudaDevice final : public Device {
  public:
    explicit CudaDevice(DeviceInfo info) : m_info(std::move(info)) {}
    DeviceInfo info() const override { return m_info; }
    unsigned workers() const override { return std::clamp(std::thread::hardware_concurrency(), 1u, 16u); }

    std::string unsupported(const Variant& v, const ProbeMethod& method) const override {
        const KernelBinding* binding = bindingOf(method);
        if (!binding)
            return "this build has no probe kernels for the " + std::string(method.name()) + " method";
        return binding->unsupported(v, m_info);
    }

    DeviceRun run(const Variant& v, const ProbeMethod& method, const PlannedProbe& plan,
                  std::vector<std::uint32_t>& raw) override {
        DeviceRun out;
        Clock::time_point start = Clock::now();
        const PreparedLaunch launch = bindingOf(method)->prepare(v, plan, m_info);
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
    static const KernelBinding* bindingOf(const ProbeMethod& method) {
        if (&method == &oneHotMethod())
            return &oneHotKernels();
        if (&method == &classCodedMethod())
            return &classCodedKernels();
        if (&method == &taggedMethod())
            return &taggedKernels();
        if (&method == &discoveryMethod())
            return &discoveryKernels();
        if (&method == &tensorMemoryMethod())
            return &tensorMemoryKernels();
        return nullptr;
    }

    DeviceInfo m_info;
    std::mutex m_gpu;
};

} // namespace

const KernelBinding& oneHotKernels() {
    static const OneHotKernels binding;
    return binding;
}

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
