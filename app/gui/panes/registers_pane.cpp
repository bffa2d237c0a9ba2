#include "registers_pane.hpp"

#include "diagram_cache.hpp"
#include "diagram_view.hpp"
#include "gui_text.hpp"
#include "probe_controller.hpp"
#include "view_state.hpp"

#include "lanemap/verdict.hpp"

#include <algorithm>

namespace lanemap::gui {

namespace {
// Whether the instance's C and D are drawn as one C/D. The Diagram decides: asked for C/D it draws one merged
// panel, or separate C and D panels when the layouts differ.
bool mergesAccumulator(const std::shared_ptr<const Instruction>& in, const Pane::Context& context) {
    if (!in->operand(Operand::C) || !in->operand(Operand::D))
        return false;
    const auto cd = context.cache->get(in, context.state->diagramOptions(kAccumulator, *in));
    return std::any_of(cd->panels.begin(), cd->panels.end(),
                       [](const DiagramPanel& p) { return p.operands == kAccumulator; });
}
} // namespace

RegistersPane::RegistersPane(OperandSet operands, DiagramPart part, const Context& context, QWidget* parent)
    : Pane({Space::Registers, operands, part}, Lights::Lanes, context, parent) {
    const QString name = label();
    view()->setObjectName(QStringLiteral("pane_") + QString(name).remove(QLatin1Char('/')));
    view()->setAccessibleName(tr("%1 operand").arg(name));
    setObjectName(QStringLiteral("frame_") + QString(name).remove(QLatin1Char('/')));
    view()->setPart(part);
}

std::vector<PaneKey> RegistersPane::keysFor(const std::shared_ptr<const Instruction>& instance,
                                            const Context& context) {
    const Instruction& in = *instance;
    std::vector<const Placement*> fragments;
    for (const Placement& p : in.placements)
        if (p.space() == Space::Registers && p.fragment())
            fragments.push_back(&p);
    // Quad-pair products: several operands, each split in products. One pane draws them as the SVG does, a
    // row of A | B | C/D per product, so one zoom serves all of them and every product row reads left to
    // right (an operand per pane fitted each to its own zoom and cut the products mid-row).
    if (std::count_if(fragments.begin(), fragments.end(),
                      [](const Placement* p) { return p->matrices() > 1; }) > 1)
        return {{Space::Registers, {}, DiagramPart::Whole}};
    const bool merged = mergesAccumulator(instance, context);
    std::vector<PaneKey> keys;
    for (const Placement* p : fragments) {
        const OperandSet operands = p->operands();
        if (merged && operands == Operand::D)
            continue; // drawn with C
        keys.push_back({Space::Registers, merged && operands == Operand::C ? kAccumulator : operands,
                        DiagramPart::Whole});
    }
    // Sparse: the metadata picture in two panes, the grid over A and the per-lane 32-bit registers, so both
    // are readable at first sight on a laptop.
    if (in.metadata) {
        keys.push_back({Space::Registers, Operand::Metadata, DiagramPart::Grids});
        const auto metadata =
            context.cache->get(instance, context.state->diagramOptions(Operand::Metadata, in));
        if (!metadata->bitFields.empty())
            keys.push_back({Space::Registers, Operand::Metadata, DiagramPart::Registers});
    }
    return keys;
}

QString RegistersPane::label() const {
    if (operands().empty())
        return QStringLiteral("products");
    if (part() == DiagramPart::Registers)
        return QStringLiteral("metadata registers");
    return qs(toString(operands()));
}

void RegistersPane::rebuild() {
    m_mergedCD = mergesAccumulator(m_instance, m_context);
    setPicture(m_context.cache->get(m_instance, state().diagramOptions(operands(), *m_instance)));
}

CellInfo RegistersPane::describe(int cell) const {
    const Diagram* d = view()->diagram();
    if (!d || !m_instance)
        return {};
    CellInfo info = describeRegisterCell(*m_instance, *d, cell, m_mergedCD, state().selector());
    const ProbeReport* report = nullptr;
    if (const ProbeResult* result = m_context.probe->resultFor(m_instance->spec, &report);
        info.valid && result && report) {
        const DiagramCell& c = d->cells[static_cast<std::size_t>(cell)];
        const CellVerdict v = cellVerdict(result, d->panels[c.panel].operands, c.matrix, c.row, c.col);
        info.probe =
            v == CellVerdict::Mismatch
                ? tr("✗ the hardware placed this cell differently (%1)").arg(describeReport(*report, *result))
                : QStringLiteral("✓ ") + describeReport(*report, *result);
    }
    return info;
}

Pane::Group RegistersPane::group() const {
    if (part() == DiagramPart::Registers)
        return Group::Wide;
    return operands() == Operand::A || operands() == Operand::Metadata || operands().empty() ? Group::A
                                                                                             : Group::Others;
}

QSizeF RegistersPane::splitSize(const QSizeF& aSize) const {
    QSizeF s = naturalSize();
    // The metadata grid and registers scroll (labelled: Fit readable) and A opens whole: with the three
    // stacked in one column, A takes about half its height, a few rows and registers are enough at first
    // sight.
    if (operands() == Operand::Metadata)
        s.setHeight(std::min(s.height(), 0.6 * aSize.height()));
    return s;
}

QString RegistersPane::compactHeading() const {
    if (!m_instance)
        return label();
    const Instruction& in = *m_instance;
    // The operand and its shape, the axes in order (rows x columns).
    if (operands().empty())
        return tr("<b>%1 products</b>").arg(in.operands.front().matrices());
    if (part() == DiagramPart::Registers)
        return tr("<b>e</b> per lane");
    if (operands() == Operand::A)
        return tr("<b>A</b> &nbsp;M×K %1×%2").arg(in.m).arg(in.k);
    if (operands() == Operand::B)
        return tr("<b>B</b> &nbsp;K×N %1×%2").arg(in.k).arg(in.n);
    if (operands() == Operand::Metadata)
        return tr("<b>metadata</b> &nbsp;M×K %1×%2").arg(in.m).arg(in.k);
    return tr("<b>%1</b> &nbsp;M×N %2×%3").arg(label()).arg(in.m).arg(in.n);
}

QString RegistersPane::heading() const {
    if (!m_instance)
        return label();
    const Instruction& in = *m_instance;
    // Which matrix axis runs down the rows and which across the columns.
    if (operands().empty())
        return tr("<b>%1 products</b>, one per row: A rows M, columns K &nbsp;·&nbsp; B rows K, columns N "
                  "&nbsp;·&nbsp; C, D rows M, columns N")
            .arg(in.operands.front().matrices());
    if (part() == DiagramPart::Registers)
        return tr("<b>metadata register e</b> &nbsp;per lane, bit 31 left");
    if (operands() == Operand::A)
        return tr("<b>A</b> &nbsp;rows M = %1, columns K = %2").arg(in.m).arg(in.k);
    if (operands() == Operand::B)
        return tr("<b>B</b> &nbsp;rows K = %1, columns N = %2").arg(in.k).arg(in.n);
    if (operands() == Operand::Metadata)
        return tr("<b>metadata</b> &nbsp;on A: rows M = %1, columns K = %2").arg(in.m).arg(in.k);
    return tr("<b>%1</b> &nbsp;rows M = %2, columns N = %3").arg(label()).arg(in.m).arg(in.n);
}

} // namespace lanemap::gui
