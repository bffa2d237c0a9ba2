#include "window_keys.hpp"

#include "diagram_view.hpp"
#include "pane_area.hpp"
#include "view_state.hpp"

#include <QAction>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QShortcut>

namespace lanemap::gui {

namespace {

// Lets a window shortcut through a line edit, unless the key is one a line edit edits with (copy, paste,
// undo, select all, moves): a QLineEdit on Unix takes Ctrl+E as "end of line" and the shortcut never fires.
class ShortcutPassThrough : public QObject {
  public:
    ShortcutPassThrough(QMainWindow& window) : QObject(&window), m_window(window) {}

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::ShortcutOverride)
            return QObject::eventFilter(watched, event);
        auto* key = static_cast<QKeyEvent*>(event);
        if (!(key->modifiers() & Qt::ControlModifier))
            return false;
        for (const QKeySequence::StandardKey editing :
             {QKeySequence::Copy, QKeySequence::Cut, QKeySequence::Paste, QKeySequence::Undo,
              QKeySequence::Redo, QKeySequence::SelectAll, QKeySequence::DeleteStartOfWord,
              QKeySequence::DeleteEndOfWord, QKeySequence::MoveToNextWord, QKeySequence::MoveToPreviousWord,
              QKeySequence::SelectNextWord, QKeySequence::SelectPreviousWord})
            if (key->matches(editing))
                return false;
        const QKeySequence pressed(key->keyCombination());
        for (const QAction* action : m_window.findChildren<QAction*>())
            if (action->isEnabled() && action->shortcut() == pressed) {
                event->ignore(); // not the line edit's: the shortcut fires
                return true;
            }
        return false;
    }

  private:
    QMainWindow& m_window;
};

} // namespace

void installWindowKeys(QMainWindow& window, QMenu& view, ViewState& state, PaneArea& area) {
    // A pane takes Esc itself (it also clears its cursor); anywhere else the window unpins.
    auto* unpin = new QShortcut(QKeySequence(Qt::Key_Escape), &window);
    unpin->setObjectName(QStringLiteral("shortcutUnpin"));
    QObject::connect(unpin, &QShortcut::activated, &state, [&state] { state.setPinnedLane(-1); });

    QAction* focus = view.addAction(QObject::tr("Focus the &panes"), &area, [&area] {
        for (DiagramView* v : area.views())
            if (v->isVisible()) {
                v->setFocus(Qt::ShortcutFocusReason);
                return;
            }
    });
    focus->setObjectName(QStringLiteral("actionFocusPanes"));
    focus->setShortcut(QKeySequence(Qt::Key_F6));
    focus->setToolTip(QObject::tr("Move the keyboard focus to the first pane, onto the pinned lane"));

    auto* passThrough = new ShortcutPassThrough(window);
    for (QLineEdit* edit : window.findChildren<QLineEdit*>())
        edit->installEventFilter(passThrough);
}

} // namespace lanemap::gui
