#pragma once
// Edit > Copy as CuTe / Triton / CUDA / Markdown for the current operand, and File > Export > the code and
// table formats for the whole instruction (docs/reference/exports.md). Kept apart from main_window.cpp: one
// call installs it.

#include <QString>

class QMenu;

namespace lanemap::gui {

class MainWindow;

// The operand of the pane with keyboard focus, else the compared operand ("A" by default).
QString currentOperand(const MainWindow& window);

// Adds the Copy as actions to `edit` and the Export submenu to `file`.
void installCopyAs(MainWindow& window, QMenu& edit, QMenu& file);

} // namespace lanemap::gui
