#pragma once
// A compact strip of the core Diagram's legend: one numbered swatch per color key ("lane 0..31", "reg 0..3",
// "group 0..7"). Hovering a lane swatch lights that lane in every pane.

#include "theme.hpp"

#include <QWidget>

#include <memory>
#include <vector>

namespace lanemap {
struct Diagram;
}

namespace lanemap::gui {

class LegendBar : public QWidget {
    Q_OBJECT
  public:
    explicit LegendBar(QWidget* parent = nullptr);
    void setDiagram(std::shared_ptr<const Diagram> diagram);
    void setColors(const ViewColors& colors);
    int entryCount() const { return static_cast<int>(m_entries.size()); }
    // Where swatch `index` is drawn (widget coordinates).
    QRect entryRect(int index) const { return swatchRect(index, width()); }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

  signals:
    void laneHovered(int lane); // -1 when leaving; only when the legend colors by lane
    void laneClicked(int lane); // a lane swatch was clicked (pins the lane, as clicking a cell does)

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    struct Entry {
        QColor fill;
        QString number; // drawn in the swatch
        QString tooltip;
        int key = 0; // -1: the "outside the lane filter" swatch
    };
    QRect swatchRect(int index, int width) const;
    int titleWidth() const;
    int titleWidth(int width) const;
    int swatchSize(int width) const; // 22 px, less (down to 18) where that keeps one row
    std::shared_ptr<const Diagram> m_diagram;
    std::vector<Entry> m_entries;
    QString m_title;
    bool m_byLane = false;
    ViewColors m_colors = viewColors(Theme::Light);
    int m_hover = -1;
};

} // namespace lanemap::gui
