#pragma once
// What every view of the window shares: the instance shown and the selection it was made from, the compare
// partner, the hovered and pinned lane, the cell described and its hover line, coloring, palette, labels,
// theme, the lane filter and the sparsity selector, with one typed signal per change. Panes, the legend, the
// details panel and the toolbar connect to it; the window only sets it (as in KDAB hotspot, the window is a
// shell of docks and panes around shared state).

#include "cell_info.hpp"
#include "preferences.hpp"

#include "lanemap/diagram.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/vocabulary.hpp"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace lanemap::gui {

class ViewState : public QObject {
    Q_OBJECT
  public:
    explicit ViewState(QObject* parent = nullptr);

    // The instance shown (nullptr before the first) and the selection it was made from; the selection's
    // variant is nullptr for an instance from elsewhere (a test's synthetic instruction).
    const std::shared_ptr<const Instruction>& instance() const { return m_instance; }
    const Selection& selection() const { return m_selection; }
    // Shows `instance`, made from `selection`. The choices that still apply stay (a selector it has, lanes
    // within its threads, the pinned lane); the others take their defaults; the hovered lane, the cell and
    // the hover line are forgotten. Then instanceChanged (not diagramOptionsChanged: every picture is made
    // afresh anyway).
    void setInstance(const Selection& selection, std::shared_ptr<const Instruction> instance);

    // Lanes (thread ids: %laneid, or 0..127 in a warpgroup); -1 = none.
    int hoveredLane() const { return m_hoveredLane; }
    void setHoveredLane(int lane);
    int pinnedLane() const { return m_pinnedLane; }
    void setPinnedLane(int lane);

    // The cell the details panel describes (the hovered one, or the keyboard cursor's), and the one line
    // the status bar says of what is under the mouse (a Diagram tooltip).
    const CellInfo& cell() const { return m_cell; }
    void setCell(const CellInfo& cell);
    const QString& hoverText() const { return m_hoverText; }
    void setHoverText(const QString& text);

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

    // The sparsity selector; false (and nothing changes) when the instance shown has no such selector.
    int selector() const { return m_selector; }
    bool setSelector(int selector);

    // Compare: the other instruction (variant nullptr = off), its instance, and the operand compared.
    const Selection& compare() const { return m_compare; }
    const std::shared_ptr<const Instruction>& compareInstance() const { return m_compareInstance; }
    void setCompare(const Selection& partner, std::shared_ptr<const Instruction> instance);
    Operand compareOperand() const { return m_compareOperand; }
    void setCompareOperand(Operand operand);

    // The options a diagram of `operands` ({A}, {C, D}, {metadata}; empty = every operand) is built with.
    DiagramOptions diagramOptions(OperandSet operands, bool sparse) const;
    // The same for `instance`: its selector where it is sparse, the lanes it has.
    DiagramOptions diagramOptions(OperandSet operands, const Instruction& instance) const;

  signals:
    // `newVariant`: another variant (or an instance from elsewhere), not other parameters of the same one.
    void instanceChanged(const std::shared_ptr<const lanemap::Instruction>& instance, bool newVariant);
    void paramsChanged(const lanemap::Params& params);
    void hoveredLaneChanged(int lane);
    void pinnedLaneChanged(int lane);
    void cellChanged(const lanemap::gui::CellInfo& cell);
    void hoverTextChanged(const QString& text);
    void showLabelsChanged(bool on);
    void themeChanged(lanemap::gui::Theme theme);
    void colorByChanged(lanemap::ColorBy colorBy);
    void paletteChanged(lanemap::Palette palette);
    void lanesChanged();
    void selectorChanged(int selector);
    void compareChanged(const lanemap::Selection& partner);
    void compareOperandChanged(lanemap::Operand operand);
    // Coloring, palette, lane filter or selector changed: the diagrams must be rebuilt.
    void diagramOptionsChanged();

  private:
    Selection m_selection;
    std::shared_ptr<const Instruction> m_instance;
    int m_hoveredLane = -1;
    int m_pinnedLane = -1;
    CellInfo m_cell;
    QString m_hoverText;
    ColorBy m_colorBy = ColorBy::Lane;
    Palette m_palette = Palette::Default;
    bool m_showLabels = true;
    Theme m_theme = Theme::Light;
    std::vector<int> m_lanes;
    QString m_lanesText;
    int m_selector = 0;
    Selection m_compare;
    std::shared_ptr<const Instruction> m_compareInstance;
    Operand m_compareOperand = Operand::A;
};

} // namespace lanemap::gui
