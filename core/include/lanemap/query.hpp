#pragma once
// The questions users type about one instruction (docs/reference/queries.md): who holds an element, what a
// lane holds, which registers feed one element of D, and how two layouts differ. Answers are typed; text and
// JSON renderings sit next to them for the CLI.

#include "lanemap/model.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace lanemap::query {

// One element as a lane holds it.
struct Holding {
    Operand operand = Operand::A;
    int thread = 0; // lane (warp) or thread of the warpgroup
    int index = 0;  // PTX element number
    int reg = 0;
    int bitLo = 0, bitHi = 0;
    int matrix = -1; // quad-pair product, m8n8k4 .f16 only
    int row = 0, col = 0, colLast = 0;
};

// Where a shared-memory operand (wgmma B, default K-major 128B swizzle) keeps one element.
struct SharedHolding {
    Operand operand = Operand::B;
    int row = 0, col = 0;
    std::uint32_t address = 0; // byte offset from a 1024-byte aligned base
    int bit = 0;
};

// Where a tcgen05.mma keeps one element (docs/tiles.md#cta-pairs): D (or A with --st) in the Tensor Memory of
// CTA `cta` of the pair, A and B in the shared memory of CTA `cta`. With cta_group::2 CTA c holds rows
// c M/2 .. of A and of D and columns c N/2 .. of B; with cta_group::1 CTA 0 holds everything.
struct PairHolding {
    Operand operand = Operand::D;
    Space space = Space::TensorMemory;
    int cta = 0, ctas = 1;          // the CTA of the pair that holds it, and the CTAs of the group
    int first = 0, count = 0;       // the rows (A, D) or columns (B) of the operand that CTA holds
    int localRow = 0, localCol = 0; // the element in that CTA's part
    int lane = 0, column = 0, bitLo = 0, bits = 32; // Tensor Memory
    std::uint32_t address = 0;                      // shared memory: byte from a 1024-byte aligned base
    int bit = 0;
    std::string layout; // shared memory: "K-major, 128B swizzle"
    // A tile of tcgen05.mma atoms (lanemap/tile_ctas.hpp): the CTA counts over the cluster, the atom's place
    // in the atom layout and its CTA of the pair, CuTe's value index; first/count are unused (a permutation
    // scatters a CTA's rows).
    bool tile = false;
    int atomCta = 0, value = 0;
    std::array<int, 3> atom{};
};

struct WhereAnswer {
    Operand operand = Operand::A;
    int row = 0, col = 0;
    std::vector<Holding> holders;        // every holder (many where the operand is many-to-one)
    std::optional<SharedHolding> shared; // wgmma B
    std::vector<PairHolding> pair;       // tcgen05.mma: the CTA (of the pair) that holds it, and where
    // A tile of sparse tcgen05.mma atoms: A's stored column holds a kept element of K first..last (the
    // metadata says which).
    std::optional<std::pair<int, int>> keptOf;
};

struct WhatAnswer {
    int thread = 0;
    std::optional<int> reg;
    std::vector<Holding> held; // per operand, in element order
};

// What one CTA of a tcgen05.mma's group holds (what --cta): per operand, the rows (A, D) or columns (B) and
// where — D (and A placed there) in its Tensor Memory lanes and columns, A and B in its shared memory.
struct CtaPart {
    Operand operand = Operand::D;
    Space space = Space::TensorMemory;
    bool byColumns = false;  // B: the CTA holds columns first..last; A, D: rows
    int first = 0, last = 0; // of the whole operand
    int rows = 0, cols = 0;  // the CTA's part
    int laneLo = 0, laneHi = 0, columnLo = 0, columnHi = 0; // Tensor Memory
    std::uint32_t bytes = 0; // shared memory: the part's footprint from a 1024-byte aligned base
    std::string layout;      // shared memory: "K-major, 128B swizzle"
    // A tile of tcgen05.mma atoms: the rows (A, D) or columns (B) of the tile the CTA holds, as runs
    // [first, last] (a permutation scatters them); first/last span them.
    std::vector<std::pair<int, int>> runs;
};
struct CtaAnswer {
    int cta = 0, ctas = 1;
    std::vector<CtaPart> parts; // A, B, D
};

struct MetadataUse {
    int selector = 0;
    MetadataField field;
};

struct FeedsAnswer {
    int row = 0, col = 0;
    std::vector<Holding> d;            // the holders of D[row][col]
    std::vector<Holding> inputs;       // A (row `row`), B (column `col`), C (row, col), in operand order
    std::vector<SharedHolding> shared; // wgmma: B's column in shared memory
    std::vector<MetadataUse> metadata; // sparse: the fields of A's row, per selector
};

// Holders of one cell; nullopt with `error` naming what is wrong and what is valid.
std::optional<WhereAnswer> where(const Instruction& in, Operand operand, int row, int col,
                                 std::string& error);
// What thread `thread` holds (only register `reg` if set).
std::optional<WhatAnswer> what(const Instruction& in, int thread, std::optional<int> reg, std::string& error);
// What CTA `cta` of a tcgen05.mma's group holds (docs/reference/queries.md); nullopt with `error` naming
// what is valid (an instruction of one CTA's registers, a CTA outside the group).
std::optional<CtaAnswer> whatCta(const Instruction& in, int cta, std::string& error);
// What takes part in D[row][col] (selector: only that sparsity selector's metadata; all when unset).
std::optional<FeedsAnswer> feeds(const Instruction& in, int row, int col, std::optional<int> selector,
                                 std::string& error);

// How one operand of two instructions differs.
enum class Relation : std::uint8_t {
    Identical,           // every cell has the same holder
    RegisterPermutation, // same lanes, elements permuted inside each lane (no shuffles)
    LanePermutation,     // one lane mapping for every element: a single shuffle pattern (src lane per lane)
    Shuffle,             // lanes differ per element: several shuffles
    Incomparable         // different shapes, thread counts, or not one holder per cell
};
std::string_view toString(Relation relation);

struct OperandDiff {
    Operand operand = Operand::A;
    Relation relation = Relation::Identical;
    std::string reason; // Incomparable: why
    int cells = 0, differing = 0;
    struct Cell {
        int matrix = 0, row = 0, col = 0;
        int thread1 = 0, index1 = 0, thread2 = 0, index2 = 0;
    };
    std::vector<Cell> examples;             // the first differing cells
    std::vector<std::vector<int>> indexMap; // RegisterPermutation: [thread][index of 1] -> index in 2
    std::vector<int> sourceLane;            // LanePermutation: [thread of 2] -> thread of 1 holding its data
    int xorMask = -1;                       // LanePermutation that is __shfl_xor_sync(mask)
};

struct DiffAnswer {
    std::string spec1, spec2;
    std::vector<OperandDiff> operands;
};

// Operands both instructions hold in registers (only `operand` if set).
std::optional<DiffAnswer> diff(const Instruction& first, const Instruction& second,
                               std::optional<Operand> operand, std::string& error);

std::string toText(const Instruction& in, const WhereAnswer& answer);
std::string toText(const Instruction& in, const WhatAnswer& answer);
std::string toText(const Instruction& in, const CtaAnswer& answer);
std::string toText(const Instruction& in, const FeedsAnswer& answer);
std::string toText(const DiffAnswer& answer);
std::string toJson(const Instruction& in, const WhereAnswer& answer);
std::string toJson(const Instruction& in, const WhatAnswer& answer);
std::string toJson(const Instruction& in, const CtaAnswer& answer);
std::string toJson(const Instruction& in, const FeedsAnswer& answer);
std::string toJson(const DiffAnswer& answer);

} // namespace lanemap::query
