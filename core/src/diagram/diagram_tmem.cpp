// A tcgen05.mma entry as a Diagram (lanemap/diagram_tmem.hpp): D (or A) where the data-path layout puts it
// in Tensor Memory, rows = TMEM lanes (the CTAs of a pair one under the other), columns = TMEM columns;
// subpartitions of 32 lanes framed and noted with the warp that may reach them. Composed with a tcgen05.ld
// (st), a registers panel beside it: what each thread of the warpgroup holds after the access, and each
// element's two cells linked (hover group = the holding thread, Diagram::partner = the other cell). The
// scale-factor and metadata tables (tcgen05_tmem_tables.hpp) as panels of their own. Same primitives as every
// other panel: the GUI paints it, the SVG writer serializes it.
#include "lanemap/diagram_tmem.hpp"

#include "diagram/diagram_tmem_text.hpp"
#include "diagram/lane_colors.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"
#include "lanemap/tile_ctas.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>

namespace lanemap {

namespace {
constexpr Rgb kInk{0x22, 0x22, 0x22};
constexpr Rgb kGridLine{0x44, 0x44, 0x44};
using tcgen05::kNotOnHardware;

void addText(Diagram& d, double x, double y, std::string s, double size, TextRole role,
             TextAnchor anchor = TextAnchor::Start, bool bold = false, bool mono = false) {
    d.texts.push_back({{x, y}, std::move(s), size, bold, mono, anchor, role, kInk});
}

using TmemElement = TensorMemoryElement;
using Grid = TensorMemoryGrid;

int digits(int v) {
    return v >= 100 ? 3 : v >= 10 ? 2 : 1;
}

// Grid position -> cells (CSR) of a panel whose cells are the last `count` of the diagram.
void indexGrid(const Diagram& d, DiagramPanel& p) {
    p.gridOffsets.assign(static_cast<std::size_t>(p.rows * p.cols) + 1, 0);
    for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i)
        ++p.gridOffsets[static_cast<std::size_t>(d.cells[i].row * p.cols + d.cells[i].col) + 1];
    for (std::size_t i = 1; i < p.gridOffsets.size(); ++i)
        p.gridOffsets[i] += p.gridOffsets[i - 1];
    p.gridCells.resize(p.cellCount);
    std::vector<std::uint32_t> fill(p.gridOffsets.begin(), p.gridOffsets.end() - 1);
    for (std::uint32_t i = p.firstCell; i < p.firstCell + p.cellCount; ++i)
        p.gridCells[fill[static_cast<std::size_t>(d.cells[i].row * p.cols + d.cells[i].col)]++] = i;
}

void frame(Diagram& d, const RectF& grid, int rows, double cellHeight, int ctaRows) {
    const PointF tl{grid.x, grid.y}, tr{grid.right(), grid.y}, bl{grid.x, grid.bottom()},
        br{grid.right(), grid.bottom()};
    for (const auto& [a, b] : {std::pair{tl, tr}, std::pair{tr, br}, std::pair{br, bl}, std::pair{bl, tl}})
        d.lines.push_back({a, b, kGridLine, 1.5});
    // A line under every subpartition (the warp bands), heavier between the CTAs of a pair.
    for (int r = tmem::kSubpartitionLanes; r < rows; r += tmem::kSubpartitionLanes) {
        const double ly = grid.y + r * cellHeight;
        d.lines.push_back({{grid.x, ly}, {grid.right(), ly}, kGridLine, r % ctaRows ? 1.5 : 3});
    }
}

// The title and caption lines at the top left; returns where the panels start.
double titleAndCaption(Diagram& d) {
    const DiagramMetrics& mt = d.metrics;
    double y = mt.margin + mt.titleFont;
    addText(d, mt.margin, y, d.title, mt.titleFont, TextRole::Title, TextAnchor::Start, true);
    for (const std::string& line : d.caption) {
        y += mt.noteFont + 6;
        addText(d, mt.margin, y, line, mt.noteFont, TextRole::Caption);
    }
    return y + mt.gap;
}

// Fills `c` (a new cell, in place in the diagram's cells) as the cell of `e` in a panel of `epc` elements per
// grid cell, drawn lower bits left.
void makeCell(DiagramCell& c, const DiagramPanel& p, std::uint16_t panel, const TmemElement& e,
              const tmem::Holder* holder, int row, int col, int slot, int epc, const LaneColors& colors) {
    const RectF r = p.cellRect(row, col);
    c.rect = {r.x + slot * r.w / epc, r.y, r.w / epc, r.h};
    c.panel = panel;
    const int colorLane = holder ? holder->thread : laneOf(e.at.lane);
    c.colorKey = static_cast<std::uint32_t>(colorLane);
    c.fill = colors.fill(c.colorKey);
    c.text = colors.text(c.colorKey);
    if (holder) {
        c.thread = static_cast<std::int16_t>(holder->cta * tmem::kLanes +
                                             holder->warp * tmem::kSubpartitionLanes + holder->thread);
        c.lane = static_cast<std::int16_t>(holder->thread);
        c.warp = static_cast<std::int16_t>(holder->warp);
        c.reg = static_cast<std::int16_t>(holder->reg);
        c.bitHi = static_cast<std::int16_t>(holder->bit);
    } else {
        c.thread = static_cast<std::int16_t>(e.at.lane);
        c.lane = static_cast<std::int16_t>(e.at.lane);
        c.warp = static_cast<std::int16_t>(e.at.lane / tmem::kSubpartitionLanes);
        c.bitHi = static_cast<std::int16_t>(e.factor);
    }
    c.element = static_cast<std::int16_t>(e.element);
    c.bitLo = static_cast<std::int16_t>(e.index);
    c.groupID = static_cast<std::int16_t>(e.at.bit);
    c.address = tmem::Address{e.at.lane, e.at.column}.encode();
    c.row = static_cast<std::int16_t>(row);
    c.col = c.colLast = static_cast<std::int16_t>(col);
    c.matrix = static_cast<std::int16_t>(e.at.cta);
    c.source = p.source;
}

// Characters of the widest cell label ("D(127,255)") among a grid's elements.
int widestLabel(const Grid& g) {
    int maxElement = 0, maxIndex = 0;
    for (const TmemElement& e : g.elements) {
        maxElement = std::max<int>(maxElement, e.element);
        maxIndex = std::max<int>(maxIndex, e.index);
    }
    return static_cast<int>(g.label.size()) + 3 + digits(maxElement) + digits(maxIndex);
}

// What a Tensor Memory or register panel of `g` shares: its kind, operand, grid size, cell size, axes and
// source; the caller sets the title and subtitle.
DiagramPanel panelOf(const Diagram& d, const Grid& g, PanelKind kind, int rows, int cols, char rowLetter,
                     char colLetter, std::string rowAxis, std::string colAxis) {
    const DiagramMetrics& mt = d.metrics;
    DiagramPanel p;
    p.kind = kind;
    p.operands = g.operands;
    p.name = g.operand;
    p.letter = static_cast<char>(std::tolower(static_cast<unsigned char>(g.label.front())));
    p.rows = rows;
    p.cols = cols;
    p.cellWidth = 32 / g.elementBits * (widestLabel(g) * mt.charWidth + 8); // elements per 32-bit cell
    p.cellHeight = mt.cellHeight;
    p.rowLetter = rowLetter;
    p.colLetter = colLetter;
    p.rowAxis = std::move(rowAxis);
    p.colAxis = std::move(colAxis);
    p.elementBits = g.elementBits;
    p.source = Source::Cutlass;
    return p;
}

// The panel's title, subtitle and source lines from (x, y); returns the y below them.
double addHeaderLines(Diagram& d, const DiagramPanel& p, std::string source, double x, double y) {
    const DiagramMetrics& mt = d.metrics;
    addText(d, x, y, p.title, mt.panelTitleFont, TextRole::PanelTitle, TextAnchor::Start, true);
    y += mt.noteFont + 6;
    addText(d, x, y, p.subtitle, mt.noteFont, TextRole::PanelSubtitle);
    y += mt.noteFont + 6;
    addText(d, x, y, std::move(source), mt.noteFont, TextRole::PanelSubtitle);
    return y;
}

// The m (row index) each grid row holds when a cell's label "D(m,n)" would only repeat its headers: one
// element a cell, one m a row, and n the column's own number. Empty when some cell's label says more (two
// elements to a cell, an m that changes along a row, an n other than the column).
std::vector<int> rowElementsOnAxes(const Grid& g, int rows) {
    if (g.elementBits != 32)
        return {};
    std::vector<int> rowElement(static_cast<std::size_t>(rows), -1);
    for (const TmemElement& e : g.elements) {
        int& held = rowElement[static_cast<std::size_t>(e.at.cta * tmem::kLanes + e.at.lane)];
        if (e.index != e.at.column || (held >= 0 && held != e.element))
            return {};
        held = e.element;
    }
    return rowElement;
}

// A Tensor Memory panel with its top-left corner at (x, y); returns the panel index. With `labelsOnAxes`,
// where every cell's label would only repeat its headers (rowElementsOnAxes), the row headers name the m
// and the cells draw no label: 65,536 labels of a 256 x 256 grid said nothing the headers do not.
int addTmemPanel(Diagram& d, const Grid& g, int ctas, double x, double y, Palette palette,
                 bool labelsOnAxes) {
    const DiagramMetrics& mt = d.metrics;
    const int epc = 32 / g.elementBits; // elements per 32-bit cell
    int columns = 1;
    for (const TmemElement& e : g.elements)
        columns = std::max(columns, e.at.column + 1);
    DiagramPanel p = panelOf(d, g, PanelKind::TensorMemory, ctas * tmem::kLanes, columns, 'L', 'C',
                             "TMEM lane", "TMEM column");
    const std::vector<int> rowElement = labelsOnAxes ? rowElementsOnAxes(g, p.rows) : std::vector<int>{};
    p.labels = rowElement.empty() ? CellLabels::Every : CellLabels::None;
    p.title = g.title;
    p.subtitle = g.subtitle;
    if (p.labels == CellLabels::None) { // as wide as a column number
        p.cellWidth = std::max(3, digits(columns - 1)) * mt.charWidth + 8;
        p.subtitle += "; no cell labels: " + g.label + "(" + g.rowName + "," + g.colName +
                      ") sits in the row whose header names " + g.rowName + ", in column " + g.colName;
    }
    y = addHeaderLines(d, p, g.source, x, y) + mt.headerFont + 14;
    // "lane 127", or "lane 127 · m 255" where the headers carry the labels
    const double rowHeaderW = (p.labels == CellLabels::Every ? 8 : 16) * mt.charWidth + 8;
    p.origin = {x + rowHeaderW, y};
    p.rowHeaders.resize(static_cast<std::size_t>(p.rows));
    p.rowNotes.resize(static_cast<std::size_t>(p.rows));
    for (int c = 0; c < p.cols; ++c) {
        p.colHeaders.push_back(std::to_string(c));
        addText(d, p.origin.x + (c + 0.5) * p.cellWidth, y - 4, p.colHeaders.back(), mt.headerFont,
                TextRole::Header, TextAnchor::Middle, false, true);
    }
    for (int r = 0; r < p.rows; ++r) {
        const int cta = r / tmem::kLanes, lane = r % tmem::kLanes;
        const double by = p.origin.y + (r + 0.7) * mt.cellHeight;
        std::string& header = p.rowHeaders[static_cast<std::size_t>(r)];
        header = "lane " + std::to_string(lane);
        if (p.labels == CellLabels::None && rowElement[static_cast<std::size_t>(r)] >= 0)
            header += " \u00b7 " + g.rowName + " " + std::to_string(rowElement[static_cast<std::size_t>(r)]);
        addText(d, p.origin.x - 4, by, header, mt.headerFont, TextRole::RowHeader, TextAnchor::End, false,
                true);
        if (lane % tmem::kSubpartitionLanes == 0) {
            std::string note = (ctas > 1 ? "CTA " + std::to_string(cta) + " " : std::string()) + "warp " +
                               std::to_string(lane / tmem::kSubpartitionLanes) + " (lanes " +
                               std::to_string(lane) + ".." + std::to_string(lane + 31) + ")";
            p.rowNotes[static_cast<std::size_t>(r)] = note;
            addText(d, p.origin.x + p.cols * p.cellWidth + 8, by, std::move(note), mt.noteFont,
                    TextRole::RowNote);
        }
    }
    const auto panel = static_cast<std::uint16_t>(d.panels.size());
    p.firstCell = static_cast<std::uint32_t>(d.cells.size());
    d.cells.reserve(d.cells.size() + g.elements.size()); // one cell per element: grown once, not doubled
    const LaneColors colors(palette);
    for (std::size_t i = 0; i < g.elements.size(); ++i) {
        const TmemElement& e = g.elements[i];
        makeCell(d.cells.emplace_back(), p, panel, e, g.holderOf(i), e.at.cta * tmem::kLanes + e.at.lane,
                 e.at.column, e.at.bit / g.elementBits, epc, colors);
    }
    p.cellCount = static_cast<std::uint32_t>(d.cells.size()) - p.firstCell;
    const RectF grid = p.gridRect();
    p.bounds = {x, grid.y - 3 * mt.noteFont - 50, grid.right() + 240 - x, grid.h + 3 * mt.noteFont + 50};
    indexGrid(d, p);
    frame(d, grid, p.rows, mt.cellHeight, tmem::kLanes);
    d.width = std::max(d.width, grid.right() + 240 + mt.margin);
    d.height = std::max(d.height, grid.bottom() + mt.margin);
    d.panels.push_back(std::move(p));
    return panel;
}

// The registers of the warpgroup (of each CTA) after `access`: row = thread, column = register of the
// accesses each warp issues one after the other (access j = column chunk x 16-lane half).
int addRegisterPanel(Diagram& d, const Grid& g, const tmem::Access& a, int ctas, double x, double y,
                     Palette palette) {
    const DiagramMetrics& mt = d.metrics;
    const int epc = 32 / g.elementBits; // elements per register
    const int regs = tmem::registersOf(a), span = tmem::columnsOf(a);
    const int halves = tmem::recordOf(a.shape).lanes == 16 ? 2 : 1;
    auto accessOf = [&](const tmem::Holder& h) {
        return h.address.column / span * halves +
               (halves == 2 ? (h.address.lane % tmem::kSubpartitionLanes) / 16 : 0);
    };
    int accesses = 1;
    for (const tmem::Holder& h : g.holders)
        accesses = std::max(accesses, accessOf(h) + 1);
    DiagramPanel p = panelOf(d, g, PanelKind::TensorMemoryRegisters, ctas * tmem::kLanes, accesses * regs,
                             'T', 'r', "thread (warp, lane)", "register");
    const std::string verb = a.op == tmem::Op::Ld ? "after" : "before";
    p.title = "Registers " + verb + " " + tmem::ptxOf(a) + "  " + std::to_string(ctas * tmem::kLanes) +
              " threads × " + std::to_string(accesses * regs) + " registers (" + std::to_string(accesses) +
              (accesses == 1 ? " access" : " accesses") + " a warp)";
    p.subtitle =
        "rows: thread of the warpgroup (warp w = rows 32w..32w+31); columns: register r of access #j "
        "(each warp issues the access at its own subpartition)" +
        std::string(epc > 1 ? "; lower bits left" : "");
    y = addHeaderLines(d, p,
                       "the access: " + std::string(tmem::recordOf(a.shape).figure) + " (" +
                           std::string(tmem::recordOf(a.shape).cutlass) + "), " + std::string(kNotOnHardware),
                       x, y);
    y += mt.headerFont + 14 + mt.headerFont + 6;    // the access headers over the register headers
    const double rowHeaderW = 5 * mt.charWidth + 8; // "T127"
    p.origin = {x + rowHeaderW, y};
    // Access headers over the register headers: "#1 column 32 (+16 lanes)".
    for (int j = 0; j < accesses; ++j) {
        std::string head = "#" + std::to_string(j) + " column " + std::to_string(j / halves * span);
        if (halves == 2)
            head += j % 2 ? " lanes +16" : " lanes +0";
        addText(d, p.origin.x + j * regs * p.cellWidth + 4, y - mt.headerFont - 6, std::move(head),
                mt.headerFont, TextRole::Header, TextAnchor::Start, true);
    }
    for (int c = 0; c < p.cols; ++c) {
        p.colHeaders.push_back("r" + std::to_string(c % regs));
        addText(d, p.origin.x + (c + 0.5) * p.cellWidth, y - 4, p.colHeaders.back(), mt.headerFont,
                TextRole::Header, TextAnchor::Middle, false, true);
    }
    p.rowHeaders.resize(static_cast<std::size_t>(p.rows));
    p.rowNotes.resize(static_cast<std::size_t>(p.rows));
    for (int r = 0; r < p.rows; ++r) {
        const int cta = r / tmem::kLanes, thread = r % tmem::kLanes;
        const double by = p.origin.y + (r + 0.7) * mt.cellHeight;
        p.rowHeaders[static_cast<std::size_t>(r)] = "T" + std::to_string(thread);
        addText(d, p.origin.x - 4, by, p.rowHeaders[static_cast<std::size_t>(r)], mt.headerFont,
                TextRole::RowHeader, TextAnchor::End, false, true);
        if (thread % tmem::kSubpartitionLanes == 0) {
            std::string note = (ctas > 1 ? "CTA " + std::to_string(cta) + " " : std::string()) + "warp " +
                               std::to_string(thread / tmem::kSubpartitionLanes);
            p.rowNotes[static_cast<std::size_t>(r)] = note;
            addText(d, p.origin.x + p.cols * p.cellWidth + 8, by, std::move(note), mt.noteFont,
                    TextRole::RowNote);
        }
    }
    const auto panel = static_cast<std::uint16_t>(d.panels.size());
    p.firstCell = static_cast<std::uint32_t>(d.cells.size());
    d.cells.reserve(d.cells.size() + g.elements.size());
    const LaneColors colors(palette);
    for (std::size_t i = 0; i < g.elements.size(); ++i) {
        const tmem::Holder& h = g.holders[i];
        const int row = h.cta * tmem::kLanes + h.warp * tmem::kSubpartitionLanes + h.thread;
        makeCell(d.cells.emplace_back(), p, panel, g.elements[i], &h, row, accessOf(h) * regs + h.reg,
                 h.bit / g.elementBits, epc, colors);
    }
    p.cellCount = static_cast<std::uint32_t>(d.cells.size()) - p.firstCell;
    const RectF grid = p.gridRect();
    p.bounds = {x, grid.y - 3 * mt.noteFont - 50 - mt.headerFont, grid.right() + 120 - x,
                grid.h + 3 * mt.noteFont + 50 + mt.headerFont};
    indexGrid(d, p);
    frame(d, grid, p.rows, mt.cellHeight, tmem::kLanes);
    for (int j = 1; j < accesses; ++j) { // the accesses apart
        const double lx = grid.x + j * regs * p.cellWidth;
        d.lines.push_back({{lx, grid.y}, {lx, grid.bottom()}, kGridLine, 2});
    }
    d.width = std::max(d.width, grid.right() + 120 + mt.margin);
    d.height = std::max(d.height, grid.bottom() + mt.margin);
    d.panels.push_back(std::move(p));
    return panel;
}

std::string layoutLine(const tmem::LayoutRecord& rec, std::string_view section) {
    return "PTX ISA §" + std::string(section) + " data-path layout " +
           std::string(tmem::toString(rec.layout)) + " (" + std::string(rec.organisation) + "), " +
           std::string(rec.figure) + "; CUTLASS " + std::string(rec.cutlass);
}

// The scale-factor panels of a block-scaled kind: A's factors (rows m of each CTA) and B's (columns n), for
// the vector size and IDs `bs`; a panel the tables cannot draw is left out and its finding returned.
std::vector<Grid> scaleFactorGrids(const tmem::MmaShape& s, const tcgen05::BlockScale& bs,
                                   std::vector<std::string>& findings) {
    using namespace tcgen05;
    std::vector<Grid> out;
    const ScaleVecRule& rule = ruleOf(bs.vec);
    const std::string vec(toString(rule.vec));
    for (const Operand op : {Operand::A, Operand::B}) {
        const bool a = op == Operand::A;
        if (std::string why = scaleFactorFinding(op, s.m, s.ctaGroup); !why.empty()) {
            findings.push_back("finding: " + why);
            continue;
        }
        const int id = a ? bs.sfaId : bs.sfbId;
        Grid g;
        g.operand = a ? "scale A" : "scale B";
        g.label = a ? "SFA" : "SFB";
        g.rowName = a ? "m" : "n";
        g.colName = "f";
        g.elementBits = 8;
        const int count = scaleFactorRows(op, s.m, s.n, s.ctaGroup);
        g.title = std::string("Scale factors of ") + (a ? "A" : "B") + " in Tensor Memory  ." + vec + ", " +
                  (a ? "SFA" : "SFB") + " ID " + std::to_string(id) + ": " +
                  std::to_string(rule.factorsPerRow) + " factor(s) per " + (a ? "row m" : "column n") +
                  ", one per " + std::to_string(rule.blockSize) + " elements of K";
        g.subtitle =
            std::string(a ? "SFA(m,f)" : "SFB(n,f)") + ": factor f of that " +
            std::string(a ? "row" : "column") +
            ", at byte ID + f of the word; each factor is copied into all four "
            "32-lane subpartitions; 8 bits each, lower bits left; lanes and columns from the [scale-" +
            std::string(a ? "A" : "B") + "-tmem] address";
        g.source = "PTX ISA §" + std::string(rule.section) + " " +
                   std::string(a ? rule.figureA : rule.figureB) + " (" + std::string(rule.idRule) +
                   "; valid " + describeIds(rule) +
                   "; kinds: §9.7.16.10.7.1); lane and column from CUTLASS's tmem_sf_frg (4x1 datapath); " +
                   std::string(kNotOnHardware);
        for (int i = 0; i < count; ++i)
            for (int f = 0; f < rule.factorsPerRow; ++f)
                for (const TmemPlace& at : scaleFactorPlaces(s.kind, rule.vec, id, op, i, f))
                    g.elements.push_back({static_cast<std::int16_t>(i),
                                          static_cast<std::int16_t>(f),
                                          static_cast<std::int16_t>(f),
                                          {0, at.lane, at.column, at.lowBit}});
        out.push_back(std::move(g));
    }
    return out;
}

// A metadata panel's grid, its elements to come: one field of metadataBits per group of A's row.
Grid metadataGridOf(const tcgen05::SparseGranularity& gr, std::string_view whose) {
    Grid g;
    g.operand = "metadata";
    g.operands = Operand::Metadata;
    g.label = "E";
    g.rowName = "m";
    g.colName = "g";
    g.elementBits = gr.metadataBits;
    g.title = "Sparse metadata in Tensor Memory  " + std::to_string(gr.metadataBits) + " bits per group of " +
              std::to_string(gr.group) + " elements of A's row (" + std::to_string(gr.nonZero) + ":" +
              std::to_string(gr.group) + ")" + std::string(whose);
    return g;
}

// The metadata panel of an .sp form where the ISA's figure is transcribed; otherwise nullopt and the finding.
std::optional<Grid> metadataGrid(const tmem::MmaShape& s, std::vector<std::string>& findings) {
    using namespace tcgen05;
    if (!s.sparse)
        return std::nullopt;
    std::string why;
    const MetadataLayoutRecord* rec = metadataLayoutOf(s.kind, s.m, s.ctaGroup, &why);
    if (!rec || !rec->place) {
        findings.push_back("finding: sparse metadata: " +
                           (rec ? "PTX ISA §" + std::string(rec->section) + " " + std::string(rec->figure) +
                                      ": " + std::string(rec->finding)
                                : why));
        return std::nullopt;
    }
    const SparseGranularity gr = sparseGranularity(s.kind);
    const int groups = metadataGroupsPerRow(s.kind);
    const int rows = s.m / s.ctaGroup;
    Grid g = metadataGridOf(gr, s.ctaGroup == 2 ? ", the rows of each CTA" : "");
    g.subtitle = "E(m,g): the metadata of group g (K elements " + std::to_string(gr.group) + "g.." +
                 std::to_string(gr.group) + "g+" + std::to_string(gr.group - 1) +
                 ") of row m; lower bits left; lanes and columns from the [sp-meta-tmem] address; " +
                 std::string(rec->selector);
    g.source = "PTX ISA §" + std::string(rec->section) + " " + std::string(rec->figure) +
               " (granularity §9.7.16.10.8); lane, column and bits from CUTLASS's " +
               std::string(rec->cutlass) + "; " + std::string(kNotOnHardware);
    if (!rec->finding.empty())
        findings.push_back("finding: sparse metadata: " + std::string(rec->finding));
    for (int m = 0; m < rows; ++m)
        for (int group = 0; group < groups; ++group) {
            const TmemPlace at = sparseMetadataPlace(s.kind, s.m, s.ctaGroup, m, group);
            g.elements.push_back({static_cast<std::int16_t>(m),
                                  static_cast<std::int16_t>(group),
                                  static_cast<std::int16_t>(group),
                                  {0, at.lane, at.column, at.lowBit}});
        }
    return g;
}

} // namespace

TensorMemoryExtras tensorMemoryExtras(const tmem::MmaShape& shape,
                                      const std::optional<tcgen05::BlockScale>& blockScale) {
    TensorMemoryExtras out;
    if (const std::optional<tcgen05::BlockScale> def = tcgen05::defaultBlockScale(shape.kind))
        out.grids = scaleFactorGrids(shape, blockScale ? *blockScale : *def, out.findings);
    if (std::optional<Grid> md = metadataGrid(shape, out.findings))
        out.grids.push_back(std::move(*md));
    return out;
}

tmem::MmaShape shapeOf(const Instruction& in, const TensorMemoryOptions& o) {
    tmem::MmaShape shape = *tmem::mmaOf(in);
    shape.n = o.params.n > 0 ? o.params.n : in.n > 0 ? in.n : shape.n;
    return shape;
}

std::optional<tcgen05::BlockScale> blockScaleOf(const tmem::MmaShape& shape, const TensorMemoryOptions& o) {
    if (!tcgen05::defaultBlockScale(shape.kind))
        return std::nullopt;
    return o.params.blockScale ? o.params.blockScale : tcgen05::defaultBlockScale(shape.kind);
}

bool modelsAInTensorMemory(const tmem::MmaShape& shape) {
    return tmem::validate(tmem::View{shape, defaultAccess(shape, tmem::Op::St)}).empty();
}

std::string validate(const Instruction& in, const TensorMemoryOptions& o) {
    if (!tmem::mmaOf(in))
        return "'" + in.spec + "' is not a tcgen05.mma entry";
    if (o.params.tensorOperand != Operand::D && o.params.tensorOperand != Operand::A)
        return "Tensor Memory holds D, or A (layouts A, D and F), not " +
               std::string(toString(o.params.tensorOperand));
    const tmem::MmaShape shape = shapeOf(in, o);
    if (std::string why = tmem::validate(shape); !why.empty())
        return why;
    if (o.params.blockScale) {
        if (std::string why = tcgen05::validate(shape.kind, *o.params.blockScale); !why.empty())
            return why;
    }
    if (o.params.access) {
        if (o.params.access->op != (o.params.tensorOperand == Operand::D ? tmem::Op::Ld : tmem::Op::St))
            return o.params.tensorOperand == Operand::D
                       ? "D is composed with a tcgen05.ld (who holds D[m][n])"
                       : "A is composed with a tcgen05.st (who must hold A[m][k])";
        return tmem::validate(tmem::View{shape, o.params.access});
    }
    if (o.params.tensorOperand == Operand::A && !modelsAInTensorMemory(shape))
        return tmem::validate(tmem::View{shape, defaultAccess(shape, tmem::Op::St)});
    return {};
}

std::vector<tmem::Access> composableAccesses(const tmem::MmaShape& shape, tmem::Op op) {
    std::vector<tmem::Access> out;
    for (const tmem::Shape s : tmem::kShapes)
        for (const int num : tmem::validNums(s))
            for (const bool packed : {false, true}) {
                const tmem::Access a{op, s, num, packed};
                const std::string why = op == tmem::Op::Ld ? tmem::validateComposition(shape, a)
                                                           : tmem::validate(tmem::View{shape, a});
                if (why.empty())
                    out.push_back(a);
            }
    return out;
}

Diagram buildTensorMemoryDiagram(const Instruction& in, const TensorMemoryOptions& o) {
    if (std::string why = validate(in, o); !why.empty())
        throw std::invalid_argument(why);
    const tmem::MmaShape shape = shapeOf(in, o);
    const int ctas = shape.ctaGroup;
    const tmem::LayoutRecord& rec = tmem::layoutOf(shape);
    const bool a = o.params.tensorOperand == Operand::A;

    Diagram d;
    // The catalog entry's spec when drawn as the catalog has it (export --all); with the N and the access
    // asked for otherwise.
    d.title = o.params.n > 0 || o.params.access ? tmem::specOf(shape, true) : in.spec;
    if (o.params.access)
        d.title +=
            (o.params.access->op == tmem::Op::Ld ? "  --ld " : "  --st ") + tmem::specOf(*o.params.access);
    if (o.params.blockScale && blockScaleOf(shape, o))
        d.title += "  ." + std::string(tcgen05::toString(o.params.blockScale->vec)) + " SFA ID " +
                   std::to_string(o.params.blockScale->sfaId) + " SFB ID " +
                   std::to_string(o.params.blockScale->sfbId);
    d.spec = in.spec;
    d.ptx = std::string(in.ptx);
    d.section = std::string(in.section);
    d.anchor = std::string(in.anchor);
    d.scope = Scope::Warpgroup;
    d.threads = tmem::kLanes; // hover group: the TMEM lane, or the holding thread when composed
    d.palette = o.palette;
    // The PTX names the vector size drawn (mxf4nvf4 takes 2X or 4X).
    d.caption.push_back(
        (o.params.blockScale ? tmem::ptxOf(shape, o.params.blockScale->vec) : std::string(in.ptx)) + "  (M " +
        std::to_string(shape.m) + ", N " + std::to_string(shape.n) + ", K " +
        std::to_string(tmem::kOf(shape.kind, shape.sparse)) + " in the instruction descriptor)");
    d.caption.push_back(layoutLine(rec, in.section));
    if (o.params.access)
        d.caption.push_back(
            (o.params.access->op == tmem::Op::Ld
                 ? "who holds D[m][n] after " + tmem::ptxOf(*o.params.access) +
                       ": every warp w of the warpgroup loads its subpartition (lane 32w, +16 for the upper "
                       "half of a 16-lane shape) at columns 0, " +
                       std::to_string(tmem::columnsOf(*o.params.access)) + ", ..."
                 : "who must hold A[m][k] for " + tmem::ptxOf(*o.params.access) +
                       " to put A where the mma reads it (every warp stores its subpartition)") +
            "; hover a cell: the thread lights in both panels, its partner is framed");
    for (const auto& note : in.notes)
        d.caption.emplace_back(note);

    // The operand's elements, and who holds each.
    Grid g;
    const int width = a ? tmem::kOf(shape.kind, shape.sparse) / (shape.sparse ? 2 : 1) : shape.n;
    const int bits = a                                            ? tmem::aElementBits(shape.kind)
                     : o.params.access && o.params.access->packed ? 16
                                                                  : 32;
    g.operands = a ? Operand::A : Operand::D;
    g.operand = toString(g.operands);
    g.label = g.operand;
    g.rowName = "m";
    g.colName = a ? "k" : "n";
    g.elementBits = bits;
    g.elements.reserve(static_cast<std::size_t>(shape.m * width));
    if (o.params.access)
        g.holders.reserve(static_cast<std::size_t>(shape.m * width));
    const tmem::DataPath path(shape);
    for (int m = 0; m < shape.m; ++m)
        for (int k = 0; k < width; ++k) {
            g.elements.push_back({static_cast<std::int16_t>(m), static_cast<std::int16_t>(k),
                                  static_cast<std::int16_t>(k), a ? path.a(m, k, bits) : path.d(m, k)});
            if (o.params.access)
                g.holders.push_back(a ? tmem::whoHoldsA(shape, *o.params.access, m, k, bits)
                                      : tmem::whoHoldsD(shape, *o.params.access, m, k));
        }
    int columns = 1;
    for (const TmemElement& e : g.elements)
        columns = std::max(columns, e.at.column + 1);
    g.title =
        std::string(a ? "A" : "D") + " in Tensor Memory  " + std::to_string(ctas * tmem::kLanes) +
        " lanes × " + std::to_string(columns) + " columns" + (ctas > 1 ? " (2 CTAs)" : "") +
        (a ? ", " + std::to_string(bits) + "-bit elements, " + std::to_string(32 / bits) + " a column" : "") +
        (bits == 16 && !a ? ", the low 16 bits of each column (.pack::16b)" : "");
    g.subtitle = "rows: TMEM lane; columns: TMEM column (32 bits each); warp w of a warpgroup reaches lanes "
                 "32(w%4)..32(w%4)+31" +
                 std::string(a && bits < 32 ? "; lower bits left" : "");
    g.source =
        (a ? "A(m,k): " : "D(m,n): ") + layoutLine(rec, in.section) + "; " + std::string(kNotOnHardware);

    TensorMemoryExtras extras;
    if (o.extras)
        extras = tensorMemoryExtras(shape, o.params.blockScale);
    std::size_t cells = g.elements.size() * (o.params.access ? 2 : 1) + o.spareCells; // register panel
    for (const Grid& extra : extras.grids)
        cells += extra.elements.size();
    d.cells.reserve(cells);

    const DiagramMetrics& mt = d.metrics;
    const double x0 = mt.margin;
    double y = titleAndCaption(d);
    const double top = y + mt.panelTitleFont;
    // Composed, the labels stay: the register panel's cells name the same elements, and the eye matches them.
    const int tmemPanel = addTmemPanel(d, g, ctas, x0, top + (o.params.access ? mt.headerFont + 6 : 0),
                                       o.palette, !o.params.access);
    if (o.params.access) {
        // Beside it, rows level with the Tensor Memory rows (a .32x32b load gives thread t lane t).
        const int regPanel =
            addRegisterPanel(d, g, *o.params.access, ctas, d.width - mt.margin - 40, top, o.palette);
        const DiagramPanel& tp = d.panels[static_cast<std::size_t>(tmemPanel)];
        const DiagramPanel& rp = d.panels[static_cast<std::size_t>(regPanel)];
        d.partner.assign(d.cells.size(), -1);
        for (std::uint32_t i = 0; i < tp.cellCount; ++i) { // built in the same element order
            d.partner[tp.firstCell + i] = static_cast<std::int32_t>(rp.firstCell + i);
            d.partner[rp.firstCell + i] = static_cast<std::int32_t>(tp.firstCell + i);
        }
    }
    if (o.extras) { // under the operand, in either view; what the tables cannot draw is a finding line
        for (std::string& f : extras.findings) { // one line each under what is drawn so far
            const double lineY = d.height - mt.margin + mt.noteFont + 10;
            addText(d, x0, lineY, f, mt.noteFont, TextRole::Caption);
            d.height = lineY + mt.margin;
            d.caption.push_back(std::move(f));
        }
        for (const Grid& extra : extras.grids)
            addTmemPanel(d, extra, 1, x0, d.height - mt.margin + mt.gap + mt.panelTitleFont, o.palette,
                         !o.params.access);
    }
    rebuildHoverIndex(d);
    return d;
}

TensorMemoryOptions viewOptionsOf(const Params& p) {
    return TensorMemoryOptions{.params = p};
}

tmem::View viewOf(const Instruction& in) {
    const TensorMemoryOptions o = viewOptionsOf(in.params);
    return tmem::View{shapeOf(in, o), o.params.access, o.params.blockScale};
}

namespace {

// A tile of sparse atoms: the metadata of each CTA in its Tensor Memory, CTAs stacked as D's are; a cell
// names the group E(m,g) of the tile it holds.
Grid tileMetadataGrid(const Instruction& in, const Placement& meta) {
    const int group = tcgen05::sparseGranularity(tmem::mmaOf(in)->kind).group;
    Grid g = metadataGridOf(tcgen05::sparseGranularity(tmem::mmaOf(in)->kind), ", per CTA");
    for (int m = 0; m < meta.rows(); ++m)
        for (int e = 0; e < meta.cols(); ++e)
            for (const Holding& h : meta.at(m, e)) {
                const TmemCell& c = std::get<TmemCell>(h.at);
                g.elements.push_back(TmemElement{static_cast<std::int16_t>(m), static_cast<std::int16_t>(e),
                                                 static_cast<std::int16_t>(e),
                                                 tmem::Placement{c.cta, c.lane, c.column, c.bitLo}});
            }
    g.subtitle = "rows: CTA, then TMEM lane; a cell names the E(m,g) of the tile it holds (group g: K " +
                 std::to_string(group) + "g.." + std::to_string(group) + "g+" + std::to_string(group - 1) +
                 "); columns from each CTA's [sp-meta-tmem] address, each K step in the next";
    g.source =
        "the atom's metadata figure (PTX ISA §9.7.16.10.8.4) in the CTA that holds row m of A; K steps "
        "as CuTe's tmem_e_frg tiles them; " +
        std::string(kNotOnHardware);
    return g;
}

// A tile of tcgen05.mma atoms (lanemap/tile_ctas.hpp): D per CTA of the cluster, each CTA's 128 lanes under
// the previous one's, every cell naming the D(m,n) of the tile it holds.
Diagram buildTileOverCtasDiagram(const Instruction& in, Palette palette) {
    const Placement* tm = in.placement(Space::TensorMemory, Operand::D);
    if (!tm)
        throw std::invalid_argument(tile::nameOf(in) + " has no D in Tensor Memory");
    const int ctas = in.tile->threads;
    Diagram d;
    d.title = tile::nameOf(in);
    d.spec = in.spec;
    d.ptx = std::string(in.ptx);
    d.section = std::string(in.section);
    d.anchor = std::string(in.anchor);
    d.scope = Scope::Warpgroup;
    d.threads = tmem::kLanes;
    d.palette = palette;
    d.caption.push_back(tile::factLine(*in.tile));
    d.caption.push_back("CuTe's make_tiled_mma over an SM100 atom, whose \"threads\" are CTAs: CTA c = v + " +
                        std::to_string(in.tile->atomThreads) +
                        " x L(m, n, k), v the CTA of the atom's pair, L the atom layout");
    const Placement* meta = in.placement(Space::TensorMemory, Operand::Metadata);
    d.caption.push_back(
        std::string(meta ? "D and the sparse metadata of each CTA in its own Tensor Memory; "
                           "A (compressed, K/2) and B in its shared memory"
                         : "D of each CTA in its own Tensor Memory; A and B in its shared memory") +
        ": lanemap-cli where, what --cta, export --format json");
    Grid g;
    g.operands = Operand::D;
    g.operand = "D";
    g.label = "D";
    g.rowName = "m";
    g.colName = "n";
    g.elementBits = 32;
    int columns = 1;
    for (int m = 0; m < tm->rows(); ++m)
        for (int n = 0; n < tm->cols(); ++n)
            for (const Holding& h : tm->at(m, n)) {
                const TmemCell& c = std::get<TmemCell>(h.at);
                g.elements.push_back(TmemElement{static_cast<std::int16_t>(m), static_cast<std::int16_t>(n),
                                                 static_cast<std::int16_t>(n),
                                                 tmem::Placement{c.cta, c.lane, c.column, c.bitLo}});
                columns = std::max(columns, c.column + 1);
            }
    g.title = "D in Tensor Memory  " + std::to_string(ctas) + " CTAs x " + std::to_string(tmem::kLanes) +
              " lanes x " + std::to_string(columns) + " columns";
    g.subtitle = "rows: CTA, then TMEM lane; columns: TMEM column (32 bits each); a cell names the D(m,n) of "
                 "the tile it holds";
    g.source = "D(m,n): the atom's data-path layout (" + std::string(in.section) +
               ") in the CTA the tile "
               "gives it; " +
               std::string(kNotOnHardware);
    const DiagramMetrics& mt = d.metrics;
    const double x0 = mt.margin;
    double y = titleAndCaption(d);
    addTmemPanel(d, g, ctas, x0, y + mt.panelTitleFont, palette, true);
    if (meta)
        addTmemPanel(d, tileMetadataGrid(in, *meta), ctas, x0,
                     d.height - mt.margin + mt.gap + mt.panelTitleFont, palette, false);
    else if (std::string note = tile::metadataNote(in); !note.empty()) {
        const double lineY = d.height - mt.margin + mt.noteFont + 10;
        addText(d, x0, lineY, "finding: " + note, mt.noteFont, TextRole::Caption);
        d.height = lineY + mt.margin;
        d.caption.push_back("finding: " + std::move(note));
    }
    rebuildHoverIndex(d);
    return d;
}

} // namespace

Diagram buildTensorMemoryDiagram(const Instruction& in, Palette palette) {
    if (tile::overCtas(in))
        return buildTileOverCtasDiagram(in, palette);
    TensorMemoryOptions o = viewOptionsOf(in.params); // what the instance's parameters ask for
    o.palette = palette;
    return buildTensorMemoryDiagram(in, o);
}

// ---- cell texts (Diagram::labelText / tooltipText / hoverId delegate here)
// ----------------------------------

namespace {
class Put {
  public:
    explicit Put(CellText& out) : m_out(out), m_p(out.chars) {}
    ~Put() { m_out.size = static_cast<std::uint16_t>(m_p - m_out.chars); }
    Put(const Put&) = delete;
    Put& operator=(const Put&) = delete;
    template <class... T> void operator()(const T&... parts) { (put(parts), ...); }

  private:
    char* end() { return m_out.chars + sizeof m_out.chars; }
    void put(std::string_view v) {
        if (static_cast<std::size_t>(end() - m_p) >= v.size())
            m_p = std::copy_n(v.data(), v.size(), m_p);
    }
    void put(const char* v) { put(std::string_view(v)); }
    void put(char c) {
        if (m_p < end())
            *m_p++ = c;
    }
    void put(int v) { m_p = std::to_chars(m_p, end(), v).ptr; }
    CellText& m_out;
    char* m_p;
};

constexpr std::string_view kDot = " \u00b7 ";

// "D(37,5)", "SFA(5,0)", "E(5,3)".
void element(Put& put, const DiagramPanel& p, const DiagramCell& c) {
    put(tensorMemoryName(p), '(', int{c.element}, ',', int{c.bitLo}, ')');
}

void bitRange(Put& put, int lowBit, int bits) {
    if (bits < 32)
        put('[', lowBit + bits - 1, "..", lowBit, ']');
}

// "CTA 0 lane 37 column 5", bits when the element is narrower than the cell.
void tmemPlace(Put& put, const DiagramPanel& p, const DiagramCell& c) {
    const tmem::Address at = tmem::Address::decode(c.address);
    put("CTA ", int{c.matrix}, " lane ", at.lane, " column ", at.column);
    bitRange(put, c.groupID, p.elementBits);
}

// "warp 1 lane 5 r0[31..0]": the register that holds it.
void holder(Put& put, const DiagramPanel& p, const DiagramCell& c) {
    put("warp ", int{c.warp}, " lane ", int{c.lane}, " r", int{c.reg}, '[', c.bitHi + p.elementBits - 1, "..",
        int{c.bitHi}, ']');
}

// Whether a Tensor Memory cell is moved by the view's tcgen05.ld / st: D's or A's, not the scale factors'
// or the metadata beside them.
bool heldInRegisters(const Diagram& d, const DiagramPanel& p) {
    return !d.partner.empty() && (p.operands == Operand::D || p.operands == Operand::A);
}
} // namespace

std::string_view tensorMemoryName(const DiagramPanel& p) {
    const std::string_view op = p.name;
    return op == "scale A" ? "SFA" : op == "scale B" ? "SFB" : op == "metadata" ? "E" : op;
}

void tensorMemoryLabel(const DiagramPanel& p, const DiagramCell& c, CellText& text) {
    Put put(text);
    element(put, p, c);
}

void tensorMemoryTooltip(const Diagram& d, const DiagramPanel& p, const DiagramCell& c, CellText& text) {
    Put put(text);
    if (p.kind ==
        PanelKind::TensorMemoryRegisters) { // "warp 1 lane 5 r0[31..0] · D(37,5) · CTA 0 lane 37 ..."
        holder(put, p, c);
        put(kDot);
        element(put, p, c);
        put(kDot);
        tmemPlace(put, p, c);
        return;
    }
    element(put, p, c);
    put(kDot);
    tmemPlace(put, p, c);
    put(kDot);
    if (heldInRegisters(d, p)) { // "... · held by warp 1 lane 5 r0[31..0]"
        put("held by ");
        holder(put, p, c);
    } else
        put("warp ", int{c.warp});
}

void tensorMemoryHoverId(const DiagramPanel& p, const DiagramCell& c, CellText& text) {
    Put put(text);
    const tmem::Address at = tmem::Address::decode(c.address);
    if (p.kind == PanelKind::TensorMemoryRegisters)
        put("tmem-reg-t", int{c.thread}, "-r", int{c.col}, "-b", int{c.bitHi});
    else
        put("tmem-c", int{c.matrix}, "-l", at.lane, "-c", at.column);
    if (p.operands != Operand::D || c.groupID != 0) {
        put('-');
        for (const char ch : p.name)
            put(ch == ' ' ? '-' : ch);
        if (c.groupID != 0)
            put("-b", int{c.groupID});
    }
}

} // namespace lanemap
