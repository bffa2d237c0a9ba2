#pragma once
// The GPU half of a probe method: which variants its kernels run, and how one plan is launched. The GPU
// device (probe_cuda.cpp) holds one binding per method, times the launch, serializes it and turns CUDA errors
// into results; a binding only checks and launches. No CUDA types here.
#include "lanemap/gpu/pipeline.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lanemap::gpu {

// One plan ready to go to the GPU.
struct PreparedLaunch {
    std::string unsupported; // non-empty: the kernels of this build cannot run the plan, and why
    // Uploads the inputs, launches, copies D back into `raw` and returns whether the code the device loaded
    // contains the instruction; throws cuda::CudaFailure. Called under the GPU lock.
    std::function<int(std::vector<std::uint32_t>& raw)> launch;
    std::string builtFor;    // what the kernels were built for, for launch failures
    std::string notCompiled; // the reason when the device's code lacks the instruction
};

class KernelBinding {
  public:
    virtual ~KernelBinding() = default;
    // Why this build or device cannot run the variant, before planning; empty when it can.
    virtual std::string unsupported(const Variant& variant, const DeviceInfo& device) const = 0;
    // Host work before the launch (kernel lookup, per-experiment records); runs outside the GPU lock.
    virtual PreparedLaunch prepare(const Variant& variant, const PlannedProbe& plan,
                                   const DeviceInfo& device) const = 0;
};

const KernelBinding& oneHotKernels();       // probe_cuda.cpp: mma / mma.sp
const KernelBinding& classCodedKernels();   // methods/class_coded/class_coded_cuda.cpp: wgmma / wgmma.sp
const KernelBinding& taggedKernels();       // methods/tagged/tagged_cuda.cpp: ldmatrix / stmatrix / movmatrix
const KernelBinding& discoveryKernels();    // methods/discovery/discovery_cuda.cpp: wmma discovery
const KernelBinding& tensorMemoryKernels(); // methods/tensor_memory/tensor_memory_cuda.cpp: tcgen05 (sm_100a)

} // namespace lanemap::gpu
