// The static site's pages (lanemap/site.hpp): self-contained, and drawing exactly the core Diagram the app
// paints. What the page's script does with it is tested in a real browser (tests/site).
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/export.hpp"
#include "lanemap/search.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/site.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"
#include "selection_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <stdexcept>

namespace test_site {

using namespace lanemap;
using nlohmann::json;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

using lanemap::test::tiled;

// The page's data: the object literal assigned to LANEMAP (valid JSON by construction).
json pageData(const std::string& page) {
    const std::string start = "const LANEMAP = ";
    const std::size_t from = page.find(start);
    EXPECT_NE(from, std::string::npos);
    const std::size_t to = page.find(";\n</script>", from);
    EXPECT_NE(to, std::string::npos);
    return json::parse(page.substr(from + start.size(), to - from - start.size()));
}

TEST(SitePage, IsSelfContained) {
    for (const char* spec : {"mma.m16n8k16.f16", "mma.sp.m16n8k32.s8", "wgmma.m64n256k16.f16"}) {
        const std::string page = htmlPage(get(spec));
        // No server, no CDN, no external script, style sheet, font or image.
        EXPECT_EQ(page.find("src="), std::string::npos) << spec;
        EXPECT_EQ(page.find("<link"), std::string::npos) << spec;
        EXPECT_EQ(page.find("http:"), std::string::npos) << spec;
        EXPECT_EQ(page.find("https:"), std::string::npos) << spec;
        EXPECT_EQ(page.find("@import"), std::string::npos) << spec;
        // The script and style sheet are inline.
        EXPECT_NE(page.find("window.lanemapPage"), std::string::npos) << spec;
        EXPECT_NE(page.find(".diagram canvas"), std::string::npos) << spec;
        EXPECT_TRUE(page.ends_with("</html>\n"));
    }
}

TEST(SitePage, HoldsEveryCellOfTheAppsDiagramWithItsTexts) {
    const Instruction& in = get("mma.m16n8k16.f16");
    const Diagram d = buildDiagram(in);
    const json data = pageData(htmlPage(in));
    ASSERT_EQ(data["diagrams"].size(), 1u);
    const json& panels = data["diagrams"][0]["panels"];
    ASSERT_EQ(panels.size(), d.panels.size());
    for (std::size_t p = 0; p < d.panels.size(); ++p) {
        const DiagramPanel& dp = d.panels[p];
        EXPECT_EQ(panels[p]["operand"], dp.name);
        ASSERT_EQ(panels[p]["tips"].size(), dp.cellCount) << dp.name;
        ASSERT_EQ(panels[p]["cells"].size(), dp.cellCount * 15u) << dp.name;
        for (std::uint32_t i = 0; i < dp.cellCount; ++i) {
            const DiagramCell& c = d.cells[dp.firstCell + i];
            EXPECT_EQ(panels[p]["tips"][i], d.tooltip(c));
            EXPECT_EQ(panels[p]["labels"][i], d.label(c));
            EXPECT_EQ(panels[p]["cells"][i * 15 + 4], c.thread);
            EXPECT_EQ(panels[p]["cells"][i * 15 + 9], c.row);
            EXPECT_EQ(panels[p]["cells"][i * 15 + 10], c.col);
        }
    }
    // The colours are the Diagram's.
    EXPECT_EQ(data["palettes"]["default"]["lane"].size(), 32u);
    const Rgb lane13 = paletteColor(Palette::Default, ColorBy::Lane, 13);
    char hex[8];
    std::snprintf(hex, sizeof hex, "#%02x%02x%02x", lane13.r, lane13.g, lane13.b);
    EXPECT_EQ(data["palettes"]["default"]["lane"][13][0], hex);
}

// A Tensor Memory D whose headers name every cell (CellLabels::None) is "bare": the page draws
// no labels there and carries none, and the name the details bar shows is the tooltip's first field.
TEST(SitePage, ABarePanelCarriesNoLabels) {
    const Instruction& in = get("tcgen05.mma.cta_group::1.kind::f16.m128");
    const Diagram d = buildDiagram(in);
    ASSERT_EQ(d.panels.front().labels, CellLabels::None);
    const json data = pageData(htmlPage(in));
    const json& panel = data["diagrams"][0]["panels"][0];
    EXPECT_EQ(panel["bare"], 1);
    EXPECT_FALSE(panel.contains("labels"));
    ASSERT_EQ(panel["tips"].size(), d.panels.front().cellCount);
    for (std::uint32_t i = 0; i < d.panels.front().cellCount; i += 997) {
        const DiagramCell& c = d.cells[d.panels.front().firstCell + i];
        const std::string tip = panel["tips"][i];
        EXPECT_EQ(tip, d.tooltip(c));
        EXPECT_EQ(tip.substr(0, tip.find(" \u00b7 ")), d.label(c));
    }
    // A labelled panel keeps them.
    const json mma = pageData(htmlPage(get("mma.m16n8k16.f16")));
    EXPECT_TRUE(mma["diagrams"][0]["panels"][0].contains("labels"));
    EXPECT_FALSE(mma["diagrams"][0]["panels"][0].contains("bare"));
}

TEST(SitePage, SparsePagesHaveEverySelectorAndShareUnchangedPanels) {
    const Instruction& in = get("mma.sp.m16n8k16.f16");
    ASSERT_TRUE(in.metadata);
    const json data = pageData(htmlPage(in));
    ASSERT_EQ(data["diagrams"].size(), in.metadata->selectors.size());
    ASSERT_GE(data["diagrams"].size(), 2u);
    for (std::size_t s = 0; s < in.metadata->selectors.size(); ++s)
        EXPECT_EQ(data["diagrams"][s]["selector"], in.metadata->selectors[s].value);
    // B (never touched by the selector) is written once; the metadata panel differs per selector.
    const json& second = data["diagrams"][1]["panels"];
    bool shared = false, metadataWritten = false;
    for (const json& p : second) {
        shared = shared || p.is_null();
        metadataWritten = metadataWritten || (!p.is_null() && p["operand"] == "metadata");
    }
    EXPECT_TRUE(shared);
    EXPECT_TRUE(metadataWritten);
}

TEST(SitePage, NamesTheHardwareEvidence) {
    const Instruction& in = get("mma.m16n8k16.f16");
    const std::string page = htmlPage(in);
    if (in.hardware && in.hardware->verdict == Verdict::Pass) {
        EXPECT_NE(page.find("Confirmed cell by cell on the hardware probe"), std::string::npos);
        EXPECT_NE(page.find("resources/probe/"), std::string::npos);
    } else {
        EXPECT_NE(page.find("No recorded hardware run"), std::string::npos);
    }
}

// A wgmma page draws A and D, not B in shared memory; the note that sends the reader to the shared-memory
// view says where that view is (it said only "see the shared-memory view", which a web page does not have).
TEST(SitePage, AWgmmaPageSaysWhereBInSharedMemoryIsDrawn) {
    const std::string page = htmlPage(get("wgmma.m64n8k16.f16"));
    EXPECT_NE(
        page.find("see the shared-memory view: the app's pane, B in an exported SVG, or lanemap-cli show "
                  "wgmma.m64n8k16.f16 --operand B"),
        std::string::npos);
}

TEST(SiteIndex, LinksEveryVariantWithTheMatchersSearchText) {
    const std::vector<const Variant*>& variants = Catalog::instance().variants();
    const std::string index = htmlIndex(variants);
    EXPECT_EQ(index.find("src="), std::string::npos);
    EXPECT_EQ(index.find("http"), std::string::npos);
    for (const Variant* v : variants) {
        EXPECT_NE(index.find("<a href=\"./" + sitePageName(*v) + "\">"), std::string::npos) << v->spec;
        EXPECT_NE(index.find("data-search=\"" + searchText(*v) + "\""), std::string::npos) << v->spec;
    }
    // The synonym table comes from the core matcher.
    EXPECT_NE(index.find("\"fp16\":\"f16\""), std::string::npos);
}

TEST(SiteExport, HtmlRefusesOptionsItCannotHonour) {
    std::string doc, error;
    ExportOptions o;
    o.operands = Operand::A;
    EXPECT_FALSE(exportInstruction(get("mma.m16n8k16.f16"), ExportFormat::Html, o, doc, error));
    EXPECT_NE(error.find("do not apply to html"), std::string::npos) << error;
    EXPECT_TRUE(exportInstruction(get("mma.m16n8k16.f16"), ExportFormat::Html, {}, doc, error)) << error;
    EXPECT_EQ(parseExportFormat("html"), ExportFormat::Html);
}

// A tile's page (export SPEC --atom-layout ... --format html): every operand of the 128x256 tile of 256
// threads, each cell's tooltip naming its warp and lane and its label the CTA thread, and what hovering a
// thread lights (the page groups the cells by their thread) the Diagram's every cell of that thread.
TEST(SitePage, ATilesPageHasEveryOperandAndEveryThreadsCells) {
    const auto in = tiled("mma.m16n8k16.f16", "(4,2,1)", "_128,_256,_16");
    const Diagram d = buildDiagram(*in);
    ExportOptions o;
    o.colorBy = ColorBy::Warp;
    std::string page, error;
    ASSERT_TRUE(exportInstruction(*in, ExportFormat::Html, o, page, error)) << error;
    EXPECT_NE(page.find("<h1>mma.m16n8k16.f16 tile 128x256x16 (atom layout (4,2,1), permutation "
                        "_128,_256,_16)</h1>"),
              std::string::npos);
    // Opens coloured by warp; offers the tile's colourings.
    EXPECT_NE(page.find("<option value=\"warp\" selected>warp</option>"), std::string::npos);
    EXPECT_NE(page.find("<option value=\"thread\">thread</option>"), std::string::npos);
    EXPECT_EQ(page.find("<option value=\"warpgroup\""), std::string::npos); // a warp atom: no warpgroups
    EXPECT_NE(page.find("lights in A, B and C/D"), std::string::npos);
    const json data = pageData(page);
    EXPECT_EQ(data["scope"], "cta");
    EXPECT_EQ(data["threads"], 256);
    EXPECT_EQ(data["palettes"]["default"]["warp"].size(), 8u);
    const json& panels = data["diagrams"][0]["panels"];
    std::vector<std::string> names;
    for (const json& p : panels)
        names.push_back(p["operand"]);
    EXPECT_EQ(names, (std::vector<std::string>{"A", "B", "C/D"}));
    std::map<int, std::size_t> cellsOfThread;
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const json& panel = panels[p];
        const DiagramPanel& dp = d.panels[p];
        // Every position of the operand is drawn: A 128 x 16, B 16 x 256, C/D 128 x 256.
        EXPECT_EQ(panel["rows"].get<int>() * panel["cols"].get<int>(), p == 0   ? 128 * 16
                                                                       : p == 1 ? 16 * 256
                                                                                : 128 * 256);
        std::set<std::pair<int, int>> covered;
        ASSERT_EQ(panel["tips"].size(), dp.cellCount);
        for (std::uint32_t i = 0; i < dp.cellCount; ++i) {
            const int thread = panel["cells"][i * 15 + 4];
            ASSERT_GE(thread, 0);
            ASSERT_LT(thread, 256);
            ++cellsOfThread[thread];
            covered.emplace(panel["cells"][i * 15 + 9].get<int>(), panel["cells"][i * 15 + 10].get<int>());
            const std::string tip = panel["tips"][i];
            const std::string who =
                "warp " + std::to_string(thread / 32) + " lane " + std::to_string(thread % 32);
            ASSERT_EQ(tip.rfind(who + " ", 0), 0u) << tip;
            ASSERT_EQ(panel["labels"][i].get<std::string>().rfind("T" + std::to_string(thread) + ":", 0), 0u);
        }
        EXPECT_EQ(covered.size(), static_cast<std::size_t>(dp.rows * dp.cols)) << dp.name;
    }
    // Each thread lights what the app lights: its cells in every operand.
    ASSERT_EQ(cellsOfThread.size(), 256u);
    for (const auto& [thread, n] : cellsOfThread)
        ASSERT_EQ(n, d.cellsOfThread(thread).size()) << thread;
}

TEST(SitePage, AWgmmaTilesPageColoursByWarpgroupAndATcgen05TilesDrawsDPerCta) {
    const auto wgmma = tiled("wgmma.m64n256k16.f16", "(2,1,1)");
    ExportOptions o;
    o.colorBy = ColorBy::Warpgroup;
    std::string page, error;
    ASSERT_TRUE(exportInstruction(*wgmma, ExportFormat::Html, o, page, error)) << error;
    EXPECT_NE(page.find("<option value=\"warpgroup\" selected>warpgroup</option>"), std::string::npos);
    EXPECT_NE(page.find("lights in A and D"), std::string::npos);
    json data = pageData(page);
    EXPECT_EQ(data["atomThreads"], 128);
    EXPECT_EQ(data["palettes"]["colorblind"]["warpgroup"].size(), 2u);
    EXPECT_EQ(data["diagrams"][0]["panels"].size(), 2u);
    // A tile of tcgen05.mma atoms: D of every CTA in Tensor Memory, as its SVG draws it.
    const auto pairs = tiled("tcgen05.mma.cta_group::2.kind::f16.m128n32", "(2,1,1)");
    ASSERT_TRUE(exportInstruction(*pairs, ExportFormat::Html, {}, page, error)) << error;
    EXPECT_NE(page.find("tile 256x32x16 (atom layout (2,1,1))</h1>"), std::string::npos);
    data = pageData(page);
    EXPECT_EQ(data["scope"], "tmem");
    const Diagram d = buildTensorMemoryDiagram(*pairs);
    ASSERT_EQ(data["diagrams"][0]["panels"].size(), d.panels.size());
    EXPECT_EQ(data["diagrams"][0]["panels"][0]["tips"].size(), d.panels[0].cellCount);
    EXPECT_NE(data["diagrams"][0]["panels"][0]["tips"][0].get<std::string>().find("CTA 0"),
              std::string::npos);
    // Its cells are coloured by their Tensor Memory lane only.
    o.colorBy = ColorBy::Warp;
    EXPECT_FALSE(exportInstruction(*pairs, ExportFormat::Html, o, page, error));
    EXPECT_NE(error.find("no operand, colouring"), std::string::npos) << error;
}

} // namespace

} // namespace test_site
