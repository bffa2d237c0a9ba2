#pragma once
// What the text and JSON exports add for wmma (internal to core): the multiplicity of each operand
// (num_elements vs the cells it covers), where the layout was observed, and its relation to mma.sync.

#include "lanemap/model.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace lanemap {

// Lines for the text export, each ending in '\n'; empty for other families.
std::string wmmaText(const Instruction& in);
// The "wmma" object of the JSON export; null for other families.
nlohmann::ordered_json wmmaJson(const Instruction& in);

} // namespace lanemap
