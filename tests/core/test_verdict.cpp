// The one answer to "what did the hardware say about this cell of this operand".
#include "lanemap/probe_report.hpp"
#include "lanemap/verdict.hpp"

#include <gtest/gtest.h>

namespace test_verdict {

using namespace lanemap;

namespace {

ProbeResult failed(Operand operand, int row, int col, int matrix = -1) {
    ProbeResult r;
    r.spec = "mma.m16n8k16.f16";
    r.verdict = Verdict::Fail;
    ProbeMismatch m;
    m.operand = operand;
    m.matrix = matrix;
    m.row = row;
    m.col = col;
    r.mismatches.push_back(m);
    r.cellsMismatched = 1;
    r.cellsChecked = 512;
    return r;
}

} // namespace

TEST(CellVerdict, OnlyTheDisagreeingCellOfTheDisagreeingOperandIsAMismatch) {
    const ProbeResult r = failed(Operand::A, 9, 3);
    EXPECT_EQ(cellVerdict(&r, {Operand::A}, -1, 9, 3), CellVerdict::Mismatch);
    EXPECT_EQ(cellVerdict(&r, {Operand::A}, -1, 9, 4), CellVerdict::Confirmed);
    EXPECT_EQ(cellVerdict(&r, {Operand::B}, -1, 9, 3), CellVerdict::Confirmed);
}

TEST(CellVerdict, AMergedCDViewDisagreesWhenEitherCOrDDoes) {
    const ProbeResult c = failed(Operand::C, 2, 5);
    const ProbeResult d = failed(Operand::D, 2, 5);
    const OperandSet merged = kAccumulator;
    EXPECT_EQ(cellVerdict(&c, merged, -1, 2, 5), CellVerdict::Mismatch);
    EXPECT_EQ(cellVerdict(&d, merged, -1, 2, 5), CellVerdict::Mismatch);
    EXPECT_EQ(cellVerdict(&c, {Operand::D}, -1, 2, 5), CellVerdict::Confirmed);
    EXPECT_EQ(cellVerdict(&c, merged, -1, 0, 0), CellVerdict::Confirmed);
}

TEST(CellVerdict, QuadPairProductsAreMatchedUnlessTheReportNamesNone) {
    const ProbeResult one = failed(Operand::D, 1, 1, 2);
    EXPECT_EQ(cellVerdict(&one, {Operand::D}, 2, 1, 1), CellVerdict::Mismatch);
    EXPECT_EQ(cellVerdict(&one, {Operand::D}, 3, 1, 1), CellVerdict::Confirmed);
    const ProbeResult every = failed(Operand::D, 1, 1, -1);
    EXPECT_EQ(cellVerdict(&every, {Operand::D}, 3, 1, 1), CellVerdict::Mismatch);
}

TEST(CellVerdict, NoReportOrAnUnsupportedVariantIsNotProbed) {
    EXPECT_EQ(cellVerdict(nullptr, {Operand::A}, -1, 0, 0), CellVerdict::NotProbed);
    ProbeResult r = failed(Operand::A, 0, 0);
    r.verdict = Verdict::Unsupported;
    EXPECT_EQ(cellVerdict(&r, {Operand::A}, -1, 0, 0), CellVerdict::NotProbed);
    EXPECT_FALSE(coversCells(r));
    EXPECT_EQ(cellVerdict(&r, OperandSet{}, -1, 0, 0), CellVerdict::NotProbed); // a memory map
}

TEST(OperandSet, ParsesOneOperandOrAMergedViewAndLabelsIt) {
    EXPECT_EQ(parseOperandSet("a"), OperandSet(Operand::A));
    EXPECT_EQ(parseOperandSet("metadata"), OperandSet(Operand::Metadata));
    EXPECT_EQ(parseOperandSet("C/D"), kAccumulator);
    EXPECT_EQ(parseOperandSet("c/d"), kAccumulator);
    EXPECT_EQ(parseOperandSet("CD"), kAccumulator);
    EXPECT_EQ(toString(kAccumulator), "C/D");
    EXPECT_EQ(idOf(kAccumulator), "CD");
    EXPECT_EQ(kAccumulator.first(), Operand::C);
    EXPECT_FALSE(kAccumulator.single());
    EXPECT_EQ(OperandSet(Operand::B).single(), Operand::B);
    for (const char* bad : {"", "E", "C/", "/D", "C/C", "C//D", "compare0"})
        EXPECT_FALSE(parseOperandSet(bad)) << bad;
}

} // namespace test_verdict
