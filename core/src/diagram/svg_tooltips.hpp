#pragma once
// Tooltips of an exported SVG, built in the viewer (docs/svg.md#tooltips). A <title> per cell was most of a
// large figure's bytes, and a <title> shows only where the file is opened as a document — where scripts run
// too. So the file carries one shared script and small per-panel tables; on hover the script builds the
// cell's tooltip from what its label says (lane, element; address), its grid position (its x and y in the
// document's own units, against the panel's grid) and the tables, in Diagram::tooltip's grammar. A cell that
// draws no label (DiagramPanel::labels) has its tooltip built from the pointer's position on the cells' fill:
// the tables name what its label would say (a Tensor Memory row's m; a shared-memory chunk's address).
//
// The writer checks every cell: it derives the tooltip from exactly what the script will see (the same
// numbers, rounded as written) and compares it with Diagram::tooltipText; a cell whose tooltip the tables do
// not give (a placement from another source, a panel kind without a rule) carries its text in `data-t`.
// Internal to core (svg.cpp).

#include "lanemap/diagram.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::svgtips {

// A number as the SVG writer writes it: whole, or rounded to hundredths.
double asWritten(double v);

// Where a cell's label is written (its x and y), as the writer places it.
struct LabelPoint {
    double x = 0, y = 0;
};
LabelPoint labelPoint(const Diagram& diagram, const DiagramCell& cell);
// Where the script takes a cell's tooltip from: its label, or (a panel without cell labels) the pointer; the
// writer checks each cell at its centre.
LabelPoint hoverPoint(const Diagram& diagram, const DiagramCell& cell);

class Tables {
  public:
    explicit Tables(const Diagram& diagram);
    // True when the script cannot rebuild this cell's tooltip from the tables: write it in data-t.
    bool needsText(std::size_t cell) const { return m_needsText[cell] != 0; }
    // The tables as JSON (the <metadata> element's content).
    std::string json() const;
    // The script: what installs the tooltips and the rules of the figure's panel kinds (a few KB at most, no
    // network, no external file).
    std::string script() const;

  private:
    struct Panel {
        PanelKind kind = PanelKind::Operand;
        double ox = 0, oy = 0, cw = 1, ch = 1; // grid origin and cell size, as written
        int rows = 0, cols = 0;
        // Operand: element -> register, bit hi, bit lo, columns spanned ({-1, ...}: not drawn).
        std::vector<std::array<int, 4>> elements;
        int span = 1;           // Metadata: columns a field covers
        int elementBits = 8;    // SharedMemory: bits of a cell drawn per element
        int swizzleMask = -1;   // chunk before = chunk ^ ((address >> 7) & mask); -1: not swizzled
        std::uint32_t base = 0; // SharedMemoryMap: the address of grid row 0, column 0
        int lanes = 128;        // TensorMemory: lanes per CTA
        int bits = 32;          // TensorMemory: bits of an element (32 / bits elements a cell)
        // TensorMemory without cell labels (CellLabels::None): the m of each row (-1: none), which with the
        // column number names the element under the pointer.
        std::vector<int> rowElements;
        // SharedMemory labelled at chunk starts (CellLabels::ChunkStarts): the address of each chunk's first
        // cell, chunks in grid order; a chunk covers chunkCells cells down a column (chunksDown) or along a
        // row, cellBytes bytes each. Empty when the cells do not follow that rule (they then carry data-t).
        std::vector<std::uint32_t> chunkStarts;
        int chunkCells = 1, cellBytes = 1;
        bool chunksDown = true;
        bool overlapsEarlier = false; // its grid meets an earlier panel's (which the script would find first)
    };
    // The tooltip the script builds for `cell`, as a DiagramCell whose tooltipText is that text (`out` a new
    // DiagramCell: only what the tooltip reads is set); false when the script has no rule for it.
    bool predict(std::size_t panel, const DiagramCell& cell, DiagramCell& out) const;
    int panelAt(double x, double y, int& row, int& col) const;
    bool contains(const Panel& p, double x, double y, int& row, int& col) const;
    // The chunk table of a shared-memory tile labelled at chunk starts (Panel::chunkStarts and its shape).
    static void chunkTable(const Diagram& d, const DiagramPanel& p, Panel& t);
    // The address the chunk table gives grid cell (row, col); false when it names none.
    static bool chunkAddress(const Panel& t, int row, int col, std::uint32_t& address);
    // Which chunk of the table (row, col) falls in, in grid order (its index in Panel::chunkStarts).
    static std::size_t chunkAt(const Panel& t, int row, int col);

    const Diagram& m_d;
    std::vector<Panel> m_panels;
    std::vector<std::uint8_t> m_needsText;
};

} // namespace lanemap::svgtips
