#pragma once
// Internal: the rules every tile obeys, whatever its atom (tile.cpp; tcgen05's tiles over CTAs too).

#include "lanemap/tile.hpp"

#include <string>

namespace lanemap::tile {

// "" when the atom layout numbers its atoms 0 .. size-1 once each, else what is wrong and what is valid.
std::string checkNumbering(const TileLayout& tile);
// "" when `perm` fits mode `m` of a tile of `atoms` atoms of extent `atomExtent` there (a bijection onto a
// multiple of their extent, at most kMaxExtent; a sparse atom's K in order), else what is wrong and valid.
std::string checkPermutation(const std::string& spec, Mode m, const CuteLayout& perm, int atomExtent,
                             int atoms, bool sparse);

} // namespace lanemap::tile
