#pragma once
// The View toolbar: colour by, the lane (or warpgroup thread) filter, the sparsity selector, the zoom
// actions, and the compare partner with the operand compared. Its controls follow the shared ViewState;
// what the user types in it (a lane list, a compare spec) is read by the window, the edge that parses it.

#include <QToolBar>

class QComboBox;
class QLabel;
class QLineEdit;

namespace lanemap::gui {

class ViewState;

class ViewToolBar : public QToolBar {
    Q_OBJECT
  public:
    // The window's View menu actions the toolbar's zoom buttons trigger.
    struct Zoom {
        QAction* in = nullptr;
        QAction* out = nullptr;
        QAction* fit = nullptr;   // fit readable
        QAction* whole = nullptr; // fit all
    };
    ViewToolBar(ViewState* state, const Zoom& zoom, QWidget* parent = nullptr);

    // Marks the lane filter refused with `why`, or (empty) accepted.
    void setLaneError(const QString& why);

  signals:
    void laneFilterEdited(const QString& text);
    void compareEdited(const QString& text);

  private:
    void followInstance();
    void updateSelectorBox();

    ViewState* m_state;
    QComboBox* m_colorBox = nullptr;
    QLabel* m_laneLabel = nullptr;
    QLineEdit* m_laneEdit = nullptr;
    QComboBox* m_selectorBox = nullptr;
    QLineEdit* m_compareEdit = nullptr;
    QComboBox* m_compareOperandBox = nullptr;
};

} // namespace lanemap::gui
