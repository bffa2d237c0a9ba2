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
    const std::vector<Operand> merged = operandsOfView("C/D");
    ASSERT_EQ(merged, (std::vector<Operand>{Operand::C, Operand::D}));
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
    EXPECT_TRUE(operandsOfView("compare0").empty());
    EXPECT_EQ(cellVerdict(&r, operandsOfView("compare0"), -1, 0, 0), CellVerdict::NotProbed);
}

} // namespace test_verdict
