// SVG export (docs/svg.md): well-formed SVG 1.1 for every variant, one tooltip per drawn element whose
// contents match the engine, lane groups for hover, deterministic bytes, golden files, the size budget.
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/svg.hpp"

#include "synthetic.hpp"
#include "xml_dom.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

namespace test_svg {

using namespace lanemap;
using test::parseXml;
using test::XmlNode;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

bool inGroup(const XmlNode* n, std::string_view cls) {
    for (n = n->parent; n; n = n->parent)
        if (n->name == "g" && n->hasClass(cls))
            return true;
    return false;
}
// A drawn cell is a <text> label in the cells group (outside the metadata bit fields); its tooltip is built
// by the file's script on hover (docs/svg.md#tooltips), so no cell carries a <title>.
bool isCellText(const XmlNode& n) {
    return n.name == "text" && inGroup(&n, "cells") && !inGroup(&n, "bits");
}

// The tables the script builds tooltips from (<metadata class="lanemap-tips">).
nlohmann::json tipTables(const XmlNode& root) {
    for (const auto& ch : root.children)
        if (ch->name == "metadata" && ch->hasClass("lanemap-tips"))
            return nlohmann::json::parse(ch->text);
    return {};
}

// A label's x or y as the script reads it: its own attribute (0 when absent) plus its group's translate.
double coordinate(const XmlNode* t, const char* axis) {
    const std::string* v = t->attr(axis);
    const double own = v ? std::stod(*v) : 0;
    // "translate(X,Y)", read by hand: a std::regex per label was most of the catalog-wide test's time.
    const std::string transform = t->parent->attrOr("transform");
    constexpr std::string_view kTranslate = "translate(";
    if (transform.rfind(kTranslate, 0) != 0)
        return own;
    const std::size_t comma = transform.find(',', kTranslate.size());
    if (comma == std::string::npos)
        return own;
    return own + std::stod(axis[0] == 'x' ? transform.substr(kTranslate.size(), comma - kTranslate.size())
                                          : transform.substr(comma + 1));
}

// The panel (its table) and grid row and column under a label.
struct GridPos {
    const nlohmann::json* panel = nullptr;
    int row = -1, col = -1;
};
GridPos gridOf(const nlohmann::json& tables, const XmlNode* t) {
    const double x = coordinate(t, "x"), y = coordinate(t, "y");
    for (const nlohmann::json& p : tables.at("p")) {
        const auto& g = p.at("g");
        const int col = static_cast<int>(std::floor((x - g[0].get<double>()) / g[2].get<double>()));
        const int row = static_cast<int>(std::floor((y - g[1].get<double>()) / g[3].get<double>()));
        if (col >= 0 && row >= 0 && col < g[5].get<int>() && row < g[4].get<int>())
            return {&p, row, col};
    }
    return {};
}

std::vector<const XmlNode*> cellTexts(const XmlNode& root) {
    for (const auto& ch : root.children)
        if (ch->name == "g" && ch->hasClass("cells"))
            return ch->all(isCellText);
    return {};
}

// What the cell checks read from labels and tooltips, scanned by hand: std::regex cost most of the
// catalog-wide test's time (~half of it under ASan), for patterns this simple.
struct Scan {
    std::string_view rest;
    bool lit(std::string_view s) {
        if (rest.substr(0, s.size()) != s)
            return false;
        rest.remove_prefix(s.size());
        return true;
    }
    bool number(int& out) {
        std::size_t n = 0;
        out = 0;
        for (; n < rest.size() && n < 9 && rest[n] >= '0' && rest[n] <= '9'; ++n)
            out = out * 10 + (rest[n] - '0');
        rest.remove_prefix(n);
        return n > 0;
    }
    bool oneOf(std::string_view set, char& out) {
        if (rest.empty() || set.find(rest.front()) == std::string_view::npos)
            return false;
        out = rest.front();
        rest.remove_prefix(1);
        return true;
    }
    // [0-9.]+
    bool decimal() {
        const std::size_t n = std::min(rest.find_first_not_of("0123456789."), rest.size());
        rest.remove_prefix(n);
        return n > 0;
    }
    bool end() const { return rest.empty(); }
};

// "0 0 <w> <h>", w and h made of digits and dots.
bool isViewBox(std::string_view s) {
    Scan c{s};
    return c.lit("0 0 ") && c.decimal() && c.lit(" ") && c.decimal() && c.end();
}
// An operand cell's label, "T<thread>:<a|b|c|d><index>".
bool isOperandLabel(std::string_view s, int& thread, char& operand, int& index) {
    Scan c{s};
    return c.lit("T") && c.number(thread) && c.lit(":") && c.oneOf("abcd", operand) && c.number(index) &&
           c.end();
}
// A metadata cell's label, "T<thread>: [<hi>..<lo>]".
bool isMetadataLabel(std::string_view s, int& thread, int& hi, int& lo) {
    Scan c{s};
    return c.lit("T") && c.number(thread) && c.lit(": [") && c.number(hi) && c.lit("..") && c.number(lo) &&
           c.lit("]") && c.end();
}

const XmlNode* laneGroupOf(const XmlNode* n) {
    for (; n; n = n->parent)
        if (n->name == "g" && n->hasClass("lane"))
            return n;
    return nullptr;
}

// Checks one SVG against the instruction it shows: labels, tooltips and lane groups agree with the engine
// (operand elements by thread and index; metadata fields of the drawn selector by thread and bits).
void checkAgainstEngine(const Instruction& in, const std::string& svg, std::size_t expectedCells,
                        const MetadataSelector* selector = nullptr) {
    const auto doc = parseXml(svg);
    ASSERT_TRUE(doc) << in.spec << ": " << doc.error;
    const XmlNode& root = *doc.root;
    EXPECT_EQ(root.name, "svg");
    EXPECT_EQ(root.attrOr("version"), "1.1");
    EXPECT_EQ(root.attrOr("xmlns"), "http://www.w3.org/2000/svg");
    EXPECT_TRUE(isViewBox(root.attrOr("viewBox"))) << root.attrOr("viewBox");
    const auto texts = cellTexts(root);
    EXPECT_EQ(texts.size(), expectedCells) << in.spec;
    const nlohmann::json tables = tipTables(root);
    ASSERT_TRUE(tables.is_object()) << in.spec << ": no tooltip tables";
    std::size_t checked = 0;
    for (const XmlNode* t : texts) {
        const GridPos at = gridOf(tables, t);
        ASSERT_NE(at.panel, nullptr) << in.spec << " " << t->text << ": outside every grid";
        int thread = 0, hi = 0, lo = 0, index = 0;
        char operandLetter = 0;
        if (isMetadataLabel(t->text, thread, hi, lo)) {
            ASSERT_NE(selector, nullptr) << in.spec << ": metadata cell " << t->text;
            const int span = at.panel->at("s").get<int>();
            const int col = at.col / span * span;
            bool found = false;
            for (const MetadataField& f : selector->fields)
                found = found || (f.thread == thread && f.bitHi == hi && f.bitLo == lo && f.row == at.row &&
                                  f.colFirst == col && f.colLast == col + span - 1);
            EXPECT_TRUE(found) << in.spec << " " << t->text << " at (" << at.row << "," << at.col << ")";
        } else {
            ASSERT_TRUE(isOperandLabel(t->text, thread, operandLetter, index))
                << in.spec << ": label '" << t->text << "'";
            const std::string operand(1, static_cast<char>(std::toupper(operandLetter)));
            const FragmentLayout* op = in.operand(*parseOperand(operand));
            ASSERT_NE(op, nullptr) << in.spec << " " << operand;
            const Element& e = op->element(thread, index);
            // The panel's table gives the element's register and bits (the tooltip's r2[31..16]) ...
            const nlohmann::json& entry = at.panel->at("e").at(static_cast<std::size_t>(index));
            ASSERT_TRUE(entry.is_array()) << in.spec << " " << t->text;
            EXPECT_EQ(entry[0].get<int>(), e.reg) << in.spec << " " << t->text;
            EXPECT_EQ(entry[1].get<int>(), e.bit + op->elementBits() - 1) << in.spec << " " << t->text;
            EXPECT_EQ(entry[2].get<int>(), e.bit) << in.spec << " " << t->text;
            // ... and where the label sits, its (row,col) or (row,col..colLast).
            const int span = entry[3].get<int>();
            EXPECT_EQ(span, e.colLast - e.col + 1) << in.spec << " " << t->text;
            EXPECT_EQ(at.row, e.row) << in.spec << " " << t->text;
            EXPECT_EQ(at.col / span * span, e.col) << in.spec << " " << t->text;
        }
        const XmlNode* lane = laneGroupOf(t);
        ASSERT_NE(lane, nullptr);
        EXPECT_TRUE(lane->hasClass("lane-" + std::to_string(thread % 32))) << lane->attrOr("class");
        ++checked;
    }
    EXPECT_EQ(checked, expectedCells);
}

TEST(SvgCatalog, EveryVariantIsWellFormedAndMatchesTheEngine) {
    for (const Variant* v : Catalog::instance().variants()) {
        const Instruction& in = Catalog::instance().instruction(*v);
        if (tmem::mmaOf(in)) // no register fragment: the Tensor Memory panel (test_tcgen05_panel.cpp)
            continue;
        DiagramOptions all;
        all.mergeIdenticalCD = false;
        std::size_t elements = 0;
        for (const FragmentLayout& op : in.operands)
            elements += op.elements().size();
        const MetadataSelector* selector =
            in.metadata && !in.metadata->selectors.empty() ? &in.metadata->selectors.front() : nullptr;
        if (selector)
            elements += selector->fields.size();
        checkAgainstEngine(in, toSvg(buildDiagram(in, all)), elements, selector);
        if (::testing::Test::HasFatalFailure())
            return;
    }
}

TEST(SvgCatalog, ExportFormatSvgIsTheDefaultDiagram) {
    const Instruction& in = get("mma.m16n8k16.f16");
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(in, ExportFormat::Svg, {}, doc, error)) << error;
    EXPECT_EQ(doc, toSvg(buildDiagram(in)));
    // C and D are identical here: drawn once.
    checkAgainstEngine(in, doc, 256 + 128 + 128);
    EXPECT_EQ(parseExportFormat("svg"), ExportFormat::Svg);
    EXPECT_EQ(fileExtension(ExportFormat::Svg), "svg");
    EXPECT_NE(exportFormatList().find("svg"), std::string::npos);
}

TEST(SvgCatalog, ExportOptionsReachTheDiagram) {
    const Instruction& in = get("mma.m16n8k16.f16");
    ExportOptions o;
    o.operands = Operand::B;
    o.lanes = {0, 1, 2, 3, 13};
    o.colorBy = ColorBy::Register;
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(in, ExportFormat::Svg, o, doc, error)) << error;
    const auto xml = parseXml(doc);
    ASSERT_TRUE(xml) << xml.error;
    EXPECT_EQ(cellTexts(*xml.root).size(), 128u);
    const auto dim = xml.root->all([](const XmlNode& n) { return n.name == "g" && n.hasClass("dim"); });
    EXPECT_EQ(dim.size(), 32u - 5u);
    o.lanes = {40};
    EXPECT_FALSE(exportInstruction(in, ExportFormat::Svg, o, doc, error));
    EXPECT_NE(error.find("40 is not a thread of mma.m16n8k16.f16"), std::string::npos) << error;
}

TEST(Svg, OneLaneGroupPerLaneAndPureCssHover) {
    const std::string svg = toSvg(buildDiagram(get("mma.m16n8k16.f16")));
    const auto doc = parseXml(svg);
    ASSERT_TRUE(doc) << doc.error;
    const auto lanes = doc.root->all([](const XmlNode& n) { return n.name == "g" && n.hasClass("lane"); });
    ASSERT_EQ(lanes.size(), 32u);
    for (int l = 0; l < 32; ++l) {
        EXPECT_TRUE(lanes[static_cast<std::size_t>(l)]->hasClass("lane-" + std::to_string(l)));
        // Lane 13 holds 8 + 4 + 4 labelled cells: A, B and C/D all inside its one group.
        EXPECT_EQ(
            lanes[static_cast<std::size_t>(l)]->all([](const XmlNode& n) { return n.name == "text"; }).size(),
            16u);
    }
    const XmlNode* style = doc.root->child("style");
    ASSERT_NE(style, nullptr);
    EXPECT_NE(style->text.find(".lane:hover path"), std::string::npos);
    EXPECT_NE(style->text.find("monospace}"), std::string::npos) << "generic font fallback";
    EXPECT_NE(style->text.find("sans-serif}"), std::string::npos) << "generic font fallback";
    // One inline script (the tooltips, docs/svg.md#tooltips), nothing fetched.
    const auto scripts = doc.root->all([](const XmlNode& n) { return n.name == "script"; });
    ASSERT_EQ(scripts.size(), 1u);
    EXPECT_EQ(scripts[0]->attr("xlink:href"), nullptr);
    EXPECT_EQ(svg.find("http://", svg.find("<script")), std::string::npos) << "no network";
    EXPECT_EQ(svg.find("@import"), std::string::npos) << "no external fonts";
    // Caption: instruction, PTX string and section with anchor.
    const XmlNode* desc = doc.root->child("desc");
    ASSERT_NE(desc, nullptr);
    EXPECT_NE(desc->text.find("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), std::string::npos);
    EXPECT_NE(desc->text.find("\u00a79.7.14.5.8  #warp-level-matrix-fragment-mma-16816-float"),
              std::string::npos);
    EXPECT_NE(svg.find(">PTX ISA 9.1 \u00a79.7.14.5.8  #warp-level-matrix-fragment-mma-16816-float</text>"),
              std::string::npos);
}

TEST(Svg, DeterministicBytes) {
    const Instruction& in = get("mma.m16n8k32.s8");
    const std::string a = toSvg(buildDiagram(in));
    const std::string b = toSvg(buildDiagram(in));
    EXPECT_EQ(a, b);
    const Instruction sparse = test::sparseM16n8k16();
    EXPECT_EQ(toSvg(buildDiagram(sparse)), toSvg(buildDiagram(test::sparseM16n8k16())));
}

TEST(Svg, TextIsEscaped) {
    Instruction in = get("mma.m8n8k4.f64");
    in.notes = {"a < b && c > \"d\""};
    const std::string svg = toSvg(buildDiagram(in));
    const auto doc = parseXml(svg);
    ASSERT_TRUE(doc) << doc.error;
    EXPECT_NE(doc.root->child("desc")->text.find("note: a < b && c > \"d\""), std::string::npos);
}

TEST(SvgSparse, MetadataCellsAndBitFieldsShareTheLaneGroup) {
    const Instruction in = test::sparseM16n8k16();
    const Diagram d = buildDiagram(in);
    const std::string svg = toSvg(d);
    const auto doc = parseXml(svg);
    ASSERT_TRUE(doc) << doc.error;
    // Every drawn cell has its tooltip: 128 A owners (2 per chunk) + 128 B + 128 C/D + 64 metadata fields.
    const auto texts = cellTexts(*doc.root);
    EXPECT_EQ(texts.size(), d.cells.size());
    EXPECT_EQ(texts.size(), 128u + 128u + 128u + 64u);
    checkAgainstEngine(in, svg, texts.size(), &in.metadata->selectors.front());
    const auto lanes = doc.root->all([](const XmlNode& n) { return n.name == "g" && n.hasClass("lane-4"); });
    ASSERT_EQ(lanes.size(), 1u);
    // A bit field carries its metadata cell's tooltip in data-t (the script shows it on hover).
    const auto fields = lanes[0]->all([](const XmlNode& n) { return n.name == "rect" && n.attr("data-t"); });
    ASSERT_EQ(fields.size(), 8u);
    EXPECT_EQ(fields.back()->attrOr("data-t"), "lane 4 e[3..0] \u00b7 (1,0..3) \u00b7 selector 0");
    bool metadataCell = false;
    for (const XmlNode* t : lanes[0]->all(isCellText))
        metadataCell = metadataCell || t->text == "T4: [3..0]";
    EXPECT_TRUE(metadataCell);
    // Both owners of lane 13's chunk (row 3, cols 4..7) are drawn side by side, the chunk in their tables
    // (the script's "lane 13 a0 · r0[15..0] · (3,4..7)": tests/site/test_svg_tooltips_browser.cpp).
    const nlohmann::json tables = tipTables(*doc.root);
    std::map<std::string, GridPos> owners;
    for (const XmlNode* t : texts)
        if (t->text == "T13:a0" || t->text == "T13:a1")
            owners[t->text] = gridOf(tables, t);
    ASSERT_EQ(owners.size(), 2u);
    EXPECT_EQ(owners["T13:a0"].row, 3);
    EXPECT_EQ(owners["T13:a0"].col / 4 * 4, 4); // in the chunk's columns 4..7,
    EXPECT_EQ(owners["T13:a1"].col / 4 * 4, 4);
    EXPECT_LT(owners["T13:a0"].col, owners["T13:a1"].col); // side by side
    ASSERT_NE(owners["T13:a0"].panel, nullptr);
    EXPECT_EQ(owners["T13:a0"].panel->at("e")[0], nlohmann::json::parse("[0,15,0,4]"));
    EXPECT_EQ(owners["T13:a0"].panel->at("e")[1], nlohmann::json::parse("[0,31,16,4]"));
}

// docs/performance.md: the largest diagram (wgmma m64n256 D, 16 384 cells) stays under 2 MB.
// (Time is measured by the benchmarks, never asserted here.)
TEST(SvgLargest, WarpgroupAccumulatorUnderTwoMegabytes) {
    const Instruction in = test::wgmmaM64n256k16();
    DiagramOptions o;
    o.operands = Operand::D;
    const std::string svg = toSvg(buildDiagram(in, o));
    EXPECT_LT(svg.size(), 2000000u); // 2 MB, decimal: the stricter reading
    const auto doc = parseXml(svg);
    ASSERT_TRUE(doc) << doc.error;
    const auto texts = cellTexts(*doc.root);
    ASSERT_EQ(texts.size(), 16384u);
    const auto groups = doc.root->all([](const XmlNode& n) { return n.name == "g" && n.hasClass("lane"); });
    ASSERT_EQ(groups.size(), 128u);
    EXPECT_TRUE(groups[77]->hasClass("t77"));
    EXPECT_TRUE(groups[77]->hasClass("lane-13"));
    EXPECT_TRUE(groups[77]->hasClass("warp-2"));
    checkAgainstEngine(in, svg, 16384);
}

// Golden files: small diagrams byte for byte. Regenerate after an intended change with
//   LANEMAP_UPDATE_GOLDEN=1 build/tests/lanemap-core-tests --gtest_filter='*SvgGolden*'
// and review the diff (tests/data/golden/README.md).
struct Golden {
    const char* file;
    std::string (*make)();
};

std::string goldenF64() {
    return toSvg(buildDiagram(get("mma.m8n8k4.f64")));
}
std::string goldenTf32Colorblind() {
    DiagramOptions o;
    o.palette = Palette::ColorBlind;
    return toSvg(buildDiagram(get("mma.m16n8k8.tf32"), o));
}
std::string goldenS8ByRegister() {
    DiagramOptions o;
    o.colorBy = ColorBy::Register;
    o.threads = {0, 1, 2, 3, 13};
    return toSvg(buildDiagram(get("mma.m8n8k16.s8"), o));
}
std::string goldenSparseMetadata() {
    DiagramOptions o;
    o.operands = Operand::Metadata;
    o.selector = 1;
    return toSvg(buildDiagram(test::sparseM16n8k16(), o));
}

std::string goldenDocsM16n8k16() {
    return toSvg(buildDiagram(get("mma.m16n8k16.f16")));
}
std::string goldenDocsQuadPair() {
    return toSvg(buildDiagram(get("mma.m8n8k4.row.col.f16")));
}

class SvgGolden : public ::testing::TestWithParam<Golden> {};

std::string goldenName(const ::testing::TestParamInfo<Golden>& param) {
    std::string name = std::filesystem::path(param.param.file).filename().string();
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return name;
}

TEST_P(SvgGolden, MatchesByteForByte) {
    const Golden& g = GetParam();
    const std::filesystem::path path = std::filesystem::path(LANEMAP_SOURCE_DIR) / g.file;
    const std::string actual = g.make();
    if (const char* update = std::getenv("LANEMAP_UPDATE_GOLDEN"); update && std::string(update) == "1") {
        ASSERT_EQ(writeFile(path.string(), actual), "");
        std::cout << "rewrote " << path << '\n';
        return;
    }
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << "missing golden file " << path << "; create it with LANEMAP_UPDATE_GOLDEN=1";
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_TRUE(expected.str() == actual)
        << path << " differs from the writer's output; if the change is intended, regenerate with "
        << "LANEMAP_UPDATE_GOLDEN=1 and review the diff";
}

INSTANTIATE_TEST_SUITE_P(
    Files, SvgGolden,
    ::testing::Values(Golden{"tests/data/golden/mma.m8n8k4.f64.svg", goldenF64},
                      Golden{"tests/data/golden/mma.m16n8k8.tf32.colorblind.svg", goldenTf32Colorblind},
                      Golden{"tests/data/golden/mma.m8n8k16.s8.register.lanes.svg", goldenS8ByRegister},
                      Golden{"tests/data/golden/synthetic-sparse-metadata.selector1.svg",
                             goldenSparseMetadata},
                      // The README's examples: kept equal to what lanemap-cli writes today.
                      Golden{"docs/mma.m16n8k16.f16.svg", goldenDocsM16n8k16},
                      Golden{"docs/mma.m8n8k4.row.col.f16.svg", goldenDocsQuadPair}),
    goldenName);

} // namespace

// Fill shapes shared through <defs>/<use> (docs/svg.md, Structure): every <use> names a shape that exists,
// sits in its lane's group (so it takes that lane's fill and hover), and the hover rule outlines it; a wgmma
// accumulator's 256 row shapes are a handful of distinct ones. Fills coloured by class stay paths.
TEST(SvgShapes, SharedShapesResolveSitInTheirLaneAndTakeTheHover) {
    const Instruction in = test::wgmmaM64n256k16();
    const std::string svg = toSvg(buildDiagram(in, [] {
        DiagramOptions o;
        o.operands = Operand::D;
        return o;
    }()));
    const auto doc = parseXml(svg);
    ASSERT_TRUE(doc) << doc.error;
    std::set<std::string> shapes;
    for (const XmlNode* p :
         doc.root->all([](const XmlNode& n) { return n.name == "path" && n.attr("id"); })) {
        EXPECT_EQ(p->parent->name, "defs");
        EXPECT_EQ(p->attrOr("d").rfind("M0 0", 0), 0u) << "a shape is relative to its first cell";
        shapes.insert("#" + p->attrOr("id"));
    }
    const auto uses = doc.root->all([](const XmlNode& n) { return n.name == "use"; });
    EXPECT_EQ(uses.size(), 256u) << "one per row of each of the 128 threads";
    EXPECT_LE(shapes.size(), 4u);
    for (const XmlNode* u : uses) {
        EXPECT_TRUE(shapes.count(u->attrOr("xlink:href"))) << u->attrOr("xlink:href");
        ASSERT_NE(laneGroupOf(u), nullptr);
    }
    EXPECT_NE(doc.root->child("style")->text.find(".lane:hover use{"), std::string::npos);
    EXPECT_NE(doc.root->child("style")->text.find(".cells use{"), std::string::npos);

    DiagramOptions byRegister;
    byRegister.operands = Operand::D;
    byRegister.colorBy = ColorBy::Register;
    EXPECT_EQ(toSvg(buildDiagram(in, byRegister)).find("<use"), std::string::npos);
}

} // namespace test_svg
