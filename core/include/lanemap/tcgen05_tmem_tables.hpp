#pragma once
// Where tcgen05.mma reads its block-scale factors and its sparse metadata in Tensor Memory, as declarative
// tables and pure functions: each answer is a (TMEM lane, 32-bit column, bit range) relative to the TMEM
// address the instruction is given ([scale-A-tmem], [scale-B-tmem], [sp-meta-tmem]). A diagram places these
// over the Tensor Memory panel; nothing here draws.
//
// Sources (docs/reference/tcgen05-descriptors.md#block-scale-factors-in-tensor-memory): the PTX ISA 9.1 text
// of §9.7.16.10.7 (scale factors duplicated to all four 32-lane subpartitions; the scale-factor ID is the
// byte (1X), half-word (2X) or word (4X) offset in the TMEM word) and §9.7.16.10.8 (metadata granularity);
// the row -> (lane, column) map and the metadata order are CUTLASS's (cute/atom/mma_traits_sm100_frag.hpp:
// tmem_sf_frg with the 4x1 datapath, tmem_e_frg for 8-bit kinds), since the ISA gives them only as figures.
// None of it is confirmed on hardware.

#include "lanemap/tcgen05_desc.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace lanemap::tcgen05 {

// One part of a Tensor Memory cell: bits [lowBit, lowBit + bits) of the 32-bit cell at (lane, column).
struct TmemPlace {
    int lane = 0;
    int column = 0;
    int lowBit = 0;
    int bits = 32;
    bool operator==(const TmemPlace&) const = default;
};

// --- block-scale factors (Tables 56, 57) -------------------------------------------------------------------

enum class ScaleVec : std::uint8_t { X1, X2, X4 };
std::string_view toString(ScaleVec vec); // "scale_vec::1X", ...
// Accepts 1X / scale_vec::1X (any case) and the aliases block32 (with the kind: 1X for mxf8f6f4, 2X
// otherwise) and block16 (4X).
std::optional<ScaleVec> parseScaleVec(std::string_view text, Kind kind);

struct ScaleVecRule {
    ScaleVec vec;
    int factorsPerRow;       // scale factors per row of A (per column of B) in one MMA: 1, 2, 4
    int blockSize;           // elements of K one factor scales: 32, 32, 16
    std::vector<int> ids;    // valid scale-factor IDs: the byte offsets a factor group may start at
    std::vector<Kind> kinds; // the kinds that take this vector size (Table 57)
};
const std::vector<ScaleVecRule>& scaleVecRules();

enum class ScaleOperand : std::uint8_t { A, B };

// Where factor `factor` (0 .. factorsPerRow-1) of row `index` of A (index = m, 0..127: each CTA's 128 rows)
// or column `index` of B (index = n, 0..255) sits, for one MMA: one place per 32-lane subpartition (the ISA
// duplicates scale factors into all four), lane index % 32 + 32 s, column index / 32, byte id + factor. B is
// the 4x1-datapath form (cta_group::1, and cta_group::2 with M = 256); the 2x2 datapath of cta_group::2 M =
// 128 is not covered. Throws std::invalid_argument naming the bad input (kind/vector size, ID, index,
// factor).
std::vector<TmemPlace> scaleFactorPlaces(Kind kind, ScaleVec vec, int scaleFactorId, ScaleOperand operand,
                                         int index, int factor);

// --- sparse metadata (§9.7.16.10.8) ------------------------------------------------------------------------

// Bits of metadata per group of A elements: tf32 1:2 (4 bits per 2 elements), f16/f8f6f4/mxf8f6f4/i8 2:4 (4
// bits per 4), mxf4/mxf4nvf4 4:8 in pairs (4 bits per 8).
struct SparseGranularity {
    int nonZero, group; // 1:2, 2:4, 4:8
    int metadataBits;   // per group: 4
};
SparseGranularity sparseGranularity(Kind kind);

// The metadata nibble of group `group` (K elements group*g .. group*g+g-1 of the uncompressed row) of row m
// of A, for kind::f8f6f4 / i8 / mxf8f6f4 with M = 128 (CUTLASS tmem_e_frg, 8-bit: one row per lane, the row's
// nibbles in order along the columns: lane m, column group / 8, bits 4 (group % 8)). Other kinds and M are
// not covered: throws std::invalid_argument saying so, as for a row or group outside the MMA.
TmemPlace sparseMetadataPlace(Kind kind, int m, int group);

} // namespace lanemap::tcgen05
