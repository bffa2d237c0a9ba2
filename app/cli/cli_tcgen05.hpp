#pragma once
// lanemap-cli show / export of a tcgen05.mma form, alone or composed with a tcgen05.ld (--ld) or tcgen05.st
// (--st) (cli_tcgen05.cpp; docs/reference/tcgen05.md).

#include <iosfwd>
#include <optional>
#include <string>

namespace lanemap {
struct Instruction;
}

namespace lanemap::cli {

// True when `spec` names a tcgen05.mma form (its view is not an instruction's register grid).
bool isTcgen05Mma(const std::string& spec);

// `format`: "txt" or "json"; `output` empty or "-": stdout. Exit 2 with a message naming what is valid for a
// bad spec, access or format, or an --ld/--st given with anything but a tcgen05.mma spec.
int cmdTcgen05(const std::string& spec, const std::string& ld, const std::string& st,
               const std::string& format, const std::string& output, std::ostream& out, std::ostream& err);

inline constexpr const char* kHalfSplitoffHelp =
    "tcgen05.ld/st .16x32bx2: immHalfSplitoff in 32-bit columns (default: the columns right after the first "
    "half, as CUTLASS passes)";

// `entry` as shown, or with --imm-half-splitoff its .16x32bx2 register fragment at that offset (kept in
// `storage`); nullptr after a message naming the valid range or the shapes that take it (exit 2).
const Instruction* withHalfSplitoff(const Instruction& entry, const std::optional<int>& split,
                                    Instruction& storage, std::ostream& err);

} // namespace lanemap::cli
