#pragma once
// Side-by-side compare of two instructions (e.g. the A operands of mma.m16n8k8.tf32 and .f16): which
// positions are held by a different (thread, element) pair in the other. The app's compare page and the web
// app's compare view (docs/web.md#compare) both mark the cells this finds.

#include "lanemap/model.hpp"
#include "lanemap/vocabulary.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace lanemap {

struct Diagram;
namespace feeds {
struct Comparison;
}

struct CompareResult {
    std::vector<std::uint8_t> marks; // per cell of the diagram: 1 = its position differs in the other
    int positions = 0;               // matrix positions compared
    int differing = 0;               // of those, held differently (or absent) in the other
};

// `diagram` was built from `mine`; every operand cell is compared with the same operand of `other` (a merged
// C/D panel compares C). Positions outside the other operand's extent differ.
CompareResult compareDiagram(const Diagram& diagram, const Instruction& mine, const Instruction& other);
// A TMA box and its reader compared in shared memory (lanemap/feeds.hpp): marks per cell of `diagram` — the
// writer's picture (`writer`) or the reader's, as buildSharedMemoryDiagram draws them — of the positions and
// 16-byte chunks where the two disagree (the app's compare page and the web app's).
CompareResult feedMarks(const Diagram& diagram, const feeds::Comparison& comparison, bool writer);

// Whether `instruction` holds `operand` as a register fragment (a tcgen05.mma's A or D in Tensor Memory is
// none: compare draws register fragments).
bool inRegisters(const Instruction& instruction, Operand operand);

// The operand compared: `preferred` where both hold it in registers, else the first both hold (an ldmatrix
// and a tcgen05.ld hold only D, a tcgen05.mma none); nullopt when they hold none in common.
std::optional<Operand> comparedOperand(const Instruction& mine, const Instruction& other, Operand preferred);

} // namespace lanemap
