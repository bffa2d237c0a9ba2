#include "compare.hpp"

#include "gui_text.hpp"

#include "lanemap/diagram.hpp"

#include <QObject>
#include <QStringList>

#include <algorithm>

namespace lanemap::gui {

QString operandList(const Instruction& in) {
    QStringList names;
    for (const FragmentLayout& op : in.operands)
        if (inRegisters(in, op.operand()))
            names << qs(op.name());
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

std::optional<feeds::Answer> sharedMemoryFeed(const Selection& shown, const Selection& partner,
                                              Operand operand, QString* error) {
    feeds::Request q;
    q.writer = shown;
    q.reader = partner;
    q.operand = operand == Operand::B ? Operand::B : Operand::A;
    // The reader as the app draws it: its own shared-memory choice, else wgmma's default, K-major 128B.
    const smem::Choice choice = partner.params.smem.value_or(smem::Choice{});
    q.major = choice.major;
    q.swizzle = choice.swizzle;
    std::string why;
    std::optional<feeds::Answer> answer = feeds::ask(q, why);
    if (!answer && error)
        *error = QString::fromStdString(why);
    return answer;
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

QString noOperandInCommon(const Instruction& mine, const Instruction& other) {
    return QObject::tr(
               "%1 and %2 hold no operand in common in registers (%1: %3; %2: %4): nothing to compare.")
        .arg(QString::fromStdString(mine.spec), QString::fromStdString(other.spec), operandList(mine),
             operandList(other));
}

} // namespace lanemap::gui
