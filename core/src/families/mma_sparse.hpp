#pragma once
// The sparse mma.sp metadata figures (PTX 9.1 §9.7.14.6.2, ptx-catalog.md §4.3) as data, shared with sparse
// wgmma, whose metadata the ISA draws with the same images ("each warp provides sparsity information for
// 16 rows of matrix A").

#include "family.hpp"

#include "lanemap/sparse.hpp"

#include <optional>
#include <vector>

namespace lanemap::family::mmasp {

// The chunk that field j (bits [4j+3 : 4j]) of lane l's metadata word describes under sparsity selector F:
// {row, first column}; nullopt when the lane supplies no metadata under F.
using MetadataPlaceFn = std::optional<Cell> (*)(const Lane& l, int j, int F);

// One reading of a metadata figure. Where the mapping is resolved a figure has exactly one.
struct MetadataReading {
    const char* name;
    const char* description;
    MetadataPlaceFn place;
};

struct MetadataFigure {
    const char* figures;        // "Fig. 119"
    std::vector<int> selectors; // valid sparsity selector values F
    const char* lanes;          // which lanes supply metadata, in words
    Source source;              // of every field: figure ([EMP]/[CUTLASS]) or inferred ([INF])
    const char* evidence;       // where the mapping comes from
    std::vector<MetadataReading> readings;
    std::size_t primary = 0;    // the reading shown as `selectors`; the others become candidates
};

// clang-format off
extern const MetadataFigure kMeta16n8k16_f16;  // Fig. 119, one lane per quad
extern const MetadataFigure kMeta16n8k32_f16;  // Fig. 122, thread pair
extern const MetadataFigure kMeta16n8k8_tf32;  // Fig. 127, one lane per quad
extern const MetadataFigure kMeta16n8k16_tf32; // Fig. 125, thread pair
extern const MetadataFigure kMeta16n8k32_i8;   // Fig. 129, thread pair — UNRESOLVED
extern const MetadataFigure kMeta16n8k64_8bit; // Figs. 136/137, all four lanes
extern const MetadataFigure kMeta16n8k64_i4;   // Fig. 139, thread pair — UNRESOLVED
extern const MetadataFigure kMeta16n8k128_i4;  // Figs. 146/147, all four lanes (u4/s4: inferred)
extern const MetadataFigure kMeta16n8k128_e2m1;// Figs. 146/147, all four lanes (mxf4: CUTLASS)
// clang-format on

// The metadata operand of a sparse instruction: fields for every selector value of the figure's primary
// reading, plus every reading as a candidate where there is more than one. `warps` > 1 stacks the figure
// per warp (warp w covers rows 16w..16w+15), as sparse wgmma does; `k` is the width of A.
MetadataLayout buildMetadata(const MetadataFigure& figure, const sparse::StorageRule& rule, bool ordered, int k,
                             int warps = 1);

} // namespace lanemap::family::mmasp
