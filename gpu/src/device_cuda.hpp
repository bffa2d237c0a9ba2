#pragma once
// The GPU half of a probe method: its kernel binding, which its Probe declares and its CUDA half defines
// (methods/method_row.hpp says what a binding is). The GPU device (probe_cuda.cpp) reaches each binding
// through the method's row, times the launch, serializes it and turns CUDA errors into results; a binding
// only checks and launches. No CUDA types here.
#include "lanemap/gpu/pipeline.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lanemap::gpu {

// One plan ready to go to the GPU: what a binding's prepareLaunch returns.
struct PreparedLaunch {
    std::string unsupported; // non-empty: the kernels of this build cannot run the plan, and why
    // Uploads the inputs, launches, copies D back into `raw` and returns whether the code the device loaded
    // contains the instruction; throws cuda::CudaFailure. Called under the GPU lock.
    std::function<int(std::vector<std::uint32_t>& raw)> launch;
    std::string builtFor;    // what the kernels were built for, for launch failures
    std::string notCompiled; // the reason when the device's code lacks the instruction
};

// Adds to the process-wide probe times (probeTimes(); pipeline.cpp keeps them): the GPU context's creation.
void addContextSeconds(double seconds);

} // namespace lanemap::gpu
