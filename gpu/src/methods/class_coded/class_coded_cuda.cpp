// The class-coded method's kernel binding (wgmma / wgmma.sp, class_coded.hpp): one warpgroup per experiment.
// The GPU device (probe_cuda.cpp) serializes and times the launch and turns CUDA errors into results.
#include "class_coded.hpp"
#include "device_cuda.hpp"
#include "kernels.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

#include <memory>
#include <string>

namespace lanemap::gpu {

namespace {

// The kernel mode that runs a setup: same instruction, operand source, transposes and selector.
int modeOf(const wgkernels::Entry& entry, const wg::Plan& plan, const wg::Setup& s) {
    const ProbeForm& f = plan.forms[s.form];
    for (std::size_t i = 0; i < entry.forms.size(); ++i) {
        const wgkernels::Form& k = entry.forms[i];
        if (f.ptx == k.ptx && k.aShared == (s.a == wg::ASource::SharedMemory) && k.transA == s.transA() &&
            k.transB == s.transB() && k.selector == f.selector)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace

std::string ClassCodedProbe::cannotRun(const Variant& v, const DeviceInfo& device) {
    // sm_90a code runs on compute capability 9.0 alone: wgmma does not exist before Hopper and sm_90a
    // binaries do not load on later GPUs.
    if (device.sm != 90)
        return "wgmma runs only on sm_90a (Hopper, compute capability 9.0); this device is sm_" +
               std::to_string(device.sm);
    if (!wgkernels::find(v.ptx))
        return "this build has no wgmma probe kernel for " + v.ptx +
               " (configure with -DLANEMAP_WGMMA_ALL_N=ON to build every N)";
    return "";
}

PreparedLaunch ClassCodedProbe::prepareLaunch(const Variant& v, const DeviceInfo&) const {
    const wg::Plan& plan = m_plan;
    const wgkernels::Entry* entry = wgkernels::find(v.ptx);
    PreparedLaunch p;
    if (!entry) {
        p.unsupported = "this build has no wgmma probe kernel for " + v.ptx;
        return p;
    }
    if (plan.dWords != entry->dWords) {
        p.unsupported = "probe kernel D registers (" + std::to_string(entry->dWords) +
                        ") differ from the catalog's (" + std::to_string(plan.dWords) + "); rebuild lanemap";
        return p;
    }
    std::vector<int> modes;
    for (const wg::Setup& s : plan.setups) {
        modes.push_back(modeOf(*entry, plan, s));
        if (modes.back() < 0) {
            p.unsupported = "probe kernel has no form for " + s.label + "; rebuild lanemap";
            return p;
        }
    }
    auto xs = std::make_shared<std::vector<wgkernels::Experiment>>(plan.experiments.size());
    for (std::size_t i = 0; i < xs->size(); ++i) {
        const wg::Inputs& in = plan.inputs[i];
        (*xs)[i] = {in.descA,   in.descB,
                    in.aRegs,   in.meta,
                    in.bOffset, in.bBytes,
                    in.aOffset, in.aBytes,
                    in.aAt,     static_cast<std::uint32_t>(modes[plan.experiments[i].setup])};
    }
    p.builtFor = "the wgmma kernels are built for sm_90a only";
    p.notCompiled = "the code this device loaded was built without wgmma (it needs sm_90a code)";
    p.launch = [&plan, entry, xs](std::vector<std::uint32_t>& raw) {
        // Device buffers kept between variants (guarded by the GPU lock the caller holds).
        static cuda::DeviceArena arenaXs, arenaWords, arenaPool, arenaOut, arenaFlag;
        const wgkernels::Experiment* dXs = cuda::upload(arenaXs, *xs, "experiments");
        const std::uint32_t* dWords = cuda::upload(arenaWords, plan.words, "register images");
        const std::uint8_t* dPool = cuda::upload(arenaPool, plan.pool, "shared-memory images");
        const wgkernels::DClass dClass{plan.dOne, plan.dNegZero, plan.dElementBits};
        const int count = static_cast<int>(xs->size());
        return cuda::launchAndFetch(raw, arenaOut, arenaFlag, [&](std::uint32_t* dOut, int* dCompiled) {
            return entry->launch(dXs, dWords, dPool, dOut, count, static_cast<int>(plan.smemBytes), dClass,
                                 dCompiled);
        });
    };
    return p;
}

} // namespace lanemap::gpu
