#pragma once
// Spec grammar (README "Spec grammar"): short specs and full PTX instruction strings, canonicalized.

#include "lanemap/model.hpp"
#include "lanemap/params.hpp"
#include "lanemap/vocabulary.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

class Catalog;

struct ParsedSpec {
    const Variant* variant = nullptr; // set on success
    // What was typed (set on success): A and B types, b1 operation, scale vector (also a tcgen05.mma PTX
    // string's .scale_vec::NX / .block16 / .block32). A mixed form (s8 x u8,
    // e4m3 x e5m2, the f8f6f4 mixes) shares the variant's layout but keeps its own PTX string in `ptx`.
    Form form;
    std::string ptx;
    // What the text named beyond the variant (lanemap/params.hpp): a tcgen05.mma's N (its catalog entry stands
    // for every valid N) and the vector size a pasted block-scaled string names.
    Params params;
    std::string error;                    // set on failure: what was wrong and what is valid
    std::vector<std::string> suggestions; // nearest valid specs, best first

    explicit operator bool() const { return variant != nullptr; }
};

// Parse a short spec (`mma.m16n8k16.f16`) or a PTX string
// (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`) into a catalog variant.
ParsedSpec parseSpec(std::string_view text, const Catalog& catalog);

// The normalized key used to look PTX strings up: lower case, no `.sync.aligned`, no qualifiers that do
// not change the layout (.satfinite, .popc, rounding), no trailing ';' or operands.
std::string normalizePtx(std::string_view ptx);

// The nearest catalog specs to `text` by edit distance (at most `count`).
std::vector<std::string> nearestSpecs(std::string_view text, const Catalog& catalog, std::size_t count = 5);

// Default accumulator type for an input type: f32 for floating, s32 for integer/b1, f64 for f64.
std::string_view defaultCtype(std::string_view atype);

} // namespace lanemap
