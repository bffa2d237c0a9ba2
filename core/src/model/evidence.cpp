#include "lanemap/evidence.hpp"

#include <algorithm>
#include <functional>
#include <mutex>
#include <unordered_map>

namespace lanemap {

namespace {
int rank(Verdict v) {
    return v == Verdict::Pass ? 2 : v == Verdict::Fail ? 1 : 0;
}

// Per variant a pass outranks fail and unsupported; among equals the later date wins.
bool outranks(const HardwareEvidence& fresh, const HardwareEvidence& old) {
    return rank(fresh.verdict) > rank(old.verdict) ||
           (rank(fresh.verdict) == rank(old.verdict) && fresh.run->date > old.run->date);
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

std::string_view specOf(std::string_view spec) {
    return spec;
}
std::string_view specOf(const RecordedResultRow& row) {
    return row.spec;
}
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
        if (outranks(fresh, it->second))
            it->second = fresh;
    }
}

struct EvidenceOverlay::BuiltIn {
    // Looked up by a spec's view (every build asks once), without making a string of it.
    struct SpecHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view spec) const { return std::hash<std::string_view>{}(spec); }
    };
    std::mutex mutex;
    // run == nullptr: no run mentions the spec. Nodes: the addresses handed out stay valid.
    std::unordered_map<std::string, HardwareEvidence, SpecHash, std::equal_to<>> found;
};

const HardwareEvidence* EvidenceOverlay::find(std::string_view spec) const {
    if (!m_builtIn) {
        auto it = m_bySpec.find(spec);
        return it == m_bySpec.end() ? nullptr : &it->second;
    }
    const std::lock_guard lock(m_builtIn->mutex);
    auto it = m_builtIn->found.find(spec);
    if (it == m_builtIn->found.end()) {
        // The generator sorts the rows by spec (the last row is an empty end marker), one spec's rows in
        // report order, as add() would meet them.
        const auto rows =
            std::equal_range(std::begin(kRecordedResults), std::end(kRecordedResults) - 1, spec,
                             [](const auto& a, const auto& b) { return specOf(a) < specOf(b); });
        HardwareEvidence best;
        for (auto row = rows.first; row != rows.second; ++row) {
            const HardwareEvidence fresh{m_runs.at(static_cast<std::size_t>(row->run)).get(), row->verdict};
            if (!best.run || outranks(fresh, best))
                best = fresh;
        }
        it = m_builtIn->found.emplace(std::string(spec), best).first;
    }
    return it->second.run ? &it->second : nullptr;
}

const EvidenceOverlay& EvidenceOverlay::recorded() {
    static const EvidenceOverlay overlay = [] {
        EvidenceOverlay o;
        for (const RecordedRunRow& row : kRecordedRuns) {
            if (!row.report)
                continue; // the generator ends every table with an empty row
            auto run = std::make_unique<RecordedRun>();
            run->device = {row.device, row.sm, row.driver, row.cudaRuntime};
            run->date = row.date;
            run->report = row.report;
            o.m_runs.push_back(std::move(run));
        }
        o.m_builtIn = std::make_shared<BuiltIn>();
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
