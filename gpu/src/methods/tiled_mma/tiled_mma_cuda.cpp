// The tiled-mma method's kernel binding (tiled_mma.hpp): both launches of one tile. The GPU device
// (probe_cuda.cpp) serializes the launch and turns a thrown cuda::CudaFailure into a failed result.
#include "device_cuda.hpp"
#include "methods/tiled_mma/run_tile.hpp"
#include "methods/tiled_mma/tiled_mma.hpp"

#include "cuda_check.hpp"

namespace lanemap::gpu::tiledmma {

std::string TiledMmaProbe::cannotRun(const Variant& v, const DeviceInfo& device) {
    if (device.sm < 80)
        return v.spec + " tiles need sm_80 (mma.m16n8k16); this device is sm_" + std::to_string(device.sm);
    return "";
}

PreparedLaunch TiledMmaProbe::prepareLaunch(const Variant&, const DeviceInfo&) const {
    const Plan& plan = m_plan;
    PreparedLaunch p;
    p.unsupported = unsupportedTile(*plan.instruction,
                                    plan.kernel.copy == 2   ? Copy::SharedLoad
                                    : plan.kernel.copy == 1 ? Copy::Ldmatrix
                                                            : Copy::Direct,
                                    plan.loads);
    p.builtFor = "the tiled-mma kernel is built with the probe's CUDA architectures (sm_80 and later run it)";
    p.notCompiled = "the code this device loaded has no mma.m16n8k16";
    p.launch = [&plan](std::vector<std::uint32_t>& raw) {
        runTile(plan.kernel, plan.table, plan.tagsA, plan.tagsB, plan.valuesA, plan.valuesB, raw);
        return 1;
    };
    return p;
}

} // namespace lanemap::gpu::tiledmma
