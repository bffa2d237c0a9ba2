#pragma once
// Edit > Copy as CuTe / Triton / CUDA / Markdown for the current operand, and File > Export > the code and
// table formats for the whole instruction (docs/reference/exports.md). Kept apart from main_window.cpp: one
// call installs it.

#include "lanemap/model.hpp"

#include <QString>

class QMenu;

namespace lanemap::gui {

class MainWindow;

enum class CopyFormat { Cute, Triton, Cuda, Markdown };

// The clipboard text for `operand` ("A", "B", "C", "D", C/D = D, "metadata") of `in`. The CUDA header is
// whole (it is self-contained); the others hold that operand only. Empty when the operand has nothing in
// the format (metadata in Markdown).
QString copyAsText(const Instruction& in, const QString& operand, CopyFormat format);

// The operand of the pane with keyboard focus, else the compared operand ("A" by default).
QString currentOperand(const MainWindow& window);

// Adds the Copy as actions to `edit` and the Export submenu to `file`.
void installCopyAs(MainWindow& window, QMenu& edit, QMenu& file);

} // namespace lanemap::gui
