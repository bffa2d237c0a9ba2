#pragma once
// Tests that start from text as a user types it: the selection a spec (or PTX string) parses to, what is
// refused about it, and an instance's placement in one space.

#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

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

} // namespace lanemap::test
