#pragma once
// What the hardware said about one cell of one operand: the single answer the grid marks, the Cell panel and
// the CLI all read, so they can never disagree.

#include "lanemap/vocabulary.hpp"

#include <string_view>

namespace lanemap {

struct ProbeResult;

enum class CellVerdict : std::uint8_t {
    NotProbed, // no report, or the report's verdict for the variant covers no cells (unsupported)
    Confirmed, // the hardware put this cell where the layout says
    Mismatch,  // the hardware put it elsewhere
};
std::string_view toString(CellVerdict verdict); // "not probed", "confirmed", "mismatch"

// The verdict `result` gives the cell (matrix, row, col) as seen by a view of `operands`: one operand, or C
// and D together for a merged C/D view, which is a mismatch when either disagrees. `matrix` is the quad-pair
// product (-1 elsewhere); a mismatch recorded without a product applies to every product. `result` may be
// null; a view of no operand (a memory map) is never probed.
CellVerdict cellVerdict(const ProbeResult* result, OperandSet operands, int matrix, int row, int col);

// Whether `result` carries cell-level verdicts (it passed or failed; unsupported variants carry none).
bool coversCells(const ProbeResult& result);

} // namespace lanemap
