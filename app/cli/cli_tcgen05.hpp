#pragma once
// lanemap-cli show / export of a tcgen05.mma form, alone or composed with a tcgen05.ld (--ld) or tcgen05.st
// (--st) (cli_tcgen05.cpp; docs/reference/tcgen05.md).

#include "cli_numbers.hpp"
#include "lanemap/diagram.hpp"

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {
struct Instruction;
}

namespace lanemap::cli {

// True when `spec` names a tcgen05.mma form (its view is not an instruction's register grid).
bool isTcgen05Mma(const std::string& spec);

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

// How an export is written: the SVG's palette, and gzip (any format).
struct Tcgen05Writing {
    Palette palette = Palette::Default;
    bool gzip = false;
};

// `format`: "txt", "json" or "svg"; `output` empty or "-": stdout. Exit 2 with a message naming what is
// valid for a bad spec, access, format, vector size or ID, or an --ld/--st/--scale-vec/--sfa-id/--sfb-id
// given with anything but a tcgen05.mma spec.
int cmdTcgen05(const std::string& spec, const std::string& ld, const std::string& st,
               const std::string& format, const std::string& output, std::ostream& out, std::ostream& err,
               const Tcgen05Scale& scale = {}, const Tcgen05Writing& writing = {});

// A tcgen05.mma view draws D (or A, with --st) in Tensor Memory, never a register operand's grid: the options
// of those grids (`given`: "--operand", "--lanes", ... as typed) would be ignored and the view would show
// something else than was asked. False when `given` is empty; else true after a message (exit 2) naming them
// and the options a view takes (`exporting`: export's, which add --palette and --gzip).
bool refusedByTensorMemory(const std::vector<std::string_view>& given, bool exporting, std::ostream& err);

inline constexpr const char* kHalfSplitoffHelp =
    "tcgen05.ld/st .16x32bx2: immHalfSplitoff in 32-bit columns (default: the columns right after the first "
    "half, as CUTLASS passes)";

// `entry` as shown, or with --imm-half-splitoff its .16x32bx2 register fragment at that offset (kept in
// `storage`); nullptr after a message naming the valid range or the shapes that take it (exit 2).
const Instruction* withHalfSplitoff(const Instruction& entry, const std::optional<Number>& split,
                                    Instruction& storage, std::ostream& err);

} // namespace lanemap::cli
