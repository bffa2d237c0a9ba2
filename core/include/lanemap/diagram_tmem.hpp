#pragma once
// The tcgen05.mma views as Diagrams (core/src/diagram/diagram_tmem.cpp): one picture for the GUI's Tensor
// Memory pane, the SVG and the PNG (docs/reference/tcgen05.md#the-tensor-memory-panel-gui-svg-png).
//
//   - D (or A, where the layout models A in Tensor Memory) on the TMEM lanes x columns of the mma's N;
//   - composed with a tcgen05.ld of D (or a tcgen05.st of A): a second panel, the registers of the
//     warpgroup's threads after the access, rows = threads, columns = registers; a cell in either panel and
//     the cell holding the same element in the other share their hover group (the holding thread) and are
//     each other's Diagram::partner;
//   - the block-scaled kinds' scale factors and the .sp forms' metadata as their own Tensor Memory panels.
//
// Cells of these panels (DiagramPanel::kind TensorMemory or TensorMemoryRegisters) carry:
//   element = m, bitLo = n (D), k (A), the row index (scale factors) or the metadata group; bitHi = the
//   factor (scale factors), else bitLo; matrix = the CTA; address = the TMEM address of the element's cell
//   (lane << 16 | column); groupID = the lowest bit of the element in that cell; reg = the holder's
//   register (composed) and lane, warp = the holder's lane and warp (composed) or the TMEM lane and its
//   subpartition.

#include "lanemap/diagram.hpp"
#include "lanemap/params.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"
#include "lanemap/tmem.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lanemap {

struct TensorMemoryOptions {
    // N, the operand in Tensor Memory (D, or A for layouts A, D, F), the access composed with it (a
    // tcgen05.ld of D, a tcgen05.st of A) and the block scale drawn (nullopt: the kind's default,
    // tcgen05::defaultBlockScale, its widest vector size with IDs 0; validate() rejects one the kind does not
    // take): the instance's own parameters.
    Params params;
    Palette palette = Palette::Default;
    bool extras = true; // scale factors (block-scaled kinds), metadata (.sp)
    // Cells a caller appends afterwards (each CTA's A and B in shared memory), reserved with the Tensor
    // Memory cells so that the 65,536 of an m256 are not moved when they come.
    std::size_t spareCells = 0;
};

// The block scale a view draws for `shape`: the options' or the kind's default; nullopt for a kind without
// block scaling.
std::optional<tcgen05::BlockScale> blockScaleOf(const tmem::MmaShape& shape,
                                                const TensorMemoryOptions& options);

// The mma shape the options ask for: the entry's with N replaced.
tmem::MmaShape shapeOf(const Instruction& instruction, const TensorMemoryOptions& options);
// "" when the view can be drawn, else what is wrong and what is valid.
std::string validate(const Instruction& instruction, const TensorMemoryOptions& options);
// Whether the layout of `shape` models A in Tensor Memory (layouts A, D, F; tmem::validate(View)).
bool modelsAInTensorMemory(const tmem::MmaShape& shape);
// Every access that composes with `shape`: for Ld every shape x .num x .pack::16b that
// tmem::validateComposition accepts, for St every one tmem::validate(View) accepts for A; in the order of
// tmem::kShapes, .num ascending, unpacked first.
std::vector<tmem::Access> composableAccesses(const tmem::MmaShape& shape, tmem::Op op);
// CUTLASS's choice of the tcgen05.ld its SM100 epilogue loads the accumulator with, per data-path layout
// (CUTLASS 4.x, sm100_get_tmem_load_op in the SM100 epilogue builder: 32 data paths a warp take
// SM100_TMEM_LOAD_32dp32b, 16 take SM100_TMEM_LOAD_16dp128b for an f32 accumulator stored as f32, N-major).
// One line per layout (core/src/families/tcgen05/tcgen05_epilogue.cpp; docs/reference/tcgen05.md).
struct EpilogueLoad {
    tmem::Layout layout;
    int dataPaths; // TMEM lanes of the tile one warp's subpartition holds in CUTLASS's warp tiling
    tmem::Shape shape;
    int columns;      // columns of D one warp loads per epilogue step (CUTLASS's default tile, no source C)
    bool fromCutlass; // false: CUTLASS's builders issue no such MMA (.ws), the line is lanemap's choice
    std::string_view why;
};
const std::vector<EpilogueLoad>& epilogueLoads();
const EpilogueLoad& epilogueLoadOf(tmem::Layout layout);
// The access a view opens with: for D the epilogue load of the layout (epilogueLoads()), .num covering its
// columns or D's, whichever is fewer; for A a .32x32b store covering A's columns.
tmem::Access defaultAccess(const tmem::MmaShape& shape, tmem::Op op);

// One element of a Tensor Memory table: where it sits (24 bytes: a D of m256 has 65,536 of them).
struct TensorMemoryElement {
    // element = m (n for B's scale factors); index = n, k, f or g
    std::int16_t element = 0, index = 0, factor = 0;
    tmem::Placement at;
};

// One Tensor Memory table as every backend shows it: the panel of the Diagram, the text of `show`.
struct TensorMemoryGrid {
    std::string operand;          // "D", "A", "scale A", "scale B", "metadata"
    OperandSet operands;          // D, A or metadata; empty for the scale factors
    std::string label;            // "D", "A", "SFA", "SFB", "E": the cell label "D(m,n)"
    std::string rowName, colName; // what element and index count: "m", "n"; "n", "f" (SFB); "m", "g" (E)
    std::string title, subtitle;
    int elementBits = 32;
    std::string source; // the line naming where the placement comes from
    std::vector<TensorMemoryElement> elements;
    // Composed with a tcgen05.ld or st: who holds elements[i] (one each); empty otherwise.
    std::vector<tmem::Holder> holders;
    const tmem::Holder* holderOf(std::size_t i) const { return holders.empty() ? nullptr : &holders[i]; }
};

// The tables an mma reads beside its operands: the block-scaled kinds' scale factors (for `blockScale`, the
// kind's default when nullopt) and the .sp forms' metadata. A case the tables cannot place is a finding
// ("finding: ...") instead of a grid: B's factors on the 2x2 datapath, the metadata no figure gives.
struct TensorMemoryExtras {
    std::vector<TensorMemoryGrid> grids;
    std::vector<std::string> findings;
};
TensorMemoryExtras tensorMemoryExtras(const tmem::MmaShape& shape,
                                      const std::optional<tcgen05::BlockScale>& blockScale);

// The view an instance's parameters ask for (lanemap/params.hpp: N, operand, access, block scale), in the
// terms of the pane and of `show`.
TensorMemoryOptions viewOptionsOf(const Params& params);
tmem::View viewOf(const Instruction& instance);

// Throws std::invalid_argument with validate()'s message when the view cannot be drawn.
Diagram buildTensorMemoryDiagram(const Instruction& instruction, const TensorMemoryOptions& options);

} // namespace lanemap
