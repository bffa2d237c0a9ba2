#pragma once
// Catalog search: the one word matcher behind the app's filter box and the static site's index page.
// A search is words that must all occur in a variant's search text (spec, PTX strings, "sm_<min SM>",
// "sparse"/"dense", "acc:<accumulator type>", CUTLASS's atom names); everyday spellings are folded first
// (fp16
// -> f16, int8 -> s8, sm90 -> sm_90, "f16 acc" -> acc:f16; an atom's cute::, template arguments and a
// warp-level atom's architecture prefix dropped).

#include "lanemap/model.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

// Everything a search word may match for one variant, lower case.
std::string searchText(const Variant& variant);

// The words of a search text after synonyms and the accumulator fold; split at white space and commas.
std::vector<std::string> searchWords(std::string_view text);

// True when every word occurs in `haystack` (a searchText); no words match everything.
bool matchesSearch(std::string_view haystack, std::span<const std::string> words);

// One everyday spelling and the catalog word it stands for ("fp16" -> "f16"); the site's index page gets
// this table so its filter folds the same words.
struct SearchSynonym {
    std::string_view word, canonical;
};
std::span<const SearchSynonym> searchSynonyms();

// Edits between two words, a swap of neighbours counting as one ("bf61" is one edit from "bf16").
int editDistance(std::string_view a, std::string_view b);

} // namespace lanemap
