#pragma once
// The negative controls of the GPU product check: headers of layouts no instruction has, which must not
// reproduce the product, so that a check which cannot fail is noticed.
//  - mma: mma.m16n8k16.f16 with C's rows rotated (tests/cuda_headers/non_affine.hpp, shared with the
//    header tests' table fallback).
//  - wgmma: wgmma.m64n64k16.f16 with A's rows rotated by one, (row + 1) mod 64, run with A from registers.
#include "lanemap/catalog.hpp"
#include "non_affine.hpp"

#include <vector>

namespace lanemap::test {

inline constexpr const char* kWgmmaControlSpec = "synthetic.wgmma-rotated-a";

inline Instruction wgmmaControlInstruction() {
    Instruction in = *Catalog::instance().instruction("wgmma.m64n64k16.f16");
    in.spec = kWgmmaControlSpec;
    const FragmentLayout& a = in.operands[0];
    std::vector<Cell> cells;
    for (const Element& e : a.elements())
        cells.push_back(Cell{(e.row + 1) % a.rows(), e.col, e.colLast, -1});
    in.operands[0] = FragmentLayout::fromCells(
        Operand::A, a.elementType(), a.elementBits(), a.threads(),
        FragmentShape{a.rows(), a.cols(), 1, a.registers(), a.registerBits(), a.elementsPerRegister()}, cells,
        Source::Doc);
    return in;
}

} // namespace lanemap::test
