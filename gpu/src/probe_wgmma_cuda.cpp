// The wgmma probe on the device: plan -> one launch (one warpgroup per experiment) -> interpretation.
// Every CUDA call is checked; an error ends the variant with the error's name, never with a fake result.
#include "probe_wgmma.hpp"

#include "kernels_wgmma.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/gpu/wgmma.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace lanemap::gpu {

namespace {

using cuda::check;
using cuda::CudaFailure;
using cuda::errorText;

ProbeResult unsupported(const Variant& v, std::string reason) {
    ProbeResult r;
    r.spec = v.spec;
    r.verdict = Verdict::Unsupported;
    r.reason = std::move(reason);
    return r;
}

// The kernel mode that runs a setup: same instruction, operand source, transposes and selector.
int modeOf(const wgkernels::Entry& entry, const wg::Plan& plan, const wg::Setup& s) {
    const wg::Form& f = plan.forms[s.form];
    for (std::size_t i = 0; i < entry.forms.size(); ++i) {
        const wgkernels::Form& k = entry.forms[i];
        if (f.ptx == k.ptx && k.aShared == (s.a == wg::ASource::SharedMemory) && k.transA == s.transA() &&
            k.transB == s.transB() && k.selector == f.selector)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace

ProbeResult runWgmma(const DeviceInfo& device, const Variant& v, std::mutex& gpu) {
    // sm_90a code runs on compute capability 9.0 alone: wgmma does not exist before Hopper and sm_90a
    // binaries do not load on later GPUs.
    if (device.sm != 90)
        return unsupported(v,
                           "wgmma runs only on sm_90a (Hopper, compute capability 9.0); this device is sm_" +
                               std::to_string(device.sm));
    const wgkernels::Entry* entry = wgkernels::find(v.ptx);
    if (!entry)
        return unsupported(v, "this build has no wgmma probe kernel for " + v.ptx +
                                  " (configure with -DLANEMAP_WGMMA_ALL_N=ON to build every N)");
    using Clock = std::chrono::steady_clock;
    const Instruction& in = Catalog::instance().instruction(v);
    auto start = Clock::now();
    const wg::Plan plan = wg::planProbe(in);
    if (plan.dWords != entry->dWords)
        return unsupported(v, "probe kernel D registers (" + std::to_string(entry->dWords) +
                                  ") differ from the catalog's (" + std::to_string(plan.dWords) +
                                  "); rebuild lanemap");
    std::vector<int> modes;
    for (const wg::Setup& s : plan.setups) {
        modes.push_back(modeOf(*entry, plan, s));
        if (modes.back() < 0)
            return unsupported(v, "probe kernel has no form for " + s.label + "; rebuild lanemap");
    }
    std::vector<wgkernels::Experiment> xs(plan.experiments.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
        const wg::Inputs& p = plan.inputs[i];
        xs[i] = {p.descA,   p.descB,
                 p.aRegs,   p.meta,
                 p.bOffset, p.bBytes,
                 p.aOffset, p.aBytes,
                 p.aAt,     static_cast<std::uint32_t>(modes[plan.experiments[i].setup])};
    }

    const int count = static_cast<int>(xs.size());
    std::vector<std::uint32_t> raw(plan.outWords());
    int compiled = 0;
    double seconds =
        std::chrono::duration<double>(Clock::now() - start).count(); // planning; waiting is not counted
    {
        const std::lock_guard<std::mutex> lock(gpu); // one variant on the device at a time
        start = Clock::now();
        // Device buffers kept between variants (guarded by the lock above).
        static cuda::DeviceArena arenaXs, arenaWords, arenaPool, arenaOut, arenaFlag;
        try {
            const wgkernels::Experiment* dXs = cuda::upload(arenaXs, xs, "experiments");
            const std::uint32_t* dWords = cuda::upload(arenaWords, plan.words, "register images");
            const std::uint8_t* dPool = cuda::upload(arenaPool, plan.pool, "shared-memory images");
            const wgkernels::DClass dClass{plan.dOne, plan.dNegZero, plan.dElementBits};
            compiled = cuda::launchAndFetch(raw, arenaOut, arenaFlag, [&](std::uint32_t* dOut, int* dCompiled) {
                return entry->launch(dXs, dWords, dPool, dOut, count, static_cast<int>(plan.smemBytes), dClass,
                                     dCompiled);
            });
        } catch (const CudaFailure& failure) {
            return cuda::failedLaunch(v.spec, count, failure, "the wgmma kernels are built for sm_90a only",
                                      seconds + std::chrono::duration<double>(Clock::now() - start).count());
        }
        seconds += std::chrono::duration<double>(Clock::now() - start).count();
    }
    if (!compiled)
        return unsupported(v, "the code this device loaded was built without wgmma (it needs sm_90a code)");
    start = Clock::now();
    Interpretation interpretation = wg::interpretProbe(plan, raw);
    interpretation.result.seconds = seconds + std::chrono::duration<double>(Clock::now() - start).count();
    return std::move(interpretation.result);
}

} // namespace lanemap::gpu
