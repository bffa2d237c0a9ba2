#include "cli_timing.hpp"

#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"

#include <iomanip>

namespace lanemap::cli {

namespace {
double seconds(std::chrono::steady_clock::duration d) {
    return std::chrono::duration<double>(d).count();
}
} // namespace

void ProbeStopwatch::print(std::ostream& out) const {
    const auto end = Clock::now();
    const gpu::ProbeTimes t = gpu::probeTimes();
    const std::ios::fmtflags flags = out.flags();
    const std::streamsize precision = out.precision();
    out << std::fixed << std::setprecision(3);
    out << "timing: " << seconds(end - m_start)
        << " s from the command's start: CUDA driver and device discovery " << seconds(m_discovered - m_start)
        << " s, probing " << seconds(m_probed - m_discovered)
        << " s wall (of which creating the CUDA context " << t.context << " s), results and report "
        << seconds(end - m_probed) << " s\n";
    out << "timing: summed over " << t.variants << " variants on " << gpu::localDevice().workers()
        << " worker threads: plan " << t.plan << " s, device " << t.device
        << " s (uploads, launches, kernels, copies back), waiting for the device " << t.waiting
        << " s, interpret " << t.interpret << " s\n";
    out.flags(flags);
    out.precision(precision);
}

} // namespace lanemap::cli
