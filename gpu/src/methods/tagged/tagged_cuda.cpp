// The tagged-tile method's kernel binding (ldmatrix / stmatrix / movmatrix, tagged.hpp): one warp per
// variant, all experiments in one launch. The GPU device (probe_cuda.cpp) serializes and times the launch and
// turns CUDA errors into results.
#include "device_cuda.hpp"
#include "kernels.hpp"
#include "tagged.hpp"

#include "lanemap/matrix_move.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

#include <string>

namespace lanemap::gpu::movekernels {

#ifndef LANEMAP_SM100A_PROBES
// This build has no sm_100a kernels (nvcc before 12.8, or the option turned off).
const Entry* findSm100a(std::string_view) {
    return nullptr;
}
#endif

const Entry* find(std::string_view ptx) {
    if (const Entry* e = findB16(ptx))
        return e;
    return findSm100a(ptx);
}

} // namespace lanemap::gpu::movekernels

namespace lanemap::gpu::tagged {

std::string TaggedProbe::cannotRun(const Variant& v, const DeviceInfo& device) {
    const movekernels::Entry* entry = movekernels::find(v.ptx);
    // The sm_100a forms: their kernels hold sm_100a code only, which runs on an sm_100 GPU alone.
    if (matrixMoveOf(v) && matrixMoveOf(v)->archSpecific && (!entry || device.sm != 100))
        return "not confirmed on hardware (needs sm_100a): " +
               std::string(entry ? "the sm_100a probe kernels run on an sm_100 GPU"
                                 : "this build has no sm_100a probe kernel (LANEMAP_SM100A_PROBES)") +
               "; this device is sm_" + std::to_string(device.sm);
    if (!entry)
        return "this build has no probe kernel for " + v.ptx;
    if (device.sm * 10 < entry->minArch)
        return v.ptx + " needs sm_" + std::to_string(entry->minArch / 10) + "; this device is sm_" +
               std::to_string(device.sm);
    return "";
}

PreparedLaunch TaggedProbe::prepareLaunch(const Variant& v, const DeviceInfo&) const {
    const Plan& plan = m_plan;
    PreparedLaunch p;
    const movekernels::Entry* entry = movekernels::find(v.ptx);
    if (!entry) {
        p.unsupported = "this build has no probe kernel for " + v.ptx;
        return p;
    }
    p.builtFor = entry->minArch >= 1000
                     ? "the sm_100a matrix-move kernels are built for sm_100a only"
                     : "the matrix-move kernels are built with the probe's CUDA architectures";
    p.notCompiled = "the code this device loaded was built without " + v.ptx;
    p.launch = [&plan, entry](std::vector<std::uint32_t>& raw) {
        static cuda::DeviceArena arenaIn, arenaOut, arenaFlag;
        const std::uint32_t* dIn = cuda::upload(arenaIn, plan.inputs, "tagged images");
        const int experiments = static_cast<int>(plan.experiments.size());
        return cuda::launchAndFetch(raw, arenaOut, arenaFlag, [&](std::uint32_t* dOut, int* dCompiled) {
            return entry->launch(dIn, dOut, experiments, dCompiled);
        });
    };
    return p;
}

} // namespace lanemap::gpu::tagged
