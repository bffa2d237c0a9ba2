// A selection — a variant and its typed parameters — is parsed once and instantiated by value: what the CLI,
// the app and the site show of "this instruction, with these parameters".
#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include "selection_text.hpp"

#include <gtest/gtest.h>

namespace test_selection {

using namespace lanemap;
using lanemap::test::parsed;

TEST(Selection, DefaultParametersAreTheCatalogsOwnInstruction) {
    const Selection s = parsed("mma.m16n8k16.f16");
    EXPECT_EQ(s.params, Params{});
    EXPECT_EQ(instantiate(s).get(), Catalog::instance().instruction("mma.m16n8k16.f16"));
}

TEST(Selection, TheTextsOwnParametersAreKept) {
    // A mixed-type PTX string is another form of the variant: its instance keeps the typed PTX string.
    const Selection mixed = parsed("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32");
    EXPECT_EQ(mixed.variant->spec, "mma.m16n8k32.s8");
    ASSERT_TRUE(mixed.params.form);
    EXPECT_EQ(mixed.params.form->btype, ElementType::U8);
    EXPECT_EQ(instantiate(mixed)->ptx, "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32");
    // A tcgen05.mma's N is a parameter of its entry.
    const Selection n64 = parsed("tcgen05.mma.cta_group::1.kind::f16.m128n64");
    EXPECT_EQ(n64.variant->spec, "tcgen05.mma.cta_group::1.kind::f16.m128");
    EXPECT_EQ(n64.params.n, 64);
}

TEST(Selection, InstancesAreBuiltOnceAndComparedAsValues) {
    Selection s = parsed("tcgen05.mma.cta_group::1.kind::f16.m128n64");
    const std::shared_ptr<const Instruction> a = instantiate(s);
    EXPECT_EQ(instantiate(s), a) << "the same selection is the same instance";
    const Placement* d = a->placement(Space::TensorMemory, Operand::D);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->cols(), 64);
    EXPECT_EQ(a->n, 64);
    // Composed with a tcgen05.ld: the registers that hold D are a placement of the instance too.
    s.params.access = tmem::Access{tmem::Op::Ld, tmem::Shape::S32x32b, 64, false, -1};
    const std::shared_ptr<const Instruction> held = instantiate(s);
    EXPECT_NE(held, a);
    const Placement* registers = held->placement(Space::Registers, Operand::D);
    ASSERT_NE(registers, nullptr);
    EXPECT_EQ(registers->threads(), 128);
    EXPECT_EQ(registers->at(37, 5).size(), 1u);
}

TEST(Selection, WgmmasSharedMemoryLayoutIsAParameterOfItsInstance) {
    Selection s = parsed("wgmma.m64n64k16.f16");
    const Placement* b = instantiate(s)->placement(Space::SharedMemory, Operand::B);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->shared()->layout.swizzle(), smem::Swizzle::B128) << "K-major, 128B by default";
    s.params.smem = smem::Choice{smem::Major::MN, smem::Swizzle::B32};
    const Placement* mn = instantiate(s)->placement(Space::SharedMemory, Operand::B);
    ASSERT_NE(mn, nullptr);
    EXPECT_EQ(mn->shared()->layout.major(), smem::Major::MN);
    EXPECT_EQ(mn->shared()->layout.swizzle(), smem::Swizzle::B32);
}

TEST(Selection, ParametersAVariantDoesNotTakeAreRefusedByName) {
    Params selector;
    selector.selector = 1;
    EXPECT_NE(validate({Catalog::instance().variant("mma.m16n8k16.f16"), selector}).find("sparsity selector"),
              std::string::npos);
    EXPECT_TRUE(validate({Catalog::instance().variant("mma.sp.m16n8k16.f16"), selector}).empty());
    Params n;
    n.n = 64;
    EXPECT_NE(validate({Catalog::instance().variant("mma.m16n8k16.f16"), n}).find("has a fixed N (8)"),
              std::string::npos);
    n.n = 12;
    EXPECT_EQ(validate({Catalog::instance().variant("wgmma.m64n8k16.f16"), n}),
              "N 12 is not one wgmma.m64n8k16.f16 takes; valid N: 8..256 in steps of 8");
    Params badN;
    badN.n = 12;
    EXPECT_NE(validate(Selection{parsed("tcgen05.mma.cta_group::1.kind::f16.m128").variant, badN})
                  .find("valid N: 8..256 in steps of 8"),
              std::string::npos);
    Params target;
    target.target = "sm_90";
    EXPECT_NE(validate({Catalog::instance().variant("mma.m16n8k16.f16"), target}).find("wmma only"),
              std::string::npos);
    EXPECT_THROW(instantiate({Catalog::instance().variant("mma.m16n8k16.f16"), target}),
                 std::invalid_argument);
}

// Tensor Memory holds D, or A: a selection that puts B there is refused, not drawn as D.
TEST(Selection, OnlyDOrACanBeTheOperandInTensorMemory) {
    Params b;
    b.tensorOperand = Operand::B;
    const Selection s{parsed("tcgen05.mma.cta_group::1.kind::f16.m128").variant, b};
    EXPECT_NE(validate(s).find("Tensor Memory holds D, or A (layouts A, D and F), not B"), std::string::npos);
    EXPECT_THROW(instantiate(s), std::invalid_argument);
}

// N is a parameter of every instruction whose N varies, answered the same way: wgmma's N picks the sibling
// row (each N is a catalog row, probed on its own), a tcgen05.mma's N is its entry's parameter.
TEST(Selection, NIsOneParameterForWgmmaAndTcgen05) {
    const Selection wgmma = parsed("wgmma.m64n8k16.f16");
    const std::vector<int> ns = nValues(wgmma);
    ASSERT_EQ(ns.size(), 32u);
    EXPECT_EQ(ns.front(), 8);
    EXPECT_EQ(ns.back(), 256);
    const Selection at64 = atN(wgmma, 64);
    EXPECT_EQ(at64.variant->spec, "wgmma.m64n64k16.f16");
    EXPECT_EQ(at64.params.n, 0) << "the row says N: no second spelling";
    EXPECT_EQ(nOf(at64), 64);
    // Params::n set directly (a URL, a test) means the same instruction as the row of that N.
    Params n64;
    n64.n = 64;
    EXPECT_EQ(instantiate({wgmma.variant, n64}).get(),
              Catalog::instance().instruction("wgmma.m64n64k16.f16"));
    // The other parameters are kept: a sparse wgmma's selector, a shared-memory choice.
    Selection sparse = parsed("wgmma.sp.m64n16k32.f16");
    sparse.params.selector = 1;
    sparse.params.smem = smem::Choice{smem::Major::MN, smem::Swizzle::B64};
    const Selection sparseAt = atN(sparse, 128);
    EXPECT_EQ(sparseAt.variant->spec, "wgmma.sp.m64n128k32.f16");
    EXPECT_EQ(sparseAt.params.selector, 1);
    EXPECT_EQ(sparseAt.params.smem, sparse.params.smem);
    EXPECT_EQ(nValues(parsed("wgmma.m64n8k32.s8")).front(), 8);
    EXPECT_TRUE(nValues(parsed("mma.m16n8k16.f16")).empty()) << "an mma's N is fixed";

    const Selection tc = parsed("tcgen05.mma.cta_group::1.kind::f16.m128");
    EXPECT_EQ(nValues(tc).size(), 32u) << "kind::f16, M 128: N 8..256 in steps of 8";
    const Selection tc64 = atN(tc, 64);
    EXPECT_EQ(tc64.variant, tc.variant);
    EXPECT_EQ(tc64.params.n, 64);
    EXPECT_EQ(atN(tc64, 256).params.n, 256) << "a view of the entry's own N names it, as `…m128n256` does";
    EXPECT_EQ(instantiate(tc64)->n, 64);
}

// A new N of a tcgen05.mma opens with the access that fits it: an x32 load kept for N = 16 would draw
// registers r16..r31 empty.
TEST(Selection, ANewTcgen05NOpensWithItsDefaultAccess) {
    Selection s = parsed("tcgen05.mma.cta_group::1.kind::f16.m128");
    s.params.access = tmem::Access{tmem::Op::Ld, tmem::Shape::S32x32b, 32, false, -1};
    const Selection at16 = atN(s, 16);
    ASSERT_TRUE(at16.params.access);
    EXPECT_EQ(at16.params.access->num, 16);
    EXPECT_TRUE(validate(at16).empty()) << validate(at16);
    EXPECT_EQ(atN(at16, 16).params.access, at16.params.access) << "the same N keeps the access chosen";
}

} // namespace test_selection
