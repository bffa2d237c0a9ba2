#pragma once
// An operand is a placement of a matrix into a typed space (docs/architecture.md#placements): for every
// element (row, col) the locations that hold it — a bit range of a thread's register, bytes of shared memory,
// a cell of Tensor Memory, an element of global memory — each with where the fact comes from. The family
// tables state placements in the dialect of their PTX section (a register fragment formula, a shared-memory
// canonical layout, a Tensor Memory data-path layout); each dialect is one constructor here, and a load or a
// store between spaces is one operation, compose(), as CuTe composes layouts.
//
// Consumers (the Diagram, the exporters, the app's panes) dispatch on space(): one builder per space, never a
// branch per family.

#include "lanemap/fragment.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/tmem.hpp"
#include "lanemap/vocabulary.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lanemap {

enum class Space : std::uint8_t { Registers, SharedMemory, TensorMemory, Global };
inline constexpr Space kSpaces[] = {Space::Registers, Space::SharedMemory, Space::TensorMemory,
                                    Space::Global};
std::string_view toString(Space space); // "registers", "shared memory", "Tensor Memory", "global memory"

// --- locations: one type per space -----------------------------------------------------------------------

// Bits [bitLo, bitLo + bits) of register `reg` of `thread`. The thread counts over the whole group that
// executes the instruction (a warp's %laneid, a warpgroup's 0..127); its lane and warp follow from the
// placement's warp size, never from a literal 32.
struct RegisterSlot {
    int cta = 0; // the CTA of a pair (tcgen05 cta_group::2); 0 elsewhere
    int thread = 0;
    int reg = 0;
    int bitLo = 0;
    int bits = 0;
    int index = 0; // the PTX element number of the thread's fragment (a5 -> 5)
    friend bool operator==(const RegisterSlot&, const RegisterSlot&) = default;
};

// Bits [bitLo, bitLo + bits) from byte `address` on (an element wider than a byte runs over the next bytes).
struct SmemByte {
    std::uint32_t address = 0;
    int bitLo = 0;
    int bits = 0;
    int cta = 0; // the CTA of the cluster whose shared memory it is (a multicast load); 0 elsewhere
    friend bool operator==(const SmemByte&, const SmemByte&) = default;
};

// Bits [bitLo, bitLo + bits) of the 32-bit Tensor Memory cell (lane, column) of CTA `cta` of a pair.
struct TmemCell {
    int cta = 0;
    int lane = 0;
    int column = 0;
    int bitLo = 0;
    int bits = 32;
    friend bool operator==(const TmemCell&, const TmemCell&) = default;
};

// An element of a tensor in global memory: its byte offset from the tensor's base and its coordinates
// (innermost first, as the driver's tensor maps count them; `rank` of them). A coordinate of an element
// the tensor holds lies in [0, dimension) and a tensor map's dimension is at most 2^32, so 32 unsigned bits
// hold every one (a TMA box lists thousands of these: 48 bytes each, not 72).
struct GlobalElement {
    std::int64_t offset = 0;
    int bitLo = 0;
    int bits = 0;
    std::array<std::uint32_t, 5> coord{};
    int rank = 0;
    int cta = 0; // the CTA of the cluster whose load reads it (the loads of a multicast split); 0 elsewhere
    friend bool operator==(const GlobalElement&, const GlobalElement&) = default;
};

using Location = std::variant<RegisterSlot, SmemByte, TmemCell, GlobalElement>;
Space spaceOf(const Location& location);

// One location of one element and where that fact comes from (a table's document; the evidence overlay says
// Hardware where a recorded run confirmed it).
struct Holding {
    Location at;
    Source source = Source::Doc;
    friend bool operator==(const Holding&, const Holding&) = default;
};

// A Tensor Memory placement as its table states it: the mma form whose data-path layout places D (or A).
struct TensorMemorySource {
    tmem::MmaShape mma;
    Operand operand = Operand::D; // D, or A where the layout models A in Tensor Memory
    int elementBits = 32;
};

// How a view names a placement where the operand's own words do not fit: a family states these with its
// table (a matrix move's memory format, the Tensor Memory axes of a tcgen05.ld), the Diagram and the text
// exports print them.
struct Presentation {
    std::string typeName;         // the type as the PTX names it ("b16"); "": the element type's name
    std::string rowAxis, colAxis; // what rows and columns count ("TMEM lane"); "": the matrix axes
    std::string extentTitle;      // the extent in a title ("32 TMEM lanes x 32 TMEM columns ...")
    std::string extentFact;       // the extent in a caption ("32 TMEM lanes x 32 columns")
    std::vector<std::string> matrixTitles; // one per matrix of a register fragment ("matrix 1 (register 1)")
    // A layout read from text (lanemap/layout_in.hpp) is no instruction's operand: its panel's name
    // ("layout"), the letter of its values in cell labels ('v': T5:v3) and the subtitle in place of the
    // register count. Empty / '\0': the operand's own.
    std::string operandName;
    char valueLetter = '\0';
    std::string subtitle;
};

// --- the placement ----------------------------------------------------------------------------------------

class Placement {
    struct Table;

  public:
    // Holdings cell by cell, in row-major order over (matrix, row, col), written into one table as they come
    // (no list per cell): add() gives the current cell a location, next() closes it.
    class Cells {
      public:
        explicit Cells(std::size_t cells, std::size_t holdings = 0);
        void add(const Holding& holding);
        void next();
        std::size_t closed() const; // cells closed so far

      private:
        friend class Placement;
        std::shared_ptr<Table> m_table;
    };

    // A register fragment (the mma, wgmma, wmma, matrix-move and tcgen05.ld/st tables). `warpSize` is a
    // parameter of the placement: a thread's lane is thread % warpSize.
    static Placement registers(const FragmentLayout& fragment, int warpSize = kWarpSize);
    // A wgmma operand tile in shared memory (its canonical layout and swizzle).
    static Placement sharedMemory(const smem::SharedOperand& operand);
    // D (or A) of a tcgen05.mma in Tensor Memory: M x N (A: M x K) over the lanes and columns of one CTA or a
    // pair. Throws std::invalid_argument with tmem::validate's message for a shape the ISA has no layout for.
    static Placement tensorMemory(const TensorMemorySource& source);
    // Any placement, cell by cell: rows x cols (x matrices), holdings[cell] in row-major order. What
    // compose() makes, and what a pasted layout or a tile of atoms will be.
    static Placement table(OperandSet operands, Space space, ElementType type, int rows, int cols,
                           std::vector<std::vector<Holding>> holdings, int matrices = 1, int threads = 0,
                           int warpSize = kWarpSize);
    static Placement table(OperandSet operands, Space space, ElementType type, int rows, int cols,
                           Cells cells, int matrices = 1, int threads = 0, int warpSize = kWarpSize);

    OperandSet operands() const { return m_operands; }
    Space space() const { return m_space; }
    ElementType elementType() const { return m_type; }
    int rows() const { return m_rows; }
    int cols() const { return m_cols; }
    int matrices() const { return m_matrices; }
    // Registers: the threads that hold it and the warp size they are counted in; 0 for the other spaces.
    int threads() const { return m_threads; }
    int warpSize() const { return m_warpSize; }

    // Every location that holds element (row, col) of product `matrix` (0 but for quad-pair products); empty
    // for a cell no location holds (a hole) or one outside the matrix.
    std::vector<Holding> at(int row, int col, int matrix = 0) const;

    // The CTAs of the cluster the placement spans: shared memory written by a multicast load (its holdings
    // name the CTAs), global memory read by several CTAs' loads; 1 elsewhere.
    int clusterCtas() const { return m_clusterCtas; }
    void setClusterCtas(int ctas) { m_clusterCtas = ctas; }

    // The words a family chose for the placement; the default (every field empty) for most. Shared between
    // copies: the catalog moves every placement of every instance, and most have none.
    const Presentation& presentation() const;
    void setPresentation(Presentation presentation);

    // The dialect the placement was made from, for the builders that draw one space (nullptr otherwise).
    const FragmentLayout* fragment() const;
    const smem::SharedOperand* shared() const;
    const TensorMemorySource* tensor() const;

  private:
    struct Table {
        std::vector<std::uint32_t> offsets; // CSR over (matrix, row, col)
        // The locations cell after cell, in a list of their space's own type, and the source of each: a
        // placement holds locations of one space, and a Holding is as large as the largest location (a
        // TMA box states thousands of shared-memory bytes, a quarter of that size each).
        std::variant<std::vector<RegisterSlot>, std::vector<SmemByte>, std::vector<TmemCell>,
                     std::vector<GlobalElement>>
            locations;
        std::vector<Source> sources;
        std::size_t expected = 0;   // holdings to reserve room for, once the first names the space
        std::optional<Space> stray; // a location in another space than the first's (table() refuses it)
    };
    using Dialect = std::variant<std::monostate, FragmentLayout, smem::SharedOperand, TensorMemorySource,
                                 std::shared_ptr<const Table>>;

    OperandSet m_operands;
    Space m_space = Space::Registers;
    ElementType m_type = ElementType::F32;
    int m_rows = 0, m_cols = 0, m_matrices = 1;
    int m_threads = 0, m_warpSize = kWarpSize;
    int m_clusterCtas = 1;
    Dialect m_dialect;
    std::shared_ptr<const Presentation> m_presentation; // null: the default
};

// A move of one space into another, as one composition: `source` (a Tensor Memory placement) read by every
// warp of the warpgroup with the tcgen05.ld `access` (D), or written from registers with the tcgen05.st
// `access` (A): the register placement of the same matrix — which thread, register and bits hold (or must
// hold) each element. Throws std::invalid_argument naming what does not compose
// (tmem::validateComposition).
Placement compose(const Placement& source, const tmem::Access& access);

} // namespace lanemap
