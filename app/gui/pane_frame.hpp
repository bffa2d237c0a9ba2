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

    void setTitle(const QString& text);
    // A row of controls between the header and the view (the shared-memory pickers); the frame owns it.
    void setTools(QWidget* tools);
    QWidget* tools() const { return m_tools; }
    // `ok`: confirmed (green), else disagreeing (red); empty text hides the badge.
    void setBadge(const QString& text, bool ok, const QString& toolTip = {});

  private:
    DiagramView* m_view = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_badge = nullptr;
    QLabel* m_zoom = nullptr;
    QWidget* m_tools = nullptr;
};

} // namespace lanemap::gui
