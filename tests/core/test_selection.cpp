// A selection — a variant and its typed parameters — is parsed once and instantiated by value: what the CLI,
// the app and the site show of "this instruction, with these parameters".
#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include <gtest/gtest.h>

namespace test_selection {

using namespace lanemap;

namespace {

Selection parsed(std::string_view text) {
    const ParsedSpec p = parseSpec(text, Catalog::instance());
    if (!p)
        throw std::runtime_error(p.error);
    return selectionOf(p);
}

} // namespace

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
    EXPECT_NE(validate({Catalog::instance().variant("wgmma.m64n8k16.f16"), n}).find("N is a parameter"),
              std::string::npos);
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

} // namespace test_selection
