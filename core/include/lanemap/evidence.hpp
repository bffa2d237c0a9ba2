#pragma once
// The evidence overlay: what recorded hardware runs say about each variant. Layout tables state only what the
// documents say; whether a real GPU confirmed a placement, and on which device, driver and date, comes from
// here. The recorded reports (resources/probe/*.json, untouched `probe --json` output) are compiled into the
// program when it is built, so a new recorded run changes what lanemap shows without editing a table.

#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/vocabulary.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

// One recorded run: where and when it ran, and the report file it came from.
struct RecordedRun {
    DeviceInfo device;
    std::string date;   // ISO 8601 UTC
    std::string report; // "resources/probe/h100-mma.json"
};

// What one run said about one variant.
struct HardwareEvidence {
    const RecordedRun* run = nullptr;
    Verdict verdict = Verdict::Unsupported;
};

class EvidenceOverlay {
  public:
    // The reports built into this program.
    static const EvidenceOverlay& recorded();

    // Adds every result of a report. Per variant a pass outranks fail and unsupported; among equals the later
    // date wins.
    void add(const ProbeReport& report, std::string reportName);

    // The best evidence for a spec; nullptr when no run mentions it.
    const HardwareEvidence* find(std::string_view spec) const;
    const std::vector<std::unique_ptr<RecordedRun>>& runs() const { return m_runs; }

  private:
    std::vector<std::unique_ptr<RecordedRun>> m_runs;
    std::map<std::string, HardwareEvidence, std::less<>> m_bySpec;
    // The built-in reports only: a spec's evidence is looked up in the compiled-in results when first asked
    // for, not every result at start-up (a one-shot command asks for one spec).
    struct BuiltIn;
    std::shared_ptr<BuiltIn> m_builtIn;
};

// What a user is shown for an erratum of an instruction: a suspected reading becomes confirmed where a
// recorded run confirmed the variant cell by cell (the engine draws lanemap's reading, and the hardware
// agreed with it), and the evidence then names that run.
ErratumStatus statusOf(const Instruction& instruction, const Erratum& erratum);
std::string evidenceOf(const Instruction& instruction, const Erratum& erratum);

// "hardware probe on NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0, 2026-11-22T03:37:05Z
// (resources/probe/h100-mma.json)"
std::string describe(const RecordedRun& run);

} // namespace lanemap
