#include "lanemap/diagram.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/search.hpp"
#include "lanemap/site.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/version.hpp"

#include "io/format.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string_view>

namespace lanemap {

namespace {

// resources/site/*.js and *.css, embedded at build time (cmake/site_resources.cmake).
struct SiteResource {
    std::string_view name, text;
};
constexpr SiteResource kResources[] = {
#include "site_resources.inc"
};

std::string_view resource(std::string_view name) {
    for (const SiteResource& r : kResources)
        if (r.name == name)
            return r.text;
    return {};
}

// Text for HTML element content and attribute values.
void html(std::string& out, std::string_view s) {
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
}

// A JSON string that is also safe inside <script>: "</" and "<!--" cannot close or confuse the element.
void jsString(std::string& out, std::string_view s) {
    out += '"';
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '<') {
            out += "\\u003c";
        } else if (u < 0x20) {
            constexpr char digits[] = "0123456789abcdef";
            out += "\\u00";
            out += digits[u >> 4];
            out += digits[u & 15];
        } else {
            out += c;
        }
    }
    out += '"';
}

void integer(std::string& out, long long v) {
    char buf[24];
    out.append(buf, detail::formatInt(buf, v));
}

// Integers as integers, anything else with two decimals (the Diagram's units are pixels at zoom 1).
void number(std::string& out, double v) {
    const double r = std::round(v * 100.0) / 100.0;
    if (r == std::floor(r)) {
        integer(out, static_cast<long long>(r));
        return;
    }
    const long long h = std::llround(std::fabs(r) * 100.0);
    if (r < 0)
        out += '-';
    integer(out, h / 100);
    out += '.';
    out += static_cast<char>('0' + (h % 100) / 10);
    if (h % 10)
        out += static_cast<char>('0' + h % 10);
}

void hex(std::string& out, Rgb c) {
    constexpr char digits[] = "0123456789abcdef";
    out += "\"#";
    for (std::uint8_t v : {c.r, c.g, c.b}) {
        out += digits[v >> 4];
        out += digits[v & 15];
    }
    out += '"';
}

template <typename T, typename F> void array(std::string& out, const T& items, F&& each) {
    out += '[';
    bool first = true;
    for (const auto& item : items) {
        if (!first)
            out += ',';
        first = false;
        each(item);
    }
    out += ']';
}

std::string_view anchorName(TextAnchor a) {
    return a == TextAnchor::Middle ? "middle" : a == TextAnchor::End ? "end" : "start";
}

// The fields of one cell in the page's flat array (resources/site/variant.js reads them in this order).
// The same numbers as floats, for a reader that takes them as an array (SiteDataOptions::cells).
void cellNumbers(std::vector<float>& out, const DiagramCell& c) {
    for (double v : {c.rect.x, c.rect.y, double{c.rect.w}, double{c.rect.h}})
        out.push_back(static_cast<float>(std::round(v * 100.0) / 100.0));
    for (int v : {int(c.thread), int(c.element), int(c.reg), int(c.bitLo), int(c.bitHi), int(c.row),
                  int(c.col), int(c.colLast), int(c.matrix), int(c.owners), int(c.source)})
        out.push_back(static_cast<float>(v));
}

void cellFields(std::string& out, const DiagramCell& c) {
    for (double v : {c.rect.x, c.rect.y, double{c.rect.w}, double{c.rect.h}}) {
        number(out, v);
        out += ',';
    }
    for (int v : {int(c.thread), int(c.element), int(c.reg), int(c.bitLo), int(c.bitHi), int(c.row),
                  int(c.col), int(c.colLast), int(c.matrix), int(c.owners), int(c.source)}) {
        integer(out, v);
        out += ',';
    }
}

// One panel: geometry, then its cells, labels and tooltips (Diagram::label / tooltip: the app's texts); a
// panel whose cells draw no label ("bare") has no labels.
void panel(std::string& out, const Diagram& d, const DiagramPanel& p, bool tips,
           std::vector<float>* numbers) {
    out += "{\"operand\":";
    jsString(out, p.name);
    out += ",\"kind\":";
    const bool copy = p.kind == PanelKind::CopyTile || p.kind == PanelKind::CopyPhases;
    jsString(out, p.kind == PanelKind::Metadata ? "metadata" : copy ? "copy" : "operand");
    out += ",\"matrix\":";
    integer(out, p.matrix);
    out += ",\"title\":";
    jsString(out, p.title);
    out += ",\"source\":";
    jsString(out, toString(p.source));
    out += ",\"x\":";
    number(out, p.origin.x);
    out += ",\"y\":";
    number(out, p.origin.y);
    out += ",\"cw\":";
    number(out, p.cellWidth);
    out += ",\"ch\":";
    number(out, p.cellHeight);
    out += ",\"rows\":";
    integer(out, p.rows);
    out += ",\"cols\":";
    integer(out, p.cols);
    const std::size_t end = p.firstCell + p.cellCount;
    if (numbers) {
        // The cells as [first number, cell count] in `numbers` (15 a cell); "cellsAt":[...] keeps the
        // brackets of the inline form, so what follows closes the same way.
        out += ",\"cellsAt\":[";
        integer(out, static_cast<long long>(numbers->size()));
        out += ',';
        integer(out, p.cellCount);
        for (std::size_t i = p.firstCell; i < end; ++i)
            cellNumbers(*numbers, d.cells[i]);
    } else {
        out += ",\"cells\":[";
        for (std::size_t i = p.firstCell; i < end; ++i)
            cellFields(out, d.cells[i]);
        if (p.cellCount)
            out.pop_back();
    }
    if (p.kind == PanelKind::SharedMemory || p.kind == PanelKind::SharedMemoryMap ||
        p.kind == PanelKind::Chunks || p.kind == PanelKind::Addresses) {
        // Memory cells are coloured by what their view says (a chunk's bank group, the thread supplying a row
        // address), not by their hover group: the key of each, for the page's lane palette.
        out += "],\"keys\":[";
        for (std::size_t i = p.firstCell; i < end; ++i) {
            if (i != p.firstCell)
                out += ',';
            integer(out, d.cells[i].colorKey);
        }
    }
    if (copy) {
        // A tiled copy's cells carry their own colours (the warp that moves a row; a phase conflicted or
        // not): the page paints them as the SVG does.
        out += "],\"fills\":[";
        for (std::size_t i = p.firstCell; i < end; ++i) {
            if (i != p.firstCell)
                out += ',';
            hex(out, d.cells[i].fill);
        }
    }
    const bool bare = p.labels == CellLabels::None;
    if (!bare) {
        // A cell that draws no label (DiagramPanel::labels) has "" here, and the page names it by its
        // tooltip.
        out += "],\"labels\":[";
        for (std::size_t i = p.firstCell; i < end; ++i) {
            if (i != p.firstCell)
                out += ',';
            jsString(out, d.drawsLabel(d.cells[i]) ? d.labelText(d.cells[i]).view() : std::string_view());
        }
    } else {
        // No label drawn (CellLabels::None); the cell's name, which the details bar shows, is its tooltip's
        // first field ("D(37,5) · CTA 0 lane 37 ...").
        out += "],\"bare\":1";
    }
    if (!tips) {
        // The reader asks for a cell's tooltip when it shows one (the web app's engine, docs/web.md).
        out += bare ? ",\"tips\":null}" : "],\"tips\":null}";
        return;
    }
    out += bare ? ",\"tips\":[" : "],\"tips\":[";
    for (std::size_t i = p.firstCell; i < end; ++i) {
        if (i != p.firstCell)
            out += ',';
        jsString(out, d.tooltipText(d.cells[i]).view());
    }
    out += "]}";
}

// Everything of a Diagram the page draws: texts, lines, bit-field registers and the panels with their cells.
// `first` (the first selector's Diagram, or null): panels identical to its are written as null, and the page
// reuses them.
void diagram(std::string& out, const Diagram& d, const Diagram* first, bool tips,
             std::vector<float>* numbers) {
    out += "{\"width\":";
    number(out, d.width);
    double height = d.height;
    // The legend is drawn by the page (it follows colour-by): the canvas ends above it.
    // (A legend above the panels, as a tiled copy's, leaves its band empty.)
    if (!d.legends.empty() && std::none_of(d.panels.begin(), d.panels.end(), [&](const DiagramPanel& p) {
            return p.bounds.y > d.legends.front().bounds.y;
        }))
        height = std::min(height, d.legends.front().bounds.y);
    out += ",\"height\":";
    number(out, height);
    out += ",\"selector\":";
    if (d.selector)
        integer(out, *d.selector);
    else
        out += "null";
    out += ",\"texts\":";
    array(out, d.texts, [&](const DiagramText& t) {
        if (t.role == TextRole::Legend) { // the page draws the legend itself (it follows colour-by)
            out += "null";
            return;
        }
        out += '[';
        number(out, t.pos.x);
        out += ',';
        number(out, t.pos.y);
        out += ',';
        jsString(out, t.text);
        out += ',';
        number(out, t.size);
        out += t.bold ? ",1," : ",0,";
        out += t.monospace ? "1," : "0,";
        jsString(out, anchorName(t.anchor));
        out += ',';
        hex(out, t.color);
        out += ']';
    });
    out += ",\"lines\":";
    array(out, d.lines, [&](const DiagramLine& l) {
        out += '[';
        for (double v : {l.from.x, l.from.y, l.to.x, l.to.y, l.width}) {
            number(out, v);
            out += ',';
        }
        hex(out, l.color);
        out += ']';
    });
    out += ",\"bitFields\":";
    array(out, d.bitFields, [&](const BitFieldDiagram& b) {
        out += "{\"thread\":";
        integer(out, b.thread);
        out += ",\"title\":";
        jsString(out, b.title);
        out += ",\"tx\":";
        number(out, b.titlePos.x);
        out += ",\"ty\":";
        number(out, b.titlePos.y);
        out += ",\"rect\":[";
        for (double v : {b.rect.x, b.rect.y, b.rect.w, b.rect.h}) {
            number(out, v);
            out += ',';
        }
        out.pop_back();
        out += "],\"bits\":";
        integer(out, b.bits);
        out += ",\"fields\":";
        array(out, b.fields, [&](const BitField& f) {
            out += '[';
            for (double v : {f.rect.x, f.rect.y, f.rect.w, f.rect.h}) {
                number(out, v);
                out += ',';
            }
            jsString(out, f.label);
            out += ',';
            jsString(out, f.label2);
            out += ',';
            // The matching metadata cell, as an index into its panel.
            const int cell = f.cell;
            int local = -1;
            if (cell >= 0) {
                const DiagramPanel& p = d.panels[d.cells[static_cast<std::size_t>(cell)].panel];
                local = cell - static_cast<int>(p.firstCell);
            }
            integer(out, local);
            out += ',';
            integer(out, cell >= 0 ? d.cells[static_cast<std::size_t>(cell)].panel : -1);
            out += ']';
        });
        out += '}';
    });
    out += ",\"panels\":[";
    for (std::size_t i = 0; i < d.panels.size(); ++i) {
        if (i)
            out += ',';
        const DiagramPanel& p = d.panels[i];
        bool same = first && i < first->panels.size() && first->panels[i].cellCount == p.cellCount &&
                    first->panels[i].name == p.name;
        if (same) {
            const DiagramPanel& q = first->panels[i];
            for (std::uint32_t k = 0; same && k < p.cellCount; ++k) {
                const DiagramCell& a = d.cells[p.firstCell + k];
                const DiagramCell& b = first->cells[q.firstCell + k];
                same = a.thread == b.thread && a.element == b.element && a.row == b.row && a.col == b.col &&
                       a.colLast == b.colLast && a.rect.x == b.rect.x && a.rect.y == b.rect.y &&
                       a.rect.w == b.rect.w && a.bitLo == b.bitLo && a.source == b.source;
            }
        }
        if (same)
            out += "null";
        else
            panel(out, d, p, tips, numbers);
    }
    out += "]}";
}

// Colours of every key under every (palette, colour-by) the page offers, from the Diagram's palette: the page
// recolours without a second source of colours. Lane, register and thread group always (the web app's
// engine reads them for every page); a tile's warp, warpgroup and thread after them.
void palettes(std::string& out, int registers, int threads, const std::vector<ColorBy>& colorings) {
    std::vector<ColorBy> written{ColorBy::Lane, ColorBy::Register, ColorBy::ThreadGroup};
    for (ColorBy by : colorings)
        if (std::find(written.begin(), written.end(), by) == written.end())
            written.push_back(by);
    out += '{';
    bool firstPalette = true;
    for (Palette palette : {Palette::Default, Palette::ColorBlind}) {
        if (!firstPalette)
            out += ',';
        firstPalette = false;
        jsString(out, toString(palette));
        out += ":{";
        bool firstBy = true;
        for (ColorBy by : written) {
            if (!firstBy)
                out += ',';
            firstBy = false;
            jsString(out, toString(by));
            out += ":[";
            // Keys: a lane, register or group; a warp or warpgroup of the CTA; a thread's hue and shade
            // repeat every 4 warps (paletteColor), so 128 keys colour any CTA (the page takes key % length).
            const int keys = by == ColorBy::Lane          ? 32
                             : by == ColorBy::ThreadGroup ? 8
                             : by == ColorBy::Register    ? registers
                             : by == ColorBy::Warp        ? std::max(1, threads / 32)
                             : by == ColorBy::Warpgroup   ? std::max(1, threads / 128)
                                                          : 128;
            for (int k = 0; k < keys; ++k) {
                if (k)
                    out += ',';
                const Rgb fill = paletteColor(palette, by, k);
                out += '[';
                hex(out, fill);
                out += ',';
                hex(out, labelColorOn(fill));
                out += ']';
            }
            out += ']';
        }
        out += '}';
    }
    out += '}';
}

// The words of a colouring in the page's select.
std::string_view coloringLabel(ColorBy by) {
    return by == ColorBy::ThreadGroup ? "thread group" : toString(by);
}

void head(std::string& out, std::string_view title, std::string_view bodyClass) {
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<meta name=\"generator\" content=\"lanemap ";
    html(out, kVersionLine);
    out += "\">\n<title>";
    html(out, title);
    out += "</title>\n<style>\n";
    out += resource("site.css");
    out += "</style>\n</head>\n<body class=\"";
    out += bodyClass;
    out += "\">\n";
}

void footer(std::string& out) {
    out += "<footer>Made with lanemap ";
    html(out, kVersionLine);
    out += " (MIT licence). Layouts from the PTX ISA manual; hardware evidence from the recorded probe "
           "runs built into lanemap.</footer>\n";
}

std::string shapeOf(const Variant& v) {
    return "m" + std::to_string(v.m) + "n" + std::to_string(v.n) + "k" + std::to_string(v.k);
}

} // namespace

std::vector<ColorBy> pageColorings(const Instruction& in) {
    // Tensor Memory cells are coloured by their lane only (a register or thread group is not theirs).
    if (in.hasSpace(Space::TensorMemory))
        return {ColorBy::Lane};
    std::vector<ColorBy> colorings{ColorBy::Lane, ColorBy::Register, ColorBy::ThreadGroup};
    if (in.tile) {
        colorings.push_back(ColorBy::Warp);
        if (in.tile->atomThreads == 128)
            colorings.push_back(ColorBy::Warpgroup);
        colorings.push_back(ColorBy::Thread);
    }
    return colorings;
}

std::string sitePageName(const Variant& variant) {
    return variant.spec + ".html";
}

std::vector<Diagram> siteDiagrams(const Instruction& in) {
    // One Diagram per sparsity selector (the page's selector switches between them); dense: one.
    std::vector<Diagram> diagrams;
    if (in.metadata && !in.metadata->selectors.empty()) {
        for (const MetadataSelector& s : in.metadata->selectors) {
            DiagramOptions o;
            o.selector = s.value;
            diagrams.push_back(buildDiagram(in, o));
        }
    } else {
        diagrams.push_back(buildDiagram(in));
    }
    if (diagrams.front().panels.empty()) {
        // Nothing in registers or Tensor Memory (a TMA box): the placement in shared memory, stated cell by
        // cell, with its global placement's holes drawn as fill, as the app's shared-memory pane draws it.
        for (const Placement& p : in.placements) {
            if (p.space() != Space::SharedMemory)
                continue;
            const Placement* global = nullptr;
            for (const Placement& g : in.placements)
                if (g.space() == Space::Global && g.rows() == p.rows() && g.cols() == p.cols())
                    global = &g;
            diagrams.front() = buildSharedMemoryDiagram(p, global);
            diagrams.front().title = in.spec;
            break;
        }
    }
    return diagrams;
}

void siteData(std::string& out, const Instruction& in, const std::vector<Diagram>& diagrams,
              const SiteDataOptions& options) {
    int registers = 1;
    for (const Diagram& d : diagrams)
        for (const DiagramCell& c : d.cells)
            registers = std::max(registers, c.reg + 1);
    const Diagram& d0 = diagrams.front();
    // Tensor Memory cells are coloured by their lane only (a register or thread group is not theirs).
    const bool tensorMemory = in.hasSpace(Space::TensorMemory);
    out += "{\"spec\":";
    jsString(out, in.spec);
    if (options.header) {
        // What a static page writes as HTML above the picture; the web app writes it from here.
        out += ",\"ptx\":";
        jsString(out, in.ptx);
        out += ",\"caption\":";
        array(out, d0.caption, [&](const std::string& line) { jsString(out, line); });
        out += ",\"errata\":";
        array(out, in.errata, [&](const Erratum& e) {
            out += "{\"id\":";
            jsString(out, e.id);
            out += ",\"status\":";
            jsString(out, toString(statusOf(in, e)));
            out += ",\"summary\":";
            jsString(out, e.summary);
            out += ",\"why\":";
            jsString(out, evidenceOf(in, e));
            out += '}';
        });
    }
    // A tile's threads are the CTA's: the page names each one's warp and lane (and warpgroup).
    out += ",\"scope\":";
    jsString(out, tensorMemory                   ? "tmem"
                  : in.tile                      ? "cta"
                  : in.scope == Scope::Warpgroup ? "warpgroup"
                                                 : "warp");
    out += ",\"threads\":";
    integer(out, in.threads);
    if (in.tile && !tensorMemory) {
        out += ",\"atomThreads\":";
        integer(out, in.tile->atomThreads);
    }
    out += ",\"cellFont\":";
    number(out, d0.metrics.cellFont);
    out += ",\"charWidth\":";
    number(out, d0.metrics.charWidth);
    out += ",\"sources\":[";
    for (int s = 0; s < kSourceCount; ++s) {
        if (s)
            out += ',';
        jsString(out, toString(static_cast<Source>(s)));
    }
    out += "],\"evidence\":";
    if (in.hardware && in.hardware->run) {
        out += "{\"verdict\":";
        jsString(out, toString(in.hardware->verdict));
        out += ",\"run\":";
        jsString(out, describe(*in.hardware->run));
        out += '}';
    } else {
        out += "null";
    }
    out += ",\"palettes\":";
    palettes(out, registers, in.threads, pageColorings(in));
    out += ",\"diagrams\":[";
    for (std::size_t i = 0; i < diagrams.size(); ++i) {
        if (i)
            out += ',';
        diagram(out, diagrams[i], i ? &diagrams.front() : nullptr, options.tooltips, options.cells);
    }
    out += "]}";
}

std::string htmlPage(const Instruction& in, const PageOptions& options) {
    const std::vector<ColorBy> colorings = pageColorings(in);
    if (std::find(colorings.begin(), colorings.end(), options.colorBy) == colorings.end()) {
        std::string valid;
        for (ColorBy by : colorings)
            (valid += valid.empty() ? "" : ", ") += toString(by);
        throw std::invalid_argument("the page of " + tile::nameOf(in) + " colours by " + valid + "; '" +
                                    std::string(toString(options.colorBy)) + "' is not one of them");
    }
    const std::vector<Diagram> diagrams = siteDiagrams(in);
    std::string out;
    std::size_t cells = 0;
    for (const Diagram& d : diagrams)
        cells += d.cells.size();
    out.reserve(64 * 1024 + cells * 110);
    const std::string name = tile::nameOf(in);
    head(out, name + " \u2014 lanemap", "variant");
    const Diagram& d0 = diagrams.front();
    // A tile has no page in the site: no link to its index.
    out += in.tile ? "<header>\n<h1>"
                   : "<header><nav><a href=\"index.html\">lanemap: every layout</a></nav>\n<h1>";
    html(out, name);
    out += "</h1>\n<p class=\"ptx\"><code>";
    html(out, in.ptx);
    out += "</code></p>\n<div class=\"caption\">";
    for (const std::string& line : d0.caption) {
        out += "<p>";
        html(out, line);
        out += "</p>";
    }
    out += "</div>\n<p id=\"evidence\" class=\"evidence\">";
    if (in.hardware && in.hardware->run) {
        out += in.hardware->verdict == Verdict::Pass ? "\u2713 Confirmed cell by cell" : "Hardware verdict ";
        if (in.hardware->verdict != Verdict::Pass)
            out += toString(in.hardware->verdict);
        out += " on the ";
        html(out, describe(*in.hardware->run));
    } else if (in.tile) {
        // A recorded run confirms an atom, never a tile (docs/tiles.md#proof).
        out +=
            "No recorded hardware run covers this tile: its atom's layout is the PTX manual's, composed as "
            "CuTe's make_tiled_mma composes it.";
    } else {
        out += "No recorded hardware run covers this variant: the layout is the PTX manual's.";
    }
    out += "</p>\n";
    if (!in.errata.empty()) {
        out += "<ul class=\"errata\">";
        for (const Erratum& e : in.errata) {
            out += "<li><b>";
            html(out, e.id);
            out += " (";
            out += toString(statusOf(in, e));
            out += ")</b> ";
            html(out, e.summary);
            out += " <span class=\"why\">";
            html(out, evidenceOf(in, e));
            out += "</span></li>";
        }
        out += "</ul>\n";
    }
    const bool tensorMemory = in.hasSpace(Space::TensorMemory);
    const bool cta = in.tile && !tensorMemory; // the threads are a CTA's
    out += "</header>\n<div id=\"toolbar\">\n";
    out += tensorMemory ? "<label>Colour by <select id=\"colorBy\" disabled title=\"Tensor Memory cells are "
                          "coloured by their lane\">"
                        : "<label>Colour by <select id=\"colorBy\">";
    for (ColorBy by : colorings) {
        out += "<option value=\"";
        out += toString(by);
        out += by == options.colorBy ? "\" selected>" : "\">";
        out += coloringLabel(by);
        out += "</option>";
    }
    out += "</select></label>\n<label>Palette <select id=\"palette\">";
    for (Palette p : {Palette::Default, Palette::ColorBlind}) {
        out += p == Palette::Default ? "<option value=\"default\"" : "<option value=\"colorblind\"";
        out += p == options.palette ? " selected>" : ">";
        out += p == Palette::Default ? "default" : "colour-blind";
        out += "</option>";
    }
    out += "</select></label>\n";
    out += cta ? "<label>Threads <input id=\"lanes\" size=\"10\" placeholder=\"e.g. 0-31,64\" "
                 "title=\"Only these CTA threads in colour; the others grey\"></label>\n"
               : "<label>Lanes <input id=\"lanes\" size=\"10\" placeholder=\"e.g. 0-3,13\" "
                 "title=\"Only these lanes (threads) in colour; the others grey\"></label>\n";
    if (diagrams.size() > 1) {
        out += "<label>Selector <select id=\"selector\">";
        for (const Diagram& d : diagrams) {
            out += "<option value=\"";
            integer(out, *d.selector);
            out += "\">";
            integer(out, *d.selector);
            out += "</option>";
        }
        out += "</select></label>\n";
    }
    // The picture at a scale: a large tile's is tens of thousands of units wide (cell labels are drawn from
    // 60 % up; the colours, hover and pin work at any zoom).
    out +=
        "<label>Zoom <select id=\"zoom\"><option value=\"1\" selected>100%</option><option value=\"0.5\">50%"
        "</option><option value=\"0.25\">25%</option><option value=\"0.1\">10%</option><option "
        "value=\"fit\">fit width</option></select></label>\n";
    out += "<button id=\"unpin\" type=\"button\" disabled>Unpin</button>\n"
           "<span id=\"lanesError\" class=\"error\"></span>\n</div>\n"
           "<div id=\"details\" class=\"details\" aria-live=\"polite\"><p class=\"hint\">";
    // The operands a tile's thread lights: its panels' names ("A, B and C/D"; a wgmma tile's "A and D").
    std::string operands;
    for (std::size_t i = 0; i < d0.panels.size(); ++i)
        operands += (i == 0 ? "" : i + 1 == d0.panels.size() ? " and " : ", ") + d0.panels[i].name;
    out +=
        cta ? "Hover a cell for its CTA thread, warp, lane, value and register: every cell that thread holds "
              "lights in " +
                  operands +
                  ". Click pins the thread (Esc unpins), and the address bar then links to the cell."
            : "Hover a cell for its lane, register, bits and source; click pins it (Esc unpins), and the "
              "address bar then links to it.";
    out += "</p></div>\n<div id=\"legend\" class=\"legend\"></div>\n"
           "<div id=\"diagram\" class=\"diagram\"><div id=\"sizer\" class=\"sizer\"><canvas "
           "id=\"canvas\"></canvas></div></div>\n";
    footer(out);
    out += "<script>\nconst LANEMAP = ";
    siteData(out, in, diagrams, {});
    out += ";\n</script>\n<script>\n";
    out += resource("variant.js");
    out += "</script>\n</body>\n</html>\n";
    return out;
}

std::string htmlIndex(const std::vector<const Variant*>& variants) {
    std::string out;
    out.reserve(variants.size() * 700 + 32 * 1024);
    head(out, "lanemap \u2014 every tensor-core fragment layout", "index");
    out += "<header><h1>lanemap: every tensor-core fragment layout</h1>\n<p>Which lane, register and bits "
           "hold which element of every matrix an NVIDIA tensor-core instruction touches. ";
    integer(out, static_cast<long long>(variants.size()));
    out +=
        " variants; each page is self-contained and links to a cell with <code>#A:row,col</code>.</p>\n"
        "<p><input id=\"filter\" type=\"search\" size=\"48\" autofocus placeholder=\"Filter: m16n8k16 bf16, "
        "f32 acc, sm_90, sparse, wgmma...\" aria-label=\"Filter\"> <span id=\"count\"></span></p>\n"
        "</header>\n<main id=\"catalog\">\n";
    std::string family, shape;
    bool open = false;
    for (const Variant* v : variants) {
        const std::string fam(v->family->name);
        const std::string shp = shapeOf(*v);
        if (fam != family || shp != shape) {
            if (open)
                out += "</ul></section>\n";
            if (fam != family) {
                if (!family.empty())
                    out += "</section>\n";
                out += "<section class=\"family\"><h2>";
                html(out, fam);
                out += "</h2>\n";
            }
            out += "<section class=\"shape\"><h3>";
            html(out, shp);
            out += "</h3><ul>";
            open = true;
            family = fam;
            shape = shp;
        }
        out += "\n<li data-search=\"";
        html(out, searchText(*v));
        // "./": a page name with "::" before any "/" (mma.sp::ordered_metadata..., cta_group::1) would be
        // read as a URL scheme, and the link would go nowhere.
        out += "\"><a href=\"./";
        html(out, sitePageName(*v));
        out += "\">";
        html(out, v->spec);
        out += "</a> <span class=\"sm\">sm_";
        integer(out, v->minSm);
        out += "</span>";
        if (const HardwareEvidence* e = EvidenceOverlay::recorded().find(v->spec);
            e && e->verdict == Verdict::Pass)
            out += " <span class=\"confirmed\" title=\"confirmed on hardware\">\u2713</span>";
        out += "</li>";
    }
    if (open)
        out += "</ul></section>\n</section>\n";
    out += "</main>\n<p id=\"none\" class=\"hint\" hidden>No variant matches all of these words.</p>\n";
    footer(out);
    out += "<script>\nconst LANEMAP_SYNONYMS = {";
    bool first = true;
    for (const SearchSynonym& s : searchSynonyms()) {
        if (!first)
            out += ',';
        first = false;
        jsString(out, s.word);
        out += ':';
        jsString(out, s.canonical);
    }
    out += "};\n</script>\n<script>\n";
    out += resource("index.js");
    out += "</script>\n</body>\n</html>\n";
    return out;
}

} // namespace lanemap
