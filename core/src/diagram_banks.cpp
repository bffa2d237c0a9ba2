// The shared-memory picture of one ldmatrix / stmatrix placement (diagram.hpp buildBanksDiagram): the
// tile's 128-byte lines with every 16-byte chunk coloured by the thread that supplies its row address, and
// the bank table of every phase with the chunks in a bank conflict framed. Built from banks::analyze, so
// the picture and `lanemap-cli banks` cannot disagree.

#include "lanemap/banks.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/matrix_move.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lanemap {

namespace {

constexpr int kBanks = 32;
constexpr int kBanksPerChunk = 4;
constexpr int kLineBytes = 128; // 32 banks x 4 bytes
constexpr double kBankWidth = 22;
constexpr double kHeaderWidth = 92; // "wavefront 0" / "0x0000f80"
constexpr Rgb kInk{0x22, 0x22, 0x22};
constexpr Rgb kMuted{0x66, 0x66, 0x66};
constexpr Rgb kGridLine{0x99, 0x99, 0x99};

std::string hexAddress(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%04x", v);
    return buf;
}

class BanksBuilder {
  public:
    BanksBuilder(const Variant& move, const banks::Analysis& analysis, Palette palette)
        : m_move(move), m_a(analysis), m_palette(palette) {}

    Diagram build() {
        const DiagramMetrics& mt = m_d.metrics;
        m_d.title = m_move.spec + "  shared memory & banks";
        m_d.spec = m_move.spec;
        m_d.ptx = m_move.ptx;
        m_d.section = std::string(m_move.section);
        m_d.anchor = std::string(m_move.anchor);
        m_d.scope = Scope::Warp;
        m_d.threads = 32;
        m_d.colorBy = ColorBy::Lane;
        m_d.palette = m_palette;
        m_d.caption = {
            "placement: " + banks::describe(m_a.placement),
            "32 banks of 4 bytes; a 16-byte chunk at address a covers banks 4k..4k+3, k = (a >> 4) & 7; "
            "each phase serves 8 threads' rows",
            "L1 Wavefronts Shared " + std::to_string(m_a.wavefronts) + ", Ideal " +
                std::to_string(m_a.idealWavefronts) + ", L1 Wavefronts Shared Excessive " +
                std::to_string(m_a.excessive()),
        };
        double y = mt.margin + mt.titleFont;
        text(mt.margin, y, m_d.title, mt.titleFont, TextRole::Title, TextAnchor::Start, true);
        y += 6;
        for (const std::string& line : m_d.caption) {
            y += mt.noteFont + 6;
            text(mt.margin, y, line, mt.noteFont, TextRole::Caption, TextAnchor::Start, false,
                 line.rfind("L1", 0) == 0 && m_a.excessive() > 0 ? kConflictColor : kMuted);
        }
        y += 18;
        y = memoryPanel(y);
        for (const banks::Phase& ph : m_a.phases)
            y = phasePanel(ph, y + mt.gap / 2);
        m_d.width = mt.margin * 2 + kHeaderWidth + kBanks * kBankWidth;
        m_d.height = y + mt.margin;
        frames();
        index();
        return std::move(m_d);
    }

  private:
    // Whether row access `r` of phase `ph` shares its bank group with a different chunk of the phase.
    static bool conflicting(const banks::Phase& ph, const banks::RowAccess& r) {
        for (const banks::RowAccess& o : ph.rows)
            if (o.bankGroup == r.bankGroup && o.address / 16 != r.address / 16)
                return true;
        return false;
    }

    DiagramCell chunk(const banks::Phase& ph, const banks::RowAccess& r, std::uint16_t panel, int row) const {
        DiagramCell c;
        c.fill = paletteColor(m_palette, ColorBy::Lane, r.thread);
        c.text = labelColorOn(c.fill);
        c.colorKey = static_cast<std::uint32_t>(r.thread);
        c.panel = panel;
        c.thread = c.lane = static_cast<std::int16_t>(r.thread);
        c.groupID = static_cast<std::int16_t>(ph.index);
        c.element = static_cast<std::int16_t>(r.row);
        c.matrix = static_cast<std::int16_t>(r.matrix);
        c.reg = static_cast<std::int16_t>(r.bankGroup);
        c.bitLo = static_cast<std::int16_t>(r.wavefront);
        c.bitHi = static_cast<std::int16_t>(ph.degree);
        c.row = static_cast<std::int16_t>(row);
        c.conflict = conflicting(ph, r);
        return c;
    }

    DiagramPanel& newPanel(std::string operand, std::string title, std::string subtitle, int rows, double y) {
        const DiagramMetrics& mt = m_d.metrics;
        DiagramPanel p;
        p.kind = PanelKind::Chunks;
        p.operand = std::move(operand);
        p.letter = 'm';
        p.title = std::move(title);
        p.subtitle = std::move(subtitle);
        p.rows = rows;
        p.cols = kBanks;
        p.cellWidth = kBankWidth;
        p.cellHeight = mt.cellHeight;
        const double x = mt.margin;
        text(x, y + mt.panelTitleFont, p.title, mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start,
             true,
             p.title.find("conflict") != std::string::npos &&
                     p.title.find("conflict-free") == std::string::npos
                 ? kConflictColor
                 : kInk);
        text(x, y + mt.panelTitleFont + 16, p.subtitle, mt.noteFont, TextRole::PanelSubtitle);
        const double headerY = y + mt.panelTitleFont + 34;
        p.origin = {x + kHeaderWidth, headerY + 6};
        for (int g = 0; g < kBanks / kBanksPerChunk; ++g) {
            const std::string h =
                "banks " + std::to_string(g * kBanksPerChunk) + "-" + std::to_string(g * kBanksPerChunk + 3);
            p.colHeaders.push_back(h);
            text(p.origin.x + (g + 0.5) * kBanksPerChunk * kBankWidth, headerY, h, mt.headerFont,
                 TextRole::Header, TextAnchor::Middle);
        }
        p.bounds = {x, y, kHeaderWidth + kBanks * kBankWidth, p.origin.y - y + rows * p.cellHeight};
        p.firstCell = static_cast<std::uint32_t>(m_d.cells.size());
        m_d.panels.push_back(std::move(p));
        return m_d.panels.back();
    }

    void rowHeader(DiagramPanel& p, int row, std::string h) {
        text(p.origin.x - 8,
             p.origin.y + row * p.cellHeight + p.cellHeight / 2 + m_d.metrics.headerFont / 2 - 1, h,
             m_d.metrics.headerFont, TextRole::Header, TextAnchor::End, false, kInk, true);
        p.rowHeaders.push_back(std::move(h));
    }

    // Places cells sharing a grid position side by side (a broadcast: one chunk, several threads).
    void place(DiagramPanel& p, std::vector<std::pair<int, DiagramCell>> cells) {
        std::map<std::pair<int, int>, std::vector<DiagramCell>> at;
        for (auto& [col, c] : cells)
            at[{c.row, col}].push_back(c);
        for (auto& [pos, owners] : at) {
            const double w = kBanksPerChunk * p.cellWidth / static_cast<double>(owners.size());
            for (std::size_t o = 0; o < owners.size(); ++o) {
                DiagramCell c = owners[o];
                c.col = static_cast<std::int16_t>(pos.second);
                c.colLast = static_cast<std::int16_t>(pos.second + kBanksPerChunk - 1);
                c.owners = static_cast<std::int16_t>(owners.size());
                c.rect = {p.origin.x + pos.second * p.cellWidth + static_cast<double>(o) * w,
                          p.origin.y + pos.first * p.cellHeight, w, p.cellHeight};
                m_d.cells.push_back(c);
            }
        }
        p.cellCount = static_cast<std::uint32_t>(m_d.cells.size()) - p.firstCell;
    }

    double memoryPanel(double y) {
        std::set<std::uint32_t> lines; // 128-byte lines touched, in address order
        for (const banks::Phase& ph : m_a.phases)
            for (const banks::RowAccess& r : ph.rows)
                lines.insert(r.address / kLineBytes);
        const std::vector<std::uint32_t> order(lines.begin(), lines.end());
        const std::string subtitle =
            std::to_string(order.size()) +
            " lines of 128 bytes (lines the tile does not touch are left out); colour: "
            "the thread supplying the row address";
        const auto panelIndex = static_cast<std::uint16_t>(m_d.panels.size());
        DiagramPanel& p = newPanel("smem", "Shared memory", subtitle, static_cast<int>(order.size()), y);
        for (std::size_t i = 0; i < order.size(); ++i)
            rowHeader(p, static_cast<int>(i), hexAddress(order[i] * kLineBytes));
        std::vector<std::pair<int, DiagramCell>> cells;
        for (const banks::Phase& ph : m_a.phases)
            for (const banks::RowAccess& r : ph.rows) {
                const auto row =
                    std::lower_bound(order.begin(), order.end(), r.address / kLineBytes) - order.begin();
                const int col = static_cast<int>(r.address % kLineBytes) / 4;
                cells.emplace_back(col, chunk(ph, r, panelIndex, static_cast<int>(row)));
            }
        place(p, std::move(cells));
        return p.bounds.bottom();
    }

    double phasePanel(const banks::Phase& ph, double y) {
        const std::string title =
            "Phase " + std::to_string(ph.index) + ": threads " + std::to_string(ph.rows.front().thread) +
            "-" + std::to_string(ph.rows.back().thread) + ", " + std::to_string(ph.degree) + " wavefront" +
            (ph.degree == 1 ? "" : "s") + " (ideal 1)" +
            (ph.degree > 1 ? ", " + std::to_string(ph.degree) + "-way bank conflict" : ", conflict-free");
        const auto panelIndex = static_cast<std::uint16_t>(m_d.panels.size());
        DiagramPanel& p = newPanel("phase " + std::to_string(ph.index), title,
                                   "one row per wavefront; a chunk framed in red waits for another chunk of "
                                   "its bank group",
                                   ph.degree, y);
        for (int w = 0; w < ph.degree; ++w)
            rowHeader(p, w, "wavefront " + std::to_string(w));
        std::vector<std::pair<int, DiagramCell>> cells;
        for (const banks::RowAccess& r : ph.rows)
            cells.emplace_back(r.bankGroup * kBanksPerChunk, chunk(ph, r, panelIndex, r.wavefront));
        place(p, std::move(cells));
        return p.bounds.bottom();
    }

    // Grid frames, bank ticks and chunk boundaries; then the conflict frames over them.
    void frames() {
        for (const DiagramPanel& p : m_d.panels) {
            const RectF g = p.gridRect();
            for (int r = 0; r <= p.rows; ++r)
                line(g.x, g.y + r * p.cellHeight, g.right(), g.y + r * p.cellHeight, kGridLine, 1);
            for (int b = 0; b <= kBanks; ++b) {
                const bool chunkEdge = b % kBanksPerChunk == 0;
                line(g.x + b * p.cellWidth, g.y, g.x + b * p.cellWidth, chunkEdge ? g.bottom() : g.y + 4,
                     kGridLine, chunkEdge ? 1.5 : 1);
            }
        }
        for (const DiagramCell& c : m_d.cells)
            if (c.conflict) {
                const RectF& r = c.rect;
                line(r.x + 1, r.y + 1, r.right() - 1, r.y + 1, kConflictColor, 2.5);
                line(r.x + 1, r.bottom() - 1, r.right() - 1, r.bottom() - 1, kConflictColor, 2.5);
                line(r.x + 1, r.y + 1, r.x + 1, r.bottom() - 1, kConflictColor, 2.5);
                line(r.right() - 1, r.y + 1, r.right() - 1, r.bottom() - 1, kConflictColor, 2.5);
            }
    }

    // Hit-test grids (panel position -> cells) and the thread index (thread -> cells).
    void index() {
        for (DiagramPanel& p : m_d.panels) {
            std::vector<std::vector<std::uint32_t>> at(static_cast<std::size_t>(p.rows * p.cols));
            for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i) {
                const DiagramCell& c = m_d.cells[i];
                for (int col = c.col; col <= c.colLast; ++col)
                    at[static_cast<std::size_t>(c.row * p.cols + col)].push_back(i);
            }
            p.gridOffsets.assign(1, 0);
            for (const auto& cells : at) {
                p.gridCells.insert(p.gridCells.end(), cells.begin(), cells.end());
                p.gridOffsets.push_back(static_cast<std::uint32_t>(p.gridCells.size()));
            }
        }
        std::vector<std::vector<std::uint32_t>> of(static_cast<std::size_t>(m_d.threads));
        for (std::uint32_t i = 0; i < m_d.cells.size(); ++i)
            of[static_cast<std::size_t>(m_d.cells[i].thread)].push_back(i);
        m_d.threadOffsets.assign(1, 0);
        for (const auto& cells : of) {
            m_d.threadCells.insert(m_d.threadCells.end(), cells.begin(), cells.end());
            m_d.threadOffsets.push_back(static_cast<std::uint32_t>(m_d.threadCells.size()));
        }
    }

    void text(double x, double y, std::string s, double size, TextRole role,
              TextAnchor anchor = TextAnchor::Start, bool bold = false, Rgb color = kInk, bool mono = false) {
        m_d.texts.push_back({{x, y}, std::move(s), size, bold, mono, anchor, role, color});
    }
    void line(double x0, double y0, double x1, double y1, Rgb color, double width) {
        m_d.lines.push_back({{x0, y0}, {x1, y1}, color, width});
    }

    const Variant& m_move;
    const banks::Analysis& m_a;
    Palette m_palette;
    Diagram m_d;
};

} // namespace

Diagram buildBanksDiagram(const Variant& move, const banks::Analysis& analysis, Palette palette) {
    return BanksBuilder(move, analysis, palette).build();
}

} // namespace lanemap
