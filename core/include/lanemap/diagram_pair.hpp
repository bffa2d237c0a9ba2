#pragma once
// A tcgen05.mma's A and B in the shared memory of each CTA of its group (docs/tiles.md#cta-pairs): the part
// one CTA holds, as the family's descriptor reads it, drawn once per CTA — the SVG export and the app's
// shared-memory pane draw the same picture.

#include "lanemap/cta_parts.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/model.hpp"

namespace lanemap {

// (CtaParts and ctaParts, the part of A or B each CTA holds: lanemap/cta_parts.hpp.)

// Appends each CTA's part of `operand` under what `diagram` shows, titled with the CTA and its part, every
// tooltip naming the CTA ("CTA 1 A m5 k3 · 0x1a2 · ..."). False, nothing appended, where ctaParts has none.
bool appendCtaSharedMemory(Diagram& diagram, const Instruction& instruction, Operand operand,
                           SharedMemoryDiagramOptions options = {});

} // namespace lanemap
