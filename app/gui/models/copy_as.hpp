#pragma once
// Edit > Copy as CuTe / Triton / CUDA / Markdown: the text for one operand of an instruction
// (docs/reference/exports.md). The menu that puts it on the clipboard is copy_as_menu.hpp.

#include "lanemap/model.hpp"

#include <QString>

namespace lanemap::gui {

enum class CopyFormat { Cute, Triton, Cuda, Markdown };

// The clipboard text for `operands` ({A}, {B}, {C}, {D}, {C, D} = D, {metadata}) of `in`. The CUDA header is
// whole (it is self-contained); the others hold that operand only (every operand for an empty set). Empty
// when the operand has nothing in the format (metadata in Markdown).
QString copyAsText(const Instruction& in, OperandSet operands, CopyFormat format);

} // namespace lanemap::gui
