#include "lanemap/excerpt.hpp"

namespace lanemap {

namespace {

constexpr char kHex[] = "0123456789abcdef";

// The length of the well-formed UTF-8 sequence at `s[i]` (2 to 4), or 0 when the bytes there are not one
// (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short).
std::size_t sequenceLength(std::string_view s, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xbf; // the second byte's range (Unicode Table 3-7)
    if (lead >= 0xc2 && lead <= 0xdf)
        length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
        length = 3;
        low = lead == 0xe0 ? 0xa0 : 0x80;
        high = lead == 0xed ? 0x9f : 0xbf;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        length = 4;
        low = lead == 0xf0 ? 0x90 : 0x80;
        high = lead == 0xf4 ? 0x8f : 0xbf;
    } else
        return 0;
    if (i + length > s.size() || byte(i + 1) < low || byte(i + 1) > high)
        return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xbf)
            return 0;
    return length;
}

char32_t decode(std::string_view s, std::size_t i, std::size_t length) {
    const auto byte = [&](std::size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[k])); };
    char32_t c = byte(i) & (length == 2 ? 0x1f : length == 3 ? 0x0f : 0x07);
    for (std::size_t k = 1; k < length; ++k)
        c = (c << 6) | (byte(i + k) & 0x3f);
    return c;
}

// Characters a terminal acts on rather than shows: the C1 controls (U+0080..U+009F; U+009B is CSI, an escape
// sequence of its own) and the bidirectional overrides and isolates, which reorder what follows them.
bool invisibleControl(char32_t c) {
    return (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

} // namespace

std::string excerpt(std::string_view text, std::size_t max) {
    std::string out;
    out.reserve((text.size() > max ? max : text.size()) + 24);
    std::size_t i = 0;
    while (i < text.size() && i < max) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
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
                out += static_cast<char>(c);
            }
            ++i;
            continue;
        }
        const std::size_t length = sequenceLength(text, i);
        if (length == 0) { // not UTF-8: a raw 0x9b is CSI to a terminal reading 8-bit controls
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
            ++i;
            continue;
        }
        if (i + length > max)
            break; // never half a character: the cut falls before it
        const char32_t code = decode(text, i, length);
        if (invisibleControl(code)) {
            out += "\\u";
            for (int shift = 12; shift >= 0; shift -= 4)
                out += kHex[(code >> shift) & 0xf];
        } else {
            out.append(text.substr(i, length));
        }
        i += length;
    }
    if (i < text.size())
        out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

} // namespace lanemap
