#pragma once
// ldmatrix, stmatrix and movmatrix (PTX 9.1 §9.7.14.5.15-17): warp-wide moves of whole matrices between
// shared memory and registers (movmatrix: registers to registers, transposed). The engine holds two maps:
//
//   - the address map: which thread supplies the start address of which row of which matrix (every row is
//     16 bytes in shared memory), and which threads supply none;
//   - the data map: the instruction's register FragmentLayout. A cell is (matrix i, memory row, element
//   within
//     the row) of the matrices as they sit in shared memory; `.trans` changes only this map.
//
// Every variant is one row of a declarative table (core/src/families/matrix_move/ldmatrix.cpp).

#include "lanemap/model.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

enum class MoveOp : std::uint8_t { Ldmatrix, Stmatrix, Movmatrix };
std::string_view toString(MoveOp op); // "ldmatrix", "stmatrix", "movmatrix"

// How the elements of one 16-byte matrix row are stored in shared memory, and what the registers hold.
enum class RowFormat : std::uint8_t {
    B16,      // 8 x 16-bit elements; registers hold two per 32-bit register
    B8,       // 16 x 8-bit elements; registers hold four
    B6x16P32, // 16 packed 6-bit elements + 32 bits of padding; each expands into an 8-bit container
    B4x16P64, // 16 packed 4-bit elements + 64 bits of padding; each expands into an 8-bit container
};
// The PTX type qualifiers: "b16", "b8", "b8x16.b6x16_p32", "b8x16.b4x16_p64".
std::string_view toString(RowFormat format);

// One thread's part in the address map.
struct AddressSlot {
    int thread = 0;
    int matrix = -1; // -1: this thread's address is not used
    int row = -1;    // row of `matrix` whose first byte the thread supplies
};

// One row of the table: a PTX matrix-move form and the variants (.x1/.x2/.x4) it yields.
struct MatrixMove {
    MoveOp op = MoveOp::Ldmatrix;
    int rows = 8;   // rows of one matrix in shared memory (one 16-byte row address each)
    int cols = 8;   // elements in one memory row
    int shapeM = 8; // the PTX shape .mMnN
    int shapeN = 8;
    std::vector<int> nums; // the valid .num values: 1, 2, 4
    bool trans = false;
    RowFormat format = RowFormat::B16;
    int registersPerMatrix = 1;
    int minSm = 75;
    bool archSpecific = false; // sm_100a and friends: "not confirmed on hardware (needs sm_100a)"
    PlaceFn data = nullptr;    // (lane, element index) -> (matrix, memory row, element)
    PlaceFn source = nullptr;  // movmatrix only: where the source fragment `a` holds each element
    Source dataSource = Source::Doc;
    // (thread, num) -> the matrix row it supplies; nullptr for movmatrix (no memory operand).
    AddressSlot (*address)(int thread, int num) = nullptr;
    std::string_view section;
    std::string_view anchor;
    std::vector<std::string_view> notes; // ambiguities and conventions, in the manual's words
};

// A matrix-move variant's facts (Variant::facts): its table row and its matrix count (.x1, .x2, .x4).
struct MoveFacts {
    const MatrixMove* row = nullptr;
    int num = 0;
};

// The table's rows, in PTX section order.
const std::vector<MatrixMove>& matrixMoves();

// The row of a variant; nullptr when the variant is not a matrix move.
const MatrixMove* matrixMoveOf(const Variant& variant);
// The .num of a matrix-move variant (its matrix count).
int numOf(const Variant& variant);

// The address map: one slot per thread of the warp (movmatrix: empty).
std::vector<AddressSlot> addressMap(const Variant& variant);
// What the ISA says about the threads that supply no address (.x1, .x2).
std::string_view unusedAddressRule(const Variant& variant);

// Bytes of one memory row (16 for every form) and of one element in memory (fractional for packed 6/4-bit:
// the element's first bit is elementBitInRow()).
constexpr int kRowBytes = 16;
int elementBitsInMemory(RowFormat format);
// Bit offset of element `col` inside its 16-byte memory row. Packed 6/4-bit: the payload is read as filling
// the row from bit 0 and the padding as the high bits (the ISA does not say; a note in the table says so).
int elementBitInRow(RowFormat format, int col);

// The PTX instruction string (no operands) of a matrix-move variant.
std::string matrixMovePtx(const Variant& variant);

// True when `text` (lower case, opcode only) starts with ldmatrix, stmatrix or movmatrix.
bool isMatrixMoveText(std::string_view text);

} // namespace lanemap
