#pragma once
// `probe --timing`: where the time of one probe run went (docs/probe.md), from the command's start.

#include <chrono>
#include <ostream>

namespace lanemap::cli {

class ProbeStopwatch {
  public:
    ProbeStopwatch() : m_start(Clock::now()) {}
    void discovered() { m_discovered = Clock::now(); } // after gpu::discover(): the driver is up
    void probed() { m_probed = Clock::now(); }         // after gpu::probeAll()
    // Two lines: the run's phases in wall time, then the per-variant phases summed over the workers.
    void print(std::ostream& out) const;

  private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point m_start, m_discovered, m_probed;
};

} // namespace lanemap::cli
