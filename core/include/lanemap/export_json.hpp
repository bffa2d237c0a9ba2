#pragma once
// The compact JSON form (docs/reference/json.md#compact-form): the documented schema with every `elements`
// array of objects (operands, shared_memory) written as columns, one array per field, a field that is the
// same for every element written once, and the thread/index (row/col) of a nested loop written as its loop
// bound. The full form (lanemap/export.hpp toJson) stays the default; these convert between the two.

#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"

#include <string>
#include <string_view>

namespace lanemap {

// The compact document of `instruction`: the full document's fields in the same order, `"form": "compact"`
// first, and `elements` as {"count": N, "columns": {...}}.
std::string toCompactJson(const Instruction& instruction, const smem::Choice& choice = {});

// Converters for readers of either form (a document in, a document out; nlohmann's layout, one-space indent).
// Both return empty and set `error` (naming what is wrong) when the input is not a lanemap document of the
// other form. expandJson(compactJson(x)) holds the same JSON value as x, and the other way round.
std::string compactJson(std::string_view fullDocument, std::string& error);
std::string expandJson(std::string_view compactDocument, std::string& error);

} // namespace lanemap
