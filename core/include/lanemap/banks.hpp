#pragma once
// Shared-memory placement of the tile an ldmatrix / stmatrix reads or writes, and its bank conflicts
// (docs/reference/ldmatrix.md "Banks").
//
// The tile is the consumer's matrix (e.g. the A of an mma, rows x cols elements). Its lines — rows for
// row-major, columns for col-major — are contiguous; line l starts at start + l * (pitch + pad) bytes, then a
// swizzle permutes 16-byte chunks: a CuTe Swizzle<B,M,S> on element offsets (CuTe's convention for a tile of
// the instruction's element type) or a wgmma/TMA mode (32B, 64B, 128B: Swizzle<1|2|3,4,3> on byte
// addresses). Matrix q of the instruction covers block q of the tile, blocks numbered down the columns
// (the mma A order: rows 0-7 x cols 0-7, rows 8-15 x cols 0-7, rows 0-7 x cols 8-15, ...); the memory
// rows of a matrix are lines of the tile.
//
// Banks: 32 banks of 4 bytes; a 16-byte chunk covers the four banks 4k..4k+3, k = (address >> 4) & 7. One
// shared-memory phase serves the addresses of eight consecutive threads (one 8x16-byte matrix for
// .m8n8): distinct chunks in the same bank group are serialized, the same chunk is broadcast. Wavefronts of a
// phase = its conflict degree (ideal 1), in Nsight Compute's words "L1 Wavefronts Shared" vs "Ideal", the
// difference "L1 Wavefronts Shared Excessive".

#include "lanemap/matrix_move.hpp"
#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::banks {

enum class TileMajor : std::uint8_t { Row, Col };

// CuTe Swizzle<B,M,S>: offset ^ ((offset >> S) & (((1 << B) - 1) << M)), on element offsets.
struct CuteSwizzle {
    int b = 0, m = 0, s = 0;
    bool operator==(const CuteSwizzle&) const = default;
};

struct Placement {
    TileMajor major = TileMajor::Row;
    int pitchBytes = 0; // bytes of one line's data; 0: the tile's own line (cols x element bytes)
    int padBytes = 0;   // bytes after each line
    std::optional<CuteSwizzle> cute;
    smem::Swizzle mode = smem::Swizzle::None; // 32B/64B/128B (not together with `cute`)
    std::uint32_t start = 0;                  // byte address of the tile's first element
    int tileRows = 0, tileCols = 0; // 0: the instruction's default tile (x4: 16x16, x2: 16x8, x1: 8x8)

    bool operator==(const Placement&) const = default;
};

// Parses `--smem` text: comma-separated `row-major` | `col-major`, `pitch=BYTES`, `pad=BYTES`,
// `swizzle=B,M,S` (or `swizzle=<B,M,S>`), `mode=none|32B|64B|128B`, `start=BYTES` (decimal or 0x hex),
// `tile=RxC`. Returns nullopt and sets `error` naming the bad part and what is valid.
std::optional<Placement> parsePlacement(std::string_view text, std::string& error);
// "row-major, pitch 64 B, pad 0 B, Swizzle<3,3,3>, start 0x0, tile 16x16"
std::string describe(const Placement& placement);

// One 16-byte matrix row as the instruction touches it.
struct RowAccess {
    int thread = 0;
    int matrix = 0;
    int row = 0;
    int tileRow = 0, tileCol = 0; // consumer coordinates of the row's first element
    std::uint32_t linear = 0;     // before the swizzle
    std::uint32_t address = 0;    // after the swizzle
    int bankGroup = 0;            // (address >> 4) & 7: banks 4k..4k+3
    int wavefront = 0;            // 0-based wavefront of its phase this chunk is served in
};

struct Phase {
    int index = 0;
    std::vector<RowAccess> rows; // the phase's threads, in thread order
    int degree = 1;              // wavefronts: the most distinct chunks in one bank group
};

// One phase of accesses of `bytes` each (4, 8 or 16; every address a multiple of it), as the hardware serves
// it: a `bytes`-wide access covers the bytes / 4 banks of its bank group, (address % 128) / bytes; accesses
// of one group at distinct addresses are served in successive wavefronts, the same address once (a
// broadcast). Sets each access's bankGroup and wavefront (0-based, in the order given) and the phase's
// degree: the most distinct addresses in one group. 16 bytes is the ldmatrix row rule above.
Phase countPhase(int index, std::vector<RowAccess> accesses, int bytes);

struct Analysis {
    Placement placement; // with the defaults filled in
    int elementBits = 16;
    std::vector<Phase> phases;
    int idealWavefronts = 0;
    int wavefronts = 0;
    int excessive() const { return wavefronts - idealWavefronts; }
    std::uint32_t footprintBytes = 0; // start to the end of the last line
};

// Whether bank analysis applies to a variant: a matrix move whose rows are addressed in shared memory
// (ldmatrix, stmatrix; not movmatrix).
bool applies(const Variant& variant);

// Checks the placement against the instruction (16-byte aligned rows, a tile holding every matrix, a
// swizzle that keeps 16-byte chunks whole, the 228 KiB of shared memory). Returns nullopt and sets `error`.
std::optional<Analysis> analyze(const Variant& variant, const Placement& placement, std::string& error);

// The tile an analysis placed (its defaults filled in) as a placement into shared memory: element (row, col)
// of the tile at the byte its line, pitch, pad, start and swizzle give (lanemap/feeds.hpp compares it with
// what a TMA box wrote).
lanemap::Placement tilePlacement(const Variant& variant, const Analysis& analysis);

// The byte address of `linear` (start + line * (pitch + pad) + byte in line) after the placement's swizzle:
// a CuTe Swizzle<B,M,S> on element offsets of `elementBytes`, or a mode on byte addresses.
std::uint32_t swizzledAddress(const Placement& placement, std::uint32_t linear, int elementBytes);

// The candidates the search tries: no swizzle with pads 0..128 B in 16 B steps, every mode, and every CuTe
// swizzle that moves whole 16-byte chunks (B 1..3, M = log2(16 / element bytes), S B..7 + M - 3).
std::vector<Placement> candidates(const Variant& variant, const Placement& base);
// The same for a tile of `elementBytes` elements, with pads 0..128 B in steps of `padStep` (a 4-byte load can
// use a 4-byte pad).
std::vector<Placement> candidates(int elementBytes, const Placement& base, int padStep = 16);

struct SearchResult {
    Placement placement;
    int wavefronts = 0;
    int idealWavefronts = 0;
};
// Every candidate that fits, conflict-free first (in candidate order), then the rest by wavefronts.
std::vector<SearchResult> search(const Variant& variant, const Placement& base);
// The candidate the search recommends: conflict-free, no padding (no memory wasted) and the smallest
// swizzle; a padded one only when no swizzle is conflict-free. nullopt when none is conflict-free.
std::optional<Placement> recommend(const Variant& variant, const Placement& base);

// The per-phase table (text).
std::string toText(const Variant& variant, const Analysis& analysis);
struct FeedCheck;
// The "banks" JSON object; with `feed`, its "feeds" object too (docs/reference/ldmatrix.md).
std::string toJson(const Variant& variant, const Analysis& analysis, const FeedCheck* feed = nullptr);

// --- feeding an mma ----------------------------------------------------------------------------------

struct FeedCell {
    int thread = 0;
    int index = 0;                      // element index of the fragment (two b16 per register)
    int reg = 0, bitLo = 0, bitHi = 0;  // where the element sits in the thread's registers
    int loadedRow = -1, loadedCol = -1; // what the move puts there (tile coordinates)
    int wantedRow = -1, wantedCol = -1; // what the consumer's fragment holds there
    bool matches() const { return loadedRow == wantedRow && loadedCol == wantedCol; }
};

struct FeedCheck {
    std::string consumer; // "mma.m16n8k16.f16:A"
    Operand operand = Operand::A;
    int rows = 0, cols = 0;      // the operand's matrix (the tile)
    std::vector<FeedCell> cells; // every register slot, thread-major
    int mismatches = 0;
    std::vector<RowAccess> addresses; // which address each thread must supply
};

// Checks that the move's registers are exactly `operand` of `consumer` (ldmatrix: A or B; stmatrix: C or D)
// under the placement's orientation. Returns nullopt and sets `error` when they cannot be compared (other
// element width, other register count, not a register operand).
std::optional<FeedCheck> checkFeed(const Variant& move, const Instruction& consumer, Operand operand,
                                   const Placement& placement, std::string& error);
std::string toText(const Variant& move, const FeedCheck& check);

} // namespace lanemap::banks
