#include "view_state.hpp"

namespace lanemap::gui {

ViewState::ViewState(QObject* parent) : QObject(parent) {}

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

void ViewState::setSelector(int selector) {
    if (selector == m_selector)
        return;
    m_selector = selector;
    emit selectorChanged(selector);
    emit diagramOptionsChanged();
}

void ViewState::setCompareSpec(const QString& spec) {
    if (spec == m_compareSpec)
        return;
    m_compareSpec = spec;
    emit compareChanged();
}

void ViewState::setCompareOperand(Operand operand) {
    if (operand == m_compareOperand)
        return;
    m_compareOperand = operand;
    emit compareChanged();
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

} // namespace lanemap::gui
