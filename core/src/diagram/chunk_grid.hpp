#pragma once
// What the two pictures of 16-byte chunks in shared memory share (diagram_banks.cpp: one matrix move;
// diagram_tiled_copy.cpp: a whole tiled copy). Internal to core.

#include "lanemap/diagram.hpp"

namespace lanemap::chunkgrid {

// A red frame inside every cell in a bank conflict (DiagramCell::conflict), over the grid lines.
void frameConflicts(Diagram& diagram);
// Every panel's hit-test grid: position (row, col) -> the cells whose [col, colLast] covers it.
void indexGrids(Diagram& diagram);

} // namespace lanemap::chunkgrid
