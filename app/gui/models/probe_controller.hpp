#pragma once
// The "Probe hardware" action: runs lanemap::gpu::probeAll on a worker thread with progress and cancel, and
// keeps the reports to overlay (the live one, and recorded ones from resources/probe/*.json). Without a GPU
// it reports discover().reason and nothing else changes: the app stays fully usable.

#include "lanemap/probe_report.hpp"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <vector>

class QThread;

namespace lanemap {
struct Variant;
} // namespace lanemap

namespace lanemap::gui {

struct RecordedReport {
    QString file;
    ProbeReport report;
};

// Reads every *.json in `folder` (a disk folder or a Qt resource folder such as ":/lanemap/probe"). Files
// that are not valid reports are skipped and named in `errors`.
std::vector<RecordedReport> loadRecordedReports(const QString& folder, QStringList* errors = nullptr);

// Why the probe cannot run, in plain words for someone who may have no NVIDIA hardware at all (the technical
// reason from gpu::discover() goes in the details): "No NVIDIA GPU driver was found on this machine..."
QString plainUnavailable(const QString& reason);

// "confirmed on NVIDIA H100 80GB HBM3, driver 580.159.04, 2026-11-23" — one line for the status area.
QString describeReport(const ProbeReport& report, const ProbeResult& result);

class ProbeController : public QObject {
    Q_OBJECT
  public:
    explicit ProbeController(QObject* parent = nullptr);
    ~ProbeController() override;

    // Starts probing `variants` in the background; false when a probe is already running.
    bool start(std::vector<const Variant*> variants);
    void cancel();
    bool running() const { return m_thread != nullptr; }

    // The last finished live report (empty results when none ran or the device was unavailable).
    const ProbeReport& liveReport() const { return m_live; }
    bool hasLiveReport() const { return !m_live.results.empty(); }

    void setRecorded(std::vector<RecordedReport> recorded) { m_recorded = std::move(recorded); }
    const std::vector<RecordedReport>& recorded() const { return m_recorded; }

    // The result that applies to `spec`: the live report first, then the newest recorded one with a verdict.
    // Sets *report to the report it comes from. nullptr when none.
    const ProbeResult* resultFor(const std::string& spec, const ProbeReport** report = nullptr) const;

  signals:
    void progress(int done, int total, const QString& spec);
    // The device cannot run probes: `reason` is discover().reason.
    void unavailable(const QString& reason);
    void finished(bool cancelled);

  private:
    QThread* m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    ProbeReport m_live;
    std::vector<RecordedReport> m_recorded;
};

} // namespace lanemap::gui
