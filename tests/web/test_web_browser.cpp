// The web app (docs/web.md) in a real browser: the folder `./dev.sh web` builds (the engine compiled to
// WebAssembly and the page), served from 127.0.0.1 as any static host would (http_server.hpp), in Debian's
// headless chromium over the DevTools protocol (tests/site/devtools.hpp). What the page shows is checked
// against the native engine: the same core, so the same cells, tooltips, search matches and exports.
//
// Skips, saying why, when chromium or the built folder is missing — unless LANEMAP_WEB_REQUIRED=1 (what
// ./dev.sh test sets after building the folder), where a missing folder fails.
#include "../site/devtools.hpp"
#include "http_server.hpp"

#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/compare.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/family.hpp"
#include "lanemap/feeds.hpp"
#include "lanemap/layout_in.hpp"
#include "lanemap/search.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/site.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tcgen05_desc.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tiled_copy.hpp"
#include "lanemap/tmem.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <set>
#include <thread>

using namespace lanemap;
using lanemap::test::Browser;
using lanemap::test::HttpServer;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Records what the page writes to the console as an error or warning, and uncaught exceptions.
constexpr const char* kConsoleRecorder = R"JS(
window.__errors = [];
for (const level of ["error", "warn"]) {
  const original = console[level].bind(console);
  console[level] = function () { window.__errors.push(level + ": " + Array.from(arguments).join(" ")); original.apply(null, arguments); };
}
window.addEventListener("error", function (e) { window.__errors.push("uncaught: " + e.message); });
window.addEventListener("unhandledrejection", function (e) { window.__errors.push("rejection: " + e.reason); });
)JS";

fs::path siteDir() {
    if (const char* env = std::getenv("LANEMAP_WEB_SITE"); env && *env)
        return env;
    return LANEMAP_WEB_SITE_DEFAULT;
}

class Web : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        s_exe = Browser::executable();
        if (s_exe.empty() || !fs::exists(siteDir() / "lanemap-engine.wasm"))
            return;
        s_profile = fs::temp_directory_path() / ("lanemap-web-test-" + std::to_string(::getpid()));
        fs::remove_all(s_profile);
        s_server = std::make_unique<HttpServer>(siteDir());
        s_browser = std::make_unique<Browser>(s_exe, s_profile);
        s_browser->addInitScript(kConsoleRecorder);
    }
    static void TearDownTestSuite() {
        s_browser.reset();
        s_server.reset();
        if (!s_profile.empty())
            fs::remove_all(s_profile);
    }
    void SetUp() override {
        if (s_exe.empty())
            GTEST_SKIP()
                << "chromium not found (/usr/bin/chromium or $LANEMAP_CHROMIUM): browser tests of the "
                   "web app skipped; ./dev.sh installs Debian's chromium";
        if (!fs::exists(siteDir() / "lanemap-engine.wasm")) {
            const char* required = std::getenv("LANEMAP_WEB_REQUIRED");
            if (required && std::string(required) == "1")
                FAIL() << "the web app is not built in " << siteDir() << " (./dev.sh web builds it)";
            GTEST_SKIP() << "the web app is not built in " << siteDir()
                         << ": its browser tests skipped (./dev.sh web builds it; LANEMAP_WEB_SITE names "
                            "another folder)";
        }
        ASSERT_TRUE(s_browser);
    }
    void TearDown() override {
        // No test leaves an error or warning in the console.
        if (s_browser && !IsSkipped()) {
            EXPECT_EQ(browser().evaluate("JSON.stringify(window.__errors || [])").get<std::string>(), "[]");
        }
    }
    static Browser& browser() { return *s_browser; }
    static bool open(const std::string& hash) { return browser().open(s_server->url("index.html") + hash); }
    static std::string data(const std::string& key) {
        const json v = browser().evaluate("document.body.dataset." + key + " || ''");
        return v.get<std::string>();
    }
    static std::string text(const std::string& id) {
        return browser().evaluate("document.getElementById('" + id + "').textContent").get<std::string>();
    }
    static std::string hash() { return browser().evaluate("decodeURI(location.hash)").get<std::string>(); }
    // Waits (at most 10 s) until a script expression is true.
    static bool until(const std::string& expression) {
        for (int i = 0; i < 100; ++i) {
            try {
                if (browser().evaluate(expression) == true)
                    return true;
            } catch (const std::runtime_error&) {
                // The page navigated while the expression ran (a redirect): ask the next page.
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }
    // Where a cell is on screen; `nth`: of the nth panel so named (a compare view's right side is 1).
    static json pointAt(const std::string& operand, int row, int col, int nth = 0) {
        const json p = browser().evaluate("JSON.stringify(lanemapApp.clientPoint('" + operand + "'," +
                                          std::to_string(row) + "," + std::to_string(col) + "," +
                                          std::to_string(nth) + "))");
        return json::parse(p.get<std::string>());
    }

    static inline std::string s_exe;
    static inline fs::path s_profile;
    static inline std::unique_ptr<HttpServer> s_server;
    static inline std::unique_ptr<Browser> s_browser;
};

// A panel's name as a link writes it: "C/D" as D (either letter finds the merged panel).
std::string linkOperand(const std::string& name) {
    const std::size_t slash = name.rfind('/');
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

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

TEST_F(Web, DeepLinkOfEveryFamilyPinsTheCellAndShowsTheEnginesText) {
    // One variant of every family; a cell in the middle of its first panel.
    std::set<std::string> families;
    int checked = 0;
    bool first = true;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!families.insert(std::string(v->family->name)).second)
            continue;
        const Diagram d = siteDiagrams(*Catalog::instance().instruction(v->spec)).front();
        ASSERT_FALSE(d.panels.empty()) << v->spec;
        const DiagramPanel& p = d.panels.front();
        const DiagramCell& c = d.cells[p.firstCell + p.cellCount / 2];
        const std::string link =
            linkOperand(p.name) + ":" + std::to_string(c.row) + "," + std::to_string(c.col);
        const std::string target = "#" + v->spec + "/" + link;
        if (first) {
            ASSERT_TRUE(open(target)) << target; // a fresh load of the link
            first = false;
        } else {
            // The same page following a link: the URL is the view.
            browser().evaluate("location.hash = encodeURI(" + json(target).dump() + ")");
        }
        ASSERT_TRUE(until("document.body.dataset.pinned === " + json(link).dump() +
                          " && document.title.startsWith(" + json(v->spec).dump() + ")"))
            << target << " pinned '" << data("pinned") << "', error '" << data("error") << "'";
        EXPECT_NE(text("details").find(d.tooltip(c)), std::string::npos)
            << target << ": " << text("details") << " lacks " << d.tooltip(c);
        EXPECT_EQ(text("title"), v->spec);
        ++checked;
    }
    EXPECT_GE(checked, 8); // mma, mma.sp, wgmma, wgmma.sp, wmma, ldmatrix, stmatrix, tcgen05...
}

TEST_F(Web, EveryPanelOfABlockScaledAndASparseVariantDeepLinks) {
    // Scale factors, metadata, Tensor Memory: a link to a cell of any panel pins that cell.
    bool first = true;
    for (const std::string spec : {"tcgen05.mma.cta_group::1.kind::mxf8f6f4.m128", "mma.sp.m16n8k32.s8"}) {
        const Diagram d = siteDiagrams(*Catalog::instance().instruction(spec)).front();
        ASSERT_GE(d.panels.size(), 3u) << spec;
        for (const DiagramPanel& p : d.panels) {
            if (!p.cellCount)
                continue;
            const DiagramCell& c = d.cells[p.firstCell + p.cellCount / 3];
            const std::string link =
                linkOperand(p.name) + ":" + std::to_string(c.row) + "," + std::to_string(c.col);
            const std::string target = "#" + spec + "/" + link;
            if (first) {
                ASSERT_TRUE(open(target));
                first = false;
            } else {
                browser().evaluate("location.hash = encodeURI(" + json(target).dump() + ")");
            }
            // The cell pinned is the first of its grid position (a position held twice links to its first).
            const DiagramCell& shown = *cellOf(d, p.name, c.row, c.col);
            EXPECT_TRUE(until("document.body.dataset.pinned === " + json(link).dump()))
                << target << ": pinned '" << data("pinned") << "', error '" << data("error") << "'";
            EXPECT_NE(text("details").find(d.tooltip(shown)), std::string::npos)
                << target << ": " << text("details");
        }
    }
}

TEST_F(Web, HoverLightsTheLaneAndShowsTheEnginesTooltip) {
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"));
    const DiagramCell* cell = cellOf(d, "A", 3, 11);
    ASSERT_NE(cell, nullptr);
    ASSERT_TRUE(open("#mma.m16n8k16.f16"));
    EXPECT_EQ(data("litThread"), "");
    const json p = pointAt("A", 3, 11);
    browser().mouseMove(p["x"], p["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_EQ(data("litCells"), std::to_string(d.cellsOfThread(cell->thread).size()));
    const std::string details = text("details");
    EXPECT_NE(details.find(d.tooltip(*cell)), std::string::npos) << details;
    // The details are a live region: a screen reader reads what the mouse or the cursor is on.
    EXPECT_EQ(browser().evaluate("document.getElementById('details').getAttribute('aria-live')"), "polite");
}

TEST_F(Web, ClickPinsAndTheUrlHoldsTheViewThroughBackAndForward) {
    ASSERT_TRUE(open("#mma.m16n8k16.f16"));
    const json p = pointAt("C", 5, 6);
    browser().click(p["x"], p["y"]);
    EXPECT_EQ(data("pinned"), "D:5,6");
    EXPECT_EQ(hash(), "#mma.m16n8k16.f16/D:5,6");
    // An option: colour by register, in the URL too.
    browser().evaluate("(function(){const s=document.getElementById('colorBy'); s.value='register';"
                       "s.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(hash(), "#mma.m16n8k16.f16/D:5,6?color=register");
    EXPECT_NE(text("legend").find("reg 0"), std::string::npos) << text("legend");
    // Back: lane colours again, the cell still pinned; forward: register again.
    browser().evaluate("history.back()");
    ASSERT_TRUE(until("location.hash === '#mma.m16n8k16.f16/D:5,6'"));
    ASSERT_TRUE(until("document.getElementById('colorBy').value === 'lane'"));
    EXPECT_EQ(data("pinned"), "D:5,6");
    browser().evaluate("history.back()");
    ASSERT_TRUE(until("document.body.dataset.pinned === ''"));
    browser().evaluate("history.forward()");
    browser().evaluate("history.forward()");
    ASSERT_TRUE(until("document.getElementById('colorBy').value === 'register'"));
    // The link opened afresh shows the same view.
    const std::string link = browser().evaluate("location.hash").get<std::string>();
    ASSERT_TRUE(open(link));
    EXPECT_EQ(data("pinned"), "D:5,6");
    EXPECT_EQ(browser().evaluate("document.getElementById('colorBy').value"), "register");
    // The page's own URL writer and reader agree on every option.
    EXPECT_EQ(
        browser().evaluate(
            "(function(){const s={spec:'wgmma.m64n64k16.f16',cell:{operand:'A',row:1,col:2},"
            "options:Object.assign({},lanemapApp.parseHash('#x').options,{view:'smem',"
            "major:'mn',swizzle:'64',color:'group',lanes:'0-3',zoom:'2'})};"
            "return JSON.stringify(lanemapApp.parseHash(lanemapApp.hashOf(s)))===JSON.stringify(s);})()"),
        true);
}

TEST_F(Web, AnotherSpellingOpensTheVariantUnderItsSpec) {
    ASSERT_TRUE(open("#" + std::string("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")));
    const ParsedSpec parsed =
        parseSpec("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", Catalog::instance());
    ASSERT_TRUE(parsed);
    EXPECT_EQ(text("title"), parsed.variant->spec);
    EXPECT_EQ(hash(), "#" + parsed.variant->spec);
}

TEST_F(Web, ABadSpecSaysWhatIsWrongAndTheNearestSpecs) {
    ASSERT_TRUE(open("#mma.m16n8k17.f16"));
    const ParsedSpec parsed = parseSpec("mma.m16n8k17.f16", Catalog::instance());
    ASSERT_FALSE(parsed);
    const std::string error = data("error");
    EXPECT_NE(error.find(parsed.error), std::string::npos) << error;
    ASSERT_FALSE(parsed.suggestions.empty());
    EXPECT_NE(error.find(parsed.suggestions.front()), std::string::npos) << error;
    EXPECT_EQ(browser().evaluate("document.getElementById('error').hidden"), false);
}

TEST_F(Web, KeyboardMovesTheCursorPinsAndSwitchesOperand) {
    ASSERT_TRUE(open("#mma.m16n8k16.f16"));
    browser().evaluate("document.getElementById('diagram').focus()");
    browser().key("ArrowRight", "ArrowRight", 39); // the first key puts the cursor on A(0,0)
    browser().key("ArrowRight", "ArrowRight", 39);
    browser().key("ArrowRight", "ArrowRight", 39);
    browser().key("ArrowDown", "ArrowDown", 40);
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"));
    const DiagramCell* cell = cellOf(d, "A", 1, 2);
    ASSERT_NE(cell, nullptr);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_NE(text("details").find(d.tooltip(*cell)), std::string::npos) << text("details");
    browser().key("Enter", "Enter", 13);
    EXPECT_EQ(data("pinned"), "A:1,2");
    EXPECT_EQ(hash(), "#mma.m16n8k16.f16/A:1,2");
    // O: the same position in the next operand (B).
    browser().key("o", "KeyO", 79);
    const DiagramCell* b = cellOf(d, "B", 1, 2);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(text("details").find(d.tooltip(*b)), std::string::npos) << text("details");
    browser().key("Escape", "Escape", 27);
    EXPECT_EQ(data("pinned"), "");
}

TEST_F(Web, SearchAgreesWithTheCoreMatcher) {
    ASSERT_TRUE(open(""));
    for (const std::string query :
         {"fp8 sm_90", "m16n8k16 bf16", "wgmma sparse", "tcgen05 m128n64", "zzzz"}) {
        browser().evaluate("(function(){const s=document.getElementById('search'); s.value=" +
                           json(query).dump() + "; s.dispatchEvent(new Event('input'));})()");
        const std::vector<std::string> words = searchWords(query);
        std::size_t expected = 0;
        for (const Variant* v : Catalog::instance().variants())
            expected += matchesSearch(searchText(*v), words);
        const std::string count =
            std::to_string(expected) + " of " + std::to_string(Catalog::instance().size());
        EXPECT_TRUE(
            until("document.getElementById('count').textContent.startsWith(" + json(count).dump() + ")"))
            << query << ": " << text("count") << ", the core matches " << expected;
        EXPECT_EQ(browser()
                      .evaluate("Array.from(document.querySelectorAll('#results li:not(.family)'))"
                                ".filter(function(li){return !li.hidden;}).length")
                      .get<std::size_t>(),
                  expected)
            << query;
    }
}

TEST_F(Web, ExportsAreTheEnginesDocuments) {
    ASSERT_TRUE(open("#mma.m16n8k16.f16"));
    const Instruction& in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    for (const std::string format : {"json", "cute", "triton", "cuda", "svg"}) {
        browser().evaluate("(function(){const s=document.getElementById('format'); s.value=" +
                           json(format).dump() + "; document.getElementById('download').click();})()");
        std::string document, error;
        ASSERT_TRUE(exportInstruction(in, *parseExportFormat(format), ExportOptions{}, document, error))
            << error;
        EXPECT_EQ(data("lastExport"), document.substr(0, 200)) << format;
    }
}

TEST_F(Web, SharedMemoryViewDrawsTheEnginesPlacementForTheChosenSwizzle) {
    ASSERT_TRUE(open("#wgmma.m64n64k16.f16?view=smem&major=mn&swizzle=64"));
    EXPECT_EQ(data("error"), "");
    std::string error;
    const std::vector<smem::SharedOperand> ops =
        smem::operands(*Catalog::instance().variant("wgmma.m64n64k16.f16"),
                       smem::Choice{smem::Major::MN, smem::Swizzle::B64}, error);
    ASSERT_FALSE(ops.empty()) << error;
    Diagram d = buildSharedMemoryDiagram(ops.front());
    for (std::size_t i = 1; i < ops.size(); ++i)
        appendSharedMemory(d, ops[i]);
    const DiagramPanel& p = d.panels.front();
    const DiagramCell& c = d.cells[p.firstCell + 5];
    // Every cell of the memory map in the Diagram's colour (the bank group a chunk lands in).
    for (const DiagramPanel& panel : d.panels) {
        if (panel.kind != PanelKind::SharedMemoryMap)
            continue;
        for (std::uint32_t i = 0; i < panel.cellCount; i += 7) {
            const DiagramCell& m = d.cells[panel.firstCell + i];
            char hex[8];
            std::snprintf(hex, sizeof hex, "#%02x%02x%02x", m.fill.r, m.fill.g, m.fill.b);
            EXPECT_EQ(browser().evaluate("lanemapApp.fillOf(" + json(panel.name).dump() + "," +
                                         std::to_string(m.row) + "," + std::to_string(m.col) + ")"),
                      hex)
                << panel.name << " " << m.row << "," << m.col;
        }
        break; // (the operands' maps share a name: the first is the one a link finds)
    }
    const json pt = pointAt(linkOperand(p.name), c.row, c.col);
    browser().mouseMove(pt["x"], pt["y"]);
    EXPECT_NE(text("details").find(d.tooltip(c)), std::string::npos)
        << text("details") << " lacks " << d.tooltip(c);
    EXPECT_EQ(browser().evaluate("document.getElementById('swizzle').value"), "64");
    EXPECT_EQ(browser().evaluate("document.getElementById('view').value"), "smem");
}

TEST_F(Web, BankViewDrawsTheEnginesAnalysisForThePlacement) {
    const Variant* move = Catalog::instance().variant("ldmatrix.m8n8.x4.b16");
    ASSERT_NE(move, nullptr);
    std::string error;
    const std::optional<banks::Placement> placement = banks::parsePlacement("row-major,pitch=64", error);
    ASSERT_TRUE(placement) << error;
    const std::optional<banks::Analysis> analysis = banks::analyze(*move, *placement, error);
    ASSERT_TRUE(analysis) << error;
    const Diagram d = buildBanksDiagram(*move, *analysis);
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&smem=row-major,pitch=64"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), d.cells.size());
    const DiagramPanel& p = d.panels.front();
    const DiagramCell& c = d.cells[p.firstCell + 3];
    const json pt = pointAt(linkOperand(p.name), c.row, c.col);
    browser().mouseMove(pt["x"], pt["y"]);
    EXPECT_NE(text("details").find(d.tooltip(c)), std::string::npos)
        << text("details") << " lacks " << d.tooltip(c);
    EXPECT_EQ(browser().evaluate("document.getElementById('smem').value"), "row-major,pitch=64");
    // A placement the parser refuses: its message.
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&smem=diagonal"));
    ASSERT_FALSE(banks::parsePlacement("diagonal", error));
    EXPECT_NE(data("error").find(error), std::string::npos) << data("error");
}

// The bank view with its feeds overlay, as `lanemap-cli banks MOVE --feeds SPEC:OPERAND` draws it.
struct Fed {
    banks::FeedCheck check;
    Diagram picture;
};
Fed fedPicture(const std::string& move, const std::string& consumer, Operand operand) {
    const Variant& v = *Catalog::instance().variant(move);
    const Instruction& in = *Catalog::instance().instruction(consumer);
    std::string error;
    banks::Placement placement;
    std::optional<banks::FeedCheck> check = banks::checkFeed(v, in, operand, placement, error);
    EXPECT_TRUE(check) << error;
    placement.tileRows = in.operand(operand)->rows();
    placement.tileCols = in.operand(operand)->cols();
    const std::optional<banks::Analysis> analysis = banks::analyze(v, placement, error);
    EXPECT_TRUE(analysis) << error;
    return {*check, buildBanksDiagram(v, *analysis, *check)};
}

TEST_F(Web, BankViewFeedsOverlaySaysWhetherTheRegistersAreTheOperand) {
    // ldmatrix.x4 of a row-major tile is mma.m16n8k16's A: every slot as wanted.
    const Fed a = fedPicture("ldmatrix.m8n8.x4.b16", "mma.m16n8k16.f16", Operand::A);
    ASSERT_EQ(a.check.mismatches, 0);
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks"));
    EXPECT_EQ(browser().evaluate("document.getElementById('feedsBox').hidden"), false);
    EXPECT_EQ(browser().evaluate("document.getElementById('feedVerdict').hidden"), true);
    browser().evaluate("(function(){const s=document.getElementById('feeds'); s.value='mma.m16n8k16.f16:A';"
                       "s.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(hash(), "#ldmatrix.m8n8.x4.b16?view=banks&feeds=mma.m16n8k16.f16:A");
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), a.picture.cells.size());
    EXPECT_NE(text("feedVerdict")
                  .find("Feeds mma.m16n8k16.f16:A: every register slot holds what the operand "
                        "wants"),
              std::string::npos)
        << text("feedVerdict");
    const std::string report = banks::toText(*Catalog::instance().variant("ldmatrix.m8n8.x4.b16"), a.check);
    EXPECT_NE(text("feedVerdict").find(report.substr(0, report.find('\n'))), std::string::npos)
        << text("feedVerdict") << " lacks " << report;
    // Back: the bank view without the overlay.
    browser().evaluate("history.back()");
    ASSERT_TRUE(until("document.getElementById('feedVerdict').hidden === true"));
    // ldmatrix.x2 is not mma.m16n8k16's B without .trans: the mismatching slots counted (and framed).
    const Fed b = fedPicture("ldmatrix.m8n8.x2.b16", "mma.m16n8k16.f16", Operand::B);
    ASSERT_GT(b.check.mismatches, 0);
    ASSERT_TRUE(open("#ldmatrix.m8n8.x2.b16?view=banks&feeds=mma.m16n8k16.f16:B"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), b.picture.cells.size());
    EXPECT_NE(text("feedVerdict")
                  .find("MISMATCH in " + std::to_string(b.check.mismatches) + " of " +
                        std::to_string(b.check.cells.size()) + " register slots"),
              std::string::npos)
        << text("feedVerdict");
    // Bad input: no operand, a spec that is not one.
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&feeds=mma.m16n8k16.f16"));
    EXPECT_NE(data("error").find("is not SPEC:OPERAND"), std::string::npos) << data("error");
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&feeds=mma.m16n8k17.f16:A"));
    EXPECT_NE(data("error").find(parseSpec("mma.m16n8k17.f16", Catalog::instance()).error), std::string::npos)
        << data("error");
}

// The whole tiled copy of a tile's operand in the bank view, as `lanemap-cli banks MOVE --feeds SPEC:OPERAND
// --atom-layout ... --format svg` draws it (buildTiledCopyDiagram).
tiled_copy::Result tiledCopy(const std::string& move, const std::string& consumer, const std::string& atoms,
                             Operand operand, const std::string& smem) {
    std::string error;
    Selection s{Catalog::instance().variant(consumer), {}};
    s.params.tile = tile::parseTileLayout(atoms, "", error);
    EXPECT_TRUE(s.params.tile) << error;
    const std::shared_ptr<const Instruction> tile = instantiate(s);
    const std::optional<banks::Placement> placement = banks::parsePlacement(smem, error);
    EXPECT_TRUE(placement) << error;
    std::optional<tiled_copy::Result> r =
        tiled_copy::analyze(*Catalog::instance().variant(move), *tile, operand, *placement, error);
    if (!r)
        throw std::runtime_error(move + " feeding " + consumer + ": " + error);
    return *r;
}

TEST_F(Web, BankViewWithATileDrawsTheWholeTiledCopy) {
    const tiled_copy::Result a =
        tiledCopy("ldmatrix.m8n8.x4.b16", "mma.m16n8k16.f16", "(2,2,1)", Operand::A, "row-major");
    ASSERT_EQ(a.mismatches, 0);
    ASSERT_GT(a.excessive(), 0); // pitch 32 B: every phase 2-way
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&feeds=mma.m16n8k16.f16:A&smem=row-major"));
    // The tile typed into the bank view's own field: the address holds it, the picture is the whole copy.
    EXPECT_EQ(browser().evaluate("document.getElementById('tileBox').hidden"), false);
    browser().evaluate("(function(){const s=document.getElementById('atoms'); s.value='(2,2,1)';"
                       "s.dispatchEvent(new Event('change'));})()");
    EXPECT_NE(hash().find("atoms=(2,2,1)"), std::string::npos) << hash();
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              buildTiledCopyDiagram(a).cells.size());
    const std::string verdict = text("feedVerdict");
    EXPECT_NE(verdict.find("every register slot holds what the operand wants"), std::string::npos) << verdict;
    const std::string report = tiled_copy::toText(a);
    EXPECT_NE(verdict.find("Feeds mma.m16n8k16.f16 tile 32x16x16 (atom layout (2,2,1)):A"), std::string::npos)
        << verdict;
    EXPECT_NE(verdict.find("banks: " + std::to_string(a.wavefronts) + " wavefronts (ideal " +
                           std::to_string(a.idealWavefronts)),
              std::string::npos)
        << verdict << " lacks the totals of " << report;
    // One colour a warp, named in the legend as the cells have them.
    const std::string legend = text("legend");
    for (int w = 0; w < a.warps; ++w)
        EXPECT_NE(legend.find("warp " + std::to_string(w)), std::string::npos) << legend;
    EXPECT_NE(legend.find("the warp that moves the row"), std::string::npos) << legend;

    // Without .trans a row-major B is loaded transposed: the mismatching slots counted.
    const tiled_copy::Result b =
        tiledCopy("ldmatrix.m8n8.x2.b16", "mma.m16n8k16.f16", "(2,2,1)", Operand::B, "row-major");
    ASSERT_GT(b.mismatches, 0);
    ASSERT_TRUE(
        open("#ldmatrix.m8n8.x2.b16?view=banks&feeds=mma.m16n8k16.f16:B&smem=row-major&atoms=(2,2,1)"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              buildTiledCopyDiagram(b).cells.size());
    EXPECT_NE(text("feedVerdict")
                  .find("MISMATCH in " + std::to_string(b.mismatches) + " of " +
                        std::to_string(b.slots.size()) + " register slots"),
              std::string::npos)
        << text("feedVerdict");

    // Bad input: a tile without the operand it feeds, a tile the copy cannot take.
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&atoms=(2,2,1)"));
    EXPECT_NE(data("error").find("a tile in the bank view is a tiled copy: give feeds"), std::string::npos)
        << data("error");
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&feeds=mma.m16n8k16.f16:A&atoms=(8,8,1)"));
    EXPECT_NE(data("error").find("a CTA has at most 1024"), std::string::npos) << data("error");
}

// The tiled copy by plain ld.shared, as `lanemap-cli banks ld.shared... --feeds SPEC:OPERAND --atom-layout
// ...
// --permutation ...` analyses it.
tiled_copy::Result sharedLoadCopy(tiled_copy::SharedLoad load, const std::string& consumer,
                                  const std::string& atoms, const std::string& perm, Operand operand,
                                  const std::string& smem) {
    std::string error;
    Selection s{Catalog::instance().variant(consumer), {}};
    s.params.tile = tile::parseTileLayout(atoms, perm, error);
    EXPECT_TRUE(s.params.tile) << error;
    const std::shared_ptr<const Instruction> tile = instantiate(s);
    const std::optional<banks::Placement> placement = banks::parsePlacement(smem, error);
    EXPECT_TRUE(placement) << error;
    std::optional<tiled_copy::Result> r = tiled_copy::analyze(load, *tile, operand, *placement, error);
    if (!r)
        throw std::runtime_error(tiled_copy::toString(load) + " feeding " + consumer + ": " + error);
    return *r;
}

// The page draws `copy`'s Diagram: as many cells, and the cells' tooltips (hovered) the native ones, for the
// first, the last and the worst phase's cell of the tile and the first and last of the phase table.
void expectTiledCopyDrawn(Browser& browser, const tiled_copy::Result& copy) {
    const Diagram d = buildTiledCopyDiagram(copy);
    EXPECT_EQ(browser.evaluate("lanemapApp.cellCount()").get<std::size_t>(), d.cells.size());
    for (const DiagramPanel& p : d.panels) {
        ASSERT_GT(p.cellCount, 0U) << p.name;
        std::vector<std::uint32_t> picked = {p.firstCell, p.firstCell + p.cellCount - 1};
        for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i)
            if (d.cells[i].conflict) {
                picked.push_back(i);
                break;
            }
        for (const std::uint32_t i : picked) {
            // The first cell the native picture has at that position: the one the page finds there too.
            const DiagramCell& c = *cellOf(d, p.name, d.cells[i].row, d.cells[i].col);
            const json pt =
                json::parse(browser
                                .evaluate("JSON.stringify(lanemapApp.clientPoint('" + p.name + "'," +
                                          std::to_string(c.row) + "," + std::to_string(c.col) + ",0))")
                                .get<std::string>());
            ASSERT_TRUE(pt.is_object()) << p.name << " row " << c.row << " col " << c.col;
            browser.mouseMove(pt["x"], pt["y"]);
            const std::string details =
                browser.evaluate("document.getElementById('details').textContent").get<std::string>();
            EXPECT_NE(details.find(d.tooltip(c)), std::string::npos) << details << " lacks " << d.tooltip(c);
        }
    }
    // The verdict, totals and phase table: the native report, word for word.
    EXPECT_EQ(browser.evaluate("document.querySelector('#feedVerdict pre').textContent").get<std::string>(),
              tiled_copy::toText(copy));
}

TEST_F(Web, BankViewMovesATiledCopyByPlainLdShared) {
    // The Move by picker: in the bank view, disabled until a tile is set, the instruction shown and the
    // core's ld.shared loads.
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&feeds=mma.m16n8k16.f16:A&smem=row-major"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("document.getElementById('copyBox').hidden"), false);
    EXPECT_EQ(browser().evaluate("document.getElementById('copy').disabled"), true);
    std::string offered = "ldmatrix.m8n8.x4.b16=";
    for (const tiled_copy::SharedLoad load : tiled_copy::kSharedLoads)
        offered += "," + tiled_copy::toString(load) + "=" + tiled_copy::toString(load);
    EXPECT_EQ(browser().evaluate("Array.from(document.getElementById('copy').options)"
                                 ".map(o => o.textContent + '=' + o.value).join(',')"),
              offered);
    browser().evaluate("(function(){const s=document.getElementById('atoms'); s.value='(2,2,1)';"
                       "s.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("document.getElementById('copy').disabled"), false);
    EXPECT_EQ(browser().evaluate("document.getElementById('copy').value"), "");

    // A row-major A by ld.shared.b32 (each thread's a0a1 is one aligned 4-byte word): every slot as wanted.
    const tiled_copy::Result b32 =
        sharedLoadCopy(tiled_copy::SharedLoad{4}, "mma.m16n8k16.f16", "(2,2,1)", "", Operand::A, "row-major");
    ASSERT_EQ(b32.mismatches, 0);
    browser().evaluate("(function(){const s=document.getElementById('copy'); s.value='ld.shared.b32';"
                       "s.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(hash(), "#ldmatrix.m8n8.x4.b16?view=banks&smem=row-major&feeds=mma.m16n8k16.f16:A&"
                      "copy=ld.shared.b32&atoms=(2,2,1)");
    EXPECT_EQ(data("error"), "");
    expectTiledCopyDrawn(browser(), b32);
    EXPECT_NE(
        text("feedVerdict")
            .find("Feeds mma.m16n8k16.f16 tile 32x16x16 (atom layout (2,2,1)):A by ld.shared.b32: every "
                  "register slot holds what the operand wants"),
        std::string::npos)
        << text("feedVerdict");
    EXPECT_EQ(browser().evaluate("document.getElementById('copy').value"), "ld.shared.b32");
    // One colour a warp, a cell one thread's vector.
    const std::string legend = text("legend");
    EXPECT_NE(legend.find("the warp that moves the vector"), std::string::npos) << legend;
    for (int w = 0; w < b32.warps; ++w)
        EXPECT_NE(legend.find("warp " + std::to_string(w)), std::string::npos) << legend;

    // Bad values typed into the address: the message names them and what is valid; the copy stays drawn.
    const std::size_t cells = browser().evaluate("lanemapApp.cellCount()").get<std::size_t>();
    std::string error;
    ASSERT_FALSE(tiled_copy::parseSharedLoad("ld.shared.v8.b32", error));
    browser().evaluate("location.hash = '#ldmatrix.m8n8.x4.b16?view=banks&smem=row-major&"
                       "feeds=mma.m16n8k16.f16:A&copy=ld.shared.v8.b32&atoms=(2,2,1)'");
    ASSERT_TRUE(until("document.body.dataset.error !== ''"));
    EXPECT_NE(data("error").find(error), std::string::npos) << data("error");
    EXPECT_NE(data("error").find("or none for the instruction shown"), std::string::npos) << data("error");
    EXPECT_EQ(browser().evaluate("document.getElementById('variant').hidden"), false);
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), cells);
    EXPECT_EQ(browser().evaluate("document.getElementById('copy').value"), "ld.shared.b32");
    // A load the tile's A cannot take (a thread's a0..a3 are not contiguous): the core's refusal.
    ASSERT_THROW(
        sharedLoadCopy(tiled_copy::SharedLoad{8}, "mma.m16n8k16.f16", "(2,2,1)", "", Operand::A, "row-major"),
        std::runtime_error);
    browser().evaluate("location.hash = '#ldmatrix.m8n8.x4.b16?view=banks&smem=row-major&"
                       "feeds=mma.m16n8k16.f16:A&copy=ld.shared.v2.b32&atoms=(2,2,1)'");
    ASSERT_TRUE(until("document.body.dataset.error.indexOf('ld.shared.v2.b32 cannot load') >= 0"))
        << data("error");
    EXPECT_NE(data("error").find("the widest load that works here is ld.shared.b32"), std::string::npos)
        << data("error");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), cells);
    // No tile, no tiled copy to move.
    ASSERT_TRUE(open("#ldmatrix.m8n8.x4.b16?view=banks&feeds=mma.m16n8k16.f16:A&copy=ld.shared.b32"));
    EXPECT_NE(data("error").find("copy=ld.shared.b32 moves a tiled MMA's fragment: give the tile"),
              std::string::npos)
        << data("error");

    // A deep link: B col-major by ld.shared.v4.b32 under a permutation that gives each thread 4 consecutive
    // K (docs/tiles.md#tiled-copy); the picker shows it.
    const std::string perm = "_32,_16,(_2,_4,_2,_2):(_1,_8,_2,_4)";
    const tiled_copy::Result v4 = sharedLoadCopy(tiled_copy::SharedLoad{16}, "mma.m16n8k16.f16", "(2,2,1)",
                                                 perm, Operand::B, "col-major");
    ASSERT_TRUE(open("#ldmatrix.m8n8.x2.b16?view=banks&smem=col-major&feeds=mma.m16n8k16.f16:B&"
                     "copy=ld.shared.v4.b32&atoms=(2,2,1)&perm=" +
                     perm));
    EXPECT_EQ(data("error"), "");
    expectTiledCopyDrawn(browser(), v4);
    EXPECT_EQ(browser().evaluate("document.getElementById('copy').value"), "ld.shared.v4.b32");
    EXPECT_NE(text("feedVerdict").find(":B by ld.shared.v4.b32: "), std::string::npos) << text("feedVerdict");
    EXPECT_EQ(browser().evaluate("document.getElementById('copy').options[0].textContent"),
              "ldmatrix.m8n8.x2.b16");

    // The tile cleared: its copy's mover goes with it, the picker disabled again (the ldmatrix's own check of
    // the col-major B is drawn).
    browser().evaluate("(function(){for (const id of ['atoms','perm']) {const s=document.getElementById(id);"
                       "s.value=''; s.dispatchEvent(new Event('change'));}})()");
    EXPECT_EQ(hash().find("copy="), std::string::npos) << hash();
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("document.getElementById('copy').disabled"), true);
}

TEST_F(Web, DescriptorsDecodeAsTheEngineReadsThem) {
    // A wgmma matrix descriptor: every field, reserved ones included, with the decoder's meaning.
    const std::uint64_t bits = 0x4000004000010000ULL;
    std::vector<std::string> broken;
    const std::vector<smem::DescriptorField> fields = smem::descriptorFields(bits, &broken);
    ASSERT_TRUE(open("#decode/wgmma/0x4000004000010000"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("document.querySelectorAll('#decoded tbody tr').length").get<std::size_t>(),
              fields.size());
    for (std::size_t i = 0; i < fields.size(); ++i)
        EXPECT_EQ(browser().evaluate("document.querySelectorAll('#decoded tbody tr')[" + std::to_string(i) +
                                     "].cells[3].textContent"),
                  fields[i].meaning);
    // A tcgen05 instruction descriptor of a kind, typed into the form: the URL follows.
    browser().evaluate("(function(){document.getElementById('decodeWhat').value='idesc';"
                       "document.getElementById('decodeKind').value='f16';"
                       "document.getElementById('decodeValue').value='0x08200490';"
                       "document.getElementById('decodeForm').requestSubmit();})()");
    EXPECT_EQ(hash(), "#decode/idesc/0x08200490/f16");
    const tcgen05::DecodedInstrDescriptor idesc = tcgen05::decodeInstrDescriptor(0x08200490u, Kind::F16);
    EXPECT_EQ(browser().evaluate("document.querySelectorAll('#decoded tbody tr').length").get<std::size_t>(),
              idesc.fields.size());
    EXPECT_EQ(browser().evaluate("document.getElementById('broken').children.length").get<std::size_t>(),
              idesc.violations.size());
    // Not a number: said so.
    ASSERT_TRUE(open("#decode/smem/0xZZ"));
    EXPECT_NE(data("error").find("'0xZZ' is not a 64-bit value"), std::string::npos) << data("error");
}

// A descriptor's value as the encoder shows it: 0x and every digit.
std::string hexOf(std::uint64_t value, int digits) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(value));
    return text;
}

TEST_F(Web, DescriptorEncodersSayTheValueOrTheRulesBroken) {
    const auto count = [](const std::string& selector) {
        return browser().evaluate("document.querySelectorAll('" + selector + "').length").get<std::size_t>();
    };
    const auto rules = [] {
        return json::parse(
            browser()
                .evaluate("JSON.stringify(Array.from(document.querySelectorAll('#encodeRules li'), "
                          "function (l) { return l.textContent; }))")
                .get<std::string>());
    };
    // A wgmma matrix descriptor from its fields: the value the core packs, decoded field by field.
    smem::MatrixDescriptor wgmma{0, 16, 1024, 0, smem::Swizzle::B128};
    ASSERT_TRUE(open("#encode/wgmma?start=0&lbo=16&sbo=1024&base=0&swizzle=128B"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(text("encodedValue"), hexOf(smem::encodeDescriptor(wgmma), 16));
    EXPECT_EQ(count("#encodedFields tbody tr"), smem::descriptorFields(smem::encodeDescriptor(wgmma)).size());
    EXPECT_EQ(count("#encodeRules li"), 0u);
    EXPECT_EQ(browser().evaluate("document.getElementById('encodedDecode').getAttribute('href')"),
              "#decode/wgmma/" + hexOf(smem::encodeDescriptor(wgmma), 16));
    // A field changed in the form: the address follows; back and forward walk the values.
    browser().evaluate("(function(){const i=document.querySelector('#encodeFields [data-key=sbo]');"
                       "i.value='2048'; i.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(hash(), "#encode/wgmma?start=0&lbo=16&sbo=2048&base=0&swizzle=128B");
    wgmma.strideByteOffset = 2048;
    EXPECT_EQ(text("encodedValue"), hexOf(smem::encodeDescriptor(wgmma), 16));
    browser().evaluate("history.back()");
    ASSERT_TRUE(until("document.getElementById('encodedValue').textContent === '" +
                      hexOf(0x4000004000010000ULL, 16) + "'"));
    EXPECT_EQ(browser().evaluate("document.querySelector('#encodeFields [data-key=sbo]').value"), "1024");
    browser().evaluate("history.forward()");
    ASSERT_TRUE(until("document.getElementById('encodedValue').textContent === '" +
                      hexOf(smem::encodeDescriptor(wgmma), 16) + "'"));
    // Fields out of range: no value, every rule the core's check finds, each naming its field and what is
    // valid, the field marked.
    ASSERT_TRUE(open("#encode/wgmma?start=5&base=9"));
    const std::vector<smem::DescriptorRule> broken =
        smem::checkDescriptor(smem::parseDescriptorFields("start=5,base=9"));
    ASSERT_EQ(broken.size(), 2u);
    const json listed = rules();
    ASSERT_EQ(listed.size(), broken.size()) << listed.dump();
    for (std::size_t i = 0; i < broken.size(); ++i)
        EXPECT_EQ(listed[i], broken[i].field + ": " + broken[i].rule);
    EXPECT_NE(listed[0].get<std::string>().find("start address: 5 bytes cannot be encoded: it must be a "
                                                "multiple of 16 below 262144"),
              std::string::npos);
    EXPECT_EQ(listed[1], "base offset: 9 does not fit bits 51-49; valid: 0..7");
    EXPECT_EQ(browser().evaluate("document.getElementById('encoded').hidden"), true);
    EXPECT_EQ(browser().evaluate(
                  "document.querySelector('#encodeFields [data-key=base]').getAttribute('aria-invalid')"),
              "true");
    // A field that does not read: the parser's message, naming it.
    ASSERT_TRUE(open("#encode/smem?start=1024&lbo=lots"));
    ASSERT_EQ(rules().size(), 1u);
    EXPECT_EQ(rules()[0], "'lbo=lots': expected a non-negative number (decimal or 0x hex) below 2^32");
    EXPECT_EQ(browser().evaluate(
                  "document.querySelector('#encodeFields [data-key=lbo]').getAttribute('aria-invalid')"),
              "true");
    // A field that does not read and one out of range: both said.
    ASSERT_TRUE(open("#encode/wgmma?start=5&lbo=lots"));
    ASSERT_EQ(rules().size(), 2u) << rules().dump();
    // A tcgen05 shared-memory descriptor, and a leading mode its swizzle breaks.
    ASSERT_TRUE(open("#encode/smem?start=1024&lbo=16&sbo=1024&swizzle=128B"));
    EXPECT_EQ(
        text("encodedValue"),
        hexOf(tcgen05::encode(tcgen05::parseSmemDescriptor("start=1024,lbo=16,sbo=1024,swizzle=128B")), 16));
    ASSERT_TRUE(open("#encode/smem?mode=absolute&swizzle=64B"));
    const std::vector<tcgen05::Violation> modeBroken =
        tcgen05::check(tcgen05::parseSmemDescriptor("mode=absolute,swizzle=64B"));
    ASSERT_EQ(rules().size(), modeBroken.size());
    EXPECT_EQ(rules()[0], modeBroken[0].field + ": " + modeBroken[0].rule);
    EXPECT_EQ(browser().evaluate(
                  "document.querySelector('#encodeFields [data-key=mode]').getAttribute('aria-invalid')"),
              "true");
    // A tcgen05 instruction descriptor, with the instruction's cta_group; its decode link names the kind.
    const std::string idescFields = "kind=f16,a=bf16,b=bf16,d=f32,m=128,n=256";
    const std::uint32_t idesc = tcgen05::encode(tcgen05::parseInstrDescriptor(idescFields), {1, false});
    ASSERT_TRUE(open("#encode/idesc?kind=f16&a=bf16&b=bf16&d=f32&m=128&n=256&cta_group=1&ws=no"));
    EXPECT_EQ(text("encodedValue"), hexOf(idesc, 8));
    EXPECT_EQ(browser().evaluate("document.getElementById('encodedDecode').getAttribute('href')"),
              "#decode/idesc/" + hexOf(idesc, 8) + "/f16");
    EXPECT_EQ(count("#encodedFields tbody tr"),
              tcgen05::decodeInstrDescriptor(idesc, Kind::F16).fields.size());
    // Another kind picked: its types are the kind's own (the core's defaults), not the old kind's.
    browser().evaluate("(function(){const s=document.querySelector('#encodeFields [data-key=kind]');"
                       "s.value='i8'; s.dispatchEvent(new Event('change'));})()");
    const tcgen05::InstrDescriptor i8 = tcgen05::parseInstrDescriptor("kind=i8");
    EXPECT_EQ(browser().evaluate("document.querySelector('#encodeFields [data-key=a]').value"),
              std::string(tcgen05::toString(i8.atype)));
    EXPECT_EQ(browser().evaluate("document.querySelector('#encodeFields [data-key=d]').value"),
              std::string(tcgen05::toString(i8.dtype)));
    // M out of range with cta_group::1: the rule names M and the Ms that exist.
    ASSERT_TRUE(open("#encode/idesc?kind=f16&m=1000&n=256&cta_group=1"));
    const json mRules = rules();
    ASSERT_FALSE(mRules.empty());
    EXPECT_EQ(mRules[0].get<std::string>().rfind("M: 1000 ", 0), 0u) << mRules.dump();
    EXPECT_EQ(browser().evaluate(
                  "document.querySelector('#encodeFields [data-key=m]').getAttribute('aria-invalid')"),
              "true");
    // The keyboard: Enter in a field encodes it (the form's submit), as the button does.
    ASSERT_TRUE(open("#encode/wgmma"));
    browser().evaluate("document.querySelector('#encodeFields [data-key=lbo]').value='32';"
                       "document.querySelector('#encodeFields [data-key=lbo]').focus()");
    browser().type("Enter", "Enter", 13, "\r");
    ASSERT_TRUE(until("location.hash.indexOf('lbo=32') > 0"));
    EXPECT_EQ(text("encodedValue"), hexOf(smem::encodeDescriptor({0, 32, 0, 0, smem::Swizzle::None}), 16));
    // An unknown descriptor: said so.
    ASSERT_TRUE(open("#encode/hmma"));
    EXPECT_NE(data("error").find("unknown descriptor 'hmma'; valid: wgmma, smem, idesc"), std::string::npos)
        << data("error");
}

// The cells of the engine's first picture of `spec` with `params` (what the page must draw).
std::size_t engineCells(const std::string& spec, const Params& params) {
    Selection selection{Catalog::instance().variant(spec), params};
    return siteDiagrams(*instantiate(selection)).front().cells.size();
}

TEST_F(Web, TileAndTensorMemoryAccessOptionsAreTheEnginesParameters) {
    std::string error;
    Params tiled;
    tiled.tile = tile::parseTileLayout("(2,2,1)", "", error);
    ASSERT_TRUE(tiled.tile) << error;
    ASSERT_TRUE(open("#mma.m16n8k16.f16?atoms=(2,2,1)"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              engineCells("mma.m16n8k16.f16", tiled));
    EXPECT_EQ(browser().evaluate("document.getElementById('tileBox').hidden"), false);
    EXPECT_EQ(browser().evaluate("document.getElementById('atoms').value"), "(2,2,1)");

    Params read;
    read.access = tmem::parseAccess("32x32b.x2", tmem::Op::Ld, error);
    ASSERT_TRUE(read.access) << error;
    const std::string spec = "tcgen05.mma.cta_group::1.kind::f16.m128";
    ASSERT_TRUE(open("#" + spec + "?ld=32x32b.x2"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), engineCells(spec, read));
    EXPECT_NE(engineCells(spec, read), engineCells(spec, Params{}));

    // A tcgen05.st writing A (as --st): A in Tensor Memory composed with the registers that must hold it.
    Params store;
    store.access = tmem::parseAccess("32x32b.x2", tmem::Op::St, error);
    store.tensorOperand = Operand::A;
    ASSERT_TRUE(store.access) << error;
    ASSERT_EQ(validate(Selection{Catalog::instance().variant(spec), store}), "");
    ASSERT_TRUE(open("#" + spec));
    EXPECT_EQ(browser().evaluate("document.getElementById('storeBox').hidden"), false);
    browser().evaluate("(function(){const s=document.getElementById('st'); s.value='32x32b.x2';"
                       "s.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(hash(), "#" + spec + "?st=32x32b.x2");
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), engineCells(spec, store));
    EXPECT_NE(engineCells(spec, store), engineCells(spec, read));
    // Both: refused, saying why.
    ASSERT_TRUE(open("#" + spec + "?ld=32x32b.x2&st=32x32b.x2"));
    EXPECT_NE(data("error").find("give ld (who holds D) or st (who must hold A), not both"),
              std::string::npos)
        << data("error");

    // A bad tile: the parser's message, and the picture stays to correct it.
    ASSERT_TRUE(open("#mma.m16n8k16.f16"));
    browser().evaluate("(function(){const s=document.getElementById('atoms'); s.value='(2,x,1)';"
                       "s.dispatchEvent(new Event('change'));})()");
    ASSERT_FALSE(tile::parseTileLayout("(2,x,1)", "", error));
    EXPECT_NE(data("error").find(error), std::string::npos) << data("error") << " lacks " << error;
    EXPECT_EQ(browser().evaluate("document.getElementById('variant').hidden"), false);
}

TEST_F(Web, LargestTensorMemoryViewOpensAndHovers) {
    // The largest picture of the catalog: a cta_group::2 m256 D in Tensor Memory, 256 lanes x 256 columns.
    ASSERT_TRUE(open("#tcgen05.mma.cta_group::2.kind::f16.m256"));
    EXPECT_EQ(data("error"), "");
    const Diagram d =
        siteDiagrams(*Catalog::instance().instruction("tcgen05.mma.cta_group::2.kind::f16.m256")).front();
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), d.cells.size());
    const json p = pointAt("D", 200, 100);
    ASSERT_TRUE(p.is_object());
    browser().mouseMove(p["x"], p["y"]);
    EXPECT_NE(data("litThread"), "");
    // Hover over 200 cells, timed in the page (the handler draws synchronously): printed for
    // docs/performance.md, not asserted (no timed assertions).
    const json t = json::parse(
        browser()
            .evaluate(
                "(function(){const s=document.getElementById('sizer'); const r=s.getBoundingClientRect();"
                "const times=[]; for (let i=0;i<200;++i){ const x=r.left+20+(i*37)%600, "
                "y=r.top+120+(i*53)%500;"
                "const t=performance.now(); s.dispatchEvent(new MouseEvent('mousemove',{clientX:x,clientY:y,"
                "bubbles:true})); times.push(performance.now()-t);} times.sort(function(a,b){return a-b;});"
                "return JSON.stringify({median:times[100], p95:times[190], max:times[199]});})()")
            .get<std::string>());
    std::cout << "[ web timing ] engine start " << data("engineMs") << " ms, first paint of "
              << "tcgen05.mma.cta_group::2.kind::f16.m256 " << data("paintMs") << " ms (engine view "
              << data("viewMs") << " ms: in the engine " << data("viewEngineMs") << " ms, JSON.parse "
              << data("viewParseMs") << " ms of " << data("viewBytes") << " characters, cells copied "
              << data("viewCopyMs") << " ms, indexes " << data("prepareMs") << " ms), hover median "
              << t["median"].get<double>() << " ms, p95 " << t["p95"].get<double>() << " ms, max "
              << t["max"].get<double>() << " ms\n";
}

TEST_F(Web, APhoneWideScreenDoesNotScrollSideways) {
    // 390 x 844 CSS px, as a phone: nothing is wider than the screen (the picture scrolls in its own box) —
    // an instruction, a compare view and a pasted layout compared with an operand.
    for (const std::string view : {"#wgmma.m64n256k16.f16", "#mma.m16n8k8.tf32?compare=mma.m16n8k8.f16",
                                   "#paste/((4,8),(2,2,2)):((32,1),(8,16,128))?against=mma.m16n8k16.f16:A",
                                   "#encode/idesc?kind=f16&m=1000",
                                   "#cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 "
                                   "swizzle=none?compare=wgmma.m64n64k16.f16",
                                   "#ldmatrix.m8n8.x2.b16?view=banks&feeds=mma.m16n8k16.f16:B"}) {
        browser().viewport(390, 844);
        const bool opened = open(view);
        const json r = browser().evaluate(
            "JSON.stringify([Math.max(document.body.scrollWidth, document.documentElement.scrollWidth),"
            "document.getElementById('diagram').getBoundingClientRect().right,"
            "document.getElementById('toolbar').getBoundingClientRect().right, window.innerWidth,"
            "document.getElementById('paster').getBoundingClientRect().right,"
            "document.getElementById('encoder').getBoundingClientRect().right])");
        browser().resetViewport();
        ASSERT_TRUE(opened) << view;
        const json w = json::parse(r.get<std::string>());
        EXPECT_EQ(w[3].get<double>(), 390) << view << w.dump();
        EXPECT_LE(w[0].get<double>(), 390) << view << w.dump();
        EXPECT_LE(w[1].get<double>(), 390) << view << w.dump();
        EXPECT_LE(w[2].get<double>(), 390) << view << w.dump();
        EXPECT_LE(w[4].get<double>(), 390) << view << w.dump();
        EXPECT_LE(w[5].get<double>(), 390) << view << w.dump();
    }
}

// Opens a URL that redirects (404.html -> the app) and waits for the app.
bool openRedirected(Browser& b, const std::string& url) {
    try {
        if (b.open(url))
            return true;
    } catch (const std::runtime_error&) {
        // Asked while the 404 page replaced itself: wait for the app below.
    }
    for (int i = 0; i < 100; ++i) {
        try {
            if (b.evaluate("document.body && document.body.dataset.ready === '1'") == true)
                return true;
        } catch (const std::runtime_error&) {
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

TEST_F(Web, OldStaticSiteLinksOpenTheSameViewInTheApp) {
    // A host answering a missing file with 404.html (GitHub Pages): a static page's link lands in the app.
    ASSERT_TRUE(openRedirected(browser(), s_server->url("mma.m16n8k16.f16.html#A:3,11")));
    EXPECT_EQ(hash(), "#mma.m16n8k16.f16/A:3,11");
    EXPECT_EQ(data("pinned"), "A:3,11");
    ASSERT_TRUE(openRedirected(browser(), s_server->url("mma.sp.m16n8k32.s8.html#metadata:0,0;selector=1")));
    EXPECT_EQ(hash(), "#mma.sp.m16n8k32.s8/metadata:0,0?sel=1");
    EXPECT_EQ(data("pinned"), "metadata:0,0");
    EXPECT_EQ(browser().evaluate("document.getElementById('selector').value"), "1");
    // The static index's search link: the catalog filtered.
    ASSERT_TRUE(browser().open(s_server->url("index.html#q=wgmma%20sparse")));
    std::size_t expected = 0;
    for (const Variant* v : Catalog::instance().variants())
        expected += matchesSearch(searchText(*v), searchWords("wgmma sparse"));
    EXPECT_TRUE(until("document.getElementById('count').textContent.startsWith('" + std::to_string(expected) +
                      " of')"))
        << text("count");
}

// ---- Paste a layout (docs/web.md#paste-a-layout): the CLI's reader, drawing, identify and check ----

// What `lanemap-cli show` draws for a layout: the Diagram of its instruction.
struct Shown {
    layout_in::Layout layout;
    layout_in::Extent extent;
    std::vector<layout_in::Coord> cells;
    Diagram diagram;
};
Shown shown(const std::string& text, const std::string& shape) {
    layout_in::ReadOptions options;
    std::string error;
    if (!shape.empty())
        options.extent = layout_in::parseExtent(shape, error);
    auto read = layout_in::read(text, options);
    if (!std::holds_alternative<layout_in::Layout>(read))
        throw std::runtime_error(std::get<layout_in::ReadError>(read).describe());
    Shown s{std::get<layout_in::Layout>(std::move(read)), {}, {}, {}};
    s.extent = *s.layout.extent;
    s.cells = *layout_in::cellsIn(s.layout, s.extent, error);
    s.diagram = buildDiagram(layout_in::instructionOf(s.layout, s.extent, s.cells));
    return s;
}

// The address of a pasted layout, as the page writes it (its text percent-encoded but for , : [ ] { } = ...).
std::string pasteLink(Browser& b, const std::string& text, const std::string& options) {
    return b
        .evaluate("lanemapApp.hashOf(lanemapApp.parseHash('#paste/' + encodeURIComponent(" +
                  json(text).dump() + ") + " + json(options.empty() ? "" : "?" + options).dump() + "))")
        .get<std::string>();
}

// The picture of one operand (a compare view's side).
DiagramOptions only(Operand operand) {
    DiagramOptions o;
    o.operands = {operand};
    return o;
}

constexpr const char* kCuteA = "((4,8),(2,2,2)):((32,1),(16,8,128))"; // mma.m16n8k16.f16's A in CuTe

TEST_F(Web, APastedLayoutIsDrawnAndIdentifiedAsTheCliDoes) {
    ASSERT_TRUE(open(""));
    const std::string link = pasteLink(browser(), kCuteA, "shape=16x16");
    // Readable: the CuTe layout reads as itself in the address.
    EXPECT_EQ(link, "#paste/((4,8),(2,2,2)):((32,1),(16,8,128))?shape=16x16");
    ASSERT_TRUE(open(link));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(data("pasteError"), "");
    const Shown s = shown(kCuteA, "16x16");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), s.diagram.cells.size());
    EXPECT_NE(text("evidence").find(s.layout.canonical), std::string::npos) << text("evidence");
    EXPECT_NE(text("evidence").find("32 threads"), std::string::npos) << text("evidence");
    // identify: every catalog operand it equals, each a link to its view.
    const layout_in::Identification id = layout_in::identify(s.layout);
    ASSERT_FALSE(id.equal.empty());
    EXPECT_EQ(browser().evaluate("document.querySelectorAll('#pasteResult li').length").get<std::size_t>(),
              id.equal.size());
    EXPECT_EQ(browser().evaluate("document.querySelector('#identified li a').getAttribute('href')"),
              "#" + id.equal.front().instruction->spec);
    // Hover: the cell's tooltip is the Diagram's (T<thread>:v<value> per cell).
    const DiagramCell* cell = cellOf(s.diagram, "layout", 3, 11);
    ASSERT_NE(cell, nullptr);
    const json p = pointAt("layout", 3, 11);
    browser().mouseMove(p["x"], p["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_NE(text("details").find(s.diagram.tooltip(*cell)), std::string::npos) << text("details");
    // Pinned, in the address; through back and forward and a fresh load.
    browser().click(p["x"], p["y"]);
    EXPECT_EQ(data("pinned"), "layout:3,11");
    EXPECT_EQ(hash(), "#paste/((4,8),(2,2,2)):((32,1),(16,8,128))?shape=16x16&pin=layout:3,11");
    browser().evaluate("history.back()");
    ASSERT_TRUE(until("document.body.dataset.pinned === ''"));
    browser().evaluate("history.forward()");
    ASSERT_TRUE(until("document.body.dataset.pinned === 'layout:3,11'"));
    ASSERT_TRUE(open(browser().evaluate("location.hash").get<std::string>()));
    EXPECT_EQ(data("pinned"), "layout:3,11");
    EXPECT_EQ(browser().evaluate("document.getElementById('pasteText').value"), kCuteA);
    EXPECT_EQ(browser().evaluate("document.getElementById('pasteShape').value"), "16x16");
    // Copy link copies the address of the pasted layout.
    browser().evaluate("navigator.clipboard.writeText = function (t) { window.__copied = t; "
                       "return Promise.resolve(); }; document.getElementById('copyLink').click()");
    ASSERT_TRUE(until("window.__copied !== undefined"));
    EXPECT_EQ(browser().evaluate("window.__copied === location.href"), true);
    // Its exports are show's: text and JSON.
    browser().evaluate("(function(){const s=document.getElementById('format'); s.value='txt';"
                       "document.getElementById('download').click();})()");
    EXPECT_EQ(data("lastExport"), layout_in::toText(s.layout, s.extent, s.cells).substr(0, 200));
    EXPECT_EQ(browser().evaluate("document.querySelector('#format option[value=cute]').disabled"), true);
}

TEST_F(Web, APastedLayoutBesideAnInstructionLightsALaneInBoth) {
    // Beside mma.m16n8k16.f16 (the app's pasted pane next to its panes): its picture on the left, the layout
    // on the right, nothing compared; a lane hovered on one side lights in both.
    const Shown s = shown(kCuteA, "16x16");
    const Diagram left = siteDiagrams(*Catalog::instance().instruction("mma.m16n8k16.f16")).front();
    ASSERT_TRUE(open(""));
    browser().evaluate("(function(){document.getElementById('pasteText').value=" + json(kCuteA).dump() +
                       ";document.getElementById('pasteShape').value='16x16';"
                       "document.getElementById('pasteBeside').value='mma.m16n8k16.f16';"
                       "document.getElementById('pasteForm').requestSubmit();})()");
    EXPECT_EQ(hash(), "#paste/((4,8),(2,2,2)):((32,1),(16,8,128))?shape=16x16&beside=mma.m16n8k16.f16");
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(data("pasteError"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              left.cells.size() + s.diagram.cells.size());
    EXPECT_EQ(data("marked"), "0");
    EXPECT_NE(text("pasteResult").find("Beside mma.m16n8k16.f16 (left)"), std::string::npos)
        << text("pasteResult");
    // The layout's cell (3, 11): its thread lit, and the same lane's cells on the left lit too.
    const DiagramCell* cell = cellOf(s.diagram, "layout", 3, 11);
    ASSERT_NE(cell, nullptr);
    const json p = pointAt("layout", 3, 11);
    browser().mouseMove(p["x"], p["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_NE(text("details").find(s.diagram.tooltip(*cell)), std::string::npos) << text("details");
    // A's cell of the same thread on the left: hovered, the same lane is lit.
    const DiagramCell* a = nullptr;
    for (const DiagramCell& c : left.cells)
        if (c.thread == cell->thread && left.panels[c.panel].name == "A") {
            a = &c;
            break;
        }
    ASSERT_NE(a, nullptr);
    const json q = pointAt("A", a->row, a->col);
    browser().mouseMove(q["x"], q["y"]);
    EXPECT_EQ(data("litThread"), std::to_string(cell->thread));
    EXPECT_NE(text("details").find(left.tooltip(*a)), std::string::npos) << text("details");
    // Back: the start page; forward: beside again.
    browser().evaluate("history.back()");
    ASSERT_TRUE(until("location.hash === ''"));
    browser().evaluate("history.forward()");
    ASSERT_TRUE(until("document.body.dataset.ready === '1' && location.hash.indexOf('beside=') > 0"));
    // A spec that is not one: said at its field.
    ASSERT_TRUE(open("#paste/((4,8),(2,2,2)):((32,1),(16,8,128))?shape=16x16&beside=mma.m16n8k17.f16"));
    EXPECT_NE(data("pasteError").find(parseSpec("mma.m16n8k17.f16", Catalog::instance()).error),
              std::string::npos)
        << data("pasteError");
    EXPECT_EQ(browser().evaluate("document.getElementById('pasteBeside').getAttribute('aria-invalid')"),
              "true");
}

TEST_F(Web, APastedLayoutTypedIntoTheFormGoesIntoTheAddress) {
    ASSERT_TRUE(open(""));
    const std::string triton =
        "#ttg.linear<{register = [[0, 1], [8, 0], [0, 8]], lane = [[0, 2], [0, 4], [1, 0], "
        "[2, 0], [4, 0]], warp = [], block = []}>";
    browser().evaluate("(function(){document.getElementById('pasteText').value=" + json(triton).dump() +
                       "; document.getElementById('pasteForm').requestSubmit();})()");
    ASSERT_TRUE(
        until("document.body.dataset.marked !== undefined && document.getElementById('variant').hidden "
              "=== false"));
    const std::string address = browser().evaluate("location.hash").get<std::string>();
    EXPECT_EQ(address.rfind("#paste/%23ttg.linear%3C{register%20=%20[[0,%201]", 0), 0u) << address;
    EXPECT_EQ(browser().evaluate("lanemapApp.state().paste.text"), triton);
    const Shown s = shown(triton, "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), s.diagram.cells.size());
    const layout_in::Identification id = layout_in::identify(s.layout);
    EXPECT_EQ(browser().evaluate("document.querySelectorAll('#pasteResult li').length").get<std::size_t>(),
              id.equal.empty() ? id.nearest.size() : id.equal.size());
}

TEST_F(Web, APastedLayoutComparedWithAnOperandNamesTheDifferingCells) {
    ASSERT_TRUE(open(""));
    const std::string wrong = "((4,8),(2,2,2)):((32,1),(8,16,128))";
    ASSERT_TRUE(open(pasteLink(browser(), wrong, "against=mma.m16n8k16.f16:A")));
    EXPECT_EQ(data("pasteError"), "");
    // check's verdict: the same words as `lanemap-cli check --against mma.m16n8k16.f16:A`.
    const Instruction& in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    const FragmentLayout& a = *in.operand(Operand::A);
    const layout_in::Layout l = std::get<layout_in::Layout>(layout_in::read(wrong));
    const layout_in::Comparison c = layout_in::compare(l, a, 256);
    ASSERT_GT(c.differing, 0);
    const std::string checked = text("checked");
    EXPECT_NE(checked.find(layout_in::describe(c, l, in, a, 8)), std::string::npos) << checked;
    EXPECT_NE(checked.find(layout_in::hardwareStatus(in)), std::string::npos) << checked;
    // Without a shape the layout is folded over the operand's, and every differing cell is framed: in
    // lanemap's operand on the left and in the layout on the right.
    EXPECT_EQ(data("marked"), std::to_string(2 * c.differing));
    const Diagram left = buildDiagram(in, only(Operand::A));
    const Shown right = shown(wrong, "16x16");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              left.cells.size() + right.diagram.cells.size());
    const DiagramCell* lanemapCell = cellOf(left, "A", c.first.front().row, c.first.front().col);
    ASSERT_NE(lanemapCell, nullptr);
    const json q = pointAt("A", lanemapCell->row, lanemapCell->col);
    browser().mouseMove(q["x"], q["y"]);
    EXPECT_NE(text("details").find(left.tooltip(*lanemapCell)), std::string::npos) << text("details");
    const layout_in::CellDifference& d = c.first.front();
    const json p = pointAt("layout", d.at.d0, d.at.d1);
    browser().mouseMove(p["x"], p["y"]);
    EXPECT_NE(text("details").find("differs from mma.m16n8k16.f16 A"), std::string::npos) << text("details");
    // The right layout: equal, nothing framed.
    ASSERT_TRUE(open(pasteLink(browser(), kCuteA, "against=mma.m16n8k16.f16:A")));
    EXPECT_NE(text("checked").find("equal: every one of the 256 cells"), std::string::npos)
        << text("checked");
    EXPECT_EQ(data("marked"), "0");
    // ... and says nothing of framed cells (it did: the marks are a list per panel, empty ones included).
    EXPECT_EQ(text("checked").find("framed"), std::string::npos) << text("checked");
    // An operand that is not there: the picture stays, the compare says why.
    ASSERT_TRUE(open(pasteLink(browser(), kCuteA, "shape=16x16&against=mma.m16n8k17.f16:A")));
    EXPECT_EQ(browser().evaluate("document.getElementById('variant').hidden"), false);
    const ParsedSpec bad = parseSpec("mma.m16n8k17.f16", Catalog::instance());
    EXPECT_NE(text("checked").find(bad.error), std::string::npos) << text("checked");
}

TEST_F(Web, APastedSwizzledLayoutIsDrawnAndComparedByteForByte) {
    ASSERT_TRUE(open(""));
    const std::string pasted = "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)";
    ASSERT_TRUE(open(pasteLink(browser(), pasted, "against=wgmma.m64n64k16.f16:B")));
    EXPECT_EQ(data("pasteError"), "");
    const layout_in::SharedLayout l = std::get<layout_in::SharedLayout>(layout_in::readShared(pasted));
    const Diagram d = buildSharedMemoryDiagram(layout_in::instructionOf(l).placements.front());
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), d.cells.size());
    // check's bytes, as `lanemap-cli check --against wgmma.m64n64k16.f16:B` compares them.
    std::string error;
    const std::optional<smem::SharedOperand> over =
        layout_in::coveringOperand(l, *Catalog::instance().variant("wgmma.m64n64k16.f16"), Operand::B,
                                   smem::Choice{smem::Major::K, smem::Swizzle::B128}, error);
    ASSERT_TRUE(over) << error;
    const layout_in::SharedComparison c = layout_in::compareShared(l, *over);
    EXPECT_NE(text("checked").find("against wgmma.m64n64k16.f16 B in shared memory"), std::string::npos)
        << text("checked");
    EXPECT_NE(text("checked").find(c.equal() ? "equal: every one of the " + std::to_string(c.cells)
                                             : "differs in " + std::to_string(c.differing)),
              std::string::npos)
        << text("checked");
}

TEST_F(Web, BadPastesSayWhereAndWhatAndNothingHangs) {
    ASSERT_TRUE(open(""));
    struct Case {
        std::string text, shape, expected; // expected: the engine's message, as the native reader says it
    };
    std::vector<Case> cases;
    const auto readError = [](const std::string& text, const std::string& shape) {
        layout_in::ReadOptions options;
        std::string error;
        if (!shape.empty())
            options.extent = layout_in::parseExtent(shape, error);
        const auto r = layout_in::read(text, options);
        return std::holds_alternative<layout_in::ReadError>(r) ? std::get<layout_in::ReadError>(r).describe()
                                                               : std::string();
    };
    for (const std::string text :
         {"((4,8),(2,2]:((32,1),(16,8))", "garbage", "\xe6\x97\xa5\xe6\x9c\xac((4,8)",
          "#ttg.linear<{register = [[0, 1]], lane = [[0, 2]], warp = [[9]], block = []}>"})
        cases.push_back({text, "", readError(text, "")});
    for (const Case& c : cases) {
        ASSERT_FALSE(c.expected.empty()) << c.text;
        ASSERT_TRUE(open(pasteLink(browser(), c.text, "")));
        EXPECT_EQ(data("pasteError"), c.expected) << c.text;
        EXPECT_EQ(browser().evaluate("document.getElementById('variant').hidden"), true) << c.text;
        EXPECT_EQ(browser().evaluate("document.getElementById('pasteText').getAttribute('aria-invalid')"),
                  "true");
    }
    // The caret under the column the reader stopped at.
    ASSERT_TRUE(open(pasteLink(browser(), "((4,8),(2,2]:((32,1),(16,8))", "")));
    EXPECT_EQ(browser().evaluate("document.querySelector('#pasteError pre').textContent"),
              "((4,8),(2,2]:((32,1),(16,8))\n           ^");
    // A shape the layout does not fit, a shape too large to draw, a layout too large to draw: refused with a
    // message, no picture.
    ASSERT_TRUE(open(pasteLink(browser(), kCuteA, "shape=8x8")));
    EXPECT_NE(data("pasteError").find("cannot draw the layout in the shape 8x8"), std::string::npos)
        << data("pasteError");
    ASSERT_TRUE(open(pasteLink(browser(), "((32,32),(64)):((1,32),(1024))", "shape=4096x4096")));
    EXPECT_NE(data("pasteError").find("at most 65536"), std::string::npos) << data("pasteError");
    ASSERT_TRUE(open(pasteLink(browser(), "((32,32),(1024)):((1,32),(1024))", "shape=1024x1024")));
    EXPECT_NE(data("pasteError").find("at most 65536"), std::string::npos) << data("pasteError");
    ASSERT_TRUE(open(pasteLink(browser(), kCuteA, "shape=banana")));
    std::string shapeError;
    ASSERT_FALSE(layout_in::parseExtent("banana", shapeError));
    EXPECT_NE(data("pasteError").find(shapeError), std::string::npos) << data("pasteError");
    // 70,000 characters pasted: refused before it goes into the address.
    ASSERT_TRUE(open(""));
    browser().evaluate("(function(){document.getElementById('pasteText').value='('.repeat(70000);"
                       "document.getElementById('pasteForm').requestSubmit();})()");
    EXPECT_NE(data("pasteError").find("reads at most 65536"), std::string::npos) << data("pasteError");
    EXPECT_EQ(hash(), "");
    // Nested a thousand deep, in the address: the reader's limit, not a stack overflow.
    ASSERT_TRUE(open(pasteLink(browser(), std::string(1000, '(') + "4", "")));
    EXPECT_NE(data("pasteError").find("nested more than"), std::string::npos) << data("pasteError");
}

// ---- The PNG export and the page's contrast ----

TEST_F(Web, PngExportDownloadsAValidPng) {
    ASSERT_TRUE(open("#mma.m16n8k16.f16"));
    // The blob the page downloads (it hands it to an <a download> through an object URL).
    browser().evaluate(
        "(function(){const original = URL.createObjectURL; window.__blobs = [];"
        "URL.createObjectURL = function (b) { window.__blobs.push(b); return original.call(URL, b); };"
        "const s = document.getElementById('format'); s.value = 'png';"
        "document.getElementById('download').click();})()");
    ASSERT_TRUE(until("window.__blobs.length > 0"));
    const json png = json::parse(browser()
                                     .evaluate("(async function(){const b = window.__blobs[0];"
                                               "const bytes = new Uint8Array(await b.arrayBuffer()); const "
                                               "image = await createImageBitmap(b);"
                                               "return JSON.stringify({type: b.type, size: bytes.length, "
                                               "head: Array.from(bytes.slice(0, 8)),"
                                               "width: image.width, height: image.height});})()")
                                     .get<std::string>());
    EXPECT_EQ(png["type"], "image/png");
    EXPECT_EQ(png["head"], json::array({137, 80, 78, 71, 13, 10, 26, 10})) << png.dump(); // \x89PNG\r\n\x1a\n
    EXPECT_GT(png["size"].get<int>(), 10000) << png.dump(); // three operands drawn, not an empty image
    // As large as the engine's SVG says (the picture the app and the CLI export).
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"));
    EXPECT_NEAR(png["width"].get<double>(), d.width, 1.0) << png.dump();
    EXPECT_NEAR(png["height"].get<double>(), d.height, 1.0) << png.dump();
    EXPECT_EQ(data("lastDownload"), "mma.m16n8k16.f16.png");
}

// Every visible text of the page against the background it is drawn on: WCAG's contrast ratio, at least
// 4.5:1 (the colours from getComputedStyle; a transparent background is its parent's).
constexpr const char* kContrast = R"JS((function(){
function rgba(c) { const m = c.match(/[\d.]+/g) || []; return m.map(Number).concat([1]).slice(0, 4); }
function lum(c) {
  const v = c.slice(0, 3).map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function background(e) {
  for (; e; e = e.parentElement) { const b = rgba(getComputedStyle(e).backgroundColor); if (b[3] > 0) return b; }
  return [255, 255, 255, 1];
}
const low = []; let checked = 0;
for (const e of Array.from(document.querySelectorAll("body *"))) {
  if (e.closest("option, script, style, [hidden], .sr") || e.disabled || !e.getClientRects().length) continue;
  const own = Array.from(e.childNodes).some(function (n) { return n.nodeType === 3 && n.textContent.trim(); });
  if (!own && !(e.matches("input, textarea, select, button") && (e.value || e.textContent).trim())) continue;
  const s = getComputedStyle(e);
  if (s.visibility === "hidden" || Number(s.opacity) === 0) continue;
  const fg = rgba(s.color), bg = background(e);
  const a = lum(fg), b = lum(bg);
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  ++checked;
  if (ratio < 4.5) low.push(e.tagName + (e.id ? "#" + e.id : "") + (e.className ? "." + e.className : "") + " '" +
                            (e.value || e.textContent).trim().slice(0, 30) + "' " + s.color + " on " + bg + ": " + ratio.toFixed(2));
}
return JSON.stringify({checked: checked, low: low});
})())JS";

TEST_F(Web, TextContrastIsAtLeast4Point5To1InLightAndDarkMode) {
    for (const std::string scheme : {"light", "dark"}) {
        browser().colorScheme(scheme);
        const bool dark = scheme == "dark";
        for (const std::string& view :
             {std::string(""), std::string("#mma.m16n8k16.f16/A:3,11"), std::string("#mma.m16n8k17.f16"),
              std::string("#paste/((4,8),(2,2,2)):((32,1),(8,16,128))?against=mma.m16n8k16.f16:A"),
              std::string("#paste/((4,8),(2,2]"), std::string("#decode/wgmma/0x4000004000010000"),
              std::string("#encode/idesc?kind=f16&m=1000"),
              std::string("#cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 "
                          "swizzle=none?compare=wgmma.m64n64k16.f16"),
              std::string("#ldmatrix.m8n8.x2.b16?view=banks&feeds=mma.m16n8k16.f16:B")}) {
            ASSERT_TRUE(open(view)) << view;
            EXPECT_EQ(browser().evaluate("matchMedia('(prefers-color-scheme: dark)').matches"), dark);
            const json r = json::parse(browser().evaluate(kContrast).get<std::string>());
            EXPECT_GT(r["checked"].get<int>(), 5) << view;
            EXPECT_EQ(r["low"], json::array()) << scheme << " " << view << ": " << r["low"].dump(1);
        }
    }
    browser().colorScheme("");
}

// The instance a spec text names, as the CLI reads it (a TMA box's words included).
std::shared_ptr<const Instruction> instanceOf(const std::string& text) {
    const ParsedSpec parsed = parseSpec(text, Catalog::instance());
    EXPECT_TRUE(parsed) << text << ": " << parsed.error;
    return instantiate(selectionOf(parsed));
}

TEST_F(Web, TmaBoxWordsArePickedAndTheAddressKeepsThem) {
    // A box typed with its words: the address names the instance (the core's spec text), a reload draws it.
    const std::shared_ptr<const Instruction> box =
        instanceOf("cp.async.bulk.tensor.2d type=bf16 tensor=64x64 box=16x64 swizzle=128B");
    ASSERT_TRUE(open("#cp.async.bulk.tensor.2d type=bf16 tensor=64x64 box=16x64 swizzle=128B"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(hash(), "#" + specTextOf(*box));
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              siteDiagrams(*box).front().cells.size());
    // A field per word of the grammar, those at their default too (interleave, oob).
    const auto field = [](const std::string& key) {
        return "document.querySelector('#wordsBox input[data-key=\"" + key + "\"]')";
    };
    EXPECT_EQ(browser().evaluate("document.getElementById('wordsBox').hidden"), false);
    EXPECT_EQ(browser().evaluate(field("box") + ".value"), "16x64");
    EXPECT_EQ(browser().evaluate(field("type") + ".value"), "bf16");
    EXPECT_EQ(browser().evaluate(field("swizzle") + ".value"), "128B");
    EXPECT_EQ(browser().evaluate(field("interleave") + ".value"), "none");
    // Another box: the address and the picture follow.
    browser().evaluate("(function(){const i=" + field("box") +
                       "; i.value='8x64';"
                       "i.dispatchEvent(new Event('change'));})()");
    const std::shared_ptr<const Instruction> smaller =
        instanceOf("cp.async.bulk.tensor.2d type=bf16 tensor=64x64 box=8x64 swizzle=128B");
    EXPECT_EQ(hash(), "#" + specTextOf(*smaller));
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              siteDiagrams(*smaller).front().cells.size());
    // Back: the first box and its field; a fresh load of the link: the second.
    browser().evaluate("history.back()");
    ASSERT_TRUE(until(field("box") + ".value === '16x64'"));
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              siteDiagrams(*box).front().cells.size());
    ASSERT_TRUE(open("#" + specTextOf(*smaller)));
    EXPECT_EQ(browser().evaluate(field("box") + ".value"), "8x64");
    // A word that does not read: the grammar's message; the picture and the fields stay to correct it.
    browser().evaluate("(function(){const i=" + field("swizzle") +
                       "; i.value='96B';"
                       "i.dispatchEvent(new Event('change'));})()");
    const ParsedSpec bad =
        parseSpec("cp.async.bulk.tensor.2d type=bf16 tensor=64x64 box=8x64 swizzle=96B", Catalog::instance());
    ASSERT_FALSE(bad);
    // (The message quotes the spec typed, here written from the fields: the grammar's words after it.)
    const std::string why = bad.error.substr(bad.error.find("': ") + 3);
    EXPECT_NE(data("error").find(why), std::string::npos) << data("error") << " lacks " << why;
    EXPECT_EQ(browser().evaluate("document.getElementById('variant').hidden"), false);
    EXPECT_EQ(browser().evaluate(field("swizzle") + ".value"), "96B");
    // An instruction without words has no such fields.
    ASSERT_TRUE(open("#mma.m16n8k16.f16"));
    EXPECT_EQ(browser().evaluate("document.getElementById('wordsBox').hidden"), true);
}

TEST_F(Web, ATmaBoxComparedWithItsReaderInSharedMemory) {
    // The box and the wgmma that reads it (the app's compare page, `lanemap-cli feeds`): both pictures in
    // shared memory, the verdict in the report's words, the cells where they disagree framed.
    const auto feed = [](const std::string& box, const std::string& reader, Operand operand) {
        feeds::Request q;
        const ParsedSpec w = parseSpec(box, Catalog::instance()), r = parseSpec(reader, Catalog::instance());
        q.writer = selectionOf(w);
        q.reader = selectionOf(r);
        q.operand = operand;
        q.major = smem::Major::K;
        q.swizzle = smem::Swizzle::B128;
        std::string error;
        std::optional<feeds::Answer> a = feeds::ask(q, error);
        EXPECT_TRUE(a) << error;
        return a;
    };
    const auto framed = [](const feeds::Answer& a) {
        const Placement* written = a.writer->placement(Space::SharedMemory, Operand::D);
        for (const Placement& p : a.writer->placements)
            if (!written && p.space() == Space::SharedMemory)
                written = &p;
        const Diagram l = buildSharedMemoryDiagram(*written, a.sides.writerGlobal),
                      r = buildSharedMemoryDiagram(a.reader);
        const std::vector<std::uint8_t> lm = feedMarks(l, a.comparison, true).marks,
                                        rm = feedMarks(r, a.comparison, false).marks;
        return std::pair{l.cells.size() + r.cells.size(),
                         std::count(lm.begin(), lm.end(), 1) + std::count(rm.begin(), rm.end(), 1)};
    };
    const std::string box = "cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B";
    const std::optional<feeds::Answer> equal = feed(box, "wgmma.m64n64k16.f16", Operand::A);
    ASSERT_TRUE(equal && equal->comparison.feeds());
    ASSERT_TRUE(open("#" + box));
    browser().evaluate(
        "(function(){const s=document.getElementById('compare'); s.value='wgmma.m64n64k16.f16';"
        "s.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(hash(), "#" + specTextOf(*equal->writer) + "?compare=wgmma.m64n64k16.f16");
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(), framed(*equal).first);
    EXPECT_EQ(data("marked"), "0");
    const std::string report = feeds::toText(equal->comparison, equal->sides);
    const std::string verdict = report.substr(report.find("feeds: "));
    EXPECT_NE(text("compared").find(verdict.substr(0, verdict.find('\n'))), std::string::npos)
        << text("compared") << " lacks " << verdict;
    EXPECT_EQ(browser().evaluate("document.getElementById('operandBox').hidden"), false);
    // An unswizzled box: wgmma's core matrices want another order; the first difference said, the cells
    // framed on both sides.
    const std::string plain = "cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=none";
    const std::optional<feeds::Answer> differs = feed(plain, "wgmma.m64n64k16.f16", Operand::A);
    ASSERT_TRUE(differs && !differs->comparison.feeds());
    ASSERT_TRUE(open("#" + specTextOf(*differs->writer) + "?compare=wgmma.m64n64k16.f16"));
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(data("marked"), std::to_string(framed(*differs).second));
    EXPECT_GT(framed(*differs).second, 0);
    const std::string first = feeds::toText(differs->comparison, differs->sides);
    const std::string firstVerdict = first.substr(first.find("feeds: "));
    EXPECT_NE(text("compared").find(firstVerdict.substr(0, firstVerdict.find('\n'))), std::string::npos)
        << text("compared");
    // Read as B: the operand picked in the toolbar is the address's.
    browser().evaluate("(function(){const s=document.getElementById('operand'); s.value='B';"
                       "s.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(hash(), "#" + specTextOf(*differs->writer) + "?compare=wgmma.m64n64k16.f16&operand=B");
    EXPECT_EQ(data("error"), "");
    // A reader of another element size: the feeds message.
    ASSERT_TRUE(open("#" + box + "?compare=wgmma.m64n64k32.s8"));
    EXPECT_NE(data("error").find("does not compare with what"), std::string::npos) << data("error");
}

// ---- The compare view (docs/web.md#compare): two instructions side by side, as the app's compare page ----

TEST_F(Web, CompareViewDrawsBothOperandsAndFramesTheCellsTheyHoldDifferently) {
    const Instruction& tf32 = *Catalog::instance().instruction("mma.m16n8k8.tf32");
    const Instruction& f16 = *Catalog::instance().instruction("mma.m16n8k8.f16");
    const DiagramOptions a = only(Operand::A);
    const Diagram left = buildDiagram(tf32, a), right = buildDiagram(f16, a);
    const CompareResult l = compareDiagram(left, tf32, f16), r = compareDiagram(right, f16, tf32);
    ASSERT_GT(l.differing, 0);
    ASSERT_TRUE(open("#mma.m16n8k8.tf32"));
    // Typed into the toolbar: the address holds it.
    browser().evaluate("(function(){const s=document.getElementById('compare'); s.value='mma.m16n8k8.f16';"
                       "s.dispatchEvent(new Event('change'));})()");
    EXPECT_EQ(hash(), "#mma.m16n8k8.tf32?compare=mma.m16n8k8.f16");
    EXPECT_EQ(data("error"), "");
    EXPECT_EQ(browser().evaluate("lanemapApp.cellCount()").get<std::size_t>(),
              left.cells.size() + right.cells.size());
    const auto count = [](const CompareResult& c) { return std::count(c.marks.begin(), c.marks.end(), 1); };
    EXPECT_EQ(data("marked"), std::to_string(count(l) + count(r)));
    EXPECT_NE(text("compared").find(std::to_string(l.differing) + " of " + std::to_string(l.positions)),
              std::string::npos)
        << text("compared");
    // A marked cell of the right side: its own tooltip (f16's), and it says it differs.
    for (std::uint32_t i = 0; i < right.cells.size(); ++i) {
        if (!r.marks[i])
            continue;
        const DiagramCell& cell = right.cells[i];
        const json p = pointAt("A", cell.row, cell.col, 1);
        browser().mouseMove(p["x"], p["y"]);
        EXPECT_NE(text("details").find(right.tooltip(cell)), std::string::npos) << text("details");
        EXPECT_NE(text("details").find("held by another"), std::string::npos) << text("details");
        break;
    }
    // Back: the single picture again; a fresh load of the link: the compare.
    browser().evaluate("history.back()");
    ASSERT_TRUE(until("document.body.dataset.marked === '0'"));
    EXPECT_EQ(browser().evaluate("document.getElementById('compared').hidden"), true);
    ASSERT_TRUE(open("#mma.m16n8k8.tf32?compare=mma.m16n8k8.f16"));
    EXPECT_EQ(data("marked"), std::to_string(count(l) + count(r)));
    // Nothing in common in registers: said so, naming what each holds.
    ASSERT_TRUE(open("#mma.m16n8k16.f16?compare=tcgen05.mma.cta_group::1.kind::f16.m128"));
    EXPECT_NE(data("error").find("hold no operand in common in registers"), std::string::npos)
        << data("error");
    // A spec that is not one: the parser's message.
    ASSERT_TRUE(open("#mma.m16n8k16.f16?compare=mma.m16n8k17.f16"));
    EXPECT_NE(data("error").find(parseSpec("mma.m16n8k17.f16", Catalog::instance()).error), std::string::npos)
        << data("error");
}

} // namespace
