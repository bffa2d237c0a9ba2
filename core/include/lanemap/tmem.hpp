#pragma once
// Blackwell Tensor Memory (PTX 9.1 §9.7.16): the physical space tcgen05 instructions read and write, next to
// registers and shared memory, and the maps that place data in it (docs/reference/tcgen05.md).
//
//   - Tensor Memory: 128 lanes x 512 columns of 32-bit cells per CTA; an address is lane << 16 | column; warp
//   w
//     of a warpgroup reaches only lanes 32 (w % 4) .. 32 (w % 4) + 31 (its subpartition).
//   - tcgen05.ld / tcgen05.st: one warp moves a block of lanes x columns to or from its registers; the five
//     data-path shapes are records (shapeRecords()), .num repeats a shape along the columns, .pack::16b
//     (.unpack::16b) moves the low 16 bits of two adjacent columns through one register.
//   - tcgen05.mma: the data-path layouts A-G place D[m][n] (and A[m][k] when A is in Tensor Memory) on the
//     lanes and columns of one CTA, or of the two CTAs of a pair (layoutRecords()).
//   - Composition: which warp, thread and register holds D[m][n] after a tcgen05.ld of a given shape.
//
// No table here is confirmed on hardware: tcgen05 needs sm_100a and no Blackwell GPU has run lanemap's probe.
// Every record names its source (the ISA figure, CUTLASS's SM100 traits as the cross-check).

#include "lanemap/tcgen05_desc.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"
#include "lanemap/vocabulary.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {
struct Variant;
}

namespace lanemap::tmem {

inline constexpr int kLanes = 128;
inline constexpr int kColumns = 512;
inline constexpr int kSubpartitionLanes = 32;
inline constexpr int kMaxRegisters = 128; // per thread, per tcgen05.ld / tcgen05.st

// A Tensor Memory address: lane in bits 31-16, column in bits 15-0.
struct Address {
    int lane = 0;
    int column = 0;
    constexpr std::uint32_t encode() const {
        return static_cast<std::uint32_t>(lane) << 16 | static_cast<std::uint32_t>(column);
    }
    static constexpr Address decode(std::uint32_t value) {
        return {static_cast<int>(value >> 16), static_cast<int>(value & 0xffffu)};
    }
    friend constexpr bool operator==(const Address&, const Address&) = default;
};

// ---- tcgen05.ld / tcgen05.st --------------------------------------------------------------------------

enum class Shape : std::uint8_t { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };
inline constexpr Shape kShapes[] = {Shape::S32x32b, Shape::S16x64b, Shape::S16x128b, Shape::S16x256b,
                                    Shape::S16x32bx2};
std::string_view toString(Shape shape); // "32x32b", ..., "16x32bx2"
std::optional<Shape> parseShape(std::string_view text);

enum class Op : std::uint8_t { Ld, St };
std::string_view toString(Op op); // "ld", "st"

// Where register `reg` (< registers) of thread `thread` (0..31) lands within one repetition (.x1) of a shape.
struct RepetitionCell {
    int lane = 0;            // offset from the addressed lane
    int column = 0;          // offset from the addressed column, in 32-bit columns
    bool secondHalf = false; // .16x32bx2: the access at taddr + immHalfSplitoff
};

// One data-path shape as the ISA's figure draws it.
struct ShapeRecord {
    Shape shape;
    int lanes;       // lanes one access covers (32 or 16)
    int bitsPerLane; // per repetition (.x1)
    int registers;   // per thread per repetition (Table 49)
    int maxNum;      // largest .num within the 128-register limit
    bool halfSplit;  // .16x32bx2: two 16-lane accesses, the second at immHalfSplitoff
    RepetitionCell (*cell)(int thread, int reg);
    Source source;            // where the placement comes from
    std::string_view figure;  // the ISA figure
    std::string_view cutlass; // the CUTLASS atom it was checked against
};
const std::vector<ShapeRecord>& shapeRecords();
const ShapeRecord& recordOf(Shape shape);

// One tcgen05.ld or tcgen05.st as the warp issues it.
struct Access {
    Op op = Op::Ld;
    Shape shape = Shape::S32x32b;
    int num = 1;         // .x1 ... .x128
    bool packed = false; // .pack::16b (ld) / .unpack::16b (st)
    // .16x32bx2 only: immHalfSplitoff in 32-bit columns; -1: the columns right after the first half (what
    // CUTLASS passes: num, or 2 num packed). The ISA states neither its unit nor its range (a finding).
    int split = -1;
    friend bool operator==(const Access&, const Access&) = default;
};

// The valid .num values: 1, 2, 4, ... up to the shape's limit.
std::vector<int> validNums(Shape shape);
// "" when valid, else what is wrong and what is valid.
std::string validate(const Access& access);

int registersOf(const Access& access);         // per thread
int halfColumnsOf(const Access& access);       // columns of one 16x32b half (.16x32bx2), else of the access
int splitOf(const Access& access);             // immHalfSplitoff resolved (0 for other shapes)
int columnsOf(const Access& access);           // columns spanned from the addressed column
int elementsPerRegister(const Access& access); // 2 packed, else 1

// One TMEM cell an access touches: lane and column offsets from the address. Packed: the low 16 bits of the
// column (the order of the two halves is CUTLASS's reading: the lower column in bits 15-0).
struct Cell {
    int lane = 0;
    int column = 0;
    friend bool operator==(const Cell&, const Cell&) = default;
};
// Register `reg` of `thread`, element `half` (0 unpacked; 0 or 1 packed: bits 15-0 or 31-16).
Cell cellOf(const Access& access, int thread, int reg, int half = 0);

// cellOf with the shape's record and the split looked up once and the shape's cells of one repetition
// tabulated: what a loop over every register of an access calls (a layout of .x128 has 8,192 elements; the
// shape's figure is 32 threads x at most 4 registers).
class AccessMap {
  public:
    explicit AccessMap(const Access& access);
    Cell operator()(int thread, int reg, int half = 0) const;
    // Every cell of `thread`, register by register and element by element (out[reg * parts + half]): the
    // repetitions counted, not divided out of each register number.
    void threadCells(int thread, std::span<Cell> out) const;

  private:
    static constexpr int kRepetitionRegisters = 4; // Table 49: .16x256b
    const ShapeRecord* m_record;
    int m_split;
    bool m_packed;
    std::array<RepetitionCell, 32 * kRepetitionRegisters> m_repetition{};
};

// The PTX string (no operands): tcgen05.ld.sync.aligned.16x256b.x8.b32.
std::string ptxOf(const Access& access);

// ---- tcgen05.mma data-path layouts ----------------------------------------------------------------------

enum class Layout : std::uint8_t { A, B, C, D, E, F, G };
std::string_view toString(Layout layout); // "A" ... "G"

enum class Need : std::uint8_t { Either, Yes, No }; // sparse A, .ws
std::string_view toString(Need need);

// One row of the ISA's data-path table (§9.7.16.10.5) with the placement it draws:
//   rows per CTA R = M / ctaGroup, row r of a CTA, column n of N:
//   lane   = r % rowGroup + rowGroupStride * (r / rowGroup) + slabLanes * (n / (N / slabs)) + alignment
//   column = n % (N / slabs)
struct LayoutRecord {
    Layout layout;
    int m;
    int ctaGroup;
    Need sparse;
    Need ws;
    std::string_view organisation; // the ISA's "datapath organization" column, verbatim ("2x3" for E)
    bool halfDatapath;             // "1/2 datapath utilized": lane alignment 0 or 16
    int rowGroup;
    int rowGroupStride;
    int slabs;
    int slabLanes;
    std::string_view figure;
    std::string_view cutlass; // CUTLASS's atom (tmem_frg / tmem_frg_ws), in CuTe notation
};
const std::vector<LayoutRecord>& layoutRecords();
// The layout the ISA prescribes; nullptr when no row matches (with `why` set).
const LayoutRecord* selectLayout(int m, int ctaGroup, bool ws, bool sparse, std::string* why = nullptr);

// The instruction descriptor's kind (tcgen05_desc.hpp): one enum, its names and K in one table there.
using MmaKind = tcgen05::Kind;
inline constexpr MmaKind kMmaKinds[] = {MmaKind::F16,      MmaKind::TF32, MmaKind::F8F6F4,  MmaKind::I8,
                                        MmaKind::MXF8F6F4, MmaKind::MXF4, MmaKind::MXF4NVF4};
std::optional<MmaKind> parseMmaKind(std::string_view text); // exactly "f16", "tf32", ...
int kOf(MmaKind kind, bool sparse);                         // K of one instruction (Table 39)
bool supportsWs(MmaKind kind);                              // .ws: f16, tf32, f8f6f4, i8

// The facts of one tcgen05.mma that decide where D lives.
struct MmaShape {
    MmaKind kind = MmaKind::F16;
    int m = 128;
    int n = 256;
    int ctaGroup = 1;
    bool ws = false;
    bool sparse = false;
    int laneAlignment = 0; // 0 or 16, half-datapath layouts (C, F) only
    friend bool operator==(const MmaShape&, const MmaShape&) = default;
};
// The valid N for a kind, M, cta_group and .ws (step and range).
struct NRange {
    int first = 8;
    int step = 8;
    int last = 256;
    std::vector<int> only; // .ws: only these
    bool contains(int n) const;
    std::string describe() const;
    std::vector<int> values() const; // every N, in order
};
NRange validN(const MmaShape& shape);
std::string validate(const MmaShape& shape);         // "" or what is wrong and what is valid
const LayoutRecord& layoutOf(const MmaShape& shape); // validate() first

// Where one element sits: the CTA of the pair (0 for cta_group::1), lane, 32-bit column, and for A the lowest
// bit inside the column (elements narrower than 32 bits share a column).
struct Placement {
    int cta = 0;
    int lane = 0;
    int column = 0;
    int bit = 0;
    friend bool operator==(const Placement&, const Placement&) = default;
};
Placement placeD(const MmaShape& shape, int m, int n);
// A in Tensor Memory (M x K, `elementBits` wide): the layout with K in place of N, packed 32 / bits per
// column.
Placement placeA(const MmaShape& shape, int m, int k, int elementBits);
// The same formulas with the shape's layout record found once: what a loop over every element of an operand
// uses (placeD and placeA look the record up at every call). validate() first.
class DataPath {
  public:
    explicit DataPath(const MmaShape& shape);
    Placement d(int m, int n) const;
    Placement a(int m, int k, int elementBits) const;

  private:
    Placement place(int m, int col, int width) const;
    MmaShape m_shape;
    const LayoutRecord* m_record;
    int m_aWidth; // A's columns of values: K, or K/2 for a sparse A
};

// PTX string of the mma form (no operands): tcgen05.mma[.ws][.sp].cta_group::N.kind::K, with the qualifiers
// ptxas requires of a block-scaled kind (.block_scale; mxf4nvf4 also .scale_vec::4X). M and N are in the
// instruction descriptor, not in the string.
std::string ptxOf(const MmaShape& shape);
// The same with the vector size `vec` of a block-scaled kind named where the kind takes more than one
// (mxf4nvf4: 2X or 4X): the instruction whose scale factors a view shows.
std::string ptxOf(const MmaShape& shape, const std::optional<tcgen05::ScaleVec>& vec);
// The same words without the block-scale qualifiers: the stem of the catalog's spec.
std::string ptxStemOf(const MmaShape& shape);

// ---- composition -----------------------------------------------------------------------------------------

// Which thread of which warp holds a TMEM cell after one access, and which access it is.
struct Holder {
    int cta = 0;
    int warp = 0;   // warp of the warpgroup (the subpartition of the cell's lane)
    int thread = 0; // lane of the warp (%laneid)
    int reg = 0;
    int bit = 0;     // lowest bit in the register (16: the high half of a packed register; A sub-columns)
    Address address; // taddr of the access that moves it
    friend bool operator==(const Holder&, const Holder&) = default;
};

// "" when `access` can move the data `shape` places: D is 32 bits a column, so .pack::16b reads the low 16
// bits of each (a 16-bit accumulator); the default immHalfSplitoff only (the accesses tile the columns).
std::string validateComposition(const MmaShape& shape, const Access& access);
// After tcgen05.mma with `shape`, a tcgen05.ld `access` issued by every warp of the warpgroup, at lane
// 32 w (+16 for the second 16-lane half) and column c * columnsOf(access): who holds D[m][n].
Holder whoHoldsD(const MmaShape& shape, const Access& access, int m, int n);
// The reverse: which thread and register must hold A[m][k] for a tcgen05.st `access` to put it where the
// mma reads A from Tensor Memory (st without .unpack::16b: 32 / bits elements a register).
Holder whoHoldsA(const MmaShape& shape, const Access& access, int m, int k, int elementBits);

// ---- the views `show` and `export` write ------------------------------------------------------------------

// The bits of one A element in Tensor Memory for a kind (f16 16, tf32 32, f8f6f4/i8/mxf8f6f4 8, mxf4 4).
int aElementBits(MmaKind kind);

// An mma form alone (where D sits), or composed with a tcgen05.ld (who holds D[m][n]) or a tcgen05.st (who
// must hold A[m][k]).
struct View {
    MmaShape mma;
    std::optional<Access> access;
    // Block-scaled kinds: the vector size and SFA / SFB IDs whose scale-factor places the JSON lists;
    // nullopt: the kind's default (tcgen05::defaultBlockScale).
    std::optional<tcgen05::BlockScale> blockScale = std::nullopt;
};
std::string validate(const View& view); // "" or what is wrong
// A text grid, one cell per element: "c1 L37 C70" (CTA, lane, column), or "w1 T23 r0" (+ ".h" for bits 31-16,
// ":b8" for a sub-column A element) with the access.
std::string viewText(const View& view);
// JSON (docs/reference/tcgen05.md#json).
std::string viewJson(const View& view);

// ---- the catalog's facts ---------------------------------------------------------------------------------

// The access of a tcgen05.ld / tcgen05.st variant, the mma form of a tcgen05.mma entry (its N the largest
// valid one); nullptr for other variants. Read by the tcgen05 family and its probe method.
const Access* accessOf(const Variant& variant);
const MmaShape* mmaOf(const Variant& variant);

// ---- text (the edges) ------------------------------------------------------------------------------------

// An access from its spec words: "16x256b.x8", "16x32bx2.x2.pack::16b", "tcgen05.ld.16x64b.x4" or the PTX
// string (operands ignored); `op` is used when the text does not name one. nullopt with `error` naming what
// is valid.
std::optional<Access> parseAccess(std::string_view text, Op op, std::string& error);
// An mma form: tcgen05.mma[.ws][.sp].cta_group::G.kind::K[.mMnN][.lane16], or the PTX string (M and N live
// in the instruction descriptor: without .mMnN the largest M and N of the form are shown), operands and ';'
// of a pasted instruction ignored. A block-scale vector size it names (.scale_vec::2X, .block16, .block32)
// must be one the kind takes, and is returned in `scaleVec` when given.
std::optional<MmaShape> parseMma(std::string_view text, std::string& error,
                                 std::optional<tcgen05::ScaleVec>* scaleVec = nullptr);
// The canonical spec: tcgen05.mma.cta_group::1.kind::f16.m128 (withN: m128n256).
std::string specOf(const MmaShape& shape, bool withN);
std::string specOf(const Access& access);

} // namespace lanemap::tmem
