#pragma once
// Internal: the spec parser's branch for ldmatrix / stmatrix / movmatrix (matrix_move_spec.cpp).

#include "lanemap/spec.hpp"

#include <string>

namespace lanemap {

// `input`: lower case, trimmed, opcode only (what parseSpec works on).
ParsedSpec parseMatrixMoveSpec(std::string_view text, const std::string& input, const Catalog& catalog);

} // namespace lanemap
