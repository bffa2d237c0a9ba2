#pragma once
// Whole numbers typed on lanemap-cli's command line. CLI11 read an empty argument as 0 (`where SPEC A '' ''`
// answered A[0][0]) and refused 2147483648 in two lines that named no range; every number option is taken
// as text and read here instead (cli_numbers.cpp).

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace lanemap::cli {

struct Number {
    int value = 0;     // beyond int: INT_MAX or INT_MIN, outside every range a command takes
    std::string typed; // the number as typed, escaped and cut, when it was beyond int
};

// `text` as a whole number (an optional '-', then decimal digits); nullopt after a one-line message naming
// `name` and the text (exit 2).
std::optional<Number> readNumber(std::string_view name, const std::string& text, std::ostream& err);

// `message`, a range error that quotes `number.value`, with the number as typed in its place: the range
// comes from the command (e.g. "row 2147483648 is outside A (16x16); valid: 0..15").
std::string asTyped(std::string message, const Number& number);

} // namespace lanemap::cli
