// Tooltips built in the viewer (docs/svg.md#tooltips): an exported SVG carries no <title> per cell, only one
// inline script and its tables; every cell's label is still drawn, the file is well-formed XML, and the size
// goals of issue 21 that follow from it hold. (That the script's text equals the Diagram's hover text, cell
// by cell, is checked in a browser: tests/site/test_svg_tooltips_browser.cpp.)
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_gzip.hpp"
#include "lanemap/svg.hpp"

#include "synthetic.hpp"
#include "xml_dom.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace test_svg_tooltips {

using namespace lanemap;
using test::parseXml;
using test::XmlNode;

namespace {

std::string exported(const char* spec) {
    std::string doc, error;
    EXPECT_TRUE(exportInstruction(*Catalog::instance().instruction(spec), ExportFormat::Svg, {}, doc, error))
        << error;
    return doc;
}

bool inGroup(const XmlNode* n, std::string_view cls) {
    for (n = n->parent; n; n = n->parent)
        if (n->name == "g" && n->hasClass(cls))
            return true;
    return false;
}

struct Counts {
    std::size_t titles = 0, scripts = 0, tables = 0, labels = 0, labelsWithText = 0, fieldsWithText = 0;
};

Counts count(const XmlNode& root) {
    Counts n;
    n.titles = root.all([](const XmlNode& x) { return x.name == "title"; }).size();
    n.scripts = root.all([](const XmlNode& x) { return x.name == "script"; }).size();
    n.tables =
        root.all([](const XmlNode& x) { return x.name == "metadata" && x.hasClass("lanemap-tips"); }).size();
    for (const XmlNode* t :
         root.all([](const XmlNode& x) { return x.name == "text" && inGroup(&x, "cells"); }))
        if (!inGroup(t, "bits")) {
            ++n.labels;
            n.labelsWithText += t->attr("data-t") != nullptr;
        }
    n.fieldsWithText = root.all([](const XmlNode& x) { return x.name == "rect" && x.attr("data-t"); }).size();
    return n;
}

} // namespace

// The exported figures: only the document's own <title>; one script, one table; a label per cell; the tables
// describe every register and shared-memory cell (no cell falls back to carrying its text).
TEST(SvgTooltips, NoTitlePerCellOneScriptAndItsTables) {
    struct Case {
        const char* spec;
        std::size_t cells;
    };
    for (const Case& c :
         {Case{"mma.m16n8k16.f16", 512}, Case{"wgmma.m64n256k16.f16", 0}, Case{"wgmma.m64n8k256.b1", 0}}) {
        const std::string svg = exported(c.spec);
        const auto doc = parseXml(svg);
        ASSERT_TRUE(doc) << c.spec << ": " << doc.error;
        const Counts n = count(*doc.root);
        EXPECT_EQ(n.titles, 1u) << c.spec << ": only the document's title";
        EXPECT_EQ(n.scripts, 1u) << c.spec;
        EXPECT_EQ(n.tables, 1u) << c.spec;
        if (c.cells) {
            EXPECT_EQ(n.labels, c.cells) << c.spec;
        }
        EXPECT_EQ(n.labelsWithText, 0u) << c.spec << ": every cell's tooltip comes from the tables";
        const XmlNode* script = doc.root->all([](const XmlNode& x) { return x.name == "script"; }).front();
        EXPECT_EQ(script->attr("href"), nullptr) << "inline, nothing fetched";
        EXPECT_EQ(script->attr("xlink:href"), nullptr) << "inline, nothing fetched";
        EXPECT_LT(script->text.size(), 4096u) << "a few KB, the same in every file";
    }
}

// Sparse: the metadata bit fields carry their text (data-t, a few hundred bytes a lane), the cells do not.
TEST(SvgTooltips, SparseMetadataFieldsCarryTheirTextCellsDoNot) {
    const Instruction in = test::sparseM16n8k16();
    const Diagram d = buildDiagram(in);
    const auto doc = parseXml(toSvg(d));
    ASSERT_TRUE(doc) << doc.error;
    const Counts n = count(*doc.root);
    EXPECT_EQ(n.titles, 1u);
    EXPECT_EQ(n.labels, d.cells.size());
    EXPECT_EQ(n.labelsWithText, 0u);
    std::size_t fields = 0;
    for (const BitFieldDiagram& bd : d.bitFields)
        fields += bd.fields.size();
    EXPECT_EQ(n.fieldsWithText, fields);
}

// A placement from another source than its panel's is named in the tooltip; the tables do not say it, so
// that cell carries its text.
TEST(SvgTooltips, ACellTheTablesCannotDescribeCarriesItsText) {
    Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"));
    DiagramCell& c = d.cells[7];
    c.source = c.source == Source::Inferred ? Source::Doc : Source::Inferred;
    const std::string tooltip = d.tooltip(c);
    const auto doc = parseXml(toSvg(d));
    ASSERT_TRUE(doc) << doc.error;
    const auto carried = doc.root->all([](const XmlNode& x) { return x.name == "text" && x.attr("data-t"); });
    ASSERT_EQ(carried.size(), 1u);
    EXPECT_EQ(carried.front()->attrOr("data-t"), tooltip);
    EXPECT_EQ(carried.front()->text, d.label(c));
}

// Tensor Memory: the script's rule reads CTA, lane, column and warp from the grid, so none of the 65,536
// cells of the largest catalog figure (D of a CTA pair, 256 lanes × 256 columns) carries its tooltip as text;
// and their labels only repeated the headers (m by lane, n = column), so there are none: the script builds
// each tooltip from the pointer's place on the fill, from the rows' m in the tables.
TEST(SvgTooltips, TensorMemoryCellsCarryNoText) {
    const std::string svg = exported("tcgen05.mma.cta_group::2.kind::f16.m256");
    const auto doc = parseXml(svg);
    ASSERT_TRUE(doc) << doc.error;
    const Counts n = count(*doc.root);
    EXPECT_EQ(n.labels, 0u);
    EXPECT_EQ(n.labelsWithText, 0u);
    EXPECT_EQ(n.titles, 1u);
    EXPECT_NE(svg.find("\"o\":\"D\",\"a\":[0,1,2,"), std::string::npos) << "the rows' m in the tables";
    EXPECT_NE(svg.find("lanemapTipAt"), std::string::npos) << "the pointer rule in the script";
}

// A figure whose every panel has cell labels carries no pointer rule.
TEST(SvgTooltips, OnlyAFigureWithoutCellLabelsCarriesThePointerRule) {
    EXPECT_EQ(exported("mma.m16n8k16.f16").find("lanemapTipAt"), std::string::npos);
    EXPECT_EQ(exported("wgmma.m64n256k16.f16").find("lanemapTipAt"), std::string::npos);
}

// Issue 21's goal: the small figure no larger gzipped than CuTe's print_svg of the same SM80 16×8×16 atom
// (148,620 bytes, 7,536 gzipped at zlib's default level as `--gzip` writes it; docs/performance.md).
TEST(SvgTooltips, SmallFigureGzippedNoLargerThanCute) {
    EXPECT_LE(gzipBytes(exported("mma.m16n8k16.f16")).size(), 7536u);
}

// Issue 21's goal: the 64×256×16 wgmma figure (A, D, B in shared memory) at least 5× smaller than CuTe's
// print_svg of the same atom (6,144,437 bytes, docs/performance.md), while carrying every cell's tooltip.
TEST(SvgTooltips, WgmmaTileFiveTimesSmallerThanCuteWithEveryTooltip) {
    const std::string svg = exported("wgmma.m64n256k16.f16");
    EXPECT_LE(svg.size(), 6144437u / 5);
}

} // namespace test_svg_tooltips
