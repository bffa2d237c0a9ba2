#pragma once
// tcgen05.ld / tcgen05.st .16x32bx2 with an explicit immHalfSplitoff (docs/reference/tcgen05.md): the catalog
// shows the offset CUTLASS passes (the second half right after the first); `show`/`export
// --imm-half-splitoff N` draw another.
#include "lanemap/model.hpp"

#include <string>

namespace lanemap::tmem {

// `entry` (a .16x32bx2 tcgen05.ld or tcgen05.st) with its register fragment at immHalfSplitoff = `split`
// 32-bit columns. False with `error` naming the valid range, or the shapes that take the offset.
bool withHalfSplitoff(const Instruction& entry, int split, Instruction& out, std::string& error);
// "" when `split` is a valid immHalfSplitoff of `entry`, else what is wrong and what is valid.
std::string checkHalfSplit(const Instruction& entry, int split);
// Replaces the register fragment of `instruction` by the one at immHalfSplitoff `split` (checked first).
void applyHalfSplit(Instruction& instruction, int split);

} // namespace lanemap::tmem
