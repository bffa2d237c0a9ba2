#pragma once
// The typed parameters of one instance of a catalog variant: everything beyond the variant that decides what
// is placed where (docs/architecture.md#selections). A selection — a variant and its parameters — is parsed
// once, at the edge (spec or PTX text, CLI flags, the app's pickers), and nothing downstream parses text
// again.

#include "lanemap/smem.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tmem.hpp"
#include "lanemap/vocabulary.hpp"

#include <memory>
#include <optional>
#include <string>
#include <typeinfo>

namespace lanemap {

// Parameters only one family knows (a cp.async.bulk.tensor's tensor map and load coordinates): a value of the
// family's own type, compared as a value and read only through its family's accessors. A new family brings
// its own type without a change here (as Variant::facts does for a variant's table row).
class FamilyParams {
  public:
    FamilyParams() = default;
    template <typename T> static FamilyParams of(T value) {
        FamilyParams p;
        p.m_value = std::make_shared<const T>(std::move(value));
        p.m_type = &typeid(T);
        p.m_equal = [](const void* a, const void* b) {
            return *static_cast<const T*>(a) == *static_cast<const T*>(b);
        };
        return p;
    }
    // The value when it is a T; nullptr otherwise (or when none was given).
    template <typename T> const T* get() const {
        return m_value && *m_type == typeid(T) ? static_cast<const T*>(m_value.get()) : nullptr;
    }
    explicit operator bool() const { return m_value != nullptr; }
    friend bool operator==(const FamilyParams& a, const FamilyParams& b) {
        if (!a.m_value || !b.m_value)
            return !a.m_value && !b.m_value;
        return *a.m_type == *b.m_type && a.m_equal(a.m_value.get(), b.m_value.get());
    }

  private:
    std::shared_ptr<const void> m_value;
    const std::type_info* m_type = nullptr;
    bool (*m_equal)(const void*, const void*) = nullptr;
};

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
    // What only the variant's family reads (its own grammar sets it; FamilyParams above).
    FamilyParams family;
    // A tile of the atom (mma, mma.sp, wgmma, wgmma.sp over warps; tcgen05.mma over the CTAs of a cluster,
    // lanemap/tile_ctas.hpp): its atom layout and permutations (lanemap/tile.hpp); nullopt: the one
    // instruction.
    std::optional<tile::TileLayout> tile;

    // Whether they name one view of a tcgen05.mma (an N, an access, a block scale, or A): an instance of
    // that view, not the catalog entry that stands for every N.
    bool namesTensorMemoryView() const {
        return n != 0 || access || blockScale || tensorOperand != Operand::D;
    }

    friend bool operator==(const Params&, const Params&) = default;
};

} // namespace lanemap
