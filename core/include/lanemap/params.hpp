#pragma once
// The typed parameters of one instance of a catalog variant: everything beyond the variant that decides what
// is placed where (docs/architecture.md#selections). A selection — a variant and its parameters — is parsed
// once, at the edge (spec or PTX text, CLI flags, the app's pickers), and nothing downstream parses text
// again.

#include "lanemap/smem.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"
#include "lanemap/tmem.hpp"
#include "lanemap/vocabulary.hpp"

#include <optional>
#include <string>

namespace lanemap {

struct Params {
    // The PTX spelling typed, where it is another form of the variant (s8 x u8, .and.popc, a block-scale
    // spelling); nullopt: the canonical one.
    std::optional<Form> form;
    // N, for the families whose entry stands for every valid N (tcgen05.mma); 0: the entry's own.
    int n = 0;
    // Sparse instructions: the sparsity selector; nullopt: the first valid one.
    std::optional<int> selector;
    // wgmma: the major-ness and swizzle of the shared-memory operands; nullopt: K-major, 128B.
    std::optional<smem::Choice> smem;
    // tcgen05.mma: the operand in Tensor Memory (D, or A where the layout models A there), the access it is
    // composed with (a tcgen05.ld of D, a tcgen05.st of A) and the block-scale vector size and IDs.
    Operand tensorOperand = Operand::D;
    std::optional<tmem::Access> access;
    std::optional<tcgen05::BlockScale> blockScale;
    // tcgen05.ld / tcgen05.st .16x32bx2: immHalfSplitoff in 32-bit columns; nullopt: the halves side by side.
    std::optional<int> halfSplit;
    // wmma: the SASS target whose discovery report places the fragments; empty: the catalog's default.
    std::string target;

    // Whether they name one view of a tcgen05.mma (an N, an access, a block scale, or A): an instance of
    // that view, not the catalog entry that stands for every N.
    bool namesTensorMemoryView() const {
        return n != 0 || access || blockScale || tensorOperand != Operand::D;
    }

    friend bool operator==(const Params&, const Params&) = default;
};

} // namespace lanemap
