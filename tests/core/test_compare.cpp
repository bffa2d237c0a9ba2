// The compare of two instructions (lanemap/compare.hpp): the app's compare page and the web app's compare
// view mark the cells it finds.
#include "lanemap/catalog.hpp"
#include "lanemap/compare.hpp"
#include "lanemap/diagram.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace test_compare {

using namespace lanemap;

namespace {

// A's cells of `mine` marked against `other`.
CompareResult compareA(const std::string& mine, const std::string& other) {
    const Instruction& a = *Catalog::instance().instruction(mine);
    const Instruction& b = *Catalog::instance().instruction(other);
    DiagramOptions o;
    o.operands = {Operand::A};
    return compareDiagram(buildDiagram(a, o), a, b);
}

TEST(Compare, SameLayoutUnderAnotherTypeHasNoDifferingCell) {
    const CompareResult r = compareA("mma.m16n8k16.f16", "mma.m16n8k16.bf16");
    EXPECT_EQ(r.positions, 16 * 16);
    EXPECT_EQ(r.differing, 0);
    EXPECT_EQ(std::count(r.marks.begin(), r.marks.end(), 1), 0);
}

TEST(Compare, Tf32AndF16AOfM16n8k8DifferAndTheMarksAreTheCellsThatDo) {
    // tf32 holds one element per register, f16 two neighbours of a row: the same 16 x 8 tile, other owners in
    // some cells (A(0,0) is T0's first element in both).
    const CompareResult r = compareA("mma.m16n8k8.tf32", "mma.m16n8k8.f16");
    EXPECT_EQ(r.positions, 16 * 8);
    EXPECT_GT(r.differing, 0);
    EXPECT_LT(r.differing, r.positions);
    EXPECT_EQ(std::count(r.marks.begin(), r.marks.end(), 1), r.differing); // one cell per position
    // And the other way round: the same positions.
    EXPECT_EQ(compareA("mma.m16n8k8.f16", "mma.m16n8k8.tf32").differing, r.differing);
}

TEST(Compare, TheOperandComparedIsOneBothHoldInRegisters) {
    const Instruction& mma = *Catalog::instance().instruction("mma.m16n8k16.f16");
    const Instruction& tc = *Catalog::instance().instruction("tcgen05.mma.cta_group::1.kind::f16.m128");
    EXPECT_EQ(comparedOperand(mma, mma, Operand::B), Operand::B);
    EXPECT_FALSE(
        comparedOperand(mma, tc, Operand::A)); // its A and D are in Tensor Memory, B in shared memory
    EXPECT_TRUE(inRegisters(mma, Operand::D));
    EXPECT_FALSE(inRegisters(tc, Operand::D));
}

} // namespace

} // namespace test_compare
