// ldmatrix / stmatrix / movmatrix: the data and address maps against hand-worked examples from the PTX ISA
// text (§9.7.14.5.15-17), the variant list, and the spec grammar.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/matrix_move.hpp"
#include "lanemap/spec.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <tuple>

namespace test_ldmatrix {

namespace {

using namespace lanemap;

const Instruction& get(const char* spec) {
    const Instruction* in = Catalog::instance().instruction(spec);
    if (!in)
        throw std::runtime_error(std::string("not in catalog: ") + spec);
    return *in;
}

// (matrix, row, col) of element `index` of `thread` in the instruction's register fragment `operand`.
std::tuple<int, int, int> at(const Instruction& in, Operand operand, int thread, int index) {
    const Element& e = in.operand(operand)->element(thread, index);
    return {std::max<int>(e.matrix, 0), e.row, e.col};
}

TEST(Ldmatrix, EveryListedVariantIsInTheCatalog) {
    const std::vector<std::string> expected{"ldmatrix.m8n8.x1.b16",
                                            "ldmatrix.m8n8.x2.b16",
                                            "ldmatrix.m8n8.x4.b16",
                                            "ldmatrix.m8n8.x1.trans.b16",
                                            "ldmatrix.m8n8.x2.trans.b16",
                                            "ldmatrix.m8n8.x4.trans.b16",
                                            "ldmatrix.m16n16.x1.trans.b8",
                                            "ldmatrix.m16n16.x2.trans.b8",
                                            "ldmatrix.m16n16.x1.trans.b8x16.b6x16_p32",
                                            "ldmatrix.m16n16.x2.trans.b8x16.b6x16_p32",
                                            "ldmatrix.m16n16.x1.trans.b8x16.b4x16_p64",
                                            "ldmatrix.m16n16.x2.trans.b8x16.b4x16_p64",
                                            "ldmatrix.m8n16.x1.b8x16.b6x16_p32",
                                            "ldmatrix.m8n16.x2.b8x16.b6x16_p32",
                                            "ldmatrix.m8n16.x4.b8x16.b6x16_p32",
                                            "ldmatrix.m8n16.x1.b8x16.b4x16_p64",
                                            "ldmatrix.m8n16.x2.b8x16.b4x16_p64",
                                            "ldmatrix.m8n16.x4.b8x16.b4x16_p64",
                                            "stmatrix.m8n8.x1.b16",
                                            "stmatrix.m8n8.x2.b16",
                                            "stmatrix.m8n8.x4.b16",
                                            "stmatrix.m8n8.x1.trans.b16",
                                            "stmatrix.m8n8.x2.trans.b16",
                                            "stmatrix.m8n8.x4.trans.b16",
                                            "stmatrix.m16n8.x1.trans.b8",
                                            "stmatrix.m16n8.x2.trans.b8",
                                            "stmatrix.m16n8.x4.trans.b8",
                                            "movmatrix.m8n8.trans.b16"};
    std::set<std::string> moves;
    for (const Variant* v : Catalog::instance().variants())
        if (matrixMoveOf(*v))
            moves.insert(v->spec);
    EXPECT_EQ(moves, std::set<std::string>(expected.begin(), expected.end()));
    EXPECT_EQ(Catalog::instance().variant("ldmatrix.m8n8.x4.trans.b16")->ptx,
              "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16");
    EXPECT_EQ(Catalog::instance().variant("movmatrix.m8n8.trans.b16")->ptx,
              "movmatrix.sync.aligned.m8n8.trans.b16");
    EXPECT_EQ(Catalog::instance().variant("stmatrix.m8n8.x2.b16")->minSm, 90);
    EXPECT_EQ(Catalog::instance().variant("ldmatrix.m8n8.x1.b16")->minSm, 75);
}

TEST(Ldmatrix, SmHundredFormsSayTheyAreNotConfirmedOnHardware) {
    for (const Variant* v : Catalog::instance().variants()) {
        if (!matrixMoveOf(*v) || v->minSm < 100)
            continue;
        bool said = false;
        for (const std::string& n : v->notes)
            said = said || n.find("not confirmed on hardware (needs sm_100a)") != std::string::npos;
        EXPECT_TRUE(said) << v->spec;
    }
    // The documents' ambiguities are shown where they apply.
    const auto hasNote = [](const char* spec, const char* words) {
        for (const std::string& n : get(spec).notes)
            if (n.find(words) != std::string::npos)
                return true;
        return false;
    };
    EXPECT_TRUE(hasNote("ldmatrix.m16n16.x1.trans.b8", "eight addresses per matrix"));
    EXPECT_TRUE(hasNote("ldmatrix.m8n16.x1.b8x16.b4x16_p64", "payload"));
    EXPECT_TRUE(hasNote("stmatrix.m16n8.x4.trans.b8", "stmatrix.sync.aligned.m16n8.x4.b8 has no .trans"));
}

// "Each thread in a warp loads fragments of a row, with thread 0 receiving the first fragment in its register
// r ... A group of four threads loads an entire row"; matrix i goes to register i.
TEST(Ldmatrix, NonTransposedThreadsHoldPairsOfARow) {
    const Instruction& x1 = get("ldmatrix.m8n8.x1.b16");
    EXPECT_EQ(at(x1, Operand::D, 0, 0), std::make_tuple(0, 0, 0));
    EXPECT_EQ(at(x1, Operand::D, 0, 1), std::make_tuple(0, 0, 1));
    EXPECT_EQ(at(x1, Operand::D, 5, 0), std::make_tuple(0, 1, 2));
    EXPECT_EQ(at(x1, Operand::D, 31, 1), std::make_tuple(0, 7, 7));
    const Instruction& x4 = get("ldmatrix.m8n8.x4.b16");
    EXPECT_EQ(at(x4, Operand::D, 13, 4), std::make_tuple(2, 3, 2)); // register 2 = matrix 2
    EXPECT_EQ(at(x4, Operand::D, 13, 7), std::make_tuple(3, 3, 3));
    const Element& e = x4.operand(Operand::D)->element(13, 5);
    EXPECT_EQ(e.reg, 2);
    EXPECT_EQ(e.bit, 16); // the second b16 of the register: its high half
}

// .trans: "the matrix is loaded in column-major format": lane 5 (groupID 1, threadID_in_group 1) gets rows 2
// and 3 of column 1.
TEST(Ldmatrix, TransposedThreadsHoldPairsOfAColumn) {
    const Instruction& t = get("ldmatrix.m8n8.x2.trans.b16");
    EXPECT_EQ(at(t, Operand::D, 5, 0), std::make_tuple(0, 2, 1));
    EXPECT_EQ(at(t, Operand::D, 5, 1), std::make_tuple(0, 3, 1));
    EXPECT_EQ(at(t, Operand::D, 31, 3), std::make_tuple(1, 7, 7));
}

TEST(Ldmatrix, AddressMapNamesTheRowEachThreadSupplies) {
    const std::vector<AddressSlot> x2 = addressMap(*Catalog::instance().variant("ldmatrix.m8n8.x2.b16"));
    ASSERT_EQ(x2.size(), 32u);
    EXPECT_EQ(x2[9].matrix, 1);
    EXPECT_EQ(x2[9].row, 1);
    EXPECT_EQ(x2[16].matrix, -1); // .x2: threads 16-31 supply no address
    const Variant& x1 = *Catalog::instance().variant("ldmatrix.m8n8.x1.b16");
    EXPECT_EQ(addressMap(x1)[8].matrix, -1);
    EXPECT_NE(unusedAddressRule(x1).find("sm_75"), std::string_view::npos);
    const std::vector<AddressSlot> x4 =
        addressMap(*Catalog::instance().variant("ldmatrix.m8n8.x4.trans.b16"));
    EXPECT_EQ(x4[31].matrix, 3);
    EXPECT_EQ(x4[31].row, 7);
    EXPECT_TRUE(addressMap(*Catalog::instance().variant("movmatrix.m8n8.trans.b16")).empty());
}

TEST(Ldmatrix, EveryMemoryRowHasExactlyOneSupplierAndEveryCellOneOwner) {
    for (const Variant* v : Catalog::instance().variants()) {
        if (!matrixMoveOf(*v))
            continue;
        const Instruction& in = Catalog::instance().instruction(*v);
        const FragmentLayout& regs = in.operands.back();
        std::set<std::tuple<int, int, int>> cells;
        for (const Element& e : regs.elements())
            EXPECT_TRUE(cells.insert({std::max<int>(e.matrix, 0), e.row, e.col}).second) << v->spec;
        EXPECT_EQ(cells.size(),
                  static_cast<std::size_t>(numOf(*v) * matrixMoveOf(*v)->rows * matrixMoveOf(*v)->cols))
            << v->spec;
        if (!matrixMoveOf(*v)->address)
            continue;
        std::set<std::pair<int, int>> rows;
        for (const AddressSlot& s : addressMap(*v)) {
            if (s.matrix >= 0) {
                EXPECT_TRUE(rows.insert({s.matrix, s.row}).second) << v->spec;
            }
        }
        EXPECT_EQ(rows.size(), static_cast<std::size_t>(numOf(*v) * matrixMoveOf(*v)->rows)) << v->spec;
    }
}

// stmatrix is "the exact inverse" of ldmatrix: the same slots, the other direction.
TEST(Stmatrix, DataMapIsLdmatrixInReverse) {
    for (const char* num : {"x1", "x2", "x4"})
        for (const char* trans : {"", ".trans"}) {
            const Instruction& ld = get((std::string("ldmatrix.m8n8.") + num + trans + ".b16").c_str());
            const Instruction& st = get((std::string("stmatrix.m8n8.") + num + trans + ".b16").c_str());
            const FragmentLayout& l = *ld.operand(Operand::D);
            const FragmentLayout& s = *st.operand(Operand::A);
            ASSERT_EQ(l.elements().size(), s.elements().size());
            for (std::size_t i = 0; i < l.elements().size(); ++i) {
                EXPECT_EQ(l.elements()[i].row, s.elements()[i].row);
                EXPECT_EQ(l.elements()[i].col, s.elements()[i].col);
                EXPECT_EQ(l.elements()[i].matrix, s.elements()[i].matrix);
            }
        }
}

// movmatrix: lane L holds a[L/4][2(L%4)+j] before and a[2(L%4)+j][L/4] after (drawn in a's coordinates).
TEST(Movmatrix, ResultIsTheTransposeOfTheSourceFragment) {
    const Instruction& mv = get("movmatrix.m8n8.trans.b16");
    ASSERT_EQ(mv.operands.size(), 2u);
    EXPECT_EQ(at(mv, Operand::A, 6, 1), std::make_tuple(0, 1, 5));
    EXPECT_EQ(at(mv, Operand::D, 6, 0), std::make_tuple(0, 4, 1));
    EXPECT_EQ(at(mv, Operand::D, 6, 1), std::make_tuple(0, 5, 1));
}

// Sub-byte sources expand into 8-bit containers: byte b of lane L's register is element 4t + b of row g.
TEST(Ldmatrix, ExpandedFourBitElementsSitInEightBitContainers) {
    const Instruction& in = get("ldmatrix.m8n16.x1.b8x16.b4x16_p64");
    const FragmentLayout& d = *in.operand(Operand::D);
    EXPECT_EQ(d.containerBits(), 8);
    EXPECT_EQ(d.elementBits(), 4);
    const Element& e = d.element(7, 3); // groupID 1, threadID_in_group 3
    EXPECT_EQ(e.row, 1);
    EXPECT_EQ(e.col, 15);
    EXPECT_EQ(e.bit, 24 + 2); // byte 3, payload in bits 5-2 of the container
}

TEST(LdmatrixSpec, PtxStringsAreAcceptedAndCanonicalized) {
    const Catalog& c = Catalog::instance();
    ParsedSpec p =
        parseSpec("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r0,%r1,%r2,%r3}, [%rd1];", c);
    ASSERT_TRUE(p) << p.error;
    EXPECT_EQ(p.variant->spec, "ldmatrix.m8n8.x4.trans.b16");
    EXPECT_EQ(p.ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16");
    p = parseSpec("STMATRIX.sync.aligned.m8n8.x2.shared.b16", c);
    ASSERT_TRUE(p) << p.error;
    EXPECT_EQ(p.variant->spec, "stmatrix.m8n8.x2.b16");
    p = parseSpec("movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r0;", c);
    ASSERT_TRUE(p) << p.error;
    EXPECT_EQ(p.variant->spec, "movmatrix.m8n8.trans.b16");
    p = parseSpec("ldmatrix.sync.aligned.m8n8.x1.b16", c); // no state space: generic addressing, same layout
    ASSERT_TRUE(p) << p.error;
    EXPECT_EQ(p.variant->spec, "ldmatrix.m8n8.x1.b16");
}

TEST(LdmatrixSpec, InvalidFormsSayWhatIsValid) {
    const Catalog& c = Catalog::instance();
    ParsedSpec p = parseSpec("ldmatrix.m8n8.b16", c);
    EXPECT_FALSE(p);
    EXPECT_NE(p.error.find(".x1, .x2 or .x4"), std::string::npos) << p.error;
    p = parseSpec("ldmatrix.m16n16.x4.trans.b8", c); // ptxas: only x1/x2
    EXPECT_FALSE(p);
    EXPECT_NE(p.error.find("valid: ldmatrix.m8n8.x1.b16"), std::string::npos) << p.error;
    p = parseSpec("stmatrix.m16n8.x4.b8", c); // the ISA's example without .trans (ptxas rejects it)
    EXPECT_FALSE(p);
    p = parseSpec("movmatrix.m8n8.x1.trans.b16", c);
    EXPECT_FALSE(p);
    EXPECT_NE(p.error.find("takes no .x1"), std::string::npos) << p.error;
    p = parseSpec("ldmatrix.sync.m8n8.x1.b16", c);
    EXPECT_NE(p.error.find("both .sync and .aligned"), std::string::npos) << p.error;
}

TEST(LdmatrixExport, JsonCarriesTheAddressMapAndTextShowsIt) {
    const Instruction& in = get("ldmatrix.m8n8.x2.b16");
    const nlohmann::json doc = nlohmann::json::parse(toJson(in));
    EXPECT_EQ(doc["family"], "ldmatrix");
    EXPECT_FALSE(doc.contains("types"));
    const nlohmann::json& mm = doc["matrix_move"];
    EXPECT_EQ(mm["op"], "ldmatrix");
    EXPECT_EQ(mm["num"], 2);
    EXPECT_EQ(mm["type"], "b16");
    EXPECT_EQ(mm["address_map"].size(), 32u);
    EXPECT_EQ(mm["address_map"][9]["matrix"], 1);
    EXPECT_TRUE(mm["address_map"][16]["matrix"].is_null());
    EXPECT_EQ(doc["operands"][0]["name"], "D");
    const std::string text = toText(in);
    EXPECT_NE(text.find("matrix 1:  r0<-T8  r1<-T9"), std::string::npos) << text;
    EXPECT_NE(text.find("threads T16,T17"), std::string::npos);
}

// Every matrix move exports JSON, text and SVG ("Done when" of the issue): the JSON names its PTX and has one
// address-map entry per thread (none for movmatrix), the text its spec, the SVG the last lane's cells.
TEST(LdmatrixExport, EveryMoveExportsJsonTextAndSvg) {
    int moves = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!matrixMoveOf(*v))
            continue;
        ++moves;
        const Instruction& in = Catalog::instance().instruction(*v);
        std::string json, text, svg, error;
        ASSERT_TRUE(exportInstruction(in, ExportFormat::Json, {}, json, error)) << v->spec << ": " << error;
        ASSERT_TRUE(exportInstruction(in, ExportFormat::Text, {}, text, error)) << v->spec << ": " << error;
        ASSERT_TRUE(exportInstruction(in, ExportFormat::Svg, {}, svg, error)) << v->spec << ": " << error;
        const nlohmann::json doc = nlohmann::json::parse(json);
        EXPECT_EQ(doc["ptx"], v->ptx);
        EXPECT_EQ(doc["matrix_move"]["address_map"].size(), matrixMoveOf(*v)->address ? 32u : 0u) << v->spec;
        EXPECT_EQ(text.rfind(v->spec, 0), 0u) << v->spec;
        EXPECT_NE(svg.find(">T31:"), std::string::npos) << v->spec;
    }
    EXPECT_EQ(moves, 28);
}

} // namespace

} // namespace test_ldmatrix
