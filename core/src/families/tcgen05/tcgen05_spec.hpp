#pragma once
// The tcgen05 spec grammar, called by parseSpec (spec.cpp) for text that starts with "tcgen05.".

#include "lanemap/spec.hpp"

#include <string>
#include <string_view>

namespace lanemap {

bool isTcgen05Text(std::string_view text);
ParsedSpec parseTcgen05Spec(std::string_view text, const std::string& input, const Catalog& catalog);

} // namespace lanemap
