#pragma once
// A layout that places its items left to right and wraps them onto the next line when the width runs out
// (Qt's flow layout example, trimmed): a pane's row of tools never makes the window wider than the screen.

#include <QLayout>

#include <vector>

namespace lanemap::gui {

class FlowLayout : public QLayout {
  public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(m_items.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return place(QRect(0, 0, width, 0), false); }
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

  private:
    int place(const QRect& rect, bool apply) const; // the height the items take in `rect`'s width

    std::vector<QLayoutItem*> m_items;
    int m_spacing;
};

} // namespace lanemap::gui
