// The static site in a real browser: Debian's chromium, headless, driven over the DevTools protocol
// (devtools.hpp). Pages are written by the core exporter into a temp folder and opened from disk, as a user
// would open them; the mouse moves and clicks like a user's. Skips, saying why, when chromium is absent
// (./dev.sh installs it).
#include "devtools.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/search.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/site.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/write.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <regex>

using namespace lanemap;
using lanemap::test::Browser;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The tile the browser tests open as a user exports it: 128 x 256 x 16 over 8 warps, 256 threads
// (export mma.m16n8k16.f16 --atom-layout '(4,2,1)' --permutation '_128,_256,_16' --format html --color warp).
std::shared_ptr<const Instruction> bigTile() {
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout("(4,2,1)", "_128,_256,_16", error);
    EXPECT_TRUE(t) << error;
    Selection s = selectionOf(parseSpec("mma.m16n8k16.f16", Catalog::instance()));
    s.params.tile = *t;
    return instantiate(s);
}

const char* const kPages[] = {"mma.m16n8k16.f16", "mma.sp.m16n8k32.s8", "wgmma.m64n256k16.f16",
                              "tcgen05.mma.cta_group::1.kind::f16.m128"};

class Site : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        s_exe = Browser::executable();
        if (s_exe.empty())
            return;
        s_dir = fs::temp_directory_path() / ("lanemap-site-test-" + std::to_string(::getpid()));
        fs::remove_all(s_dir);
        fs::create_directories(s_dir / "site");
        const Catalog& catalog = Catalog::instance();
        ASSERT_EQ(writeFile((s_dir / "site" / "index.html").string(), htmlIndex(catalog.variants())), "");
        for (const char* spec : kPages)
            ASSERT_EQ(writeFile((s_dir / "site" / (std::string(spec) + ".html")).string(),
                                htmlPage(*catalog.instruction(spec))),
                      "");
        ASSERT_EQ(writeFile((s_dir / "site" / "tile.html").string(), htmlPage(*bigTile(), {ColorBy::Warp})),
                  "");
        s_browser = std::make_unique<Browser>(s_exe, s_dir / "profile");
    }
    static void TearDownTestSuite() {
        s_browser.reset();
        if (!s_dir.empty())
            fs::remove_all(s_dir);
    }
    void SetUp() override {
        if (s_exe.empty())
            GTEST_SKIP()
                << "chromium not found (/usr/bin/chromium or $LANEMAP_CHROMIUM): browser tests of the "
                   "static site skipped; ./dev.sh installs Debian's chromium";
        ASSERT_TRUE(s_browser);
    }
    static std::string url(const std::string& page) { return "file://" + (s_dir / "site" / page).string(); }
    static Browser& browser() { return *s_browser; }
    // Moves the mouse over a cell (the page scrolls it into view first) and returns where it went.
    static json pointAt(const std::string& operand, int row, int col) {
        const json p = browser().evaluate("JSON.stringify(lanemapPage.clientPoint('" + operand + "'," +
                                          std::to_string(row) + "," + std::to_string(col) + "))");
        return json::parse(p.get<std::string>());
    }
    static std::string data(const std::string& key) {
        return browser().evaluate("document.body.dataset." + key).get<std::string>();
    }
    static std::string detailsText() {
        return browser().evaluate("document.getElementById('details').textContent");
    }

    static inline std::string s_exe;
    static inline fs::path s_dir;
    static inline std::unique_ptr<Browser> s_browser;
};

// The cell of `operand` at (row, col) in the app's Diagram.
const DiagramCell* cellOf(const Diagram& d, const std::string& operand, int row, int col) {
    for (const DiagramPanel& p : d.panels)
        if (p.name == operand)
            for (std::uint32_t i = 0; i < p.cellCount; ++i) {
                const DiagramCell& c = d.cells[p.firstCell + i];
                if (c.row == row && col >= c.col && col <= c.colLast)
                    return &c;
            }
    return nullptr;
}

TEST_F(Site, HoverLightsTheLaneInEveryOperandWithTheCellsDetails) {
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"));
    const DiagramCell* cell = cellOf(d, "A", 3, 11);
    ASSERT_NE(cell, nullptr);
    ASSERT_TRUE(browser().open(url("mma.m16n8k16.f16.html")));
    EXPECT_EQ(data("litThread"), "");
    const json p = pointAt("A", 3, 11);
    browser().mouseMove(p["x"], p["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_EQ(data("litOperands"), "A B C/D");
    EXPECT_EQ(data("litCells"), std::to_string(d.cellsOfThread(cell->thread).size()));
    const std::string details = detailsText();
    EXPECT_NE(details.find(d.tooltip(*cell)), std::string::npos) << details;
    EXPECT_NE(details.find("source: doc"), std::string::npos) << details;
    // Another lane's cell: the light follows the mouse.
    const DiagramCell* other = cellOf(d, "B", 0, 0);
    ASSERT_NE(other, nullptr);
    ASSERT_NE(other->thread, cell->thread);
    const json q = pointAt("B", 0, 0);
    browser().mouseMove(q["x"], q["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(other->thread));
}

TEST_F(Site, ClickPinsTheCellAndPutsItInTheAddress) {
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"));
    const DiagramCell* cell = cellOf(d, "C/D", 5, 6);
    ASSERT_NE(cell, nullptr);
    ASSERT_TRUE(browser().open(url("mma.m16n8k16.f16.html")));
    const json p = pointAt("C", 5, 6);
    browser().click(p["x"], p["y"]);
    EXPECT_EQ(data("pinned"), "C/D:5,6");
    EXPECT_EQ(browser().evaluate("location.hash"), "#C/D:5,6");
    // The mouse leaves the picture: the pinned lane stays lit.
    browser().mouseMove(2, 2);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_NE(detailsText().find("pinned"), std::string::npos);
    // Esc unpins.
    browser().key("Escape", "Escape", 27);
    EXPECT_EQ(data("pinned"), "");
    EXPECT_EQ(data("litThread"), "");
}

TEST_F(Site, DeepLinkOpensWithTheCellPinned) {
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"));
    const DiagramCell* cell = cellOf(d, "A", 3, 11);
    ASSERT_TRUE(browser().open(url("mma.m16n8k16.f16.html") + "#A:3,11"));
    EXPECT_EQ(data("pinned"), "A:3,11");
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_NE(detailsText().find(d.tooltip(*cell)), std::string::npos);
    // A link to a cell the instruction does not have says so instead of pinning something else.
    ASSERT_TRUE(browser().open(url("mma.m16n8k16.f16.html") + "#A:99,0"));
    EXPECT_EQ(data("pinned"), "");
    EXPECT_NE(detailsText().find("does not have"), std::string::npos);
}

TEST_F(Site, SparseSelectorSwitchesTheMetadataAndDeepLinksNameIt) {
    const Instruction& in = *Catalog::instance().instruction("mma.sp.m16n8k32.s8");
    ASSERT_TRUE(in.metadata);
    ASSERT_GE(in.metadata->selectors.size(), 2u);
    const int second = in.metadata->selectors[1].value;
    DiagramOptions o;
    o.selector = second;
    const Diagram d = buildDiagram(in, o);
    const DiagramCell* meta = nullptr;
    for (const DiagramCell& c : d.cells)
        if (d.panels[c.panel].name == "metadata") {
            meta = &c;
            break;
        }
    ASSERT_NE(meta, nullptr);
    const std::string link = "metadata:" + std::to_string(meta->row) + "," + std::to_string(meta->col) +
                             ";selector=" + std::to_string(second);
    ASSERT_TRUE(browser().open(url("mma.sp.m16n8k32.s8.html") + "#" + link));
    EXPECT_EQ(browser().evaluate("document.getElementById('selector').value"), std::to_string(second));
    EXPECT_EQ(data("pinned"), link);
    EXPECT_EQ(data("litThread"), std::to_string(meta->thread));
    EXPECT_NE(detailsText().find(d.tooltip(*meta)), std::string::npos) << detailsText();
    // Picking the first selector in the page keeps the position pinned under that selector.
    browser().evaluate("(function(){const s=document.getElementById('selector');s.value='" +
                       std::to_string(in.metadata->selectors[0].value) +
                       "';s.dispatchEvent(new Event('change'));return 0;})()");
    const std::string first = std::to_string(in.metadata->selectors[0].value);
    const std::string pinned = data("pinned");
    EXPECT_TRUE(pinned.empty() || pinned.ends_with(";selector=" + first)) << pinned;
    EXPECT_EQ(browser().evaluate("String(lanemapPage.state.diagram)"), "0");
}

TEST_F(Site, LaneFilterAndColourByChangeTheLegend) {
    ASSERT_TRUE(browser().open(url("mma.m16n8k16.f16.html")));
    auto legend = [] {
        return browser().evaluate("document.getElementById('legend').textContent").get<std::string>();
    };
    EXPECT_NE(legend().find("lane 31"), std::string::npos);
    EXPECT_NE(legend().find("label T<lane>:<operand><element index>"), std::string::npos) << legend();
    browser().evaluate("(function(){const e=document.getElementById('lanes');e.value='0-3';"
                       "e.dispatchEvent(new Event('input'));return 0;})()");
    EXPECT_EQ(legend().find("lane 31"), std::string::npos) << legend();
    EXPECT_NE(legend().find("outside the lane filter"), std::string::npos);
    browser().evaluate("(function(){const e=document.getElementById('lanes');e.value='0-40';"
                       "e.dispatchEvent(new Event('input'));return 0;})()");
    EXPECT_NE(browser()
                  .evaluate("document.getElementById('lanesError').textContent")
                  .get<std::string>()
                  .find("lanes are 0..31"),
              std::string::npos);
    browser().evaluate("(function(){const e=document.getElementById('colorBy');e.value='register';"
                       "e.dispatchEvent(new Event('change'));return 0;})()");
    EXPECT_NE(legend().find("reg 0"), std::string::npos) << legend();
    EXPECT_EQ(legend().find("lane 0"), std::string::npos) << legend();
}

// A Tensor Memory D whose headers name every cell: the page draws its cells without labels, as the app and
// the SVG do, and hovering one still names it in the details bar.
TEST_F(Site, ABareTensorMemoryPanelDrawsNoLabelsAndHoverNamesTheCell) {
    const std::string spec = "tcgen05.mma.cta_group::1.kind::f16.m128";
    const Diagram d = buildDiagram(*Catalog::instance().instruction(spec));
    const DiagramCell* cell = cellOf(d, "D", 5, 3);
    ASSERT_NE(cell, nullptr);
    ASSERT_TRUE(browser().open(url(spec + ".html")));
    // Every text the canvas draws from now on.
    browser().evaluate(
        "self.drawn=[];(function(f){CanvasRenderingContext2D.prototype.fillText=function(t,x,y,w)"
        "{self.drawn.push(String(t));return f.apply(this,arguments)}})("
        "CanvasRenderingContext2D.prototype.fillText);0");
    const json p = pointAt("D", 5, 3);
    browser().mouseMove(p["x"], p["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    const std::string details = detailsText();
    EXPECT_NE(details.find("D(5,3)"), std::string::npos) << details;
    EXPECT_NE(details.find(d.tooltip(*cell)), std::string::npos) << details;
    // Its lane of Tensor Memory holds a row of D (no register: nothing of a thread's).
    EXPECT_NE(details.find("TMEM lane 5 holds D: " + std::to_string(d.cellsOfThread(cell->thread).size()) +
                           " elements"),
              std::string::npos)
        << details;
    EXPECT_EQ(details.find("register"), std::string::npos) << details;
    // Tensor Memory cells are coloured by lane only: the legend says so, and colour-by offers nothing else.
    const std::string legend = browser().evaluate("document.getElementById('legend').textContent");
    EXPECT_EQ(legend.rfind("colour = TMEM lane % 32", 0), 0u) << legend;
    EXPECT_EQ(browser().evaluate("document.getElementById('colorBy').options.length"), 1);
    const json drawn = json::parse(browser().evaluate("JSON.stringify(self.drawn)").get<std::string>());
    EXPECT_FALSE(drawn.empty()) << "the hover redrew the picture";
    const std::regex label(R"(D\(\d+,\d+\))");
    for (const json& t : drawn)
        EXPECT_FALSE(std::regex_match(t.get<std::string>(), label)) << "a cell label drawn: " << t;
}

TEST_F(Site, LargestWgmmaPageHovers) {
    const Diagram d = buildDiagram(*Catalog::instance().instruction("wgmma.m64n256k16.f16"));
    const DiagramCell* cell = cellOf(d, "D", 40, 200);
    ASSERT_NE(cell, nullptr);
    ASSERT_TRUE(browser().open(url("wgmma.m64n256k16.f16.html")));
    // Load to interactive (the budget, < 1 s, is a benchmark figure: recorded here, never asserted).
    RecordProperty("ready_ms", data("readyMs"));
    std::cout << "wgmma.m64n256k16.f16 page interactive after " << data("readyMs") << " ms\n";
    const json p = pointAt("D", 40, 200);
    browser().mouseMove(p["x"], p["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_EQ(data("litCells"), std::to_string(d.cellsOfThread(cell->thread).size()));
}

// A tile's page at 128 x 256 with 256 threads: hovering a cell names its CTA thread, warp and lane and lights
// every cell that thread holds in A, B and C/D; a click pins the thread; zoomed out to 10 % (the whole tile
// in view) the pointer still finds the cell under it.
TEST_F(Site, ATilesPageNamesTheCtaThreadAndLightsItInEveryOperand) {
    const auto in = bigTile();
    const Diagram d = buildDiagram(*in);
    const DiagramCell* cell = cellOf(d, "C/D", 100, 200);
    ASSERT_NE(cell, nullptr);
    ASSERT_TRUE(browser().open(url("tile.html")));
    RecordProperty("ready_ms", data("readyMs"));
    std::cout << "128x256 tile page interactive after " << data("readyMs") << " ms\n";
    const auto legend = [] {
        return browser().evaluate("document.getElementById('legend').textContent").get<std::string>();
    };
    EXPECT_NE(legend().find("colour = warp (thread / 32)"), std::string::npos) << legend();
    EXPECT_NE(legend().find("warp 7 (T224\u2013255)"), std::string::npos) << legend();
    const json p = pointAt("C", 100, 200);
    browser().mouseMove(p["x"], p["y"]);
    const int t = cell->thread;
    EXPECT_EQ(data("litThread"), std::to_string(t));
    EXPECT_EQ(data("litOperands"), "A B C/D");
    EXPECT_EQ(data("litCells"), std::to_string(d.cellsOfThread(t).size()));
    std::string details = detailsText();
    EXPECT_NE(details.find(d.tooltip(*cell)), std::string::npos) << details;
    EXPECT_NE(details.find("CTA thread " + std::to_string(t) + " (warp " + std::to_string(t / 32) +
                           ", lane " + std::to_string(t % 32) + ") holds"),
              std::string::npos)
        << details;
    // Pinned, the thread stays lit while the pointer moves on.
    browser().click(p["x"], p["y"]);
    EXPECT_EQ(data("pinned"), "C/D:100,200");
    browser().mouseMove(2, 2);
    EXPECT_EQ(data("litThread"), std::to_string(t));
    browser().key("Escape", "Escape", 27);
    // At 10 % the 59,000-unit picture is 5,900 pixels wide, and a hover still names the cell under it.
    browser().evaluate("(function(){const e=document.getElementById('zoom');e.value='0.1';"
                       "e.dispatchEvent(new Event('change'));return 0;})()");
    EXPECT_EQ(data("zoom"), "0.1");
    const DiagramCell* b = cellOf(d, "B", 9, 250);
    ASSERT_NE(b, nullptr);
    const json q = pointAt("B", 9, 250);
    browser().mouseMove(q["x"], q["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(b->thread));
    details = detailsText();
    EXPECT_NE(details.find("B row 9 col 250"), std::string::npos) << details;
    // Colour by thread: one legend entry per warp; a thread filter names the CTA's threads.
    browser().evaluate("(function(){const e=document.getElementById('colorBy');e.value='thread';"
                       "e.dispatchEvent(new Event('change'));return 0;})()");
    EXPECT_NE(legend().find("shade = warp % 4"), std::string::npos) << legend();
    browser().evaluate("(function(){const e=document.getElementById('lanes');e.value='0-300';"
                       "e.dispatchEvent(new Event('input'));return 0;})()");
    EXPECT_NE(browser()
                  .evaluate("document.getElementById('lanesError').textContent")
                  .get<std::string>()
                  .find("the CTA's threads are 0..255"),
              std::string::npos);
}

TEST_F(Site, IndexFilterAgreesWithTheCoreMatcher) {
    ASSERT_TRUE(browser().open(url("index.html")));
    for (const char* query :
         {"m16n8k16 bf16", "f32 acc sm_90", "sparse int8", "wgmma", "fp16 acc m64n8k16", "SM80 tf32", "bf61",
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f0}, ...;"}) {
        std::size_t expected = 0;
        std::string text = query;
        // The GUI's rule for a pasted instruction with operands: only its opcode is searched.
        if (text.find('{') != std::string::npos)
            text = text.substr(0, text.find(' '));
        for (const Variant* v : Catalog::instance().variants())
            expected += matchesSearch(searchText(*v), searchWords(text));
        const json shown = browser().evaluate(
            "(function(){const e=document.getElementById('filter');e.value=" + json(query).dump() +
            ";e.dispatchEvent(new Event('input'));return "
            "document.getElementById('count').dataset.shown;})()");
        EXPECT_EQ(shown, std::to_string(expected)) << query;
    }
    // Nothing matches: the page says so.
    browser().evaluate("(function(){const e=document.getElementById('filter');e.value='bf61';"
                       "e.dispatchEvent(new Event('input'));return 0;})()");
    EXPECT_FALSE(browser().evaluate("document.getElementById('none').hidden").get<bool>());
    // A search is a link too: index.html#q=... opens filtered.
    std::size_t wgmma = 0;
    for (const Variant* v : Catalog::instance().variants())
        wgmma += matchesSearch(searchText(*v), searchWords("wgmma sparse"));
    ASSERT_TRUE(browser().open(url("index.html") + "#q=wgmma%20sparse"));
    EXPECT_EQ(browser().evaluate("document.getElementById('count').dataset.shown"), std::to_string(wgmma));
}

TEST_F(Site, IndexLinksWithDoubleColonsOpenTheirPages) {
    // "tcgen05.mma.cta_group::1...html" as an href is read as a URL of scheme "tcgen05.mma.cta_group"; the
    // index writes "./" before every page name, so the link resolves to the page next to it.
    ASSERT_TRUE(browser().open(url("index.html")));
    const std::string page = std::string(kPages[3]) + ".html";
    ASSERT_NE(page.find("::"), std::string::npos);
    const json href = browser().evaluate("Array.from(document.querySelectorAll('#catalog a')).map(function(a)"
                                         "{return a.href;}).filter(function(h){return h.endsWith(" +
                                         json(page).dump() + ");})[0] || ''");
    EXPECT_EQ(href, url(page));
    // Clicked, it opens the page.
    browser().evaluate("Array.from(document.querySelectorAll('#catalog a')).filter(function(a){return "
                       "a.href.endsWith(" +
                       json(page).dump() + ");})[0].click()");
    bool opened = false;
    for (int i = 0; i < 600 && !opened; ++i) { // a loaded box may take seconds
        opened = browser().evaluate("location.href").get<std::string>() == url(page) &&
                 browser().evaluate("document.body && document.body.dataset.ready === '1'") == true;
        if (!opened)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(opened) << browser().evaluate("location.href").dump();
}

} // namespace
