// Named cells from the PTX text of every dense section (§9.7.14.5.1–.13), worked by hand from the ISA
// formulas: lane 13 is groupID 3, threadID_in_group 1; lane 22 is 5, 2; lane 31 is 7, 3.
#include "lanemap/catalog.hpp"
#include "lanemap/evidence.hpp"

#include <gtest/gtest.h>

namespace test_dense_spots {

using namespace lanemap;

namespace {

struct Spot {
    const char* spec;
    const char* operand;
    int thread, index;
    int row, col;
    int matrix = -1;
    int reg = -1, bit = -1; // -1: not checked
};

// clang-format off
const Spot kSpots[] = {
    // §9.7.14.5.1 m8n8k4 .f16 quad-pairs (coordinates inside product q)
    {"mma.m8n8k4.row.col.f16", "A", 13, 2, 1, 2, 3, 1, 0},
    {"mma.m8n8k4.row.col.f16", "A", 22, 3, 6, 3, 1, 1, 16},
    {"mma.m8n8k4.col.row.f16", "A", 22, 1, 5, 2, 1},
    {"mma.m8n8k4.col.row.f16", "B", 22, 1, 2, 5, 1},
    {"mma.m8n8k4.row.col.f16", "B", 22, 1, 1, 6, 1},
    {"mma.m8n8k4.row.col.f16", "C", 13, 6, 3, 4, 3, 6, 0},
    {"mma.m8n8k4.row.col.f16", "D", 22, 5, 4, 7, 1},
    {"mma.m8n8k4.row.col.f16.f16", "C", 13, 7, 1, 7, 3, 3, 16},
    {"mma.m8n8k4.row.col.f16.f16.f32", "C", 13, 7, 1, 7, 3, 3, 16},
    {"mma.m8n8k4.row.col.f16.f16.f32", "D", 13, 6, 3, 4, 3, 6, 0},
    // §9.7.14.5.2 m8n8k4 .f64
    {"mma.m8n8k4.f64", "A", 13, 0, 3, 1, -1, 0, 0},
    {"mma.m8n8k4.f64", "B", 13, 0, 1, 3},
    {"mma.m8n8k4.f64", "C", 13, 1, 3, 3, -1, 1, 0},
    // §9.7.14.5.3-.5 m8n8k16 / k32 / k128
    {"mma.m8n8k16.s8", "A", 13, 2, 3, 6, -1, 0, 16},
    {"mma.m8n8k16.u8", "B", 22, 3, 11, 5},
    {"mma.m8n8k16.s8", "D", 31, 1, 7, 7},
    {"mma.m8n8k32.s4", "A", 22, 7, 5, 23, -1, 0, 28},
    {"mma.m8n8k32.u4", "B", 13, 5, 13, 3},
    {"mma.m8n8k128.b1", "A", 31, 31, 7, 127, -1, 0, 31},
    {"mma.m8n8k128.b1", "B", 13, 4, 36, 3},
    // §9.7.14.5.6 m16n8k4
    {"mma.m16n8k4.tf32", "A", 13, 1, 11, 1, -1, 1, 0},
    {"mma.m16n8k4.tf32", "B", 22, 0, 2, 5},
    {"mma.m16n8k4.tf32", "C", 22, 3, 13, 5},
    {"mma.m16n8k4.f64", "A", 31, 0, 7, 3},
    // §9.7.14.5.7 m16n8k8
    {"mma.m16n8k8.f16", "A", 13, 3, 11, 3, -1, 1, 16},
    {"mma.m16n8k8.bf16", "B", 13, 1, 3, 3, -1, 0, 16},
    {"mma.m16n8k8.tf32", "A", 13, 1, 11, 1},
    {"mma.m16n8k8.tf32", "A", 13, 2, 3, 5},
    {"mma.m16n8k8.tf32", "B", 22, 1, 6, 5},
    {"mma.m16n8k8.f64", "A", 31, 3, 15, 7, -1, 3, 0},
    {"mma.m16n8k8.f16.f16", "D", 13, 3, 11, 3, -1, 1, 16},
    // §9.7.14.5.8 m16n8k16 floating point
    {"mma.m16n8k16.f16", "A", 13, 0, 3, 2, -1, 0, 0},
    {"mma.m16n8k16.f16", "A", 13, 2, 11, 2, -1, 1, 0},
    {"mma.m16n8k16.f16", "A", 13, 5, 3, 11, -1, 2, 16},
    {"mma.m16n8k16.f16", "A", 13, 7, 11, 11, -1, 3, 16},
    {"mma.m16n8k16.bf16", "B", 13, 3, 11, 3, -1, 1, 16},
    {"mma.m16n8k16.f64", "A", 13, 4, 3, 9, -1, 4, 0},
    {"mma.m16n8k16.f64", "A", 13, 5, 11, 9, -1, 5, 0},
    {"mma.m16n8k16.f64", "B", 22, 3, 14, 5},
    {"mma.m16n8k16.f16.f16", "C", 13, 3, 11, 3, -1, 1, 16},
    {"mma.m16n8k16.f16", "D", 13, 3, 11, 3, -1, 3, 0},
    // §9.7.14.5.9 m16n8k16 integer / fp8
    {"mma.m16n8k16.s8", "A", 22, 6, 13, 10, -1, 1, 16},
    {"mma.m16n8k16.u8", "B", 22, 2, 10, 5, -1, 0, 16},
    {"mma.m16n8k16.e4m3", "A", 22, 6, 13, 10, -1, 1, 16},
    {"mma.m16n8k16.e5m2.f16", "D", 22, 2, 13, 4, -1, 1, 0},
    // §9.7.14.5.10 m16n8k32
    {"mma.m16n8k32.s8", "A", 13, 9, 3, 21, -1, 2, 8},
    {"mma.m16n8k32.s8", "A", 13, 13, 11, 21, -1, 3, 8},
    {"mma.m16n8k32.u8", "A", 13, 6, 11, 6},
    {"mma.m16n8k32.s8", "B", 13, 6, 22, 3, -1, 1, 16},
    {"mma.m16n8k32.s4", "A", 31, 15, 15, 31, -1, 1, 28},
    {"mma.m16n8k32.u4", "B", 31, 7, 31, 7},
    {"mma.m16n8k32.e4m3", "A", 13, 9, 3, 21},
    {"mma.m16n8k32.kind::f8f6f4.e2m1", "A", 13, 5, 11, 5, -1, 1, 10},
    {"mma.m16n8k32.kind::f8f6f4.e3m2", "A", 13, 5, 11, 5, -1, 1, 8},
    // §9.7.14.5.11 m16n8k64
    {"mma.m16n8k64.s4", "A", 22, 20, 5, 52, -1, 2, 16},
    {"mma.m16n8k64.s4", "A", 22, 9, 13, 17},
    {"mma.m16n8k64.u4", "B", 22, 10, 50, 5},
    // §9.7.14.5.12-.13 b1
    {"mma.m16n8k128.b1", "A", 13, 40, 11, 40, -1, 1, 8},
    {"mma.m16n8k128.b1", "B", 13, 7, 39, 3},
    {"mma.m16n8k256.b1", "A", 13, 40, 11, 40, -1, 1, 8},
    {"mma.m16n8k256.b1", "A", 13, 100, 11, 164, -1, 3, 4},
    {"mma.m16n8k256.b1", "B", 13, 40, 168, 3},
};
// clang-format on

class DenseSpot : public ::testing::TestWithParam<Spot> {};

TEST_P(DenseSpot, MatchesThePtxFormula) {
    const Spot& s = GetParam();
    const Instruction* in = Catalog::instance().instruction(s.spec);
    ASSERT_NE(in, nullptr) << s.spec;
    const FragmentLayout* op = in->operand(*parseOperand(s.operand));
    ASSERT_NE(op, nullptr);
    const Element& e = op->element(s.thread, s.index);
    EXPECT_EQ(e.row, s.row) << s.spec << " " << s.operand << " T" << s.thread << " [" << s.index << "]";
    EXPECT_EQ(e.col, s.col) << s.spec << " " << s.operand << " T" << s.thread << " [" << s.index << "]";
    EXPECT_EQ(e.matrix, s.matrix);
    if (s.reg >= 0) {
        EXPECT_EQ(e.reg, s.reg);
    }
    if (s.bit >= 0) {
        EXPECT_EQ(e.bit, s.bit);
    }
}

INSTANTIATE_TEST_SUITE_P(PtxText, DenseSpot, ::testing::ValuesIn(kSpots));

TEST(DenseErrata, E1IsRecordedAndCorrected) {
    const Instruction* in = Catalog::instance().instruction("mma.m16n8k256.b1");
    ASSERT_FALSE(in->errata.empty());
    EXPECT_EQ(in->errata[0].id, "E1");
    // The literal ISA formula would put a32 of lane 0 at column 32; the corrected one at column 0, row 8.
    const Element& e = in->operand(Operand::A)->element(0, 32);
    EXPECT_EQ(e.row, 8);
    EXPECT_EQ(e.col, 0);
    // The table states only the corrected reading (inferred) and keeps the manual's as an alternative
    // placement.
    EXPECT_EQ(e.source, Source::Inferred);
    ASSERT_TRUE(in->errata[0].manualReading.has_value());
    EXPECT_EQ(in->errata[0].manualReading->operand, Operand::A);
    EXPECT_EQ(in->errata[0].manualReading->place(Lane::of(0), 32, 0).col, 32); // the manual's literal column
    // Confirmed on an H100 (resources/probe/h100-mma.json, through the evidence overlay): shown as hardware
    // fact, the erratum confirmed, the run named.
    EXPECT_EQ(in->sourceOf(e.source), Source::Hardware);
    EXPECT_EQ(statusOf(*in, in->errata[0]), ErratumStatus::Confirmed);
    ASSERT_NE(in->hardware, nullptr);
    EXPECT_EQ(in->hardware->run->report.rfind("resources/probe/h100-mma", 0), 0u)
        << in->hardware->run->report;
    EXPECT_NE(evidenceOf(*in, in->errata[0]).find(in->hardware->run->report), std::string::npos);
    EXPECT_EQ(in->sourceOf(in->operand(Operand::B)->element(0, 0).source), Source::Doc);
}

TEST(DenseTypes, ElementWidthsFollowTheType) {
    const Catalog& c = Catalog::instance();
    EXPECT_EQ(c.instruction("mma.m16n8k16.f16")->operand(Operand::A)->elementBits(), 16);
    EXPECT_EQ(c.instruction("mma.m16n8k8.tf32")->operand(Operand::A)->elementBits(), 32);
    EXPECT_EQ(c.instruction("mma.m16n8k16.f64")->operand(Operand::A)->registerBits(), 64);
    EXPECT_EQ(c.instruction("mma.m16n8k32.s4")->operand(Operand::A)->elementBits(), 4);
    EXPECT_EQ(c.instruction("mma.m16n8k128.b1")->operand(Operand::A)->elementBits(), 1);
    const FragmentLayout* e2m1 = c.instruction("mma.m16n8k32.kind::f8f6f4.e2m1")->operand(Operand::A);
    EXPECT_EQ(e2m1->elementBits(), 4);
    EXPECT_EQ(e2m1->containerBits(), 8);
    EXPECT_EQ(c.instruction("mma.m16n8k16.f16.f16")->operand(Operand::D)->elementsPerRegister(), 2);
}

} // namespace

} // namespace test_dense_spots
