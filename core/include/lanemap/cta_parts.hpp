#pragma once
// The parts of an operand that the CTAs of one instruction hold, each in its own shared memory
// (docs/tiles.md#cta-pairs): a tcgen05.mma with cta_group::2 splits A by rows and B by columns between the
// peer CTAs. The family's row answers it (Family::ctaParts); the pictures, the panes and the exports ask
// here, whatever the family.

#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"

#include <optional>
#include <string>

namespace lanemap {

// The part of `operand` (A or B) one CTA holds in its shared memory, as the instruction's descriptor reads it
// (the layout `where` names), and the CTAs that hold one: with cta_group::2 CTA c holds rows c·M/2.. of A and
// columns c·N/2.. of B.
struct CtaParts {
    smem::SharedOperand part;
    int ctas = 1;
    // "rows 64..127 of A (cta_group::2)", "all of B"
    std::string partOf(int cta) const;
};

// The instruction family's answer; nullopt for a family whose instructions hold no such parts (every family
// but tcgen05.mma), for an operand other than A and B, or one not read from shared memory (A in Tensor
// Memory).
std::optional<CtaParts> ctaParts(const Instruction& instruction, Operand operand);

} // namespace lanemap
