#pragma once
// Keys the window takes wherever the keyboard focus is: Esc unpins the pinned lane (as the status bar says,
// from the filter too), View -> Focus the panes (F6) moves the focus onto the pinned lane's cell of the first
// pane, and the window's shortcuts (Export SVG, Ctrl+E) reach it while a line edit has the focus, which
// would otherwise take them as editing keys. Kept apart from main_window.cpp: one call installs them.

class QMainWindow;
class QMenu;

namespace lanemap::gui {

class PaneArea;
class ViewState;

void installWindowKeys(QMainWindow& window, QMenu& view, ViewState& state, PaneArea& area);

} // namespace lanemap::gui
