#pragma once
// Core text (UTF-8 std::string_view) as Qt text, the one conversion every file of the app shares.

#include <QString>

#include <string_view>

namespace lanemap::gui {

inline QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace lanemap::gui
