// The picture of a whole tiled copy (diagram.hpp buildTiledCopyDiagram): the operand's shared-memory tile
// with every access coloured by the warp that moves it and labelled with its instruction and banks, the worst
// phase framed, and the wavefronts of every phase of every instruction beside it. Built from
// tiled_copy::analyze, so the picture and `lanemap-cli banks MOVE --feeds ...` cannot disagree.

#include "diagram/chunk_grid.hpp"
#include "lanemap/banks.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/tiled_copy.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lanemap {

namespace {

constexpr Rgb kInk{0x22, 0x22, 0x22};
constexpr Rgb kMuted{0x66, 0x66, 0x66};
constexpr Rgb kGridLine{0x99, 0x99, 0x99};
constexpr Rgb kCalm{0xe8, 0xf2, 0xe8};       // a conflict-free phase
constexpr Rgb kConflicted{0xf8, 0xd0, 0xd0}; // a phase with more wavefronts than one
// Colour keys of the phase cells, past any warp's (a CTA has at most 32 warps).
constexpr std::uint32_t kCalmKey = 1000, kConflictedKey = 1001;
constexpr double kRowHeaderWidth = 48;
constexpr double kPhaseHeaderWidth = 64;
constexpr double kPhaseWidth = 34;

// The letters of the operand's rows and columns (lanemap's B is K x N).
std::pair<char, char> lettersOf(Operand o) {
    if (o == Operand::A)
        return {'m', 'k'};
    if (o == Operand::B)
        return {'k', 'n'};
    return {'m', 'n'};
}

class TiledCopyBuilder {
  public:
    TiledCopyBuilder(const tiled_copy::Result& r, Palette palette) : m_r(r), m_palette(palette) {}

    Diagram build() {
        DiagramMetrics& mt = m_d.metrics;
        mt.cellHeight = 18;
        const std::string name(toString(m_r.operand));
        m_d.title = m_r.move + " \u2192 " + m_r.consumer + ": the whole tiled copy";
        m_d.spec = m_r.move;
        m_d.scope = Scope::Cta;
        m_d.threads = m_r.warps * kWarpSize;
        m_d.colorBy = ColorBy::Warp;
        m_d.palette = m_palette;
        const int perPhase = m_r.sharedLoad ? 128 / m_r.accessBytes : 8;
        m_d.caption = {
            std::to_string(m_r.warps) + " warps x " + std::to_string(m_r.perWarp) + " " + word() + " = " +
                std::to_string(m_r.copies.size()) + " instructions; the " + std::to_string(m_r.rows) + "x" +
                std::to_string(m_r.cols) + " " + name + " at " + banks::describe(m_r.placement),
            "32 banks of 4 bytes; a phase serves " + std::to_string(perPhase) + " threads' " +
                std::to_string(m_r.accessBytes) + "-byte " + (m_r.sharedLoad ? "vectors" : "rows") +
                "; distinct addresses in one bank group wait for each other (one wavefront each)",
            verdict(),
            "L1 Wavefronts Shared " + std::to_string(m_r.wavefronts) + ", Ideal " +
                std::to_string(m_r.idealWavefronts) + ", L1 Wavefronts Shared Excessive " +
                std::to_string(m_r.excessive()) + worstNote(),
        };
        double y = mt.margin + mt.titleFont;
        text(mt.margin, y, m_d.title, mt.titleFont, TextRole::Title, TextAnchor::Start, true);
        y += 6;
        for (std::size_t i = 0; i < m_d.caption.size(); ++i) {
            y += mt.noteFont + 6;
            const bool bad = (i == 2 && m_r.mismatches > 0) || (i == 3 && m_r.excessive() > 0);
            text(mt.margin, y, m_d.caption[i], mt.noteFont, TextRole::Caption, TextAnchor::Start, false,
                 bad ? kConflictColor : kMuted);
        }
        y = legend(y + 14) + 20;
        const double right = tilePanel(y);
        // Beside the tile, clear of its subtitle (about 6 units a character at the note size).
        const double subtitleEnd = mt.margin + 6.0 * static_cast<double>(m_d.panels.back().subtitle.size());
        phasePanel(std::max(right, subtitleEnd) + mt.gap, y);
        m_d.width = 0;
        m_d.height = 0;
        for (const DiagramPanel& p : m_d.panels) {
            m_d.width = std::max(m_d.width, p.bounds.right() + mt.margin);
            m_d.height = std::max(m_d.height, p.bounds.bottom() + mt.margin);
        }
        for (const Legend& l : m_d.legends)
            m_d.width = std::max(m_d.width, l.bounds.right() + mt.margin);
        // The title (bold, 18 units: about 10.5 a character) and the captions (about 6) set a lower bound.
        m_d.width = std::max(m_d.width, mt.margin * 2 + 10.5 * static_cast<double>(m_d.title.size()));
        for (const std::string& line : m_d.caption)
            m_d.width = std::max(m_d.width, mt.margin * 2 + 6.0 * static_cast<double>(line.size()));
        frames();
        index();
        return std::move(m_d);
    }

  private:
    std::string word() const { return m_r.sharedLoad ? m_r.move : m_r.store ? "stmatrix" : "ldmatrix"; }

    std::string verdict() const {
        const std::string head = m_r.store ? "drains: " : "feeds: ";
        if (m_r.mismatches == 0)
            return head +
                   (m_r.store ? "every register slot is stored where its element belongs"
                              : "every register slot holds the element the tiled MMA wants there") +
                   " (" + std::to_string(m_r.slots.size()) + " slots)";
        return head + "MISMATCH in " + std::to_string(m_r.mismatches) + " of " +
               std::to_string(m_r.slots.size()) + " register slots (lanemap-cli banks ... names the first)";
    }

    // The first phase with the most wavefronts, when it has more than one: its cells are framed.
    std::pair<int, int> worstPhase() const {
        std::pair<int, int> at{-1, -1};
        int worst = 1;
        for (std::size_t c = 0; c < m_r.copies.size(); ++c)
            for (const banks::Phase& ph : m_r.copies[c].phases)
                if (ph.degree > worst) {
                    worst = ph.degree;
                    at = {static_cast<int>(c), ph.index};
                }
        return at;
    }

    std::string worstNote() const {
        const auto [c, ph] = worstPhase();
        if (c < 0)
            return "; every phase conflict-free";
        const tiled_copy::Copy& copy = m_r.copies[static_cast<std::size_t>(c)];
        return "; the worst phase " + std::to_string(m_r.worstDegree()) + "-way (framed: warp " +
               std::to_string(copy.warp) + " #" + std::to_string(copy.instruction) + " phase " +
               std::to_string(ph) + ")";
    }

    double legend(double y) {
        const DiagramMetrics& mt = m_d.metrics;
        Legend l;
        l.title = "colour: the warp that moves the cell";
        l.titlePos = {mt.margin, y + mt.noteFont};
        double x = mt.margin;
        const double top = y + mt.noteFont + 6;
        for (int w = 0; w < m_r.warps; ++w) {
            LegendEntry e;
            e.swatch = {x, top, 14, 14};
            e.textPos = {x + 18, top + 11};
            e.fill = paletteColor(m_palette, ColorBy::Warp, w);
            e.text = "warp " + std::to_string(w);
            e.key = static_cast<std::uint32_t>(w);
            l.entries.push_back(std::move(e));
            x += 70;
        }
        l.bounds = {mt.margin, y, x - mt.margin, top + 14 - y};
        m_d.legends.push_back(std::move(l));
        return top + 14;
    }

    // The operand tile, one row per line of memory; returns the panel's right edge.
    double tilePanel(double y) {
        const DiagramMetrics& mt = m_d.metrics;
        const bool rowMajor = m_r.placement.major == banks::TileMajor::Row;
        const auto [rowLetter, colLetter] = lettersOf(m_r.operand);
        const int lines = rowMajor ? m_r.rows : m_r.cols, along = rowMajor ? m_r.cols : m_r.rows;
        const int elementBytes = std::max(1, m_r.elementBits / 8);
        const int perAccess = std::max(1, m_r.accessBytes / elementBytes);
        // Several warps load one element (A along N, B along M): one cell each, side by side.
        std::map<std::pair<int, int>, int> owners;
        for (const tiled_copy::Copy& c : m_r.copies)
            for (const banks::Phase& ph : c.phases)
                for (const banks::RowAccess& a : ph.rows)
                    ++owners[{rowMajor ? a.tileRow : a.tileCol, rowMajor ? a.tileCol : a.tileRow}];
        int most = 1;
        for (const auto& [at, n] : owners)
            most = std::max(most, n);
        // The longest label, "w3#15 b28-31": warp and instruction digits, and two-digit banks.
        const auto digits = [](int v) { return static_cast<int>(std::to_string(std::max(v, 0)).size()); };
        const int chars =
            1 + digits(m_r.warps - 1) + 1 + digits(m_r.perWarp - 1) + 4 + (m_r.accessBytes > 4 ? 3 : 0);
        const double labelWidth = 6.2 * chars + 8;
        const double elementWidth = std::max(6.0, std::ceil(most * labelWidth / perAccess));

        DiagramPanel p;
        p.kind = PanelKind::CopyTile;
        p.operands = OperandSet{m_r.operand};
        p.name = std::string(toString(m_r.operand));
        p.letter = static_cast<char>(rowLetter);
        p.rowLetter = rowMajor ? rowLetter : colLetter;
        p.colLetter = rowMajor ? colLetter : rowLetter;
        p.move = m_r.sharedLoad ? "ld.shared" : m_r.store ? "stmatrix" : "ldmatrix";
        p.accessBytes = m_r.accessBytes;
        p.title = p.name + " in shared memory (" + std::string(rowMajor ? "row" : "col") +
                  "-major): " + std::to_string(m_r.copies.size()) + " " + word() + " instruction" +
                  (m_r.copies.size() == 1 ? "" : "s");
        p.subtitle = std::string("one row per line (") + p.rowLetter + "), " + p.colLetter +
                     " along it; a cell is one " +
                     (m_r.sharedLoad ? "thread's " + std::to_string(m_r.accessBytes) + "-byte vector"
                                     : std::string("16-byte matrix row")) +
                     ", labelled w<warp>#<instruction> b<banks>; red frame: the worst phase";
        p.rows = lines;
        p.cols = along;
        p.cellWidth = elementWidth;
        p.cellHeight = mt.cellHeight;
        p.rowAxis = std::string(1, p.rowLetter);
        p.colAxis = std::string(1, p.colLetter);
        const double x = mt.margin;
        text(x, y + mt.panelTitleFont, p.title, mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start,
             true, m_r.excessive() > 0 ? kConflictColor : kInk);
        text(x, y + mt.panelTitleFont + 16, p.subtitle, mt.noteFont, TextRole::PanelSubtitle);
        const double headerY = y + mt.panelTitleFont + 34;
        p.origin = {x + kRowHeaderWidth, headerY + 6};
        const int span = std::max(perAccess, 8);
        for (int c = 0; c < along; c += span) {
            std::string h = std::string(1, p.colLetter) + std::to_string(c) + "-" +
                            std::to_string(std::min(along, c + span) - 1);
            text(p.origin.x + (c + std::min(span, along - c) / 2.0) * elementWidth, headerY, h, mt.headerFont,
                 TextRole::Header, TextAnchor::Middle);
            p.colHeaders.push_back(std::move(h));
        }
        for (int r = 0; r < lines; ++r) {
            std::string h = std::string(1, p.rowLetter) + std::to_string(r);
            text(p.origin.x - 6, p.origin.y + r * p.cellHeight + p.cellHeight / 2 + mt.headerFont / 2 - 1, h,
                 mt.headerFont, TextRole::RowHeader, TextAnchor::End, false, kInk, true);
            p.rowHeaders.push_back(std::move(h));
        }
        p.bounds = {x, y, kRowHeaderWidth + along * elementWidth, p.origin.y - y + lines * p.cellHeight};
        p.firstCell = static_cast<std::uint32_t>(m_d.cells.size());
        const auto panel = static_cast<std::uint16_t>(m_d.panels.size());
        const std::pair<int, int> worst = worstPhase();
        std::map<std::pair<int, int>, int> placed;
        for (std::size_t ci = 0; ci < m_r.copies.size(); ++ci) {
            const tiled_copy::Copy& copy = m_r.copies[ci];
            for (const banks::Phase& ph : copy.phases)
                for (const banks::RowAccess& a : ph.rows) {
                    const int line = rowMajor ? a.tileRow : a.tileCol,
                              first = rowMajor ? a.tileCol : a.tileRow;
                    const int n = owners[{line, first}], o = placed[{line, first}]++;
                    DiagramCell c = threadCell(a.thread, panel);
                    c.reg = static_cast<std::int16_t>(copy.instruction);
                    c.matrix = static_cast<std::int16_t>(a.matrix);
                    c.element = static_cast<std::int16_t>(m_r.sharedLoad ? -1 : a.row);
                    c.groupID = static_cast<std::int16_t>(ph.index);
                    c.bitLo = static_cast<std::int16_t>(a.wavefront);
                    c.bitHi = static_cast<std::int16_t>(ph.degree);
                    c.row = static_cast<std::int16_t>(line);
                    c.col = static_cast<std::int16_t>(first);
                    c.colLast = static_cast<std::int16_t>(std::min(along, first + perAccess) - 1);
                    c.owners = static_cast<std::int16_t>(n);
                    c.address = a.address;
                    c.conflict = static_cast<int>(ci) == worst.first && ph.index == worst.second;
                    const double w = (c.colLast - c.col + 1) * elementWidth / n;
                    c.rect = {p.origin.x + first * elementWidth + o * w, p.origin.y + line * p.cellHeight, w,
                              p.cellHeight};
                    m_d.cells.push_back(c);
                }
        }
        p.cellCount = static_cast<std::uint32_t>(m_d.cells.size()) - p.firstCell;
        const double right = p.bounds.right();
        m_d.panels.push_back(std::move(p));
        return right;
    }

    // Wavefronts per phase of every instruction.
    void phasePanel(double x, double y) {
        const DiagramMetrics& mt = m_d.metrics;
        int phases = 1;
        for (const tiled_copy::Copy& c : m_r.copies)
            phases = std::max(phases, static_cast<int>(c.phases.size()));
        DiagramPanel p;
        p.kind = PanelKind::CopyPhases;
        p.operands = OperandSet{m_r.operand};
        p.name = "phases";
        p.move = m_r.sharedLoad ? "ld.shared" : m_r.store ? "stmatrix" : "ldmatrix";
        p.accessBytes = m_r.accessBytes;
        p.title = "Wavefronts per phase";
        p.subtitle = "ideal 1; red: a bank conflict";
        p.rows = static_cast<int>(m_r.copies.size());
        p.cols = phases;
        p.cellWidth = kPhaseWidth;
        p.cellHeight = mt.cellHeight;
        p.rowAxis = "instruction";
        p.colAxis = "phase";
        text(x, y + mt.panelTitleFont, p.title, mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start,
             true, m_r.excessive() > 0 ? kConflictColor : kInk);
        text(x, y + mt.panelTitleFont + 16, p.subtitle, mt.noteFont, TextRole::PanelSubtitle);
        const double headerY = y + mt.panelTitleFont + 34;
        p.origin = {x + kPhaseHeaderWidth, headerY + 6};
        for (int c = 0; c < phases; ++c) {
            std::string h = "p" + std::to_string(c);
            text(p.origin.x + (c + 0.5) * kPhaseWidth, headerY, h, mt.headerFont, TextRole::Header,
                 TextAnchor::Middle);
            p.colHeaders.push_back(std::move(h));
        }
        p.firstCell = static_cast<std::uint32_t>(m_d.cells.size());
        const auto panel = static_cast<std::uint16_t>(m_d.panels.size());
        for (std::size_t r = 0; r < m_r.copies.size(); ++r) {
            const tiled_copy::Copy& copy = m_r.copies[r];
            std::string h = "w" + std::to_string(copy.warp) + " #" + std::to_string(copy.instruction);
            text(p.origin.x - 6,
                 p.origin.y + static_cast<double>(r) * p.cellHeight + p.cellHeight / 2 + mt.headerFont / 2 -
                     1,
                 h, mt.headerFont, TextRole::RowHeader, TextAnchor::End, false, kInk, true);
            p.rowHeaders.push_back(std::move(h));
            for (const banks::Phase& ph : copy.phases) {
                DiagramCell c = threadCell(ph.rows.front().thread, panel);
                c.fill = ph.degree > 1 ? kConflicted : kCalm;
                c.text = kInk;
                c.colorKey = ph.degree > 1 ? kConflictedKey : kCalmKey; // a backend fills by key
                c.matrix = static_cast<std::int16_t>(ph.rows.back().thread);
                c.reg = static_cast<std::int16_t>(copy.instruction);
                c.groupID = static_cast<std::int16_t>(ph.index);
                c.bitHi = static_cast<std::int16_t>(ph.degree);
                c.row = static_cast<std::int16_t>(r);
                c.col = c.colLast = static_cast<std::int16_t>(ph.index);
                c.conflict = ph.degree > 1;
                c.rect = p.cellRect(c.row, c.col);
                m_d.cells.push_back(c);
            }
        }
        p.bounds = {x, y, kPhaseHeaderWidth + phases * kPhaseWidth, p.origin.y - y + p.rows * p.cellHeight};
        p.cellCount = static_cast<std::uint32_t>(m_d.cells.size()) - p.firstCell;
        m_d.panels.push_back(std::move(p));
    }

    DiagramCell threadCell(int thread, std::uint16_t panel) const {
        DiagramCell c;
        const int warp = thread / kWarpSize;
        c.fill = paletteColor(m_palette, ColorBy::Warp, warp);
        c.text = labelColorOn(c.fill);
        c.colorKey = static_cast<std::uint32_t>(warp);
        c.panel = panel;
        c.thread = static_cast<std::int16_t>(thread);
        c.lane = static_cast<std::int16_t>(thread % kWarpSize);
        c.warp = static_cast<std::int16_t>(warp);
        c.groupID = static_cast<std::int16_t>(thread % kWarpSize / 4);
        return c;
    }

    // Grid lines (a line per row, a boundary per 16 bytes), then the conflict frames over them.
    void frames() {
        for (const DiagramPanel& p : m_d.panels) {
            const RectF g = p.gridRect();
            for (int r = 0; r <= p.rows; ++r)
                line(g.x, g.y + r * p.cellHeight, g.right(), g.y + r * p.cellHeight, kGridLine, 1);
            const int step = p.kind == PanelKind::CopyTile ? 8 : 1;
            for (int c = 0; c <= p.cols; c += step)
                line(g.x + c * p.cellWidth, g.y, g.x + c * p.cellWidth, g.bottom(), kGridLine, 1);
            line(g.right(), g.y, g.right(), g.bottom(), kGridLine, 1);
        }
        chunkgrid::frameConflicts(m_d);
    }

    // Hit-test grids (panel position -> cells) and the thread index.
    void index() {
        chunkgrid::indexGrids(m_d);
        rebuildHoverIndex(m_d);
    }

    void text(double x, double y, std::string s, double size, TextRole role,
              TextAnchor anchor = TextAnchor::Start, bool bold = false, Rgb color = kInk, bool mono = false) {
        m_d.texts.push_back({{x, y}, std::move(s), size, bold, mono, anchor, role, color});
    }
    void line(double x0, double y0, double x1, double y1, Rgb color, double width) {
        m_d.lines.push_back({{x0, y0}, {x1, y1}, color, width});
    }

    const tiled_copy::Result& m_r;
    Palette m_palette;
    Diagram m_d;
};

} // namespace

Diagram buildTiledCopyDiagram(const tiled_copy::Result& copy, Palette palette) {
    return TiledCopyBuilder(copy, palette).build();
}

} // namespace lanemap
