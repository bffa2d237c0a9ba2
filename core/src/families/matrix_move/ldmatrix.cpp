// ldmatrix / stmatrix / movmatrix: PTX 9.1 §9.7.14.5.15-17 as data (docs/reference/ldmatrix.md).
//
// What the ISA states in text: each address is "the start of a matrix row"; for .m8n8 threads 0-7 supply the
// rows of matrix 0, 8-15 of matrix 1, and so on; "a group of four consecutive threads loads 16 bytes", "each
// thread in a warp loads fragments of a row, with thread 0 receiving the first fragment in its register r";
// matrix i goes to destination register i; .trans loads "in column-major format". stmatrix is the exact
// inverse. The sm_100a forms are figures only (Figs. 105-108); their formulas are CUTLASS's copy traits
// (SM100_U8x8_LDSM_T, SM100_SU4_DU8x16_x1_LDSM_N, SM100_U8x4_STSM_T) and are not confirmed on hardware.
//
// A cell is (matrix, memory row, element within the row): the matrices as they sit in shared memory, the
// same coordinates for every form, so the data map and the address map name the same rows.
// Notation: g = groupID = lane >> 2, t = threadID_in_group = lane % 4, i = element index (a PTX register
// holds 2 b16 or 4 b8 elements; register r carries matrix r / registersPerMatrix).

#include "families/atom/atom.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/matrix_move.hpp"
#include "lanemap/spec.hpp"

#include "families/matrix_move/export_matrix_move.hpp"
#include "families/matrix_move/matrix_move_spec.hpp"

#include <stdexcept>

namespace lanemap::family {
extern const Family kLdmatrix, kStmatrix, kMovmatrix; // the rows, at the end of this file
}

namespace lanemap {

namespace {

constexpr int g(const Lane& l) {
    return l.groupID;
}
constexpr int t(const Lane& l) {
    return l.threadID_in_group;
}

// --- data maps ------------------------------------------------------------------------------------------

// .m8n8 .b16 (no .trans): register i/2 holds matrix i/2; thread holds row g, elements 2t, 2t+1.
Cell rowMajorB16(const Lane& l, int i, int) {
    return {g(l), 2 * t(l) + (i & 1), -1, i >> 1};
}
// .m8n8 .trans .b16: the same register slots read a column: rows 2t, 2t+1 of column g.
Cell transB16(const Lane& l, int i, int) {
    return {2 * t(l) + (i & 1), g(l), -1, i >> 1};
}
// .m16n16 .trans .b8 (and its b6/b4 sources), two registers per matrix (CUTLASS SM100_U8x8_LDSM_T): byte b of
// register r holds memory row 2t + (b & 1) + 8 (r & 1), element g + 8 (b >> 1) of matrix r / 2.
Cell transB8m16n16(const Lane& l, int i, int) {
    const int reg = i >> 2, byte = i & 3;
    return {2 * t(l) + (byte & 1) + 8 * (reg & 1), g(l) + 8 * (byte >> 1), -1, reg >> 1};
}
// .m8n16 (b6/b4 sources, no .trans; CUTLASS SM100_SU{4,6}_DU8x16_LDSM_N): byte b of register r holds row g,
// element 4t + b of matrix r.
Cell rowMajorB8m8n16(const Lane& l, int i, int) {
    return {g(l), 4 * t(l) + (i & 3), -1, i >> 2};
}
// stmatrix .m16n8 .trans .b8 (CUTLASS SM100_U8x4_STSM_T): byte e_b of register r is element
// R[g + 8 (b >> 1)][2t + (b & 1)] of the 16x8 register-side matrix r (the mma m16n8 accumulator pattern),
// stored transposed: memory row 2t + (b & 1), element g + 8 (b >> 1).
Cell transB8m16n8(const Lane& l, int i, int) {
    return {2 * t(l) + (i & 1), g(l) + 8 * ((i >> 1) & 1), -1, i >> 2};
}

// --- address maps ---------------------------------------------------------------------------------------

// Eight rows per matrix: thread 8q + r supplies row r of matrix q (q < num).
AddressSlot eightRowsPerMatrix(int thread, int num) {
    const int matrix = thread / 8;
    return matrix < num ? AddressSlot{thread, matrix, thread % 8} : AddressSlot{thread};
}
// .m16n16: sixteen rows per matrix, thread 16q + s supplies one of them (CUTLASS SM100_U8x8_LDSM_T's source
// layout: bits 0, 1, 2-3 of s are row bits 0, 3, 1-2).
AddressSlot sixteenRowsPerMatrix(int thread, int num) {
    const int matrix = thread / 16, s = thread % 16;
    const int row = (s & 1) + 8 * ((s >> 1) & 1) + 2 * ((s >> 2) & 3);
    return matrix < num ? AddressSlot{thread, matrix, row} : AddressSlot{thread};
}

constexpr std::string_view kLdSection = "9.7.14.5.15", kLdAnchor = "warp-level-matrix-instructions-ldmatrix";
constexpr std::string_view kStSection = "9.7.14.5.16", kStAnchor = "warp-level-matrix-instructions-stmatrix";
constexpr std::string_view kMovSection = "9.7.14.5.17",
                           kMovAnchor = "warp-level-matrix-instructions-movmatrix";

constexpr std::string_view kSm100 =
    "not confirmed on hardware (needs sm_100a): the layout is the ISA's figure "
    "read through CUTLASS's copy traits";
constexpr std::string_view kSixteenRows =
    "ambiguity: the prose speaks of eight addresses per matrix, but a 16x16 matrix has 16 rows of 16 bytes; "
    "lanemap reads threads 16q..16q+15 as supplying the 16 rows of matrix q (CUTLASS's source layout)";
constexpr std::string_view kPayload =
    "ambiguity: the ISA does not say where the 6- or 4-bit payload sits inside its 8-bit container; lanemap "
    "shows it where mma .kind::f8f6f4 reads it (4-bit: bits 5-2; 6-bit: bits 5-0), and reads the packed "
    "source "
    "row as payload from bit 0 with the padding in the high bits";
constexpr std::string_view kStTransExample =
    "erratum: the ISA's example stmatrix.sync.aligned.m16n8.x4.b8 has no .trans, which the text makes "
    "mandatory for 16x8 (ptxas rejects it without .trans)";
constexpr std::string_view kMovWording =
    "the ISA's words (each thread holds a fragment of a column of the result) read literally would make d "
    "equal a; lanemap shows the transpose: lane L receives a[2(L%4)+j][L/4] (CUTLASS SM75_U32x1_MOVM_T)";
constexpr std::string_view kMovCoordinates =
    "cells are drawn in the source matrix's coordinates: the cell (r, c) is element a[r][c], in the source "
    "fragment A and in the result D";

using enum MoveOp;
using enum RowFormat;

// Built on first use, not before main: every command starts, few move matrices.
const std::vector<MatrixMove>& moveTable() {
    static const std::vector<MatrixMove> kMoves = {
        // clang-format off
    // op rows cols M N nums trans format regs/matrix minSm arch-specific data source data-source address section anchor notes
    {Ldmatrix, 8, 8, 8, 8, {1, 2, 4}, false, B16, 1, 75, false, rowMajorB16, nullptr, Source::Doc, eightRowsPerMatrix, kLdSection, kLdAnchor, {}},
    {Ldmatrix, 8, 8, 8, 8, {1, 2, 4}, true, B16, 1, 75, false, transB16, nullptr, Source::Figure, eightRowsPerMatrix, kLdSection, kLdAnchor, {}},
    {Ldmatrix, 16, 16, 16, 16, {1, 2}, true, B8, 2, 100, true, transB8m16n16, nullptr, Source::Cutlass, sixteenRowsPerMatrix, kLdSection, kLdAnchor, {kSm100, kSixteenRows}},
    {Ldmatrix, 16, 16, 16, 16, {1, 2}, true, B6x16P32, 2, 100, true, transB8m16n16, nullptr, Source::Cutlass, sixteenRowsPerMatrix, kLdSection, kLdAnchor, {kSm100, kSixteenRows, kPayload}},
    {Ldmatrix, 16, 16, 16, 16, {1, 2}, true, B4x16P64, 2, 100, true, transB8m16n16, nullptr, Source::Cutlass, sixteenRowsPerMatrix, kLdSection, kLdAnchor, {kSm100, kSixteenRows, kPayload}},
    {Ldmatrix, 8, 16, 8, 16, {1, 2, 4}, false, B6x16P32, 1, 100, true, rowMajorB8m8n16, nullptr, Source::Cutlass, eightRowsPerMatrix, kLdSection, kLdAnchor, {kSm100, kPayload}},
    {Ldmatrix, 8, 16, 8, 16, {1, 2, 4}, false, B4x16P64, 1, 100, true, rowMajorB8m8n16, nullptr, Source::Cutlass, eightRowsPerMatrix, kLdSection, kLdAnchor, {kSm100, kPayload}},
    {Stmatrix, 8, 8, 8, 8, {1, 2, 4}, false, B16, 1, 90, false, rowMajorB16, nullptr, Source::Doc, eightRowsPerMatrix, kStSection, kStAnchor, {}},
    {Stmatrix, 8, 8, 8, 8, {1, 2, 4}, true, B16, 1, 90, false, transB16, nullptr, Source::Figure, eightRowsPerMatrix, kStSection, kStAnchor, {}},
    {Stmatrix, 8, 16, 16, 8, {1, 2, 4}, true, B8, 1, 100, true, transB8m16n8, nullptr, Source::Cutlass, eightRowsPerMatrix, kStSection, kStAnchor, {kSm100, kStTransExample}},
    {Movmatrix, 8, 8, 8, 8, {1}, true, B16, 1, 75, false, transB16, rowMajorB16, Source::Figure, nullptr, kMovSection, kMovAnchor, {kMovWording, kMovCoordinates}},
        // clang-format on
    };
    return kMoves;
}

// Register-side element type: b16 data is shown in a 16-bit container, b8 (and expanded b6/b4) in an 8-bit
// one. The types only size the containers; the JSON names the PTX type (matrix_move.type).
ElementType containerType(RowFormat format) {
    return format == B16 ? ElementType::F16 : ElementType::U8;
}
int payloadBits(RowFormat format) {
    switch (format) {
    case B16:
        return 16;
    case B8:
        return 8;
    case B6x16P32:
        return 6;
    case B4x16P64:
        return 4;
    }
    return 8;
}
// Where the payload sits in its 8-bit container: as mma .kind::f8f6f4 reads it (atom.hpp, one rule).
int payloadPad(RowFormat format) {
    switch (format) {
    case B6x16P32:
        return family::containerPad(ElementType::E3M2, 8);
    case B4x16P64:
        return family::containerPad(ElementType::E2M1, 8);
    default:
        return 0;
    }
}

FragmentLayout registerLayout(const MatrixMove& mv, Operand operand, PlaceFn place, int num) {
    const int perRegister = mv.format == B16 ? 2 : 4;
    FragmentShape shape{mv.rows, mv.cols, num, mv.registersPerMatrix * num, 32, perRegister};
    return FragmentLayout::build(operand, containerType(mv.format), payloadBits(mv.format), 32, shape, place,
                                 0, mv.dataSource, payloadPad(mv.format));
}

const Family* familyOf(MoveOp op);

// Short spec: op.mMnN[.xN].trans.type — movmatrix has no .num.
std::string specOf(const MatrixMove& mv, int num) {
    std::string s =
        std::string(toString(mv.op)) + ".m" + std::to_string(mv.shapeM) + "n" + std::to_string(mv.shapeN);
    if (mv.op != Movmatrix)
        s += ".x" + std::to_string(num);
    if (mv.trans)
        s += ".trans";
    return s + "." + std::string(toString(mv.format));
}

} // namespace

std::string_view toString(MoveOp op) {
    switch (op) {
    case Ldmatrix:
        return "ldmatrix";
    case Stmatrix:
        return "stmatrix";
    case Movmatrix:
        return "movmatrix";
    }
    return "ldmatrix";
}

std::string_view toString(RowFormat format) {
    switch (format) {
    case B16:
        return "b16";
    case B8:
        return "b8";
    case B6x16P32:
        return "b8x16.b6x16_p32";
    case B4x16P64:
        return "b8x16.b4x16_p64";
    }
    return "b16";
}

const std::vector<MatrixMove>& matrixMoves() {
    return moveTable();
}

const MatrixMove* matrixMoveOf(const Variant& variant) {
    const auto* facts = std::any_cast<MoveFacts>(&variant.facts);
    return facts ? facts->row : nullptr;
}

int numOf(const Variant& variant) {
    const auto* facts = std::any_cast<MoveFacts>(&variant.facts);
    return facts ? facts->num : 0;
}

std::vector<AddressSlot> addressMap(const Variant& variant) {
    std::vector<AddressSlot> slots;
    const MatrixMove* mv = matrixMoveOf(variant);
    if (!mv || !mv->address)
        return slots;
    slots.reserve(32);
    for (int thread = 0; thread < 32; ++thread)
        slots.push_back(mv->address(thread, numOf(variant)));
    return slots;
}

std::string_view unusedAddressRule(const Variant& variant) {
    const MatrixMove* mv = matrixMoveOf(variant);
    if (!mv || !mv->address)
        return "movmatrix reads no memory: no thread supplies an address";
    if (numOf(variant) == 4 && mv->rows == 8)
        return "every thread supplies a row address";
    return "the addresses of the other threads are not used; for .target sm_75 and below every thread must "
           "hold "
           "a valid address (the ISA: copy the lower threads' addresses to the higher ones)";
}

int elementBitsInMemory(RowFormat format) {
    return payloadBits(format);
}

int elementBitInRow(RowFormat format, int col) {
    return col * elementBitsInMemory(format);
}

std::string matrixMovePtx(const Variant& v) {
    const MatrixMove& mv = *matrixMoveOf(v);
    std::string s = std::string(toString(mv.op)) + ".sync.aligned.m" + std::to_string(mv.shapeM) + "n" +
                    std::to_string(mv.shapeN);
    if (mv.op != Movmatrix)
        s += ".x" + std::to_string(numOf(v));
    if (mv.trans)
        s += ".trans";
    if (mv.op != Movmatrix)
        s += ".shared";
    return s + "." + std::string(toString(mv.format));
}

bool isMatrixMoveText(std::string_view text) {
    for (std::string_view op : {"ldmatrix", "stmatrix", "movmatrix"})
        if (text.substr(0, op.size()) == op && (text.size() == op.size() || text[op.size()] == '.'))
            return true;
    return false;
}

void registerMatrixMoves(Catalog& catalog) {
    for (const MatrixMove& mv : moveTable()) {
        for (int num : mv.nums) {
            Variant v;
            v.family = familyOf(mv.op);
            v.scope = Scope::Warp;
            v.threads = 32;
            v.m = mv.shapeM;
            v.n = mv.shapeN;
            v.k = 0;
            v.atype = v.btype = v.ctype = v.dtype = containerType(mv.format);
            v.minSm = mv.minSm;
            v.section = mv.section;
            v.anchor = mv.anchor;
            v.facts = MoveFacts{&mv, num};
            v.spec = specOf(mv, num);
            if (!catalog.wants(v.spec)) // registering one spec: skip the other rows' notes and PTX
                continue;
            v.forms = {Form{v.atype, v.btype}};
            v.ptx = matrixMovePtx(v);
            if (mv.archSpecific)
                v.notes.emplace_back("sm_100a, sm_101a-sm_110a, sm_120a (and the f families from PTX 8.8)");
            for (std::string_view note : mv.notes)
                v.notes.emplace_back(note);
            catalog.add(std::move(v), [](Instruction& in) {
                const MatrixMove& m = *matrixMoveOf(in);
                if (m.source)
                    in.operands.push_back(registerLayout(m, Operand::A, m.source, numOf(in)));
                // ldmatrix and movmatrix write d; stmatrix reads r: shown as its source registers, A.
                in.operands.push_back(
                    registerLayout(m, m.op == Stmatrix ? Operand::A : Operand::D, m.data, numOf(in)));
            });
        }
    }
}

namespace family {

namespace {
std::string moveShape(const Variant& v) {
    return shapeWord(v.m, v.n, -1); // no K: .m8n8, .m16n16
}
std::string movePtx(const Variant& v, const Form&) {
    return matrixMovePtx(v);
}

// The registers hold rows of matrices as they sit in memory, in the PTX's memory format (.b16,
// .b8x16.b6x16_p32), one matrix per register (or pair of registers).
void instantiateMove(Instruction& in) {
    const MatrixMove& mv = *matrixMoveOf(in);
    for (Placement& p : in.placements) {
        Presentation words;
        words.typeName = toString(mv.format);
        for (int m = 0; p.matrices() > 1 && m < p.matrices(); ++m)
            words.matrixTitles.push_back(matrixMoveTitle(in, m));
        p.setPresentation(std::move(words));
    }
}
} // namespace

// The three moves share one grammar and one table; only their names differ.
namespace {
Family moveRow(std::string_view name) {
    return {.name = name,
            .registerTable = registerMatrixMoves,
            .ptx = movePtx,
            .shape = moveShape,
            .claims = isMatrixMoveText,
            .parse = parseMatrixMoveSpec,
            .instantiate = instantiateMove};
}
} // namespace
const Family kLdmatrix = moveRow("ldmatrix");
const Family kStmatrix = moveRow("stmatrix");
const Family kMovmatrix = moveRow("movmatrix");

} // namespace family

namespace {
const Family* familyOf(MoveOp op) {
    switch (op) {
    case Ldmatrix:
        return &family::kLdmatrix;
    case Stmatrix:
        return &family::kStmatrix;
    case Movmatrix:
        return &family::kMovmatrix;
    }
    return &family::kLdmatrix;
}
} // namespace

} // namespace lanemap
