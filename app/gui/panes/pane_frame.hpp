#pragma once
// One operand pane: a header line (operand, matrix axes, the hardware verdict badge, this pane's own zoom)
// over its DiagramView. The badge says once per pane what the probe said, so no mark has to sit on a cell
// label.

#include <QWidget>

class QLabel;

namespace lanemap::gui {

class DiagramView;

class PaneFrame : public QWidget {
    Q_OBJECT
  public:
    explicit PaneFrame(DiagramView* view, QWidget* parent = nullptr);

    DiagramView* view() const { return m_view; }
    QLabel* title() const { return m_title; }
    QLabel* badge() const { return m_badge; }
    QLabel* zoomLabel() const { return m_zoom; }

    // `compact`: the title said shorter, shown when the full one and the badge do not both fit (a narrow
    // pane at 1280 px); the full title and the badge's words stay in the title's tooltip.
    // `detail`: more than the header line says (a register grid's caption), always in the title's tooltip.
    void setTitle(const QString& text, const QString& compact = {}, const QString& detail = {});
    // A row of controls between the header and the view (the shared-memory pickers); the frame owns it.
    void setTools(QWidget* tools);
    QWidget* tools() const { return m_tools; }
    // `ok`: confirmed (green), else disagreeing (red); empty text hides the badge. `icon` ("✓", "✗ 3") is
    // what the badge shrinks to when the pane is too narrow for its words beside the title.
    void setBadge(const QString& text, bool ok, const QString& toolTip = {}, const QString& icon = {});
    // True while the badge shows only its icon.
    bool badgeCompact() const { return m_badgeCompact; }

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    void fitHeader(); // full or compact title and badge, whichever fit the pane's width

    DiagramView* m_view = nullptr;
    QString m_titleText, m_titleCompact, m_titleDetail, m_badgeText, m_badgeIcon, m_badgeToolTip;
    bool m_badgeCompact = false;
    bool m_laidOut = false; // sized by its layout at least once: the header can be fitted
    QLabel* m_title = nullptr;
    QLabel* m_badge = nullptr;
    QLabel* m_zoom = nullptr;
    QWidget* m_tools = nullptr;
};

} // namespace lanemap::gui
