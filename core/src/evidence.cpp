#include "lanemap/evidence.hpp"

namespace lanemap {

namespace {
int rank(Verdict v) {
    return v == Verdict::Pass ? 2 : v == Verdict::Fail ? 1 : 0;
}

// Generated at build time from resources/probe/*.json by core/tools/embed_reports.cpp.
struct RecordedRunRow {
    const char* report;
    const char* device;
    int sm;
    const char* driver;
    const char* cudaRuntime;
    const char* date;
};
struct RecordedResultRow {
    int run; // index into kRecordedRuns
    const char* spec;
    Verdict verdict;
};
#include "recorded_reports.inc" // kRecordedRuns[], kRecordedResults[]
} // namespace

void EvidenceOverlay::add(const ProbeReport& report, std::string reportName) {
    auto run = std::make_unique<RecordedRun>();
    run->device = report.device;
    run->date = report.date;
    run->report = std::move(reportName);
    const RecordedRun* raw = run.get();
    m_runs.push_back(std::move(run));
    for (const ProbeResult& r : report.results) {
        const HardwareEvidence fresh{raw, r.verdict};
        auto [it, inserted] = m_bySpec.try_emplace(r.spec, fresh);
        if (inserted)
            continue;
        const HardwareEvidence& old = it->second;
        if (rank(fresh.verdict) > rank(old.verdict) ||
            (rank(fresh.verdict) == rank(old.verdict) && raw->date > old.run->date))
            it->second = fresh;
    }
}

const HardwareEvidence* EvidenceOverlay::find(std::string_view spec) const {
    auto it = m_bySpec.find(spec);
    return it == m_bySpec.end() ? nullptr : &it->second;
}

const EvidenceOverlay& EvidenceOverlay::recorded() {
    static const EvidenceOverlay overlay = [] {
        EvidenceOverlay o;
        std::vector<ProbeReport> reports;
        std::vector<std::string> names;
        for (const RecordedRunRow& row : kRecordedRuns) {
            if (!row.report)
                continue; // the generator ends every table with an empty row
            ProbeReport r;
            r.device = {row.device, row.sm, row.driver, row.cudaRuntime};
            r.date = row.date;
            reports.push_back(std::move(r));
            names.emplace_back(row.report);
        }
        for (const RecordedResultRow& row : kRecordedResults) {
            if (!row.spec)
                continue;
            ProbeResult r;
            r.spec = row.spec;
            r.verdict = row.verdict;
            reports.at(static_cast<std::size_t>(row.run)).results.push_back(std::move(r));
        }
        for (std::size_t i = 0; i < reports.size(); ++i)
            o.add(reports[i], names[i]);
        return o;
    }();
    return overlay;
}

namespace {
bool confirmed(const Instruction& in) {
    return in.hardware && in.hardware->verdict == Verdict::Pass;
}
} // namespace

ErratumStatus statusOf(const Instruction& in, const Erratum& e) {
    return e.status == ErratumStatus::Suspected && confirmed(in) ? ErratumStatus::Confirmed : e.status;
}

std::string evidenceOf(const Instruction& in, const Erratum& e) {
    std::string text(e.evidence);
    if (confirmed(in))
        (text += "; the variant agrees cell by cell on the ") += describe(*in.hardware->run);
    return text;
}

std::string describe(const RecordedRun& run) {
    return "hardware probe on " + run.device.name + " (sm_" + std::to_string(run.device.sm) + "), driver " +
           run.device.driver + ", CUDA " + run.device.cudaRuntime + ", " + run.date + " (" + run.report + ")";
}

} // namespace lanemap
