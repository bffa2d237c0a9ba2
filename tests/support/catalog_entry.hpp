#pragma once
// A catalog entry by its spec, for tests: a spec the catalog does not have throws, naming it, so the test
// that asked fails with the spec instead of crashing on a null pointer.

#include "lanemap/catalog.hpp"

#include <stdexcept>
#include <string>
#include <string_view>

namespace lanemap::test {

inline const Instruction& catalogEntry(std::string_view spec) {
    const Instruction* in = Catalog::instance().instruction(spec);
    if (!in)
        throw std::runtime_error("no catalog entry " + std::string(spec));
    return *in;
}

} // namespace lanemap::test
