#pragma once
// The tcgen05 flags of lanemap-cli show / export (docs/reference/tcgen05.md): a tcgen05.mma view's block scale
// (--scale-vec, --sfa-id, --sfb-id), read into the selection's parameters once the spec's kind is known, and
// the register-view options a Tensor Memory view refuses by name.

#include "cli_numbers.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {
struct Selection;
}

namespace lanemap::cli {

// --scale-vec, --sfa-id, --sfb-id: the block scale of a block-scaled tcgen05.mma view (its scale-factor
// panels and JSON); unset: the kind's default (tcgen05::defaultBlockScale), IDs 0.
struct Tcgen05Scale {
    std::string vec;
    std::optional<int> sfaId, sfbId;
    bool given() const { return !vec.empty() || sfaId || sfbId; }
};
inline constexpr const char* kScaleVecHelp =
    "tcgen05.mma block-scaled kinds: the scale vector size, 1X, 2X, 4X, block32 or block16 (default: the "
    "kind's widest, 4X for mxf4nvf4; docs/reference/tcgen05.md)";
inline constexpr const char* kSfaIdHelp =
    "tcgen05.mma block-scaled kinds: the scale factor A ID (1X: 0-3, 2X: 0 or 2, 4X: 0; default 0)";
inline constexpr const char* kSfbIdHelp =
    "tcgen05.mma block-scaled kinds: the scale factor B ID (1X: 0-3, 2X: 0 or 2, 4X: 0; default 0)";
inline constexpr const char* kHalfSplitoffHelp =
    "tcgen05.ld/st .16x32bx2: immHalfSplitoff in 32-bit columns (default: the columns right after the first "
    "half, as CUTLASS passes)";

// Puts the flags' block scale into `selection` (with the vector size a pasted spec named): "" or what is
// wrong and what is valid.
std::string applyTcgen05Scale(Selection& selection, const Tcgen05Scale& scale);

// A tcgen05.mma view draws D (or A, with --st) in Tensor Memory, never a register operand's grid: the options
// of those grids (`given`: "--operand", "--lanes", ... as typed) would be ignored and the view would show
// something else than was asked. "" when `given` is empty; else what was given and what a view takes
// (`exporting`: export's, which add --palette and --gzip).
std::string refusedByTensorMemory(const std::vector<std::string_view>& given, bool exporting);

} // namespace lanemap::cli
