// The tiled-wgmma method's kernel binding (tiled_wgmma.hpp): the RS and SS forms of one tile, tags and
// values. The GPU device (probe_cuda.cpp) serializes the launch and turns a thrown cuda::CudaFailure into a
// failed result.
#include "device_cuda.hpp"
#include "methods/tiled_wgmma/run_tile.hpp"
#include "methods/tiled_wgmma/tiled_wgmma.hpp"

#include "cuda_check.hpp"

namespace lanemap::gpu::tiledwgmma {

std::string TiledWgmmaProbe::cannotRun(const Variant& v, const DeviceInfo& device) {
    // sm_90a code runs on compute capability 9.0 alone.
    if (device.sm != 90)
        return v.spec +
               " tiles run wgmma, which exists only on sm_90a (Hopper, compute capability 9.0); this "
               "device is sm_" +
               std::to_string(device.sm);
    return "";
}

PreparedLaunch TiledWgmmaProbe::prepareLaunch(const Variant&, const DeviceInfo&) const {
    const Plan& plan = m_plan;
    PreparedLaunch p;
    p.unsupported = unsupportedTile(*plan.instruction);
    p.builtFor = "the tiled-wgmma kernel is built for sm_90a only";
    p.notCompiled = "the code this device loaded has no wgmma (sm_90a)";
    p.launch = [&plan](std::vector<std::uint32_t>& raw) {
        return runTile(plan.kernel, plan.table, plan.descriptors, plan.tagsA, plan.tagsB, plan.valuesA,
                       plan.valuesB, raw);
    };
    return p;
}

} // namespace lanemap::gpu::tiledwgmma
