#pragma once
// The catalog of every instruction variant. A lookup of one spec registers only that spec's variant (its
// family table is walked for the one row, nothing else is kept); `variants()`, PTX-string lookups and a spec
// the table does not hold register whole tables, and `list` builds no layout. Layouts are built on first use
// and cached (the largest wgmma layouts are ~16k elements each, hundreds of them).

#include "lanemap/model.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace lanemap {

// Fills an Instruction's operands (and metadata) from its family table.
using BuildFn = std::function<void(Instruction&)>;

class Catalog {
  public:
    // The process-wide catalog with every family known (registered as it is asked for).
    static const Catalog& instance();
    // A new catalog of every family with none registered yet: tests and benchmarks of the lazy registration.
    // Everything else uses instance().
    static std::unique_ptr<Catalog> unregistered();

    // All variants in catalog order (family tables in PTX section order). Registers every family.
    const std::vector<const Variant*>& variants() const;
    std::size_t size() const { return variants().size(); }
    // How many variants the families registered so far hold (no registration).
    std::size_t registeredSize() const;

    // Exact canonical spec lookup; nullptr when unknown. Registers that one variant when its table has not
    // registered yet (the whole table only when the spec is not in it).
    const Variant* variant(std::string_view spec) const;

    // Built layouts for a canonical spec; nullptr when unknown. Thread-safe; built once.
    const Instruction* instruction(std::string_view spec) const;
    const Instruction& instruction(const Variant& variant) const;

    // How many variants' layouts this catalog has built (cached) so far: listing, completion and search build
    // none (tests hold them to it).
    std::size_t builtCount() const { return m_built.load(); }
    // A fresh, uncached build of a variant's layouts (benchmarks; tests of the build itself).
    Instruction buildUncached(const Variant& variant) const;

    // Lookup by normalized PTX string (canonical or alias); nullptr when unknown. The PTX index of the table
    // the string's family name picks is built on its first lookup (thread-safe): rendering every form's PTX
    // of every table is most of a one-shot CLI run.
    const Variant* byPtx(std::string_view normalizedPtx) const;

    // Registration (used by the family tables while their section registers). A spec must start with the
    // name of its family (that is how a lookup finds the one table to register).
    void add(Variant variant, BuildFn build);
    // While a table registers for one spec: whether it keeps the variant of `spec` (the only one kept), and
    // whether a variant whose spec starts with `prefix` may be it. A table checks these to skip the rest of
    // a row's work (notes, forms, PTX strings); add() keeps only the sought spec either way. Always true
    // while a whole table registers.
    bool registeringOne() const { return !m_only.empty(); }
    bool wants(std::string_view spec) const { return m_only.empty() || spec == m_only; }
    bool wantsPrefix(std::string_view prefix) const {
        return m_only.empty() || m_only.substr(0, prefix.size()) == prefix;
    }

  private:
    struct Entry {
        Variant variant;
        BuildFn build;
        mutable std::once_flag once;
        mutable std::unique_ptr<Instruction> built;
        // The recorded run that confirmed the variant (nullptr: none), looked up the first time it is built:
        // the recorded evidence never changes, and a catalog build asks for every variant's. Two threads
        // building at once may both look it up; they find the same run.
        mutable std::atomic<const HardwareEvidence*> hardware{nullptr};
        mutable std::atomic<bool> hardwareKnown{false};
    };
    // The variants one registration function (one or more family tables) adds.
    struct Section {
        void (*registerFamilies)(Catalog&);
        std::vector<const Family*> families;
        std::once_flag once;
        std::atomic<bool> registered{false};
        std::vector<std::unique_ptr<Entry>> entries;
        std::unordered_map<std::string_view, const Entry*> bySpec; // keys view each entry's own spec
        // Variants registered one at a time before the whole table; the table's registration adopts each
        // (the same Entry: pointers handed out and layouts built stay valid). Guarded by m_registerMutex.
        std::unordered_map<std::string_view, std::unique_ptr<Entry>> singles;
        // Every form's normalized PTX string (normalizePtx), built on the first byPtx the table answers.
        std::once_flag ptxOnce;
        std::map<std::string, const Entry*, std::less<>> byPtx;
    };

    Catalog();
    Section* sectionOf(std::string_view spec) const; // by the family name the spec starts with
    void ensureRegistered(Section& section) const;
    const Entry* registerOne(Section& section, std::string_view spec) const; // nullptr: not in the table
    // Runs the section's table with add() keeping `only` (empty: every row); m_registerMutex held.
    void runTable(Section& section, std::string_view only) const;
    const Entry* entry(std::string_view spec) const;
    const Entry* entry(const Variant& variant) const; // the section by its family, then the spec
    const Instruction& build(const Entry& entry) const;

    std::vector<std::unique_ptr<Section>> m_sections; // in catalog order
    mutable std::recursive_mutex m_registerMutex;     // one section registers at a time
    Section* m_registering = nullptr;                 // the section add() fills
    std::string_view m_only;                          // the one spec add() keeps; empty: every spec
    mutable std::atomic<std::size_t> m_built{0};
    mutable std::once_flag m_allOnce;
    mutable std::vector<const Variant*> m_variantList;
};

// The catalog's family names as a user reads them, in catalog order: "mma, mma.sp, ..., tcgen05.mma", with
// `last` before the last one (", " or " and ").
std::string familyNames(std::string_view last = ", ");

// Table registration functions, one per declarative table (core/src/families/); the family rows name them.
void registerDenseMma(Catalog& catalog);
void registerSparseMma(Catalog& catalog);
void registerWgmma(Catalog& catalog);
void registerMatrixMoves(Catalog& catalog); // ldmatrix, stmatrix, movmatrix
void registerWmma(Catalog& catalog);        // layouts from discovery reports (wmma.hpp)
void registerTcgen05(Catalog& catalog);     // tcgen05.ld, tcgen05.st, tcgen05.mma (tmem.hpp)

} // namespace lanemap
