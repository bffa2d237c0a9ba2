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

std::string atomWord(const std::string& word);

// "sm_90", "sm90", "sm_90a" -> "sm_90"; a CUTLASS atom without cute:: and its architecture prefix; anything
// else unchanged.
std::string canonicalWord(std::string word) {
    if (word.starts_with("cute::"))
        word.erase(0, 6);
    word = atomWord(word);
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

// A warp-level CUTLASS atom under any architecture prefix ("sm75_16x8x8_f32f16f16f32_tn" is the instruction
// of "sm80_16x8x8_..."), and CUTLASS 3.0's spelling of a wgmma atom ("sm90_64x128x16_f16f16f16_ss", now
// "sm90::gmma::mma_64x128x16_..."): the name from the shape on, which every spelling of it contains.
std::string atomWord(const std::string& word) {
    if (!word.starts_with("sm"))
        return word;
    std::size_t i = 2;
    while (i < word.size() && std::isdigit(static_cast<unsigned char>(word[i])))
        ++i;
    if (i == 2 || i + 1 >= word.size() || word[i] != '_' ||
        !std::isdigit(static_cast<unsigned char>(word[i + 1])))
        return word;
    const std::size_t x = word.find('x', i);
    if (x == std::string::npos || word.find('x', x + 1) == std::string::npos)
        return word;
    return word.substr(i);
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
    int angle = 0; // a CUTLASS atom's template arguments (<GMMA::Major::K, GMMA::Major::K>) are no words
    for (char c : text) {
        if (c == '<' || (c == '>' && angle > 0)) {
            angle += c == '<' ? 1 : -1;
            continue;
        }
        if (angle > 0)
            continue;
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
