#pragma once
// Side-by-side compare of two variants (e.g. the A operands of mma.m16n8k8.tf32 and .f16): which positions
// are held by a different (thread, element) pair in the other variant. Read from the core layouts.

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

struct CompareResult {
    std::vector<std::uint8_t> marks; // per cell of the diagram: 1 = its position differs in the other variant
    int positions = 0;               // matrix positions compared
    int differing = 0;               // of those, held differently (or absent) in the other variant
};

// `diagram` was built from `mine`; every operand cell is compared with the same operand of `other`
// (a merged C/D panel compares C). Positions outside the other operand's extent differ.
CompareResult compareDiagram(const Diagram& diagram, const Instruction& mine, const Instruction& other);

// The operand compared: `preferred` where both hold it in registers, else the first both hold (an ldmatrix
// and a tcgen05.ld hold only D, a tcgen05.mma none: its A and D in Tensor Memory are no register
// fragment); nullopt when they hold none in common.
std::optional<Operand> comparedOperand(const Instruction& mine, const Instruction& other, Operand preferred);

// A TMA box (shown) and the operand of the partner that reads it through a descriptor (lanemap/feeds.hpp):
// the shared-memory compare, when the two hold no register operand in common. `operand`: the toolbar's pick
// (A unless B); the partner's own shared-memory choice, else K-major 128B (as wgmma is drawn by default).
// nullopt with `error` when they do not compare so.
std::optional<feeds::Answer> sharedMemoryFeed(const Selection& shown, const Selection& partner,
                                              Operand operand, QString* error = nullptr);
// Marks per cell of `diagram` — the writer's picture (`writer`) or the reader's — of the positions and
// 16-byte chunks where the two disagree.
CompareResult feedMarks(const Diagram& diagram, const feeds::Comparison& comparison, bool writer);

// "A, B, C, D", or "none" for an instruction with no register operand.
QString operandList(const Instruction& instruction);
// Why `mine` and `other` cannot be compared: they hold no operand in common in registers.
QString noOperandInCommon(const Instruction& mine, const Instruction& other);

} // namespace lanemap::gui
