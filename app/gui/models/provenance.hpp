#pragma once
// Where the placements of an instance come from, in the window's words: a probe report (this machine's run
// or a recorded one) or, for wmma, the discovery report its layouts were read from; else not confirmed yet.
// And which cells of a picture the hardware placed differently. Read from the reports, never from a widget.

#include "lanemap/diagram.hpp"
#include "lanemap/probe_report.hpp"

#include <QString>

#include <cstdint>
#include <vector>

namespace lanemap::gui {

class ProbeController;

struct Provenance {
    QString verdictLine;   // the line over the panes (HTML); empty: hidden
    QString status;        // the status bar's words
    QString statusToolTip; // and what they rest on
};

Provenance provenanceOf(const Instruction& instance, const ProbeController& probe);

// Per cell of `diagram`: 1 where `result` says the hardware placed it differently. `mismatched` counts them.
std::vector<std::uint8_t> mismatchedCells(const Diagram& diagram, const ProbeResult& result, int& mismatched);

} // namespace lanemap::gui
