#pragma once
// One spelling rule for PTX shape words, shared by the spec parsers: `letters` "mnk" accepts m16n8k16, "mn"
// accepts m8n8 (the matrix moves). Internal to core.

#include <cctype>
#include <string_view>

namespace lanemap::detail {

// True when `word` is each of `letters` followed by a decimal number, in that order and nothing else.
inline bool isShapeWord(std::string_view word, std::string_view letters) {
    std::size_t i = 0;
    for (const char letter : letters) {
        if (i >= word.size() || word[i++] != letter)
            return false;
        const std::size_t digits = i;
        while (i < word.size() && std::isdigit(static_cast<unsigned char>(word[i])))
            ++i;
        if (i == digits)
            return false;
    }
    return i == word.size();
}

} // namespace lanemap::detail
