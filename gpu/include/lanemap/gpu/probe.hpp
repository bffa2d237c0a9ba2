#pragma once
// The hardware probe's public API (docs/probe.md). No CUDA types: the app and CLI include this whether or not
// CUDA was available at build time. Without CUDA, or without a device, every call answers "unavailable:
// <reason>" — never a crash, never a fake result.

#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace lanemap::gpu {

struct Availability {
    bool available = false;
    std::string reason; // why not, when unavailable ("built without CUDA", "no CUDA driver (error 35)", ...)
    DeviceInfo device;  // filled when available
};

// True when this binary contains the CUDA probe kernels.
bool builtWithCuda();

// Device discovery; safe to call without a driver or device.
Availability discover();

// Probe one variant on device 0. Variants the device cannot run come back `unsupported` with the reason.
ProbeResult probe(const Variant& variant);

// Called after each variant: (done, total, spec just finished). With CUDA, probeAll works on several threads:
// the callback then comes from a worker thread, one call at a time.
using Progress = std::function<void(std::size_t done, std::size_t total, const std::string& spec)>;

// Probe many variants; `cancel` (optional) stops between variants. The report carries device, date and
// version; its results keep the order of `variants` (after a cancel: those that finished).
ProbeReport probeAll(const std::vector<const Variant*>& variants, const Progress& progress = {},
                     const std::atomic<bool>* cancel = nullptr);

// Where the probe's time went since the process started (`lanemap-cli probe --timing`, docs/probe.md). Per
// variant phases are summed over every variant: with several worker threads they add up to more than the wall
// time.
struct ProbeTimes {
    double context = 0.0;   // creating the CUDA context on device 0 (once, before the first variant)
    double plan = 0.0;      // building layouts, experiments and input images (host)
    double device = 0.0;    // the device's own time: uploads, launches (a kernel's module loads on its first
                            // launch), waiting for the kernel, copies back
    double waiting = 0.0;   // workers waiting for the GPU, which runs one variant at a time
    double interpret = 0.0; // reading the raw registers back into verdicts (host)
    std::size_t variants = 0;
};
ProbeTimes probeTimes();

} // namespace lanemap::gpu
