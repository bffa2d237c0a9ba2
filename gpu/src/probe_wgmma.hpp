#pragma once
// The wgmma / wgmma.sp half of the CUDA probe (probe_wgmma_cuda.cpp); probe_cuda.cpp hands these variants to
// it.
#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"

#include <mutex>

namespace lanemap::gpu {

// Plans, runs (one launch, one warpgroup per experiment) and interprets one wgmma or wgmma.sp variant on the
// current device; `unsupported` with the reason where the device or this build cannot run it. Several
// variants may be planned and interpreted at once; the GPU part holds `gpu` (probe_cuda.cpp's lock for the
// device).
ProbeResult runWgmma(const DeviceInfo& device, const Variant& variant, std::mutex& gpu);

} // namespace lanemap::gpu
