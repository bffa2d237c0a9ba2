#pragma once
// The wmma table (PTX ISA §9.7.14.4): what the ISA states about each wmma shape and type, and nothing about
// placements (the ISA leaves them unspecified). Internal to core; the public face is lanemap/wmma.hpp.

#include "lanemap/model.hpp"

#include <span>
#include <vector>

namespace lanemap::wmma {

// An accumulator type and the 32-bit words of its fragment per lane (the ISA's register count).
struct AccumulatorWords {
    ElementType type;
    int words;
};

// One row of the ISA's wmma fragment table: a shape and the A/B types that share its register counts.
struct WmmaAtom {
    int m, n, k;
    std::vector<ElementType> types; // A = B type, one variant each (no mixing: ptxas rejects .s8.u8)
    std::vector<AccumulatorWords> accumulators;
    int aWords, bWords; // per lane
    std::vector<Major> aLayouts, bLayouts;
    int minSm;
    const char* section;
    const char* anchor;
};

std::span<const WmmaAtom> atoms();

} // namespace lanemap::wmma
