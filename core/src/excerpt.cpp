#include "lanemap/excerpt.hpp"

namespace lanemap {

std::string excerpt(std::string_view text, std::size_t max) {
    std::string out;
    const std::size_t shown = text.size() > max ? max : text.size();
    out.reserve(shown + 24);
    static constexpr char kHex[] = "0123456789abcdef";
    for (std::size_t i = 0; i < shown; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\r')
            out += "\\r";
        else if (c == '\\')
            out += "\\\\";
        else if (c < 0x20 || c == 0x7f) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        } else {
            out += static_cast<char>(c); // printable ASCII and UTF-8 bytes (terminals handle those)
        }
    }
    if (shown < text.size())
        out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

} // namespace lanemap
