#include "lanemap/svg.hpp"

#include "diagram/svg_tooltips.hpp"
#include "io/format.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

namespace lanemap {

namespace {

// Generic stacks: every system has one of these; nothing depends on the app's fonts.
constexpr std::string_view kSans =
    R"("Helvetica Neue",Helvetica,Arial,"Liberation Sans","DejaVu Sans",sans-serif)";
constexpr std::string_view kMono =
    R"("DejaVu Sans Mono",Menlo,Consolas,"Liberation Mono","Courier New",monospace)";

// An append-only text buffer for documents of up to a few MB: writes go through a raw pointer with one
// capacity check each (a std::string append per piece was most of the writer's time), and literals are copied
// with their length known at compile time. It writes into a std::string reserved once, which becomes the
// document (take()): the cells are never copied into another buffer. Its size runs at most kStep ahead of
// what is written (a std::string's growth is zero-filled: made writable a step at a time, the zeroing
// touches only memory about to be written).
class Writer {
  public:
    explicit Writer(std::size_t reserve) {
        m_s.reserve(reserve);
        m_p = m_end = m_s.data();
    }
    template <std::size_t N> Writer& operator<<(const char (&literal)[N]) {
        put(literal, N - 1);
        return *this;
    }
    Writer& operator<<(std::string_view s) {
        put(s.data(), s.size());
        return *this;
    }
    Writer& operator<<(char c) {
        room(1);
        *m_p++ = c;
        return *this;
    }
    // Integers as integers, everything else with at most two decimals: short and deterministic.
    Writer& num(double v) {
        // Most coordinates are whole units: write them as integers straight away.
        if (v >= 0 && v < 1e9) {
            const auto whole = static_cast<long long>(v);
            if (static_cast<double>(whole) == v) {
                room(24);
                m_p = detail::formatInt(m_p, whole);
                return *this;
            }
        }
        // Hundredths as an integer (rounded half away from zero): exact, and no floating-point formatting.
        const double scaled = v * 100.0;
        const long long h = static_cast<long long>(scaled + (scaled < 0 ? -0.5 : 0.5));
        room(32);
        const long long whole = h / 100, frac = (h < 0 ? -h : h) % 100;
        if (h < 0 && whole == 0)
            *m_p++ = '-';
        m_p = detail::formatInt(m_p, whole);
        if (frac) {
            *m_p++ = '.';
            *m_p++ = static_cast<char>('0' + frac / 10);
            if (frac % 10)
                *m_p++ = static_cast<char>('0' + frac % 10);
        }
        return *this;
    }
    Writer& integer(long long v) {
        room(24);
        m_p = detail::formatInt(m_p, v);
        return *this;
    }
    template <std::size_t N> Writer& attr(const char (&name)[N], double v) {
        room(N + 3);
        *m_p++ = ' ';
        std::memcpy(m_p, name, N - 1);
        m_p += N - 1;
        *m_p++ = '=';
        *m_p++ = '"';
        num(v);
        *m_p++ = '"'; // num() left room for it
        return *this;
    }
    // XML text and attribute escaping (quotes included, so one function serves both).
    Writer& escape(std::string_view v) {
        // Fast path: most labels and tooltips need no escaping (one pass, no per-character appends).
        bool plain = true;
        for (char c : v) {
            const auto u = static_cast<unsigned char>(c);
            plain = plain && u >= 0x20 && c != '&' && c != '<' && c != '>' && c != '"';
        }
        if (plain)
            return *this << v;
        for (char c : v) {
            switch (c) {
            case '&':
                *this << "&amp;";
                break;
            case '<':
                *this << "&lt;";
                break;
            case '>':
                *this << "&gt;";
                break;
            case '"':
                *this << "&quot;";
                break;
            default:
                // Control characters are not allowed in XML 1.0; none should reach here, but never emit them.
                *this << ((static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') ? ' ' : c);
            }
        }
        return *this;
    }
    // #rrggbb, or #rgb where that is the same colour (#222222 is #222).
    Writer& hex(Rgb c) {
        constexpr char digits[] = "0123456789abcdef";
        room(7);
        *m_p++ = '#';
        const bool shortForm = c.r % 17 == 0 && c.g % 17 == 0 && c.b % 17 == 0;
        for (std::uint8_t v : {c.r, c.g, c.b}) {
            *m_p++ = digits[v >> 4];
            if (!shortForm)
                *m_p++ = digits[v & 15];
        }
        return *this;
    }
    std::string_view view() const { return {m_s.data(), used()}; }
    void clear() { m_p = m_s.data(); }
    // What was written, as a string; the writer is left empty.
    std::string take() {
        m_s.resize(used());
        std::string text = std::move(m_s);
        m_s.clear();
        m_p = m_end = m_s.data();
        return text;
    }

  private:
    [[gnu::always_inline]] void room(std::size_t n) {
        if (static_cast<std::size_t>(m_end - m_p) < n) [[unlikely]]
            grow(n);
    }
    [[gnu::always_inline]] void put(const char* s, std::size_t n) {
        room(n);
        std::memcpy(m_p, s, n);
        m_p += n;
    }
    std::size_t used() const { return static_cast<std::size_t>(m_p - m_s.data()); }
    [[gnu::noinline]] void grow(std::size_t n) {
        static constexpr std::size_t kStep = 16384;
        const std::size_t written = used(), need = written + n;
        if (need > m_s.capacity()) // past the reserve: doubled, as a vector grows
            m_s.reserve(std::max(need, 2 * m_s.capacity()));
        m_s.resize(std::min(m_s.capacity(), need + kStep));
        m_p = m_s.data() + written;
        m_end = m_s.data() + m_s.size();
    }
    std::string m_s; // [data, m_p) written; [m_p, m_end) room (zeroed, to be overwritten)
    char* m_p = nullptr;
    char* m_end = nullptr;
};

std::string_view roleClass(TextRole role) {
    switch (role) {
    case TextRole::Title:
        return "tt";
    case TextRole::Caption:
        return "cp";
    case TextRole::Note:
        return "nt";
    case TextRole::PanelTitle:
        return "pt";
    case TextRole::PanelSubtitle:
        return "ps";
    case TextRole::Header:
        return "h";
    case TextRole::RowHeader:
        return "rh";
    case TextRole::RowNote:
        return "rn";
    case TextRole::BitNumber:
        return "bn";
    case TextRole::Legend:
        return "lg";
    }
    return "nt";
}

std::string_view anchorName(TextAnchor a) {
    return a == TextAnchor::Middle ? "middle" : a == TextAnchor::End ? "end" : "start";
}

// Baseline of a label vertically centred in a box of height h.
double baselineOffset(double h, double font) {
    return std::round(h / 2 + font * 0.35);
}

// Whether a run of cells ending at `end` meets the next cell starting at `start`: cell sizes are floats
// (DiagramCell::rect), so a sum of widths meets the next corner to within a float's step, far under the
// hundredth the writer rounds to.
bool touches(double end, double start) {
    return std::fabs(start - end) < 1e-3;
}

// Fill shapes at least this long (bytes of path data) are shared through <defs>/<use>: shorter ones cost
// less written in place than as a <use>.
constexpr std::size_t kSharedShape = 40;

class SvgBuilder {
  public:
    SvgBuilder(const Diagram& d, const SvgOptions& o)
        : m_d(d), m_o(o), m_head(headBytes(d)), m_body(headBytes(d) + bodyBytes(d)), m_shape(1024),
          m_tips(d) {}
    std::string build();

  private:
    void head();
    void style();
    void background();
    void registers();
    void rulers();
    template <class Rest> void sharedPerRegister(Writer& w, const char* tag, char prefix, Rest&& rest);
    void lines();
    void texts();
    void lanes();
    void lane(int thread);
    std::size_t column(std::span<const std::uint32_t> cells, std::size_t i, bool keyOnGroup, bool dim);
    // A label at its cell's centre less (dx, dy), the translate of its group; a coordinate the group gives
    // (withX, withY false) is left out.
    // Whether cell `i` has a <text>: a cell that draws its label (Diagram::drawsLabel), and one that does not
    // whose tooltip the script could not build from its position (it then carries the label and its data-t).
    bool writesLabel(std::uint32_t i) const { return m_d.drawsLabel(m_d.cells[i]) || m_tips.needsText(i); }
    void fill(double x, double y, bool alwaysX, bool perCellKey, std::uint32_t key);
    void cellText(const DiagramCell& c, bool perCellKey, bool withX, bool withY, double dx, double dy);
    void bitFields(int thread, bool keyOnGroup);
    // Where a cell's label sits below its top (baselineOffset): most figures have one cell height, so it is
    // worked out once a height, not once a cell.
    double baselineBelowTop(float h) {
        if (h != m_baselineHeight) {
            m_baselineHeight = h;
            m_baseline = baselineOffset(h, m_d.metrics.cellFont);
        }
        return m_baseline;
    }
    float m_baselineHeight = -1;
    double m_baseline = 0;
    void legends();
    void defs();
    void tooltips();

    const Diagram& m_d;
    const SvgOptions& m_o;
    // The document in two parts: what comes before the cells (written last, when the cells have said which
    // shapes, colours and style rules they use), then the cells and what follows them. The body's buffer
    // becomes the document, the head inserted in front of it (room reserved for it: moved in place, not
    // copied into a new buffer).
    // Estimates of what each part takes, measured over the catalog (more is reserved, never touched; less,
    // the buffer doubles once). The head: the style rules and shapes (under 8 KB), a register box a metadata
    // register. The body: a labelled cell its <text> and its share of a path (up to 56 bytes in a small
    // panel, 35 in a panel of thousands, whose runs of one colour share longer paths; coloured by register,
    // where each cell names its colour class, up to 80), one without a label its share of a path (a Tensor
    // Memory cell: under 8), a bit field its box and two lines (up to 256), a text 64 bytes, the script 12
    // KB. Not more: a reserve far above the document raises the heap's peak, and glibc then gives the heap's
    // top back after every export and touches it anew in the next (the 64 x 256 reserved 1.14 MB for its 0.77
    // MB and took a fifth longer in a loop).
    static std::size_t headBytes(const Diagram& d) { return 8192 + d.bitFields.size() * 64; }
    static std::size_t bodyBytes(const Diagram& d) {
        std::size_t bytes = d.texts.size() * 64 + 12288;
        for (const DiagramPanel& p : d.panels) {
            const std::size_t labelled = d.colorBy == ColorBy::Register ? 80 : p.cellCount >= 4096 ? 40 : 56;
            bytes += p.cellCount * (p.labels == CellLabels::Every ? labelled : 8u);
        }
        for (const BitFieldDiagram& b : d.bitFields)
            bytes += b.fields.size() * 256;
        return bytes;
    }
    Writer m_head;
    Writer m_body;
    Writer m_shape;                      // one fill shape, relative to its first cell
    std::vector<std::size_t> m_runOrder; // lane(): a run's cells in fill order (one vector for every lane)
    std::map<std::string, std::size_t, std::less<>> m_shapes; // shape -> id in <defs>
    // By text role: the text whose look its class rule gives (the first of that role), and whether the
    // figure uses the role.
    static constexpr std::size_t kTextRoles = static_cast<std::size_t>(TextRole::Legend) + 1;
    std::array<const DiagramText*, kTextRoles> m_roleStyle{};
    std::array<bool, kTextRoles> m_rolesUsed{};
    void useRole(TextRole role) { m_rolesUsed[static_cast<std::size_t>(role)] = true; }
    void styleRole(TextRole role, const DiagramText* text) {
        const DiagramText*& style = m_roleStyle[static_cast<std::size_t>(role)];
        style = style ? style : text;
    }
    bool m_dimmed = false; // a lane outside the filter is drawn
    // The keys in use (non-dimmed cells), ascending, with their fill; and by key, whether its labels are
    // white (read once per cell: a flag, not a map lookup).
    std::vector<std::pair<std::uint32_t, Rgb>> m_keys;
    std::vector<bool> m_lightKey;
    bool lightKey(std::uint32_t key) const { return key < m_lightKey.size() && m_lightKey[key]; }
    // Bit fields by thread (diagram index, field index).
    std::map<int, std::vector<std::pair<std::size_t, std::size_t>>> m_fieldsOf;
    DiagramText m_legendText, m_panelTitle; // role styles when no text of that role exists
    // Cell labels and tooltips are built from numbers, fixed words and the panels' operand names: when those
    // need no escaping, neither do the 100k strings built from them.
    bool m_plainCells = false;
    svgtips::Tables m_tips; // what the script needs to build each cell's tooltip
};

void SvgBuilder::head() {
    m_head << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"";
    if (!m_shapes.empty() || !m_d.bitFields.empty()) // <use xlink:href>
        m_head << " xmlns:xlink=\"http://www.w3.org/1999/xlink\"";
    m_head << " version=\"1.1\"";
    m_head.attr("width", m_d.width).attr("height", m_d.height);
    m_head << " viewBox=\"0 0 ";
    m_head.num(m_d.width) << ' ';
    m_head.num(m_d.height) << "\" class=\"lanemap\">\n<title>";
    m_head.escape(m_d.title) << " \u2014 lanemap layout diagram</title>\n<desc>";
    for (std::size_t i = 0; i < m_d.caption.size(); ++i)
        m_head.escape(m_d.caption[i]) << (i + 1 < m_d.caption.size() ? "\n" : "");
    m_head << "\nHover a cell: its tooltip gives lane, element, register, bits, row and column; the lane is "
              "outlined "
              "in every panel.</desc>\n";
}

// Only the rules the figure uses: a register figure has no bit fields, rulers or dimmed lanes to style.
void SvgBuilder::style() {
    const DiagramMetrics& mt = m_d.metrics;
    const bool bits = !m_d.bitFields.empty(), shapes = !m_shapes.empty();
    m_head << "<style type=\"text/css\"><![CDATA[\n";
    m_head << "text{font-family:" << kSans << "}\n";
    m_head << (bits ? ".m,.cells text,.bits text{font-family:" : ".cells text{font-family:") << kMono
           << "}\n";
    m_head << ".bg{fill:#fff}\n";
    m_head << ".cells text{font-size:";
    m_head.num(mt.cellFont) << "px;text-anchor:middle;fill:#111}\n";
    m_head << (shapes ? ".cells path,.cells use{stroke:#fff;stroke-width:1}\n"
                      : ".cells path{stroke:#fff;stroke-width:1}\n");
    if (bits) {
        m_head << ".bits rect{stroke:#222;stroke-width:1.5}\n";
        m_head << ".bits text{font-size:";
        m_head.num(mt.cellFont - 1) << "px;text-anchor:middle;pointer-events:none;fill:#111}\n";
        m_head << ".regs rect{fill:#fff;stroke:#222;stroke-width:1}\n.regs "
                  "path{stroke:#bbb;stroke-width:1;fill:none}\n"
                  ".ruler{stroke:#222;stroke-width:1;fill:none}\n";
    }
    if (!m_d.lines.empty())
        m_head << ".lines path{fill:none}\n";
    if (!m_d.legends.empty())
        m_head << ".legend rect{stroke:#666;stroke-width:.5}\n";
    // Roles: the first text of each role sets its class; texts that differ carry attributes.
    for (std::size_t r = 0; r < kTextRoles; ++r) {
        const auto role = static_cast<TextRole>(r);
        const DiagramText* t = m_roleStyle[r];
        if (!t || !m_rolesUsed[r])
            continue;
        m_head << '.' << roleClass(role) << "{font-size:";
        m_head.num(t->size) << "px;fill:";
        m_head.hex(t->color);
        if (t->bold)
            m_head << ";font-weight:bold";
        if (t->anchor != TextAnchor::Start)
            m_head << ";text-anchor:" << anchorName(t->anchor);
        if (t->monospace)
            m_head << ";font-family:" << kMono;
        m_head << "}\n";
    }
    for (const auto& [key, fill] : m_keys) {
        m_head << ".k";
        m_head.integer(key) << "{fill:";
        m_head.hex(fill) << "}\n";
        if (lightKey(key)) {
            m_head << ".k";
            m_head.integer(key) << " text,text.k";
            m_head.integer(key) << "{fill:";
            m_head.hex(labelColorOn(fill)) << "}\n";
        }
    }
    if (m_dimmed)
        m_head << ".lane.dim{fill:#f0f0f0}\n.lane.dim text{fill:#a0a0a0}\n";
    if (m_o.hoverCss) {
        // Pure CSS: the lane group holds the lane's cells in every panel, so :hover on one cell outlines all.
        // Inside @media screen: renderers that ignore pseudo-classes (Qt SVG) skip the block instead of
        // applying the hover look to every cell.
        // A shared shape (<use>) takes its stroke from the <use>, so the rule names it too; bit fields are
        // rects.
        m_head << "@media screen{\n.lane:hover path";
        if (bits)
            m_head << ",.lane:hover rect";
        if (shapes)
            m_head << ",.lane:hover use";
        m_head << "{stroke:#000;stroke-width:2.5}\n.cells:hover .lane:not(:hover){opacity:.3}\n}\n";
    }
    m_head << "]]></style>\n";
}

void SvgBuilder::background() {
    m_head << "<rect class=\"bg\"";
    m_head.attr("width", m_d.width).attr("height", m_d.height) << "/>\n";
}

// The register boxes of the sparse metadata, 128 of them in a wgmma.sp figure: each the same box with its 31
// bit separators, so one of each size goes into <defs> (inside the group, where `.regs` styles it) and every
// register places it with a <use>.
void SvgBuilder::registers() {
    if (m_d.bitFields.empty())
        return;
    m_head << "<g class=\"regs\">\n";
    sharedPerRegister(m_head, "g", 'r', [this](const BitFieldDiagram& bd) {
        m_head << "><rect";
        m_head.attr("width", bd.rect.w).attr("height", bd.rect.h) << "/><path d=\"";
        for (int b = 1; b < bd.bits; ++b) {
            m_head << 'M';
            m_head.num(b * bd.bitWidth) << " 0v";
            m_head.num(bd.rect.h);
        }
        m_head << "\"/></g>";
    });
    m_head << "</g>\n";
}

// Bit ticks over the fields, so every field still shows how many bits it has.
void SvgBuilder::rulers() {
    if (m_d.bitFields.empty())
        return;
    sharedPerRegister(m_body, "path", 'u', [this](const BitFieldDiagram& bd) {
        m_body << " class=\"ruler\" d=\"";
        for (int b = 1; b < bd.bits; ++b) {
            const double x = b * bd.bitWidth;
            m_body << 'M';
            m_body.num(x) << " 0v5M";
            m_body.num(x) << ' ';
            m_body.num(bd.rect.h) << "v-5";
        }
        m_body << "\"/>";
    });
}

// One shape per register size (bits, bit width, box) in <defs>, `<tag id="<prefix><first register of that
// size>"` followed by what `rest` writes, then a <use> of it at each register's box.
template <class Rest>
void SvgBuilder::sharedPerRegister(Writer& w, const char* tag, char prefix, Rest&& rest) {
    std::vector<std::size_t> shapeOf(m_d.bitFields.size());
    std::map<std::tuple<int, double, double, double>, std::size_t> first;
    w << "<defs>";
    for (std::size_t i = 0; i < m_d.bitFields.size(); ++i) {
        const BitFieldDiagram& bd = m_d.bitFields[i];
        shapeOf[i] = first.try_emplace({bd.bits, bd.bitWidth, bd.rect.w, bd.rect.h}, i).first->second;
        if (shapeOf[i] != i)
            continue;
        w << '<' << tag << " id=\"" << prefix;
        w.integer(static_cast<long long>(i)) << '"';
        rest(bd);
    }
    w << "</defs>\n";
    for (std::size_t i = 0; i < m_d.bitFields.size(); ++i) {
        const BitFieldDiagram& bd = m_d.bitFields[i];
        w << "<use xlink:href=\"#" << prefix;
        w.integer(static_cast<long long>(shapeOf[i])) << '"';
        w.attr("x", bd.rect.x).attr("y", bd.rect.y) << "/>\n";
    }
}

void SvgBuilder::lines() {
    if (m_d.lines.empty())
        return;
    // One path per (color, width): short and still exact.
    std::map<std::tuple<std::uint8_t, std::uint8_t, std::uint8_t, double>, std::vector<const DiagramLine*>>
        groups;
    for (const DiagramLine& l : m_d.lines)
        groups[{l.color.r, l.color.g, l.color.b, l.width}].push_back(&l);
    m_body << "<g class=\"lines\">\n";
    for (const auto& [key, ls] : groups) {
        m_body << "<path stroke=\"";
        m_body.hex(ls.front()->color) << '"';
        m_body.attr("stroke-width", ls.front()->width) << " d=\"";
        for (const DiagramLine* l : ls) {
            m_body << 'M';
            m_body.num(l->from.x) << ' ';
            m_body.num(l->from.y);
            if (l->from.y == l->to.y) {
                m_body << 'H';
                m_body.num(l->to.x);
            } else if (l->from.x == l->to.x) {
                m_body << 'V';
                m_body.num(l->to.y);
            } else {
                m_body << 'L';
                m_body.num(l->to.x) << ' ';
                m_body.num(l->to.y);
            }
        }
        m_body << "\"/>\n";
    }
    m_body << "</g>\n";
}

void SvgBuilder::texts() {
    m_body << "<g class=\"texts\">\n";
    auto one = [&](const DiagramText& t) {
        const DiagramText& base = *m_roleStyle[static_cast<std::size_t>(t.role)];
        // What differs from the role's class goes in a style attribute, which wins over the class's rule in
        // browsers and Qt SVG alike; browsers let the rule override a presentation attribute
        // (text-anchor="end" drew right-aligned row headers centred over the grid before they had a role of
        // their own).
        m_body << "<text class=\"" << roleClass(t.role) << '"';
        m_body.attr("x", t.pos.x).attr("y", t.pos.y);
        char sep = ' ';
        auto property = [&](std::string_view name) -> Writer& {
            m_body << (sep == ' ' ? " style=\"" : ";") << name << ':';
            sep = ';';
            return m_body;
        };
        if (t.size != base.size)
            property("font-size").num(t.size) << "px";
        if (t.color != base.color)
            property("fill").hex(t.color);
        if (t.bold != base.bold)
            property("font-weight") << (t.bold ? "bold" : "normal");
        if (t.anchor != base.anchor)
            property("text-anchor") << anchorName(t.anchor);
        if (sep == ';')
            m_body << '"';
        m_body << '>';
        m_body.escape(t.text) << "</text>\n";
    };
    for (const DiagramText& t : m_d.texts)
        one(t);
    for (const BitFieldDiagram& bd : m_d.bitFields) {
        m_body << "<text class=\"pt m\"";
        m_body.attr("x", bd.titlePos.x).attr("y", bd.titlePos.y) << '>';
        m_body.escape(bd.title) << "</text>\n";
    }
    m_body << "</g>\n";
}

void SvgBuilder::lanes() {
    m_body << "<g class=\"cells\">\n";
    for (int t = 0; t < m_d.threads; ++t)
        lane(t);
    m_body << "</g>\n";
}

void SvgBuilder::lane(int thread) {
    const auto cells = m_d.cellsOfThread(thread);
    const auto fields = m_fieldsOf.find(thread);
    if (cells.empty() && fields == m_fieldsOf.end())
        return;
    const DiagramCell* first = cells.empty() ? nullptr : &m_d.cells[cells.front()];
    const bool dim = first && first->dimmed;
    bool keyOnGroup = true;
    std::uint32_t groupKey = first ? first->colorKey : 0;
    for (std::uint32_t i : cells)
        keyOnGroup = keyOnGroup && m_d.cells[i].colorKey == groupKey;
    if (fields != m_fieldsOf.end())
        for (const auto& [d, f] : fields->second)
            keyOnGroup =
                keyOnGroup && first &&
                m_d.cells[static_cast<std::size_t>(m_d.bitFields[d].fields[f].cell)].colorKey == groupKey;

    m_body << "<g class=\"lane lane-";
    m_body.integer(laneOf(thread));
    if (m_d.scope != Scope::Warp) {
        m_body << " t";
        m_body.integer(thread) << " warp-";
        m_body.integer(warpOf(thread));
    }
    if (dim)
        m_body << " dim";
    else if (keyOnGroup && first) {
        m_body << " k";
        m_body.integer(groupKey);
    }
    m_body << "\">\n";

    // Cells come in (panel, row, col) order. The cells of one run on one baseline are one <path> per color
    // (a subpath per cell) plus one <text> per cell (its tooltip built on hover: svg_tooltips.hpp); a run of
    // >= 3 cells shares a translated group so nothing in it repeats the y coordinate.
    std::size_t i = 0;
    std::vector<std::size_t>& order = m_runOrder;
    while (i < cells.size()) {
        const DiagramCell& c0 = m_d.cells[cells[i]];
        const double base = c0.rect.y + baselineBelowTop(c0.rect.h);
        std::size_t j = i + 1;
        while (j < cells.size()) {
            const DiagramCell& cj = m_d.cells[cells[j]];
            if (cj.panel != c0.panel || cj.rect.y + baselineBelowTop(cj.rect.h) != base)
                break;
            ++j;
        }
        if (j == i + 1) {
            const std::size_t e = column(cells, i, keyOnGroup, dim);
            if (e > i + 1) {
                i = e;
                continue;
            }
        }
        // A run of two or more is one group translated to its baseline: its labels carry only their x, and
        // the fills their y from there, the same few numbers on every lane's row (repeated, for gzip). (Not x
        // too: Chromium places some glyphs under a translated x a subpixel apart from the same absolute x.)
        bool labelled = false;
        for (std::size_t n = i; n < j && !labelled; ++n)
            labelled = writesLabel(cells[n]);
        const bool grouped = j - i >= 2 && labelled;
        const double dy = grouped ? base : 0;
        if (grouped) {
            m_body << "<g transform=\"translate(0,";
            m_body.num(base) << ")\">";
        }
        // Fill: one path per color key in this run.
        const bool perCellKey = !keyOnGroup && !dim;
        order.assign(j - i, 0);
        for (std::size_t n = 0; n < order.size(); ++n)
            order[n] = i + n;
        // By key, cells of one key in their order: the position breaks ties (std::stable_sort would allocate
        // a buffer for every run, half a shared-memory figure's allocations).
        if (perCellKey)
            std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                const std::uint32_t ka = m_d.cells[cells[a]].colorKey, kb = m_d.cells[cells[b]].colorKey;
                return ka < kb || (ka == kb && a < b);
            });
        for (std::size_t n = 0; n < order.size();) {
            const std::uint32_t key = m_d.cells[cells[order[n]]].colorKey;
            // The shape is written relative to its first cell's corner (x0, y0): the rows of a wide operand
            // repeat the same few shapes (lane t of wgmma D: 32 pairs of cells on each of its rows), so a
            // long one goes into <defs> once and each row places it with a <use>.
            m_shape.clear();
            double x0 = 0, y0 = 0, px = 0, py = 0;
            bool firstSub = true;
            auto sameKey = [&](std::size_t m) {
                return !perCellKey || m_d.cells[cells[order[m]]].colorKey == key;
            };
            // Adjacent cells of one color are one rectangle plus white separators (stroked by the same path):
            // half the bytes of a subpath per cell, and the hover outline still boxes every cell.
            while (n < order.size() && sameKey(n)) {
                const RectF& r = m_d.cells[cells[order[n]]].rect;
                std::size_t e = n + 1;
                double runW = r.w;
                while (e < order.size() && sameKey(e)) {
                    const RectF& q = m_d.cells[cells[order[e]]].rect;
                    if (q.y != r.y || q.h != r.h || !touches(r.x + runW, q.x))
                        break;
                    runW += q.w;
                    ++e;
                }
                const double x = r.x, y = r.y - dy;
                if (firstSub) {
                    x0 = x, y0 = y;
                } else {
                    m_shape << 'm';
                    m_shape.num(x - px) << ' ';
                    m_shape.num(y - py);
                }
                firstSub = false;
                m_shape << 'h';
                m_shape.num(runW) << 'v';
                m_shape.num(r.h) << 'h';
                m_shape.num(-runW) << 'z';
                px = x, py = y;
                double dir = 1;
                for (std::size_t k = n; k + 1 < e; ++k) {
                    m_shape << 'm';
                    m_shape.num(m_d.cells[cells[order[k]]].rect.w) << " 0v";
                    m_shape.num(dir * r.h);
                    px += m_d.cells[cells[order[k]]].rect.w;
                    py += dir * r.h;
                    dir = -dir;
                }
                n = e;
            }
            fill(x0, y0, false, perCellKey, key);
        }
        m_body << '\n';
        if (labelled) {
            for (std::size_t n = i; n < j; ++n)
                if (writesLabel(cells[n]))
                    cellText(m_d.cells[cells[n]], perCellKey, true, !grouped, 0, 0);
            m_body << '\n';
        }
        if (grouped)
            m_body << "</g>\n";
        i = j;
    }
    bitFields(thread, keyOnGroup || dim);
    m_body << "</g>\n";
}

// The fill shape in m_shape (relative to its first corner) at (x, y). A long one is written once in <defs>
// and placed with a <use>, which takes its colour from where it is used: the lane's group, or (colour by
// register or group) the key's class on the <use> itself. A short one is a <path>. `x` is written even when 0
// where the caller's group is translated to the cell's centre.
void SvgBuilder::fill(double x, double y, bool alwaysX, bool perCellKey, std::uint32_t key) {
    const std::string_view shape = m_shape.view();
    if (shape.size() >= kSharedShape) {
        auto it = m_shapes.find(shape); // a string is made only for a new shape
        if (it == m_shapes.end())
            it = m_shapes.emplace(std::string(shape), m_shapes.size()).first;
        m_body << "<use";
        if (perCellKey) {
            m_body << " class=\"k";
            m_body.integer(key) << '"';
        }
        m_body << " xlink:href=\"#s";
        m_body.integer(static_cast<long long>(it->second)) << '"';
        if (alwaysX || x != 0)
            m_body.attr("x", x);
        if (y != 0)
            m_body.attr("y", y);
        m_body << "/>";
        return;
    }
    m_body << "<path";
    if (perCellKey) {
        m_body << " class=\"k";
        m_body.integer(key) << '"';
    }
    m_body << " d=\"M";
    m_body.num(x) << ' ';
    m_body.num(y) << shape << "\"/>";
}

// A column of cells, each on its own row (a chunk of shared memory: one n, consecutive k): one rectangle with
// separators for the fills, and one group translated to the column's centre, so each label carries only its
// y. Returns the end of the run written, or `i + 1` (nothing written) when no 2 cells stack there.
std::size_t SvgBuilder::column(std::span<const std::uint32_t> cells, std::size_t i, bool keyOnGroup,
                               bool dim) {
    const DiagramCell& c0 = m_d.cells[cells[i]];
    const RectF& r0 = c0.rect;
    std::size_t e = i + 1;
    double bottom = r0.bottom();
    while (e < cells.size()) {
        const DiagramCell& c = m_d.cells[cells[e]];
        if (c.panel != c0.panel || c.colorKey != c0.colorKey || c.rect.x != r0.x || c.rect.w != r0.w ||
            !touches(bottom, c.rect.y) || c.dimmed != c0.dimmed)
            break;
        bottom = c.rect.bottom();
        ++e;
    }
    if (e - i < 2)
        return i + 1;
    const bool perCellKey = !keyOnGroup && !dim;
    const bool grouped = e - i >= 2; // the same path and y offsets in every column: gzip finds them
    // Written relative to its top-left corner: every chunk of a tile is the same column, so (coloured by its
    // lane group) it goes into <defs> once and each chunk places it with a <use>.
    m_shape.clear();
    m_shape << 'h';
    m_shape.num(r0.w) << 'v';
    m_shape.num(bottom - r0.y) << 'h';
    m_shape.num(-r0.w) << 'z';
    // The separators, alternately left to right and back: the hover outline still boxes every cell.
    double dir = 1;
    for (std::size_t k = i; k + 1 < e; ++k) {
        m_shape << "m0 ";
        m_shape.num(m_d.cells[cells[k]].rect.h) << 'h';
        m_shape.num(dir * r0.w);
        dir = -dir;
    }
    // From three labels on, one group translated to the column's centre and top: each label carries only its
    // y from there, the same numbers in every column.
    const double cx = r0.x + r0.w / 2, left = grouped ? r0.x - cx : r0.x, top = grouped ? 0 : r0.y;
    if (grouped) {
        m_body << "<g transform=\"translate(";
        m_body.num(cx) << ',';
        m_body.num(r0.y) << ")\">";
    }
    fill(left, top, true, perCellKey, c0.colorKey);
    m_body << '\n';
    for (std::size_t k = i; k < e; ++k)
        if (writesLabel(cells[k]))
            cellText(m_d.cells[cells[k]], perCellKey, !grouped, true, 0, grouped ? r0.y : 0);
    m_body << (grouped ? "</g>\n" : "\n");
    return e;
}

// One cell's label: <text x y>T13:a5</text>. Its tooltip is built by the script on hover from the label, the
// position and the tables (svg_tooltips.hpp); a cell the tables do not describe carries it in data-t. A
// coordinate that the enclosing group's transform already gives is left out.
void SvgBuilder::cellText(const DiagramCell& c, bool perCellKey, bool withX, bool withY, double dx,
                          double dy) {
    m_body << "<text";
    if (perCellKey && lightKey(c.colorKey)) {
        m_body << " class=\"k";
        m_body.integer(c.colorKey) << '"';
    }
    if (withX)
        m_body.attr("x", c.rect.x + c.rect.w / 2 - dx);
    if (withY)
        m_body.attr("y", c.rect.y + baselineBelowTop(c.rect.h) - dy);
    if (m_tips.needsText(static_cast<std::size_t>(&c - m_d.cells.data()))) {
        m_body << " data-t=\"";
        m_body.escape(m_d.tooltipText(c).view()) << '"';
    }
    m_body << '>';
    const CellText label = m_d.labelText(c);
    if (m_plainCells)
        m_body << label.view();
    else
        m_body.escape(label.view());
    m_body << "</text>";
}

void SvgBuilder::bitFields(int thread, bool keyOnGroup) {
    const auto it = m_fieldsOf.find(thread);
    if (it == m_fieldsOf.end())
        return;
    m_body << "<g class=\"bits\">\n";
    const double font = m_d.metrics.cellFont - 1;
    for (const auto& [d, f] : it->second) {
        const BitField& bf = m_d.bitFields[d].fields[f];
        if (!keyOnGroup) {
            m_body << "<g class=\"k";
            m_body.integer(m_d.cells[static_cast<std::size_t>(bf.cell)].colorKey) << "\">";
        }
        m_body << "<rect";
        m_body.attr("x", bf.rect.x).attr("y", bf.rect.y).attr("width", bf.rect.w).attr("height", bf.rect.h);
        m_body << " data-t=\"";
        m_body.escape(m_d.tooltipText(m_d.cells[static_cast<std::size_t>(bf.cell)]).view()) << "\"/>";
        const double cx = bf.rect.x + bf.rect.w / 2;
        const double lineH = font + 2;
        const double y1 = bf.rect.y + bf.rect.h / 2 - lineH / 2 + font * 0.35;
        m_body << "<text";
        m_body.attr("x", cx).attr("y", y1) << '>';
        m_body.escape(bf.label) << "</text><text";
        m_body.attr("x", cx).attr("y", y1 + lineH) << '>';
        m_body.escape(bf.label2) << "</text>";
        if (!keyOnGroup)
            m_body << "</g>";
        m_body << '\n';
    }
    m_body << "</g>\n";
}

void SvgBuilder::defs() {
    if (m_shapes.empty())
        return;
    std::vector<const std::string*> byId(m_shapes.size());
    for (const auto& [shape, id] : m_shapes)
        byId[id] = &shape;
    m_head << "<defs>\n";
    for (std::size_t id = 0; id < byId.size(); ++id) {
        m_head << "<path id=\"s";
        m_head.integer(static_cast<long long>(id)) << "\" d=\"M0 0" << *byId[id] << "\"/>\n";
    }
    m_head << "</defs>\n";
}

// The tables and the script that build the tooltips on hover (svg_tooltips.hpp): only a viewer that shows a
// <title> runs scripts too, and one script with a few tables is a fraction of a <title> per cell.
void SvgBuilder::tooltips() {
    m_body << "<metadata class=\"lanemap-tips\"><![CDATA[" << m_tips.json() << "]]></metadata>\n";
    m_body << "<script type=\"text/ecmascript\"><![CDATA[\n" << m_tips.script() << "\n]]></script>\n";
}

void SvgBuilder::legends() {
    for (const Legend& lg : m_d.legends) {
        m_body << "<g class=\"legend\">\n<text class=\"pt\"";
        m_body.attr("x", lg.titlePos.x).attr("y", lg.titlePos.y) << '>';
        m_body.escape(lg.title) << "</text>\n";
        for (const LegendEntry& e : lg.entries) {
            m_body << "<rect";
            m_body.attr("x", e.swatch.x)
                .attr("y", e.swatch.y)
                .attr("width", e.swatch.w)
                .attr("height", e.swatch.h);
            // A swatch of a colour the cells use takes its class (the colour is written once, in the style).
            const auto key =
                std::find_if(m_keys.begin(), m_keys.end(), [&](const auto& k) { return k.second == e.fill; });
            if (key != m_keys.end()) {
                m_body << " class=\"k";
                m_body.integer(key->first) << '"';
            } else {
                m_body << " fill=\"";
                m_body.hex(e.fill) << '"';
            }
            m_body << "/><text class=\"lg\"";
            m_body.attr("x", e.textPos.x).attr("y", e.textPos.y) << '>';
            m_body.escape(e.text) << "</text>\n";
        }
        m_body << "</g>\n";
    }
}

std::string SvgBuilder::build() {
    // Keys in use: a flag per key first (a map insert per cell showed in the profile), then the list.
    std::vector<const DiagramCell*> firstOfKey;
    for (const DiagramCell& c : m_d.cells) {
        if (c.dimmed)
            continue;
        if (c.colorKey >= firstOfKey.size())
            firstOfKey.resize(c.colorKey + 1, nullptr);
        if (!firstOfKey[c.colorKey])
            firstOfKey[c.colorKey] = &c;
    }
    m_keys.reserve(firstOfKey.size());
    m_lightKey.assign(firstOfKey.size(), false);
    for (std::uint32_t key = 0; key < firstOfKey.size(); ++key) {
        const DiagramCell* c = firstOfKey[key];
        if (!c)
            continue;
        m_keys.emplace_back(key, c->fill);
        m_lightKey[key] = c->text != Rgb{0x11, 0x11, 0x11};
    }
    for (const DiagramText& t : m_d.texts) {
        styleRole(t.role, &t);
        useRole(t.role);
    }
    if (!m_d.legends.empty())
        useRole(TextRole::PanelTitle), useRole(TextRole::Legend);
    if (!m_d.bitFields.empty())
        useRole(TextRole::PanelTitle);
    for (const DiagramCell& c : m_d.cells)
        m_dimmed = m_dimmed || c.dimmed;
    m_plainCells = true;
    for (const DiagramPanel& p : m_d.panels)
        for (char c : p.name + p.letter)
            m_plainCells = m_plainCells && c != '&' && c != '<' && c != '>' && c != '"' &&
                           static_cast<unsigned char>(c) >= 0x20;
    m_legendText = {
        {}, {}, m_d.metrics.noteFont, false, false, TextAnchor::Start, TextRole::Legend, {0x22, 0x22, 0x22}};
    m_panelTitle = {{},
                    {},
                    m_d.metrics.panelTitleFont,
                    true,
                    false,
                    TextAnchor::Start,
                    TextRole::PanelTitle,
                    {0x22, 0x22, 0x22}};
    styleRole(TextRole::Legend, &m_legendText);
    styleRole(TextRole::PanelTitle, &m_panelTitle);
    for (std::size_t d = 0; d < m_d.bitFields.size(); ++d)
        for (std::size_t f = 0; f < m_d.bitFields[d].fields.size(); ++f)
            m_fieldsOf[m_d.bitFields[d].thread].emplace_back(d, f);

    lanes(); // first: the shapes it shares go into <defs>, and the style names only what is used
    head();
    style();
    background();
    registers();
    defs();
    rulers();
    lines();
    texts();
    legends();
    tooltips();
    m_body << "</svg>\n";
    std::string document = m_body.take();
    document.insert(0, m_head.view());
    return document;
}

} // namespace

std::string toSvg(const Diagram& diagram, const SvgOptions& options) {
    return SvgBuilder(diagram, options).build();
}

} // namespace lanemap
