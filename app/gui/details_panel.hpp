#pragma once
// The details of the hovered (or selected) cell: lane, thread, warp, element, register, bits, row, col, PTX
// section, where the placement comes from, errata and the probe verdict. "Copy" puts the plain text on the
// clipboard.

#include "cell_info.hpp"

#include <QWidget>

class QTextBrowser;
class QPushButton;
class QLabel;

namespace lanemap::gui {

class DetailsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit DetailsPanel(QWidget* parent = nullptr);

    void setCell(const CellInfo& info);
    void clear(const QString& hint = {});
    const CellInfo& cell() const { return m_info; }
    // What the panel shows, as plain text (what "Copy" copies).
    QString plainText() const { return m_info.toPlainText(); }
    QString shownText() const; // the rendered panel text (tests read it)

  public slots:
    void copyToClipboard() const;

  private:
    CellInfo m_info;
    QTextBrowser* m_browser = nullptr;
    QPushButton* m_copy = nullptr;
};

} // namespace lanemap::gui
