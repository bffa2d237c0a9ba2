// Layouts in (lanemap/layout_in.hpp): CuTe and Triton text read back into a layout, compared with the
// catalog cell by cell; errors name the column; every variant's --format cute and --format triton output
// reads back to the very operand it was exported from.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/layout_in.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace test_layout_in {

namespace {

using namespace lanemap;
using namespace lanemap::layout_in;

Layout readOk(std::string_view text, ReadOptions options = {}) {
    std::variant<Layout, ReadError> r = read(text, options);
    if (const ReadError* e = std::get_if<ReadError>(&r))
        ADD_FAILURE() << "cannot read " << text << ": " << e->describe();
    return std::holds_alternative<Layout>(r) ? std::get<Layout>(r) : Layout{};
}

ReadError readFails(std::string_view text, ReadOptions options = {}) {
    std::variant<Layout, ReadError> r = read(text, options);
    EXPECT_TRUE(std::holds_alternative<ReadError>(r)) << text << " was read";
    return std::holds_alternative<ReadError>(r) ? std::get<ReadError>(r) : ReadError{};
}

const FragmentLayout& operandOf(std::string_view spec, Operand operand) {
    const Instruction* in = Catalog::instance().instruction(spec);
    EXPECT_NE(in, nullptr) << spec;
    return *in->operand(operand);
}

// CUTLASS's MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>::ALayout, as cute::print writes it.
constexpr std::string_view kSm80A = "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))";

} // namespace

TEST(LayoutIn, CutlassSm80ALayoutIsMmaM16n8k16A) {
    const Layout l = readOk(kSm80A);
    EXPECT_EQ(l.notation, Notation::CuteLayout);
    EXPECT_EQ(l.threads, 32);
    EXPECT_EQ(l.values, 8);
    EXPECT_EQ(l.canonical, "((4,8),(2,2,2)):((32,1),(16,8,128))");
    const Comparison c = compare(l, operandOf("mma.m16n8k16.f16", Operand::A));
    EXPECT_TRUE(c.equal()) << c.why << " " << c.differing;
    EXPECT_EQ(c.cells, 256);
    // The same layout is not B (8 x 16 as CuTe's (N,K)) nor C.
    EXPECT_FALSE(compare(l, operandOf("mma.m16n8k16.f16", Operand::B)).equal());
}

TEST(LayoutIn, TheCppTypeReadsAsCutlassSpellsIt) {
    // Blanks, line breaks, a comment, cute::, Int<N>, _N, C<N>, plain integers and values {} all mean the
    // same.
    const Layout printed = readOk(kSm80A);
    for (std::string_view text : {
             "Layout<Shape<Shape<_4,_8>,Shape<_2,_2,_2>>, Stride<Stride<_32,_1>,Stride<_16,_8,_128>>>",
             "using ALayout = cute::Layout<cute::Shape <cute::Shape <cute::_4, cute::_8>,\n"
             "                                          cute::Shape <cute::_2, cute::_2, cute::_2>>,\n"
             "                              cute::Stride<cute::Stride<cute::_32, cute::_1>, // thread\n"
             "                                           cute::Stride<cute::_16, cute::_8, cute::_128>>>;",
             "Layout<Shape<Shape<Int<4>,Int<8>>,Shape<C<2>,_2,2>>,Stride<Stride<Int<32>{},_1{}>,Stride<16,8,"
             "128>>>{}",
         }) {
        const Layout l = readOk(text);
        EXPECT_EQ(l.notation, Notation::CuteType) << text;
        EXPECT_EQ(l.index, printed.index) << text;
    }
}

TEST(LayoutIn, ErrorsNameTheColumnAndWhatWasExpected) {
    ReadError e = readFails("((4,8),(2,2]:((32,1),(16,8))");
    EXPECT_EQ(e.line, 1);
    EXPECT_EQ(e.column, 12);
    EXPECT_NE(e.message.find("expected ',' or ')'"), std::string::npos) << e.message;
    EXPECT_NE(e.message.find("']'"), std::string::npos) << e.message;
    EXPECT_EQ(e.describe().rfind("line 1, column 12: ", 0), 0u) << e.describe();

    e = readFails("((4,8),(2,2)):((32,1),16)");
    EXPECT_EQ(e.column, 23); // the stride mode that is not congruent with (2,2)
    EXPECT_NE(e.message.find("not congruent"), std::string::npos) << e.message;

    e = readFails("(32):(1)");
    EXPECT_NE(e.message.find("two top-level modes"), std::string::npos) << e.message;

    e = readFails("Layout<Shape<_4,_8>,\n  Stride<_1,_x4>>");
    EXPECT_EQ(e.line, 2);
    EXPECT_EQ(e.column, 13);

    e = readFails("#ttg.linear<{register = [[0, 1]], lane = [[1, 0] [2, 0]]}>");
    EXPECT_NE(e.message.find("',' or ']' after a basis"), std::string::npos) << e.message;
    EXPECT_EQ(e.column, 50);

    e = readFails("#ttg.nvidia_mma<{versionMajor = 2}>");
    EXPECT_NE(e.message.find("#ttg.nvidia_mma needs warpsPerCTA"), std::string::npos) << e.message;
    e = readFails("#ttg.amd_mfma<{versionMajor = 2}>");
    EXPECT_NE(e.message.find("not read yet"), std::string::npos) << e.message;
    e = readFails("#ttg.linear<{register = [], lane = [[1, 0]], warp = [], block = [[0, 1]]}>");
    EXPECT_NE(e.message.find("block"), std::string::npos) << e.message;
    e = readFails("{\"operand\": \"A\", \"bases\": {\"register\": [[0,1]]}");
    EXPECT_NE(e.message.find("not valid JSON"), std::string::npos) << e.message;
    e = readFails("   ");
    EXPECT_NE(e.message.find("expected a layout"), std::string::npos) << e.message;
    // A number JSON cannot hold (the fuzzer's 1e632) is an error, not an escaped exception.
    e = readFails("{\"operla\":1e632r}}");
    EXPECT_NE(e.message.find("not valid JSON"), std::string::npos) << e.message;
    e = readFails("{\"operand\": \"A\", \"bases\": {\"register\": [[1e632, 0]]}}");
    EXPECT_NE(e.message.find("not valid JSON"), std::string::npos) << e.message;
}

TEST(LayoutIn, TritonLinearAttributeIsMmaM16n8k16A) {
    // docs/reference/exports.md's example, as Triton prints it in an IR dump (an alias line).
    const Layout l =
        readOk("#linear = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], "
               "[1, 0], [2, 0], [4, 0]], warp = [], block = []}>");
    EXPECT_EQ(l.notation, Notation::TritonLinear);
    EXPECT_EQ(l.threads, 32);
    EXPECT_EQ(l.values, 8);
    ASSERT_TRUE(l.extent);
    EXPECT_EQ(*l.extent, (Extent{16, 16, 1}));
    EXPECT_TRUE(compare(l, operandOf("mma.m16n8k16.f16", Operand::A)).equal());
    // B in Triton is K x N, as lanemap draws it: no transposition.
    const Identification id = identify(l);
    ASSERT_FALSE(id.equal.empty());
    bool named = false;
    for (const Match& m : id.equal)
        named = named || (m.instruction->spec == "mma.m16n8k16.f16" && m.operand == Operand::A);
    EXPECT_TRUE(named);
}

TEST(LayoutIn, ABlockedLayoutIsItsLinearLayoutOverTheShape) {
    // Registers, lanes, warps, each in `order` (dim1 first), then registers until the tile covers 32 x 32.
    constexpr std::string_view kBlocked =
        "#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
        "warpsPerCTA = [2, 2], order = [1, 0]}>";
    std::string error;
    const Layout l = readOk(kBlocked, {parseExtent("32x32", error), {}, {}});
    EXPECT_EQ(l.notation, Notation::TritonBlocked);
    const Layout linear =
        readOk("#ttg.linear<{register = [[0, 1], [0, 2], [16, 0]], lane = [[0, 4], [0, 8], [1, 0], "
               "[2, 0], [4, 0]], warp = [[0, 16], [8, 0]], block = []}>");
    EXPECT_EQ(l.coord, linear.coord);
    EXPECT_EQ(l.threads, 128);
    EXPECT_NE(l.canonical.find(linear.canonical), std::string::npos) << l.canonical;
    // It needs the shape, and a tile larger than the tensor (Triton broadcasts it) is refused.
    EXPECT_NE(readFails(kBlocked).message.find("--shape"), std::string::npos);
    EXPECT_NE(
        readFails(kBlocked, {parseExtent("8x32", error), {}, {}}).message.find("more than the tensor's 8"),
        std::string::npos);
    EXPECT_NE(
        readFails("#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], "
                  "order = [1, 0]}>",
                  {parseExtent("32x32", error), {}, {}})
            .message.find("powers of two"),
        std::string::npos);
    EXPECT_NE(readFails("#ttg.blocked<{sizePerThread = [1, 4], CTAsPerCGA = [2, 1], threadsPerWarp = [8, 4], "
                        "warpsPerCTA = [2, 2], order = [1, 0]}>",
                        {parseExtent("32x32", error), {}, {}})
                  .message.find("several CTAs"),
              std::string::npos);
}

TEST(LayoutIn, ADifferenceIsCountedAndItsFirstCellNamed) {
    // SM80 A with the value strides 16 and 8 swapped: v1 holds row m+8 (PTX's a2), v2 column k+1 (a1).
    const Layout l = readOk("((4,8),(2,2,2)):((32,1),(8,16,128))");
    const Comparison c = compare(l, operandOf("mma.m16n8k16.f16", Operand::A));
    EXPECT_FALSE(c.equal());
    EXPECT_EQ(c.differing, 128);
    EXPECT_EQ(c.sameThreads, 128); // the same threads, other value numbers
    ASSERT_FALSE(c.first.empty());
    EXPECT_EQ(c.first[0].at, (Coord{8, 0, 0})); // index 8: m 8, k 0 (column-major)
    EXPECT_EQ(c.first[0].layout, (std::vector<Owner>{{0, 1}}));
    EXPECT_EQ(c.first[0].operand, (std::vector<Owner>{{0, 2}}));
    // Folded 16x16 it is no operand (the nearest differ in 128 cells); with no shape it is the B of the 8-bit
    // m16n8k32 (8 x 32 as CuTe's (N,K)): identify tries every shape.
    std::string error;
    const Identification id =
        identify(readOk("((4,8),(2,2,2)):((32,1),(8,16,128))", {parseExtent("16x16", error), {}, {}}));
    EXPECT_TRUE(id.equal.empty());
    ASSERT_FALSE(id.nearest.empty());
    EXPECT_EQ(id.nearest.front().comparison.differing, 128);
    bool b = false;
    for (const Match& m : identify(l).equal)
        b = b || (m.instruction->spec == "mma.m16n8k32.s8" && m.operand == Operand::B);
    EXPECT_TRUE(b);
}

TEST(LayoutIn, ShapeIsCheckedAgainstTheOperand) {
    ReadOptions o;
    std::string error;
    o.extent = parseExtent("16x8", error);
    ASSERT_TRUE(o.extent) << error;
    const Comparison c = compare(readOk(kSm80A, o), operandOf("mma.m16n8k16.f16", Operand::A));
    EXPECT_FALSE(c.sameShape);
    EXPECT_NE(c.why.find("16x8"), std::string::npos) << c.why;
    EXPECT_FALSE(parseExtent("16x", error));
    EXPECT_NE(error.find("DIM0xDIM1"), std::string::npos) << error;
    EXPECT_FALSE(parseExtent("0x4", error));
    EXPECT_EQ(*parseExtent("8X4x4", error), (Extent{8, 4, 4}));
    // A CuTe index outside the shape is named with its thread and value.
    EXPECT_FALSE(cellsIn(readOk(kSm80A), Extent{8, 8, 1}, error));
    EXPECT_NE(error.find("outside the 8x8 shape"), std::string::npos) << error;
    // A Triton basis may span a huge tensor: refused, not allocated.
    const Layout wide = readOk("{register = [[32768, 0], [0, 32768]]}");
    ASSERT_TRUE(wide.extent);
    EXPECT_EQ(*wide.extent, (Extent{65536, 65536, 1}));
    EXPECT_FALSE(cellsIn(wide, *wide.extent, error));
    EXPECT_NE(error.find("more than 2^24 elements"), std::string::npos) << error;
}

TEST(LayoutIn, APastedLayoutIsDrawnAsARegisterPlacement) {
    // A Triton layout that holds every element twice (a zero register basis) over a 4 x 8 tile.
    const Layout l = readOk("{register = [[0, 0]], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]}");
    ASSERT_TRUE(l.extent);
    EXPECT_EQ(*l.extent, (Extent{4, 8, 1}));
    std::string error;
    const auto cells = cellsIn(l, *l.extent, error);
    ASSERT_TRUE(cells) << error;
    const Instruction in = instructionOf(l, *l.extent, *cells);
    ASSERT_EQ(in.placements.size(), 1u);
    EXPECT_EQ(in.placements[0].space(), Space::Registers);
    const Diagram d = buildDiagram(in);
    ASSERT_EQ(d.panels.size(), 1u);
    EXPECT_EQ(d.panels[0].name, "layout");
    EXPECT_EQ(d.panels[0].rows, 4);
    EXPECT_EQ(d.panels[0].cols, 8);
    EXPECT_EQ(d.cells.size(), 64u); // 32 cells, each drawn with its two owners
    EXPECT_EQ(d.label(d.cells[0]), "T0:v0");
    EXPECT_EQ(d.cells[0].owners, 2);
    const std::string text = toText(l, *l.extent, *cells);
    EXPECT_NE(text.find("T0:v0/T0:v1"), std::string::npos) << text;
    EXPECT_NE(text.find("0 cells held by no thread, 32 by several"), std::string::npos) << text;
    const nlohmann::json j = nlohmann::json::parse(toJson(l, *l.extent, *cells));
    EXPECT_EQ(j["elements"].size(), 64u);
    EXPECT_EQ(j["elements"][1], nlohmann::json({0, 1, 0, 0}));
}

// A file of the source tree, whole ("" when it cannot be read: the test's comparisons then fail).
std::string sourceFile(const std::string& path) {
    std::ifstream in(LANEMAP_SOURCE_DIR "/" + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(LayoutIn, CutlassConformanceIsAsRecorded) {
    // resources/conform/cutlass-4.7.0.txt: CUTLASS's own MMA_Traits layouts (docs/conform/cutlass-4.7.0.md).
    std::string error;
    const std::optional<std::vector<ConformLine>> lines =
        conform(sourceFile("resources/conform/cutlass-4.7.0.txt"), error);
    ASSERT_TRUE(lines) << error;
    ASSERT_EQ(lines->size(), 100u);
    int equal = 0, mapped = 0;
    for (const ConformLine& l : *lines) {
        equal += l.verdict == Conformance::Equal;
        // Volta's atoms are compared through their ThrID: CuTe threads 0-7 are lanes 0-3 and 16-19.
        if (l.atom.rfind("SM70_", 0) == 0) {
            ++mapped;
            EXPECT_EQ(l.threadMap, (std::vector<int>{0, 1, 2, 3, 16, 17, 18, 19})) << l.claim;
        }
        // Its ALayout's stride is ((16,8)), read as (16,8).
        if (l.atom == "SM80_16x8x128_S32U1U1S32_TN_XORPOPC") {
            EXPECT_EQ(l.verdict, Conformance::Equal) << l.claim << ": " << l.detail;
        }
        if (l.verdict == Conformance::NotLinear) { // sparse A: no fixed layout
            EXPECT_EQ(l.claim, "SM90::GMMA::SPARSE::GMMA_64x64x32_F32F16F16_RS:A");
        }
    }
    EXPECT_EQ(equal, 99);
    EXPECT_EQ(mapped, 6);
    const std::string matrix = conformMatrix(*lines);
    EXPECT_NE(matrix.find("100 layouts: 99 equal, 0 differ, 1 not linear, 0 unknown"), std::string::npos)
        << matrix;
    // The file kept in docs/conform/ is what conform prints.
    EXPECT_NE(sourceFile("docs/conform/cutlass-4.7.0.md").find(matrix), std::string::npos)
        << "docs/conform/cutlass-4.7.0.md is not what conform prints";
}

TEST(LayoutIn, TritonConformanceIsAsRecorded) {
    // resources/conform/triton-3.6.0.txt: Triton's own linear layouts of its MMA encodings
    // (docs/conform/triton-3.6.0.md), dumped with Triton 3.6.0.
    std::string error;
    const std::optional<std::vector<ConformLine>> lines =
        conform(sourceFile("resources/conform/triton-3.6.0.txt"), error);
    ASSERT_TRUE(lines) << error;
    // A rerun of the dumper adds the shared encodings of wgmma's operands (both notations of each): every one
    // is lanemap's descriptor layout byte for byte but the 8-bit N-major B, which wgmma does not read.
    std::vector<ConformLine> registers;
    int shared = 0;
    for (const ConformLine& l : *lines) {
        if (!l.shared) {
            registers.push_back(l);
            continue;
        }
        ++shared;
        EXPECT_EQ(l.verdict, l.claim == "wgmma.m64n8k32.s8:B" ? Conformance::Differs : Conformance::Equal)
            << l.claim << ": " << l.detail;
    }
    // 18 #ttg.linear lines; a rerun of the dumper (since it prints them) adds Triton's own attribute text
    // (#ttg.nvidia_mma, #ttg.dot_op) after each, with the same verdict.
    ASSERT_TRUE(registers.size() == 18u || registers.size() == 36u) << registers.size();
    const std::size_t per = registers.size() / 18u;
    for (const ConformLine& l : registers) {
        // Triton tiles K by the larger instruction: its m16n8k8 f16 and m16n8k16 s8 operands are those of
        // m16n8k16 and m16n8k32, each element held twice; every other line is lanemap's operand.
        const bool smallerK =
            l.claim.rfind("mma.m16n8k8.f16:", 0) == 0 || l.claim.rfind("mma.m16n8k16.s8:", 0) == 0;
        const bool operand = l.claim.back() == 'A' || l.claim.back() == 'B';
        EXPECT_EQ(l.verdict, smallerK && operand ? Conformance::Differs : Conformance::Equal) << l.claim;
    }
    const std::string matrix = conformMatrix(*lines);
    if (shared == 0) { // the totals with shared lines are what docs/conform/triton-3.6.0.md records
        EXPECT_NE(matrix.find(std::to_string(18 * per) + " layouts: " + std::to_string(14 * per) +
                              " equal, " + std::to_string(4 * per) + " differ, 0 not linear, 0 unknown"),
                  std::string::npos)
            << matrix;
    }
    EXPECT_NE(sourceFile("docs/conform/triton-3.6.0.md").find(matrix), std::string::npos)
        << "docs/conform/triton-3.6.0.md is not what conform prints";
}

namespace {

// The encodings tools/triton_layouts/dump_triton_layouts.py asked Triton 3.6.0 to convert, claim by claim,
// as Triton prints them, and the shape it gave: resources/conform/triton-3.6.0.txt holds Triton's answer.
struct Dumped {
    std::string_view claim, attribute, shape;
};
constexpr std::string_view kMmaV2 =
    "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>";
std::vector<Dumped> dumpedByTriton() {
    static const std::string v2(kMmaV2);
    static const std::string a2 = "#ttg.dot_op<{opIdx = 0, parent = " + v2 + ", kWidth = 2}>";
    static const std::string b2 = "#ttg.dot_op<{opIdx = 1, parent = " + v2 + ", kWidth = 2}>";
    static const std::string a4 = "#ttg.dot_op<{opIdx = 0, parent = " + v2 + ", kWidth = 4}>";
    static const std::string b4 = "#ttg.dot_op<{opIdx = 1, parent = " + v2 + ", kWidth = 4}>";
    auto v3 = [](int n, int k) {
        return "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = "
               "[16, " +
               std::to_string(n) + ", " + std::to_string(k) + "]}>";
    };
    static const std::string d64 = v3(64, 16), d128 = v3(128, 16), d64s8 = v3(64, 32);
    static const std::string a64 = "#ttg.dot_op<{opIdx = 0, parent = " + d64 + ", kWidth = 2}>";
    static const std::string a128 = "#ttg.dot_op<{opIdx = 0, parent = " + d128 + ", kWidth = 2}>";
    static const std::string a64s8 = "#ttg.dot_op<{opIdx = 0, parent = " + d64s8 + ", kWidth = 4}>";
    return {{"mma.m16n8k16.f16:C", v2, "16x8"},         {"mma.m16n8k16.f16:A", a2, "16x16"},
            {"mma.m16n8k16.f16:B", b2, "16x8"},         {"mma.m16n8k8.f16:C", v2, "16x8"},
            {"mma.m16n8k8.f16:A", a2, "16x8"},          {"mma.m16n8k8.f16:B", b2, "8x8"},
            {"mma.m16n8k32.s8:C", v2, "16x8"},          {"mma.m16n8k32.s8:A", a4, "16x32"},
            {"mma.m16n8k32.s8:B", b4, "32x8"},          {"mma.m16n8k16.s8:C", v2, "16x8"},
            {"mma.m16n8k16.s8:A", a4, "16x16"},         {"mma.m16n8k16.s8:B", b4, "16x8"},
            {"wgmma.m64n64k16.f16:D", d64, "64x64"},    {"wgmma.m64n64k16.f16:A", a64, "64x16"},
            {"wgmma.m64n128k16.f16:D", d128, "64x128"}, {"wgmma.m64n128k16.f16:A", a128, "64x16"},
            {"wgmma.m64n64k32.s8:D", d64s8, "64x64"},   {"wgmma.m64n64k32.s8:A", a64s8, "64x32"}};
}

// claim -> the #ttg.linear text Triton printed for it (the file's #ttg.linear lines).
std::map<std::string, std::string> recordedLinear() {
    std::map<std::string, std::string> linear;
    std::istringstream in(sourceFile("resources/conform/triton-3.6.0.txt"));
    for (std::string line; std::getline(in, line);) {
        const std::size_t space = line.find(' ');
        if (line.empty() || line[0] == '#' || space == std::string::npos)
            continue;
        if (line.compare(space + 1, 11, "#ttg.linear") == 0)
            linear[line.substr(0, space)] = line.substr(space + 1);
    }
    return linear;
}

} // namespace

TEST(LayoutIn, TritonMmaEncodingsConvertAsTritonDid) {
    // Each encoding the dumper gave Triton 3.6.0, read and converted here, is the very #ttg.linear Triton
    // printed for it: the same bases in the same order (zero bases of a broadcast included).
    const std::map<std::string, std::string> linear = recordedLinear();
    ASSERT_EQ(linear.size(), 18u);
    for (const Dumped& d : dumpedByTriton()) {
        std::string error;
        ReadOptions o;
        o.extent = parseExtent(d.shape, error);
        const Layout l = readOk(d.attribute, o);
        const auto recorded = linear.find(std::string(d.claim));
        ASSERT_NE(recorded, linear.end()) << d.claim;
        const std::string tail = " = " + recorded->second;
        EXPECT_TRUE(l.canonical.size() > tail.size() &&
                    l.canonical.compare(l.canonical.size() - tail.size(), tail.size(), tail) == 0)
            << d.claim << "\n  lanemap: " << l.canonical << "\n  Triton:  " << recorded->second;
        EXPECT_EQ(l.coord, readOk(recorded->second).coord) << d.claim;
        EXPECT_EQ(l.notation, d.attribute.rfind("#ttg.dot_op", 0) == 0 ? Notation::TritonDotOperand
                                                                       : Notation::TritonMma);
    }
    // Lines of Triton's own attribute text in the file (a rerun of the dumper prints them after each
    // #ttg.linear line) convert to that line's layout too.
    std::istringstream in(sourceFile("resources/conform/triton-3.6.0.txt"));
    for (std::string line; std::getline(in, line);) {
        const std::size_t space = line.find(' ');
        if (line.empty() || line[0] == '#' || space == std::string::npos ||
            line.compare(space + 1, 11, "#ttg.linear") == 0)
            continue;
        const std::string claim = line.substr(0, space);
        const std::string_view op = std::string_view(claim).substr(claim.rfind(':') + 1);
        const Instruction* instruction = Catalog::instance().instruction(claim.substr(0, claim.rfind(':')));
        ASSERT_NE(instruction, nullptr) << claim;
        ReadOptions o;
        o.shapeOf = extentOf(*accumulatorOr(*instruction, *parseOperand(op)), Notation::TritonLinear);
        EXPECT_EQ(readOk(line.substr(space + 1), o).coord, readOk(linear.at(claim)).coord) << claim;
    }
}

TEST(LayoutIn, TritonIrDumpAliasesAreRead) {
    // As an IR dump prints them: the parent on its own alias line, other aliases around it.
    const std::string dump =
        "#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
        "warpsPerCTA = [4, 1], order = [1, 0]}>\n"
        "#loc = loc(\"/tmp/kernel.py\":12:0)\n#mma = " +
        std::string(kMmaV2) +
        "\n#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, "
        "0]}>\n#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>\n";
    const Layout l = readOk(dump);
    EXPECT_EQ(l.notation, Notation::TritonDotOperand);
    ASSERT_TRUE(l.extent);
    EXPECT_EQ(*l.extent, (Extent{16, 16, 1})); // no --shape: one tile of the instruction per warp
    EXPECT_TRUE(compare(l, operandOf("mma.m16n8k16.f16", Operand::A)).equal());
    // Run together on one line, as a paste can make it.
    EXPECT_TRUE(compare(readOk("#mma = " + std::string(kMmaV2) +
                               " #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>"),
                        operandOf("mma.m16n8k16.f16", Operand::B))
                    .equal());
    // The alias line alone is the accumulator.
    EXPECT_TRUE(
        compare(readOk("#mma = " + std::string(kMmaV2)), operandOf("mma.m16n8k16.f16", Operand::C)).equal());
    // Warps: Ampere's in order [1, 0], each scaled by the tile; A's broadcast along K (the warps of a
    // column of C read the same A); registers repeat dim1 first over a larger tensor.
    std::string error;
    const std::string mma22 =
        "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>";
    EXPECT_EQ(readOk(mma22, {parseExtent("64x32", error), {}, {}}).canonical,
              mma22 + " over 64x32 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 16], [32, 0]], lane = [[0, "
                      "2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[0, 8], [16, 0]], block = []}>");
    const Layout a = readOk("#ttg.dot_op<{opIdx = 0, parent = " + mma22 + ", kWidth = 2}>");
    EXPECT_EQ(
        a.canonical.substr(a.canonical.find(" over ")),
        " over 32x16 = #ttg.linear<{register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], "
        "[2, 0], [4, 0]], warp = [[0, 0], [16, 0]], block = []}>");
}

TEST(LayoutIn, TritonMmaEncodingErrorsNameTheField) {
    ReadError e = readFails("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>");
    EXPECT_NE(e.message.find("#mma is not defined"), std::string::npos) << e.message;
    EXPECT_EQ(e.column, 34);
    e = readFails("#ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = "
                  "[16, 8]}>");
    EXPECT_NE(e.message.find("versionMajor 1 is not read"), std::string::npos) << e.message;
    e = readFails("#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, "
                  "warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, kWidth = 2}>");
    EXPECT_NE(e.message.find("reads B from shared memory"), std::string::npos) << e.message;
    e = readFails("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], CGALayout = "
                  "[[1, 0]], instrShape = [16, 8]}>");
    EXPECT_NE(e.message.find("several CTAs"), std::string::npos) << e.message;
    e = readFails(
        "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShap = [16, "
        "8]}>");
    EXPECT_NE(e.message.find("expected versionMajor, versionMinor, warpsPerCTA or instrShape, found "
                             "'instrShap'"),
              std::string::npos)
        << e.message;
    EXPECT_EQ(e.column, 76);
    e = readFails(
        "#mma = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], "
        "order = [1, 0]}>\n#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>");
    EXPECT_NE(e.message.find("#mma is #ttg.blocked"), std::string::npos) << e.message;
    std::string error;
    e = readFails(std::string(kMmaV2), {parseExtent("16x12", error), {}, {}});
    EXPECT_NE(e.message.find("powers of two"), std::string::npos) << e.message;
}

TEST(LayoutIn, ASwizzledLayoutIsWgmmasSharedMemoryOperand) {
    // CuTe's GMMA::Layout_K_SW128_Atom<half_t> is lanemap's K-major 128B B, byte for byte; the swizzle of a
    // smem_ptr acts on byte addresses, a bare one on the element offset (Sw<3,3,3> on 16-bit elements).
    const auto shared = [](std::string_view text, int bits = 0) {
        std::variant<SharedLayout, ReadError> r = readShared(text, bits);
        if (const ReadError* e = std::get_if<ReadError>(&r))
            ADD_FAILURE() << text << ": " << e->describe();
        return std::holds_alternative<SharedLayout>(r) ? std::get<SharedLayout>(r) : SharedLayout{};
    };
    const SharedLayout atom = shared("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
    EXPECT_TRUE(atom.onBytes);
    EXPECT_EQ(atom.elementBits, 16);
    EXPECT_EQ(atom.address(1, 0), 144u); // row 1 (byte 128): chunk 0 XOR 1 -> byte 144
    EXPECT_EQ(atom.address(7, 63), 7u * 128u + ((7u ^ 7u) << 4) + 14u);
    const SharedLayout bare = shared("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", 16);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 64; ++c)
            ASSERT_EQ(bare.address(r, c), atom.address(r, c)) << r << "," << c;
    std::string error;
    const Variant* v = Catalog::instance().variant("wgmma.m64n64k16.f16");
    ASSERT_NE(v, nullptr);
    const std::optional<smem::SharedOperand> b =
        smem::operandOver(*v, Operand::B, smem::Choice{smem::Major::K, smem::Swizzle::B128}, 64, 64, error);
    ASSERT_TRUE(b) << error;
    EXPECT_TRUE(compareShared(atom, *b).equal());
    const SharedComparison c =
        compareShared(shared("Sw<2,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)"), *b); // 64B
    EXPECT_EQ(c.differing, 256);
    ASSERT_FALSE(c.first.empty());
    EXPECT_EQ(c.first[0].mn, 4);
    // The drawn placement is in shared memory, one byte per element.
    const Instruction in = instructionOf(atom);
    ASSERT_EQ(in.placements.size(), 1u);
    EXPECT_EQ(in.placements[0].space(), Space::SharedMemory);
    EXPECT_EQ(std::get<SmemByte>(in.placements[0].at(1, 0).front().at).address, 144u);
    // What does not read says where.
    std::variant<SharedLayout, ReadError> r =
        readShared("Sw<3,4,3> o smem_ptr[12b](unset) o (_8,_64):(_64,_1)");
    ASSERT_TRUE(std::holds_alternative<ReadError>(r));
    EXPECT_EQ(std::get<ReadError>(r).column, 22);
    r = readShared("Sw<3,4,2> o _0 o (_8,_64):(_64,_1)", 16);
    ASSERT_TRUE(std::holds_alternative<ReadError>(r));
    EXPECT_NE(std::get<ReadError>(r).message.find("S >= B"), std::string::npos);
}

TEST(LayoutIn, AThreadMapComparesAQuadPairAtomWithItsLanes) {
    std::string error;
    const std::optional<std::vector<int>> lanes = readThreadMap("(_4,_2):(_1,_16)", error);
    ASSERT_TRUE(lanes) << error;
    EXPECT_EQ(*lanes, (std::vector<int>{0, 1, 2, 3, 16, 17, 18, 19}));
    EXPECT_EQ(*readThreadMap("_4:_2", error), (std::vector<int>{0, 2, 4, 6}));
    const FragmentLayout& a = operandOf("mma.m8n8k4.row.col.f16", Operand::A);
    const std::optional<FragmentLayout> quadPair = throughThreadMap(a, *lanes, error);
    ASSERT_TRUE(quadPair) << error;
    EXPECT_EQ(quadPair->threads(), 8);
    EXPECT_EQ(quadPair->matrices(), 1);
    // CUTLASS's SM70 ALayout is that quad-pair's A; without the map the shapes differ (8 threads, not 32).
    EXPECT_TRUE(compare(readOk("(_8,_4):(_1,_8)"), *quadPair).equal());
    EXPECT_FALSE(compare(readOk("(_8,_4):(_1,_8)"), a).sameShape);
    EXPECT_FALSE(compare(readOk("(_8,_4):(_8,_1)"), *quadPair).equal());
    // Lanes 0-3 and 8-11 hold two products: no atom's threads.
    EXPECT_FALSE(throughThreadMap(a, *readThreadMap("(_4,_2):(_1,_8)", error), error));
    EXPECT_NE(error.find("different products"), std::string::npos) << error;
}

// ---- round trip: every variant's exports read back to the operand they came from -----------------------

namespace {

std::vector<std::string> allSpecs() {
    std::vector<std::string> specs;
    for (const Variant* v : Catalog::instance().variants())
        specs.push_back(v->spec);
    return specs;
}

} // namespace

class EveryVariantRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryVariantRoundTrip, CuteAndTritonExportsReadBackToTheSameOwnerPerCell) {
    const Instruction& in = *Catalog::instance().instruction(GetParam());
    // --format cute: per register operand a header "A: (T32,V8) -> (M16,K16)", then the printed layout and
    // the C++ type, or the reason it is not one CuTe layout.
    std::istringstream cute(toCute(in, smem::Choice{}));
    std::string line;
    int header = 0, readBack = 0;
    while (std::getline(cute, line)) {
        const std::size_t arrow = line.find(": (T");
        if (arrow == std::string::npos || line[0] == ' ')
            continue;
        const std::optional<Operand> operand = parseOperand(line.substr(0, arrow));
        ASSERT_TRUE(operand) << line;
        const FragmentLayout& op = *in.operand(*operand);
        ++header;
        std::string printed, type;
        ASSERT_TRUE(std::getline(cute, printed));
        if (printed.find("not expressible") != std::string::npos) {
            // Where the exporter says no CuTe layout holds the operand, no read layout can equal it either.
            if (op.chunked()) {
                EXPECT_FALSE(compare(readOk("(32,1):(1,0)"), op).expressible);
            }
            continue;
        }
        ASSERT_TRUE(std::getline(cute, type));
        for (const std::string& text : {printed, type}) {
            const Layout l = readOk(text);
            const Comparison c = compare(l, op);
            EXPECT_TRUE(c.equal()) << in.spec << ' ' << op.name() << " from " << text << ": " << c.why << ", "
                                   << c.differing << " cells differ";
        }
        ++readBack;
    }
    EXPECT_EQ(header, static_cast<int>(in.operands.size()));
    // --format triton: every linear operand's bases, read as the JSON document with --operand.
    const std::string doc = toTritonJson(in);
    const nlohmann::json j = nlohmann::json::parse(doc);
    for (const nlohmann::json& o : j["operands"]) {
        const Operand operand = *parseOperand(o["operand"].get<std::string>());
        const FragmentLayout& op = *in.operand(operand);
        if (!o["linear"].get<bool>()) {
            EXPECT_FALSE(compare(readOk("{lane = [[0, 1]]}"), op).expressible)
                << in.spec << ' ' << op.name() << ": the export says not linear, compare must agree";
            continue;
        }
        ReadOptions options;
        options.operand = operand;
        for (const std::string& text : {doc, o.dump()}) {
            const Layout l = readOk(text, options);
            const Comparison c = compare(l, op);
            EXPECT_TRUE(c.equal()) << in.spec << ' ' << op.name() << ": " << c.why << ", " << c.differing
                                   << " cells differ";
        }
        // And as the #ttg.linear attribute Triton would print for it.
        const Layout l = readOk(doc, options);
        EXPECT_TRUE(compare(readOk(l.canonical), op).equal()) << l.canonical;
    }
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryVariantRoundTrip, ::testing::ValuesIn(allSpecs()),
                         [](const ::testing::TestParamInfo<std::string>& spec) {
                             std::string name;
                             for (char c : spec.param)
                                 name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             return name + "_" + std::to_string(spec.index);
                         });

} // namespace test_layout_in
