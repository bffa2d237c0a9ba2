#pragma once
// A layout no catalog variant has: m16n8k16 .f16 with C's rows rotated by one, (row + 1) mod 16, which is no
// affine map over F2. Its CUDA header must fall back to tables and still match every cell.

#include "lanemap/catalog.hpp"

namespace lanemap::test {

inline constexpr const char* kNonAffineSpec = "synthetic.rotated-c";

inline Cell rotatedC(const Lane& l, int i, int) {
    return {(l.groupID + 8 * (i >> 1) + 1) % 16, 2 * l.threadID_in_group + (i & 1)};
}

inline Instruction nonAffineInstruction() {
    Instruction in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    in.spec = kNonAffineSpec;
    in.operands[2] = FragmentLayout::build(Operand::C, ElementType::F32, 32, 32, {16, 8, 1, 4, 32, 1},
                                           rotatedC, 8, Source::Doc);
    return in;
}

} // namespace lanemap::test
