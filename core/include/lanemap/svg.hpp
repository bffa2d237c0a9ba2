#pragma once
// SVG 1.1 serialization of a Diagram (docs/svg.md): deterministic bytes, one <g class="lane lane-13"> per
// thread holding that thread's cells in every panel (and its metadata bit fields), and pure-CSS hover: in a
// browser, hovering a cell outlines that lane everywhere and fades the others. Tooltips: one inline script
// builds a cell's tooltip on hover from its label, its grid position and small per-panel tables (no <title>
// per cell; docs/svg.md#tooltips). No network, no external fonts (generic font-family stacks), no Qt.

#include "lanemap/diagram.hpp"

#include <string>

namespace lanemap {

struct SvgOptions {
    bool hoverCss = true; // the :hover rules (harmless in viewers that ignore them)
};

std::string toSvg(const Diagram& diagram, const SvgOptions& options = {});

} // namespace lanemap
