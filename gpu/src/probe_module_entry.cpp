// The probe module's entry point (probe_module.hpp).
#include "probe_module.hpp"

extern "C" const lanemap::gpu::ProbeModule* lanemap_probe_module_v1() {
    static const lanemap::gpu::ProbeModule module{lanemap::gpu::kProbeModuleAbi, &lanemap::gpu::discoverCuda,
                                                  &lanemap::gpu::cudaDevice};
    return &module;
}
