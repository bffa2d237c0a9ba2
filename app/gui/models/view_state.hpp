#pragma once
// What every view of the window shares: the hovered and pinned lane, coloring, palette, labels, theme, the
// lane filter, the sparsity selector and the compare choice, with one signal per change. Views, the legend
// and the details panel connect to it; the window only sets it (as in KDAB hotspot, the window is a shell of
// docks and panes around shared state).

#include "cell_info.hpp"
#include "preferences.hpp"

#include "lanemap/diagram.hpp"
#include "lanemap/vocabulary.hpp"

#include <QObject>
#include <QString>

#include <vector>

namespace lanemap::gui {

class ViewState : public QObject {
    Q_OBJECT
  public:
    explicit ViewState(QObject* parent = nullptr);

    // Lanes (thread ids: %laneid, or 0..127 in a warpgroup); -1 = none.
    int hoveredLane() const { return m_hoveredLane; }
    void setHoveredLane(int lane);
    int pinnedLane() const { return m_pinnedLane; }
    void setPinnedLane(int lane);

    // The cell the details panel describes (the hovered one, or the keyboard cursor's).
    const CellInfo& cell() const { return m_cell; }
    void setCell(const CellInfo& cell);

    ColorBy colorBy() const { return m_colorBy; }
    void setColorBy(ColorBy colorBy);
    Palette palette() const { return m_palette; }
    void setPalette(Palette palette);
    bool showLabels() const { return m_showLabels; }
    void setShowLabels(bool on);
    Theme theme() const { return m_theme; }
    void setTheme(Theme theme);

    // Lane filter: the parsed threads (empty = all) and the text the user typed.
    const std::vector<int>& lanes() const { return m_lanes; }
    const QString& lanesText() const { return m_lanesText; }
    void setLanes(const QString& text, std::vector<int> lanes);

    int selector() const { return m_selector; }
    void setSelector(int selector);

    // Compare: the other instruction's spec (empty = off) and the operand compared.
    const QString& compareSpec() const { return m_compareSpec; }
    void setCompareSpec(const QString& spec);
    Operand compareOperand() const { return m_compareOperand; }
    void setCompareOperand(Operand operand);

    // The options a diagram of `operands` ({A}, {C, D}, {metadata}; empty = every operand) is built with.
    DiagramOptions diagramOptions(OperandSet operands, bool sparse) const;

  signals:
    void hoveredLaneChanged(int lane);
    void pinnedLaneChanged(int lane);
    void cellChanged(const lanemap::gui::CellInfo& cell);
    void showLabelsChanged(bool on);
    void themeChanged(lanemap::gui::Theme theme);
    void colorByChanged(lanemap::ColorBy colorBy);
    void paletteChanged(lanemap::Palette palette);
    void lanesChanged();
    void selectorChanged(int selector);
    void compareChanged();
    // Coloring, palette, lane filter or selector changed: the diagrams must be rebuilt.
    void diagramOptionsChanged();

  private:
    int m_hoveredLane = -1;
    int m_pinnedLane = -1;
    CellInfo m_cell;
    ColorBy m_colorBy = ColorBy::Lane;
    Palette m_palette = Palette::Default;
    bool m_showLabels = true;
    Theme m_theme = Theme::Light;
    std::vector<int> m_lanes;
    QString m_lanesText;
    int m_selector = 0;
    QString m_compareSpec;
    Operand m_compareOperand = Operand::A;
};

} // namespace lanemap::gui
