#pragma once
// User input quoted in messages: at most a short excerpt, control characters escaped, so a megabyte spec or a
// terminal escape sequence never reaches the terminal as such.

#include <cstddef>
#include <string>
#include <string_view>

namespace lanemap {

// `text` with control characters and non-printable bytes as \n, \t, \xNN; longer than `max` bytes: the first
// `max` bytes, then "... (N bytes)". UTF-8 sequences pass through intact.
std::string excerpt(std::string_view text, std::size_t max = 80);

} // namespace lanemap
