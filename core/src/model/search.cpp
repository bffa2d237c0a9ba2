#include "lanemap/search.hpp"

#include "lanemap/family.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace lanemap {

namespace {

constexpr std::array kSynonyms{
    SearchSynonym{"fp16", "f16"},      SearchSynonym{"half", "f16"}, SearchSynonym{"fp32", "f32"},
    SearchSynonym{"float", "f32"},     SearchSynonym{"fp64", "f64"}, SearchSynonym{"double", "f64"},
    SearchSynonym{"bfloat16", "bf16"}, SearchSynonym{"int8", "s8"},  SearchSynonym{"uint8", "u8"},
    SearchSynonym{"int4", "s4"},       SearchSynonym{"uint4", "u4"}, SearchSynonym{"int32", "s32"},
    SearchSynonym{"sp", "sparse"},
};

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// "sm_90", "sm90", "sm_90a" -> "sm_90"; anything else unchanged.
std::string canonicalWord(std::string word) {
    for (const SearchSynonym& s : kSynonyms)
        if (word == s.word)
            return std::string(s.canonical);
    if (word.size() > 2 && word.starts_with("sm")) {
        std::string_view rest = std::string_view(word).substr(2);
        if (rest.starts_with('_'))
            rest.remove_prefix(1);
        if (rest.ends_with('a'))
            rest.remove_suffix(1);
        if (!rest.empty() && std::all_of(rest.begin(), rest.end(),
                                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return "sm_" + std::string(rest);
    }
    return word;
}

bool isAccumulatorWord(std::string_view w) {
    return w == "acc" || w == "accumulator" || w == "accum";
}

} // namespace

std::string searchText(const Variant& v) {
    std::string search = v.spec + ' ' + v.ptx;
    for (std::size_t f = 1; f < v.forms.size(); ++f)
        search += ' ' + ptxOf(v, v.forms[f]);
    // Words a search may use beyond the spelling: the SM badge, sparse or dense, and the accumulator type.
    if (v.family && v.family->searchWords)
        for (const std::string& word : v.family->searchWords(v))
            search += ' ' + word;
    search += " sm_" + std::to_string(v.minSm) + (v.sparse ? " sparse" : " dense") + " acc:";
    search += toString(v.dtype);
    return lower(search);
}

std::vector<std::string> searchWords(std::string_view text) {
    std::vector<std::string> raw;
    std::string word;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
            if (!word.empty())
                raw.push_back(canonicalWord(lower(word)));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty())
        raw.push_back(canonicalWord(lower(word)));
    std::vector<std::string> words;
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (isAccumulatorWord(raw[i])) {
            if (!words.empty() && !words.back().starts_with("acc:"))
                words.back() = "acc:" + words.back();
            else if (i + 1 < raw.size())
                words.push_back("acc:" + raw[++i]);
            continue;
        }
        words.push_back(raw[i]);
    }
    return words;
}

bool matchesSearch(std::string_view haystack, std::span<const std::string> words) {
    return std::all_of(words.begin(), words.end(),
                       [&](const std::string& w) { return haystack.find(w) != std::string_view::npos; });
}

std::span<const SearchSynonym> searchSynonyms() {
    return kSynonyms;
}

int editDistance(std::string_view a, std::string_view b) {
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
    for (std::size_t i = 0; i <= n; ++i)
        d[i][0] = static_cast<int>(i);
    for (std::size_t j = 0; j <= m; ++j)
        d[0][j] = static_cast<int>(j);
    for (std::size_t i = 1; i <= n; ++i)
        for (std::size_t j = 1; j <= m; ++j) {
            d[i][j] = std::min(
                {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[n][m];
}

} // namespace lanemap
