// A tcgen05.mma entry as a Diagram: D where the data-path layout (tmem.hpp placeD) puts it in Tensor Memory.
// Rows are TMEM lanes (128 per CTA, the CTAs of a pair one under the other), columns are TMEM columns; each
// cell is the D(m,n) the lane and column hold. Subpartitions of 32 lanes are framed and noted with the warp
// of a warpgroup that may reach them. Same primitives as every other panel: the GUI and the SVG draw it.
#include "lanemap/diagram.hpp"
#include "lanemap/tmem.hpp"

#include <algorithm>
#include <string>

namespace lanemap {

namespace {
constexpr Rgb kInk{0x22, 0x22, 0x22};
constexpr Rgb kGridLine{0x44, 0x44, 0x44};

void addText(Diagram& d, double x, double y, std::string s, double size, TextRole role,
             TextAnchor anchor = TextAnchor::Start, bool bold = false, bool mono = false) {
    d.texts.push_back({{x, y}, std::move(s), size, bold, mono, anchor, role, kInk});
}
} // namespace

Diagram buildTensorMemoryDiagram(const Instruction& in, Palette palette) {
    tmem::MmaShape shape = *in.tmemMma;
    shape.n = in.n > 0 ? in.n : shape.n;
    const int ctas = shape.ctaGroup;
    const tmem::LayoutRecord& rec = tmem::layoutOf(shape);

    Diagram d;
    d.title = in.spec;
    d.spec = in.spec;
    d.ptx = std::string(in.ptx);
    d.section = std::string(in.section);
    d.anchor = std::string(in.anchor);
    d.scope = Scope::Warpgroup;
    d.threads = tmem::kLanes; // hover group = the TMEM lane (the thread a .32x32b load gives it to)
    d.palette = palette;
    d.caption.push_back(std::string(in.ptx) + "  (M " + std::to_string(shape.m) + ", N " +
                        std::to_string(shape.n) + " in the instruction descriptor)");
    d.caption.push_back("PTX ISA §" + std::string(in.section) + " data-path layout " +
                        std::string(tmem::toString(rec.layout)) + " (" + std::string(rec.organisation) +
                        "), " + std::string(rec.figure));
    for (const auto& note : in.notes)
        d.caption.emplace_back(note);

    // Placements first: the columns the layout uses set the grid's width.
    struct Placed {
        int m, n;
        tmem::Placement at;
    };
    std::vector<Placed> placed;
    placed.reserve(static_cast<std::size_t>(shape.m * shape.n));
    int columns = 1;
    for (int m = 0; m < shape.m; ++m)
        for (int n = 0; n < shape.n; ++n) {
            const tmem::Placement at = tmem::placeD(shape, m, n);
            columns = std::max(columns, at.column + 1);
            placed.push_back({m, n, at});
        }

    const DiagramMetrics& mt = d.metrics;
    const std::string widest = "D(" + std::to_string(shape.m - 1) + "," + std::to_string(shape.n - 1) + ")";
    const double cellW = static_cast<double>(widest.size()) * mt.charWidth + 8;
    const double x0 = mt.margin;
    double y = mt.margin + mt.titleFont;
    addText(d, x0, y, d.title, mt.titleFont, TextRole::Title, TextAnchor::Start, true);
    for (const std::string& line : d.caption) {
        y += mt.noteFont + 6;
        addText(d, x0, y, line, mt.noteFont, TextRole::Caption);
    }
    y += mt.gap;

    DiagramPanel p;
    p.kind = PanelKind::TensorMemory;
    p.operand = "D";
    p.letter = 'd';
    p.title = "D in Tensor Memory  " + std::to_string(ctas * tmem::kLanes) + " lanes × " +
              std::to_string(columns) + " columns" + (ctas > 1 ? " (2 CTAs)" : "");
    p.subtitle = "rows: TMEM lane; columns: TMEM column (32 bits each); warp w of a warpgroup reaches lanes "
                 "32(w%4)..32(w%4)+31";
    p.rows = ctas * tmem::kLanes;
    p.cols = columns;
    p.cellWidth = cellW;
    p.cellHeight = mt.cellHeight;
    p.rowLetter = 'L';
    p.colLetter = 'C';
    addText(d, x0, y, p.title, mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start, true);
    y += mt.noteFont + 6;
    addText(d, x0, y, p.subtitle, mt.noteFont, TextRole::PanelSubtitle);
    y += mt.headerFont + 14;
    const double rowHeaderW = 8 * mt.charWidth + 8; // "lane 255"
    p.origin = {x0 + rowHeaderW, y};
    p.source = Source::Cutlass;
    p.rowHeaders.resize(static_cast<std::size_t>(p.rows));
    p.rowNotes.resize(static_cast<std::size_t>(p.rows));
    for (int c = 0; c < p.cols; ++c) {
        p.colHeaders.push_back(std::to_string(c));
        addText(d, p.origin.x + (c + 0.5) * cellW, y - 4, p.colHeaders.back(), mt.headerFont,
                TextRole::Header, TextAnchor::Middle, false, true);
    }
    for (int r = 0; r < p.rows; ++r) {
        const int cta = r / tmem::kLanes, lane = r % tmem::kLanes;
        const double by = p.origin.y + (r + 0.7) * mt.cellHeight;
        p.rowHeaders[static_cast<std::size_t>(r)] = "lane " + std::to_string(lane);
        addText(d, p.origin.x - 4, by, p.rowHeaders[static_cast<std::size_t>(r)], mt.headerFont,
                TextRole::Header, TextAnchor::End, false, true);
        if (lane % tmem::kSubpartitionLanes == 0) {
            std::string note = (ctas > 1 ? "CTA " + std::to_string(cta) + " " : std::string()) + "warp " +
                               std::to_string(lane / tmem::kSubpartitionLanes) + " (lanes " +
                               std::to_string(lane) + ".." + std::to_string(lane + 31) + ")";
            p.rowNotes[static_cast<std::size_t>(r)] = note;
            addText(d, p.origin.x + p.cols * cellW + 8, by, std::move(note), mt.noteFont, TextRole::RowNote);
        }
    }

    p.firstCell = 0;
    for (const Placed& e : placed) {
        DiagramCell c;
        const int row = e.at.cta * tmem::kLanes + e.at.lane;
        c.rect = p.cellRect(row, e.at.column);
        c.colorKey = static_cast<std::uint32_t>(e.at.lane % 32);
        c.fill = paletteColor(palette, ColorBy::Lane, e.at.lane % 32);
        c.text = labelColorOn(c.fill);
        c.thread = static_cast<std::int16_t>(e.at.lane);
        c.lane = static_cast<std::int16_t>(e.at.lane);
        c.warp = static_cast<std::int16_t>(e.at.lane / tmem::kSubpartitionLanes);
        c.element = static_cast<std::int16_t>(e.m); // D(m, n): m in element, n in bitLo
        c.bitLo = c.bitHi = static_cast<std::int16_t>(e.n);
        c.row = static_cast<std::int16_t>(row);
        c.col = c.colLast = static_cast<std::int16_t>(e.at.column);
        c.matrix = static_cast<std::int16_t>(e.at.cta);
        c.source = Source::Cutlass;
        d.cells.push_back(c);
    }
    p.cellCount = static_cast<std::uint32_t>(d.cells.size());
    const RectF grid = p.gridRect();
    p.bounds = {x0, grid.y - 3 * mt.noteFont - 30, grid.right() + 240 - x0, grid.h + 3 * mt.noteFont + 30};

    // Grid position -> cells (CSR): one D element per TMEM cell at most.
    p.gridOffsets.assign(static_cast<std::size_t>(p.rows * p.cols) + 1, 0);
    for (const DiagramCell& c : d.cells)
        ++p.gridOffsets[static_cast<std::size_t>(c.row * p.cols + c.col) + 1];
    for (std::size_t i = 1; i < p.gridOffsets.size(); ++i)
        p.gridOffsets[i] += p.gridOffsets[i - 1];
    p.gridCells.resize(d.cells.size());
    {
        std::vector<std::uint32_t> fill(p.gridOffsets.begin(), p.gridOffsets.end() - 1);
        for (std::uint32_t i = 0; i < d.cells.size(); ++i)
            p.gridCells[fill[static_cast<std::size_t>(d.cells[i].row * p.cols + d.cells[i].col)]++] = i;
    }

    // Frame, and a line under every subpartition (the warp bands).
    const PointF tl{grid.x, grid.y}, tr{grid.right(), grid.y}, bl{grid.x, grid.bottom()},
        br{grid.right(), grid.bottom()};
    for (const auto& [a, b] : {std::pair{tl, tr}, std::pair{tr, br}, std::pair{br, bl}, std::pair{bl, tl}})
        d.lines.push_back({a, b, kGridLine, 1.5});
    for (int r = tmem::kSubpartitionLanes; r < p.rows; r += tmem::kSubpartitionLanes) {
        const double ly = grid.y + r * mt.cellHeight;
        d.lines.push_back({{grid.x, ly}, {grid.right(), ly}, kGridLine, r % tmem::kLanes ? 1.5 : 3});
    }
    d.width = grid.right() + 240 + mt.margin;
    d.height = grid.bottom() + mt.margin;
    d.panels.push_back(std::move(p));

    rebuildHoverIndex(d); // a cell's thread is its TMEM lane
    return d;
}

} // namespace lanemap
