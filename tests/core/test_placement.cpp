// One placement type for every space: each dialect's constructor answers "which locations hold (row, col)"
// exactly as the dialect's own table does, and a tcgen05.ld or st is one composition.
#include "lanemap/catalog.hpp"
#include "lanemap/placement.hpp"

#include "catalog_entry.hpp"

#include <gtest/gtest.h>

#include <set>

namespace test_placement {

using namespace lanemap;

using lanemap::test::catalogEntry;

TEST(Placement, RegistersHoldWhatTheFragmentTableSays) {
    const Instruction& in = catalogEntry("mma.m16n8k16.f16");
    const Placement a = Placement::registers(*in.operand(Operand::A));
    EXPECT_EQ(a.space(), Space::Registers);
    EXPECT_EQ(a.operands(), OperandSet(Operand::A));
    EXPECT_EQ(a.threads(), 32);
    EXPECT_EQ(a.warpSize(), 32);
    // PTX §9.7.14.5.8: a5 of lane 13 is row groupID + 8 = 11, col threadID_in_group * 2 + 1 + 0 = 3.
    const std::vector<Holding> h = a.at(11, 3);
    ASSERT_EQ(h.size(), 1u);
    const auto* slot = std::get_if<RegisterSlot>(&h[0].at);
    ASSERT_NE(slot, nullptr);
    EXPECT_EQ(slot->thread, 13);
    EXPECT_EQ(slot->index, 3);
    EXPECT_EQ(slot->reg, 1);
    EXPECT_EQ(slot->bitLo, 16);
    EXPECT_EQ(slot->bits, 16);
    EXPECT_TRUE(a.at(16, 0).empty()) << "outside the matrix";
}

TEST(Placement, EveryRegisterOperandOfTheCatalogIsItsFragment) {
    // Every owner of every cell, through the placement, is the fragment's own owner.
    for (const Variant* v : Catalog::instance().variants()) {
        const Instruction& in = Catalog::instance().instruction(*v);
        for (const FragmentLayout& f : in.operands) {
            const Placement p = Placement::registers(f);
            for (int m = 0; m < f.matrices(); ++m)
                for (int r = 0; r < f.rows(); r += 7)
                    for (int c = 0; c < f.cols(); c += 5) {
                        const auto owners = f.owners(r, c, m);
                        const std::vector<Holding> h = p.at(r, c, m);
                        ASSERT_EQ(h.size(), owners.size()) << v->spec << ' ' << f.name();
                        for (std::size_t i = 0; i < owners.size(); ++i) {
                            const Element& e = owners[i];
                            const RegisterSlot& s = std::get<RegisterSlot>(h[i].at);
                            EXPECT_EQ(s.thread, e.thread);
                            EXPECT_EQ(s.index, e.index);
                            EXPECT_EQ(h[i].source, e.source);
                        }
                    }
        }
    }
}

TEST(Placement, SharedMemoryHoldsTheSwizzledByteOfTheCanonicalLayout) {
    const Instruction& in = catalogEntry("wgmma.m64n64k16.f16");
    std::string error;
    const std::vector<smem::SharedOperand> ops =
        smem::operands(in, {smem::Major::K, smem::Swizzle::B128}, error);
    ASSERT_EQ(ops.size(), 2u) << error;
    const Placement b = Placement::sharedMemory(ops[1]);
    EXPECT_EQ(b.space(), Space::SharedMemory);
    EXPECT_EQ(b.operands(), OperandSet(Operand::B));
    EXPECT_EQ(b.rows(), 16); // K x N
    EXPECT_EQ(b.cols(), 64);
    std::set<std::uint32_t> addresses;
    for (int k = 0; k < b.rows(); ++k)
        for (int n = 0; n < b.cols(); ++n) {
            const std::vector<Holding> h = b.at(k, n);
            ASSERT_EQ(h.size(), 1u);
            const SmemByte& byte = std::get<SmemByte>(h[0].at);
            EXPECT_EQ(byte.address, ops[1].layout.address(n, k));
            EXPECT_EQ(byte.bits, 16);
            EXPECT_TRUE(addresses.insert(byte.address).second) << "two elements in one byte";
        }
}

TEST(Placement, TensorMemoryHoldsDWhereTheDataPathLayoutPutsIt) {
    const tmem::MmaShape shape{tmem::MmaKind::F16, 128, 64, 1, false, false, 0};
    const Placement d = Placement::tensorMemory({shape, Operand::D, 32});
    EXPECT_EQ(d.space(), Space::TensorMemory);
    EXPECT_EQ(d.rows(), 128);
    EXPECT_EQ(d.cols(), 64);
    // Layout D (M 128, cta_group::1): row m on lane m, column n on column n.
    const TmemCell cell = std::get<TmemCell>(d.at(37, 5).at(0).at);
    EXPECT_EQ(cell.lane, 37);
    EXPECT_EQ(cell.column, 5);
    EXPECT_THROW(Placement::tensorMemory({{tmem::MmaKind::F16, 96, 64, 1, false, false, 0}, Operand::D, 32}),
                 std::invalid_argument)
        << "no data-path layout has M 96";
}

TEST(Placement, ATcgen05LdIsOneCompositionThatAgreesWithWhoHoldsD) {
    const tmem::MmaShape shape{tmem::MmaKind::F16, 128, 64, 1, false, false, 0};
    const Placement d = Placement::tensorMemory({shape, Operand::D, 32});
    for (const tmem::Access access : {tmem::Access{tmem::Op::Ld, tmem::Shape::S32x32b, 64, false, -1},
                                      tmem::Access{tmem::Op::Ld, tmem::Shape::S16x256b, 8, false, -1},
                                      tmem::Access{tmem::Op::Ld, tmem::Shape::S32x32b, 16, false, -1}}) {
        const Placement held = compose(d, access);
        EXPECT_EQ(held.space(), Space::Registers);
        EXPECT_EQ(held.operands(), OperandSet(Operand::D));
        EXPECT_EQ(held.threads(), 128);
        std::set<std::pair<int, int>> slots;
        for (int m = 0; m < 128; ++m)
            for (int n = 0; n < 64; ++n) {
                const RegisterSlot s = std::get<RegisterSlot>(held.at(m, n).at(0).at);
                const tmem::Holder h = tmem::whoHoldsD(shape, access, m, n);
                EXPECT_EQ(s.thread, h.warp * 32 + h.thread);
                EXPECT_EQ(s.reg % tmem::registersOf(access), h.reg);
                EXPECT_TRUE(slots.insert({s.thread, s.reg}).second) << "one element per register";
            }
        EXPECT_EQ(slots.size(), 128u * 64u);
    }
    EXPECT_THROW(compose(d, tmem::Access{tmem::Op::St, tmem::Shape::S32x32b, 64, false, -1}),
                 std::invalid_argument)
        << "D is read by a tcgen05.ld";
    EXPECT_THROW(compose(Placement::registers(*catalogEntry("mma.m16n8k16.f16").operand(Operand::A)),
                         tmem::Access{tmem::Op::Ld, tmem::Shape::S32x32b, 1, false, -1}),
                 std::invalid_argument)
        << "registers are not in Tensor Memory";
}

TEST(Placement, ATableKeepsItsHoldingsAndRefusesAnotherSpace) {
    std::vector<std::vector<Holding>> cells(2);
    cells[0] = {{SmemByte{0x40, 0, 16}, Source::Doc}, {SmemByte{0x80, 0, 16}, Source::Doc}};
    const Placement p = Placement::table(Operand::A, Space::SharedMemory, ElementType::F16, 1, 2, cells);
    EXPECT_EQ(p.at(0, 0).size(), 2u) << "an element held twice";
    EXPECT_TRUE(p.at(0, 1).empty()) << "a hole";
    cells[1] = {{TmemCell{}, Source::Doc}};
    EXPECT_THROW(Placement::table(Operand::A, Space::SharedMemory, ElementType::F16, 1, 2, cells),
                 std::invalid_argument);
}

// A table keeps its locations in a list of its space's type, chosen by the first location: a table whose
// first location is in another space, or whose later one is, is refused, naming that space.
TEST(Placement, ATableNamesTheSpaceOfALocationThatIsNotItsOwn) {
    const auto refusal = [](std::vector<std::vector<Holding>> cells) {
        try {
            Placement::table(Operand::D, Space::Global, ElementType::F16, 1, 2, std::move(cells));
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(refusal({{{TmemCell{0, 3, 4}, Source::Doc}}, {{GlobalElement{}, Source::Doc}}}),
              "a placement in global memory holds a location in Tensor Memory");
    EXPECT_EQ(refusal({{{GlobalElement{}, Source::Doc}}, {{SmemByte{0x40, 0, 16}, Source::Doc}}}),
              "a placement in global memory holds a location in shared memory");
    const std::vector<std::vector<Holding>> fine = {
        {{GlobalElement{64, 0, 16, {32, 1}, 2}, Source::Doc}},
        {{GlobalElement{66, 0, 16, {33, 1}, 2}, Source::Hardware}}};
    const Placement p = Placement::table(Operand::D, Space::Global, ElementType::F16, 1, 2, fine);
    EXPECT_EQ(p.at(0, 0), fine[0]);
    EXPECT_EQ(p.at(0, 1), fine[1]) << "each location keeps its own source";
}

TEST(Placement, CellsWrittenOneByOneAreTheTableOfLists) {
    // The same two cells through both ways of stating a table: an element held twice, then a hole.
    Placement::Cells cells(2);
    cells.add({SmemByte{0x40, 0, 16}, Source::Doc});
    cells.add({SmemByte{0x80, 0, 16}, Source::Doc});
    cells.next();
    cells.next();
    const Placement p = Placement::table(Operand::A, Space::SharedMemory, ElementType::F16, 1, 2, cells);
    const std::vector<Holding> twice = {{SmemByte{0x40, 0, 16}, Source::Doc},
                                        {SmemByte{0x80, 0, 16}, Source::Doc}};
    EXPECT_EQ(p.at(0, 0), twice);
    EXPECT_TRUE(p.at(0, 1).empty());
    Placement::Cells short_(2);
    short_.next();
    EXPECT_THROW(Placement::table(Operand::A, Space::SharedMemory, ElementType::F16, 1, 2, short_),
                 std::invalid_argument)
        << "one cell closed for a 1 x 2 table";
}

TEST(Placement, AFragmentWithACellHeldTwiceAndAHoleIsNoBijection) {
    // As many elements as cells, so every cell might have one owner: thread 1's first element lands on
    // thread 0's, and (1, 0) is left a hole. The inverse must list both owners and no owner of the hole, as
    // a sparse or tiled layout's does, not keep the last claim (a panel would show one thread).
    const std::vector<Cell> cells = {{0, 0}, {0, 1}, {0, 0}, {1, 1}};
    const FragmentLayout f = FragmentLayout::fromCells(Operand::A, ElementType::F16, 16, 2,
                                                       {2, 2, 1, 2, 32, 1}, cells, Source::Doc);
    EXPECT_FALSE(f.oneOwnerPerCell());
    std::vector<std::pair<int, int>> owners;
    for (const Element& e : f.owners(0, 0))
        owners.emplace_back(e.thread, e.index);
    EXPECT_EQ(owners, (std::vector<std::pair<int, int>>{{0, 0}, {1, 0}}));
    EXPECT_TRUE(f.owners(1, 0).empty());
    ASSERT_EQ(f.owners(1, 1).size(), 1u);
    EXPECT_EQ(f.owners(1, 1).begin()->thread, 1);
    EXPECT_EQ(f.uniqueCells(), 3);
    EXPECT_EQ(f.maxOwners(), 2);
    // Placed registers answer the same.
    EXPECT_EQ(Placement::registers(f).at(0, 0).size(), 2u);
    EXPECT_TRUE(Placement::registers(f).at(1, 0).empty());
}

TEST(Placement, ItsPresentationIsItsOwnAndTravelsWithCopies) {
    const Instruction& in = catalogEntry("mma.m16n8k16.f16");
    Placement p = Placement::registers(*in.operand(Operand::A));
    EXPECT_TRUE(p.presentation().rowAxis.empty()) << "a register fragment's axes are the matrix's";
    Placement q = p;
    Presentation words;
    words.rowAxis = "TMEM lane";
    q.setPresentation(words);
    EXPECT_EQ(q.presentation().rowAxis, "TMEM lane");
    EXPECT_TRUE(p.presentation().rowAxis.empty()) << "setting a copy's words leaves the original's";
    const Placement r = q;
    EXPECT_EQ(r.presentation().rowAxis, "TMEM lane");
}

} // namespace test_placement
