#pragma once
// Hardware probe reports (docs/reference/probe-report.md): what a real GPU said about each variant. Plain
// data plus JSON I/O, so the app can show recorded reports without CUDA. Produced by lanemap_gpu.

#include "lanemap/vocabulary.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

struct DeviceInfo {
    std::string name;        // "NVIDIA H100 80GB HBM3"
    int sm = 0;              // 90
    std::string driver;      // "580.159.04"
    std::string cudaRuntime; // "13.0"
};

// One cell the hardware placed differently from the engine.
struct ProbeMismatch {
    Operand operand = Operand::A;
    int matrix = -1; // quad-pair product, -1 elsewhere
    int row = 0;
    int col = 0;
    int thread = -1;        // owner the engine names (-1 unknown)
    int index = -1;         // element index the engine names
    std::string experiment; // "rows of A vs D", ...
    std::string expected;   // what the engine predicts, human readable
    std::string observed;   // what the hardware did
};

struct ProbeResult {
    std::string spec;
    Verdict verdict = Verdict::Unsupported;
    std::string reason; // for unsupported / failed launches
    int experiments = 0;
    int cellsChecked = 0;
    int cellsMismatched = 0;
    double seconds = 0.0;
    std::vector<ProbeMismatch> mismatches;
    std::vector<std::string> findings; // settled questions, e.g. "E1 confirmed: ..."
};

struct ProbeReport {
    DeviceInfo device;
    std::string date; // ISO 8601 UTC
    std::string lanemapVersion;
    std::vector<ProbeResult> results;

    const ProbeResult* result(std::string_view spec) const;
};

std::string toJson(const ProbeReport& report);

// Parses and validates a report (docs/reference/probe-report.md). A corrupt or foreign file is rejected with
// a message naming what is wrong, down to the field; nothing of it is trusted.
bool parseProbeReport(std::string_view json, ProbeReport& report, std::string& error);

// The largest report file loadProbeReportFile reads (the recorded H100 reports are under 1 MB).
inline constexpr std::size_t kMaxProbeReportBytes = 32u << 20;

// Reads and parses a report file: regular files only (not FIFOs or devices, also behind links), at most
// kMaxProbeReportBytes. On failure `error` says why (without the path).
bool loadProbeReportFile(const std::string& path, ProbeReport& report, std::string& error);

// The bounded reader behind it, for every report kind (probe, wmma discovery): a regular file of at most
// kMaxProbeReportBytes into `text`; on failure `error` says why (without the path).
bool readReportFile(const std::string& path, std::string& text, std::string& error);

} // namespace lanemap
