#pragma once
// Descriptor fields as `key=value,...` text gives them (the wgmma and tcgen05 shared-memory descriptor
// encoders, `--smem-desc-from` and the web app's fields): the walk over the pairs, a field's number, and the
// address fields both shared-memory descriptors have. Internal to core.

#include "lanemap/excerpt.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

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

// Every `key=value` of `text` (comma-separated, empty items skipped, keys case-insensitive) to `take(key,
// value)`; std::invalid_argument naming an item that is not key=value (listing `keys`) or a key given twice.
template <class Take> void forEachKeyValue(std::string_view text, std::string_view keys, Take take) {
    std::set<std::string> seen;
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
        if (item.empty())
            continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos)
            throw std::invalid_argument("'" + excerpt(item, 32) +
                                        "' is not key=value; keys: " + std::string(keys));
        std::string key(item.substr(0, eq));
        for (char& c : key)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (!seen.insert(key).second)
            throw std::invalid_argument("'" + excerpt(key, 32) + "' is given twice; give each key once");
        take(key, std::string(item.substr(eq + 1)));
    }
}

// The address fields of a shared-memory descriptor (wgmma's matrix descriptor, tcgen05's): start, lbo, sbo
// and base into `d`; false for another key.
template <class Descriptor>
bool takeAddressField(Descriptor& d, const std::string& key, const std::string& value) {
    if (key == "start")
        d.startAddress = fieldNumber(key, value);
    else if (key == "lbo")
        d.leadingByteOffset = fieldNumber(key, value);
    else if (key == "sbo")
        d.strideByteOffset = fieldNumber(key, value);
    else if (key == "base")
        d.baseOffset = static_cast<int>(std::min<std::uint32_t>(fieldNumber(key, value), 1000));
    else
        return false;
    return true;
}

} // namespace lanemap::detail
