// The one-hot method's kernel binding (mma / mma.sp, one_hot.hpp): one warp per experiment, every experiment
// of a variant in one launch. The GPU device (probe_cuda.cpp) serializes and times the launch and turns CUDA
// errors into results.
#include "device_cuda.hpp"
#include "kernels.hpp"
#include "one_hot.hpp"

#include "lanemap/catalog.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

#include <string>

namespace lanemap::gpu {

namespace {

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

} // namespace

std::string OneHotProbe::cannotRun(const Variant& v, const DeviceInfo& device) {
    if (v.minSm > device.sm)
        return "needs sm_" + std::to_string(v.minSm) + (v.kind == Kind::None ? "" : "a") +
               (v.kind == Kind::None ? "" : " (.kind::" + std::string(toString(v.kind)) + ")") +
               "; this device is sm_" + std::to_string(device.sm);
    const kernels::Entry* entry = kernels::find(v.ptx);
    if (!entry)
        return "this build has no probe kernel for " + v.ptx;
    const std::string why = formsMismatch(*entry, forms(Catalog::instance().instruction(v)));
    if (!why.empty())
        return "probe kernel out of date (" + why + "); rebuild lanemap";
    return "";
}

PreparedLaunch OneHotProbe::prepareLaunch(const Variant& v, const DeviceInfo& device) const {
    const ProbePlan& plan = m_plan;
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

} // namespace lanemap::gpu
