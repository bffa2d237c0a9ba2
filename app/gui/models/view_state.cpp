#include "view_state.hpp"

#include <algorithm>

namespace lanemap::gui {

namespace {
bool hasSelector(const Instruction& in, int selector) {
    if (!in.metadata)
        return false;
    return std::any_of(in.metadata->selectors.begin(), in.metadata->selectors.end(),
                       [&](const MetadataSelector& s) { return s.value == selector; });
}
} // namespace

ViewState::ViewState(QObject* parent) : QObject(parent) {}

void ViewState::setInstance(const Selection& selection, std::shared_ptr<const Instruction> instance) {
    if (!instance)
        return;
    const bool newVariant = !m_instance || !selection.variant || selection.variant != m_selection.variant;
    const bool newParams = selection.params != m_selection.params;
    m_selection = selection;
    m_instance = std::move(instance);
    const Instruction& in = *m_instance;
    // Keep the choices that still apply; the others take their defaults. Signalled one by one for the
    // controls that show them; the pictures are rebuilt once, on instanceChanged.
    if (!hasSelector(in, m_selector)) {
        const int first =
            in.metadata && !in.metadata->selectors.empty() ? in.metadata->selectors.front().value : 0;
        if (first != m_selector) {
            m_selector = first;
            emit selectorChanged(first);
        }
    }
    if (!m_lanes.empty() && m_lanes.back() >= in.threads) {
        m_lanes.clear();
        m_lanesText.clear();
        emit lanesChanged();
    }
    if (m_pinnedLane >= in.threads)
        setPinnedLane(-1);
    setHoveredLane(-1);
    setCell(CellInfo{});
    setHoverText(QString());
    if (newParams)
        emit paramsChanged(m_selection.params);
    emit instanceChanged(m_instance, newVariant);
}

void ViewState::setHoveredLane(int lane) {
    if (lane == m_hoveredLane)
        return;
    m_hoveredLane = lane;
    emit hoveredLaneChanged(lane);
}

void ViewState::setPinnedLane(int lane) {
    if (lane == m_pinnedLane)
        return;
    m_pinnedLane = lane;
    emit pinnedLaneChanged(lane);
}

void ViewState::setCell(const CellInfo& cell) {
    m_cell = cell;
    emit cellChanged(m_cell);
}

void ViewState::setHoverText(const QString& text) {
    if (text == m_hoverText)
        return;
    m_hoverText = text;
    emit hoverTextChanged(text);
}

void ViewState::setColorBy(ColorBy colorBy) {
    if (colorBy == m_colorBy)
        return;
    m_colorBy = colorBy;
    emit colorByChanged(colorBy);
    emit diagramOptionsChanged();
}

void ViewState::setPalette(Palette palette) {
    if (palette == m_palette)
        return;
    m_palette = palette;
    emit paletteChanged(palette);
    emit diagramOptionsChanged();
}

void ViewState::setShowLabels(bool on) {
    if (on == m_showLabels)
        return;
    m_showLabels = on;
    emit showLabelsChanged(on);
}

void ViewState::setTheme(Theme theme) {
    if (theme == m_theme)
        return;
    m_theme = theme;
    emit themeChanged(theme);
}

void ViewState::setLanes(const QString& text, std::vector<int> lanes) {
    const bool changed = lanes != m_lanes;
    m_lanesText = text;
    if (!changed)
        return;
    m_lanes = std::move(lanes);
    emit lanesChanged();
    emit diagramOptionsChanged();
}

bool ViewState::setSelector(int selector) {
    if (m_instance && !hasSelector(*m_instance, selector))
        return false;
    if (selector == m_selector)
        return true;
    m_selector = selector;
    emit selectorChanged(selector);
    emit diagramOptionsChanged();
    return true;
}

void ViewState::setCompare(const Selection& partner, std::shared_ptr<const Instruction> instance) {
    if (partner == m_compare && instance == m_compareInstance)
        return;
    m_compare = partner;
    m_compareInstance = partner ? std::move(instance) : nullptr;
    emit compareChanged(m_compare);
}

void ViewState::setCompareOperand(Operand operand) {
    if (operand == m_compareOperand)
        return;
    m_compareOperand = operand;
    emit compareOperandChanged(operand);
}

DiagramOptions ViewState::diagramOptions(OperandSet operands, bool sparse) const {
    DiagramOptions o;
    o.operands = operands;
    o.colorBy = m_colorBy;
    o.palette = m_palette;
    o.threads = m_lanes;
    if (sparse)
        o.selector = m_selector;
    return o;
}

DiagramOptions ViewState::diagramOptions(OperandSet operands, const Instruction& instance) const {
    DiagramOptions o = diagramOptions(operands, hasSelector(instance, m_selector));
    std::erase_if(o.threads, [&](int t) { return t >= instance.threads; });
    return o;
}

} // namespace lanemap::gui
