#include "lanemap/diagram_bands.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace lanemap {

bool canWrapColumns(const Diagram& d) {
    return d.panels.size() == 1 && d.panels.front().kind == PanelKind::Operand &&
           d.panels.front().matrix < 0 && d.bitFields.empty() && d.panels.front().cols > 1;
}

namespace {
// One band's geometry, shared by wrapColumns and wrappedBounds.
struct BandGeometry {
    int bands = 1;
    double headerH = 0, step = 0, titleRight = 0;
};
BandGeometry bandGeometry(const Diagram& d, int bandColumns) {
    const DiagramPanel& src = d.panels.front();
    const RectF grid = src.gridRect();
    BandGeometry g;
    g.bands = (src.cols + bandColumns - 1) / bandColumns;
    // Each band after the first gets a strip for its column numbers, as the grid's own header row.
    g.headerH = d.metrics.headerFont + 10;
    g.step = grid.h + 14 + g.headerH; // grid top to the next band's grid top
    // The panel's own title and subtitle set the first band's least width.
    g.titleRight = grid.x + std::min(bandColumns, src.cols) * src.cellWidth;
    for (const DiagramText& t : d.texts)
        if (t.role == TextRole::PanelTitle || t.role == TextRole::PanelSubtitle)
            g.titleRight =
                std::max(g.titleRight, t.pos.x + static_cast<double>(t.text.size()) * t.size * 0.55);
    return g;
}
} // namespace

RectF wrappedBounds(const Diagram& d, int bandColumns) {
    const DiagramPanel& src = d.panels.front();
    if (bandColumns <= 0 || src.cols <= bandColumns)
        return src.bounds;
    const BandGeometry g = bandGeometry(d, bandColumns);
    const RectF grid = src.gridRect();
    return {src.bounds.x, src.bounds.y, g.titleRight - src.bounds.x,
            grid.bottom() + (g.bands - 1) * g.step - src.bounds.y};
}

Diagram wrapColumns(const Diagram& d, int bandColumns) {
    if (!canWrapColumns(d) || bandColumns <= 0 || d.panels.front().cols <= bandColumns)
        return d;
    const DiagramPanel& src = d.panels.front();
    const DiagramMetrics& mt = d.metrics;
    const RectF grid = src.gridRect();
    const BandGeometry geometry = bandGeometry(d, bandColumns);
    const int bands = geometry.bands;
    const double cw = src.cellWidth;
    const double headerH = geometry.headerH;
    const double step = geometry.step;
    const double added = (bands - 1) * step;
    auto firstCol = [&](int b) { return b * bandColumns; };
    auto colsOf = [&](int b) { return std::min(bandColumns, src.cols - firstCol(b)); };
    auto dx = [&](int b) { return -firstCol(b) * cw; };
    auto dy = [&](int b) { return b * step; };
    constexpr double eps = 1e-6;

    Diagram out;
    out.title = d.title;
    out.caption = d.caption;
    out.spec = d.spec;
    out.ptx = d.ptx;
    out.section = d.section;
    out.anchor = d.anchor;
    out.scope = d.scope;
    out.threads = d.threads;
    out.colorBy = d.colorBy;
    out.palette = d.palette;
    out.selector = d.selector;
    out.metrics = mt;
    out.legends = d.legends;

    const double titleRight = geometry.titleRight;

    for (int b = 0; b < bands; ++b) {
        const int c0 = firstCol(b), n = colsOf(b);
        DiagramPanel p;
        p.kind = src.kind;
        p.operands = src.operands;
        p.name = src.name;
        p.letter = src.letter;
        p.matrix = src.matrix;
        p.title = src.title;
        p.subtitle = src.subtitle;
        p.rowLetter = src.rowLetter;
        p.colLetter = src.colLetter;
        p.source = src.source;
        p.cellWidth = src.cellWidth;
        p.cellHeight = src.cellHeight;
        p.rows = src.rows;
        p.cols = n;
        p.origin = {src.origin.x, src.origin.y + dy(b)};
        p.rowHeaders = src.rowHeaders;
        p.rowNotes = src.rowNotes;
        p.colHeaders.assign(src.colHeaders.begin() + c0, src.colHeaders.begin() + c0 + n);
        const double right = p.origin.x + n * cw;
        if (b == 0)
            p.bounds = {src.bounds.x, src.bounds.y, std::max(right, titleRight) - src.bounds.x,
                        grid.bottom() - src.bounds.y};
        else
            p.bounds = {src.bounds.x, p.origin.y - headerH, right - src.bounds.x, headerH + grid.h};
        // This band's cells, moved; the grid index in the band's own columns.
        p.firstCell = static_cast<std::uint32_t>(out.cells.size());
        for (std::uint32_t i = src.firstCell; i < src.firstCell + src.cellCount; ++i) {
            DiagramCell c = d.cells[i];
            if (c.col < c0 || c.col >= c0 + n)
                continue;
            c.rect.x += dx(b);
            c.rect.y += dy(b);
            c.panel = static_cast<std::uint16_t>(b);
            out.cells.push_back(c);
        }
        p.cellCount = static_cast<std::uint32_t>(out.cells.size()) - p.firstCell;
        const std::size_t positions = static_cast<std::size_t>(p.rows) * static_cast<std::size_t>(n);
        p.gridOffsets.assign(positions + 1, 0);
        auto posOf = [&](const DiagramCell& c) {
            const int local =
                std::min(n - 1, static_cast<int>(std::floor((c.rect.x - p.origin.x) / cw + eps)));
            return static_cast<std::size_t>(c.row) * static_cast<std::size_t>(n) +
                   static_cast<std::size_t>(std::max(0, local));
        };
        for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i)
            ++p.gridOffsets[posOf(out.cells[i]) + 1];
        for (std::size_t k = 1; k <= positions; ++k)
            p.gridOffsets[k] += p.gridOffsets[k - 1];
        p.gridCells.resize(p.gridOffsets[positions]);
        std::vector<std::uint32_t> fill(p.gridOffsets.begin(), p.gridOffsets.end() - 1);
        for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i)
            p.gridCells[fill[posOf(out.cells[i])]++] = i;
        out.panels.push_back(std::move(p));
    }

    // Texts: column numbers go with their column's band; row numbers and row notes are repeated for every
    // band; whatever sits below the grid moves down by what the bands added.
    for (const DiagramText& t : d.texts) {
        const bool inGridColumns = t.pos.x >= grid.x - eps && t.pos.x <= grid.right() + eps;
        if (t.role == TextRole::Header && t.pos.y < grid.y && inGridColumns) {
            const int col = std::clamp(static_cast<int>((t.pos.x - grid.x) / cw), 0, src.cols - 1);
            const int b = col / bandColumns;
            DiagramText moved = t;
            moved.pos.x += dx(b);
            moved.pos.y += dy(b);
            out.texts.push_back(std::move(moved));
        } else if (((t.role == TextRole::Header || t.role == TextRole::RowHeader) && t.pos.x <= grid.x) ||
                   t.role == TextRole::RowNote) {
            for (int b = 0; b < bands; ++b) {
                DiagramText copy = t;
                copy.pos.y += dy(b);
                if (t.role == TextRole::RowNote)
                    copy.pos.x -= grid.right() - (grid.x + colsOf(b) * cw);
                out.texts.push_back(std::move(copy));
            }
        } else {
            DiagramText kept = t;
            if (t.pos.y > grid.bottom())
                kept.pos.y += added;
            out.texts.push_back(std::move(kept));
        }
    }
    // Lines: across the grid, cut per band; down the grid, with the band holding them (a band edge in both).
    for (const DiagramLine& l : d.lines) {
        const bool horizontal = std::abs(l.from.y - l.to.y) < eps;
        const bool vertical = std::abs(l.from.x - l.to.x) < eps;
        const double ly0 = std::min(l.from.y, l.to.y), ly1 = std::max(l.from.y, l.to.y);
        const bool inGrid = ly0 >= grid.y - eps && ly1 <= grid.bottom() + eps;
        if (inGrid && horizontal) {
            const double lx0 = std::min(l.from.x, l.to.x), lx1 = std::max(l.from.x, l.to.x);
            for (int b = 0; b < bands; ++b) {
                const double bx0 = grid.x + firstCol(b) * cw, bx1 = bx0 + colsOf(b) * cw;
                const double a = std::max(lx0, bx0), z = std::min(lx1, bx1);
                if (z - a <= eps)
                    continue;
                out.lines.push_back(
                    {{a + dx(b), l.from.y + dy(b)}, {z + dx(b), l.to.y + dy(b)}, l.color, l.width});
            }
        } else if (inGrid && vertical && l.from.x >= grid.x - eps && l.from.x <= grid.right() + eps) {
            for (int b = 0; b < bands; ++b) {
                const double bx0 = grid.x + firstCol(b) * cw, bx1 = bx0 + colsOf(b) * cw;
                if (l.from.x < bx0 - eps || l.from.x > bx1 + eps)
                    continue;
                out.lines.push_back({{l.from.x + dx(b), l.from.y + dy(b)},
                                     {l.to.x + dx(b), l.to.y + dy(b)},
                                     l.color,
                                     l.width});
            }
        } else {
            DiagramLine kept = l;
            if (ly0 > grid.bottom()) {
                kept.from.y += added;
                kept.to.y += added;
            }
            out.lines.push_back(kept);
        }
    }
    for (Legend& legend : out.legends)
        if (legend.bounds.y > grid.bottom()) {
            legend.bounds.y += added;
            legend.titlePos.y += added;
            for (LegendEntry& e : legend.entries) {
                e.swatch.y += added;
                e.textPos.y += added;
            }
        }
    // The grid is narrower now: the picture is as wide as before less what the bands took away (the caption
    // may still be wider), and taller by the bands.
    double right = 0;
    for (const DiagramPanel& p : out.panels)
        right = std::max(right, p.bounds.right());
    const double captionRight = d.width - (grid.right() - (grid.x + bandColumns * cw));
    out.width = std::ceil(std::max(right + 60 + mt.margin, captionRight));
    out.height = d.height + added;
    rebuildHoverIndex(out);
    return out;
}

} // namespace lanemap
