#pragma once
// The CUDA half of the probe as a module (liblanemap_probe_kernels.so): the GPU device, its kernel bindings,
// the kernels and the CUDA runtime. Programs load it only when they probe (probe_module.cpp), so that a
// command which never touches the GPU does not pay for registering the kernels at start-up. The module uses
// the program's own lanemap code (pipeline, methods, catalog): one copy of each, no CUDA types here.
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"

namespace lanemap::gpu {

// What the module hands the program. `abi` changes whenever this record or a type it passes changes, so that
// a module from another build is refused with a reason instead of misread.
struct ProbeModule {
    int abi;
    Availability (*discover)();                  // device discovery, cached; safe without a driver
    Device& (*device)(const DeviceInfo& device); // the GPU as a probe device (discover() said available)
};
inline constexpr int kProbeModuleAbi = 1;

// Defined by the module (probe_cuda.cpp).
Availability discoverCuda();
Device& cudaDevice(const DeviceInfo& info);

// The module's file name, and where programs look for it (probe_module.cpp).
inline constexpr const char* kProbeModuleFile = "liblanemap_probe_kernels.so";

} // namespace lanemap::gpu

// The module's one entry point, looked up by name after dlopen. Programs that link the CUDA half in (the GPU
// tests) define it themselves and load nothing.
extern "C" const lanemap::gpu::ProbeModule* lanemap_probe_module_v1();
