#pragma once
// "Paste a layout" (docs/layouts-in.md#the-app): a CuTe or Triton layout pasted as text and a shape, drawn
// with the same pictures as an instruction's operands (the register grid for a thread-value layout, the
// shared-memory grid for a swizzled one); an error shown inline at its line and column; "Compare with" an
// operand of the instruction shown opens the compare page on the two (the differing cells marked, the first
// difference named, and whether the operand is hardware-confirmed). The reading is pasted_layout.hpp's.

#include "pasted_layout.hpp"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace lanemap::gui {

class DiagramView;
class ViewState;

class PasteLayoutPane : public QWidget {
    Q_OBJECT
  public:
    explicit PasteLayoutPane(ViewState* state, QWidget* parent = nullptr);

    // Reads the text and the shape and draws the layout (or shows why not).
    void draw();
    // Compares the layout drawn with the chosen operand of the instruction shown; a thread-value layout opens
    // the compare page. False (and the reason shown) when they do not compare.
    bool compare();
    void setText(const QString& text, const QString& shape = QString());

    const PastedLayout& pasted() const { return m_pasted; }
    const PastedComparison& comparison() const { return m_comparison; }
    DiagramView* view() const { return m_view; }

  private:
    void followInstance();

    ViewState* m_state = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QLineEdit* m_shape = nullptr;
    QLabel* m_status = nullptr;
    DiagramView* m_view = nullptr;
    QComboBox* m_operand = nullptr;
    QPushButton* m_compare = nullptr;
    QLabel* m_verdict = nullptr;
    PastedLayout m_pasted;
    PastedComparison m_comparison;
};

} // namespace lanemap::gui
