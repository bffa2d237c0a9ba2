#pragma once
// Layouts in (docs/layouts-in.md): a layout pasted as text — a CuTe thread-value layout (`Shape:Stride` as
// print() writes it, or the C++ type), a Triton `#ttg.linear<...>` attribute, or lanemap's own Triton bases
// JSON — read once into a map (thread, value) -> element, then a register Placement that every consumer
// (Diagram, SVG, text, JSON) draws as it draws an instruction's operand, and compared cell by cell with the
// catalog's operands.
//
// Conventions are the notation's own, never lanemap's: a CuTe TV layout gives a column-major index into the
// operand's CuTe shape (A (M,K), B (N,K), C/D (M,N), as CUTLASS's MMA_Traits); a Triton layout gives [dim0,
// dim1] of the tensor as Triton shapes it (A M x K, B K x N, C/D M x N — lanemap draws every operand so).

#include "lanemap/fragment.hpp"
#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/vocabulary.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace lanemap::layout_in {

enum class Notation : std::uint8_t {
    CuteLayout,   // ((4,8),(2,2)):((32,1),(16,8)), as cute::print writes it (`_4` for static ints too)
    CuteType,     // Layout<Shape<Shape<_4,_8>,Shape<_2,_2>>, Stride<...>>, as CUTLASS's sources spell it
    TritonLinear, // #ttg.linear<{register = [[0, 1], ...], lane = [...], warp = [...], block = []}>
    TritonJson,   // one operand (or the whole document) of lanemap-cli export --format triton
    // #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
    // over a --shape at least its tile, converted to its linear layout as Triton does
    TritonBlocked,
    // #ttg.nvidia_mma<{versionMajor = 2|3, versionMinor = 0, warpsPerCTA = [..], instrShape = [..]}>: the
    // accumulator of mma (v2) or wgmma (v3) over a shape, converted as Triton converts it
    TritonMma,
    // #ttg.dot_op<{opIdx = 0|1, parent = #ttg.nvidia_mma<...> (or an alias), kWidth = N}>: an mma operand
    TritonDotOperand,
};
std::string_view toString(Notation notation); // "CuTe Shape:Stride", "CuTe Layout<> type", ...
bool isCute(Notation notation);

// The tensor a layout maps into, in its notation's convention: dim0 x dim1 (CuTe: the modes of the
// column-major codomain, index = d0 + dim0 * d1 + dim0 * dim1 * p; Triton: [dim0, dim1]). `products` is a
// third CuTe mode: m8n8k4 .f16's four quad-pair products (lanemap's --format cute prints it as P).
struct Extent {
    int dim0 = 0, dim1 = 0, products = 1;
    friend bool operator==(const Extent&, const Extent&) = default;
};
// "16x16", "16x8", "8x4x4" (x or X or ','; each 1..65536, the cells at most 2^24); nullopt with `error` set.
std::optional<Extent> parseExtent(std::string_view text, std::string& error);
std::string toString(const Extent& extent); // "16x16", "8x4x4"
// The extent of a catalog operand in `notation`'s convention (CuTe B: N x K; Triton B: K x N).
Extent extentOf(const FragmentLayout& operand, Notation notation);

// Where reading stopped and what would have been valid there. `offset` is npos for an error of the whole
// text (an index outside the extent, a missing --shape); line and column count from 1, in bytes.
struct ReadError {
    std::size_t offset = std::string_view::npos;
    int line = 0, column = 0;
    std::string message; // "expected ',' or ')' after a mode, found ']'"
    // "line 1, column 14: expected ..." (or the message alone without a position)
    std::string describe() const;
};

// One element of the extent: d0, d1 in the notation's convention, and the CuTe product mode.
struct Coord {
    int d0 = 0, d1 = 0, product = 0;
    friend bool operator==(const Coord&, const Coord&) = default;
};

// A layout as read: for every (thread, value) its image — a CuTe index (folded into an extent later, so one
// layout is compared with operands of any shape) or a Triton [dim0, dim1].
struct Layout {
    Notation notation = Notation::CuteLayout;
    int threads = 0, values = 0;
    std::vector<long> index;  // CuTe: [thread * values + value] -> codomain index
    std::vector<Coord> coord; // Triton: [thread * values + value] -> (dim0, dim1)
    std::optional<Extent>
        extent; // --shape (a #ttg.blocked layout needs it), or what a Triton layout's bases span
    std::optional<Operand> operand; // named by the text (a triton JSON operand) or the caller
    int lanesPerWarp = kWarpSize;   // Triton: 2^(lane bases); thread = warp * lanesPerWarp + lane
    std::string canonical;          // the layout printed back in its notation, one line
};

struct ReadOptions {
    std::optional<Extent> extent;   // --shape (a #ttg.blocked layout needs it)
    std::optional<Operand> operand; // --operand: which operand of a whole triton JSON document
    // The shape a Triton encoding is laid over when no --shape is given (#ttg.blocked, nvidia_mma, dot_op):
    // check and conform give the operand's, [dim0, dim1] as Triton shapes it. Without either, an nvidia_mma
    // or dot_op covers one tile of its instruction per warp; a blocked layout needs one.
    std::optional<Extent> shapeOf;
};

// Reads any of the notations above (which one is told by the text's first word). A CuTe layout must be a TV
// layout (two top-level modes: thread, value); a Triton layout's block bases must be empty (one CTA).
std::variant<Layout, ReadError> read(std::string_view text, const ReadOptions& options = {});

// The cells of `layout` in `extent`: [thread * values + value]; nullopt with `error` naming the first
// (thread, value) whose image lies outside.
std::optional<std::vector<Coord>> cellsIn(const Layout& layout, const Extent& extent, std::string& error);

// The layout as an instruction with one register placement (spec "layout", no family, no section): what
// buildDiagram draws (rows dim0, columns dim1; cells T<thread>:v<value>) and the exporters read.
// `extent` must hold every cell (cellsIn).
Instruction instructionOf(const Layout& layout, const Extent& extent, const std::vector<Coord>& cells);

// --- comparing with the catalog ---------------------------------------------------------------------------

struct Owner {
    int thread = 0, value = 0;
    friend bool operator==(const Owner&, const Owner&) = default;
    friend auto operator<=>(const Owner&, const Owner&) = default;
};

struct CellDifference {
    Coord at;                   // in the notation's convention
    int row = 0, col = 0;       // the same element in lanemap's operand (row, col)
    std::vector<Owner> layout;  // who holds it in the pasted layout
    std::vector<Owner> operand; // who holds it in lanemap's operand
};

struct Comparison {
    // False where the notation cannot express lanemap's operand (sparse A's chunks; Triton: quad-pair
    // products, sizes that are not powers of two): `why` says so, and nothing in that notation equals it.
    bool expressible = true;
    std::string why;
    bool sameShape = true;             // extent, threads and values; `why` says what differs otherwise
    int cells = 0;                     // cells of the extent
    int differing = 0;                 // cells whose owners differ
    int sameThreads = 0;               // of those, cells held by the same threads with other value numbers
    std::vector<CellDifference> first; // the first differing cells, in (product, d1, d0) order
    bool equal() const { return expressible && sameShape && differing == 0; }
};

// The pasted layout against one catalog operand, cell by cell: every cell the same owners (thread, value).
Comparison compare(const Layout& layout, const FragmentLayout& operand, std::size_t keep = 8);

struct Match {
    const Instruction* instruction = nullptr;
    Operand operand = Operand::A;
    Comparison comparison;
};
// Every catalog operand (register fragments of every variant) the layout equals; when none, the `nearest`
// operands of its shape with the fewest differing cells.
struct Identification {
    std::vector<Match> equal;
    std::vector<Match> nearest;
};
Identification identify(const Layout& layout, std::size_t nearest = 5);

// "hardware-confirmed on NVIDIA H100 80GB HBM3 (sm_90), ... (resources/probe/h100-mma.json)", or what is
// known instead (a recorded run failed it, or none ran it).
std::string hardwareStatus(const Instruction& instruction);

// An owner in both notations: "T5 v3" and, after it, lanemap's words ("lane 5 warp 0 a3").
std::string describeOwner(const Owner& owner, const Layout& layout, char letter);
// A cell in the notation's words: CuTe "(m 3, k 8) = index 131", Triton "[3, 8]".
std::string describeCell(const Coord& at, const Layout& layout, const Extent& extent,
                         std::optional<Operand> operand);

// A CuTe atom whose threads are not the warp's lanes — Volta's quad-pair atoms, `ThrID = (_4,_2):(_1,_16)`:
// CuTe thread t is lane lanes[t], and the atom computes the one product those lanes hold. The operand seen
// so: `lanes.size()` threads, one product, element (t, v) where lane lanes[t] holds its element v. nullopt
// with `error` when a lane is out of range or the lanes hold elements of different products.
std::optional<FragmentLayout> throughThreadMap(const FragmentLayout& operand, const std::vector<int>& lanes,
                                               std::string& error);
// The lanes of a ThrID layout as CuTe prints it ("(_4,_2):(_1,_16)" or "_8:_1"): lane of thread t for every
// t.
std::optional<std::vector<int>> readThreadMap(std::string_view text, std::string& error);

// The register operand `operand` of `instruction`; C and D stand for each other where an instruction has one
// accumulator fragment (wgmma's D is its C). nullptr when it has none in registers.
const FragmentLayout* accumulatorOr(const Instruction& instruction, Operand operand);

// What a comparison found, in both notations, one line per differing cell (at most `lines` of them):
// "  (m 0, k 1) = index 16, lanemap A (0,1): layout T4 V0 (T4:a0); mma.m16n8k16.f16 A T0 V1 (T0:a1)".
std::string describe(const Comparison& comparison, const Layout& layout, const Instruction& instruction,
                     const FragmentLayout& operand, std::size_t lines = 8);

// --- documents -----------------------------------------------------------------------------------------

// The layout as text: what it is, then the grid, rows dim0 and columns dim1, each cell its owners
// T<thread>:v<value> ('.' a hole; '/' between the owners of a replicated cell).
std::string toText(const Layout& layout, const Extent& extent, const std::vector<Coord>& cells);
// The layout as JSON (docs/layouts-in.md#show): notation, layout, shape, threads, values, and one
// [thread, value, dim0, dim1(, product)] per element.
std::string toJson(const Layout& layout, const Extent& extent, const std::vector<Coord>& cells);

// --- conformance --------------------------------------------------------------------------------------

enum class Conformance : std::uint8_t {
    Equal,     // the same owner (thread, value) in every cell
    Differs,   // cells differ (or its shape does)
    NotLinear, // the notation cannot express the operand (sparse A, quad-pairs in Triton, ...)
    Unknown,   // no catalog operand by that name (or not in registers)
};
std::string_view toString(Conformance conformance); // "equal", "differs", "not linear", "unknown"

// One line of a conformance file: `CLAIM LAYOUT`, CLAIM a lanemap spec or a CUTLASS atom name (as lanemap's
// --format cute names it) with `:A`, `:B`, `:C` or `:D`. A line `ATOM:ThrID LAYOUT` gives the atom's thread
// map (MMA_Traits::ThrID) for the lines of that atom after it.
struct ConformLine {
    int line = 0;
    std::string claim; // as written
    std::string atom;  // the instruction part of the claim
    Operand operand = Operand::A;
    const Instruction* instruction = nullptr; // nullptr: unknown
    Conformance verdict = Conformance::Unknown;
    std::string detail;         // why, for every verdict but equal; the first differing cells for differs
    std::vector<int> threadMap; // the atom's ThrID line before it (Volta): CuTe thread t is lane threadMap[t]
    bool shared = false;        // a shared-memory layout, compared byte for byte with a descriptor's operand
};

// Reads a whole file (blank lines and '#' comments skipped) and checks every line. nullopt with `error`
// ("line 7, column 23: expected ...") at the first line that does not read.
std::optional<std::vector<ConformLine>> conform(std::string_view text, std::string& error);
// The matrix: one row per instruction claimed, one column per operand, then the totals and the details.
std::string conformMatrix(const std::vector<ConformLine>& lines);

// --- shared-memory layouts (docs/layouts-in.md#shared-memory-swizzled-layouts)
// ------------------------------

enum class SharedNotation : std::uint8_t {
    CuteSwizzle,    // Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1), as cute::print writes it
    TritonNvmma,    // #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
    TritonSwizzled, // #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
    TritonLinear,   // #ttg.shared_linear<{offset = [[0, 1], ...], block = []}, alignment = 128>
    TritonPadded,   // #ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}> (or {offset = ...})
};
std::string_view toString(SharedNotation notation); // "CuTe swizzled layout", "Triton #ttg.nvmma_shared", ...

// A layout in shared memory: element (row, col) at a byte. CuTe's composed layout Sw<B,M,S> o OFFSET o
// (ROWS,COLS):(STRIDES) has CuTe's (mode 0, mode 1) — (MN, K) for an MMA operand; a Triton shared encoding
// has the tensor's [dim0, dim1] as Triton shapes it (A M x K, B K x N): `tensorDims`, see forOperand().
struct SharedLayout {
    SharedNotation notation = SharedNotation::CuteSwizzle;
    int bits = 0, base = 0, shift = 0; // Sw<B,M,S>: bits [M+B-1:M] ^= bits [M+S+B-1:M+S]
    bool onBytes = false;              // smem_ptr[Nb]: the swizzle acts on the byte address, not the offset
    int elementBits = 0;
    long offset = 0;                               // the integer between them (_0), in elements
    int rows = 0, cols = 0;                        // the sizes of mode 0 and mode 1 (Triton: dim0, dim1)
    std::vector<long> offsets;                     // [row * cols + col]: the inner layout's element offset
    std::string canonical;                         // printed back as CuTe or Triton prints it
    std::uint32_t address(int row, int col) const; // the byte, from a base aligned to the swizzle's repeat
    // Triton: rows and cols are the tensor's dim0 and dim1, not (MN, K); the offsets are final (Triton's
    // linear layout has the swizzle in it, so bits is 0).
    bool tensorDims = false;
    int contiguousDim = -1; // Triton: the dim whose neighbours are adjacent (nvmma: transposed ? 0 : 1)
    // The wgmma swizzle the encoding names: nvmma's swizzlingByteWidth, a swizzled_shared whose vec, perPhase
    // and maxPhase are one of them for its element size; nullopt when it names none.
    std::optional<smem::Swizzle> swizzle;
    std::vector<Coord> bases; // Triton: the offset bases [dim0, dim1] the encoding became
};
bool isSwizzled(std::string_view text); // starts with Sw<, S< or Swizzle<
// A CuTe swizzled layout or a Triton shared encoding (after an IR dump's alias lines, or in !ttg.memdesc).
bool isSharedLayout(std::string_view text);

struct SharedReadOptions {
    int elementBits = 0;           // what a layout without its element size needs (check: the operand's)
    std::optional<Extent> extent;  // --shape: the tensor a Triton encoding is laid over, [dim0, dim1]
    std::optional<Extent> shapeOf; // without --shape: the operand's, [dim0, dim1] as Triton shapes it
};
// `elementBits` (0: from smem_ptr[Nb]) gives the element size a layout without smem_ptr needs.
std::variant<SharedLayout, ReadError> readShared(std::string_view text, int elementBits = 0);
std::variant<SharedLayout, ReadError> readShared(std::string_view text, const SharedReadOptions& options);
// The layout as lanemap's (MN, K) of `operand` (A: Triton's [M, K]; B: Triton's [K, N] transposed); a CuTe
// layout is (MN, K) already.
SharedLayout forOperand(const SharedLayout& layout, Operand operand);
// The major-ness a Triton encoding implies for `operand` (its contiguous dim is K: K-major); nullopt for
// CuTe.
std::optional<smem::Major> impliedMajor(const SharedLayout& layout, Operand operand);
// A shared-memory placement of the layout (one byte per cell), what the shared-memory pane draws.
Instruction instructionOf(const SharedLayout& layout);

struct ByteDifference {
    int mn = 0, k = 0;
    std::uint32_t layout = 0, operand = 0;
};
struct SharedComparison {
    bool sameShape = true;
    std::string why;
    int cells = 0, differing = 0;
    std::vector<ByteDifference> first;
    bool equal() const { return sameShape && differing == 0; }
};
// lanemap's shared-memory `operand` of a wgmma `variant` for `choice`, over whole tiles of the instruction
// covering the layout (what compareShared compares with); nullopt with `error`. The layout is (MN, K)
// (forOperand).
std::optional<smem::SharedOperand> coveringOperand(const SharedLayout& layout, const Variant& variant,
                                                   Operand operand, const smem::Choice& choice,
                                                   std::string& error);
// The same for any instruction that reads `operand` through a descriptor (wgmma, tcgen05.mma: its family's
// sharedOperand).
std::optional<smem::SharedOperand> coveringOperand(const SharedLayout& layout, const Instruction& instruction,
                                                   Operand operand, const smem::Choice& choice,
                                                   std::string& error);
// Byte for byte, every cell of the layout ((MN, K): forOperand) against lanemap's operand (at least as
// large).
SharedComparison compareShared(const SharedLayout& layout, const smem::SharedOperand& operand);

// Every choice (major, swizzle) of `instruction`'s shared-memory `operand` compared with the layout: the
// first equal one, or else the one with the fewest differing bytes. nullopt with `error` when no choice
// fits (the instruction reads no such operand, or the element sizes differ).
struct SharedMatch {
    smem::Choice choice;
    SharedComparison comparison;
};
std::optional<SharedMatch> bestChoice(const SharedLayout& layout, const Instruction& instruction,
                                      Operand operand, std::string& error);

// Every shared-memory operand (A and B of every wgmma and tcgen05.mma, each major and swizzle) the layout
// equals, grouped by family, operand and choice; when none, the nearest groups.
struct SharedGroup {
    std::string family; // "wgmma", "tcgen05.mma"
    Operand operand = Operand::A;
    smem::Choice choice;
    int differing = 0, cells = 0;
    std::vector<const Instruction*> instructions; // in catalog order
};
struct SharedIdentification {
    std::vector<SharedGroup> equal, nearest;
};
SharedIdentification identifyShared(const SharedLayout& layout, std::size_t nearest = 5);
// A cell of the layout in its notation's words: CuTe "(n 4, k 0) = CuTe (4,0)", Triton "[0, 4] (offset 260)".
std::string describeSharedCell(const SharedLayout& layout, Operand operand, int mn, int k);

} // namespace lanemap::layout_in
