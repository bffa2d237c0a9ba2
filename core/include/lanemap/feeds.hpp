#pragma once
// Does what one instruction writes into shared memory feed what another reads from it (docs/tma.md#feeds)?
// Two placements of the same matrix into Space::SharedMemory — the writer's (a TMA box) and the reader's (a
// wgmma or tcgen05 operand through its descriptor, an ldmatrix tile) — compared as one composition: the
// writer's cell at each byte the reader reads must be the cell the reader expects there. Nothing here knows
// a family: the placements say it all, and an Orientation says how the writer's grid names the reader's.

#include "lanemap/banks.hpp"
#include "lanemap/placement.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/smem.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lanemap::feeds {

// How a cell (row, col) of the writer's grid names a cell of the reader's: the same (row, col), or
// transposed (col, row). A TMA box's columns are its innermost dimension; which axis of the reader's
// operand that is (K or M/N) is the user's to say.
enum class Orientation : std::uint8_t { Same, Transposed };
std::string_view toString(Orientation orientation); // "same", "transposed"

struct Cell {
    int row = 0, col = 0;
    friend bool operator==(const Cell&, const Cell&) = default;
};

// The first byte where the two disagree, in the reader's address order.
struct Difference {
    std::uint32_t offset = 0; // the byte (from the base both placements count from)
    Cell expected;            // the reader's cell it reads there
    // What the writer put at that byte: its own cell (writer's grid) and the same cell in the reader's grid;
    // nullopt when the writer put nothing there (padding, or past the end of what it writes).
    std::optional<Cell> wroteCell;
    std::optional<Cell> wroteAsReader;
    // Where the writer put the expected cell; nullopt when it does not write that cell at all.
    std::optional<std::uint32_t> expectedWrittenAt;
};

struct Comparison {
    Orientation orientation = Orientation::Same;
    int readerRows = 0, readerCols = 0; // the reader's grid
    int writerRows = 0, writerCols = 0; // the writer's grid
    int elementBytes = 0;
    int compared = 0;  // the reader's cells
    int equal = 0;     // of those, the ones the writer put where the reader reads them
    int unwritten = 0; // of the others, the ones the writer does not write at all (outside its grid)
    int unread = 0;    // writer cells the reader never reads
    std::optional<Difference> first;
    // Per cell, row-major: 1 where the reader's cell is not where it reads it (reader), where the writer's
    // cell is read from elsewhere (writer); and the reader's bytes that differ, ascending. What a view marks.
    std::vector<std::uint8_t> readerDiffers, writerDiffers;
    std::vector<std::uint32_t> differingBytes;
    bool feeds() const { return compared > 0 && equal == compared; }
};

// Compares `written` and `read`, both in Space::SharedMemory with one SmemByte per cell and elements of one
// size. Throws std::invalid_argument naming what does not compare (another space, other element sizes).
Comparison compare(const Placement& written, const Placement& read, Orientation orientation);

// The extent of a reader tiled over a writer: `tile` (the reader instruction's own rows x cols) repeated
// until it covers the writer's grid seen in the reader's orientation — the k-steps (and m/n steps) of a
// loop whose descriptors advance over the written tile.
Cell tiledExtent(Cell tile, int writerRows, int writerCols, Orientation orientation);

// Names for the report: the two sides' specs and operands as typed, and how each names its cells.
struct Sides {
    std::string writer;    // "cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B"
    std::string reader;    // "wgmma.m64n64k16.f16:A (K-major, 128B swizzle)"
    std::string readerRow; // "m"
    std::string readerCol; // "k"
    const Placement* writerGlobal = nullptr; // the writer's global placement: names a cell's element or fill
};

std::string toText(const Comparison& comparison, const Sides& sides);
std::string toJson(const Comparison& comparison, const Sides& sides);

// --- one question, as the CLI and the app ask it ----------------------------------------------------------

// A writer selection (its instance places a matrix in shared memory: a TMA box) and the reader that reads it:
// an operand its family reads through a descriptor (its family row states how: wgmma, tcgen05.mma), laid out
// by `choice`, or an ldmatrix/stmatrix tile placed by `tile`.
struct Request {
    Selection writer;
    std::string writerText; // as typed, for the report
    Selection reader;
    std::string readerText;
    Operand operand = Operand::A;
    // Descriptor readers: major-ness and swizzle; unset: K-major and the writer's own swizzle (Params::smem).
    std::optional<smem::Major> major;
    std::optional<smem::Swizzle> swizzle;
    // Which axis of the reader's operand the writer's columns (a box's innermost dimension) hold; unset: the
    // reader's major-ness (a K-major reader reads K innermost).
    std::optional<smem::Major> inner;
    std::optional<banks::Placement> tile; // an ldmatrix/stmatrix reader's tile (lanemap/banks.hpp)
};

struct Answer {
    std::shared_ptr<const Instruction> writer;
    Placement reader; // tiled over the writer's extent
    Comparison comparison;
    Sides sides; // points into `writer`: keep the Answer while using it
};

// nullopt with `error` naming what does not fit (a writer with nothing in shared memory, a reader that reads
// no operand from shared memory, a layout the reader cannot take, other element sizes).
std::optional<Answer> ask(const Request& request, std::string& error);

} // namespace lanemap::feeds
