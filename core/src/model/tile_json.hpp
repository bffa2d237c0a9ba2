#pragma once
// Internal: a tile's facts as the JSON documents write them (docs/tiles.md#json).

#include "lanemap/tile.hpp"

#include <nlohmann/json.hpp>

namespace lanemap::tile {

// {"atom": {"m","n","k","threads"}, "atom_layout", "permutation", "atoms": [M,N,K], "m","n","k","threads",
// "warps"}
nlohmann::ordered_json tileJson(const TileFacts& facts);

} // namespace lanemap::tile
