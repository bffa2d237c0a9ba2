#pragma once
// Edit > Copy as CuTe / Triton / CUDA / Markdown for the current operand, and File > Export > the code and
// table formats for the whole instruction (docs/reference/exports.md). Kept apart from main_window.cpp: one
// call installs it.

#include "lanemap/vocabulary.hpp"

#include <QString>

class QMainWindow;
class QMenu;

namespace lanemap::gui {

class PaneArea;
class ViewState;

// What Copy as copies: the operands of the pane with keyboard focus (every operand for a pane of another
// space, or the products), else the operand compared; and the words that name them.
struct CopiedOperands {
    OperandSet operands;
    QString label;
};
CopiedOperands currentOperands(const PaneArea& area, const ViewState& state);

// Adds the Copy as actions to `edit` and the Export submenu to `file` of `window`, for the instance `state`
// shows.
void installCopyAs(QMainWindow& window, QMenu& edit, QMenu& file, const PaneArea& area,
                   const ViewState& state);

} // namespace lanemap::gui
