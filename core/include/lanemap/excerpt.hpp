#pragma once
// User input quoted in messages: at most a short excerpt, control characters escaped, so a megabyte spec or a
// terminal escape sequence never reaches the terminal as such.

#include <cstddef>
#include <string>
#include <string_view>

namespace lanemap {

// `text` with control characters and bytes that are not UTF-8 as \n, \t, \xNN, and the C1 controls (U+0080..
// U+009F, CSI among them) and bidirectional overrides as \u009b; longer than `max` bytes: at most the first
// `max` bytes, cut between characters, then "... (N bytes)". Other UTF-8 passes through intact.
std::string excerpt(std::string_view text, std::size_t max = 80);

} // namespace lanemap
