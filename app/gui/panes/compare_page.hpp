#pragma once
// Compare: the instance shown and the compare partner side by side, one operand of both (the one the toolbar
// picks where both hold it), with the positions held by a different lane or element marked on both sides
// and counted (compare.hpp). Shown by the pane area in place of the panes while a partner is set.

#include "pane.hpp"

#include <QWidget>

class QLabel;
class QSplitter;

namespace lanemap::gui {

class DiagramView;

class ComparePage : public QWidget {
    Q_OBJECT
  public:
    explicit ComparePage(const Pane::Context& context, QWidget* parent = nullptr);

    // Draws the state's instance and partner again (nothing to draw when either is missing).
    void rebuild();
    // Left = the instance shown, right = the partner; nullptr when no operand is compared.
    DiagramView* view(int side) const;
    std::vector<DiagramView*> views() const;
    // Positions of the compared operand held differently in the partner.
    int differences() const { return m_differences; }
    // The comparison as Copy image and Export PNG take it: the summary line over both sides, whole, their
    // differing positions marked. Null when nothing is compared.
    QImage picture(const PaintOptions& options, double scale) const;

  signals:
    void tabPressed(lanemap::gui::DiagramView* view, bool backward);
    void painted(const QObject* view, double ms);
    void hovered();

  private:
    // A TMA box and the partner's operand that reads it, side by side in shared memory (compare.hpp
    // sharedMemoryFeed); false when they do not compare so.
    void alignSides();
    bool rebuildFeed();
    void onHover(DiagramView* view, int cell);
    CellInfo describe(const DiagramView* view, int cell) const;

    Pane::Context m_context;
    QLabel* m_summary = nullptr;
    QSplitter* m_splitter = nullptr;
    struct Side {
        DiagramView* view = nullptr;
        std::shared_ptr<const Instruction> instance;
    };
    std::vector<Side> m_sides;
    int m_differences = 0;
    QString m_summaryText; // the summary line as plain text, for the picture
};

} // namespace lanemap::gui
