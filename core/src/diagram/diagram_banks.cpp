// The shared-memory picture of one ldmatrix / stmatrix placement (diagram.hpp buildBanksDiagram): the
// tile's 128-byte lines with every 16-byte chunk coloured by the thread that supplies its row address, and
// the bank table of every phase with the chunks in a bank conflict framed. Built from banks::analyze, so
// the picture and `lanemap-cli banks` cannot disagree.

#include "diagram/chunk_grid.hpp"
#include "lanemap/banks.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/matrix_move.hpp"

#include <algorithm>
#include <cctype>
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
    BanksBuilder(const Variant& move, const banks::Analysis& analysis, const banks::FeedCheck* feed,
                 Palette palette)
        : m_move(move), m_a(analysis), m_feed(feed), m_palette(palette) {}

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
        if (m_feed)
            m_d.caption.push_back(feedVerdict());
        double y = mt.margin + mt.titleFont;
        text(mt.margin, y, m_d.title, mt.titleFont, TextRole::Title, TextAnchor::Start, true);
        y += 6;
        for (const std::string& line : m_d.caption) {
            y += mt.noteFont + 6;
            const bool bad = (line.rfind("L1", 0) == 0 && m_a.excessive() > 0) ||
                             (m_feed && m_feed->mismatches > 0 && &line == &m_d.caption.back());
            text(mt.margin, y, line, mt.noteFont, TextRole::Caption, TextAnchor::Start, false,
                 bad ? kConflictColor : kMuted);
        }
        y += 18;
        if (m_feed) {
            y = addressPanel(y) + mt.gap / 2;
            y = fragmentPanel(true, y) + mt.gap / 2;
            y = fragmentPanel(false, y) + mt.gap / 2;
        }
        y = memoryPanel(y);
        for (const banks::Phase& ph : m_a.phases)
            y = phasePanel(ph, y + mt.gap / 2);
        m_d.width = mt.margin * 2 + kHeaderWidth + kBanks * kBankWidth;
        for (const DiagramPanel& p : m_d.panels)
            m_d.width = std::max(m_d.width, p.bounds.right() + mt.margin);
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

    // A cell of `thread` in `panel`, coloured by its lane as every panel of the picture is.
    DiagramCell threadCell(int thread, std::uint16_t panel) const {
        DiagramCell c;
        c.fill = paletteColor(m_palette, ColorBy::Lane, thread);
        c.text = labelColorOn(c.fill);
        c.colorKey = static_cast<std::uint32_t>(thread);
        c.panel = panel;
        c.thread = c.lane = static_cast<std::int16_t>(thread);
        return c;
    }

    DiagramCell chunk(const banks::Phase& ph, const banks::RowAccess& r, std::uint16_t panel, int row) const {
        DiagramCell c = threadCell(r.thread, panel);
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

    // A memory panel: 32 bank columns under one header per 16-byte chunk (four banks).
    DiagramPanel& newPanel(std::string name, std::string title, std::string subtitle, int rows, double y) {
        std::vector<std::string> headers;
        for (int g = 0; g < kBanks / kBanksPerChunk; ++g)
            headers.push_back("banks " + std::to_string(g * kBanksPerChunk) + "-" +
                              std::to_string(g * kBanksPerChunk + 3));
        const bool alarming =
            title.find("conflict") != std::string::npos && title.find("conflict-free") == std::string::npos;
        return gridPanel(PanelKind::Chunks, {}, std::move(name), 'm', std::move(title), std::move(subtitle),
                         rows, kBanks, kBankWidth, std::move(headers), y, alarming, kBanksPerChunk);
    }

    // A grid panel: title, subtitle, one column header per `headerSpan` columns.
    DiagramPanel& gridPanel(PanelKind kind, OperandSet operands, std::string name, char letter,
                            std::string title, std::string subtitle, int rows, int cols, double cellWidth,
                            std::vector<std::string> colHeaders, double y, bool alarming,
                            int headerSpan = 1) {
        const DiagramMetrics& mt = m_d.metrics;
        DiagramPanel p;
        p.kind = kind;
        p.operands = operands;
        p.name = std::move(name);
        p.letter = letter;
        p.title = std::move(title);
        p.subtitle = std::move(subtitle);
        p.rows = rows;
        p.cols = cols;
        p.cellWidth = cellWidth;
        p.cellHeight = mt.cellHeight;
        const double x = mt.margin;
        text(x, y + mt.panelTitleFont, p.title, mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start,
             true, alarming ? kConflictColor : kInk);
        text(x, y + mt.panelTitleFont + 16, p.subtitle, mt.noteFont, TextRole::PanelSubtitle);
        const double headerY = y + mt.panelTitleFont + 34;
        p.origin = {x + kHeaderWidth, headerY + 6};
        for (std::size_t h = 0; h < colHeaders.size(); ++h)
            text(p.origin.x + (static_cast<double>(h) + 0.5) * headerSpan * cellWidth, headerY, colHeaders[h],
                 mt.headerFont, TextRole::Header, TextAnchor::Middle);
        p.colHeaders = std::move(colHeaders);
        p.bounds = {x, y, kHeaderWidth + cols * cellWidth, p.origin.y - y + rows * p.cellHeight};
        p.firstCell = static_cast<std::uint32_t>(m_d.cells.size());
        m_d.panels.push_back(std::move(p));
        return m_d.panels.back();
    }

    void rowHeader(DiagramPanel& p, int row, std::string h) {
        text(p.origin.x - 8,
             p.origin.y + row * p.cellHeight + p.cellHeight / 2 + m_d.metrics.headerFont / 2 - 1, h,
             m_d.metrics.headerFont, TextRole::RowHeader, TextAnchor::End, false, kInk, true);
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

    std::string feedVerdict() const {
        const std::string head = "feeds " + m_feed->consumer + ": ";
        if (m_feed->mismatches == 0)
            return head + "every register slot holds the element the fragment wants (" +
                   std::to_string(m_feed->cells.size()) + " slots)";
        return head + "MISMATCH in " + std::to_string(m_feed->mismatches) + " of " +
               std::to_string(m_feed->cells.size()) + " register slots (framed in red)";
    }

    std::string operandName() const { return std::string(toString(m_feed->operand)); }

    // Which tile element each thread must point at: one row per phase, one column per thread of it.
    double addressPanel(double y) {
        const std::vector<banks::RowAccess>& rows = m_feed->addresses;
        const int perRow = 8;
        const int nRows = (static_cast<int>(rows.size()) + perRow - 1) / perRow;
        std::vector<std::string> headers;
        for (int c = 0; c < perRow; ++c)
            headers.push_back("+" + std::to_string(c));
        const bool load = matrixMoveOf(m_move)->op == MoveOp::Ldmatrix;
        DiagramPanel& p = gridPanel(
            PanelKind::Addresses, m_feed->operand, operandName(), 'a',
            "Addresses: which element of " + operandName() + " each thread points at",
            std::string("thread t supplies the address of the first element of the 16-byte row it ") +
                (load ? "loads" : "stores") + " (its chunk in the memory below)",
            nRows, perRow, 84, std::move(headers), y, false);
        const auto panelIndex = static_cast<std::uint16_t>(m_d.panels.size() - 1);
        for (int r = 0; r < nRows; ++r)
            rowHeader(p, r, "T" + std::to_string(r * perRow) + "-" + std::to_string(r * perRow + perRow - 1));
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const banks::RowAccess& a = rows[i];
            DiagramCell c = threadCell(a.thread, panelIndex);
            c.groupID = static_cast<std::int16_t>(a.thread >> 2);
            c.element = static_cast<std::int16_t>(a.tileRow);
            c.bitLo = c.bitHi = static_cast<std::int16_t>(a.tileCol);
            c.matrix = static_cast<std::int16_t>(a.matrix);
            c.reg = static_cast<std::int16_t>(a.row);
            c.address = a.address;
            c.row = static_cast<std::int16_t>(i / perRow);
            c.col = c.colLast = static_cast<std::int16_t>(i % perRow);
            c.rect = p.cellRect(c.row, c.col);
            m_d.cells.push_back(c);
        }
        p.cellCount = static_cast<std::uint32_t>(m_d.cells.size()) - p.firstCell;
        return p.bounds.bottom();
    }

    // The operand grid as the move puts register slots into it (`loaded`) or as the consumer's fragment
    // wants them; a slot whose element differs is framed in both.
    double fragmentPanel(bool loaded, double y) {
        const banks::FeedCheck& f = *m_feed;
        const bool load = matrixMoveOf(m_move)->op == MoveOp::Ldmatrix;
        const std::string op = operandName();
        const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(op[0])));
        const std::size_t colon = f.consumer.rfind(':');
        const std::string consumer = f.consumer.substr(0, colon);
        std::string title = loaded ? op + " as " + m_move.spec + (load ? " loads it" : " stores it")
                                   : op + " as " + consumer + (load ? " wants it" : " holds it");
        if (f.mismatches > 0)
            title += ": " + std::to_string(f.mismatches) + " slots differ";
        const std::string subtitle = loaded ? "each element labelled with the register slot it " +
                                                  std::string(load ? "lands in" : "comes from") +
                                                  " (thread:element); colour: the thread"
                                            : "the PTX fragment of " + op +
                                                  " (thread:element); red frame: the move puts another "
                                                  "element in that slot";
        std::vector<std::string> headers;
        for (int c = 0; c < f.cols; ++c)
            headers.push_back(std::to_string(c));
        DiagramPanel& p = gridPanel(PanelKind::Operand, f.operand, op, letter, std::move(title), subtitle,
                                    f.rows, f.cols, 48, std::move(headers), y, f.mismatches > 0);
        const auto panelIndex = static_cast<std::uint16_t>(m_d.panels.size() - 1);
        for (int r = 0; r < f.rows; ++r)
            rowHeader(p, r, std::to_string(r));
        for (const banks::FeedCell& fc : f.cells) {
            DiagramCell c = threadCell(fc.thread, panelIndex);
            c.groupID = static_cast<std::int16_t>(fc.thread >> 2);
            c.element = static_cast<std::int16_t>(fc.index);
            c.reg = static_cast<std::int16_t>(fc.reg);
            c.bitLo = static_cast<std::int16_t>(fc.bitLo);
            c.bitHi = static_cast<std::int16_t>(fc.bitHi);
            c.row = static_cast<std::int16_t>(loaded ? fc.loadedRow : fc.wantedRow);
            c.col = c.colLast = static_cast<std::int16_t>(loaded ? fc.loadedCol : fc.wantedCol);
            c.conflict = !fc.matches();
            c.rect = p.cellRect(c.row, c.col);
            m_d.cells.push_back(c);
        }
        p.cellCount = static_cast<std::uint32_t>(m_d.cells.size()) - p.firstCell;
        return p.bounds.bottom();
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
            if (p.kind != PanelKind::Chunks) {
                for (int c = 0; c <= p.cols; ++c)
                    line(g.x + c * p.cellWidth, g.y, g.x + c * p.cellWidth, g.bottom(), kGridLine,
                         p.kind == PanelKind::Operand && c % 8 == 0 ? 1.5 : 1);
                continue;
            }
            for (int b = 0; b <= kBanks; ++b) {
                const bool chunkEdge = b % kBanksPerChunk == 0;
                line(g.x + b * p.cellWidth, g.y, g.x + b * p.cellWidth, chunkEdge ? g.bottom() : g.y + 4,
                     kGridLine, chunkEdge ? 1.5 : 1);
            }
        }
        chunkgrid::frameConflicts(m_d);
    }

    // Hit-test grids (panel position -> cells) and the thread index (thread -> cells).
    void index() {
        chunkgrid::indexGrids(m_d);
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
    const banks::FeedCheck* m_feed;
    Palette m_palette;
    Diagram m_d;
};

} // namespace

Diagram buildBanksDiagram(const Variant& move, const banks::Analysis& analysis, Palette palette) {
    return BanksBuilder(move, analysis, nullptr, palette).build();
}

Diagram buildBanksDiagram(const Variant& move, const banks::Analysis& analysis, const banks::FeedCheck& feed,
                          Palette palette) {
    return BanksBuilder(move, analysis, &feed, palette).build();
}

} // namespace lanemap

namespace lanemap::chunkgrid {

void frameConflicts(Diagram& d) {
    const auto line = [&](double x0, double y0, double x1, double y1) {
        d.lines.push_back({{x0, y0}, {x1, y1}, kConflictColor, 2.5});
    };
    for (const DiagramCell& c : d.cells)
        if (c.conflict) {
            const RectF r = c.rect;
            line(r.x + 1, r.y + 1, r.right() - 1, r.y + 1);
            line(r.x + 1, r.bottom() - 1, r.right() - 1, r.bottom() - 1);
            line(r.x + 1, r.y + 1, r.x + 1, r.bottom() - 1);
            line(r.right() - 1, r.y + 1, r.right() - 1, r.bottom() - 1);
        }
}

void indexGrids(Diagram& d) {
    for (DiagramPanel& p : d.panels) {
        std::vector<std::vector<std::uint32_t>> at(static_cast<std::size_t>(p.rows * p.cols));
        for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i) {
            const DiagramCell& c = d.cells[i];
            for (int col = c.col; col <= c.colLast; ++col)
                at[static_cast<std::size_t>(c.row * p.cols + col)].push_back(i);
        }
        p.gridOffsets.assign(1, 0);
        for (const auto& cells : at) {
            p.gridCells.insert(p.gridCells.end(), cells.begin(), cells.end());
            p.gridOffsets.push_back(static_cast<std::uint32_t>(p.gridCells.size()));
        }
    }
}

} // namespace lanemap::chunkgrid
