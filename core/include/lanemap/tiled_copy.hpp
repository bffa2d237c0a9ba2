#pragma once
// A tiled copy (docs/tiles.md#tiled-copy): the ldmatrix instructions that load a tiled MMA's A or B from one
// shared-memory tile into the registers the tile's threads hold them in, as CuTe's make_tiled_copy_A/B with
// an LDSM atom partitions it. Each warp loads its own fragment of the operand (lanemap/tile.hpp), `num`
// registers per ldmatrix in the fragment's register order: instruction j of a warp fills its registers
// j*num .. j*num+num-1, matrix q of it the 8x8 block register j*num+q of the fragment holds (the atom's
// blocks numbered down the columns, then the rest modes in CuTe's value order), each thread supplying one
// memory row of it. What the check proves is the element each register slot then holds: the one the tiled
// MMA wants there, or the first slot that is not. The bank conflicts are those of every instruction of the
// tile, per phase of eight row addresses, under one placement of the whole operand tile (--smem, lanemap/
// banks.hpp): the operand tile (A: M x K, B: K x N of the tile) row- or col-major, its pitch, pad and
// swizzle.
//
// A plain vectorized load (CuTe's Copy_Atom<UniversalCopy<uint32_t|uint64_t|uint128_t>, T> partitioned by
// make_tiled_copy_A/B) is the other copy: each thread loads the elements its own fragment holds, `bytes` / 4
// consecutive registers per ld.shared (instruction j of a thread fills registers j*n .. j*n+n-1, CuTe's value
// order), which is possible only where those elements are contiguous in shared memory and aligned to the
// access. Its phases are the hardware's for that width: 32 threads for 4 bytes, 16 for 8, 8 for 16.

#include "lanemap/banks.hpp"
#include "lanemap/model.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::tiled_copy {

// One register slot of one thread after its warp's copy instructions.
struct Slot {
    int thread = 0;                     // CTA thread
    int instruction = 0;                // j: the warp's j-th ldmatrix
    int reg = 0, bitLo = 0;             // the tile fragment's register and the element's bits in it
    int index = 0;                      // the tile's value index there
    int loadedRow = -1, loadedCol = -1; // the element of the operand tile the copy puts there
    int wantedRow = -1, wantedCol = -1; // the element the tiled MMA holds there
    bool matches() const { return loadedRow == wantedRow && loadedCol == wantedCol; }
};

// ld.shared.b32, ld.shared.v2.b32, ld.shared.v4.b32: 4, 8 or 16 bytes per thread.
struct SharedLoad {
    int bytes = 4;
    int registers() const { return bytes / 4; }
    bool operator==(const SharedLoad&) const = default;
};
// Every plain load lanemap models, narrowest first: what a picker offers and what the parser accepts.
inline constexpr SharedLoad kSharedLoads[] = {{4}, {8}, {16}};
// Whether `text` names a plain shared-memory load (starts with "ld.shared"), for an edge to dispatch on.
bool isSharedLoad(std::string_view text);
// Parses "ld.shared.b32", "ld.shared.v2.b32", "ld.shared.v4.b32"; nullopt with `error` naming the text and
// the valid spellings.
std::optional<SharedLoad> parseSharedLoad(std::string_view text, std::string& error);
std::string toString(SharedLoad load); // "ld.shared.v2.b32"

// One copy instruction of one warp: its addresses in phases (ldmatrix: eight row addresses; ld.shared: 128 /
// bytes threads), with their bank groups and wavefronts. For ld.shared, RowAccess::matrix is the first
// register of the thread's vector and RowAccess::row is 0.
struct Copy {
    int warp = 0;        // CTA warp
    int instruction = 0; // j
    std::vector<banks::Phase> phases;
    int wavefronts = 0, idealWavefronts = 0;
};

struct Result {
    bool store = false;      // stmatrix: the registers drained into shared memory (loaded* is where they go)
    bool sharedLoad = false; // ld.shared: one thread's own vector per access, not an 8x8 matrix's rows
    int accessBytes = 16;    // bytes one thread's address covers (an ldmatrix row: 16)
    int elementBits = 16;
    std::string move;     // "ldmatrix.m8n8.x4.b16"
    std::string consumer; // "mma.m16n8k16.f16 tile 32x32x16 (atom layout (2,2,1), ...):A"
    Operand operand = Operand::A;
    banks::Placement placement; // of the whole operand tile, the defaults filled in
    int rows = 0, cols = 0;     // the operand tile
    int warps = 0, perWarp = 0; // copy instructions: per warp
    std::vector<Copy> copies;   // warp-major
    std::vector<Slot> slots;    // thread-major, register order
    int mismatches = 0;
    int wavefronts = 0, idealWavefronts = 0;
    int excessive() const { return wavefronts - idealWavefronts; }
    int worstDegree() const; // the largest conflict degree of any phase
    const Slot* firstMismatch() const;
};

// The copy of `operand` (A or B) of `tile` (a tiled MMA of mma atoms, Instruction::tile) by `move` (an
// ldmatrix of 8x8 b16 matrices, .trans or not) from `placement` (its tile defaults to the operand's); or with
// an stmatrix, C or D (16-bit accumulators) stored to it, the same rule backwards: a slot matches where the
// element it holds is stored at its own place in the tile. nullopt
// with `error` naming what does not fit: no tile, wgmma, another element width, a fragment whose registers
// are no multiple of the move's, a placement banks::analyze refuses, a permutation that splits a matrix row
// (its 8 elements not consecutive along the tile's line).
std::optional<Result> analyze(const Variant& move, const Instruction& tile, Operand operand,
                              const banks::Placement& placement, std::string& error);

// The copy of `operand` (A or B) of `tile` (a tiled MMA of mma atoms) by plain `load`s from `placement`:
// every register slot loaded from the address its vector starts at plus its offset, checked element by
// element against the tiled MMA. nullopt with `error` where the load cannot do it, naming the first thread,
// its registers and why — not contiguous in shared memory, contiguous but moved apart by the swizzle, or not
// aligned to the access — and the widest ld.shared that works there (or that none does); or where the tile
// does not fit (no tile, wgmma, sparse chunks, a placement that does not hold the operand).
std::optional<Result> analyze(SharedLoad load, const Instruction& tile, Operand operand,
                              const banks::Placement& placement, std::string& error);
std::vector<banks::SearchResult> search(SharedLoad load, const Instruction& tile, Operand operand,
                                        const banks::Placement& placement);

// banks::candidates of the whole operand tile tried for the whole copy: conflict-free first (candidate
// order), then by wavefronts. Placements that do not fit are left out.
std::vector<banks::SearchResult> search(const Variant& move, const Instruction& tile, Operand operand,
                                        const banks::Placement& placement);

// Text: the verdict (every slot, or the first wrong one), the instructions and their conflicts, totals.
std::string toText(const Result& result);
// JSON: docs/tiles.md#tiled-copy.
std::string toJson(const Result& result);

} // namespace lanemap::tiled_copy
