#pragma once
// The lanemap layout model: which thread, register and bits hold which element of each operand.
// Qt-free and CUDA-free by design.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lanemap/vocabulary.hpp"

namespace lanemap {

enum class Scope : std::uint8_t { Warp, Warpgroup };

// Where a placement comes from. Layout tables say which document (text formula, figure, CUTLASS, inference);
// `Hardware` is never written in a table: the evidence overlay (evidence.hpp) reports it from recorded runs.
// `Discovered`: no document states the placement at all (wmma); a recorded discovery report observed it on a
// GPU of one SASS target (wmma.hpp).
enum class Source : std::uint8_t { Doc, Figure, Inferred, Cutlass, Hardware, Discovered };
inline constexpr int kSourceCount = 6;

std::string_view toString(Scope scope);
std::string_view toString(Source source);

// Thread coordinates in the PTX manual's vocabulary.
struct Lane {
    int thread = 0;            // %laneid for warp scope, 0..127 in a warpgroup
    int lane = 0;              // thread % 32
    int warp = 0;              // thread / 32 (warp within the warpgroup)
    int groupID = 0;           // lane >> 2
    int threadID_in_group = 0; // lane % 4

    static constexpr Lane of(int thread) {
        return Lane{thread, thread % 32, thread / 32, (thread % 32) >> 2, (thread % 32) % 4};
    }
};

// Where one element lands. For sparse A, [col, colLast] is the chunk the element may occupy;
// for everything else col == colLast. `matrix` numbers the independent products of Volta's
// m8n8k4 quad-pairs (0..3); -1 elsewhere.
struct Cell {
    int row = 0;
    int col = 0;
    int colLast = -1; // -1: same as col
    int matrix = -1;
};

// One element of one operand: a (thread, element index) pair and where it lives.
struct Element {
    std::uint16_t thread = 0;
    std::uint16_t index = 0; // PTX element number (a0, a1, ...)
    std::uint16_t reg = 0;   // register = index / elements per register
    std::uint8_t bit = 0;    // lowest bit of the element inside its register
    std::int8_t matrix = -1; // quad-pair product for m8n8k4 .f16, else -1
    std::uint16_t row = 0;
    std::uint16_t col = 0;     // first column
    std::uint16_t colLast = 0; // last column (== col unless sparse A chunk)
    Source source = Source::Doc;
};

// Per-thread description of one operand fragment as a formula: (lane, i) -> cell.
// Layout tables (core/src/families/*.cpp) are lists of these.
using PlaceFn = Cell (*)(const Lane& lane, int i, int n);

// Static facts about one operand's fragment: a row of the PTX fragment tables.
struct FragmentShape {
    int rows = 0;
    int cols = 0;
    int matrices = 1;      // 4 for m8n8k4 .f16 (quad-pair products)
    int registers = 0;     // per thread
    int registerBits = 32; // 32 or 64
    int elementsPerRegister = 1;
};

class FragmentLayout {
  public:
    FragmentLayout() = default;

    // Build from a formula. `elementBits` are the data bits; `bitPad` is the offset of the data inside
    // its container (e.g. e2m1 sits in the middle 4 bits of an 8-bit container: pad 2).
    static FragmentLayout build(Operand operand, ElementType elementType, int elementBits, int threads,
                                const FragmentShape& shape, PlaceFn place, int n, Source source,
                                int bitPad = 0);

    // The first `registers` registers of every thread of `full`, which must cover exactly its first `cols`
    // columns: the same layout as building the narrower shape from the formula, copied instead of evaluated.
    // (wgmma D: the m64nN fragment is the m64n256 one cut after N/2 registers, Figs. 149-155.) Throws
    // std::logic_error when the kept registers do not fill those columns one owner per cell.
    static FragmentLayout leadingRegisters(const FragmentLayout& full, int registers, int cols);

    // From a list of placements, cells[thread * elementsPerThread + i], as discovery observes them (wmma). A
    // cell may have several owners (an element held twice); every cell must be in range. Throws
    // std::logic_error otherwise.
    static FragmentLayout fromCells(Operand operand, ElementType elementType, int elementBits, int threads,
                                    const FragmentShape& shape, std::span<const Cell> cells, Source source);

    // How many distinct cells at least one element covers, and the most owners one cell has (2: held
    // twice). elements().size() is the number of element slots; a bijection has uniqueCells() == slots.
    int uniqueCells() const;
    int maxOwners() const;

    Operand operand() const { return m_operand; }
    std::string_view name() const { return toString(m_operand); } // label: "A", "B", "C", "D"
    ElementType elementType() const { return m_elementType; }
    int rows() const { return m_shape.rows; }
    int cols() const { return m_shape.cols; }
    int matrices() const { return m_shape.matrices; }
    int threads() const { return m_threads; }
    int registers() const { return m_shape.registers; }
    int registerBits() const { return m_shape.registerBits; }
    int elementBits() const { return m_elementBits; }
    int containerBits() const { return m_shape.registerBits / m_shape.elementsPerRegister; }
    int elementsPerRegister() const { return m_shape.elementsPerRegister; }
    int elementsPerThread() const { return m_shape.registers * m_shape.elementsPerRegister; }
    bool chunked() const { return m_data->chunked; } // sparse A: elements cover column ranges

    // Elements sorted by (thread, index).
    std::span<const Element> elements() const { return m_data->elements; }
    const Element& element(int thread, int index) const {
        return m_data->elements[static_cast<std::size_t>(thread * elementsPerThread() + index)];
    }

    // Inverse map: indices into elements() of the owners of (matrix, row, col). A list, because
    // not every operand is a bijection (sparse chunks, quad-pair products).
    std::span<const std::uint32_t> owners(int row, int col, int matrix = 0) const;

    // Drop the cache of built layouts (benchmarks measure building from scratch).
    static void clearBuildCache();

  private:
    // The placements and their inverse, immutable and shared: wgmma variants of one N share their D layout
    // and every N of one type shares its A layout, so the catalog builds each distinct layout once.
    struct Data {
        bool chunked = false;
        bool bijective = false; // one owner per cell: ownerList[cell] is it, ownerOffsets stays empty
        std::vector<Element> elements;
        std::vector<std::uint32_t> ownerOffsets; // CSR over cells (matrix, row, col), unless bijective
        std::vector<std::uint32_t> ownerList;
        std::shared_ptr<const Data>
            parent; // leadingRegisters: keeps the source alive (its address keys the cache)
    };
    friend struct LayoutCaches;
    static void buildInverse(Data& data, const FragmentShape& shape);

    Operand m_operand = Operand::A;
    ElementType m_elementType = ElementType::F16;
    int m_elementBits = 0;
    int m_threads = 0;
    FragmentShape m_shape;
    std::shared_ptr<const Data> m_data = std::make_shared<const Data>();
};

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

struct MatrixMove; // matrix_move.hpp
namespace tmem {
struct Access;   // tmem.hpp
struct MmaShape; // tmem.hpp
} // namespace tmem

enum class Family : std::uint8_t {
    Mma,
    MmaSp,
    Wgmma,
    WgmmaSp,
    Ldmatrix,
    Stmatrix,
    Movmatrix,
    Wmma,
    Tcgen05Ld,
    Tcgen05St,
    Tcgen05Mma, // tmem.hpp
};
std::string_view toString(Family family);

// PTX .row/.col of an mma operand (only m8n8k4 .f16 takes anything but A row, B col).
enum class Major : std::uint8_t { Row, Col };
std::string_view toString(Major major);

// mma .kind:: qualifier.
enum class Kind : std::uint8_t { None, F8F6F4, MXF8F6F4, MXF4, MXF4NVF4 };
std::string_view toString(Kind kind); // "" for None, else "f8f6f4", ...

// The cheap facts of one instruction variant: enough to list, parse and filter without building layouts.
struct Variant {
    std::string spec; // canonical short spec (docs/reference/spec-grammar.md)
    std::string ptx;  // canonical PTX instruction string: ptxOf(*this, forms.front())
    Family family = Family::Mma;
    Scope scope = Scope::Warp;
    int threads = 32;
    int m = 0, n = 0, k = 0;
    ElementType atype = ElementType::F16, btype = ElementType::F16;
    ElementType ctype = ElementType::F32, dtype = ElementType::F32;
    Major alayout = Major::Row, blayout = Major::Col;
    Kind kind = Kind::None;
    int minSm = 0;
    bool ordered = false;     // mma.sp::ordered_metadata
    std::string_view section; // PTX 9.1 section number, e.g. "9.7.14.5.8"
    std::string_view anchor;  // HTML anchor in the PTX manual
    std::vector<Form> forms;  // every PTX spelling with this layout, canonical first
    std::vector<std::string> notes;
    std::vector<Erratum> errata;
    // ldmatrix / stmatrix / movmatrix only (matrix_move.hpp): the table row and the matrix count
    // (.x1/.x2/.x4).
    const MatrixMove* move = nullptr;
    int num = 0;
    // tcgen05 only (tmem.hpp): the ld/st access, or the mma form (its N is the largest valid one).
    const tmem::Access* tmemAccess = nullptr;
    const tmem::MmaShape* tmemMma = nullptr;
};

// `m16n8k16` (matrix moves: `m8n8`)
std::string shapeName(const Variant& variant);
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

    const FragmentLayout* operand(Operand operand) const;
    // The source a user is shown for a placement: the table's, or Hardware where a recorded run confirmed a
    // placement that no document states as text.
    Source sourceOf(Source tableSource) const;
};

} // namespace lanemap
