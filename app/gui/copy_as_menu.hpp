#pragma once
// Edit > Copy whole atom as CuTe / Triton / CUDA / Markdown (every operand), and File > Export > the code and
// table formats for the whole instruction (docs/reference/exports.md). Kept apart from main_window.cpp: one
// call installs it.

class QMainWindow;
class QMenu;

namespace lanemap::gui {

class ViewState;

// Adds the Copy as actions to `edit` and the Export submenu to `file` of `window`, for the instance `state`
// shows.
void installCopyAs(QMainWindow& window, QMenu& edit, QMenu& file, const ViewState& state);

} // namespace lanemap::gui
