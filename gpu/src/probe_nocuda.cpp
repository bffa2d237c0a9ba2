// The probe API when lanemap was built without CUDA: every call answers "unavailable".
#include "lanemap/gpu/probe.hpp"

namespace lanemap::gpu {

namespace {
constexpr const char* kReason = "built without CUDA (nvcc was not found when lanemap was configured)";
}

bool builtWithCuda() { return false; }

Availability discover() { return Availability{false, kReason, {}}; }

ProbeResult probe(const Variant& variant) {
    ProbeResult r;
    r.spec = variant.spec;
    r.verdict = Verdict::Unsupported;
    r.reason = kReason;
    return r;
}

ProbeReport probeAll(const std::vector<const Variant*>& variants, const Progress& progress,
                     const std::atomic<bool>* cancel) {
    ProbeReport report;
    report.lanemapVersion = LANEMAP_VERSION;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        if (cancel && cancel->load()) break;
        report.results.push_back(probe(*variants[i]));
        if (progress) progress(i + 1, variants.size(), variants[i]->spec);
    }
    return report;
}

} // namespace lanemap::gpu
