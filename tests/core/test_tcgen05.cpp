// tcgen05 (tmem.hpp): the ld/st data-path shapes and the mma data-path layouts against the facts of the ISA's
// figures (Figs. 183-187, 205-218, transcribed below), catalog-wide invariants of the family, and the
// composed "who holds D[m][n]" against a brute-force evaluation of the two maps.
#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tcgen05_desc.hpp"
#include "lanemap/tmem.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace test_tcgen05 {

using lanemap::Catalog;
using lanemap::Family;
using lanemap::Instruction;
using lanemap::ParsedSpec;
using lanemap::parseSpec;
using lanemap::Variant;
using namespace lanemap::tmem;
using Cell = lanemap::tmem::Cell;
using Layout = lanemap::tmem::Layout;
using Shape = lanemap::tmem::Shape;

namespace {

Cell at(Shape shape, int num, bool packed, int thread, int reg, int half = 0, int split = -1) {
    return cellOf(Access{Op::Ld, shape, num, packed, split}, thread, reg, half);
}

// A tcgen05.st moves the registers a tcgen05.ld of the same shape, .num and packing fills, the other way: one
// table, named A for the store and D for the load.
TEST(LdStShapes, StoreAndLoadShareOneTable) {
    const Instruction* ld = Catalog::instance().instruction("tcgen05.ld.16x256b.x4");
    const Instruction* st = Catalog::instance().instruction("tcgen05.st.16x256b.x4");
    ASSERT_TRUE(ld && st);
    ASSERT_EQ(ld->operands.size(), 1u);
    ASSERT_EQ(st->operands.size(), 1u);
    EXPECT_EQ(ld->operands[0].name(), "D");
    EXPECT_EQ(st->operands[0].name(), "A");
    EXPECT_EQ(ld->operands[0].elements().storage(), st->operands[0].elements().storage());
    const Instruction* packed = Catalog::instance().instruction("tcgen05.st.16x256b.x4.unpack::16b");
    ASSERT_TRUE(packed);
    EXPECT_NE(packed->operands[0].elements().storage(), st->operands[0].elements().storage());
    EXPECT_EQ(packed->operands[0].elements().size(), 2 * st->operands[0].elements().size());
}

TEST(TensorMemory, AddressIsLaneHighColumnLow) {
    EXPECT_EQ((Address{5, 7}.encode()), 0x00050007u);
    EXPECT_EQ(Address::decode(0x007f01ffu), (Address{127, 511}));
}

// Figure 183: thread t owns lane t; .num repeats along the columns, one register each.
TEST(LdStShapes, Figure183_32x32b) {
    EXPECT_EQ(at(Shape::S32x32b, 1, false, 0, 0), (Cell{0, 0}));
    EXPECT_EQ(at(Shape::S32x32b, 1, false, 31, 0), (Cell{31, 0}));
    EXPECT_EQ(at(Shape::S32x32b, 4, false, 7, 3), (Cell{7, 3}));
    EXPECT_EQ(registersOf(Access{Op::Ld, Shape::S32x32b, 128}), 128);
}

// Figure 184: lane 0 holds T0 T2, lane 8 holds T1 T3, lane 1 holds T4 T6 ...
TEST(LdStShapes, Figure184_16x64b) {
    EXPECT_EQ(at(Shape::S16x64b, 1, false, 0, 0), (Cell{0, 0}));
    EXPECT_EQ(at(Shape::S16x64b, 1, false, 1, 0), (Cell{8, 0}));
    EXPECT_EQ(at(Shape::S16x64b, 1, false, 2, 0), (Cell{0, 1}));
    EXPECT_EQ(at(Shape::S16x64b, 1, false, 3, 0), (Cell{8, 1}));
    EXPECT_EQ(at(Shape::S16x64b, 1, false, 4, 0), (Cell{1, 0}));
    EXPECT_EQ(at(Shape::S16x64b, 1, false, 31, 0), (Cell{15, 1}));
    EXPECT_EQ(at(Shape::S16x64b, 2, false, 31, 1), (Cell{15, 3})); // the second repetition
}

// Figure 185: r0 of lane t/4, r1 eight lanes below; column t % 4.
TEST(LdStShapes, Figure185_16x128b) {
    EXPECT_EQ(at(Shape::S16x128b, 1, false, 0, 0), (Cell{0, 0}));
    EXPECT_EQ(at(Shape::S16x128b, 1, false, 0, 1), (Cell{8, 0}));
    EXPECT_EQ(at(Shape::S16x128b, 1, false, 3, 0), (Cell{0, 3}));
    EXPECT_EQ(at(Shape::S16x128b, 1, false, 31, 1), (Cell{15, 3}));
    EXPECT_EQ(recordOf(Shape::S16x128b).maxNum, 64);
}

// Figure 186: the mma m16n8 accumulator pattern.
TEST(LdStShapes, Figure186_16x256b) {
    EXPECT_EQ(at(Shape::S16x256b, 1, false, 0, 0), (Cell{0, 0}));
    EXPECT_EQ(at(Shape::S16x256b, 1, false, 0, 1), (Cell{0, 1}));
    EXPECT_EQ(at(Shape::S16x256b, 1, false, 0, 2), (Cell{8, 0}));
    EXPECT_EQ(at(Shape::S16x256b, 1, false, 0, 3), (Cell{8, 1}));
    EXPECT_EQ(at(Shape::S16x256b, 1, false, 1, 0), (Cell{0, 2}));
    EXPECT_EQ(at(Shape::S16x256b, 1, false, 31, 3), (Cell{15, 7}));
    EXPECT_EQ(at(Shape::S16x256b, 8, false, 5, 4 * 7 + 2), (Cell{9, 7 * 8 + 2}));
    EXPECT_EQ(registersOf(Access{Op::Ld, Shape::S16x256b, 32}), 128);
}

// Figure 187: two 16x32b accesses; threads 16-31 read at taddr + immHalfSplitoff.
TEST(LdStShapes, Figure187_16x32bx2AndItsSplitOffset) {
    EXPECT_EQ(at(Shape::S16x32bx2, 1, false, 0, 0), (Cell{0, 0}));
    EXPECT_EQ(at(Shape::S16x32bx2, 1, false, 15, 0), (Cell{15, 0}));
    EXPECT_EQ(at(Shape::S16x32bx2, 1, false, 16, 0), (Cell{0, 1})); // CUTLASS's offset: num columns
    EXPECT_EQ(at(Shape::S16x32bx2, 4, false, 17, 2), (Cell{1, 4 + 2}));
    EXPECT_EQ(at(Shape::S16x32bx2, 1, false, 16, 0, 0, 8), (Cell{0, 8})); // an explicit immHalfSplitoff
    EXPECT_EQ(at(Shape::S16x32bx2, 4, true, 16, 0, 1), (Cell{0, 8 + 1})); // packed: 2 num columns a half
    EXPECT_NE(validate(Access{Op::Ld, Shape::S16x32bx2, 4, false, 2}).find("must not overlap"),
              std::string::npos);
    EXPECT_NE(validate(Access{Op::Ld, Shape::S16x64b, 4, false, 8}).find("16x32bx2 only"), std::string::npos);
}

// A split near INT_MAX is out of range, not an overflow of `split + half` (UBSan: signed overflow).
TEST(LdStShapes, SplitNearIntMaxIsOutOfRange) {
    for (const int split : {std::numeric_limits<int>::max(), std::numeric_limits<int>::max() - 1,
                            std::numeric_limits<int>::max() - 127})
        EXPECT_NE(validate(Access{Op::Ld, Shape::S16x32bx2, 128, false, split}).find("out of range"),
                  std::string::npos)
            << split;
    lanemap::Params params;
    params.halfSplit = std::numeric_limits<int>::max();
    const std::string error =
        lanemap::validate({Catalog::instance().variant("tcgen05.ld.16x32bx2.x2"), params});
    EXPECT_NE(error.find("valid 2 to 510"), std::string::npos) << error;
}

// A split adds its note to the instance it was given for; the catalog's entry (what `list` and every other
// instance show) keeps the notes it registered with, though the instance shares them until it adds one.
TEST(LdStShapes, ASplitsNoteIsTheInstancesNotTheCatalogs) {
    const Variant* v = Catalog::instance().variant("tcgen05.ld.16x32bx2.x2");
    ASSERT_TRUE(v);
    const std::vector<std::string> registered = v->notes.items();
    lanemap::Params params;
    params.halfSplit = 64;
    ASSERT_EQ(lanemap::validate({v, params}), "");
    const std::shared_ptr<const Instruction> split = lanemap::instantiate({v, params});
    ASSERT_EQ(split->notes.size(), registered.size() + 1);
    EXPECT_NE(split->notes.back().find("immHalfSplitoff 64"), std::string::npos);
    EXPECT_EQ(v->notes.items(), registered);
    for (const std::string& note : Catalog::instance().instruction(*v).notes)
        EXPECT_EQ(note.find("(given)"), std::string::npos) << note;
}

// .pack::16b: the same registers read twice the columns, the lower column in bits 15-0.
TEST(LdStShapes, PackMovesTwoAdjacentColumnsThroughOneRegister) {
    EXPECT_EQ(at(Shape::S32x32b, 1, true, 5, 0, 0), (Cell{5, 0}));
    EXPECT_EQ(at(Shape::S32x32b, 1, true, 5, 0, 1), (Cell{5, 1}));
    EXPECT_EQ(at(Shape::S16x256b, 1, true, 1, 1, 0), (Cell{0, 6}));
    EXPECT_EQ(at(Shape::S16x256b, 1, true, 1, 1, 1), (Cell{0, 7}));
    EXPECT_EQ(columnsOf(Access{Op::Ld, Shape::S16x256b, 1, true}), 16);
    EXPECT_EQ(registersOf(Access{Op::Ld, Shape::S16x256b, 1, true}), 4);
}

TEST(LdStShapes, NumBeyondTheRegisterLimitIsRejectedWithTheValidValues) {
    const std::string why = validate(Access{Op::Ld, Shape::S16x256b, 64});
    EXPECT_NE(why.find(".x64"), std::string::npos);
    EXPECT_NE(why.find(".x32"), std::string::npos);
    EXPECT_NE(validate(Access{Op::Ld, Shape::S16x256b, 3}).find("valid: .x1, .x2"), std::string::npos);
}

// Every access of the catalog: each TMEM cell of its span is touched exactly once per thread-register
// element, and no thread needs more than 128 registers.
TEST(LdStShapes, EveryCatalogAccessTouchesEachCellOnce) {
    int accesses = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!lanemap::tmem::accessOf(*v))
            continue;
        ++accesses;
        const Access& a = *lanemap::tmem::accessOf(*v);
        SCOPED_TRACE(v->spec);
        EXPECT_LE(registersOf(a), kMaxRegisters);
        const int lanes = recordOf(a.shape).lanes, columns = columnsOf(a);
        std::vector<int> touched(static_cast<std::size_t>(lanes * columns), 0);
        for (int t = 0; t < 32; ++t)
            for (int r = 0; r < registersOf(a); ++r)
                for (int h = 0; h < elementsPerRegister(a); ++h) {
                    const Cell c = cellOf(a, t, r, h);
                    ASSERT_TRUE(c.lane >= 0 && c.lane < lanes && c.column >= 0 && c.column < columns);
                    ++touched[static_cast<std::size_t>(c.lane * columns + c.column)];
                }
        for (const int n : touched)
            ASSERT_EQ(n, 1);
        // The register fragment the exporters show is the same map.
        const Instruction& in = Catalog::instance().instruction(*v);
        ASSERT_EQ(in.operands.size(), 1u);
        EXPECT_EQ(in.operands[0].registers(), registersOf(a));
        EXPECT_EQ(in.operands[0].element(31, 0).row, cellOf(a, 31, 0, 0).lane);
    }
    // ld and st: 8 + 8 + 7 + 6 + 8 .num values, plain and packed.
    EXPECT_EQ(accesses, 2 * 2 * (8 + 8 + 7 + 6 + 8));
}

// A command builds the registers of the one .num it names alone; the catalog, building a second .num of the
// shape and packing, cuts every .num from the widest. Both must be the access's map, element by element and
// cell by cell, or a figure would change with what was built before it.
TEST(LdStShapes, EveryNumBuiltAloneOrCutFromTheWidestIsTheAccessMap) {
    using lanemap::FragmentLayout;
    const Catalog& catalog = Catalog::instance();
    const auto widestOf = [&](const Access& a) -> const Variant* {
        for (const Variant* v : catalog.variants())
            if (const Access* w = accessOf(*v); w && w->op == a.op && w->shape == a.shape &&
                                                w->packed == a.packed && w->num == recordOf(a.shape).maxNum)
                return v;
        return nullptr;
    };
    const auto expectTheMap = [](const Access& a, const lanemap::FragmentLayout& layout, const char* how) {
        const AccessMap map(a);
        const int per = elementsPerRegister(a);
        ASSERT_EQ(layout.registers(), registersOf(a)) << how;
        ASSERT_EQ(layout.cols(), columnsOf(a)) << how;
        for (int t = 0; t < 32; ++t)
            for (int r = 0; r < registersOf(a); ++r)
                for (int h = 0; h < per; ++h) {
                    const lanemap::Element& e = layout.element(t, r * per + h);
                    const Cell c = map(t, r, h);
                    ASSERT_TRUE(e.thread == t && e.reg == r && e.bit == 16 * h && e.row == c.lane &&
                                e.col == c.column && e.colLast == c.column)
                        << how << ": thread " << t << " register " << r << " half " << h;
                    const auto owners = layout.owners(c.lane, c.column);
                    ASSERT_EQ(owners.size(), 1u) << how;
                    ASSERT_TRUE(owners[0].thread == t && owners[0].index == r * per + h)
                        << how << ": owner of lane " << c.lane << " column " << c.column;
                }
    };
    int cut = 0;
    for (const Variant* v : catalog.variants()) {
        const Access* a = accessOf(*v);
        if (!a || a->op != Op::Ld)
            continue; // a store shares the load's table
        SCOPED_TRACE(v->spec);
        FragmentLayout::clearBuildCache();
        expectTheMap(*a, catalog.buildUncached(*v).operands.at(0), "built alone");
        const Variant* widest = widestOf(*a);
        ASSERT_NE(widest, nullptr);
        if (widest == v || recordOf(a->shape).halfSplit)
            continue;
        FragmentLayout::clearBuildCache();
        (void)catalog.buildUncached(*widest); // the shape and packing asked for once: the next .num is cut
        expectTheMap(*a, catalog.buildUncached(*v).operands.at(0), "cut from the widest");
        ++cut;
    }
    FragmentLayout::clearBuildCache();
    EXPECT_EQ(cut, 2 * (7 + 7 + 6 + 5)); // every .num below the widest of the four shapes without a split
}

// ---- mma data-path layouts -------------------------------------------------------------------------------

MmaShape mma(int m, int n, int group, bool ws = false, bool sparse = false, int alignment = 0) {
    return MmaShape{MmaKind::F16, m, n, group, ws, sparse, alignment};
}

TEST(DataPathLayouts, TheTableSelectsTheIsasRow) {
    auto layout = [](int m, int g, bool ws, bool sp) { return selectLayout(m, g, ws, sp)->layout; };
    EXPECT_EQ(layout(256, 2, false, false), Layout::A);
    EXPECT_EQ(layout(256, 2, false, true), Layout::A);
    EXPECT_EQ(layout(128, 2, false, false), Layout::B);
    EXPECT_EQ(layout(128, 2, false, true), Layout::C);
    EXPECT_EQ(layout(128, 1, false, false), Layout::D);
    EXPECT_EQ(layout(128, 1, true, true), Layout::D);
    EXPECT_EQ(layout(64, 1, true, false), Layout::E);
    EXPECT_EQ(layout(64, 1, false, false), Layout::F);
    EXPECT_EQ(layout(32, 1, true, false), Layout::G);
    std::string why;
    EXPECT_EQ(selectLayout(256, 1, false, false, &why), nullptr);
    EXPECT_NE(why.find("M=256 cta_group::2"), std::string::npos);
    EXPECT_EQ(std::string(selectLayout(64, 1, true, false)->organisation), "2x3"); // verbatim, a finding
}

TEST(DataPathLayouts, FiguresFacts) {
    // A (M=256, cta_group::2): CTA c holds rows 128c.., one row a lane.
    EXPECT_EQ(placeD(mma(256, 64, 2), 200, 5), (Placement{1, 72, 5, 0}));
    // B (M=128, cta_group::2, dense), 2x2: per CTA 64 rows; the right half of N on lanes 64-127.
    EXPECT_EQ(placeD(mma(128, 64, 2), 0, 32), (Placement{0, 64, 0, 0}));
    EXPECT_EQ(placeD(mma(128, 64, 2), 64, 31), (Placement{1, 0, 31, 0}));
    // C (M=128, cta_group::2, sparse), half datapath: 16 rows in each subpartition.
    EXPECT_EQ(placeD(mma(128, 64, 2, false, true), 64 + 17, 3), (Placement{1, 33, 3, 0}));
    EXPECT_EQ(placeD(mma(128, 64, 2, false, true, 16), 64 + 17, 3), (Placement{1, 49, 3, 0}));
    // D (M=128, cta_group::1): lane m, column n.
    EXPECT_EQ(placeD(mma(128, 256, 1), 127, 255), (Placement{0, 127, 255, 0}));
    // E (M=64 .ws), 2x2 as drawn ("2x3" in the table).
    EXPECT_EQ(placeD(mma(64, 128, 1, true), 10, 64), (Placement{0, 74, 0, 0}));
    // F (M=64), half datapath; alignment 16 moves it to the upper 16 lanes of each subpartition.
    EXPECT_EQ(placeD(mma(64, 8, 1), 15, 0), (Placement{0, 15, 0, 0}));
    EXPECT_EQ(placeD(mma(64, 8, 1), 16, 0), (Placement{0, 32, 0, 0}));
    EXPECT_EQ(placeD(mma(64, 8, 1, false, false, 16), 0, 0), (Placement{0, 16, 0, 0}));
    EXPECT_EQ(placeD(mma(64, 8, 1, false, false, 16), 63, 7), (Placement{0, 127, 7, 0}));
    // G (M=32 .ws), 1x4: quarter k of N on lanes 32k..32k+31.
    EXPECT_EQ(placeD(mma(32, 256, 1, true), 0, 64), (Placement{0, 32, 0, 0}));
    EXPECT_EQ(placeD(mma(32, 256, 1, true), 31, 255), (Placement{0, 127, 63, 0}));
}

TEST(DataPathLayouts, InvalidFormsNameWhatIsValid) {
    // Table 39: cta_group::1 takes N in steps of 8 at M = 128 as at M = 64 (CUTLASS's M=128 N%16 is its own).
    EXPECT_EQ(validate(mma(128, 8, 1)), "");
    EXPECT_NE(validate(mma(128, 12, 1)).find("valid N: 8..256 in steps of 8"), std::string::npos);
    EXPECT_NE(validate(mma(128, 8, 2)).find("valid N: 16..256 in steps of 16"), std::string::npos);
    EXPECT_NE(validate(mma(64, 96, 1, true)).find("valid N: 64, 128, 256"), std::string::npos);
    EXPECT_NE(validate(mma(128, 64, 1, false, false, 16)).find("only the half-datapath layouts"),
              std::string::npos);
    EXPECT_NE(validate(mma(128, 64, 2, true)).find("cta_group::1 only"), std::string::npos);
}

// The catalog's shape rules are Table 39's, as the instruction-descriptor checks state them: what the
// descriptor encoder rejects, the catalog neither lists nor draws (block-scaled kinds at M = 64, sparse
// block-scaled cta_group::2 at M = 128, .ws sparse at N = 256 were listed before).
TEST(DataPathLayouts, TheCatalogsShapesAreTable39s) {
    const auto shape = [](MmaKind kind, int m, int n, int group, bool ws, bool sparse) {
        return MmaShape{kind, m, n, group, ws, sparse, 0};
    };
    EXPECT_NE(validate(shape(MmaKind::MXF8F6F4, 64, 64, 1, false, false)).find("invalid M=64"),
              std::string::npos);
    EXPECT_NE(validate(shape(MmaKind::MXF4, 128, 64, 2, false, true)).find("valid: 256"), std::string::npos);
    EXPECT_EQ(validate(shape(MmaKind::MXF4, 256, 64, 2, false, true)), "");
    EXPECT_NE(validate(shape(MmaKind::F16, 64, 256, 1, true, true)).find("valid N: 64, 128"),
              std::string::npos);
    EXPECT_EQ(validate(shape(MmaKind::F16, 64, 128, 1, true, true)), "");
    // kind::i8 takes 8, 16, 24, 32 and then every 16th N: not one arithmetic run.
    EXPECT_EQ(validate(shape(MmaKind::I8, 128, 24, 1, false, false)), "");
    EXPECT_NE(validate(shape(MmaKind::I8, 128, 40, 1, false, false))
                  .find("8..32 in steps of 8, 48..256 in steps of 16"),
              std::string::npos);
    int entries = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!lanemap::tmem::mmaOf(*v))
            continue;
        ++entries;
        const MmaShape& s = *lanemap::tmem::mmaOf(*v);
        SCOPED_TRACE(v->spec);
        EXPECT_TRUE(lanemap::tcgen05::shapeViolations(s.kind, s.sparse, s.m, s.n, s.ctaGroup, s.ws).empty());
        for (const int n : {validN(s).first, validN(s).last})
            EXPECT_TRUE(lanemap::tcgen05::validShapeN(s.kind, s.sparse, n, s.ctaGroup, s.ws));
    }
    EXPECT_GT(entries, 60);
}

// Every valid form places M x N elements on distinct cells inside Tensor Memory.
TEST(DataPathLayouts, EveryFormIsInjectiveAndInsideTensorMemory) {
    for (const Variant* v : Catalog::instance().variants()) {
        if (!lanemap::tmem::mmaOf(*v))
            continue;
        for (const int n : {validN(*lanemap::tmem::mmaOf(*v)).first, lanemap::tmem::mmaOf(*v)->n}) {
            MmaShape s = *lanemap::tmem::mmaOf(*v);
            s.n = n;
            SCOPED_TRACE(v->spec + " N=" + std::to_string(n));
            std::set<std::tuple<int, int, int>> seen;
            for (int m = 0; m < s.m; ++m)
                for (int c = 0; c < n; ++c) {
                    const Placement p = placeD(s, m, c);
                    ASSERT_TRUE(p.cta < s.ctaGroup && p.lane < kLanes && p.column < kColumns);
                    ASSERT_TRUE(seen.insert({p.cta, p.lane, p.column}).second);
                }
        }
    }
}

// ---- composition -----------------------------------------------------------------------------------------

// Issue the ld from every warp, at every lane half and column step, and read back which element each
// register got: the composed answer must name the same thread, register and access for every element.
void checkAgainstBruteForce(const MmaShape& s, const Access& a) {
    std::map<std::tuple<int, int, int>, std::pair<int, int>> element; // (cta, lane, column) -> (m, n)
    for (int m = 0; m < s.m; ++m)
        for (int n = 0; n < s.n; ++n) {
            const Placement p = placeD(s, m, n);
            element[{p.cta, p.lane, p.column}] = {m, n};
        }
    const int lanes = recordOf(a.shape).lanes, span = columnsOf(a);
    int maxColumn = 0;
    for (const auto& [cell, mn] : element)
        maxColumn = std::max(maxColumn, std::get<2>(cell));
    std::map<std::pair<int, int>, int> held;
    for (int cta = 0; cta < s.ctaGroup; ++cta)
        for (int warp = 0; warp < 4; ++warp)
            for (int laneBase = 32 * warp; laneBase < 32 * warp + 32; laneBase += lanes)
                for (int columnBase = 0; columnBase <= maxColumn; columnBase += span)
                    for (int t = 0; t < 32; ++t)
                        for (int r = 0; r < registersOf(a); ++r)
                            for (int h = 0; h < elementsPerRegister(a); ++h) {
                                const Cell c = cellOf(a, t, r, h);
                                const auto it = element.find({cta, laneBase + c.lane, columnBase + c.column});
                                if (it == element.end())
                                    continue; // a cell outside D
                                const auto [m, n] = it->second;
                                ++held[{m, n}];
                                const Holder expected{cta, warp, t, r, 16 * h, Address{laneBase, columnBase}};
                                ASSERT_EQ(whoHoldsD(s, a, m, n), expected) << "D[" << m << "][" << n << "]";
                            }
    ASSERT_EQ(held.size(), static_cast<std::size_t>(s.m * s.n)); // every element read, and once
    for (const auto& [mn, count] : held)
        ASSERT_EQ(count, 1);
}

TEST(Composition, WhoHoldsDMatchesBruteForceForEveryLayoutAndShape) {
    const std::vector<MmaShape> forms = {
        mma(256, 32, 2),
        mma(128, 64, 2),
        mma(128, 32, 2, false, true),
        mma(128, 32, 2, false, true, 16),
        mma(128, 16, 1),
        mma(64, 64, 1, true),
        mma(64, 8, 1),
        mma(64, 16, 1, false, false, 16),
        mma(32, 64, 1, true),
    };
    for (const MmaShape& s : forms)
        for (const Shape shape : kShapes)
            for (const bool packed : {false, true})
                for (const int num : {1, 4}) {
                    const Access a{Op::Ld, shape, num, packed};
                    SCOPED_TRACE(specOf(s, true) + " + " + specOf(a));
                    ASSERT_EQ(validateComposition(s, a), "");
                    checkAgainstBruteForce(s, a);
                }
}

TEST(Composition, TheUsualEpilogue) {
    // tcgen05.mma M=128 N=256 then tcgen05.ld.16x256b.x8 by the four warps: D[m][n] sits in warp m/32.
    const MmaShape s = mma(128, 256, 1);
    const Access a{Op::Ld, Shape::S16x256b, 8};
    const Holder h = whoHoldsD(s, a, 37, 70);
    EXPECT_EQ(h.warp, 1);
    EXPECT_EQ(h.address, (Address{32, 64}));                // lanes 32-47, columns 64-127
    EXPECT_EQ(h.thread, 4 * (37 - 32) + (70 - 64) % 8 / 2); // lane t/4, column 2(t%4) + r%2
    EXPECT_EQ(h.reg, 0 * 4 + (70 - 64) % 2);
    EXPECT_NE(validateComposition(s, Access{Op::Ld, Shape::S16x32bx2, 1, false, 4}).find("default"),
              std::string::npos);
}

TEST(Composition, StoreOfAInTensorMemoryPacksTwoHalvesARegister) {
    // A (f16) of M=128 K=16 in TMEM: 8 columns of two elements; tcgen05.st.32x32b.x8 puts A[m][k] from
    // thread m % 32 of warp m / 32, register k / 2, bits 16 (k % 2).
    const MmaShape s = mma(128, 256, 1);
    const Access st{Op::St, Shape::S32x32b, 8};
    for (int m = 0; m < 128; ++m)
        for (int k = 0; k < 16; ++k) {
            const Holder h = whoHoldsA(s, st, m, k, 16);
            ASSERT_EQ(h.warp, m / 32);
            ASSERT_EQ(h.thread, m % 32);
            ASSERT_EQ(h.reg, k / 2);
            ASSERT_EQ(h.bit, 16 * (k % 2));
        }
}

// ---- grammar -------------------------------------------------------------------------------------------

// The PTX string shown for a block-scaled kind is one ptxas accepts (it requires .block_scale, and mxf4nvf4 a
// vector size, though the ISA's example omits both); the spec keeps its short name and both spellings parse.
TEST(Tcgen05Spec, BlockScaledKindsSpellWhatPtxasRequires) {
    const Catalog& cat = Catalog::instance();
    const std::map<std::string, std::string> ptxOfSpec{
        {"tcgen05.mma.cta_group::1.kind::mxf8f6f4.m128",
         "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale"},
        {"tcgen05.mma.sp.cta_group::2.kind::mxf4.m256", "tcgen05.mma.sp.cta_group::2.kind::mxf4.block_scale"},
        {"tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128",
         "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X"},
        {"tcgen05.mma.cta_group::1.kind::f16.m128", "tcgen05.mma.cta_group::1.kind::f16"}};
    for (const auto& [spec, ptx] : ptxOfSpec) {
        const ParsedSpec byName = parseSpec(spec, cat);
        ASSERT_TRUE(byName) << spec << ": " << byName.error;
        EXPECT_EQ(byName.variant->spec, spec);
        EXPECT_EQ(byName.variant->ptx, ptx) << spec;
        const ParsedSpec byPtx = parseSpec(ptx + " [%r0], %rd1, %rd2, %r3, [%r4], [%r5], p;", cat);
        ASSERT_TRUE(byPtx) << ptx << ": " << byPtx.error;
        EXPECT_EQ(byPtx.variant, byName.variant) << ptx;
    }
}

TEST(Tcgen05Spec, ShortSpecsAndPtxStringsNameOneVariant) {
    const Catalog& cat = Catalog::instance();
    const ParsedSpec a = parseSpec("tcgen05.ld.16x256b.x8", cat);
    ASSERT_TRUE(a) << a.error;
    EXPECT_EQ(a.variant->ptx, "tcgen05.ld.sync.aligned.16x256b.x8.b32");
    const ParsedSpec b = parseSpec("tcgen05.ld.sync.aligned.16x256b.x8.b32 {%r0}, [%r1];", cat);
    ASSERT_TRUE(b) << b.error;
    EXPECT_EQ(b.variant, a.variant);
    const ParsedSpec c = parseSpec("tcgen05.st.16x64b.x2.unpack::16b", cat);
    ASSERT_TRUE(c) << c.error;
    EXPECT_EQ(c.variant->family->name, "tcgen05.st");
    const ParsedSpec d = parseSpec("tcgen05.mma.cta_group::1.kind::f16.m128n64", cat);
    ASSERT_TRUE(d) << d.error;
    EXPECT_EQ(d.variant->spec, "tcgen05.mma.cta_group::1.kind::f16.m128");
    EXPECT_EQ(d.params.n, 64);
    const ParsedSpec e = parseSpec("tcgen05.mma.cta_group::2.kind::f16", cat); // the PTX string: no M, N
    ASSERT_TRUE(e) << e.error;
    EXPECT_EQ(e.variant->m, 256);
    EXPECT_EQ(e.params.n, 256);
    const ParsedSpec f = parseSpec("tcgen05.mma.ws.cta_group::1.kind::f16.m32n64", cat);
    ASSERT_TRUE(f) << f.error;
    EXPECT_EQ(f.variant->spec, "tcgen05.mma.ws.cta_group::1.kind::f16.m32");
}

TEST(Tcgen05Spec, BadSpecsNameTheValidValues) {
    const Catalog& cat = Catalog::instance();
    EXPECT_NE(parseSpec("tcgen05.ld.16x256b.x64", cat).error.find(".x32"), std::string::npos);
    EXPECT_NE(parseSpec("tcgen05.ld.16x48b.x1", cat).error.find(".16x256b"), std::string::npos);
    EXPECT_NE(parseSpec("tcgen05.ld.16x64b.x2.unpack::16b", cat).error.find(".pack::16b"), std::string::npos);
    EXPECT_NE(parseSpec("tcgen05.mma.cta_group::1.kind::f16.m128n12", cat).error.find("valid N"),
              std::string::npos);
    EXPECT_NE(parseSpec("tcgen05.mma.cta_group::3.kind::f16", cat).error.find("cta_group::2"),
              std::string::npos);
    EXPECT_NE(parseSpec("tcgen05.mma.cta_group::1.kind::f32", cat).error.find("kind::mxf4nvf4"),
              std::string::npos);
    EXPECT_NE(parseSpec("tcgen05.cp.128x256b", cat).error.find("tcgen05.ld"), std::string::npos);
}

} // namespace

} // namespace test_tcgen05
