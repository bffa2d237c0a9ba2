// Every operand of every catalog variant covers its tile exactly once (per quad-pair product for
// m8n8k4 .f16), packs elements into registers by width, and its inverse map agrees with its elements.
#include "lanemap/catalog.hpp"

#include <gtest/gtest.h>

#include <set>

namespace test_coverage {

using namespace lanemap;

namespace {

std::vector<std::string> allSpecs() {
    std::vector<std::string> specs;
    for (const Variant* v : Catalog::instance().variants())
        specs.push_back(v->spec);
    return specs;
}

class EveryVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryVariant, OperandsCoverTheirTileAndPackRegisters) {
    const Instruction* in = Catalog::instance().instruction(GetParam());
    ASSERT_NE(in, nullptr);
    // Warp-level mma has A, B, C and D in registers; wgmma reads B (and optionally A) from shared memory.
    // Matrix moves have one register fragment (two for movmatrix): their maps are checked in
    // test_ldmatrix.cpp.
    // tcgen05.mma keeps D in Tensor Memory, not in registers: no register fragment; its placements are
    // checked in test_tcgen05.cpp (every form injective inside Tensor Memory, composition by brute force).
    if (in->family->name == "tcgen05.mma") {
        EXPECT_TRUE(in->operands.empty());
        return;
    }
    // A copy (cp.async.bulk.tensor) places its box in shared and global memory, cell by cell, and nothing in
    // registers: its placements are checked in test_tma.cpp.
    if (in->operands.empty() && in->hasSpace(Space::SharedMemory) && in->hasSpace(Space::Global))
        return;
    // tcgen05.ld / tcgen05.st: one register fragment over the TMEM lanes x columns they move.
    const bool move = matrixMoveOf(*in) != nullptr || tmem::accessOf(*in) != nullptr;
    const bool store = in->family->name == "stmatrix" || in->family->name == "tcgen05.st";
    ASSERT_NE(in->operand(move && store ? Operand::A : Operand::D), nullptr);
    if (!move) {
        ASSERT_NE(in->operand(Operand::A), nullptr);
    }
    if (in->scope == Scope::Warp && !move) {
        ASSERT_NE(in->operand(Operand::B), nullptr);
        ASSERT_NE(in->operand(Operand::C), nullptr);
    }
    for (const FragmentLayout& op : in->operands) {
        SCOPED_TRACE(in->spec + " operand " + std::string(op.name()));
        EXPECT_EQ(op.threads(), in->threads);
        // Register packing: the elements of one register fill it exactly, and each element's data fits.
        EXPECT_EQ(op.elementsPerRegister() * op.containerBits(), op.registerBits());
        EXPECT_LE(op.elementBits(), op.containerBits());
        ASSERT_EQ(op.elements().size(), static_cast<std::size_t>(op.threads() * op.elementsPerThread()));
        for (const Element& e : op.elements()) {
            EXPECT_EQ(e.reg, e.index / op.elementsPerRegister());
            EXPECT_GE(e.bit, (e.index % op.elementsPerRegister()) * op.containerBits());
            EXPECT_LE(e.bit + op.elementBits(),
                      (e.index % op.elementsPerRegister() + 1) * op.containerBits());
            EXPECT_LT(e.reg, op.registers());
        }
        if (op.chunked())
            continue; // sparse A chunks are checked by the sparse tests
        // Exact coverage: every cell of every product has exactly one owner, and it is that element. wmma
        // fragments may hold a cell several times (discovered: f16 A/B twice on sm_90): at least one owner.
        const bool manyToOne = in->family->name == "wmma";
        for (int m = 0; m < op.matrices(); ++m)
            for (int r = 0; r < op.rows(); ++r)
                for (int c = 0; c < op.cols(); ++c) {
                    const auto owners = op.owners(r, c, m);
                    if (manyToOne) {
                        ASSERT_GE(owners.size(), 1u) << "cell (" << r << "," << c << ") held by no lane";
                        for (const Element& e : owners)
                            ASSERT_TRUE(e.row == r && e.col == c);
                        continue;
                    }
                    ASSERT_EQ(owners.size(), 1u) << "cell (" << r << "," << c << ") of product " << m;
                    const Element& e = owners[0];
                    EXPECT_EQ(e.row, r);
                    EXPECT_EQ(e.col, c);
                    EXPECT_EQ(std::max<int>(e.matrix, 0), m);
                }
        if (!manyToOne) {
            EXPECT_EQ(op.elements().size(), static_cast<std::size_t>(op.rows() * op.cols() * op.matrices()));
        }
    }
    if (move)
        return;
    // Shapes: A is M x K, B is K x N, C/D are M x N (per product for quad-pairs).
    const FragmentLayout* a = in->operand(Operand::A);
    const FragmentLayout* d = in->operand(Operand::D);
    const int mm = a->matrices() > 1 ? 8 : in->m;
    EXPECT_EQ(a->rows(), mm);
    EXPECT_EQ(a->cols(), in->k);
    if (const FragmentLayout* b = in->operand(Operand::B)) {
        EXPECT_EQ(b->rows(), in->k);
        EXPECT_EQ(b->cols(), in->n);
    }
    EXPECT_EQ(d->rows(), mm);
    EXPECT_EQ(d->cols(), in->n);
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryVariant, ::testing::ValuesIn(allSpecs()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                             std::string name;
                             for (char c : param.param)
                                 name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return name;
                         });

TEST(Catalog, HasEveryDenseRowOfTheCatalog) {
    // docs/reference/ptx-facts.md#dense-mma rows 1-23, one spec per (shape, A type, accumulator).
    const char* expected[] = {
        "mma.m8n8k4.row.col.f16",
        "mma.m8n8k4.col.row.f16.f16",
        "mma.m8n8k4.row.row.f16.f16.f32",
        "mma.m8n8k4.f64",
        "mma.m8n8k16.s8",
        "mma.m8n8k16.u8",
        "mma.m8n8k32.s4",
        "mma.m8n8k32.u4",
        "mma.m8n8k128.b1",
        "mma.m16n8k4.tf32",
        "mma.m16n8k4.f64",
        "mma.m16n8k8.f16",
        "mma.m16n8k8.f16.f16",
        "mma.m16n8k8.bf16",
        "mma.m16n8k8.tf32",
        "mma.m16n8k8.f64",
        "mma.m16n8k16.f16",
        "mma.m16n8k16.f16.f16",
        "mma.m16n8k16.bf16",
        "mma.m16n8k16.f64",
        "mma.m16n8k16.s8",
        "mma.m16n8k16.u8",
        "mma.m16n8k16.e4m3",
        "mma.m16n8k16.e5m2.f16",
        "mma.m16n8k32.s8",
        "mma.m16n8k32.u4",
        "mma.m16n8k32.e4m3",
        "mma.m16n8k32.e5m2.f16",
        "mma.m16n8k32.kind::f8f6f4.e2m1",
        "mma.m16n8k32.kind::f8f6f4.e3m2.f16",
        "mma.m16n8k64.s4",
        "mma.m16n8k64.u4",
        "mma.m16n8k128.b1",
        "mma.m16n8k256.b1",
    };
    for (const char* spec : expected)
        EXPECT_NE(Catalog::instance().variant(spec), nullptr) << spec;
    int dense = 0;
    for (const Variant* v : Catalog::instance().variants())
        dense += v->family->name == "mma";
    EXPECT_EQ(dense, 12 + 1 + 2 + 2 + 1 + 2 + 5 + 10 + 8 + 10 + 2 + 1 + 1);
}

TEST(Catalog, MinimumSmPerVariant) {
    const Catalog& c = Catalog::instance();
    EXPECT_EQ(c.variant("mma.m8n8k4.row.col.f16")->minSm, 70);
    EXPECT_EQ(c.variant("mma.m8n8k128.b1")->minSm, 75);
    EXPECT_EQ(c.variant("mma.m16n8k8.f16")->minSm, 75);
    EXPECT_EQ(c.variant("mma.m16n8k16.bf16")->minSm, 80);
    EXPECT_EQ(c.variant("mma.m16n8k16.e4m3")->minSm, 89);
    EXPECT_EQ(c.variant("mma.m16n8k4.f64")->minSm, 90);
    EXPECT_EQ(c.variant("mma.m16n8k32.kind::f8f6f4.e2m1")->minSm, 120);
}

TEST(Catalog, QuadPairProductsAreSeparateMatrices) {
    const Instruction* in = Catalog::instance().instruction("mma.m8n8k4.row.col.f16");
    const FragmentLayout& a = in->operands[0];
    EXPECT_EQ(a.matrices(), 4);
    // Product q uses lanes 4q..4q+3 and 16+4q..16+4q+3.
    for (int q = 0; q < 4; ++q) {
        std::set<int> lanes;
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 4; ++c)
                for (const Element& e : a.owners(r, c, q))
                    lanes.insert(e.thread);
        EXPECT_EQ(lanes, (std::set<int>{4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3, 16 + 4 * q, 17 + 4 * q,
                                        18 + 4 * q, 19 + 4 * q}));
    }
}

TEST(Catalog, LayoutsAreBuiltOnceAndShared) {
    const Instruction* a = Catalog::instance().instruction("mma.m16n8k16.f16");
    const Instruction* b = Catalog::instance().instruction("mma.m16n8k16.f16");
    EXPECT_EQ(a, b);
}

} // namespace

} // namespace test_coverage
