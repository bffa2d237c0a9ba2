#pragma once
// Side-by-side compare of two variants (e.g. the A operands of mma.m16n8k8.tf32 and .f16): which positions
// are held by a different (thread, element) pair in the other variant (lanemap/compare.hpp), and the words
// the compare page says it in.

#include "lanemap/compare.hpp"
#include "lanemap/feeds.hpp"
#include "lanemap/vocabulary.hpp"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanemap {
struct Diagram;
struct Instruction;
} // namespace lanemap

namespace lanemap::gui {

// The comparison itself is the core's (lanemap/compare.hpp), shared with the web app.
using lanemap::compareDiagram;
using lanemap::comparedOperand;
using lanemap::CompareResult;

// A TMA box (shown) and the operand of the partner that reads it through a descriptor (lanemap/feeds.hpp):
// the shared-memory compare, when the two hold no register operand in common. `operand`: the toolbar's pick
// (A unless B); the partner's own shared-memory choice, else K-major 128B (as wgmma is drawn by default).
// nullopt with `error` when they do not compare so.
std::optional<feeds::Answer> sharedMemoryFeed(const Selection& shown, const Selection& partner,
                                              Operand operand, QString* error = nullptr);
using lanemap::feedMarks; // the positions and 16-byte chunks where a box and its reader disagree

// "A, B, C, D", or "none" for an instruction with no register operand.
QString operandList(const Instruction& instruction);
// Why `mine` and `other` cannot be compared: they hold no operand in common in registers.
QString noOperandInCommon(const Instruction& mine, const Instruction& other);

} // namespace lanemap::gui
