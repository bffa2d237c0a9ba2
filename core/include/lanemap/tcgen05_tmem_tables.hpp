#pragma once
// Where tcgen05.mma reads its block-scale factors and its sparse metadata in Tensor Memory, as declarative
// tables and pure functions: each answer is a (TMEM lane, 32-bit column, bit range) relative to the TMEM
// address the instruction is given ([scale-A-tmem], [scale-B-tmem], [sp-meta-tmem]). A diagram places these
// over the Tensor Memory panel; nothing here draws.
//
// Sources (docs/reference/tcgen05-descriptors.md#block-scale-factors-in-tensor-memory): the PTX ISA text of
// §9.7.16.10.7 "Block Scaling" (kinds per vector size in .7.1; scale factors duplicated to all four 32-lane
// subpartitions; the scale-factor ID is the byte (1X), half-word (2X) or word (4X) offset in the TMEM word,
// Figures 231-233 for A, 240-242 for B) and §9.7.16.10.8 "Sparse Matrices" (granularity, the selector rules,
// Figures 262-267 for the metadata). The ISA gives the row -> (lane, column) maps only as figures; the lanes,
// columns and bits here are CUTLASS 4.x's (cute/atom/mma_traits_sm100_frag.hpp: tmem_sf_frg, tmem_e_frg),
// each record naming its figure and its CUTLASS atom. None of it is confirmed on hardware.

#include "lanemap/tcgen05_desc.hpp"
#include "lanemap/vocabulary.hpp"

#include <optional>
#include <string>
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

// --- block-scale factors (§9.7.16.10.7, Tables 54 and 55) --------------------------------------------------

enum class ScaleVec : std::uint8_t { X1, X2, X4 };
std::string_view toString(ScaleVec vec); // "scale_vec::1X", ...
// Accepts 1X / scale_vec::1X (any case) and the aliases block32 (with the kind: 1X for mxf8f6f4, 2X
// otherwise) and block16 (4X).
std::optional<ScaleVec> parseScaleVec(std::string_view text, Kind kind);
// The same vector sizes as a parsed spec's Form carries them (lanemap::ScaleVec, vocabulary.hpp): X1, X2,
// X4 each way; a Form's None or Default (no size named) is nullopt.
std::optional<ScaleVec> fromForm(lanemap::ScaleVec typed);
lanemap::ScaleVec toForm(ScaleVec vec);

// One vector size as §9.7.16.10.7.2.x / .3.x state it: one line per figure pair (A and B).
struct ScaleVecRule {
    ScaleVec vec;
    int factorsPerRow;       // scale factors per row of A (per column of B) in one MMA: 1, 2, 4
    int blockSize;           // elements of K one factor scales: 32, 32, 16
    std::vector<int> ids;    // valid scale-factor IDs: the byte offsets a factor group may start at
    std::vector<Kind> kinds; // the kinds that take this vector size (§9.7.16.10.7.1)
    std::string_view idRule; // the ISA's rule for the ID: "the ID is the byte offset in the TMEM word", ...
    std::string_view figureA, figureB; // "Figure 231", "Figure 240"
    std::string_view section;          // "9.7.16.10.7.2.1" (A; B is .3.x)
};
const std::vector<ScaleVecRule>& scaleVecRules();
const ScaleVecRule& ruleOf(ScaleVec vec);
// The vector sizes a kind takes (§9.7.16.10.7.1), smallest first; empty for a kind without block scaling.
std::vector<ScaleVec> scaleVecsOf(Kind kind);

// The scale-factor choice of one MMA: its vector size (.scale_vec::NX / .blockN) and the two IDs of its
// instruction descriptor ("matrix A/B scale factor data ID", tcgen05_desc.hpp).
struct BlockScale {
    ScaleVec vec = ScaleVec::X1;
    int sfaId = 0;
    int sfbId = 0;
    bool operator==(const BlockScale&) const = default;
};
// The kind's widest vector size (mxf4nvf4: 4X, the one tmem::ptxOf names, as ptxas requires a size for it),
// IDs 0; nullopt for a kind without block scaling.
std::optional<BlockScale> defaultBlockScale(Kind kind);
// "" when `kind` takes `scale`, else what is wrong with the valid values ("... valid: 0, 2").
std::string validate(Kind kind, const BlockScale& scale);
// "0, 1, 2, 3": a rule's valid IDs as a user reads them.
std::string describeIds(const ScaleVecRule& rule);

// Where factor `factor` (0 .. factorsPerRow-1) of row `index` of A (`operand` A or B) (index = m, 0..127:
// each CTA's 128 rows) or column `index` of B (index = n, 0..255) sits, for one MMA: one place per 32-lane
// subpartition (the ISA duplicates scale factors into all four), lane index % 32 + 32 s, column index / 32,
// byte id + factor. B is the 4x1-datapath form (cta_group::1, and cta_group::2 with M = 256); the 2x2
// datapath of cta_group::2 M = 128 is not covered (scaleFactorFinding). Throws std::invalid_argument naming
// the bad input (kind/vector size, ID, index, factor).
std::vector<TmemPlace> scaleFactorPlaces(Kind kind, ScaleVec vec, int scaleFactorId, Operand operand,
                                         int index, int factor);
// Why B's (or A's) scale factors of an MMA with M and cta_group cannot be drawn, "" when they can.
std::string scaleFactorFinding(Operand operand, int m, int ctaGroup);
// How many rows of scale factors one CTA holds: A's, one per row m of the CTA (at most 128); B's, one per
// column n.
int scaleFactorRows(Operand operand, int m, int n, int ctaGroup);
// How every table here is qualified: none of its placements has run on a Blackwell GPU.
inline constexpr std::string_view kNotOnHardware = "not confirmed on hardware (needs sm_100a)";

// --- sparse metadata (§9.7.16.10.8) ------------------------------------------------------------------------

// Bits of metadata per group of A elements: tf32 1:2 (4 bits per 2 elements), f16/f8f6f4/mxf8f6f4/i8 2:4 (4
// bits per 4), mxf4/mxf4nvf4 4:8 in pairs (4 bits per 8).
struct SparseGranularity {
    int nonZero, group; // 1:2, 2:4, 4:8
    int metadataBits;   // per group: 4
};
SparseGranularity sparseGranularity(Kind kind);

// One of the ISA's sparsity-metadata figures (§9.7.16.10.8.4.x): the kinds and instruction M it draws, and
// where group g of row m lands. `place` is nullptr where lanemap has not transcribed the figure (the finding
// says why, and the diagram shows it instead of a guess).
struct MetadataLayoutRecord {
    std::vector<Kind> kinds;
    std::vector<int> ms;                    // the instruction's M this figure covers (64; 128 and 256)
    std::string_view section;               // "9.7.16.10.8.4.2"
    std::string_view figure;                // "Figure 263"
    std::string_view selector;              // what the ISA says of the sparsity selector for these kinds
    std::string_view cutlass;               // the CUTLASS atom the placement is read from ("" when none)
    std::string_view finding;               // an ambiguity or why it is not drawn
    TmemPlace (*place)(int row, int group); // row of the CTA's rows, group of the row; nullptr: not drawn
};
const std::vector<MetadataLayoutRecord>& metadataLayoutRecords();
// The record for an .sp MMA; nullptr when the ISA has no figure for it (`why` says so: M = 32, or
// cta_group::2 with M = 128, whose 64 rows per CTA no figure names).
const MetadataLayoutRecord* metadataLayoutOf(Kind kind, int m, int ctaGroup, std::string* why = nullptr);
// Groups of metadata per row of one MMA: K / group (8 for f16 and tf32, 16 for the 8- and 4-bit kinds).
int metadataGroupsPerRow(Kind kind);

// The metadata nibble of group `group` (K elements group*g .. group*g+g-1 of the uncompressed row) of row m
// of a CTA's rows, for an MMA of `kind` with instruction M `m` and `ctaGroup`. Throws std::invalid_argument
// naming the bad input, or the finding when the figure is not transcribed.
TmemPlace sparseMetadataPlace(Kind kind, int mmaM, int ctaGroup, int row, int group);
// M = 128, cta_group::1 (the form the first table covered).
TmemPlace sparseMetadataPlace(Kind kind, int row, int group);

} // namespace lanemap::tcgen05
