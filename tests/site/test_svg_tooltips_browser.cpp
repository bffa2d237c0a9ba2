// Exported SVGs in a real browser (docs/svg.md#tooltips): the file carries no <title> per cell; its script
// builds each cell's tooltip on hover from the label, the position and the file's tables. For every cell of
// every panel the text the script builds must equal the Diagram's hover text (the app's hover line) byte for
// byte, and a real mouse over cells of each panel must show it as the label's <title>. Debian's chromium,
// headless, over the DevTools protocol (devtools.hpp); skips, saying why, only when chromium is absent
// (./dev.sh installs it).
#include "devtools.hpp"

#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/write.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <tuple>

namespace test_svg_tooltips_browser {

using namespace lanemap;
using lanemap::test::Browser;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// One figure: the Diagram and the file written from it.
struct Figure {
    std::string name;
    Diagram diagram;
};

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

// What `lanemap-cli export SPEC --format svg` draws: the register operands, and B in shared memory for wgmma.
Diagram exported(const char* spec) {
    const Instruction& in = get(spec);
    Diagram d = buildDiagram(in);
    if (smem::hasSharedMemoryOperands(in)) {
        std::string error;
        const auto shared = smem::operands(in, smem::Choice{}, error);
        if (shared.size() < 2)
            throw std::runtime_error(spec + (": " + error));
        appendSharedMemory(d, shared[1]);
    }
    std::string doc, error;
    if (!exportInstruction(in, ExportFormat::Svg, {}, doc, error) || doc != toSvg(d))
        throw std::runtime_error(std::string(spec) + ": not the exported figure " + error);
    return d;
}

Diagram banksFigure() {
    const Variant& v = *Catalog::instance().variant("ldmatrix.m8n8.x4.b16");
    std::string error;
    const auto placement = banks::parsePlacement("row-major,pitch=64", error);
    const auto analysis = placement ? banks::analyze(v, *placement, error) : std::nullopt;
    if (!analysis)
        throw std::runtime_error(error);
    return buildBanksDiagram(v, *analysis);
}

Diagram tensorMemoryFigure(const char* spec) {
    Instruction narrow = get(spec);
    narrow.n = 16; // both CTAs' lanes (cta_group::2), few columns
    return buildDiagram(narrow);
}

// Where the writer puts a cell's label (svg.cpp), in hundredths: the key the page's labels are matched by.
std::tuple<std::string, long long, long long> keyOf(const Diagram& d, const DiagramCell& c) {
    const double x = c.rect.x + c.rect.w / 2;
    const double y = c.rect.y + std::round(c.rect.h / 2 + d.metrics.cellFont * 0.35);
    return {d.label(c), std::llround(x * 100), std::llround(y * 100)};
}

// Every cell label of the open document with the tooltip the file's script builds for it.
constexpr const char* kCollect = R"JS(JSON.stringify((function(){
function at(t,a){var v=t.getAttribute(a),m=/translate\(([^,)]+),([^)]+)\)/.exec(t.parentNode.getAttribute('transform')||'');return(v!=null?+v:0)+(m?+m[a=='x'?1:2]:0)}
var out=[];document.querySelectorAll('g.cells text').forEach(function(t){if(t.closest('g.bits'))return;
out.push([t.textContent,at(t,'x'),at(t,'y'),self.lanemapTip(t),t.querySelector('title')?1:0,t.hasAttribute('data-t')?1:0])});
var fields=[];document.querySelectorAll('g.bits rect').forEach(function(r){fields.push(self.lanemapTip(r))});
return{cells:out,fields:fields,titles:document.querySelectorAll('title').length,
scripts:document.querySelectorAll('script').length}})()))JS";

class SvgTooltipsInBrowser : public ::testing::TestWithParam<const char*> {
  protected:
    static void SetUpTestSuite() {
        s_exe = Browser::executable();
        if (s_exe.empty())
            return;
        s_dir = fs::temp_directory_path() / ("lanemap-svg-tips-" + std::to_string(::getpid()));
        fs::remove_all(s_dir);
        fs::create_directories(s_dir);
        s_browser = std::make_unique<Browser>(s_exe, s_dir / "profile");
    }
    static void TearDownTestSuite() {
        s_browser.reset();
        if (!s_dir.empty())
            fs::remove_all(s_dir);
    }
    void SetUp() override {
        if (s_exe.empty())
            GTEST_SKIP() << "chromium not found (/usr/bin/chromium or $LANEMAP_CHROMIUM): the SVG tooltip "
                            "browser test skipped; ./dev.sh installs Debian's chromium";
        ASSERT_TRUE(s_browser);
    }
    static Figure figure(const std::string& name) {
        if (name == "banks")
            return {name, banksFigure()};
        if (name == "tmem")
            return {name, tensorMemoryFigure("tcgen05.mma.cta_group::2.kind::f16.m256")};
        if (name == "tmem-scale-factors")
            return {name, tensorMemoryFigure("tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128")};
        return {name, exported(name.c_str())};
    }

    // Writes the figure's SVG and opens it in the browser as a document.
    static void open(const Figure& f, const std::string& suffix) {
        const fs::path file = s_dir / (f.name + suffix + ".svg");
        ASSERT_EQ(writeFile(file.string(), toSvg(f.diagram)), "");
        ASSERT_TRUE(s_browser->openDocument("file://" + file.string())) << f.name;
    }

    static inline std::string s_exe;
    static inline fs::path s_dir;
    static inline std::unique_ptr<Browser> s_browser;
};

TEST_P(SvgTooltipsInBrowser, ScriptBuildsTheDiagramsHoverTextForEveryCell) {
    const Figure f = figure(GetParam());
    const Diagram& d = f.diagram;
    ASSERT_NO_FATAL_FAILURE(open(f, ""));
    Browser& b = *s_browser;
    ASSERT_EQ(b.evaluate("typeof self.lanemapTip"), "function") << f.name << ": the script did not run";

    const json page = json::parse(b.evaluate(kCollect).get<std::string>());
    EXPECT_EQ(page["titles"], 1) << f.name << ": only the document's own <title> before any hover";
    EXPECT_EQ(page["scripts"], 1) << f.name;
    // Every label on the page, by (label, x, y), with the tooltip the script builds.
    std::map<std::tuple<std::string, long long, long long>, std::string> built;
    std::map<std::tuple<std::string, long long, long long>, bool> carried; // the text travels in data-t
    for (const json& c : page["cells"]) {
        const auto key = std::make_tuple(c[0].get<std::string>(), std::llround(c[1].get<double>() * 100),
                                         std::llround(c[2].get<double>() * 100));
        built[key] = c[3].is_string() ? c[3].get<std::string>() : "(none)";
        carried[key] = c[5].get<int>() != 0;
    }
    // Cells that draw no label (a Tensor Memory D whose headers name every cell; in a shared-memory tile,
    // every element but a chunk's first): the tooltip the script builds for the pointer at each cell's
    // centre.
    std::vector<const DiagramCell*> unlabelled;
    std::string points = "[";
    for (const DiagramCell& c : d.cells)
        if (!d.drawsLabel(c)) {
            unlabelled.push_back(&c);
            points += (points.size() > 1 ? ",[" : "[") + std::to_string(c.rect.x + c.rect.w / 2) + ',' +
                      std::to_string(c.rect.y + c.rect.h / 2) + ']';
        }
    points += ']';
    ASSERT_EQ(page["cells"].size(), d.cells.size() - unlabelled.size()) << f.name;
    if (f.name == "tmem") {
        EXPECT_EQ(unlabelled.size(), 256u * 16u) << "D of a CTA pair, N = 16: its labels are on the axes";
    }
    if (f.name == "wgmma.m64n256k16.f16") {
        EXPECT_EQ(unlabelled.size(), 16u * 256u * 7u / 8u)
            << "B in shared memory, 16 x 256 .f16: one label per 8-element chunk";
    }
    std::size_t same = 0;
    if (!unlabelled.empty()) {
        const json atPoints = json::parse(
            b.evaluate("(function(){var v=document.querySelector('svg.lanemap');return JSON.stringify(" +
                       points + ".map(function(p){return self.lanemapTipAt(v,p[0],p[1])}))})()")
                .get<std::string>());
        ASSERT_EQ(atPoints.size(), unlabelled.size()) << f.name;
        for (std::size_t i = 0; i < unlabelled.size(); ++i) {
            const DiagramCell& c = *unlabelled[i];
            const std::string tip = atPoints[i].is_string() ? atPoints[i].get<std::string>() : "(none)";
            EXPECT_EQ(tip, d.tooltip(c))
                << f.name << " " << d.label(c) << " (no label, pointer at its centre)";
            same += tip == d.tooltip(c);
        }
    }
    for (const DiagramCell& c : d.cells) {
        if (!d.drawsLabel(c))
            continue;
        const auto it = built.find(keyOf(d, c));
        ASSERT_NE(it, built.end()) << f.name << ": no label " << d.label(c) << " where the Diagram has it";
        EXPECT_EQ(it->second, d.tooltip(c)) << f.name << " " << d.label(c);
        same += it->second == d.tooltip(c);
        // Only the ldmatrix chunk and address cells of a banks figure carry their text; every other panel
        // kind (registers, shared memory, Tensor Memory with its scale factors) is built from the tables.
        const PanelKind kind = d.panels[c.panel].kind;
        if (kind != PanelKind::Chunks && kind != PanelKind::Addresses) {
            EXPECT_FALSE(carried[keyOf(d, c)]) << f.name << " " << d.label(c) << ": carries data-t";
        }
    }
    EXPECT_EQ(same, d.cells.size()) << f.name;
    // The metadata bit fields: their metadata cell's tooltip.
    std::vector<std::string> fields;
    for (const BitFieldDiagram& bd : d.bitFields)
        for (const BitField& bf : bd.fields)
            fields.push_back(d.tooltip(d.cells[static_cast<std::size_t>(bf.cell)]));
    std::vector<std::string> shown;
    for (const json& t : page["fields"])
        shown.push_back(t.is_string() ? t.get<std::string>() : "(none)");
    std::sort(fields.begin(), fields.end());
    std::sort(shown.begin(), shown.end());
    EXPECT_EQ(shown, fields) << f.name;

    // A real mouse over the first, a middle and the last cell of every panel: the label gets the tooltip
    // as its <title>, which the browser shows as its native tooltip.
    for (const DiagramPanel& p : d.panels) {
        if (!p.cellCount)
            continue;
        for (std::uint32_t i : {p.firstCell, p.firstCell + p.cellCount / 2, p.firstCell + p.cellCount - 1}) {
            const DiagramCell& c = d.cells[i];
            if (!d.drawsLabel(c)) {
                // The cell's centre on screen, scrolled into view; the pointer there gives the fill under it
                // the cell's tooltip as its <title>, and moving along the row rewrites it.
                const std::string centre =
                    "(function(){var v=document.querySelector('svg.lanemap'),P=v.createSVGPoint(),Q;P.x=" +
                    std::to_string(c.rect.x + c.rect.w / 2) +
                    ";P.y=" + std::to_string(c.rect.y + c.rect.h / 2) +
                    ";Q=P.matrixTransform(v.getScreenCTM());window.scrollBy(Q.x-innerWidth/2,Q.y-innerHeight/"
                    "2);"
                    "Q=P.matrixTransform(v.getScreenCTM());return JSON.stringify([Q.x,Q.y])})()";
                const json xy = json::parse(b.evaluate(centre).get<std::string>());
                const double sx = xy[0].get<double>(), sy = xy[1].get<double>();
                b.mouseMove(sx - 1, sy);
                b.mouseMove(sx, sy);
                const json title =
                    b.evaluate("(function(){var e=document.elementFromPoint(" + std::to_string(sx) + "," +
                               std::to_string(sy) +
                               "),t=e&&e.querySelector(':scope>title');return t?t.textContent:null})()");
                EXPECT_EQ(title, d.tooltip(c))
                    << f.name << ": the pointer over " << d.label(c) << " in " << p.title;
                b.mouseMove(0, 0);
                continue;
            }
            const auto [label, x, y] = keyOf(d, c);
            // Find the label, scroll it into view, and return its centre on screen.
            const std::string find =
                "(function(){var hit=null;document.querySelectorAll('g.cells text').forEach(function(t){"
                "if(hit||t.closest('g.bits'))return;var v=t.getAttribute('x'),w=t.getAttribute('y'),"
                "m=/translate\\(([^,)]+),([^)]+)\\)/.exec(t.parentNode.getAttribute('transform')||'');"
                "var X=(v!=null?+v:0)+(m?+m[1]:0),Y=(w!=null?+w:0)+(m?+m[2]:0);"
                "if(Math.round(X*100)==" +
                std::to_string(x) + "&&Math.round(Y*100)==" + std::to_string(y) +
                ")hit=t});if(!hit)return null;self.hovered=hit;hit.scrollIntoView({block:'center',"
                "inline:'center'});var r=hit.getBoundingClientRect();return JSON.stringify([r.x+r.width/2,"
                "r.y+r.height/2])})()";
            const json point = b.evaluate(find);
            ASSERT_TRUE(point.is_string()) << f.name << ": label " << label << " not found";
            const json xy = json::parse(point.get<std::string>());
            b.mouseMove(xy[0].get<double>(), xy[1].get<double>());
            const json title = b.evaluate("(function(){var t=self.hovered.querySelector('title');"
                                          "return t?t.textContent:null})()");
            EXPECT_EQ(title, d.tooltip(c)) << f.name << ": hovering " << label << " in " << p.title;
            b.mouseMove(0, 0);
        }
    }
}

// A text the Diagram anchors at its end (row headers, right of which the grid starts) ends at its point in
// the browser. Its role's class sets its anchor, and a text that differs from its role must win over the
// class's rule: a presentation attribute does not (row headers that shared the column numbers' role were
// drawn centred, over the grid's first column).
TEST_P(SvgTooltipsInBrowser, RightAlignedTextsEndAtTheirPoint) {
    const Figure f = figure(GetParam());
    const Diagram& d = f.diagram;
    ASSERT_NO_FATAL_FAILURE(open(f, "-anchors"));
    Browser& b = *s_browser;
    const json ends = json::parse(
        b.evaluate(
             "(function(){var out=[];document.querySelectorAll('g.texts text').forEach(function(t){"
             "if(getComputedStyle(t).textAnchor!='end')return;var r=t.getBBox();"
             "out.push([t.textContent,+t.getAttribute('x'),r.x+r.width])});return JSON.stringify(out)})()")
            .get<std::string>());
    std::size_t expected = 0;
    for (const DiagramText& t : d.texts)
        expected += t.anchor == TextAnchor::End;
    EXPECT_EQ(ends.size(), expected) << f.name << ": texts the browser anchors at their end";
    for (const json& e : ends)
        EXPECT_LE(e[2].get<double>(), e[1].get<double>() + 0.5)
            << f.name << ": \"" << e[0].get<std::string>() << "\" runs past its point";
}

// A small mma, a wgmma 64×256 with B in shared memory, a sparse figure (metadata, bit fields), a .b1 figure
// (B one cell per byte), an ldmatrix banks figure (chunks) and tcgen05 figures (D in Tensor Memory of a CTA
// pair; a block-scaled kind's 8-bit scale factors, four to a Tensor Memory cell).
INSTANTIATE_TEST_SUITE_P(Figures, SvgTooltipsInBrowser,
                         ::testing::Values("mma.m16n8k16.f16", "wgmma.m64n256k16.f16", "mma.sp.m16n8k32.s8",
                                           "wgmma.m64n8k256.b1", "banks", "tmem", "tmem-scale-factors"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                             std::string name = param.param;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c)))
                                     c = '_';
                             return name;
                         });

} // namespace

} // namespace test_svg_tooltips_browser
