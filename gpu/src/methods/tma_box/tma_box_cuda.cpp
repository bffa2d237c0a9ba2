// The tma-box method's kernel binding (tma_box.hpp): every configuration of the plan, one load each, its
// shared memory and its encoded CUtensorMap read back. The GPU device (probe_cuda.cpp) serializes the launch
// and turns a thrown cuda::CudaFailure into a failed result.
#include "device_cuda.hpp"
#include "methods/tma_box/run_box.hpp"
#include "methods/tma_box/tma_box.hpp"

#include "cuda_check.hpp"

#include <cstring>

namespace lanemap::gpu::tmabox {

std::string TmaBoxProbe::cannotRun(const Variant& v, const DeviceInfo& device) {
    if (device.sm < 90)
        return v.spec + " needs sm_90 (the Tensor Memory Accelerator); this device is sm_" +
               std::to_string(device.sm);
    return "";
}

PreparedLaunch TmaBoxProbe::prepareLaunch(const Variant&, const DeviceInfo&) const {
    const Plan& plan = m_plan;
    PreparedLaunch p;
    p.builtFor = "the tma-box kernel is built with the probe's CUDA architectures (sm_90 and later run it)";
    p.notCompiled = "the code this device loaded has no cp.async.bulk.tensor (sm_90 or later)";
    p.launch = [&plan](std::vector<std::uint32_t>& raw) {
        raw.assign(plan.outWords(), 0u);
        std::size_t at = 0;
        for (const Config& c : plan.configs) {
            std::vector<std::uint8_t> tensor(static_cast<std::size_t>(tensorBytes(c.map)));
            for (std::size_t b = 0; b < tensor.size(); ++b)
                tensor[b] = tensorByte(static_cast<std::int64_t>(b));
            const BoxRun run = runBox(c.map, tensor);
            if (!run.error.empty())
                throw cuda::CudaFailure(cudaErrorLaunchFailure, "tma-box [" + c.spec + "]: " + run.error);
            std::memcpy(raw.data() + at, run.image.data(), run.image.size());
            std::memcpy(raw.data() + at + c.imageWords(), run.encoded.data(), 128);
            at += c.imageWords() + kMapWords;
        }
        return 1;
    };
    return p;
}

} // namespace lanemap::gpu::tmabox
