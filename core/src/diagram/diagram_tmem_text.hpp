#pragma once
// The cell texts of the Tensor Memory panels (diagram_tmem.cpp), which Diagram::labelText, tooltipText and
// hoverId delegate to: the tooltip grammar of docs/svg.md#tooltips, fields separated by " · ".
//   D alone        "D(37,5) · CTA 0 lane 37 column 5 · warp 1"
//   A sub-column   "A(3,5) · CTA 0 lane 3 column 2[31..16] · warp 0"
//   composed TMEM  "D(37,5) · CTA 0 lane 37 column 5 · held by warp 1 lane 5 r5[31..0]"
//   registers      "warp 1 lane 5 r5[31..0] · D(37,5) · CTA 0 lane 37 column 5"
//   scale factor   "SFA(5,0) · CTA 0 lane 37 column 0[7..0] · warp 1"; metadata "E(5,3) · ..."
#include "lanemap/diagram.hpp"

#include <string_view>

namespace lanemap {

// The name a cell's label gives its element: "D", "A", "SFA", "SFB", "E".
std::string_view tensorMemoryName(const DiagramPanel& panel);

void tensorMemoryLabel(const DiagramPanel& panel, const DiagramCell& cell, CellText& text);
void tensorMemoryTooltip(const Diagram& diagram, const DiagramPanel& panel, const DiagramCell& cell,
                         CellText& text);
void tensorMemoryHoverId(const DiagramPanel& panel, const DiagramCell& cell, CellText& text);

} // namespace lanemap
