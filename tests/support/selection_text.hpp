#pragma once
// Tests that start from text as a user types it: the selection a spec (or PTX string) parses to, what is
// refused about it, and an instance's placement in one space.

#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace lanemap::test {

// The selection `text` names; throws with the parser's message when it names none.
inline Selection parsed(std::string_view text) {
    const ParsedSpec p = parseSpec(text, Catalog::instance());
    if (!p)
        throw std::runtime_error(p.error);
    return selectionOf(p);
}

// What is wrong with `text` (the parser's message, or validate()'s); "" when it is a valid selection.
inline std::string refusal(std::string_view text) {
    const ParsedSpec p = parseSpec(text, Catalog::instance());
    if (!p)
        return p.error;
    return validate(selectionOf(p));
}

// The instance's first placement in `space`; throws when it has none.
inline const Placement& placementIn(const Instruction& instance, Space space) {
    for (const Placement& p : instance.placements)
        if (p.space() == space)
            return p;
    throw std::runtime_error("no placement in that space");
}

// The selection of the tile of `spec` over `atoms` (CuTe's atom layout) and `permutation`, as --atom-layout
// and --permutation give it, unchecked (validate() says what is wrong with it); throws when either does not
// read.
inline Selection tiledSelection(std::string_view spec, std::string_view atoms,
                                std::string_view permutation = "") {
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout(atoms, permutation, error);
    if (!t)
        throw std::runtime_error(error);
    Selection s = parsed(spec);
    s.params.tile = *t;
    return s;
}

// That tile; throws with the message of whatever refuses it.
inline std::shared_ptr<const Instruction> tiled(std::string_view spec, std::string_view atoms,
                                                std::string_view permutation = "") {
    const Selection s = tiledSelection(spec, atoms, permutation);
    if (const std::string why = validate(s); !why.empty())
        throw std::runtime_error(why);
    return instantiate(s);
}

} // namespace lanemap::test
