#pragma once
// What the Help menu says: the quick guide, the keyboard shortcuts (read from the menus, so a new shortcut is
// listed without an edit here) and About lanemap.

#include <QString>

class QMenuBar;
class QWidget;

namespace lanemap::gui {

QString quickGuideText();
// Every shortcut of `menus`' actions, then the keys a focused pane takes; an HTML table.
QString shortcutsText(const QMenuBar& menus);
// What lanemap is, its licence, the Qt it runs on.
QString aboutText();
// Opens `url` in the browser; where none starts, says so in a box over `parent` that shows the link to copy.
void openLink(QWidget* parent, const QString& url);

} // namespace lanemap::gui
