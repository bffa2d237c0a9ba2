#pragma once
// The lanemap layout model: which thread, register and bits hold which element of each operand.
// Qt-free and CUDA-free by design.

#include <any>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lanemap/family.hpp"
#include "lanemap/fragment.hpp"
#include "lanemap/params.hpp"
#include "lanemap/placement.hpp"
#include "lanemap/shared_list.hpp"
#include "lanemap/vocabulary.hpp"

namespace lanemap {

// The manual's literal reading of a placement lanemap draws differently: the probe tests it next to the
// engine's own reading, so hardware decides between the two without erratum-specific code.
struct AlternativePlacement {
    Operand operand = Operand::A;
    PlaceFn place = nullptr;
};

enum class ErratumStatus : std::uint8_t { Suspected, Confirmed, Refuted };
std::string_view toString(ErratumStatus status); // "suspected", "confirmed", "refuted"

// A documented disagreement between the PTX manual and what lanemap shows (docs/reference/errata.md). The
// table's status and evidence come from documents and tools (ptxas); hardware evidence is added by the
// overlay.
struct Erratum {
    std::string_view id;       // "E1"
    std::string_view summary;  // one line
    std::string_view manual;   // what the manual says
    std::string_view lanemap;  // what lanemap shows instead, and why
    std::string_view evidence; // where the belief comes from (documents, ptxas, inference)
    ErratumStatus status = ErratumStatus::Suspected;
    std::optional<AlternativePlacement> manualReading; // set where the manual's reading is a placement
};

// Sparse metadata: one field = the bits holding the indices of one chunk of one row.
struct MetadataField {
    int thread = 0;
    int bitHi = 0;
    int bitLo = 0;
    int row = 0;
    int colFirst = 0;
    int colLast = 0;
    Source source = Source::Doc;
};

struct MetadataSelector {
    int value = 0;
    std::vector<MetadataField> fields;
};

// One named reading of a metadata mapping the manual leaves unresolved
// (docs/reference/ptx-facts.md#sparse-metadata). Every candidate is complete (all selectors); the hardware
// probe decides which one is right.
struct MetadataCandidate {
    std::string name;        // "rows-per-lane"
    std::string description; // what the reading says, in the manual's words
    std::vector<MetadataSelector> selectors;
};

struct MetadataLayout {
    std::string_view granularity; // "2:4", "1:2", "4:8 pair-wise"
    int indexBits = 2;            // bits per index
    std::vector<MetadataSelector> selectors;
    std::vector<std::string> notes;        // e.g. UNRESOLVED candidates
    int chunkCols = 4;                     // logical A columns described by one field (one chunk)
    int fieldBits = 4;                     // metadata bits per chunk
    std::vector<std::uint8_t> validValues; // valid field values (plain .sp and ::ordered_metadata differ)
    // Unresolved mappings only: every candidate reading, and the name of the one `selectors` shows.
    std::string candidate;
    std::vector<MetadataCandidate> candidates;
};

// PTX .row/.col of an mma operand (only m8n8k4 .f16 takes anything but A row, B col).
enum class Major : std::uint8_t { Row, Col };
std::string_view toString(Major major);

// The cheap facts of one instruction variant: enough to list, parse and filter without building layouts.
struct Variant {
    std::string spec;               // canonical short spec (docs/reference/spec-grammar.md)
    std::string ptx;                // canonical PTX instruction string: ptxOf(*this, forms.front())
    const Family* family = nullptr; // its row (lanemap/family.hpp)
    Scope scope = Scope::Warp;
    int threads = 32;
    int m = 0, n = 0, k = 0;
    ElementType atype = ElementType::F16, btype = ElementType::F16;
    ElementType ctype = ElementType::F32, dtype = ElementType::F32;
    Major alayout = Major::Row, blayout = Major::Col;
    Kind kind = Kind::None;
    int minSm = 0;
    bool sparse = false;      // a sparse MMA (mma.sp, wgmma.sp, tcgen05.mma.sp)
    bool ordered = false;     // mma.sp::ordered_metadata
    std::string_view section; // PTX 9.1 section number, e.g. "9.7.14.5.8"
    std::string_view anchor;  // HTML anchor in the PTX manual
    // Written when the table registers and shared by every Instruction built from the variant.
    SharedList<Form> forms; // every PTX spelling with this layout, canonical first
    SharedList<std::string> notes;
    SharedList<Erratum> errata;
    // The family's own facts about the variant (its table row), of a type only its family knows and read only
    // through its accessors: a matrix move's row and .num (matrix_move.hpp), a tcgen05.ld/st access or a
    // tcgen05.mma form (tmem.hpp). A new family brings its own type without a change here.
    std::any facts;
};

// `m16n8k16` (matrix moves: `m8n8`; tcgen05.ld/st: the data-path shape `16x256b`)
std::string shapeName(const Variant& variant);
// `m16n8k16`; with k < 0 `m8n8`.
std::string shapeWord(int m, int n, int k);
// The PTX instruction string of one form of a variant (no operands).
std::string ptxOf(const Variant& variant, const Form& form);

struct HardwareEvidence;
namespace wmma {
struct RecordedDiscovery;
}

// A variant with its operand layouts built.
struct Instruction : Variant {
    std::vector<FragmentLayout> operands; // A, B, C, D in that order (wgmma: A, D)
    // Shared and immutable like the operands: every N of one wgmma.sp row has the same table.
    std::shared_ptr<const MetadataLayout> metadata;
    // The recorded hardware run that confirmed this variant (evidence.hpp); nullptr when none did.
    const HardwareEvidence* hardware = nullptr;
    // wmma: the recorded discovery report its layouts come from (wmma.hpp); nullptr when none has them.
    const wmma::RecordedDiscovery* discovery = nullptr;
    // The parameters it was built with, and every operand as a placement into its space: the register
    // fragments above, the operands that live elsewhere (wgmma's shared-memory A and B, a tcgen05.mma's D or
    // A in Tensor Memory) and the compositions the parameters ask for (a tcgen05.ld of D). Consumers dispatch
    // on the space (lanemap/placement.hpp).
    Params params;
    std::vector<Placement> placements;
    // A tile of this atom (params.tile, lanemap/tile.hpp): what it is made of; nullptr for one instruction.
    // Then m, n, k, threads and the operands are the tile's and scope is Scope::Cta.
    std::shared_ptr<const tile::TileFacts> tile;

    const FragmentLayout* operand(Operand operand) const;
    // The placement of `operand` in `space`; nullptr when the instruction has none there.
    const Placement* placement(Space space, Operand operand) const;
    bool hasSpace(Space space) const;
    // The source a user is shown for a placement: the table's, or Hardware where a recorded run confirmed a
    // placement that no document states as text.
    Source sourceOf(Source tableSource) const;
};

} // namespace lanemap
