#pragma once
// Internal: the matrix-move sections of the text and JSON exporters (export_matrix_move.cpp).

#include "lanemap/model.hpp"

#include <string>

namespace lanemap {

// "matrix 1 (register 1)": the heading of one matrix of a matrix move's register grid.
std::string matrixMoveTitle(const Instruction& instruction, int matrix);
// The first line of a matrix move's register grid.
std::string matrixMoveSummary(const Instruction& instruction, const FragmentLayout& operand);
// The address map as text; empty for other families.
std::string matrixMoveText(const Instruction& instruction);
// The "matrix_move" object (one line of JSON); empty for other families.
std::string matrixMoveJson(const Instruction& instruction);

} // namespace lanemap
