#pragma once
// Long N wrapped into bands: a grid much wider than tall (wgmma m64n256's 64 x 256 accumulator) redrawn as
// bands of columns stacked top to bottom, each band a panel of its own with its column numbers, the row
// numbers and the row notes ("warp 2") repeated. Cells keep their matrix row and column, so labels,
// tooltips, hover and lookups are those of the unwrapped grid; only where a cell is drawn changes. The window
// uses it where a band layout shows the grid larger (View -> Wrap long rows into bands); an SVG of a wrapped
// diagram shows the same bands.

#include "lanemap/diagram.hpp"

namespace lanemap {

// True for a diagram of one operand grid (no quad-pair products, no metadata bit fields): what wrapColumns
// can wrap.
bool canWrapColumns(const Diagram& diagram);

// `diagram` with its grid wrapped every `bandColumns` columns (the last band may be narrower); an unchanged
// copy when canWrapColumns is false or the grid has no more columns than that.
Diagram wrapColumns(const Diagram& diagram, int bandColumns);

// The union of the panels' bounds wrapColumns(diagram, bandColumns) would lay out, without building it (to
// compare band widths cheaply). Requires canWrapColumns(diagram).
RectF wrappedBounds(const Diagram& diagram, int bandColumns);

} // namespace lanemap
