#pragma once
// The catalog of every instruction variant. Variants are cheap to list; layouts are built on first use
// and cached (the largest wgmma layouts are ~16k elements each, hundreds of them).

#include "lanemap/model.hpp"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

// Fills an Instruction's operands (and metadata) from its family table.
using BuildFn = std::function<void(Instruction&)>;

class Catalog {
  public:
    // The process-wide catalog with every family registered.
    static const Catalog& instance();

    // All variants in catalog order (family tables in PTX section order).
    const std::vector<const Variant*>& variants() const { return m_variantList; }
    std::size_t size() const { return m_entries.size(); }

    // Exact canonical spec lookup; nullptr when unknown.
    const Variant* variant(std::string_view spec) const;

    // Built layouts for a canonical spec; nullptr when unknown. Thread-safe; built once.
    const Instruction* instruction(std::string_view spec) const;
    const Instruction& instruction(const Variant& variant) const;

    // A fresh, uncached build of a variant's layouts (benchmarks; tests of the build itself).
    Instruction buildUncached(const Variant& variant) const;

    // Lookup by normalized PTX string (canonical or alias); nullptr when unknown. The PTX index is built on the
    // first call (thread-safe): rendering every form's PTX is most of a one-shot CLI run that never needs it.
    const Variant* byPtx(std::string_view normalizedPtx) const;

    // Registration (used by the family tables while the catalog is constructed).
    void add(Variant variant, BuildFn build);

  private:
    struct Entry {
        Variant variant;
        BuildFn build;
        mutable std::once_flag once;
        mutable std::unique_ptr<Instruction> built;
    };
    std::vector<std::unique_ptr<Entry>> m_entries;
    std::vector<const Variant*> m_variantList;
    std::map<std::string, const Entry*, std::less<>> m_bySpec;
    mutable std::once_flag m_byPtxOnce;
    mutable std::map<std::string, const Entry*, std::less<>> m_byPtx;

    const Instruction& build(const Entry& entry) const;
};

// Family registration functions, one per declarative table (core/src/families/).
void registerDenseMma(Catalog& catalog);
void registerSparseMma(Catalog& catalog);
void registerWgmma(Catalog& catalog);
void registerMatrixMoves(Catalog& catalog); // ldmatrix, stmatrix, movmatrix
void registerWmma(Catalog& catalog); // layouts from discovery reports (wmma.hpp)

} // namespace lanemap
