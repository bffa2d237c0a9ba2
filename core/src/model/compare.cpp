#include "lanemap/compare.hpp"

#include "lanemap/feeds.hpp"

#include "lanemap/diagram.hpp"

#include <algorithm>
#include <utility>

namespace lanemap {

namespace {

std::vector<std::pair<int, int>> ownersAt(const FragmentLayout& op, int matrix, int row, int col) {
    std::vector<std::pair<int, int>> out;
    if (row >= op.rows() || col >= op.cols())
        return out;
    for (const Element& e : op.owners(row, col, std::max(matrix, 0)))
        out.emplace_back(e.thread, e.index);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

CompareResult compareDiagram(const Diagram& d, const Instruction& mine, const Instruction& other) {
    CompareResult result;
    result.marks.assign(d.cells.size(), 0);
    for (const DiagramPanel& panel : d.panels) {
        if (panel.kind != PanelKind::Operand)
            continue;
        const std::optional<Operand> name = panel.operands.empty()
                                                ? std::nullopt
                                                : std::optional(panel.operands.first()); // C of a merged C/D
        const FragmentLayout* a = name ? mine.operand(*name) : nullptr;
        const FragmentLayout* b = name ? other.operand(*name) : nullptr;
        if (!a)
            continue;
        const int matrix = std::max(panel.matrix, 0);
        std::vector<std::uint8_t> differs(static_cast<std::size_t>(panel.rows * panel.cols), 0);
        for (int r = 0; r < panel.rows; ++r)
            for (int c = 0; c < panel.cols; ++c) {
                const bool diff =
                    !b || matrix >= b->matrices() || ownersAt(*a, matrix, r, c) != ownersAt(*b, matrix, r, c);
                differs[static_cast<std::size_t>(r * panel.cols + c)] = diff;
                ++result.positions;
                result.differing += diff;
            }
        for (std::uint32_t i = panel.firstCell; i < panel.firstCell + panel.cellCount; ++i) {
            const DiagramCell& cell = d.cells[i];
            bool diff = false;
            for (int c = cell.col; c <= cell.colLast; ++c)
                diff = diff || differs[static_cast<std::size_t>(cell.row * panel.cols + c)];
            result.marks[i] = diff;
        }
    }
    return result;
}

bool inRegisters(const Instruction& in, Operand operand) {
    const Placement* p = in.placement(Space::Registers, operand);
    return p && p->fragment() && in.operand(operand);
}

std::optional<Operand> comparedOperand(const Instruction& mine, const Instruction& other, Operand preferred) {
    for (const Operand o : {preferred, Operand::A, Operand::B, Operand::C, Operand::D})
        if (inRegisters(mine, o) && inRegisters(other, o))
            return o;
    return std::nullopt;
}

CompareResult feedMarks(const Diagram& d, const feeds::Comparison& c, bool writer) {
    CompareResult result;
    result.marks.assign(d.cells.size(), 0);
    const int cols = writer ? c.writerCols : c.readerCols;
    const std::vector<std::uint8_t>& differs = writer ? c.writerDiffers : c.readerDiffers;
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        const DiagramCell& cell = d.cells[i];
        const PanelKind kind = d.panels[cell.panel].kind;
        if (kind == PanelKind::SharedMemory) {
            const auto at = static_cast<std::size_t>(cell.row * cols + cell.col);
            result.marks[i] = at < differs.size() ? differs[at] : 0;
        } else if (kind == PanelKind::SharedMemoryMap) {
            // A chunk differs when a byte of it the reader reads differs.
            const auto lo =
                std::lower_bound(c.differingBytes.begin(), c.differingBytes.end(), cell.address & ~15u);
            result.marks[i] = lo != c.differingBytes.end() && *lo < (cell.address & ~15u) + 16u;
        }
    }
    result.positions = c.compared;
    result.differing = c.compared - c.equal;
    return result;
}

} // namespace lanemap
