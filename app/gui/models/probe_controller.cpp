#include "probe_controller.hpp"

#include "lanemap/gpu/probe.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/verdict.hpp"

#include <QDir>
#include <QFile>
#include <QPointer>
#include <QThread>

namespace lanemap::gui {

std::vector<RecordedReport> loadRecordedReports(const QString& folder, QStringList* errors) {
    std::vector<RecordedReport> out;
    const QDir dir(folder);
    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        RecordedReport r;
        r.file = dir.filePath(name);
        std::string error;
        bool loaded = false;
        if (r.file.startsWith(QLatin1Char(':'))) {
            // A Qt resource (the reports compiled into the app) is no file the core loader can open: read
            // it through Qt, with the same size cap, and parse it with the core parser.
            QFile resource(r.file);
            if (!resource.open(QIODevice::ReadOnly))
                error = resource.errorString().toStdString();
            else if (resource.size() > static_cast<qint64>(kMaxProbeReportBytes))
                error =
                    "larger than the " + std::to_string(kMaxProbeReportBytes >> 20) + " MiB a report may be";
            else {
                const QByteArray bytes = resource.readAll();
                loaded = parseProbeReport(
                    std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), r.report,
                    error);
            }
        } else {
            // Through the core loader: regular files only, size-capped (a link to /dev/zero must not eat the
            // memory).
            loaded = loadProbeReportFile(QFile::encodeName(r.file).toStdString(), r.report, error);
        }
        if (!loaded) {
            if (errors)
                *errors << QStringLiteral("%1: %2").arg(r.file, QString::fromStdString(error));
            continue;
        }
        out.push_back(std::move(r));
    }
    // Newest first (ISO dates sort as text).
    std::stable_sort(out.begin(), out.end(), [](const RecordedReport& a, const RecordedReport& b) {
        return a.report.date > b.report.date;
    });
    return out;
}

QString plainUnavailable(const QString& reason) {
    const QString rest =
        QObject::tr(" Everything else in lanemap works without one; hardware verdicts shown come from "
                    "reports recorded on other machines.");
    if (reason.contains(QLatin1String("without CUDA")))
        return QObject::tr("This build of lanemap has no GPU probe (it was built without CUDA).") + rest;
    if (reason.contains(QLatin1String("no CUDA device")) || reason.contains(QLatin1String("NoDevice")))
        return QObject::tr("No NVIDIA GPU was found on this machine.") + rest;
    if (reason.contains(QLatin1String("driver"), Qt::CaseInsensitive))
        // cudaErrorInsufficientDriver is also what a machine with no NVIDIA driver at all reports.
        return QObject::tr(
                   "No working NVIDIA GPU driver was found on this machine (none is installed, or it is "
                   "older than this build of lanemap needs).") +
               rest;
    return QObject::tr("The GPU probe cannot run on this machine.") + rest;
}

QString describeReport(const ProbeReport& report, const ProbeResult& result) {
    const QString device = QString::fromStdString(report.device.name);
    const QString where = QStringLiteral("%1 (sm_%2), driver %3, CUDA %4, %5")
                              .arg(device.isEmpty() ? QStringLiteral("unknown device") : device)
                              .arg(report.device.sm)
                              .arg(QString::fromStdString(report.device.driver),
                                   QString::fromStdString(report.device.cudaRuntime),
                                   QString::fromStdString(report.date).left(10));
    if (result.verdict == Verdict::Pass)
        return QStringLiteral("confirmed on %1: %2 cells, %3 experiments")
            .arg(where)
            .arg(result.cellsChecked)
            .arg(result.experiments);
    if (result.verdict == Verdict::Fail)
        return QStringLiteral("hardware disagrees on %1 of %2 cells on %3")
            .arg(result.cellsMismatched)
            .arg(result.cellsChecked)
            .arg(where);
    return QStringLiteral("not probed on %1: %2").arg(where, QString::fromStdString(result.reason));
}

ProbeController::ProbeController(QObject* parent) : QObject(parent) {}

ProbeController::~ProbeController() {
    if (m_thread) {
        m_cancel->store(true);
        m_thread->wait();
        delete m_thread;
    }
}

bool ProbeController::start(std::vector<const Variant*> variants) {
    if (m_thread)
        return false;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancel = m_cancel;
    QPointer<ProbeController> self(this);
    auto report = std::make_shared<ProbeReport>();
    auto reason = std::make_shared<QString>();
    m_thread = QThread::create([variants = std::move(variants), cancel, self, report, reason] {
        const gpu::Availability avail = gpu::discover();
        if (!avail.available) {
            *reason = QString::fromStdString(avail.reason);
            return;
        }
        *report = gpu::probeAll(
            variants,
            [self](std::size_t done, std::size_t total, const std::string& spec) {
                const QString s = QString::fromStdString(spec);
                QMetaObject::invokeMethod(
                    self.data(),
                    [self, done, total, s] {
                        if (self)
                            emit self->progress(static_cast<int>(done), static_cast<int>(total), s);
                    },
                    Qt::QueuedConnection);
            },
            cancel.get());
    });
    connect(m_thread, &QThread::finished, this, [this, report, reason] {
        m_thread->deleteLater();
        m_thread = nullptr;
        const bool cancelled = m_cancel->load();
        if (!reason->isEmpty()) {
            emit unavailable(*reason);
            emit finished(false);
            return;
        }
        if (!report->results.empty())
            m_live = std::move(*report);
        emit finished(cancelled);
    });
    m_thread->start();
    return true;
}

void ProbeController::cancel() {
    if (m_cancel)
        m_cancel->store(true);
}

const ProbeResult* ProbeController::resultFor(const std::string& spec, const ProbeReport** report) const {
    auto usable = [](const ProbeResult* r) { return r && coversCells(*r); };
    if (const ProbeResult* r = m_live.result(spec); usable(r)) {
        if (report)
            *report = &m_live;
        return r;
    }
    for (const RecordedReport& rec : m_recorded)
        if (const ProbeResult* r = rec.report.result(spec); usable(r)) {
            if (report)
                *report = &rec.report;
            return r;
        }
    return nullptr;
}

} // namespace lanemap::gui
