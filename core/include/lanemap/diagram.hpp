#pragma once
// What a layout picture shows, independent of any backend (docs/svg.md): the GUI paints a Diagram with
// QPainter, the SVG writer serializes it. One description, two backends: what you export is what you saw.
//
// Everything is laid out in abstract units (= pixels at zoom 1); a backend only scales. Plain structs and
// vectors; nothing here knows PTX beyond the Instruction it is built from.
//
// Painting, in order (what svg.cpp does; a backend that follows it draws the same picture):
//   1. white background, width x height;
//   2. bit-field registers: each BitFieldDiagram::rect white with a dark outline, a light tick per bit
//   boundary;
//   3. cells: rect filled with `fill`, 1-unit white outline; label centred, monospace metrics.cellFont, color
//      `text` (dimmed cells come already grey); bit fields: rect in `fill` with a dark 1.5 outline, `label`
//      and `label2` on two centred lines; short ticks at the bit boundaries over the fields;
//   4. lines (grid frames, warp separators, chunk boundaries) over the cells;
//   5. texts: every free text - title, caption, panel titles, headers, row notes, bit numbers - at `pos` (the
//      baseline point at `anchor`); BitFieldDiagram::title at titlePos (monospace, bold);
//   6. legends: swatches and their texts.
// Hover: light every cell of cellsOfThread(cell.thread) and, for metadata, the bit fields whose `cell` is one
// of them (they share hoverId).

#include "lanemap/model.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb&, const Rgb&) = default;
};

struct PointF {
    double x = 0, y = 0;
};

struct RectF {
    double x = 0, y = 0, w = 0, h = 0;
    bool contains(double px, double py) const { return px >= x && px < x + w && py >= y && py < y + h; }
    double right() const { return x + w; }
    double bottom() const { return y + h; }
};

// What the fill color of a cell says.
enum class ColorBy : std::uint8_t {
    Lane,        // 32 colors, one per %laneid (warpgroup threads t and t+32k share the lane color)
    Register,    // one color per fragment register index
    ThreadGroup, // one color per groupID (lane >> 2), the PTX "group of 4 threads"
    Warp,        // one color per warp (thread / 32): a tile's warps (lanemap/tile.hpp)
    Warpgroup,   // one color per warpgroup (thread / 128)
    // One color per thread of a tile's CTA (or a warpgroup): hue = lane, as Lane, shade = warp % 4, so that
    // neighbouring warps' threads differ; on one warp it is Lane.
    Thread,
};
enum class Palette : std::uint8_t {
    Default,    // 32 distinguishable light hues
    ColorBlind, // Okabe–Ito hues by groupID x 4 lightness steps by threadID_in_group
};

std::string_view toString(ColorBy colorBy);
std::string_view toString(Palette palette);
std::optional<ColorBy>
parseColorBy(std::string_view name); // "lane", "register", "group", "warp", "warpgroup", "thread"
std::optional<Palette> parsePalette(std::string_view name); // "default", "colorblind"
// Parses a lane/thread list like "0-3,13"; nullopt (with `error` set) on bad syntax or values >= limit.
std::optional<std::vector<int>> parseLaneList(std::string_view text, int limit, std::string& error);

struct DiagramOptions {
    OperandSet operands; // the operands drawn ({C, D}: the merged accumulator); every operand when empty
    ColorBy colorBy = ColorBy::Lane;
    Palette palette = Palette::Default;
    std::vector<int> threads;      // lane filter: threads drawn in color (others grey); empty = all.
                                   // Thread = %laneid for warp scope, 0..127 for a warpgroup.
    std::optional<int> selector;   // sparse: the sparsity selector drawn; the first valid one when unset
    bool mergeIdenticalCD = true;  // one "C / D" panel when C and D have the same layout
    bool metadataBitFields = true; // per-lane 32-bit register diagrams under the metadata grid
    // Cells a caller appends afterwards (appendSharedMemory: sharedMemoryCellCount), reserved with the
    // diagram's own: appending then copies none of them (a wgmma export's D was copied once, 1.4 MB).
    std::size_t spareCells = 0;

    friend bool operator==(const DiagramOptions&, const DiagramOptions&) = default;
};

// Operand and Metadata: register fragments (buildDiagram). SharedMemory: one cell per element of a tile in
// shared memory, the first of each 16-byte chunk labelled with its byte address; SharedMemoryMap: the memory
// itself, one row per 128-byte line (the 32 four-byte banks), one cell per 16-byte chunk
// (buildSharedMemoryDiagram, addMemoryMapPanel). Chunks: 16-byte shared-memory chunks of a matrix move
// (buildBanksDiagram); banks are the columns. Addresses: the row address each thread of a matrix move
// supplies, one cell per thread (buildBanksDiagram with a feed check): element, bitLo = the tile row and
// column it points at, matrix and reg = the moved matrix and its row, address = the byte address.
// TensorMemory: a tcgen05.mma's D in Tensor Memory (buildTensorMemoryDiagram): row = TMEM lane (CTA 1 of a
// pair under CTA 0), col = TMEM column; element = m and bitLo = n of the D(m,n) held, matrix = the CTA.
// TensorMemoryRegisters: the registers of a warpgroup after a tcgen05.ld (or before a tcgen05.st), row = the
// thread, col = its register (lanemap/diagram_tmem.hpp says what the cells of both carry).
// CopyTile and CopyPhases: a whole tiled copy (buildTiledCopyDiagram says what their cells carry).
enum class PanelKind : std::uint8_t {
    Operand,
    Metadata,
    SharedMemory,
    SharedMemoryMap,
    Chunks,
    Addresses,
    TensorMemory,
    TensorMemoryRegisters,
    CopyTile,
    CopyPhases
};

// Which cells of a panel draw their label (Diagram::label still names every cell, for tooltips and info
// panes).
enum class CellLabels : std::uint8_t {
    Every,
    // None: every label would only repeat the headers (a Tensor Memory panel whose row header names the m of
    // its lane and whose column number is the n).
    None,
    // The first element of each 16-byte chunk (a shared-memory tile): a chunk is contiguous, and a swizzle
    // moves whole chunks, so its first address places the rest (element i of it at + i x its bytes); one
    // address per chunk also shows the swizzle's pattern, which 16 addresses a chunk hid.
    ChunkStarts
};

// One matrix grid: an operand (or one quad-pair product of it), or the metadata fields on the A grid.
struct DiagramPanel {
    PanelKind kind = PanelKind::Operand;
    OperandSet operands;  // the matrix operands it shows ({C, D} merged); empty for memory and scale grids
    std::string name;     // its label: toString(operands), or "memory", "scale A", ...
    char letter = 'a';    // element letter of the labels (a, b, c, d; 'e' for metadata)
    int matrix = -1;      // quad-pair product (m8n8k4 .f16), else -1
    std::string title;    // "A  16×16 .f16"
    std::string subtitle; // "4 × 32-bit registers per thread, 2 elements each"
    RectF bounds;         // title, headers and grid
    PointF origin;        // top-left of grid cell (0, 0)
    double cellWidth = 0, cellHeight = 0;
    int rows = 0, cols = 0;
    std::vector<std::string> rowHeaders; // one per row (empty string = no label)
    std::vector<std::string> colHeaders; // one per column
    std::vector<std::string> rowNotes; // one per row, right of the grid: "warp 2" for warpgroup rows, else ""
    // Shared-memory panels, the index letters: SharedMemory of rows and columns ('k', 'n' for B);
    // SharedMemoryMap of a chunk's strided and contiguous indices ('n', 'k' for a K-major B).
    char rowLetter = 0, colLetter = 0;
    // SharedMemory: elements per cell along the rows and the columns. 1 x 1, except for sub-byte types, drawn
    // one cell per byte: the axis the byte runs along (contiguous in memory) covers 8 / bits elements per
    // cell, so grid row r of a K-major b1 B is k 8r..8r+7.
    int rowElements = 1, colElements = 1;
    std::uint32_t firstCell = 0, cellCount = 0; // this panel's cells in Diagram::cells
    // What the rows and the columns are, in words ("TMEM lane", "register"); empty: the operand's matrix axes
    // (M, N, K), which a backend names itself. The title and the tooltips say the same.
    std::string rowAxis, colAxis;
    int elementBits = 32; // Tensor Memory panels: the bits of one element in its 32-bit cell or register
    // Tiled-copy panels: the instruction's word ("ldmatrix", "stmatrix", "ld.shared") and the bytes one
    // thread's address covers (an 8x8 matrix row: 16; ld.shared: 4, 8 or 16).
    std::string move;
    int accessBytes = 16;
    // Which cells draw their label (Diagram::drawsLabel); the others are drawn in colour alone.
    CellLabels labels = CellLabels::Every;
    Source source = Source::Doc; // where most of its placements come from; tooltips name only the others
    // Grid position (row * cols + col) -> Diagram::cells indices covering it (CSR), for hit tests.
    std::vector<std::uint32_t> gridOffsets;
    std::vector<std::uint32_t> gridCells;

    RectF gridRect() const { return {origin.x, origin.y, cols * cellWidth, rows * cellHeight}; }
    RectF cellRect(int row, int col) const {
        return {origin.x + col * cellWidth, origin.y + row * cellHeight, cellWidth, cellHeight};
    }
    std::span<const std::uint32_t> cellsAtGrid(int row, int col) const;
};

// One drawn owner of one matrix position (or chunk): several owners of one position are drawn side by side,
// never hidden. For metadata cells, element = -1 and the bits are the metadata field. Its label, tooltip and
// hover id are derived from these numbers on demand (Diagram::label and friends): the catalog has millions
// of cells, and a backend needs the strings of only the ones it draws.
// A cell's rectangle: its corner in double precision (a wide figure's x passes 30,000 units, where a float
// no longer holds the hundredth a writer rounds to), its size in single precision (a few hundred units at
// most; a sum of widths meets the next corner to within 1e-4). 8 bytes less than a RectF, on 65,536 cells of
// a Tensor Memory picture. Reads as a RectF.
struct CellRect {
    double x = 0, y = 0;
    float w = 0, h = 0;
    CellRect() = default;
    CellRect(double x_, double y_, double w_, double h_)
        : x(x_), y(y_), w(static_cast<float>(w_)), h(static_cast<float>(h_)) {}
    CellRect(const RectF& r) : CellRect(r.x, r.y, r.w, r.h) {}
    operator RectF() const { return {x, y, w, h}; }
    bool contains(double px, double py) const { return px >= x && px < right() && py >= y && py < bottom(); }
    double right() const { return x + static_cast<double>(w); }
    double bottom() const { return y + static_cast<double>(h); }
};

struct DiagramCell {
    CellRect rect;
    std::uint32_t colorKey = 0; // legend entry index (lane, register or group by ColorBy)
    // Shared-memory panels: the byte address (SharedMemory: of the element, its bits [bitHi..bitLo] of that
    // byte on; SharedMemoryMap: of the chunk, which holds elements (element = strided index, contiguous
    // bitLo..bitHi)), and the chunk's column in its 128-byte line after the swizzle (lane) and before it
    // (reg). `thread` is then the hover group: the chunk, lit in both panels at once.
    std::uint32_t address = 0;
    std::uint16_t panel = 0;
    std::int16_t thread = 0; // lane for warp scope, 0..127 in a warpgroup
    std::int16_t lane = 0, warp = 0, groupID = 0;
    std::int16_t element = 0; // PTX element index (a5 -> 5); -1 for metadata
    std::int16_t reg = 0;     // fragment register (metadata: 0, the single `e` register)
    std::int16_t bitLo = 0, bitHi = 0;
    std::int16_t row = 0, col = 0, colLast = 0; // matrix position; [col, colLast] for chunks
    std::int16_t matrix = -1;
    std::int16_t owners = 1; // owners drawn in this position (1 = sole owner)
    Rgb fill, text;
    bool dimmed = false; // outside the lane filter
    Source source = Source::Doc;
    bool conflict = false; // chunks (buildBanksDiagram): another chunk of its phase is in its bank group
};

struct LegendEntry {
    RectF swatch;
    PointF textPos; // baseline start
    Rgb fill;
    std::string text;
    std::uint32_t key = 0; // DiagramCell::colorKey
};

struct Legend {
    std::string title;
    RectF bounds;
    PointF titlePos;
    std::vector<LegendEntry> entries;
};

// A metadata register as the PTX bit figures draw it: 32 bit boxes, bit 31 left, fields boxed and labeled.
struct BitField {
    RectF rect;
    int bitHi = 0, bitLo = 0;
    std::string label;  // "r3"
    std::string label2; // "c4..7"
    Rgb fill, text;
    int row = 0, colFirst = 0, colLast = 0;
    int cell = -1; // the matching metadata cell in Diagram::cells: its tooltip and hover id are this field's
};

struct BitFieldDiagram {
    int thread = 0;
    std::string title; // "T4  e"
    PointF titlePos;
    RectF rect; // the register box (bits 31..0 left to right)
    int bits = 32;
    double bitWidth = 0;
    std::vector<BitField> fields;
    RectF bitRect(int bit) const { return {rect.x + (bits - 1 - bit) * bitWidth, rect.y, bitWidth, rect.h}; }
};

enum class TextAnchor : std::uint8_t { Start, Middle, End };
enum class TextRole : std::uint8_t {
    Title,
    Caption,
    Note,
    PanelTitle,
    PanelSubtitle,
    Header,    // column numbers and names over a grid
    RowHeader, // row numbers and names, right-aligned left of a grid
    RowNote,
    BitNumber,
    Legend
};

struct DiagramText {
    PointF pos; // baseline point at the anchor
    std::string text;
    double size = 11;
    bool bold = false;
    bool monospace = false;
    TextAnchor anchor = TextAnchor::Start;
    TextRole role = TextRole::Note;
    Rgb color{0x22, 0x22, 0x22};
};

struct DiagramLine {
    PointF from, to;
    Rgb color{0x33, 0x33, 0x33};
    double width = 1;
};

// Font sizes and paddings the layout assumed (a backend uses the same to draw what was measured).
struct DiagramMetrics {
    double cellFont = 10; // cell labels, monospace
    double charWidth =
        6.2; // assumed advance of the monospace cell font (0.62 em; generous for Courier/DejaVu)
    double cellHeight = 22;
    double headerFont = 10;
    double titleFont = 18;
    double panelTitleFont = 14;
    double noteFont = 11;
    double margin = 24;
    double gap = 40; // between panels
};

// A short text in a fixed buffer: a cell's label or tooltip (Diagram::labelText, Diagram::tooltipText).
struct CellText {
    char chars[192];
    std::uint16_t size = 0;
    std::string_view view() const { return {chars, size}; }
};

struct Diagram {
    double width = 0, height = 0;     // units (px at zoom 1)
    std::string title;                // "mma.m16n8k16.f16"
    std::vector<std::string> caption; // PTX string, § + anchor, scope/threads/SM, notes and errata
    std::string spec, ptx, section, anchor;
    Scope scope = Scope::Warp;
    int threads = 32;
    ColorBy colorBy = ColorBy::Lane;
    Palette palette = Palette::Default;
    std::optional<int> selector; // sparse selector drawn
    DiagramMetrics metrics;

    std::vector<DiagramPanel> panels;
    std::vector<DiagramCell> cells;
    std::vector<Legend> legends;
    std::vector<BitFieldDiagram> bitFields;
    std::vector<DiagramText> texts;
    std::vector<DiagramLine> lines;

    // A composed view (lanemap/diagram_tmem.hpp): per cell, the cell holding the same element in the other
    // panel (Tensor Memory <-> registers), or -1; empty elsewhere. Hovering one frames the other.
    std::vector<std::int32_t> partner;

    // thread -> indices into cells (CSR), every panel: what lights up when a lane is hovered.
    std::vector<std::uint32_t> threadOffsets;
    std::vector<std::uint32_t> threadCells;

    // A cell's texts, derived from its numbers:
    //   label   "T13:a5" (warpgroup "T77:d5"), metadata "T0: [3..0]";
    //   tooltip "lane 13 a5 · r2[31..16] · (3,11)", warpgroup "warp 2 lane 13 d5 · ...", metadata
    //           "lane 0 e[31..28] · (8,12..15) · selector 0"; a source other than the panel's is named (the
    //           grammar: docs/svg.md#tooltips);
    //   hoverId stable across builds: "A-t13-e5", "CD-m1-t4-e0", "metadata-t0-b3".
    std::string label(const DiagramCell& cell) const;
    // Whether a backend draws the cell's label (its panel's CellLabels).
    bool drawsLabel(const DiagramCell& cell) const;
    std::string tooltip(const DiagramCell& cell) const;
    std::string hoverId(const DiagramCell& cell) const;
    // The same in a fixed buffer (writers of large diagrams: no allocation per cell).
    CellText labelText(const DiagramCell& cell) const;
    CellText tooltipText(const DiagramCell& cell) const;

    // Index of the cell under (x, y), or -1: panel bounds test, then grid arithmetic, then the few owners.
    int cellAt(double x, double y) const;
    int panelAt(double x, double y) const; // -1 when outside every grid
    // All cells (in every panel) owned by `thread`.
    std::span<const std::uint32_t> cellsOfThread(int thread) const;
    // Index of the bit field under (x, y): {diagram, field}, or {-1, -1}.
    std::pair<int, int> bitFieldAt(double x, double y) const;
};

// Builds the picture of `instruction`. Throws std::invalid_argument naming the bad option (unknown operand,
// selector on a dense instruction or not valid for it, thread outside 0..threads-1).
Diagram buildDiagram(const Instruction& instruction, const DiagramOptions& options = {});
// An instruction with D (or A) in Tensor Memory (a tcgen05.mma): where it sits, at the instance's N and view
// (core/src/diagram/diagram_tmem.cpp). buildDiagram calls it for such an entry.
Diagram buildTensorMemoryDiagram(const Instruction& instruction, Palette palette = Palette::Default);

// --- Shared memory (diagram_smem.cpp)
// ----------------------------------------------------------------------- A tile in shared memory, drawn in
// the same primitives (so the GUI paints it and the SVG writer serialises it):
//   * a SharedMemory panel, the tile in its own orientation (wgmma B: row = k, col = n), one cell per
//     element, the first of each 16-byte chunk labelled with its byte address (hex; CellLabels::ChunkStarts);
//     sub-byte types one cell per byte, covering the elements it holds (DiagramPanel::rowElements,
//     colElements);
//   * a SharedMemoryMap panel, the memory: one row per 128-byte line, eight 16-byte chunk columns (chunk c
//     covers banks 4c..4c+3), each used chunk labelled with the elements it holds ("n3 k8..15"); row notes
//     give the XOR a swizzle applies to that line;
//   * texts: layout formula, the XOR rule, the descriptor decoded, the footprint.
// Colour: in the element grid, the chunk an element lands in (bits [6:4] of its address: banks 4c..4c+3), so
// the swizzle's pattern shows in the operand's own orientation; in the map, a chunk's column before the
// swizzle, so the map shows where the XOR moved each chunk. Hover group (`thread`) = the chunk: hovering an
// element lights its chunk in the map and the other elements in it.
// Other shared-memory pictures (ldmatrix rows, bank conflicts) build a MemoryMap and call addMemoryMapPanel.

namespace smem {
struct SharedOperand;
}

// One 16-byte chunk of a memory map.
struct MemoryChunk {
    std::uint32_t address = 0;  // byte address of the chunk (multiple of 16)
    std::uint32_t colorKey = 0; // legend key / palette entry (Lane colouring)
    int group = 0;           // hover group: becomes DiagramCell::thread (cells of one group light together)
    int strided = 0;         // the elements it holds: one strided index ...
    int first = 0, last = 0; // ... and a range of contiguous ones
    int before = -1;         // its chunk column before a swizzle (-1: not swizzled)
};

struct MemoryMap {
    std::string title;    // "B in memory: 128-byte lines"
    std::string subtitle; // one line under the title
    char stridedLetter = 'n', contiguousLetter = 'k';
    std::uint32_t firstLine = 0, lines = 0; // 128-byte lines drawn: [firstLine, firstLine + lines)
    std::vector<MemoryChunk> chunks;        // every chunk in use, any order
    std::vector<std::string> lineNotes;     // one per line drawn (or empty): right of the row, e.g. "xor 3"
};

// Appends a SharedMemoryMap panel with its top-left corner at (x, y) (title, bank headers, rows) and its
// cells; returns the panel index. Call rebuildHoverIndex() once every panel is in.
int addMemoryMapPanel(Diagram& diagram, const MemoryMap& map, double x, double y, Palette palette);
// Rebuilds threadOffsets/threadCells (and `threads`) from the cells' `thread` field.
void rebuildHoverIndex(Diagram& diagram);

struct SharedMemoryDiagramOptions {
    Palette palette = Palette::Default;
    bool addressGrid = true; // the element grid with byte addresses
    bool memoryMap = true;   // the 128-byte lines
    // Whose part of the operand it is (a tcgen05.mma's CTA of a pair, appendSharedMemory): the title names
    // the CTA and `part` ("rows 64..127 of A"), and the panels' names the CTA, so that every tooltip does
    // ("CTA 1 A m5 k3 · 0x1a2 · ...": m and k count in the CTA's part). -1: one CTA's operand, unnamed.
    int cta = -1;
    std::string part;
};

// The picture of one shared-memory operand (smem::operands gives them for a wgmma variant).
Diagram buildSharedMemoryDiagram(const smem::SharedOperand& operand,
                                 const SharedMemoryDiagramOptions& options = {});
// The picture of any placement in shared memory: a wgmma operand as above, or a placement stated cell by cell
// (a TMA box): its grid with each cell's byte offset and the memory map. `global`, when given, is the same
// grid's placement in global memory; its holes (a TMA box's fill) are drawn grey. Throws
// std::invalid_argument for a placement in another space.
Diagram buildSharedMemoryDiagram(const Placement& placement, const Placement* global = nullptr,
                                 const SharedMemoryDiagramOptions& options = {});
// Appends that picture under what `diagram` already shows (export of a whole wgmma instruction); the hover
// groups of the appended cells start after the diagram's threads.
void appendSharedMemory(Diagram& diagram, const smem::SharedOperand& operand,
                        const SharedMemoryDiagramOptions& options = {});
// How many cells appendSharedMemory adds for `operand` (the grid's exactly, the map's at most): what a caller
// reserves through DiagramOptions::spareCells.
std::size_t sharedMemoryCellCount(const smem::SharedOperand& operand,
                                  const SharedMemoryDiagramOptions& options = {});

// The fill color of palette entry `key` for a coloring (exposed for legends elsewhere and tests).
Rgb paletteColor(Palette palette, ColorBy colorBy, int key);
// Black or white, whichever reads better on `fill` (WCAG contrast).
Rgb labelColorOn(Rgb fill);
double contrastRatio(Rgb a, Rgb b);

namespace banks {
struct Analysis;
struct FeedCheck;
} // namespace banks
// The shared-memory tile of an ldmatrix / stmatrix under one placement (core/src/diagram/diagram_banks.cpp):
// a "shared memory" panel with one row per 128-byte line touched (32 banks x 4 bytes as columns), every
// 16-byte chunk a cell coloured by the thread that supplies its row address, then one panel per phase (rows =
// wavefronts, columns = banks); chunks in a bank conflict are framed in kConflictColor
// (DiagramCell::conflict). Chunk cells reuse DiagramCell's numbers: matrix and element = the matrix and its
// row, reg = bank group (banks 4k..4k+3), groupID = phase, bitLo = wavefront, bitHi = the phase's wavefronts
// (its conflict degree).
inline constexpr Rgb kConflictColor{0xd6, 0x27, 0x28};
Diagram buildBanksDiagram(const Variant& move, const banks::Analysis& analysis,
                          Palette palette = Palette::Default);
// The same with the "feeds" overlay of `feed` (banks::checkFeed of the same placement) above the memory: an
// Addresses panel (which tile element each thread must point at), the operand as the move loads (or
// stores) it and as the consumer's fragment wants it, cell by cell (Operand panels; a register slot holding
// another element than the fragment wants is framed in kConflictColor in both, DiagramCell::conflict).
// Every panel's cells share the thread index: hovering a lane lights its address, its register slots, its
// chunk and its bank.
Diagram buildBanksDiagram(const Variant& move, const banks::Analysis& analysis, const banks::FeedCheck& feed,
                          Palette palette = Palette::Default);

namespace tiled_copy {
struct Result;
}
// A whole tiled copy (lanemap/tiled_copy.hpp, core/src/diagram/diagram_tiled_copy.cpp): a CopyTile panel, the
// operand's shared-memory tile drawn line by line (a row of a row-major tile, a column of a col-major one),
// one cell per access (an ldmatrix's 16-byte matrix row, one thread's ld.shared vector) coloured by the warp
// that moves it and labelled with the instruction and its banks ("w1#3 b4-7"; an element loaded by several
// warps — A along N, B along M — has one cell per warp side by side); the cells of the worst phase framed in
// kConflictColor when it is conflicted. Beside it a CopyPhases panel: one row per instruction (warp, #j), one
// column per phase, each cell its wavefronts, conflicted ones framed. Cells: thread = the CTA thread (hover:
// CTA threads), warp, lane, reg = the instruction j, matrix = the matrix (ldmatrix) or the first register
// (ld.shared), element = the matrix row (-1 for ld.shared), groupID = phase, bitLo = wavefront, bitHi = the
// phase's wavefronts, row = the line, [col, colLast] = the elements along it, address; CopyPhases: thread =
// the phase's first thread, matrix = its last, reg = j, groupID = phase, bitHi = its wavefronts.
Diagram buildTiledCopyDiagram(const tiled_copy::Result& copy, Palette palette = Palette::Default);

} // namespace lanemap
