#include "lanemap/diagram.hpp"

#include "diagram/diagram_tmem_text.hpp"

#include "lanemap/evidence.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/matrix_move.hpp"

#include "io/format.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string_view>
#include <tuple>

namespace lanemap {

// --- names and parsing ------------------------------------------------------------------------------

std::string_view toString(ColorBy colorBy) {
    switch (colorBy) {
    case ColorBy::Lane:
        return "lane";
    case ColorBy::Register:
        return "register";
    case ColorBy::ThreadGroup:
        return "group";
    case ColorBy::Warp:
        return "warp";
    case ColorBy::Warpgroup:
        return "warpgroup";
    case ColorBy::Thread:
        return "thread";
    }
    return "lane";
}

std::string_view toString(Palette palette) {
    return palette == Palette::ColorBlind ? "colorblind" : "default";
}

std::optional<ColorBy> parseColorBy(std::string_view name) {
    if (name == "lane")
        return ColorBy::Lane;
    if (name == "thread")
        return ColorBy::Thread;
    if (name == "register" || name == "reg")
        return ColorBy::Register;
    if (name == "group" || name == "groupID" || name == "groupid")
        return ColorBy::ThreadGroup;
    if (name == "warp")
        return ColorBy::Warp;
    if (name == "warpgroup")
        return ColorBy::Warpgroup;
    return std::nullopt;
}

std::optional<Palette> parsePalette(std::string_view name) {
    if (name == "default")
        return Palette::Default;
    if (name == "colorblind" || name == "color-blind" || name == "cb")
        return Palette::ColorBlind;
    return std::nullopt;
}

std::optional<std::vector<int>> parseLaneList(std::string_view text, int limit, std::string& error) {
    std::vector<int> out;
    auto number = [](std::string_view s, int& value) {
        const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
        return ec == std::errc() && p == s.data() + s.size() && !s.empty();
    };
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = std::min(text.find(',', pos), text.size());
        const std::string_view item = text.substr(pos, comma - pos);
        const std::size_t dash = item.find('-');
        int first = 0, last = 0;
        const bool ok = dash == std::string_view::npos
                            ? number(item, first) && ((last = first), true)
                            : number(item.substr(0, dash), first) && number(item.substr(dash + 1), last);
        if (!ok || first > last) {
            error = "bad lane list '" + excerpt(text) + "' at '" + excerpt(item, 24) +
                    "'; expected numbers and ranges like 0-3,13 (lanes 0.." + std::to_string(limit - 1) + ")";
            return std::nullopt;
        }
        if (first < 0 || last >= limit) {
            error = "lane " + std::to_string(first < 0 ? first : last) +
                    " is out of range; valid lanes are 0.." + std::to_string(limit - 1);
            return std::nullopt;
        }
        for (int v = first; v <= last; ++v)
            out.push_back(v);
        pos = comma + 1;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// --- colors ------------------------------------------------------------------------------------------

namespace {

// 32 light colors for black labels (CIELAB L* 70..90, chroma 22..55, contrast with black >= 8), picked by
// farthest-point sampling in CIELAB (every pair >= 17.8 dE76; evenly spaced HSL hues reach only 6.9) and
// ordered so that lanes drawn next to each other in the PTX layouts (lane offsets 1, 2, 3, 4, 8, 12, 16, ...)
// differ by
// >= 22 dE.
constexpr Rgb rgb(std::uint32_t v) {
    return {static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
            static_cast<std::uint8_t>(v)};
}
constexpr std::array<Rgb, 32> kLaneColors{
    rgb(0xC8E8A8), rgb(0xE890E0), rgb(0x40B8E8), rgb(0xF89068), rgb(0x20F8D8), rgb(0xA8B850), rgb(0xE0B0F0),
    rgb(0x68B8C0), rgb(0xF89890), rgb(0x90F0B8), rgb(0xF8D870), rgb(0xB0A0F8), rgb(0xA0D0F0), rgb(0xF0B8B0),
    rgb(0x58C078), rgb(0xE0E888), rgb(0xE0A050), rgb(0x68B0F8), rgb(0x38F8F8), rgb(0xE098B8), rgb(0xF8D8B0),
    rgb(0x88B8A0), rgb(0xB0B078), rgb(0x28C8A0), rgb(0x00D8F8), rgb(0xE8D0F8), rgb(0xD8A078), rgb(0x88B878),
    rgb(0x98F0E8), rgb(0x00C0B8), rgb(0xA8E888), rgb(0xA8A8D8),
};
const std::array<Rgb, 32>& defaultTable() {
    return kLaneColors;
}

// Okabe & Ito (2008), the usual color-blind-safe set; black replaced by grey so labels stay readable.
constexpr std::array<Rgb, 8> kOkabeIto{Rgb{0xE6, 0x9F, 0x00}, Rgb{0x56, 0xB4, 0xE9}, Rgb{0x00, 0x9E, 0x73},
                                       Rgb{0xF0, 0xE4, 0x42}, Rgb{0x00, 0x72, 0xB2}, Rgb{0xD5, 0x5E, 0x00},
                                       Rgb{0xCC, 0x79, 0xA7}, Rgb{0x99, 0x99, 0x99}};

Rgb tint(Rgb c, double white) {
    auto mix = [&](std::uint8_t v) {
        return static_cast<std::uint8_t>(std::lround(v + (255.0 - v) * white));
    };
    return {mix(c.r), mix(c.g), mix(c.b)};
}

// Mixed with black: `black` 0 keeps the color, 1 is black.
Rgb shade(Rgb c, double black) {
    auto mix = [&](std::uint8_t v) { return static_cast<std::uint8_t>(std::lround(v * (1.0 - black))); };
    return {mix(c.r), mix(c.g), mix(c.b)};
}

constexpr std::array<double, 4> kTints{0.0, 0.35, 0.6, 0.8};

double luminance(Rgb c) {
    // Linear light per 8-bit channel value, computed once (pow() per call showed in the catalog's profile).
    static const std::array<double, 256> lin = [] {
        std::array<double, 256> t{};
        for (std::size_t v = 0; v < t.size(); ++v) {
            const double s = static_cast<double>(v) / 255.0;
            t[v] = s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
        }
        return t;
    }();
    return 0.2126 * lin[c.r] + 0.7152 * lin[c.g] + 0.0722 * lin[c.b];
}

} // namespace

Rgb paletteColor(Palette palette, ColorBy colorBy, int key) {
    key = std::max(key, 0);
    if (colorBy == ColorBy::Thread) {
        // The lane's color, shaded by warp % 4: warp 0 as Lane, then lighter, darker, lightest.
        const Rgb lane = paletteColor(palette, ColorBy::Lane, key % 32);
        switch ((key / 32) % 4) {
        case 1:
            return tint(lane, 0.45);
        case 2:
            return shade(lane, 0.3);
        case 3:
            return tint(lane, 0.75);
        default:
            return lane;
        }
    }
    if (palette == Palette::ColorBlind) {
        if (colorBy == ColorBy::Lane) // hue = groupID (the row), lightness = threadID_in_group (the column)
            return tint(kOkabeIto[static_cast<std::size_t>((key % 32) >> 2)],
                        kTints[static_cast<std::size_t>(key % 4)]);
        return tint(kOkabeIto[static_cast<std::size_t>(key % 8)],
                    kTints[static_cast<std::size_t>((key / 8) % 4)]);
    }
    return defaultTable()[static_cast<std::size_t>(key % 32)];
}

double contrastRatio(Rgb a, Rgb b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

Rgb labelColorOn(Rgb fill) {
    constexpr Rgb dark{0x11, 0x11, 0x11}, light{0xFF, 0xFF, 0xFF};
    // contrastRatio against each, with the fill's luminance computed once (this runs for every cell).
    static const double darkL = luminance(dark), lightL = luminance(light);
    const double l = luminance(fill);
    const auto ratio = [l](double other) {
        return (std::max(l, other) + 0.05) / (std::min(l, other) + 0.05);
    };
    return ratio(darkL) >= ratio(lightL) ? dark : light;
}

// --- geometry lookups -------------------------------------------------------------------------------

std::span<const std::uint32_t> DiagramPanel::cellsAtGrid(int row, int col) const {
    if (row < 0 || row >= rows || col < 0 || col >= cols || gridOffsets.empty())
        return {};
    const std::size_t pos =
        static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(col);
    return {gridCells.data() + gridOffsets[pos], gridOffsets[pos + 1] - gridOffsets[pos]};
}

int Diagram::panelAt(double x, double y) const {
    for (std::size_t p = 0; p < panels.size(); ++p)
        if (panels[p].gridRect().contains(x, y))
            return static_cast<int>(p);
    return -1;
}

int Diagram::cellAt(double x, double y) const {
    const int p = panelAt(x, y);
    if (p < 0)
        return -1;
    const DiagramPanel& panel = panels[static_cast<std::size_t>(p)];
    const int col = static_cast<int>(std::floor((x - panel.origin.x) / panel.cellWidth));
    const int row = static_cast<int>(std::floor((y - panel.origin.y) / panel.cellHeight));
    for (std::uint32_t idx : panel.cellsAtGrid(row, col))
        if (cells[idx].rect.contains(x, y))
            return static_cast<int>(idx);
    return -1;
}

std::span<const std::uint32_t> Diagram::cellsOfThread(int thread) const {
    if (thread < 0 || static_cast<std::size_t>(thread) + 1 >= threadOffsets.size())
        return {};
    const auto t = static_cast<std::size_t>(thread);
    return {threadCells.data() + threadOffsets[t], threadOffsets[t + 1] - threadOffsets[t]};
}

std::pair<int, int> Diagram::bitFieldAt(double x, double y) const {
    for (std::size_t d = 0; d < bitFields.size(); ++d) {
        if (!bitFields[d].rect.contains(x, y))
            continue;
        for (std::size_t f = 0; f < bitFields[d].fields.size(); ++f)
            if (bitFields[d].fields[f].rect.contains(x, y))
                return {static_cast<int>(d), static_cast<int>(f)};
    }
    return {-1, -1};
}

// --- building --------------------------------------------------------------------------------------------

namespace {

constexpr Rgb kDimFill{0xF0, 0xF0, 0xF0};
constexpr Rgb kDimText{0xA0, 0xA0, 0xA0};
constexpr Rgb kInk{0x22, 0x22, 0x22};
constexpr Rgb kMuted{0x55, 0x55, 0x55};
constexpr Rgb kGridLine{0x44, 0x44, 0x44};

char letterOf(std::string_view name) {
    return name.empty() ? 'x' : static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
}

bool sameLayout(const FragmentLayout& a, const FragmentLayout& b) {
    if (a.rows() != b.rows() || a.cols() != b.cols() || a.matrices() != b.matrices() ||
        a.threads() != b.threads() || a.elementsPerThread() != b.elementsPerThread() ||
        a.elementType() != b.elementType() || a.registerBits() != b.registerBits())
        return false;
    const auto ea = a.elements(), eb = b.elements();
    for (std::size_t i = 0; i < ea.size(); ++i)
        if (ea[i].row != eb[i].row || ea[i].col != eb[i].col || ea[i].colLast != eb[i].colLast ||
            ea[i].reg != eb[i].reg || ea[i].bit != eb[i].bit || ea[i].matrix != eb[i].matrix)
            return false;
    return true;
}

std::string plural(int n, const char* word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::size_t digits(int v) {
    if (v < 0)
        return 1 + digits(-v);
    return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : 5; // int16 values
}

// Characters of a cell label ("T13:a5", "T0: [31..28]") without formatting it: cells are sized by their
// labels.
std::size_t labelChars(PanelKind kind, int thread, int element, int bitHi, int bitLo) {
    return kind == PanelKind::Metadata ? 7 + digits(thread) + digits(bitHi) + digits(bitLo)
                                       : 3 + digits(thread) + digits(element);
}

// One owner to be drawn at a matrix position, before layout. The int16 of DiagramCell.
struct Owner {
    std::int16_t thread = 0;
    std::int16_t element = -1;
    std::int16_t reg = 0;
    std::int16_t bitLo = 0, bitHi = 0;
    std::int16_t row = 0, col = 0, colLast = 0;
    std::int16_t matrix = -1;
    Source source = Source::Doc;
};

// Positions of one panel: several owners starting at the same position share its span side by side; owners
// with a different span starting there are stacked in horizontal bands.
struct Spot {
    std::int16_t row, col, colLast;
    std::uint16_t band = 0, bands = 1;
    std::uint32_t first = 0, count = 0; // owners: PanelPlan::order[first .. first + count)
};

// The owner of a register operand's element `e`, its placement's source shown as `source`.
Owner ownerOf(const Element& e, int elementBits, Source source) {
    Owner o;
    o.thread = static_cast<std::int16_t>(e.thread);
    o.element = static_cast<std::int16_t>(e.index);
    o.reg = static_cast<std::int16_t>(e.reg);
    o.bitLo = e.bit;
    o.bitHi = static_cast<std::int16_t>(e.bit + elementBits - 1);
    o.row = static_cast<std::int16_t>(e.row);
    o.col = static_cast<std::int16_t>(e.col);
    o.colLast = static_cast<std::int16_t>(e.colLast);
    o.matrix = e.matrix;
    o.source = source;
    return o;
}

// What one panel will show, before coordinates are assigned.
struct PanelPlan {
    DiagramPanel panel;
    // Its owners. A register operand of one product reads them from its layout in place, each named by its
    // slot (16,384 of a wgmma D not copied on every export); the metadata fields and a quad-pair product's
    // elements are listed, each named by its place in the list.
    const FragmentLayout* layout = nullptr;     // the owners are its elements
    std::array<Source, kSourceCount> shownAs{}; // an element's source as shown (Instruction::sourceOf)
    std::vector<Owner> listed;                  // the owners, where no layout is
    std::size_t ownerCount() const { return layout ? layout->elements().size() : listed.size(); }
    Owner owner(std::uint32_t key) const {
        if (!layout)
            return listed[key];
        const Element& e = layout->element(key);
        return ownerOf(e, layout->elementBits(), shownAs[static_cast<std::size_t>(e.source)]);
    }
    // Every owner's key, in (thread, element) order.
    template <class F> void forEachOwner(F&& f) const {
        if (!layout) {
            for (std::uint32_t i = 0; i < listed.size(); ++i)
                f(i);
            return;
        }
        for (const Element& e : layout->elements())
            f(layout->slotOf(e));
    }
    // Its positions in (row, col, colLast) order and their owners. A layout with one owner a cell has a spot
    // a grid position, its owner the one its inverse names (nothing listed: 17,408 positions of a wgmma D);
    // other panels list them.
    bool onePerCell = false;
    std::vector<Spot> spots;          // listed
    std::vector<std::uint32_t> order; // listed: owner keys sorted by spot
    std::size_t spotCount() const {
        return onePerCell
                   ? static_cast<std::size_t>(layout->rows()) * static_cast<std::size_t>(layout->cols())
                   : spots.size();
    }
    Spot spot(std::size_t k) const {
        if (!onePerCell)
            return spots[k];
        const auto row = static_cast<std::int16_t>(k / static_cast<std::size_t>(panel.cols));
        const auto col = static_cast<std::int16_t>(k % static_cast<std::size_t>(panel.cols));
        return {row, col, col, 0, 1, static_cast<std::uint32_t>(k), 1};
    }
    std::span<const std::uint32_t> ownersOf(const Spot& s) const {
        if (onePerCell)
            return layout->ownerSlots(s.row, s.col);
        return std::span(order).subspan(s.first, s.count);
    }
    Source source = Source::Doc;            // the source of most owners; tooltips name only the others
    std::vector<std::string> subtitleLines; // wrapped once its cells are sized (Builder::subtitleLines)
};

class Builder {
  public:
    Builder(const Instruction& in, const DiagramOptions& options) : m_in(in), m_opt(options) {}

    Diagram build();

  private:
    void validate() const;
    void planOperands();
    void planMetadata();
    std::uint32_t colorKey(const Owner& o) const;
    bool lit(int thread) const { return m_lit.empty() || m_lit[static_cast<std::size_t>(thread)]; }
    double labelWidth(std::size_t chars) const {
        return static_cast<double>(chars) * m_d.metrics.charWidth + 8;
    }
    void layoutPanel(PanelPlan& plan, double x, double y);
    double panelWidth(const PanelPlan& plan) const;
    std::vector<std::string> subtitleLines(const PanelPlan& plan) const;
    std::size_t m_subtitleLines = 1; // the most any panel needs: grids of one shelf stay aligned
    void sizeCells(PanelPlan& plan);
    void layoutBitFields(double y);
    void layoutLegend(double y);
    void buildThreadIndex();
    void text(double x, double y, std::string s, double size, TextRole role,
              TextAnchor anchor = TextAnchor::Start, bool bold = false, Rgb color = kInk, bool mono = false) {
        m_d.texts.push_back({{x, y}, std::move(s), size, bold, mono, anchor, role, color});
    }

    const Instruction& m_in;
    const DiagramOptions& m_opt;
    std::vector<bool> m_lit;
    Diagram m_d;
    std::vector<PanelPlan> m_plans;
    const MetadataSelector* m_selector = nullptr;
    std::vector<std::uint32_t> m_metadataCellOfField; // selector field index -> cell index
    int m_metadataPanel = -1;
};

void Builder::validate() const {
    std::string operands;
    for (const FragmentLayout& op : m_in.operands)
        (operands += operands.empty() ? "" : ", ") += op.name();
    if (m_in.metadata)
        operands += ", metadata";
    // Every operand asked for must be there; the merged accumulator view needs C or D.
    const auto present = [&](Operand o) {
        return o == Operand::Metadata ? m_in.metadata != nullptr : m_in.operand(o) != nullptr;
    };
    for (Operand o : m_opt.operands.members())
        if (!present(o) && !(m_opt.operands == kAccumulator && (present(Operand::C) || present(Operand::D))))
            throw std::invalid_argument("no operand '" + toString(m_opt.operands) + "' in " + m_in.spec +
                                        "; valid operands: " + operands);
    if (m_opt.selector) {
        if (!m_in.metadata)
            throw std::invalid_argument("a sparsity selector applies to sparse instructions only; " +
                                        m_in.spec + " is dense");
        std::string valid;
        bool found = false;
        for (const MetadataSelector& s : m_in.metadata->selectors) {
            found = found || s.value == *m_opt.selector;
            valid += (valid.empty() ? "" : ", ") + std::to_string(s.value);
        }
        if (!found)
            throw std::invalid_argument("sparsity selector " + std::to_string(*m_opt.selector) +
                                        " is not valid for " + m_in.spec + "; valid selectors: " + valid);
    }
    for (int t : m_opt.threads)
        if (t < 0 || t >= m_in.threads)
            throw std::invalid_argument("lane filter: " + std::to_string(t) + " is not a thread of " +
                                        m_in.spec + "; valid: 0.." + std::to_string(m_in.threads - 1));
}

std::uint32_t Builder::colorKey(const Owner& o) const {
    switch (m_opt.colorBy) {
    case ColorBy::Lane:
        return static_cast<std::uint32_t>(laneOf(o.thread));
    case ColorBy::Register:
        return static_cast<std::uint32_t>(o.reg);
    case ColorBy::ThreadGroup:
        return static_cast<std::uint32_t>(laneOf(o.thread) >> 2);
    case ColorBy::Warp:
        return static_cast<std::uint32_t>(warpOf(o.thread));
    case ColorBy::Warpgroup:
        return static_cast<std::uint32_t>(o.thread / kWarpgroupSize);
    case ColorBy::Thread:
        return static_cast<std::uint32_t>(o.thread);
    }
    return 0;
}

void Builder::planOperands() {
    const FragmentLayout* c = m_in.operand(Operand::C);
    const FragmentLayout* d = m_in.operand(Operand::D);
    const OperandSet want = m_opt.operands;
    const bool mergeCD =
        m_opt.mergeIdenticalCD && c && d && (want.empty() || want == kAccumulator) && sameLayout(*c, *d);
    // The register placements, each with the words its family names it with (lanemap/placement.hpp).
    for (const Placement& placement : m_in.placements) {
        if (!placement.fragment())
            continue;
        const FragmentLayout& op = *placement.fragment();
        const Presentation& words = placement.presentation();
        const bool accumulator = kAccumulator.contains(op.operand());
        if (!want.empty() && !want.contains(op.operand()))
            continue;
        OperandSet shown = op.operand();
        if (mergeCD && accumulator) {
            if (op.operand() == Operand::D)
                continue; // drawn once, with C
            shown = kAccumulator;
        }
        const std::string name = words.operandName.empty() ? toString(shown) : words.operandName;
        for (int m = 0; m < op.matrices(); ++m) {
            PanelPlan plan;
            DiagramPanel& p = plan.panel;
            p.kind = PanelKind::Operand;
            p.operands = shown;
            p.name = name;
            p.letter = words.valueLetter ? words.valueLetter : letterOf(toString(shown.first()));
            p.matrix = op.matrices() > 1 ? m : -1;
            p.rows = op.rows();
            p.cols = op.cols();
            p.title = name + "   " + std::to_string(op.rows()) + " \u00d7 " + std::to_string(op.cols()) +
                      "   ." +
                      (words.typeName.empty() ? std::string(toString(op.elementType())) : words.typeName);
            if (p.matrix >= 0 && static_cast<std::size_t>(m) < words.matrixTitles.size())
                p.title += "   " + words.matrixTitles[static_cast<std::size_t>(m)];
            else if (p.matrix >= 0)
                p.title += "   product " + std::to_string(m) + " (lanes " + std::to_string(4 * m) + ".." +
                           std::to_string(4 * m + 3) + ", " + std::to_string(16 + 4 * m) + ".." +
                           std::to_string(16 + 4 * m + 3) + ")";
            p.subtitle = plural(op.registers(), "register") + " of " + std::to_string(op.registerBits()) +
                         " bits per thread, " + std::to_string(op.elementsPerRegister()) + " \u00d7 " +
                         std::to_string(op.elementBits()) + "-bit element" +
                         (op.elementsPerRegister() == 1 ? "" : "s") + " each";
            if (op.chunked())
                p.subtitle += "; each non-zero may sit anywhere in its chunk";
            if (!words.subtitle.empty())
                p.subtitle = words.subtitle;
            if (!words.rowAxis.empty()) { // rows and columns of another space (tcgen05.ld/st: TMEM's)
                p.rowAxis = words.rowAxis;
                p.colAxis = words.colAxis;
                p.title = name + "   " + words.extentTitle;
            }
            for (std::size_t src = 0; src < plan.shownAs.size(); ++src)
                plan.shownAs[src] = m_in.sourceOf(static_cast<Source>(src));
            if (op.matrices() == 1)
                plan.layout = &op;
            else { // the product's elements
                plan.listed.reserve(op.elements().size() / static_cast<std::size_t>(op.matrices()));
                for (const Element& e : op.elements())
                    if ((e.matrix < 0 ? 0 : e.matrix) == m)
                        plan.listed.push_back(ownerOf(e, op.elementBits(), m_in.sourceOf(e.source)));
            }
            m_plans.push_back(std::move(plan));
        }
    }
}

void Builder::planMetadata() {
    if (!m_in.metadata || m_in.metadata->selectors.empty())
        return;
    if (!m_opt.operands.empty() && !m_opt.operands.contains(Operand::Metadata))
        return;
    const MetadataLayout& md = *m_in.metadata;
    m_selector = &md.selectors.front();
    if (m_opt.selector)
        for (const MetadataSelector& s : md.selectors)
            if (s.value == *m_opt.selector)
                m_selector = &s;
    m_d.selector = m_selector->value;
    const FragmentLayout* a = m_in.operand(Operand::A);
    PanelPlan plan;
    DiagramPanel& p = plan.panel;
    p.kind = PanelKind::Metadata;
    p.operands = Operand::Metadata;
    p.name = toString(Operand::Metadata);
    p.letter = 'e';
    p.rows = a ? a->rows() : m_in.m;
    p.cols = a ? a->cols() : m_in.k;
    std::string valid;
    for (const MetadataSelector& s : md.selectors)
        valid += (valid.empty() ? "" : ", ") + std::to_string(s.value);
    p.title = "metadata e on the A grid   sparsity selector " + std::to_string(m_selector->value);
    p.subtitle = std::string(md.granularity) + " sparsity, " + std::to_string(md.indexBits) +
                 "-bit indices; cell = chunk of A, T<lane>: [bits] of e (selectors: " + valid + ")";
    for (const MetadataField& f : m_selector->fields) {
        Owner o;
        o.thread = static_cast<std::int16_t>(f.thread);
        o.bitHi = static_cast<std::int16_t>(f.bitHi);
        o.bitLo = static_cast<std::int16_t>(f.bitLo);
        o.row = static_cast<std::int16_t>(f.row);
        o.col = static_cast<std::int16_t>(f.colFirst);
        o.colLast = static_cast<std::int16_t>(f.colLast);
        o.source = m_in.sourceOf(f.source);
        plan.listed.push_back(o);
    }
    m_plans.push_back(std::move(plan));
}

// The owners in grid order (row, col), then by span end where spans of different width start at one
// position (rare), then in their (thread, element) order.
void sortByPosition(PanelPlan& plan) {
    std::vector<std::uint32_t>& order = plan.order;
    // A layout's elements, each in one cell (not sparse A): its inverse lists them in grid order already.
    if (const FragmentLayout* layout = plan.layout; layout && !layout->chunked()) {
        order.clear();
        order.reserve(plan.ownerCount());
        for (int r = 0; r < layout->rows(); ++r)
            for (int c = 0; c < layout->cols(); ++c)
                for (const std::uint32_t slot : layout->ownerSlots(r, c))
                    order.push_back(slot);
        return;
    }
    // Counting sort by grid position (stable: owners keep their (thread, element) order).
    const std::size_t positions =
        static_cast<std::size_t>(plan.panel.rows) * static_cast<std::size_t>(plan.panel.cols);
    std::vector<std::uint32_t> start(positions + 1, 0);
    auto pos = [&](const Owner& o) {
        return static_cast<std::size_t>(o.row) * static_cast<std::size_t>(plan.panel.cols) +
               static_cast<std::size_t>(o.col);
    };
    plan.forEachOwner([&](std::uint32_t key) { ++start[pos(plan.owner(key)) + 1]; });
    for (std::size_t i = 1; i <= positions; ++i)
        start[i] += start[i - 1];
    order.resize(plan.ownerCount());
    // start[p] runs to the end of position p as it fills, which is where p + 1 starts: shifted back after.
    plan.forEachOwner([&](std::uint32_t key) { order[start[pos(plan.owner(key))]++] = key; });
    for (std::size_t p = positions; p > 0; --p)
        start[p] = start[p - 1];
    start[0] = 0;
    // Owners of one position come in (thread, element) order, which their keys keep: ties broken by key,
    // stable without std::stable_sort's buffer, allocated for every position shared.
    for (std::size_t p = 0; p < positions; ++p)
        if (start[p + 1] - start[p] > 1)
            std::sort(order.begin() + start[p], order.begin() + start[p + 1],
                      [&](std::uint32_t a, std::uint32_t b) {
                          const int ea = plan.owner(a).colLast, eb = plan.owner(b).colLast;
                          return ea < eb || (ea == eb && a < b);
                      });
}

// The spots of a panel whose owners are listed, or whose layout has cells of several owners or none.
void listSpots(PanelPlan& plan) {
    sortByPosition(plan);
    const std::vector<std::uint32_t>& order = plan.order;
    std::vector<Spot>& spots = plan.spots;
    spots.clear();
    spots.reserve(plan.ownerCount()); // at most one an owner: never moved while it fills
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        const Owner o = plan.owner(order[n]);
        if (spots.empty() || spots.back().row != o.row || spots.back().col != o.col ||
            spots.back().colLast != o.colLast)
            spots.push_back({o.row, o.col, o.colLast, 0, 1, n, 0});
        ++spots.back().count;
    }
    // Spans of different width starting at the same position: horizontal bands.
    for (std::size_t a = 0; a < spots.size();) {
        std::size_t b = a + 1;
        while (b < spots.size() && spots[b].row == spots[a].row && spots[b].col == spots[a].col)
            ++b;
        for (std::size_t k = a; k < b; ++k) {
            spots[k].band = static_cast<std::uint16_t>(k - a);
            spots[k].bands = static_cast<std::uint16_t>(b - a);
        }
        a = b;
    }
}

// Where the owners go, and the source most of them have.
void findSpots(PanelPlan& plan) {
    plan.onePerCell = plan.layout && plan.layout->oneOwnerPerCell();
    if (!plan.onePerCell)
        listSpots(plan);
    std::array<std::size_t, kSourceCount> count{}; // by Source
    plan.forEachOwner([&](std::uint32_t key) { ++count[static_cast<std::size_t>(plan.owner(key).source)]; });
    std::size_t best = 0;
    for (std::size_t src = 0; src < count.size(); ++src)
        if (count[src] > best)
            best = count[src], plan.source = static_cast<Source>(src);
}

std::vector<std::string> Builder::subtitleLines(const PanelPlan& plan) const {
    const auto maxChars = static_cast<std::size_t>(panelWidth(plan) / (m_d.metrics.noteFont * 0.52));
    std::vector<std::string> lines;
    std::string line;
    std::size_t pos = 0;
    const std::string& text = plan.panel.subtitle;
    while (pos < text.size()) {
        std::size_t end = text.find(' ', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(pos, end - pos);
        if (!line.empty() && line.size() + 1 + word.size() > maxChars) {
            lines.push_back(std::move(line));
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        pos = end + 1;
    }
    if (!line.empty())
        lines.push_back(std::move(line));
    return lines;
}

double Builder::panelWidth(const PanelPlan& plan) const {
    const DiagramMetrics& mt = m_d.metrics;
    const double rowHeader = std::ceil(labelWidth(std::to_string(plan.panel.rows - 1).size()));
    const double note = m_in.scope != Scope::Warp ? labelWidth(6) : 0;
    const double grid = plan.panel.cols * plan.panel.cellWidth;
    const double title = static_cast<double>(plan.panel.title.size()) * mt.panelTitleFont * 0.55;
    // Subtitles wrap (see subtitleLines) rather than widen the panel, down to 300 units.
    return std::ceil(std::max({rowHeader + grid + note, title, 300.0}));
}

void Builder::sizeCells(PanelPlan& plan) {
    DiagramPanel& p = plan.panel;
    const DiagramMetrics& mt = m_d.metrics;
    // Cell width: the widest label must fit its share of its spot; column headers must fit too.
    findSpots(plan);
    p.source = plan.source;
    if (plan.source != Source::Doc)
        p.subtitle += std::string("; placement: ") + std::string(toString(plan.source)); // a user has no repo
    double cellWidth = labelWidth(std::to_string(p.cols - 1).size()) - 2;
    for (std::size_t k = 0; k < plan.spotCount(); ++k) {
        const Spot s = plan.spot(k);
        std::size_t chars = 0;
        for (std::uint32_t i : plan.ownersOf(s)) {
            const Owner o = plan.owner(i);
            chars = std::max(chars, labelChars(p.kind, o.thread, o.element, o.bitHi, o.bitLo));
        }
        const double need = labelWidth(chars) * static_cast<double>(s.count) / (s.colLast - s.col + 1);
        cellWidth = std::max(cellWidth, need);
    }
    p.cellWidth = std::ceil(cellWidth);
    p.cellHeight = mt.cellHeight;
}

void Builder::layoutPanel(PanelPlan& plan, double x, double y) {
    DiagramPanel& p = plan.panel;
    const DiagramMetrics& mt = m_d.metrics;
    const double rowHeader = std::ceil(labelWidth(std::to_string(p.rows - 1).size()));
    p.bounds = {x, y, panelWidth(plan), 0};
    text(x, y + mt.panelTitleFont, p.title, mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start, true);
    const double lineH = mt.noteFont + 4;
    double ly = y + mt.panelTitleFont + 6 + mt.noteFont;
    for (std::string& line : plan.subtitleLines) {
        text(x, ly, std::move(line), mt.noteFont, TextRole::PanelSubtitle, TextAnchor::Start, false, kMuted);
        ly += lineH;
    }
    const double headerTop =
        y + mt.panelTitleFont + 6 + mt.noteFont + lineH * static_cast<double>(m_subtitleLines - 1) + 10;
    p.origin = {x + rowHeader, headerTop + mt.headerFont + 6};
    p.bounds.h = p.origin.y + p.rows * p.cellHeight - y;

    p.colHeaders.resize(static_cast<std::size_t>(p.cols));
    p.rowHeaders.resize(static_cast<std::size_t>(p.rows));
    p.rowNotes.assign(static_cast<std::size_t>(p.rows), std::string());
    // Column headers: every column when they fit, else every 2nd/4th/...; metadata panels label chunk starts.
    const double headerW = labelWidth(std::to_string(p.cols - 1).size()) - 4;
    int every = 1;
    while (every * p.cellWidth < headerW)
        every *= 2;
    for (int c = 0; c < p.cols; ++c) {
        p.colHeaders[static_cast<std::size_t>(c)] = std::to_string(c);
        if (c % every)
            continue;
        text(p.origin.x + (c + 0.5) * p.cellWidth, p.origin.y - 5, std::to_string(c), mt.headerFont,
             TextRole::Header, TextAnchor::Middle, false, kMuted);
    }
    for (int r = 0; r < p.rows; ++r) {
        p.rowHeaders[static_cast<std::size_t>(r)] = std::to_string(r);
        text(p.origin.x - 5, p.origin.y + (r + 0.5) * p.cellHeight + mt.headerFont * 0.35, std::to_string(r),
             mt.headerFont, TextRole::RowHeader, TextAnchor::End, false, kMuted);
    }
}

void Builder::buildThreadIndex() {
    m_d.threadOffsets.assign(static_cast<std::size_t>(m_in.threads) + 1, 0);
    for (const DiagramCell& c : m_d.cells)
        ++m_d.threadOffsets[static_cast<std::size_t>(c.thread) + 1];
    for (std::size_t t = 1; t < m_d.threadOffsets.size(); ++t)
        m_d.threadOffsets[t] += m_d.threadOffsets[t - 1];
    m_d.threadCells.resize(m_d.cells.size());
    std::vector<std::uint32_t> fill(m_d.threadOffsets.begin(), m_d.threadOffsets.end() - 1);
    for (std::uint32_t i = 0; i < m_d.cells.size(); ++i)
        m_d.threadCells[fill[static_cast<std::size_t>(m_d.cells[i].thread)]++] = i;
}

void Builder::layoutBitFields(double y) {
    if (m_metadataPanel < 0 || !m_opt.metadataBitFields || !m_selector)
        return;
    const DiagramMetrics& mt = m_d.metrics;
    // Threads that hold fields, in order; one 32-bit register box each.
    std::map<int, std::vector<std::size_t>> byThread;
    for (std::size_t f = 0; f < m_selector->fields.size(); ++f)
        byThread[m_selector->fields[f].thread].push_back(f);
    if (byThread.empty())
        return;
    // Bit width: every field's labels must fit; at least 16 units per bit.
    double bitWidth = 16;
    auto labels = [&](const MetadataField& f) {
        return std::pair{"r" + std::to_string(f.row),
                         f.colFirst == f.colLast
                             ? "c" + std::to_string(f.colFirst)
                             : "c" + std::to_string(f.colFirst) + ".." + std::to_string(f.colLast)};
    };
    for (const MetadataField& f : m_selector->fields) {
        const auto [l1, l2] = labels(f);
        const double w = static_cast<double>(std::max(l1.size(), l2.size())) * mt.charWidth * 0.9 + 4;
        bitWidth = std::max(bitWidth, std::ceil(w / (f.bitHi - f.bitLo + 1)));
    }
    const double titleW = labelWidth(4);
    const double regW = 32 * bitWidth;
    const double boxH = 34, rowGap = 10;
    const double unitW = titleW + regW + mt.gap;
    const double avail = std::max(m_d.width - 2 * mt.margin, unitW);
    const int columns = std::max(1, static_cast<int>((avail + mt.gap) / unitW));
    text(mt.margin, y + mt.panelTitleFont,
         "metadata register e per lane, sparsity selector " + std::to_string(m_selector->value) +
             " (bit 31 left, bit 0 right)",
         mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start, true);
    text(mt.margin, y + mt.panelTitleFont + 6 + mt.noteFont,
         "each boxed field holds the index bits of one chunk: r = row of A, c = its columns; white bits are "
         "unused",
         mt.noteFont, TextRole::PanelSubtitle, TextAnchor::Start, false, kMuted);
    const double top = y + mt.panelTitleFont + 6 + mt.noteFont + 10 + mt.headerFont + 4;
    int slot = 0;
    const int rowsPerColumn = (static_cast<int>(byThread.size()) + columns - 1) / columns;
    double bottom = top;
    for (const auto& [thread, fields] : byThread) {
        const int column = slot / rowsPerColumn, line = slot % rowsPerColumn;
        ++slot;
        BitFieldDiagram bd;
        bd.thread = thread;
        bd.title = "T" + std::to_string(thread);
        bd.bitWidth = bitWidth;
        const double x0 = mt.margin + column * unitW;
        const double y0 = top + line * (boxH + rowGap);
        bd.titlePos = {x0, y0 + boxH / 2 + mt.cellFont * 0.35};
        bd.rect = {x0 + titleW, y0, regW, boxH};
        if (line == 0) // bit numbers above the first register of each column
            for (int b = 31; b >= 0; --b)
                if (b % 4 == 3 || b % 4 == 0)
                    text(bd.rect.x + (31 - b + 0.5) * bitWidth, y0 - 4, std::to_string(b), mt.headerFont - 1,
                         TextRole::BitNumber, TextAnchor::Middle, false, kMuted);
        for (std::size_t f : fields) {
            const MetadataField& mf = m_selector->fields[f];
            BitField field;
            field.bitHi = mf.bitHi;
            field.bitLo = mf.bitLo;
            field.row = mf.row;
            field.colFirst = mf.colFirst;
            field.colLast = mf.colLast;
            std::tie(field.label, field.label2) = labels(mf);
            field.rect = {bd.rect.x + (31 - mf.bitHi) * bitWidth, y0, (mf.bitHi - mf.bitLo + 1) * bitWidth,
                          boxH};
            field.cell = static_cast<int>(m_metadataCellOfField[f]);
            const DiagramCell& cell = m_d.cells[m_metadataCellOfField[f]];
            field.fill = cell.fill;
            field.text = cell.text;
            bd.fields.push_back(std::move(field));
        }
        std::sort(bd.fields.begin(), bd.fields.end(),
                  [](const BitField& a, const BitField& b) { return a.bitHi > b.bitHi; });
        bottom = std::max(bottom, bd.rect.bottom());
        m_d.width = std::max(m_d.width, std::ceil(bd.rect.right() + mt.margin));
        m_d.bitFields.push_back(std::move(bd));
    }
    m_d.width =
        std::max(m_d.width, std::ceil(mt.margin * 2 + 110 * mt.noteFont * 0.52)); // the subtitle above
    m_d.height = bottom + mt.margin;
}

void Builder::layoutLegend(double y) {
    const DiagramMetrics& mt = m_d.metrics;
    Legend legend;
    std::vector<std::pair<std::uint32_t, std::string>> keys;
    std::vector<bool> inUse; // by color key
    bool anyDim = false;
    for (const DiagramCell& c : m_d.cells) {
        if (c.dimmed)
            anyDim = true;
        else {
            if (c.colorKey >= inUse.size())
                inUse.resize(c.colorKey + 1, false);
            inUse[c.colorKey] = true;
        }
    }
    std::vector<std::uint32_t> used; // the keys in use, ascending
    used.reserve(inUse.size());
    for (std::uint32_t k = 0; k < inUse.size(); ++k)
        if (inUse[k])
            used.push_back(k);
    keys.reserve(used.size()); // at most one entry a key in use
    // Keys of a colouring by runs of `size` consecutive lanes or threads: "warp 1  (T32..63)".
    const auto runs = [&](std::string_view name, std::uint32_t size, std::string_view unit) {
        for (const std::uint32_t k : used)
            keys.emplace_back(k, std::string(name) + std::to_string(k) + "  (" + std::string(unit) +
                                     std::to_string(size * k) + ".." + std::to_string(size * k + size - 1) +
                                     ")");
    };
    switch (m_opt.colorBy) {
    case ColorBy::Lane:
        legend.title = m_in.scope == Scope::Cta ? "color = lane (thread % 32); label T<CTA "
                                                  "thread>:<operand><value>: thread = 32 \u00d7 warp + lane"
                       : m_in.scope == Scope::Warpgroup
                           ? "color = lane (thread % 32); label T<thread>: thread = 32 \u00d7 warp + lane"
                           : "color = lane (%laneid); label T<lane>:<operand><element index>";
        for (const std::uint32_t k : used) {
            std::string s = "lane " + std::to_string(k);
            if (m_in.scope == Scope::Warpgroup)
                s += "  (T" + std::to_string(k) + ", " + std::to_string(k + 32) + ", " +
                     std::to_string(k + 64) + ", " + std::to_string(k + 96) + ")";
            keys.emplace_back(k, s);
        }
        break;
    case ColorBy::Register:
        legend.title = m_metadataPanel >= 0
                           ? "color = fragment register (metadata: the e register)"
                           : "color = fragment register (the register index in the fragment)";
        for (const std::uint32_t k : used)
            keys.emplace_back(k, "reg " + std::to_string(k));
        break;
    case ColorBy::ThreadGroup:
        legend.title = "color = groupID (lane >> 2): lanes 4g..4g+3";
        runs("group ", 4, "lanes ");
        break;
    case ColorBy::Warp:
        legend.title = "color = warp (thread / 32)";
        runs("warp ", kWarpSize, "T");
        break;
    case ColorBy::Warpgroup:
        legend.title = "color = warpgroup (thread / 128)";
        runs("warpgroup ", kWarpgroupSize, "T");
        break;
    case ColorBy::Thread: {
        // One key per warp (its lane 0's color): the hue is the lane, the shade the warp.
        legend.title =
            "color = thread: hue = lane (thread % 32), shade = warp % 4 (lane 0 of each warp shown)";
        std::vector<std::uint32_t> warps;
        for (const std::uint32_t k : used)
            if (warps.empty() || warps.back() != k / kWarpSize)
                warps.push_back(k / kWarpSize);
        for (const std::uint32_t w : warps)
            keys.emplace_back(w * kWarpSize, "warp " + std::to_string(w) + "  (T" +
                                                 std::to_string(w * kWarpSize) + ".." +
                                                 std::to_string(w * kWarpSize + kWarpSize - 1) + ")");
        break;
    }
    }
    std::size_t longest = 0;
    for (const auto& [k, s] : keys)
        longest = std::max(longest, s.size());
    const double swatch = 14;
    const double entryW = swatch + 8 + static_cast<double>(longest) * mt.noteFont * 0.56 + 18;
    const double avail = std::max(m_d.width - 2 * mt.margin, entryW);
    const int perRow = std::max(1, static_cast<int>(avail / entryW));
    legend.titlePos = {mt.margin, y + mt.noteFont + 2};
    const double top = y + mt.noteFont + 12;
    auto place = [&](int i, Rgb fill, std::string s, std::uint32_t key) {
        LegendEntry e;
        const double ex = mt.margin + (i % perRow) * entryW, ey = top + (i / perRow) * (swatch + 8);
        e.swatch = {ex, ey, swatch, swatch};
        e.textPos = {ex + swatch + 6, ey + swatch - 3};
        e.fill = fill;
        e.text = std::move(s);
        e.key = key;
        legend.entries.push_back(std::move(e));
    };
    legend.entries.reserve(keys.size() + 1); // and one for the dimmed lanes
    int i = 0;
    for (auto& [k, s] : keys)
        place(i++, paletteColor(m_opt.palette, m_opt.colorBy, static_cast<int>(k)), s, k);
    if (anyDim)
        place(i++, kDimFill, "outside the lane filter", 0xFFFFFFFFu);
    const int rows = (i + perRow - 1) / perRow;
    legend.bounds = {mt.margin, y, perRow * entryW, top - y + rows * (swatch + 8)};
    m_d.width = std::max(m_d.width, std::ceil(legend.bounds.right() + mt.margin));
    m_d.width = std::max(m_d.width, std::ceil(2 * mt.margin + static_cast<double>(legend.title.size()) *
                                                                  mt.panelTitleFont * 0.55));
    m_d.height = std::max(m_d.height, legend.bounds.bottom() + mt.margin);
    m_d.legends.push_back(std::move(legend));
}

Diagram Builder::build() {
    validate();
    if (!m_opt.threads.empty()) { // after validate(): every thread is in range
        m_lit.assign(static_cast<std::size_t>(m_in.threads), false);
        for (int t : m_opt.threads)
            m_lit[static_cast<std::size_t>(t)] = true;
    }
    const DiagramMetrics& mt = m_d.metrics;
    m_d.spec = m_in.spec;
    m_d.ptx = m_in.ptx;
    m_d.section = m_in.section;
    m_d.anchor = m_in.anchor;
    m_d.scope = m_in.scope;
    m_d.threads = m_in.threads;
    m_d.colorBy = m_opt.colorBy;
    m_d.palette = m_opt.palette;
    m_d.title = tile::nameOf(m_in);

    planOperands();
    planMetadata();

    // Caption: the instruction, where the PTX manual states it, and what it runs on.
    m_d.caption.push_back(m_in.ptx);
    if (!m_in.section.empty()) { // a layout read from text has no section
        std::string where = "PTX ISA 9.1 \u00a7" + std::string(m_in.section);
        if (!m_in.anchor.empty())
            (where += "  #") += m_in.anchor;
        m_d.caption.push_back(where);
    }
    std::string facts =
        std::to_string(m_in.threads) + (m_in.threads == 1 ? " thread (" : " threads (") +
        std::string(toString(m_in.scope)) + "), " +
        (!m_in.placements.empty() && !m_in.placements.front().presentation().extentFact.empty()
             ? m_in.placements.front().presentation().extentFact
             : "m" + std::to_string(m_in.m) + " n" + std::to_string(m_in.n) + " k" + std::to_string(m_in.k)) +
        (m_in.minSm > 0 ? ", min sm_" + std::to_string(m_in.minSm) : std::string());
    if (!m_opt.threads.empty()) {
        facts += "; lane filter:";
        for (std::size_t i = 0; i < m_opt.threads.size(); ++i)
            facts += (i ? "," : " ") + std::to_string(m_opt.threads[i]);
    }
    m_d.caption.push_back(facts);
    if (m_in.tile)
        m_d.caption.push_back("tile: " + tile::factLine(*m_in.tile));
    for (const std::string& n : m_in.notes)
        m_d.caption.push_back("note: " + n);
    for (const Erratum& e : m_in.errata)
        m_d.caption.push_back("erratum " + std::string(e.id) + ": " + std::string(e.summary) +
                              " \u2014 lanemap: " + std::string(e.lanemap));
    if (m_in.hardware && m_in.hardware->verdict == Verdict::Pass)
        m_d.caption.push_back("confirmed cell by cell by the " + describe(*m_in.hardware->run));
    if (m_in.metadata)
        for (const std::string& n : m_in.metadata->notes)
            m_d.caption.push_back("metadata: " + n);

    double y = mt.margin;
    text(mt.margin, y + mt.titleFont, m_d.title, mt.titleFont, TextRole::Title, TextAnchor::Start, true);
    y += mt.titleFont + 8;
    double captionW = static_cast<double>(m_d.title.size()) * mt.titleFont * 0.6;
    for (const std::string& line : m_d.caption) {
        y += mt.noteFont + 5;
        text(mt.margin, y, line, mt.noteFont, TextRole::Caption, TextAnchor::Start, false, kMuted);
        captionW = std::max(captionW, static_cast<double>(line.size()) * mt.noteFont * 0.52);
    }
    y += 22;

    // Cell widths first (they decide panel widths), then a shelf layout: left to right, a new shelf when the
    // row would pass the widest of (2400 units, the widest panel).
    for (PanelPlan& plan : m_plans)
        sizeCells(plan);
    for (PanelPlan& plan : m_plans) {
        plan.subtitleLines = subtitleLines(plan);
        m_subtitleLines = std::max(m_subtitleLines, plan.subtitleLines.size());
    }
    double maxRow = 2400;
    for (const PanelPlan& plan : m_plans)
        maxRow = std::max(maxRow, panelWidth(plan));
    double x = mt.margin, shelfBottom = y, width = captionW + 2 * mt.margin;
    // Quad-pair products (m8n8k4 .f16): one row per product, A | B | C/D as for any other instruction.
    std::stable_sort(m_plans.begin(), m_plans.end(), [](const PanelPlan& a, const PanelPlan& b) {
        return std::max(a.panel.matrix, 0) < std::max(b.panel.matrix, 0);
    });
    // Rows of panels: a product starts a row; a row also ends when it would pass maxRow.
    std::vector<std::vector<PanelPlan*>> rows;
    double rowW = 0;
    for (PanelPlan& plan : m_plans) {
        const double w = panelWidth(plan);
        const bool newProduct = !rows.empty() && plan.panel.matrix != rows.back().back()->panel.matrix;
        if (rows.empty() || newProduct || rowW + w > maxRow) {
            rows.emplace_back();
            rowW = 0;
        }
        rows.back().push_back(&plan);
        rowW += w + mt.gap;
    }
    // Rows of the same shape (the quad-pair products) share column widths, so A, B and C/D line up.
    std::vector<double> columnW;
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (columnW.size() <= i)
                columnW.push_back(0);
            columnW[i] = std::max(columnW[i], panelWidth(*row[i]));
        }
    bool sameShape = rows.size() > 1;
    for (const auto& row : rows)
        sameShape = sameShape && row.size() == rows.front().size();
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (r > 0)
            y = shelfBottom + mt.gap;
        x = mt.margin;
        for (std::size_t i = 0; i < rows[r].size(); ++i) {
            PanelPlan& plan = *rows[r][i];
            layoutPanel(plan, x, y);
            shelfBottom = std::max(shelfBottom, plan.panel.bounds.bottom());
            width = std::max(width, plan.panel.bounds.right() + mt.margin);
            x += (sameShape ? columnW[i] : panelWidth(plan)) + mt.gap;
        }
    }
    m_d.width = std::ceil(width);
    y = shelfBottom;

    // Cells.
    std::size_t total = 0;
    for (const PanelPlan& plan : m_plans)
        total += plan.ownerCount();
    m_d.cells.reserve(total + m_opt.spareCells);
    // Colors per key, computed once for every panel (contrast needs pow()).
    std::vector<std::pair<Rgb, Rgb>> colors;
    auto colorOf = [&](std::uint32_t key) {
        if (key >= colors.size()) {
            const std::size_t from = colors.size();
            colors.resize(key + 1);
            for (std::size_t k = from; k <= key; ++k) {
                const Rgb fill = paletteColor(m_opt.palette, m_opt.colorBy, static_cast<int>(k));
                colors[k] = {fill, labelColorOn(fill)};
            }
        }
        return colors[key];
    };
    for (std::size_t pi = 0; pi < m_plans.size(); ++pi) {
        PanelPlan& plan = m_plans[pi];
        DiagramPanel& p = plan.panel;
        p.firstCell = static_cast<std::uint32_t>(m_d.cells.size());
        if (p.kind == PanelKind::Metadata) {
            m_metadataPanel = static_cast<int>(pi);
            m_metadataCellOfField.assign(plan.ownerCount(), 0);
        }
        for (std::size_t si = 0; si < plan.spotCount(); ++si) {
            const Spot s = plan.spot(si);
            const RectF first = p.cellRect(s.row, s.col);
            const double spanW = (s.colLast - s.col + 1) * p.cellWidth;
            const double bandH = p.cellHeight / s.bands;
            const double ownerW = spanW / static_cast<double>(s.count);
            const auto owners = plan.ownersOf(s);
            for (std::size_t k = 0; k < owners.size(); ++k) {
                const Owner o = plan.owner(owners[k]);
                if (p.kind == PanelKind::Metadata)
                    m_metadataCellOfField[owners[k]] = static_cast<std::uint32_t>(m_d.cells.size());
                DiagramCell& c = m_d.cells.emplace_back(); // filled in place, not copied in
                c.rect = {first.x + static_cast<double>(k) * ownerW, first.y + s.band * bandH, ownerW, bandH};
                c.colorKey = colorKey(o);
                c.panel = static_cast<std::uint16_t>(pi);
                c.thread = static_cast<std::int16_t>(o.thread);
                c.lane = static_cast<std::int16_t>(laneOf(o.thread));
                c.warp = static_cast<std::int16_t>(warpOf(o.thread));
                c.groupID = static_cast<std::int16_t>(laneOf(o.thread) >> 2);
                c.element = static_cast<std::int16_t>(o.element);
                c.reg = static_cast<std::int16_t>(o.reg);
                c.bitLo = static_cast<std::int16_t>(o.bitLo);
                c.bitHi = static_cast<std::int16_t>(o.bitHi);
                c.row = static_cast<std::int16_t>(o.row);
                c.col = static_cast<std::int16_t>(o.col);
                c.colLast = static_cast<std::int16_t>(o.colLast);
                c.matrix = static_cast<std::int16_t>(o.matrix);
                c.owners = static_cast<std::int16_t>(s.count);
                c.source = o.source;
                c.dimmed = !lit(o.thread);
                const auto [fill, ink] = colorOf(c.colorKey);
                c.fill = c.dimmed ? kDimFill : fill;
                c.text = c.dimmed ? kDimText : ink;
            }
        }
        p.cellCount = static_cast<std::uint32_t>(m_d.cells.size()) - p.firstCell;

        // Hit-test index: grid position -> cells covering it.
        const std::size_t positions = static_cast<std::size_t>(p.rows) * static_cast<std::size_t>(p.cols);
        p.gridOffsets.assign(positions + 1, 0);
        auto each = [&](auto&& fn) {
            for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i) {
                const DiagramCell& c = m_d.cells[i];
                // A sole owner covers its whole span; a shared span is split by x, so measure.
                const bool sole = c.owners == 1 && c.rect.h == p.cellHeight;
                const int c0 =
                    sole ? c.col : static_cast<int>(std::floor((c.rect.x - p.origin.x) / p.cellWidth + 1e-9));
                const int c1 =
                    sole
                        ? c.colLast
                        : static_cast<int>(std::ceil((c.rect.right() - p.origin.x) / p.cellWidth - 1e-9)) - 1;
                for (int col = c0; col <= c1; ++col)
                    fn(static_cast<std::size_t>(c.row) * static_cast<std::size_t>(p.cols) +
                           static_cast<std::size_t>(col),
                       i);
            }
        };
        each([&](std::size_t pos, std::uint32_t) { ++p.gridOffsets[pos + 1]; });
        for (std::size_t i = 1; i <= positions; ++i)
            p.gridOffsets[i] += p.gridOffsets[i - 1];
        p.gridCells.resize(p.gridOffsets[positions]);
        std::vector<std::uint32_t> fill(p.gridOffsets.begin(), p.gridOffsets.end() - 1);
        each([&](std::size_t pos, std::uint32_t i) { p.gridCells[fill[pos]++] = i; });

        // Warpgroup rows: name the warp that owns each run of rows (rows 16w..16w+15 for wgmma A and D).
        if (m_in.scope != Scope::Warp && p.kind == PanelKind::Operand) {
            std::vector<int> warpOfRow(static_cast<std::size_t>(p.rows), -1);
            for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i) {
                int& w = warpOfRow[static_cast<std::size_t>(m_d.cells[i].row)];
                w = (w == -1 || w == m_d.cells[i].warp) ? m_d.cells[i].warp : -2;
            }
            for (int r = 0; r < p.rows; ++r) {
                const int w = warpOfRow[static_cast<std::size_t>(r)];
                if (w < 0 || (r > 0 && warpOfRow[static_cast<std::size_t>(r - 1)] == w))
                    continue;
                p.rowNotes[static_cast<std::size_t>(r)] = "warp " + std::to_string(w);
                const double ly = p.origin.y + r * p.cellHeight;
                text(p.gridRect().right() + 6, ly + (0.5 * p.cellHeight) + mt.headerFont * 0.35,
                     "warp " + std::to_string(w), mt.headerFont, TextRole::RowNote, TextAnchor::Start, true,
                     kMuted);
                if (r > 0)
                    m_d.lines.push_back({{p.origin.x, ly}, {p.gridRect().right(), ly}, kGridLine, 2});
            }
        }
        // Chunked panels (sparse A, metadata): a dark line at every chunk boundary that all rows share.
        bool chunked = false;
        for (const Spot& sp : plan.spots) // a layout of one owner a cell lists none: it has no chunks
            chunked = chunked || sp.colLast > sp.col;
        if (chunked) {
            std::vector<int> starts(static_cast<std::size_t>(p.cols), 0);
            std::vector<bool> rowSeen(static_cast<std::size_t>(p.rows), false);
            int rowsWithSpots = 0;
            int lastRow = -1, lastCol = -1;
            for (const Spot& sp : plan.spots) {
                if (!rowSeen[static_cast<std::size_t>(sp.row)])
                    rowSeen[static_cast<std::size_t>(sp.row)] = true, ++rowsWithSpots;
                if (sp.row == lastRow && sp.col == lastCol)
                    continue; // another band of the same start
                ++starts[static_cast<std::size_t>(sp.col)];
                lastRow = sp.row, lastCol = sp.col;
            }
            for (int col = 1; col < p.cols; ++col)
                if (starts[static_cast<std::size_t>(col)] == rowsWithSpots) {
                    const double lx = p.origin.x + col * p.cellWidth;
                    m_d.lines.push_back({{lx, p.origin.y}, {lx, p.gridRect().bottom()}, kGridLine, 1.5});
                }
        }
        // Frame around the grid.
        const RectF g = p.gridRect();
        m_d.lines.push_back({{g.x, g.y}, {g.right(), g.y}, kGridLine, 1});
        m_d.lines.push_back({{g.x, g.bottom()}, {g.right(), g.bottom()}, kGridLine, 1});
        m_d.lines.push_back({{g.x, g.y}, {g.x, g.bottom()}, kGridLine, 1});
        m_d.lines.push_back({{g.right(), g.y}, {g.right(), g.bottom()}, kGridLine, 1});
        m_d.panels.push_back(std::move(p));
    }

    m_d.height = y + mt.margin;
    layoutBitFields(y + mt.gap);
    layoutLegend(m_d.height);
    m_d.height = std::ceil(m_d.height);
    buildThreadIndex();
    return std::move(m_d);
}

} // namespace

// A cell's label and tooltip are formatted into a fixed buffer: every part is a short word or an int16, so
// the longest tooltip is well under CellText's capacity.
namespace {
// A byte address, written "0x1f0".
struct Hex {
    std::uint32_t value = 0;
};

// Hot: ~8 puts per tooltip, millions of tooltips per catalog export; the puts are inlined on purpose.
class TextBuffer {
  public:
    explicit TextBuffer(CellText& out) : m_out(out), m_p(out.chars) {}
    ~TextBuffer() { m_out.size = static_cast<std::uint16_t>(m_p - m_out.chars); }
    TextBuffer(const TextBuffer&) = delete;
    TextBuffer& operator=(const TextBuffer&) = delete;
    template <class... T> void operator()(const T&... parts) { (put(parts), ...); }

  private:
    std::size_t room() const { return static_cast<std::size_t>(m_out.chars + sizeof m_out.chars - m_p); }
    [[gnu::always_inline]] void put(char c) {
        if (room() >= 1)
            *m_p++ = c;
    }
    template <std::size_t N>
    [[gnu::always_inline]] void put(const char (&literal)[N]) { // length known at compile time
        if (room() >= N - 1)
            m_p = std::copy_n(literal, N - 1, m_p);
    }
    [[gnu::always_inline]] void put(std::string_view v) {
        if (room() >= v.size())
            m_p = std::copy_n(v.data(), v.size(), m_p);
    }
    [[gnu::always_inline]] void put(int v) {
        if (room() >= 12)
            m_p = detail::formatInt(m_p, v);
    }
    void put(Hex h) {
        char digits[8];
        int n = 0;
        do {
            digits[n++] = "0123456789abcdef"[h.value & 15u];
            h.value >>= 4;
        } while (h.value && n < 8);
        if (room() >= static_cast<std::size_t>(n) + 2) {
            *m_p++ = '0';
            *m_p++ = 'x';
            while (n)
                *m_p++ = digits[--n];
        }
    }
    CellText& m_out;
    char* m_p;
};
} // namespace

CellText Diagram::labelText(const DiagramCell& c) const {
    const DiagramPanel& p = panels[c.panel];
    CellText text;
    if (p.kind == PanelKind::TensorMemory || p.kind == PanelKind::TensorMemoryRegisters) {
        tensorMemoryLabel(p, c, text); // "D(5,3)": the element this lane and column (or register) hold
        return text;
    }
    TextBuffer put(text);
    if (p.kind == PanelKind::SharedMemory) {
        put(Hex{c.address});
        if (c.bitHi - c.bitLo < 7) // a sub-byte element: which bit of the byte
            put('.', int{c.bitLo});
    } else if (p.kind == PanelKind::SharedMemoryMap) {
        put(p.rowLetter, int{c.element}, ' ', p.colLetter, int{c.bitLo});
        if (c.bitHi != c.bitLo)
            put("..", int{c.bitHi});
    } else if (p.kind == PanelKind::Metadata)
        put('T', int{c.thread}, ": [", int{c.bitHi}, "..", int{c.bitLo}, ']');
    else if (p.kind == PanelKind::Chunks) // "T13 m2r5": the thread supplying matrix 2's row 5
        put('T', int{c.thread}, " m", int{c.matrix}, 'r', int{c.element});
    else if (p.kind == PanelKind::Addresses) // "T9 [9][0]": thread 9 points at the tile's [9][0]
        put('T', int{c.thread}, " [", int{c.element}, "][", int{c.bitLo}, ']');
    else if (p.kind == PanelKind::CopyTile) { // "w1#3 b4-7": warp 1's instruction 3, banks 4..7
        const int bank = static_cast<int>(c.address % 128u) / 4;
        put('w', int{c.warp}, '#', int{c.reg}, " b", bank);
        if (p.accessBytes > 4)
            put('-', bank + p.accessBytes / 4 - 1);
    } else if (p.kind == PanelKind::CopyPhases) // the phase's wavefronts
        put(int{c.bitHi});
    else
        put('T', int{c.thread}, ':', p.letter, int{c.element});
    return text;
}

// The tooltip grammar (docs/svg.md#tooltips), one for the GUI's hover line and the SVG <title>: fields
// separated by " · ", bits [hi..lo] as in the PTX figures, a position (row,col). Short: the SVG carries one
// per cell.
//   register element  "lane 13 a5 · r2[31..16] · (3,11)"; warpgroup "warp 2 lane 13 d5 · r5[31..0] · (35,11)"
//   metadata          "lane 0 e[31..28] · (8,12..15) · selector 0"
//   shared memory     "B k9 n3 · 0x1a2 · line 0x180 chunk 2 · banks 8..11 · chunk 1 before swizzle";
//                     a byte of sub-byte elements "B k8..15 n105 · 0x3491 · line 0x3480 chunk 1 · banks 4..7"
//   memory chunk      "0x180..0x18f · n3 k8..15 · line 0x180 chunk 0 · banks 0..3"
CellText Diagram::tooltipText(const DiagramCell& c) const {
    const DiagramPanel& p = panels[c.panel];
    const bool metadata = p.kind == PanelKind::Metadata;
    CellText text;
    // "D(5,3) · CTA 0 lane 5 column 3 · warp 0": Tensor Memory holds it, the warp may reach the lane.
    if (p.kind == PanelKind::TensorMemory || p.kind == PanelKind::TensorMemoryRegisters) {
        tensorMemoryTooltip(*this, p, c, text);
        return text;
    }
    TextBuffer put(text);
    auto range = [&](int first, int count) {
        put(first);
        if (count > 1)
            put("..", first + count - 1);
    };
    if (p.kind == PanelKind::SharedMemory || p.kind == PanelKind::SharedMemoryMap) {
        if (p.kind == PanelKind::SharedMemory) {
            // A cell covers rowElements x colElements elements: one, or the sub-byte elements of one byte.
            put(std::string_view(p.name), ' ', p.rowLetter);
            range(c.row * p.rowElements, p.rowElements);
            put(' ', p.colLetter);
            range(c.col * p.colElements, p.colElements);
            put(" \u00b7 ", Hex{c.address});
            if (c.bitHi - c.bitLo < 7) // a sub-byte element drawn alone: which bits of the byte
                put('[', int{c.bitHi}, "..", int{c.bitLo}, ']');
        } else {
            put(Hex{c.address}, "..", Hex{c.address + 15}, " \u00b7 ", p.rowLetter, int{c.element}, ' ',
                p.colLetter, int{c.bitLo});
            if (c.bitHi != c.bitLo)
                put("..", int{c.bitHi});
        }
        put(" \u00b7 line ", Hex{c.address & ~127u}, " chunk ", int{c.lane}, " \u00b7 banks ", 4 * c.lane,
            "..", 4 * c.lane + 3);
        if (c.reg != c.lane && (p.kind == PanelKind::SharedMemory || c.reg >= 0))
            put(" \u00b7 chunk ", int{c.reg}, " before swizzle");
        return text;
    }
    // "lane 9 points at A[9][0] · 0x120 · matrix 1 row 1"; no '&': the SVG writes tooltips unescaped.
    if (p.kind == PanelKind::Addresses) {
        put("lane ", int{c.lane}, " points at ", std::string_view(p.name), '[', int{c.element}, "][",
            int{c.bitLo}, "] \u00b7 ", Hex{c.address}, " \u00b7 matrix ", int{c.matrix}, " row ", int{c.reg});
        return text;
    }
    if (p.kind ==
        PanelKind::Chunks) { // "lane 13 · matrix 2 row 5 · banks 20..23 · phase 1 · wavefront 2 of 2"
        put("lane ", int{c.lane}, " \u00b7 matrix ", int{c.matrix}, " row ", int{c.element}, " \u00b7 banks ",
            4 * int{c.reg}, "..", 4 * int{c.reg} + 3, " \u00b7 phase ", int{c.groupID}, " \u00b7 wavefront ",
            int{c.bitLo} + 1, " of ", int{c.bitHi});
        if (c.conflict)
            put(" \u00b7 bank conflict");
        return text;
    }
    // "T37 warp 1 lane 5 · ldmatrix #3 matrix 2 row 5 · A m16 k8..15 · 0x210 · banks 4..7 · phase 1 ·
    // wavefront 2 of 2"; an ld.shared names its registers ("ld.shared #3 r6..r7").
    if (p.kind == PanelKind::CopyTile) {
        const int bank = static_cast<int>(c.address % 128u) / 4;
        put('T', int{c.thread}, " warp ", int{c.warp}, " lane ", int{c.lane}, " \u00b7 ",
            std::string_view(p.move), " #", int{c.reg});
        if (c.element >= 0)
            put(" matrix ", int{c.matrix}, " row ", int{c.element});
        else {
            put(" r", int{c.matrix});
            if (p.accessBytes > 4)
                put("..r", int{c.matrix} + p.accessBytes / 4 - 1);
        }
        put(" \u00b7 ", std::string_view(p.name), ' ', p.rowLetter, int{c.row}, ' ', p.colLetter, int{c.col});
        if (c.colLast != c.col)
            put("..", int{c.colLast});
        put(" \u00b7 ", Hex{c.address}, " \u00b7 bank", p.accessBytes > 4 ? "s " : " ", bank);
        if (p.accessBytes > 4)
            put("..", bank + p.accessBytes / 4 - 1);
        put(" \u00b7 phase ", int{c.groupID}, " \u00b7 wavefront ", int{c.bitLo} + 1, " of ", int{c.bitHi});
        if (c.conflict)
            put(" \u00b7 the worst phase");
        return text;
    }
    if (p.kind ==
        PanelKind::CopyPhases) { // "warp 1 #3 phase 2 · threads 48..55 · 2 wavefronts · bank conflict"
        put("warp ", int{c.warp}, " #", int{c.reg}, " phase ", int{c.groupID}, " \u00b7 threads ",
            int{c.thread}, "..", int{c.matrix}, " \u00b7 ", int{c.bitHi}, " wavefront",
            c.bitHi == 1 ? "" : "s", " (ideal 1)");
        if (c.conflict)
            put(" \u00b7 bank conflict");
        return text;
    }
    // Warpgroup: the label shows T<thread>; the tooltip says what it is made of.
    if (scope != Scope::Warp)
        put("warp ", int{c.warp}, ' ');
    put("lane ", int{c.lane}, ' ');
    if (metadata)
        put('e');
    else
        put(p.letter, int{c.element}, " \u00b7 r", int{c.reg});
    if (c.bitHi == c.bitLo)
        put('[', int{c.bitLo}, ']');
    else
        put('[', int{c.bitHi}, "..", int{c.bitLo}, ']');
    put(" \u00b7 (", int{c.row}, ',', int{c.col});
    if (c.col != c.colLast)
        put("..", int{c.colLast});
    put(')');
    if (c.matrix >= 0)
        put(" \u00b7 product ", int{c.matrix});
    if (metadata && selector)
        put(" \u00b7 selector ", *selector);
    if (c.source != p.source)
        put(" \u00b7 ", toString(c.source));
    return text;
}

std::string Diagram::label(const DiagramCell& c) const {
    return std::string(labelText(c).view());
}
bool Diagram::drawsLabel(const DiagramCell& c) const {
    switch (panels[c.panel].labels) {
    case CellLabels::Every:
        return true;
    case CellLabels::None:
        return false;
    case CellLabels::ChunkStarts:
        return (c.address & 15u) == 0 && c.bitLo == 0;
    }
    return true;
}
std::string Diagram::tooltip(const DiagramCell& c) const {
    return std::string(tooltipText(c).view());
}

std::string Diagram::hoverId(const DiagramCell& c) const {
    const DiagramPanel& p = panels[c.panel];
    CellText text;
    if (p.kind == PanelKind::TensorMemory || p.kind == PanelKind::TensorMemoryRegisters) {
        tensorMemoryHoverId(p, c, text);
        return std::string(text.view());
    }
    {
        TextBuffer put(text);
        if (p.kind == PanelKind::SharedMemory)
            put("smem-", std::string_view(p.name), '-', int{c.row}, '-', int{c.col});
        else if (p.kind == PanelKind::SharedMemoryMap)
            put("smem-chunk-", Hex{c.address});
        else if (p.kind == PanelKind::Metadata)
            put("metadata-t", int{c.thread}, "-b", int{c.bitLo});
        else if (p.kind == PanelKind::Chunks)
            put("smem-t", int{c.thread}, "-m", int{c.matrix}, "-r", int{c.element});
        else if (p.kind == PanelKind::Addresses)
            put("address-t", int{c.thread});
        else if (p.kind == PanelKind::CopyTile)
            put("copy-t", int{c.thread}, "-j", int{c.reg}, "-m", int{c.matrix}, "-r", int{c.element});
        else if (p.kind == PanelKind::CopyPhases)
            put("phase-w", int{c.warp}, "-j", int{c.reg}, "-p", int{c.groupID});
        else {
            put(std::string_view(idOf(p.operands)));
            if (c.matrix >= 0)
                put("-m", int{c.matrix});
            put("-t", int{c.thread}, "-e", int{c.element});
        }
    }
    return std::string(text.view());
}

Diagram buildDiagram(const Instruction& instruction, const DiagramOptions& options) {
    // Each space has its builder: an instruction whose operands live in Tensor Memory is drawn there.
    if (instruction.hasSpace(Space::TensorMemory))
        return buildTensorMemoryDiagram(instruction, options.palette);
    return Builder(instruction, options).build();
}

} // namespace lanemap
