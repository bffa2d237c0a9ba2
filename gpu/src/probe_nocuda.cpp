// The probe API when lanemap was built without CUDA: every call answers "unavailable".
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"

namespace lanemap::gpu {

namespace {
constexpr const char* kReason = "built without CUDA (nvcc was not found when lanemap was configured)";
}

bool builtWithCuda() {
    return false;
}

Availability discover() {
    return Availability{false, kReason, {}};
}

Device& localDevice() {
    static AbsentDevice absent(kReason);
    return absent;
}

ProbeResult probe(const Variant& variant) {
    return unsupportedResult(variant, kReason);
}

ProbeReport probeAll(const std::vector<const Variant*>& variants, const Progress& progress,
                     const std::atomic<bool>* cancel) {
    AbsentDevice absent(kReason);
    return probeMany(absent, variants, progress, cancel);
}

} // namespace lanemap::gpu
