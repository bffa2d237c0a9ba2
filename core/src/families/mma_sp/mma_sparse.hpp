#pragma once
// The sparse mma.sp metadata figures (PTX 9.1 §9.7.14.6.2) as data, shared with sparse wgmma, whose metadata
// the ISA draws with the same images ("each warp provides sparsity information for 16 rows of matrix A").

#include "families/atom/atom.hpp"

namespace lanemap::family::mmasp {

// clang-format off
extern const MetadataFigure kMeta16n8k16_f16;   // Fig. 119, one lane per quad
extern const MetadataFigure kMeta16n8k32_f16;   // Fig. 122, thread pair
extern const MetadataFigure kMeta16n8k8_tf32;   // Fig. 127, one lane per quad
extern const MetadataFigure kMeta16n8k16_tf32;  // Fig. 125, thread pair
extern const MetadataFigure kMeta16n8k32_i8;    // Fig. 129, thread pair — two readings
extern const MetadataFigure kMeta16n8k64_8bit;  // Figs. 136/137, all four lanes
extern const MetadataFigure kMeta16n8k64_i4;    // Fig. 139, thread pair — two readings
extern const MetadataFigure kMeta16n8k128_i4;   // Figs. 146/147, all four lanes (u4/s4: inferred)
extern const MetadataFigure kMeta16n8k128_e2m1; // Figs. 146/147, all four lanes (mxf4: CUTLASS)
// clang-format on

} // namespace lanemap::family::mmasp
