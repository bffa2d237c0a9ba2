// Tooltips built in the viewer (docs/svg.md#tooltips): an exported SVG carries no <title> per cell, only one
// inline script and its tables; every cell's label is still drawn, the file is well-formed XML, and the size
// goals of issue 21 that follow from it hold. (That the script's text equals the Diagram's hover text, cell
// by cell, is checked in a browser: tests/site/test_svg_tooltips_browser.cpp.)
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_gzip.hpp"
#include "lanemap/smem.hpp"
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

// A figure whose every cell draws its label carries no pointer rule; one with B in shared memory (labelled
// at its chunks' first elements) does.
TEST(SvgTooltips, OnlyAFigureWithUnlabelledCellsCarriesThePointerRule) {
    EXPECT_EQ(exported("mma.m16n8k16.f16").find("lanemapTipAt"), std::string::npos);
    EXPECT_NE(exported("wgmma.m64n256k16.f16").find("lanemapTipAt"), std::string::npos);
}

// A shared-memory tile draws one address per 16-byte chunk, on its first element: one <text> per chunk, none
// carrying its tooltip, whichever way the chunks run (K-major: down the k rows of B; MN-major: along the n
// columns) and whatever a cell holds (2 or 4 bytes, a byte of 1-bit elements). The tables give the script
// every chunk's address, and the writer has checked every other cell's tooltip against them.
TEST(SvgTooltips, ASharedMemoryTileLabelsEachChunkOnceAndCarriesNoText) {
    struct Case {
        const char* spec;
        smem::Major major;
        const char* runs; // the tables' "cd": chunks down the rows (1) or along them (0)
        int cellsPerChunk;
    };
    for (const Case& k : {Case{"wgmma.m64n32k16.f16", smem::Major::K, "\"cd\":1,\"cn\":8,\"cb\":2", 8},
                          Case{"wgmma.m64n32k16.f16", smem::Major::MN, "\"cd\":0,\"cn\":8,\"cb\":2", 8},
                          Case{"wgmma.m64n16k8.tf32", smem::Major::K, "\"cd\":1,\"cn\":4,\"cb\":4", 4},
                          Case{"wgmma.m64n8k256.b1", smem::Major::K, "\"cd\":1,\"cn\":16,\"cb\":1", 16}}) {
        const Instruction& in = *Catalog::instance().instruction(k.spec);
        std::string why;
        const auto ops = smem::operands(in, smem::Choice{k.major, smem::Swizzle::B128}, why);
        ASSERT_FALSE(ops.empty()) << k.spec << ": " << why;
        const smem::SharedOperand& b = ops.back();
        ASSERT_EQ(b.operand, Operand::B) << k.spec;
        const Diagram d = buildSharedMemoryDiagram(b);
        const DiagramPanel* tile = nullptr;
        for (const DiagramPanel& p : d.panels)
            if (p.kind == PanelKind::SharedMemory)
                tile = &p;
        ASSERT_NE(tile, nullptr) << k.spec;
        std::size_t drawn = 0;
        for (std::uint32_t i = tile->firstCell; i < tile->firstCell + tile->cellCount; ++i)
            drawn += d.drawsLabel(d.cells[i]);
        EXPECT_EQ(drawn * static_cast<std::size_t>(k.cellsPerChunk), tile->cellCount) << k.spec;

        const std::string svg = toSvg(d);
        const auto doc = parseXml(svg);
        ASSERT_TRUE(doc) << k.spec << ": " << doc.error;
        const Counts n = count(*doc.root);
        std::size_t mapCells = 0;
        for (const DiagramPanel& p : d.panels)
            if (p.kind == PanelKind::SharedMemoryMap)
                mapCells += p.cellCount;
        EXPECT_EQ(n.labels, drawn + mapCells) << k.spec << ": a label per chunk in the tile and in the map";
        EXPECT_EQ(n.labelsWithText, 0u) << k.spec << ": the tables give every tooltip";
        EXPECT_NE(svg.find(k.runs), std::string::npos) << k.spec;
        EXPECT_NE(svg.find("lanemapTipAt"), std::string::npos) << k.spec;
    }
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
