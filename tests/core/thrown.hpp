#pragma once

#include <stdexcept>
#include <string>

namespace lanemap::test {

// What `f` threw as std::invalid_argument, or "" when it did not throw: the tests check that a rejected
// value's message names the rule that forbids it.
inline std::string thrown(auto&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

} // namespace lanemap::test
