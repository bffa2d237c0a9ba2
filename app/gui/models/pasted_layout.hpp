#pragma once
// The app's "Paste a layout" (docs/layouts-in.md#the-app): a pasted CuTe or Triton layout read once
// (lanemap/layout_in.hpp) into the instruction the panes draw — a register placement for a thread-value
// layout, a shared-memory one for a swizzled layout — and compared with an operand of the instruction shown,
// as the compare page shows it. Widget-free.

#include "lanemap/layout_in.hpp"
#include "lanemap/model.hpp"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace lanemap::gui {

struct PastedLayout {
    bool ok = false;
    // What does not read: "line 1, column 12: expected ..." and where (0 when the whole text is at fault).
    QString error;
    int errorLine = 0, errorColumn = 0;
    int errorOffset = -1;                    // byte offset in the text, -1 for none
    bool shared = false;                     // a swizzled shared-memory layout
    std::optional<layout_in::Layout> layout; // a thread-value layout
    std::optional<layout_in::SharedLayout> sharedLayout;
    std::optional<layout_in::Extent> extent;  // the shape it is drawn over
    std::shared_ptr<const Instruction> drawn; // what the pane draws
    QString summary;                          // "Triton #ttg.dot_op, 32 threads x 8 values over 16x16 ..."
};

// Reads `text` over `shape` ("16x16"; empty: the layout's own, where it has one).
PastedLayout readPasted(const QString& text, const QString& shape);

// The operands of `current` a pasted layout compares with: its register operands (a thread-value layout), or
// its shared-memory A and B (a swizzled layout of a wgmma).
std::vector<Operand> comparableOperands(const PastedLayout& pasted, const Instruction& current);

struct PastedComparison {
    bool ok = false;
    QString error;
    // The layout as the compare partner: its cells in lanemap's orientation (CuTe's B transposed), the
    // operand named; nullptr for a swizzled layout, whose comparison is bytes (text only).
    std::shared_ptr<const Instruction> partner;
    int cells = 0, differing = 0;
    QString firstDifference; // the first differing cell in both notations; empty when equal
    QString hardware;        // whether the operand compared with is confirmed on hardware, and where
    QString text;            // all of it, one paragraph
};
PastedComparison comparePasted(const PastedLayout& pasted, const Instruction& current, Operand operand);

} // namespace lanemap::gui
