#pragma once
// A tcgen05.mma's A and B in the shared memory of each CTA of its group (docs/tiles.md#cta-pairs): the part
// one CTA holds, as the family's descriptor reads it, drawn once per CTA — the SVG export and the app's
// shared-memory pane draw the same picture.

#include "lanemap/diagram.hpp"
#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"

#include <optional>

namespace lanemap {

// The part of `operand` (A or B) one CTA of a tcgen05.mma's group holds in its shared memory (the family's
// sharedOperand, K-major with the 128B swizzle: the layout `where` names), and the CTAs that hold one: with
// cta_group::2 CTA c holds rows c·M/2.. of A and columns c·N/2.. of B. nullopt for an instruction that is
// no tcgen05.mma, or whose A is in Tensor Memory.
struct CtaParts {
    smem::SharedOperand part;
    int ctas = 1;
    // "rows 64..127 of A (cta_group::2)", "all of B"
    std::string partOf(int cta) const;
};
std::optional<CtaParts> ctaParts(const Instruction& instruction, Operand operand);

// Appends each CTA's part of `operand` under what `diagram` shows, titled with the CTA and its part, every
// tooltip naming the CTA ("CTA 1 A m5 k3 · 0x1a2 · ..."). False, nothing appended, where ctaParts has none.
bool appendCtaSharedMemory(Diagram& diagram, const Instruction& instruction, Operand operand,
                           SharedMemoryDiagramOptions options = {});

} // namespace lanemap
