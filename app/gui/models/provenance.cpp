#include "provenance.hpp"

#include "probe_controller.hpp"

#include "lanemap/model.hpp"
#include "lanemap/verdict.hpp"
#include "lanemap/wmma.hpp"

#include <QCoreApplication>
#include <QFileInfo>

#include <algorithm>

namespace lanemap::gui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("lanemap::gui::MainWindow", text);
}
} // namespace

Provenance provenanceOf(const Instruction& in, const ProbeController& probe) {
    Provenance out;
    const ProbeReport* report = nullptr;
    // A tile's reports are the atom's: they do not confirm the tile (docs/tiles.md#proof).
    const ProbeResult* result = in.tile ? nullptr : probe.resultFor(in.spec, &report);
    if (result && report) {
        // Which report speaks: this machine's probe run, or a file recorded elsewhere (a user without a GPU
        // must not take it for their own hardware).
        QString origin = tr("probe run on this machine");
        for (const RecordedReport& rec : probe.recorded())
            if (&rec.report == report)
                origin = tr("recorded report %1, not this machine").arg(QFileInfo(rec.file).fileName());
        // One line at laptop widths: device and date here; driver, CUDA and counts are in the status bar.
        const QString where = QStringLiteral("%1, %2").arg(
            QString::fromStdString(report->device.name.empty() ? "unknown device" : report->device.name),
            QString::fromStdString(report->date).left(10));
        // An instance with its family's own parameters (a TMA box's tensor map) is one of endless
        // configurations: the report proves the model over those it ran, not this one cell by cell.
        if (result->cellsMismatched != 0)
            out.verdictLine = tr("<span style='color:#c62828'>✗ Red frame: the hardware placed that cell "
                                 "differently</span> (%1): %2.")
                                  .arg(origin, describeReport(*report, *result).toHtmlEscaped());
        else if (in.params.family) {
            out.verdictLine = tr("✓ The model drawing this passed all %1 configurations probed on %2 (%3); "
                                 "this configuration itself was not probed.")
                                  .arg(result->experiments)
                                  .arg(where.toHtmlEscaped(), origin);
            // The probe runs one CTA: a placement over a cluster (a multicast) goes beyond what it ran.
            int ctas = 1;
            for (const Placement& p : in.placements)
                ctas = std::max(ctas, p.clusterCtas());
            if (ctas > 1)
                out.verdictLine +=
                    tr(" Nor was a load over a cluster (%1 CTAs): what each CTA receives is the "
                       "PTX text and CUTLASS's code, drawn.")
                        .arg(ctas);
        } else
            out.verdictLine = tr("✓ Every cell confirmed on %1 (%2).").arg(where.toHtmlEscaped(), origin);
        out.status = describeReport(*report, *result);
        out.statusToolTip =
            tr("Hardware report (%1 of %2 cells mismatched). The probe proves that A, B and D "
               "are consistent with each other; K positions only where metadata or a memory "
               "layout anchors them.")
                .arg(result->cellsMismatched)
                .arg(result->cellsChecked);
    } else if (const wmma::RecordedDiscovery* found = in.discovery; found && !in.operands.empty()) {
        // wmma: no probe report covers it, but its placements were read off a GPU by discovery (the documents
        // leave them unspecified): say where, not "not confirmed on hardware".
        const wmma::DiscoveryReport& r = found->report;
        const wmma::DiscoveryCheck* check = r.check(in.spec);
        const bool checked = check && check->store == Verdict::Pass && check->mma == Verdict::Pass;
        const QString where =
            QStringLiteral("%1, SASS %2, %3")
                .arg(QString::fromStdString(r.device.name.empty() ? "unknown device" : r.device.name),
                     QString::fromStdString(r.sassTarget), QString::fromStdString(r.date).left(10));
        const QString file = QFileInfo(QString::fromStdString(found->file)).fileName();
        // One line at laptop widths, as a probe report's: driver, CUDA and the product check are in the
        // status bar.
        out.verdictLine = tr("✓ Every cell discovered on %1 (recorded report %2, not this machine).")
                              .arg(where.toHtmlEscaped(), file.toHtmlEscaped());
        out.status =
            tr("discovered on %1 (SASS %2), driver %3, CUDA %4, %5; wmma.mma through it: %6")
                .arg(QString::fromStdString(r.device.name), QString::fromStdString(r.sassTarget),
                     QString::fromStdString(r.device.driver), QString::fromStdString(r.device.cudaRuntime),
                     QString::fromStdString(r.date).left(10),
                     checked ? tr("matches the CPU product")
                     : check ? QString::fromStdString(std::string(toString(check->mma)))
                             : tr("not checked"));
        out.statusToolTip =
            tr("The PTX ISA leaves wmma's fragment layout unspecified: these placements were read off that "
               "GPU (%1). Tools → Probe hardware discovers them again on this machine's GPU and compares.")
                .arg(file);
    } else if (in.tile) {
        out.verdictLine =
            tr("A tile composed from the atom as CuTe's make_tiled_mma does (checked against CuTe); "
               "the tile itself is not confirmed on hardware here.");
        out.status = tr("tile not confirmed on hardware");
        out.statusToolTip =
            tr("lanemap-cli probe %1 --atom-layout '%2' runs this tile on a GPU and reads back "
               "every register (docs/tiles.md).")
                .arg(QString::fromStdString(in.spec), QString::fromStdString(in.tile->atomLayout));
    } else {
        out.status = tr("not confirmed on hardware yet");
        out.statusToolTip =
            tr("No recorded or live probe report covers %1. Tools → Probe hardware runs it on "
               "this machine's GPU.")
                .arg(QString::fromStdString(in.spec));
    }
    return out;
}

std::vector<std::uint8_t> mismatchedCells(const Diagram& d, const ProbeResult& result, int& mismatched) {
    std::vector<std::uint8_t> out(d.cells.size(), 0);
    mismatched = 0;
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const DiagramCell& c = d.cells[i];
        if (cellVerdict(&result, d.panels[c.panel].operands, c.matrix, c.row, c.col) != CellVerdict::Mismatch)
            continue;
        out[i] = 1;
        ++mismatched;
    }
    return out;
}

} // namespace lanemap::gui
