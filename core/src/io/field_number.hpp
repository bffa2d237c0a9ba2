#pragma once
// A descriptor field's number as `key=value` text gives it (the wgmma and tcgen05 shared-memory descriptor
// encoders, `--smem-desc-from` and the web app's fields). Internal to core.

#include "lanemap/excerpt.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace lanemap::detail {

// A non-negative number in decimal or 0x hex, below 2^32; std::invalid_argument naming `key=value` otherwise.
inline std::uint32_t fieldNumber(const std::string& key, const std::string& value) {
    std::string digits = value;
    for (char& c : digits)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    int base = 10;
    if (digits.rfind("0x", 0) == 0) {
        digits = digits.substr(2);
        base = 16;
    }
    const bool ok = !digits.empty() && digits.size() <= (base == 16 ? 8u : 10u) &&
                    std::all_of(digits.begin(), digits.end(), [&](char c) {
                        return base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                                          : std::isdigit(static_cast<unsigned char>(c)) != 0;
                    });
    const unsigned long long v = ok ? std::stoull(digits, nullptr, base) : 0;
    if (!ok || v > 0xFFFFFFFFull)
        throw std::invalid_argument("'" + excerpt(key + "=" + value, 48) +
                                    "': expected a non-negative number (decimal or 0x hex) below 2^32");
    return static_cast<std::uint32_t>(v);
}

} // namespace lanemap::detail
