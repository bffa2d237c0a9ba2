// Shared-memory tiles as a Diagram: the element grid with byte addresses and the memory map of 16-byte
// chunks (diagram.hpp says what each shows). The arithmetic is smem.hpp's, the same the CLI prints and the
// probe places operands with; this file only lays it out.
#include "diagram/lane_colors.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/placement.hpp"
#include "lanemap/smem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace lanemap {

namespace {

constexpr Rgb kInk{0x22, 0x22, 0x22};
constexpr Rgb kMuted{0x55, 0x55, 0x55};
constexpr Rgb kGridLine{0x44, 0x44, 0x44};
constexpr int kChunksPerLine = 8; // 128-byte line = 32 banks of 4 bytes = 8 chunks of 16 bytes

std::string hexAddress(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", v);
    return buf;
}

void addText(Diagram& d, double x, double y, std::string s, double size, TextRole role,
             TextAnchor anchor = TextAnchor::Start, bool bold = false, Rgb color = kInk, bool mono = false) {
    d.texts.push_back({{x, y}, std::move(s), size, bold, mono, anchor, role, color});
}

double labelWidth(const Diagram& d, std::size_t chars) {
    return static_cast<double>(chars) * d.metrics.charWidth + 8;
}

// Approximate width of a proportional text (what the operand builder assumes too).
double textWidth(const std::string& s, double font) {
    return static_cast<double>(s.size()) * font * 0.55;
}

void frame(Diagram& d, const RectF& r) {
    const PointF tl{r.x, r.y}, tr{r.right(), r.y}, bl{r.x, r.bottom()}, br{r.right(), r.bottom()};
    for (const auto& [a, b] : {std::pair{tl, tr}, std::pair{tr, br}, std::pair{br, bl}, std::pair{bl, tl}})
        d.lines.push_back({a, b, kGridLine, 1});
}

// Grid position -> cells (CSR) for the cells [first, end) of `panel`.
void indexGrid(Diagram& d, DiagramPanel& p) {
    p.gridOffsets.assign(static_cast<std::size_t>(p.rows * p.cols) + 1, 0);
    for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i) {
        const DiagramCell& c = d.cells[i];
        ++p.gridOffsets[static_cast<std::size_t>(c.row * p.cols + c.col) + 1];
    }
    for (std::size_t i = 1; i < p.gridOffsets.size(); ++i)
        p.gridOffsets[i] += p.gridOffsets[i - 1];
    p.gridCells.resize(p.cellCount);
    std::vector<std::uint32_t> fill(p.gridOffsets.begin(), p.gridOffsets.end() - 1);
    for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i) {
        const DiagramCell& c = d.cells[i];
        p.gridCells[fill[static_cast<std::size_t>(c.row * p.cols + c.col)]++] = i;
    }
}

// "8..15": the elements grid line `i` covers when each covers `per` of them.
std::string elementRange(int i, int per) {
    return per == 1 ? std::to_string(i) : std::to_string(i * per) + ".." + std::to_string(i * per + per - 1);
}

// Column headers: every column when the numbers fit, else every 2nd, 4th, ...
void columnHeaders(Diagram& d, DiagramPanel& p) {
    const DiagramMetrics& mt = d.metrics;
    const double headerW = labelWidth(d, elementRange(p.cols - 1, p.colElements).size()) - 4;
    int every = 1;
    while (every * p.cellWidth < headerW)
        every *= 2;
    p.colHeaders.resize(static_cast<std::size_t>(p.cols));
    for (int c = 0; c < p.cols; ++c) {
        p.colHeaders[static_cast<std::size_t>(c)] = elementRange(c, p.colElements);
        if (c % every == 0)
            addText(d, p.origin.x + (c + 0.5) * p.cellWidth, p.origin.y - 5,
                    p.colHeaders[static_cast<std::size_t>(c)], mt.headerFont, TextRole::Header,
                    TextAnchor::Middle, false, kMuted);
    }
}

void rowHeaders(Diagram& d, DiagramPanel& p, const std::vector<std::string>& names) {
    const DiagramMetrics& mt = d.metrics;
    p.rowHeaders = names;
    for (int r = 0; r < p.rows; ++r)
        addText(d, p.origin.x - 5, p.origin.y + (r + 0.5) * p.cellHeight + mt.headerFont * 0.35,
                names[static_cast<std::size_t>(r)], mt.headerFont, TextRole::RowHeader, TextAnchor::End,
                false, kMuted, true);
}

// A panel's title and subtitle lines; returns the y of the first header baseline's top.
double panelHead(Diagram& d, DiagramPanel& p, double x, double y, const std::vector<std::string>& subtitle) {
    const DiagramMetrics& mt = d.metrics;
    addText(d, x, y + mt.panelTitleFont, p.title, mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start,
            true);
    double ly = y + mt.panelTitleFont + 6 + mt.noteFont;
    for (const std::string& line : subtitle) {
        addText(d, x, ly, line, mt.noteFont, TextRole::PanelSubtitle, TextAnchor::Start, false, kMuted);
        ly += mt.noteFont + 4;
    }
    return ly + 6;
}

void grow(Diagram& d, const RectF& r) {
    d.width = std::max(d.width, std::ceil(r.right() + d.metrics.margin));
    d.height = std::max(d.height, std::ceil(r.bottom() + d.metrics.margin));
}

// Closes a grid panel: its cells indexed and framed, its bounds, and where the memory map goes (right of a
// narrow grid, under a wide one).
void closeGridPanel(Diagram& d, DiagramPanel p, double x, double ty, double rowHeader,
                    const std::vector<std::string>& subtitle, double& mapX, double& mapY) {
    const DiagramMetrics& mt = d.metrics;
    p.cellCount = static_cast<std::uint32_t>(d.cells.size()) - p.firstCell;
    indexGrid(d, p);
    frame(d, p.gridRect());
    double w = std::max(rowHeader + p.cols * p.cellWidth, textWidth(p.title, mt.panelTitleFont));
    for (const std::string& line : subtitle)
        w = std::max(w, textWidth(line, mt.noteFont));
    p.bounds = {x, ty, w, p.origin.y + p.rows * p.cellHeight - ty};
    grow(d, p.bounds);
    if (p.bounds.w < 1000) {
        mapX = p.bounds.right() + mt.gap;
        mapY = ty;
    } else {
        mapX = x;
        mapY = p.bounds.bottom() + mt.gap;
    }
    d.panels.push_back(std::move(p));
}

std::string chunkLabel(char strided, int s, char contiguous, int first, int last) {
    std::string out = std::string(1, strided) + std::to_string(s) + ' ' + contiguous + std::to_string(first);
    if (last != first)
        out += ".." + std::to_string(last);
    return out;
}

} // namespace

int addMemoryMapPanel(Diagram& d, const MemoryMap& map, double x, double y, Palette palette) {
    const DiagramMetrics& mt = d.metrics;
    DiagramPanel p;
    p.kind = PanelKind::SharedMemoryMap;
    p.name = "memory";
    p.letter = 'm';
    p.rowLetter = map.stridedLetter;
    p.colLetter = map.contiguousLetter;
    p.title = map.title;
    p.rows = static_cast<int>(map.lines);
    p.cols = kChunksPerLine;

    std::size_t chars = 9; // "banks 0..3" fits under a header of this width too
    for (const MemoryChunk& c : map.chunks)
        chars = std::max(
            chars, chunkLabel(map.stridedLetter, c.strided, map.contiguousLetter, c.first, c.last).size());
    p.cellWidth = labelWidth(d, chars);
    p.cellHeight = mt.cellHeight;
    const std::uint32_t lastLine = (map.firstLine + std::max<std::uint32_t>(map.lines, 1) - 1) * 128;
    const double rowHeader = std::ceil(labelWidth(d, hexAddress(lastLine).size()));
    std::vector<std::string> subtitle;
    if (!map.subtitle.empty())
        subtitle.push_back(map.subtitle);
    const double headerTop = panelHead(d, p, x, y, subtitle);
    // Two header lines: the chunk, and the four banks it spans.
    p.origin = {x + rowHeader, headerTop + 2 * (mt.headerFont + 4) + 2};
    p.colHeaders.resize(kChunksPerLine);
    for (int c = 0; c < kChunksPerLine; ++c) {
        p.colHeaders[static_cast<std::size_t>(c)] = "chunk " + std::to_string(c);
        const double cx = p.origin.x + (c + 0.5) * p.cellWidth;
        addText(d, cx, p.origin.y - mt.headerFont - 8, p.colHeaders[static_cast<std::size_t>(c)],
                mt.headerFont, TextRole::Header, TextAnchor::Middle, false, kMuted);
        addText(d, cx, p.origin.y - 5, "banks " + std::to_string(4 * c) + ".." + std::to_string(4 * c + 3),
                mt.headerFont - 1, TextRole::Header, TextAnchor::Middle, false, kMuted);
    }
    std::vector<std::string> names;
    for (std::uint32_t l = 0; l < map.lines; ++l)
        names.push_back(hexAddress((map.firstLine + l) * 128));
    rowHeaders(d, p, names);
    p.rowNotes.assign(static_cast<std::size_t>(p.rows), std::string());
    double noteW = 0;
    for (std::size_t l = 0; l < map.lineNotes.size() && l < map.lines; ++l) {
        p.rowNotes[l] = map.lineNotes[l];
        if (map.lineNotes[l].empty())
            continue;
        addText(d, p.origin.x + p.cols * p.cellWidth + 6,
                p.origin.y + (static_cast<double>(l) + 0.5) * p.cellHeight + mt.headerFont * 0.35,
                map.lineNotes[l], mt.headerFont, TextRole::RowNote, TextAnchor::Start, false, kMuted);
        noteW = std::max(noteW, textWidth(map.lineNotes[l], mt.headerFont) + 12);
    }

    const auto panelIndex = static_cast<std::uint16_t>(d.panels.size());
    p.firstCell = static_cast<std::uint32_t>(d.cells.size());
    std::vector<MemoryChunk> chunks = map.chunks;
    std::sort(chunks.begin(), chunks.end(),
              [](const MemoryChunk& a, const MemoryChunk& b) { return a.address < b.address; });
    d.cells.reserve(d.cells.size() + chunks.size()); // at most one cell a chunk: grown once, not doubled
    const LaneColors colors(palette);
    for (const MemoryChunk& ch : chunks) {
        const std::uint32_t line = ch.address / 128;
        if (line < map.firstLine || line >= map.firstLine + map.lines)
            continue;
        DiagramCell c;
        c.row = static_cast<std::int16_t>(line - map.firstLine);
        c.col = c.colLast = static_cast<std::int16_t>((ch.address >> 4) & 7);
        c.rect = p.cellRect(c.row, c.col);
        c.fill = colors.fill(ch.colorKey);
        c.text = colors.text(ch.colorKey);
        c.colorKey = ch.colorKey;
        c.panel = panelIndex;
        c.thread = static_cast<std::int16_t>(ch.group);
        c.lane = c.col;
        c.reg = static_cast<std::int16_t>(ch.before);
        c.element = static_cast<std::int16_t>(ch.strided);
        c.bitLo = static_cast<std::int16_t>(ch.first);
        c.bitHi = static_cast<std::int16_t>(ch.last);
        c.address = ch.address;
        d.cells.push_back(c);
    }
    p.cellCount = static_cast<std::uint32_t>(d.cells.size()) - p.firstCell;
    indexGrid(d, p);
    frame(d, p.gridRect());
    // Heavier rule every 1024 bytes: the period of the 128B swizzle, and of the bank pattern's repeats.
    for (std::uint32_t l = 1; l < map.lines; ++l)
        if ((map.firstLine + l) % 8 == 0)
            d.lines.push_back({{p.origin.x, p.origin.y + l * p.cellHeight},
                               {p.origin.x + p.cols * p.cellWidth, p.origin.y + l * p.cellHeight},
                               kGridLine,
                               1.5});
    double w = rowHeader + p.cols * p.cellWidth + noteW;
    w = std::max({w, textWidth(p.title, mt.panelTitleFont), textWidth(map.subtitle, mt.noteFont)});
    p.bounds = {x, y, w, p.origin.y + p.rows * p.cellHeight - y};
    grow(d, p.bounds);
    d.panels.push_back(std::move(p));
    return panelIndex;
}

namespace {

// Indexes the cells from `first` on, whose hover groups all come at or after `groups`, behind an index that
// holds the cells before `first` in groups before `groups`: a counting sort of the new cells alone.
void indexFrom(Diagram& d, std::size_t groups, std::size_t first) {
    int threads = d.threads;
    for (std::size_t i = first; i < d.cells.size(); ++i)
        threads = std::max(threads, d.cells[i].thread + 1);
    d.threads = threads;
    d.threadOffsets.resize(static_cast<std::size_t>(threads) + 1);
    std::fill(d.threadOffsets.begin() + static_cast<std::ptrdiff_t>(groups) + 1, d.threadOffsets.end(), 0u);
    for (std::size_t i = first; i < d.cells.size(); ++i)
        ++d.threadOffsets[static_cast<std::size_t>(d.cells[i].thread) + 1];
    for (std::size_t t = groups + 1; t < d.threadOffsets.size(); ++t)
        d.threadOffsets[t] += d.threadOffsets[t - 1];
    d.threadCells.resize(d.cells.size());
    std::vector<std::uint32_t> fill(d.threadOffsets.begin() + static_cast<std::ptrdiff_t>(groups),
                                    d.threadOffsets.end() - 1);
    for (std::size_t i = first; i < d.cells.size(); ++i)
        d.threadCells[fill[static_cast<std::size_t>(d.cells[i].thread) - groups]++] =
            static_cast<std::uint32_t>(i);
}

} // namespace

void rebuildHoverIndex(Diagram& d) {
    d.threadOffsets.assign(1, 0);
    indexFrom(d, 0, 0);
}

namespace {

// The index extended by the cells appended from `first` on, when their hover groups all come after the
// indexed ones (appendSharedMemory numbers them so): the 65,536 cells of a Tensor Memory picture are not
// indexed again for each CTA's A and B appended under it. Anything else rebuilds the index.
void extendHoverIndex(Diagram& d, std::size_t first) {
    const std::size_t groups = d.threadOffsets.empty() ? 0 : d.threadOffsets.size() - 1;
    bool appended =
        !d.threadOffsets.empty() && d.threadCells.size() == first && d.threadOffsets.back() == first;
    for (std::size_t i = first; appended && i < d.cells.size(); ++i)
        appended = d.cells[i].thread >= static_cast<int>(groups);
    if (appended)
        indexFrom(d, groups, first);
    else
        rebuildHoverIndex(d);
}

// The chunks of a memory map in address order, each described by the first element (in the order given) that
// lands in it, its run of contiguous indices widened by the others: sorted once, not a tree node per chunk.
template <class Describe>
std::vector<MemoryChunk> chunksInOrder(std::span<const std::uint32_t> addresses, Describe describe) {
    std::vector<std::uint32_t> order(addresses.size());
    for (std::uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return (addresses[x] >> 4) < (addresses[y] >> 4);
    });
    std::vector<MemoryChunk> chunks;
    for (const std::uint32_t i : order) {
        const MemoryChunk seen = describe(i);
        if (chunks.empty() || chunks.back().address != seen.address)
            chunks.push_back(seen);
        chunks.back().first = std::min(chunks.back().first, seen.first);
        chunks.back().last = std::max(chunks.back().last, seen.last);
    }
    return chunks;
}

// The element grid of a shared-memory operand: one cell an element, one a byte for sub-byte elements (the
// axis contiguous in memory covers 8 / bits elements a cell).
struct GridCells {
    int rowElements = 1, colElements = 1, rows = 0, cols = 0;
    bool contiguousRows = false; // memory runs down the rows (K-major B, MN-major A)
    std::size_t count() const { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); }
};
GridCells gridCellsOf(const smem::SharedOperand& op) {
    const smem::SmemLayout& l = op.layout;
    const int perByte = l.elementBits() < 8 ? 8 / l.elementBits() : 1;
    GridCells g;
    g.contiguousRows = (l.major() == smem::Major::K) == (op.operand == Operand::B);
    g.rowElements = g.contiguousRows ? perByte : 1;
    g.colElements = g.contiguousRows ? 1 : perByte;
    g.rows = (op.rows + g.rowElements - 1) / g.rowElements;
    g.cols = (op.cols + g.colElements - 1) / g.colElements;
    return g;
}

// Lays the operand out from (x, y) with hover groups starting at `groupBase`; returns the bottom.
void layoutSharedOperand(Diagram& d, const smem::SharedOperand& op, const SharedMemoryDiagramOptions& opt,
                         double x, double y, int groupBase) {
    const DiagramMetrics& mt = d.metrics;
    const smem::SmemLayout& l = op.layout;
    const bool b = op.operand == Operand::B;
    const char rowLetter = b ? 'k' : 'm';
    const char colLetter = b ? 'n' : 'k';
    const bool swizzled = l.swizzle() != smem::Swizzle::None;
    const bool subByte = l.elementBits() < 8;
    const std::string name(toString(op.operand));

    // Every placement once: the element grid's cells and the chunks of the map come from them.
    std::vector<smem::Placement> placements(static_cast<std::size_t>(op.rows * op.cols));
    std::uint32_t lowChunk = ~0u;
    for (int r = 0; r < op.rows; ++r)
        for (int c = 0; c < op.cols; ++c) {
            const smem::Coord lc = op.toLayout(r, c);
            smem::Placement& p = placements[static_cast<std::size_t>(r * op.cols + c)];
            p = l.placement(lc.mn, lc.k);
            lowChunk = std::min(lowChunk, p.address >> 4);
        }
    auto groupOf = [&](std::uint32_t address) {
        return groupBase + static_cast<int>((address >> 4) - lowChunk);
    };
    auto keyOf = [](const smem::Placement& p) { return (p.linear >> 4) & 7u; };

    std::vector<MemoryChunk> chunks;
    if (opt.memoryMap) {
        std::vector<std::uint32_t> addresses(placements.size());
        for (std::size_t i = 0; i < placements.size(); ++i)
            addresses[i] = placements[i].address;
        chunks = chunksInOrder(addresses, [&](std::size_t i) {
            const smem::Placement& pl = placements[i];
            const int contiguous = l.major() == smem::Major::K ? pl.k : pl.mn;
            const int strided = l.major() == smem::Major::K ? pl.mn : pl.k;
            return MemoryChunk{pl.address & ~15u,
                               keyOf(pl),
                               groupOf(pl.address),
                               strided,
                               contiguous,
                               contiguous,
                               swizzled ? static_cast<int>(keyOf(pl)) : -1};
        });
    }
    // Every cell this operand adds, reserved at once: the grid's (one a byte for sub-byte elements) and the
    // map's (one a chunk). Reserving per panel regrew, and so copied, the whole diagram's cells twice.
    const GridCells grid = gridCellsOf(op);
    d.cells.reserve(d.cells.size() + (opt.addressGrid ? grid.count() : 0) + chunks.size());

    // Texts: how the tile is laid out, the XOR, the descriptor.
    double ty = y;
    const std::vector<std::string> facts = {
        "layout: " + l.canonicalFormula(), "swizzle: " + l.swizzleRule(),
        "descriptor: " + smem::describe(l.descriptor()) + (l.usesLeadingByteOffset() ? "" : "; LBO unused"),
        "footprint: " + std::to_string(l.footprintBytes()) + " bytes from " + hexAddress(l.startAddress())};
    double factsW = 0;
    for (const std::string& f : facts) {
        ty += mt.noteFont + 5;
        addText(d, x, ty, f, mt.noteFont, TextRole::Note, TextAnchor::Start, false, kInk, true);
        factsW = std::max(factsW, static_cast<double>(f.size()) * mt.noteFont * 0.62);
    }
    grow(d, {x, y, factsW, ty - y});
    ty += 18;

    double mapX = x, mapY = ty;
    if (opt.addressGrid) {
        DiagramPanel p;
        p.kind = PanelKind::SharedMemory;
        p.operands = op.operand;
        p.name = name;
        p.letter = b ? 'b' : 'a';
        p.rowLetter = rowLetter;
        p.colLetter = colLetter;
        // Sub-byte elements: one cell per byte, covering the elements the byte holds along the axis that is
        // contiguous in memory (K-major B: rows k; K-major A: columns k). 65,536 one-bit cells of a
        // 256 x 256 B were most of a catalog SVG; a byte is also what an address names.
        p.rowElements = grid.rowElements;
        p.colElements = grid.colElements;
        p.rows = grid.rows;
        p.cols = grid.cols;
        p.title = name + "  " + (b ? "K \u00d7 N" : (op.compressed ? "M \u00d7 K/2" : "M \u00d7 K")) + " = " +
                  std::to_string(op.rows) + " \u00d7 " + std::to_string(op.cols) + " ." +
                  std::string(toString(op.elementType)) + ": byte address of each 16-byte chunk";
        const char along = grid.contiguousRows ? rowLetter : colLetter;
        const std::string step = subByte ? std::string("the next bytes follow it along ") + along
                                         : std::string("the next ") + along + " follow it, " +
                                               std::to_string(l.elementBits() / 8) + " bytes apart";
        const std::vector<std::string> subtitle = {
            std::string("rows ") + rowLetter + ", columns " + colLetter + "; " +
                std::string(toString(l.major())) + "-major, " + std::string(toString(l.swizzle())) +
                " swizzle" +
                (subByte ? "; one cell per byte: the " + std::to_string(8 / l.elementBits()) + " " + along +
                               " it holds"
                         : std::string()) +
                "; colour = the 16-byte chunk c of its 128-byte line (banks 4c..4c+3), after the swizzle",
            std::string("label: a chunk's address, on its first ") + (subByte ? "byte" : "element") + "; " +
                step + " (hover a cell for its own address)"};
        std::size_t chars = hexAddress(l.startAddress() + l.footprintBytes()).size();
        p.cellWidth = labelWidth(d, chars);
        p.cellHeight = mt.cellHeight;
        const double rowHeader = std::ceil(labelWidth(d, elementRange(p.rows - 1, p.rowElements).size()));
        const double headerTop = panelHead(d, p, x, ty, subtitle);
        p.origin = {x + rowHeader, headerTop + mt.headerFont + 6};
        columnHeaders(d, p);
        std::vector<std::string> names;
        for (int r = 0; r < p.rows; ++r)
            names.push_back(elementRange(r, p.rowElements));
        rowHeaders(d, p, names);
        p.rowNotes.assign(static_cast<std::size_t>(p.rows), std::string());
        p.labels = CellLabels::ChunkStarts;

        const auto panelIndex = static_cast<std::uint16_t>(d.panels.size());
        p.firstCell = static_cast<std::uint32_t>(d.cells.size());
        const LaneColors colors(opt.palette);
        for (int r = 0; r < p.rows; ++r)
            for (int col = 0; col < p.cols; ++col) {
                // The cell's first element; a byte cell's others share its address.
                const smem::Placement& pl =
                    placements[static_cast<std::size_t>(r * p.rowElements * op.cols + col * p.colElements)];
                DiagramCell c;
                c.row = static_cast<std::int16_t>(r);
                c.col = c.colLast = static_cast<std::int16_t>(col);
                c.rect = p.cellRect(r, col);
                c.colorKey = (pl.address >> 4) & 7u; // the bank group it lands in
                c.fill = colors.fill(c.colorKey);
                c.text = colors.text(c.colorKey);
                c.panel = panelIndex;
                c.thread = static_cast<std::int16_t>(groupOf(pl.address));
                c.lane = static_cast<std::int16_t>((pl.address >> 4) & 7);
                c.reg = static_cast<std::int16_t>(keyOf(pl));
                c.element = -1;
                c.bitLo = static_cast<std::int16_t>(subByte ? 0 : pl.bit);
                c.bitHi = static_cast<std::int16_t>(subByte ? 7 : pl.bit + l.elementBits() - 1);
                c.address = pl.address;
                d.cells.push_back(c);
            }
        closeGridPanel(d, std::move(p), x, ty, rowHeader, subtitle, mapX, mapY);
    }

    if (opt.memoryMap) {
        // A chunk holds one strided index and a run of contiguous ones (what toText's memory map lists).
        MemoryMap map;
        std::uint32_t lo = ~0u, hi = 0;
        map.stridedLetter = l.major() == smem::Major::K ? op.mnLetter : 'k';
        map.contiguousLetter = l.major() == smem::Major::K ? 'k' : op.mnLetter;
        for (const MemoryChunk& ch : chunks) {
            lo = std::min(lo, ch.address / 128);
            hi = std::max(hi, ch.address / 128);
        }
        map.chunks = std::move(chunks);
        map.firstLine = lo;
        map.lines = hi - lo + 1;
        map.title = name + " in memory: " + std::to_string(map.lines) + " lines of 128 bytes";
        map.subtitle = swizzled ? "each chunk where the swizzle put it; colour = its chunk before the XOR"
                                : "no swizzle: every chunk stays where the layout put it";
        const int mask = (1 << smem::swizzleBits(l.swizzle())) - 1;
        for (std::uint32_t line = lo; line <= hi; ++line)
            map.lineNotes.push_back(swizzled ? "chunk xor " +
                                                   std::to_string((line & static_cast<std::uint32_t>(mask)))
                                             : std::string());
        addMemoryMapPanel(d, map, mapX, mapY, opt.palette);
    }
}

} // namespace

Diagram buildSharedMemoryDiagram(const smem::SharedOperand& op, const SharedMemoryDiagramOptions& opt) {
    Diagram d;
    d.scope = Scope::Warpgroup;
    d.threads = 0;
    d.palette = opt.palette;
    const smem::SmemLayout& l = op.layout;
    d.title = std::string(toString(op.operand)) + " in shared memory: " + std::string(toString(l.major())) +
              "-major, " + std::string(toString(l.swizzle())) + " swizzle";
    d.caption.push_back("layout: " + l.canonicalFormula());
    d.caption.push_back("descriptor: " + smem::describe(l.descriptor()));
    const DiagramMetrics& mt = d.metrics;
    addText(d, mt.margin, mt.margin + mt.titleFont, d.title, mt.titleFont, TextRole::Title, TextAnchor::Start,
            true);
    layoutSharedOperand(d, op, opt, mt.margin, mt.margin + mt.titleFont + 8, 0);
    rebuildHoverIndex(d);
    return d;
}

Diagram buildSharedMemoryDiagram(const Placement& placement, const Placement* global,
                                 const SharedMemoryDiagramOptions& opt) {
    if (placement.space() != Space::SharedMemory)
        throw std::invalid_argument("buildSharedMemoryDiagram draws a placement in shared memory, not in " +
                                    std::string(toString(placement.space())));
    if (const smem::SharedOperand* op = placement.shared())
        return buildSharedMemoryDiagram(*op, opt);
    Diagram d;
    d.scope = Scope::Warp;
    d.threads = 0;
    d.palette = opt.palette;
    const Presentation& words = placement.presentation();
    const DiagramMetrics& mt = d.metrics;
    d.title = words.extentTitle.empty() ? std::string("shared memory") : words.extentTitle;
    if (!words.extentFact.empty())
        d.caption.push_back(words.extentFact);
    addText(d, mt.margin, mt.margin + mt.titleFont, d.title, mt.titleFont, TextRole::Title, TextAnchor::Start,
            true);
    const int rows = placement.rows(), cols = placement.cols();
    // Every cell's first byte once; a cell no global element fills (a TMA box's out-of-bounds elements) is
    // drawn grey.
    std::vector<std::uint32_t> address(static_cast<std::size_t>(rows * cols), 0);
    std::vector<char> filled(address.size(), 0);
    std::uint32_t lowChunk = ~0u, high = 0;
    int bits = 8;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const std::vector<Holding> h = placement.at(r, c);
            const auto i = static_cast<std::size_t>(r * cols + c);
            if (h.empty())
                continue;
            const SmemByte& b = std::get<SmemByte>(h.front().at);
            address[i] = b.address;
            bits = b.bits;
            lowChunk = std::min(lowChunk, b.address >> 4);
            high = std::max(high, b.address + static_cast<std::uint32_t>((b.bits + 7) / 8));
            filled[i] = global && global->at(r, c).empty();
        }
    if (lowChunk == ~0u)
        lowChunk = 0;
    const std::string rowAxis = words.rowAxis.empty() ? "row" : words.rowAxis;
    const std::string colAxis = words.colAxis.empty() ? "column" : words.colAxis;
    double x = mt.margin, ty = mt.margin + mt.titleFont + 8;
    std::vector<std::string> facts;
    if (!words.extentFact.empty())
        facts.push_back(words.extentFact);
    facts.push_back("footprint: " + std::to_string(high) +
                    " bytes from a base aligned to the swizzle's repeat");
    double factsW = 0;
    for (const std::string& f : facts) {
        ty += mt.noteFont + 5;
        addText(d, x, ty, f, mt.noteFont, TextRole::Note, TextAnchor::Start, false, kInk, true);
        factsW = std::max(factsW, static_cast<double>(f.size()) * mt.noteFont * 0.62);
    }
    grow(d, {x, mt.margin, factsW, ty - mt.margin});
    ty += 18;
    double mapX = x, mapY = ty;
    const Rgb fillGrey{0xd0, 0xd0, 0xd0};
    // A TMA box, or what the placement names itself (a pasted layout: "layout").
    const std::string name = words.operandName.empty() ? std::string("box") : words.operandName;
    if (opt.addressGrid) {
        DiagramPanel p;
        p.kind = PanelKind::SharedMemory;
        p.operands = placement.operands();
        p.name = name;
        p.letter = 'b';
        p.rowLetter = 'r';
        p.colLetter = 'c';
        p.rows = rows;
        p.cols = cols;
        p.title = name + " " + std::to_string(rows) + " \u00d7 " + std::to_string(cols) + " ." +
                  std::string(toString(placement.elementType())) + ": byte offset of each 16-byte chunk";
        const std::vector<std::string> subtitle = {
            "rows: " + rowAxis + "; columns: " + colAxis +
                "; colour = the 16-byte chunk c of its 128-byte line (banks 4c..4c+3)" +
                (global ? "; grey = fill (outside the tensor)" : ""),
            "label: a chunk's offset, on its first element (hover a cell for its own)"};
        p.cellWidth = labelWidth(d, hexAddress(high).size());
        p.cellHeight = mt.cellHeight;
        const double rowHeader = std::ceil(labelWidth(d, std::to_string(rows - 1).size()));
        const double headerTop = panelHead(d, p, x, ty, subtitle);
        p.origin = {x + rowHeader, headerTop + mt.headerFont + 6};
        columnHeaders(d, p);
        std::vector<std::string> names;
        for (int r = 0; r < rows; ++r)
            names.push_back(std::to_string(r));
        rowHeaders(d, p, names);
        p.rowNotes.assign(static_cast<std::size_t>(rows), std::string());
        p.labels = CellLabels::ChunkStarts;
        const auto panelIndex = static_cast<std::uint16_t>(d.panels.size());
        p.firstCell = static_cast<std::uint32_t>(d.cells.size());
        for (int r = 0; r < rows; ++r)
            for (int col = 0; col < cols; ++col) {
                const auto i = static_cast<std::size_t>(r * cols + col);
                DiagramCell c;
                c.row = static_cast<std::int16_t>(r);
                c.col = c.colLast = static_cast<std::int16_t>(col);
                c.rect = p.cellRect(r, col);
                c.colorKey = (address[i] >> 4) & 7u;
                c.fill = filled[i] ? fillGrey
                                   : paletteColor(opt.palette, ColorBy::Lane, static_cast<int>(c.colorKey));
                c.text = labelColorOn(c.fill);
                c.panel = panelIndex;
                c.thread = static_cast<std::int16_t>((address[i] >> 4) - lowChunk);
                c.lane = static_cast<std::int16_t>((address[i] >> 4) & 7);
                c.reg = static_cast<std::int16_t>(c.colorKey);
                c.element = -1;
                c.bitLo = 0;
                c.bitHi = static_cast<std::int16_t>(bits - 1);
                c.address = address[i];
                d.cells.push_back(c);
            }
        closeGridPanel(d, std::move(p), x, ty, rowHeader, subtitle, mapX, mapY);
    }
    if (opt.memoryMap && !address.empty()) {
        // A chunk holds one box row and a run of its columns.
        MemoryMap map;
        map.stridedLetter = 'r';
        map.contiguousLetter = 'c';
        map.chunks = chunksInOrder(address, [&](std::size_t i) {
            const int r = static_cast<int>(i) / cols, c = static_cast<int>(i) % cols;
            const std::uint32_t at = address[i] & ~15u;
            return MemoryChunk{at, (at >> 4) & 7u, static_cast<int>((address[i] >> 4) - lowChunk), r, c, c,
                               -1};
        });
        std::uint32_t lo = ~0u, hi = 0;
        for (const MemoryChunk& ch : map.chunks) {
            lo = std::min(lo, ch.address / 128);
            hi = std::max(hi, ch.address / 128);
        }
        map.firstLine = lo;
        map.lines = hi - lo + 1;
        map.title = name + " in memory: " + std::to_string(map.lines) + " lines of 128 bytes";
        map.subtitle = "each 16-byte chunk where it lands: r = box row, c = box columns";
        addMemoryMapPanel(d, map, mapX, mapY, opt.palette);
    }
    rebuildHoverIndex(d);
    return d;
}

std::size_t sharedMemoryCellCount(const smem::SharedOperand& op, const SharedMemoryDiagramOptions& opt) {
    // A map cell is a 16-byte chunk in use; the tile's bytes fill at most that many.
    const std::size_t bytes = (static_cast<std::size_t>(op.rows) * static_cast<std::size_t>(op.cols) *
                                   static_cast<std::size_t>(op.layout.elementBits()) +
                               7) /
                              8;
    return (opt.addressGrid ? gridCellsOf(op).count() : 0) + (opt.memoryMap ? (bytes + 15) / 16 : 0);
}

void appendSharedMemory(Diagram& d, const smem::SharedOperand& op, const SharedMemoryDiagramOptions& opt) {
    const DiagramMetrics& mt = d.metrics;
    double y = d.height;
    const std::string title =
        (opt.cta >= 0 ? "CTA " + std::to_string(opt.cta) + ": " + opt.part + ", " : std::string()) +
        std::string(toString(op.operand)) + " in shared memory: " + std::string(toString(op.layout.major())) +
        "-major, " + std::string(toString(op.layout.swizzle())) + " swizzle";
    addText(d, mt.margin, y + mt.panelTitleFont + 4, title, mt.titleFont - 2, TextRole::PanelTitle,
            TextAnchor::Start, true);
    d.caption.push_back(title + "; descriptor: " + smem::describe(op.layout.descriptor()));
    y += mt.titleFont + 10;
    const std::size_t firstPanel = d.panels.size(), firstCell = d.cells.size();
    layoutSharedOperand(d, op, opt, mt.margin, y, d.threads);
    if (opt.cta >= 0) // every tooltip of the part names its CTA
        for (std::size_t i = firstPanel; i < d.panels.size(); ++i)
            d.panels[i].name = "CTA " + std::to_string(opt.cta) + " " + d.panels[i].name;
    extendHoverIndex(d, firstCell);
}

} // namespace lanemap
