#include "cli_numbers.hpp"

#include "lanemap/excerpt.hpp"

#include <charconv>
#include <climits>
#include <ostream>

namespace lanemap::cli {

std::optional<Number> readNumber(std::string_view name, const std::string& text, std::ostream& err) {
    const std::size_t digits = !text.empty() && text[0] == '-' ? 1 : 0;
    bool ok = text.size() > digits;
    for (std::size_t i = digits; ok && i < text.size(); ++i)
        ok = text[i] >= '0' && text[i] <= '9';
    if (!ok) {
        err << "lanemap-cli: " << name << " '" << excerpt(text, 32) << "' is not a whole number\n";
        return std::nullopt;
    }
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    Number n;
    if (ec == std::errc() && value >= INT_MIN && value <= INT_MAX) {
        n.value = static_cast<int>(value);
        return n;
    }
    // Beyond int (or beyond long long): out of range wherever it goes; the command names the range.
    n.value = digits ? INT_MIN : INT_MAX;
    n.typed = excerpt(text, 32);
    return n;
}

std::string asTyped(std::string message, const Number& number) {
    if (number.typed.empty())
        return message;
    const std::string clamped = std::to_string(number.value);
    if (const std::size_t at = message.find(clamped); at != std::string::npos)
        message.replace(at, clamped.size(), number.typed);
    return message;
}

} // namespace lanemap::cli
