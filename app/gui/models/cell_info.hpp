#pragma once
// What the details panel says about one cell: read straight from the core model (owners of (row, col),
// metadata fields), so the panel and the diagram can never disagree. Plain text for the clipboard, HTML for
// the panel.

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace lanemap {
struct Instruction;
class FragmentLayout;
struct MetadataField;
struct ProbeReport;
struct Diagram;
namespace smem {
struct SharedOperand;
}
namespace banks {
struct Analysis;
}
} // namespace lanemap

namespace lanemap::gui {

struct OwnerInfo {
    int thread = 0; // %laneid, or 0..127 in a warpgroup
    int lane = 0;   // thread % 32
    int warp = 0;   // warp in the warpgroup (wgmma)
    int groupID = 0;
    int threadInGroup = 0;
    int index = 0;   // element number: a<index>
    QString element; // "a5"
    int reg = 0;     // register of the fragment
    int bitLo = 0, bitHi = 0;
    int colFirst = 0, colLast = 0; // sparse A chunk: the columns this element may occupy
    QString source;                // doc / figure / inferred / hardware
};

// A cell of a tcgen05.mma's Tensor Memory panel, or of the registers panel composed with it: where the
// element sits in Tensor Memory and, composed with a tcgen05.ld (st), which thread and register hold it.
struct TensorMemoryCell {
    QString operand;           // "D", "A", "scale A", "scale B", "metadata"
    QString element;           // "D(37,40)"
    QStringList cellElements;  // every element of its 32-bit cell, when the cell holds several
    int cta = 0, ctas = 1;     // the CTA of the pair (cta_group::2) holding it
    int lane = 0, column = 0;  // TMEM lane (0..127 of its CTA) and 32-bit column
    std::uint32_t address = 0; // lane << 16 | column
    int subpartition = 0;      // lane / 32: warp w of a warpgroup reaches it when w % 4 == subpartition
    int bitLo = 0, bits = 32;  // the element's bits in its cell
    QString layout;            // "data-path layout A (M = 128, cta_group::1)"
    // Composed with a tcgen05.ld of D (or a tcgen05.st of A): who holds it.
    bool held = false;
    bool load = true;    // tcgen05.ld (after it), or tcgen05.st (before it)
    QString access;      // "tcgen05.ld.sync.aligned.32x32b.x32.b32"
    bool packed = false; // .pack::16b / .unpack::16b
    int accessIndex = 0; // which access of each warp (#0, #1, ...: the registers panel's groups)
    int accessLane = 0, accessColumn = 0;     // that access's taddr
    int thread = 0, warp = 0, threadLane = 0; // thread of the warpgroup, its warp and %laneid
    int reg = 0, regBitLo = 0;                // the register and the element's lowest bit in it
};

// A cell of a shared-memory picture: an element (or byte) of a wgmma operand tile, a 16-byte chunk of its
// memory map, or a row an ldmatrix / stmatrix moves (its chunk and the address a lane supplies).
struct SharedMemoryCell {
    QString elements;          // "B(k 9, n 3)", "B: n 3, k 8..15", "matrix 1 row 5: tile row 13, cols 0..7"
    bool chunk = false;        // a whole 16-byte chunk, not one element
    std::uint32_t address = 0; // its (first) byte, after the swizzle
    std::uint32_t start = 0;   // the tile's first byte: the offset is address - start
    int bytes = 2;             // bytes it covers (16 for a chunk; 1 for a byte of sub-byte elements)
    int byteBitLo = 0, byteBitHi = 7; // a sub-byte element: its bits in the byte
    std::uint32_t linear = 0;         // its address before the swizzle
    QString swizzle;                  // "128B", "Swizzle<3,3,3>"; empty: none
    int swizzlePhase = -1;            // the XOR the swizzle applies to the chunk bits (-1: no swizzle)
    int phaseLines = 0;               // 128-byte lines before the XOR pattern repeats (128B: 8)
    // ldmatrix / stmatrix: who reads (writes) it.
    bool load = true;
    int thread = -1;                               // the lane supplying the row address
    int phase = -1, phaseFirst = 0, phaseLast = 0; // the shared-memory phase serving it and its lanes
    int wavefront = 0, wavefronts = 1;             // 0-based, of the phase's wavefronts
    bool conflict = false; // another chunk of its phase is in its bank group (it waits a wavefront)
    QString registers;     // "lanes 4..7, r1": where the row's elements land
};

// One line of the dock: a name and its value ("TMEM address", "0x00250028 (lane << 16 | column)").
using CellField = std::pair<QString, QString>;

struct CellInfo {
    bool valid = false;
    QString spec;
    QString operand; // "A", "B", "C", "D", "metadata"
    bool warpgroup = false;
    int matrix = -1; // quad-pair product, -1 elsewhere
    int row = 0, col = 0;
    int colLast = -1; // a sparse A cell: the last column of the chunk it may sit in (col..colLast); -1: col
    int rows = 0, cols = 0;
    QString elementType;
    int registerBits = 32;
    std::vector<OwnerInfo> owners;
    // Metadata field (operand == "metadata")
    int selector = -1;
    int fieldColFirst = 0, fieldColLast = 0;
    QString granularity;
    // Where it comes from
    QString section;    // "9.7.14.5.8"
    QString anchor;     // PTX manual HTML anchor
    QStringList errata; // "E1 (suspected): summary"
    QString probe;      // "confirmed on NVIDIA H100 ... (driver ..., date)" / mismatch text / empty
    // A cell outside register fragments (Tensor Memory, shared memory) is described by its Diagram's words:
    // the hover text (the tooltip grammar) and the panel it sits in.
    QString summary;
    QString panelTitle;
    // Their fields, from the Diagram's numbers and the core tables (one is set with the summary).
    std::optional<TensorMemoryCell> tensorMemory;
    std::optional<SharedMemoryCell> sharedMemory;
    std::vector<CellField> fields() const; // what the dock lists, in its order
    // Everything the (first) owner's lane holds, register by register, per operand: "A r1: a2 a3 → row 9,
    // cols 2–3".
    int laneThread = -1;
    QStringList laneRegisters;

    QString toPlainText() const;
    QString toHtml() const;
    // The column as the dock says it: "1", or "0..1" for a sparse A cell standing for its chunk.
    QString colText() const;
};

// The owners of (matrix, row, col) of one operand. Invalid when the cell is outside the operand.
CellInfo describeCell(const Instruction& instruction, const FragmentLayout& operand, int matrix, int row,
                      int col);

// One metadata field of a sparse instruction under one selector value.
CellInfo describeMetadataField(const Instruction& instruction, int selector, const MetadataField& field);

// Fills info.laneRegisters with what `thread` holds in every operand of `instruction` (C and D once as C/D
// when `mergedCD`) and, for sparse instructions, its metadata fields under `selector`. Long fragments (wgmma
// accumulators) are cut after `maxRegisters` registers per operand.
void addLaneRegisters(CellInfo& info, const Instruction& instruction, int thread, bool mergedCD,
                      int selector = 0, int maxRegisters = 16);

// A cell of a register picture of `instruction` (buildDiagram): an operand's owners, or a metadata field
// under the selector drawn, with what the owning lane holds in every operand (C and D once as C/D when
// `mergedCD`). Invalid for a cell of another kind of panel.
CellInfo describeRegisterCell(const Instruction& instruction, const Diagram& diagram, int cell, bool mergedCD,
                              int selector);

// A cell of a Tensor Memory panel (or the registers panel beside it) of `diagram`, the picture of
// `instance` (buildDiagram of a tcgen05.mma instance: its N, operand, access and block scale are the
// instance's parameters). Invalid when `cell` is not in such a panel.
CellInfo describeTensorMemoryCell(const Instruction& instance, const Diagram& diagram, int cell);
// A cell of the shared-memory picture of a placement stated cell by cell (buildSharedMemoryDiagram of a TMA
// box): the Diagram's words, and the element of the instance's global placement the cell holds, or fill.
CellInfo describePlacementCell(const Instruction& instance, const Diagram& diagram, int cell);
// A cell of the shared-memory picture of `operand` (buildSharedMemoryDiagram of a wgmma operand).
CellInfo describeSharedMemoryCell(const Instruction& instruction, const smem::SharedOperand& operand,
                                  const Diagram& diagram, int cell);
// A chunk (Chunks panels) or an address cell (Addresses panel) of an ldmatrix / stmatrix banks picture
// (buildBanksDiagram of `move` under `analysis`). Invalid for its other cells.
CellInfo describeBanksCell(const Instruction& move, const banks::Analysis& analysis, const Diagram& diagram,
                           int cell);
// A cell of a whole tiled copy's picture (buildTiledCopyDiagram; the copy of `consumer`'s operand): the
// operand's row or vector or a phase, described by the picture's own words (its tooltip: thread, warp,
// lane, instruction, tile position, address, banks, phase, wavefront) under its panel's title.
CellInfo describeTiledCopyCell(const QString& consumer, const Diagram& diagram, int cell);

// The status line of a pinned thread: "Pinned lane 5 (...)" for a warp's instruction; for a warpgroup or a
// tile's CTA the thread with its warp and lane, and how many values it holds per register operand (all lit in
// the panes: "Pinned thread 97 (warp 3, lane 1): 8 values of A, 8 of B, 8 of C, 8 of D lit ...").
QString pinnedThreadText(const Instruction& instruction, int thread);

// The instruction's spec, scope, PTX section and errata, as every description starts.
void fillInstructionFacts(CellInfo& info, const Instruction& instruction);

// The PTX manual URL of an anchor.
QString manualUrl(const QString& anchor);

} // namespace lanemap::gui
