#pragma once
// The field values of Triton's printed attributes, for the register encodings (read_triton.cpp) and the
// shared ones (read_triton_shared.cpp) alike.

#include "layout_in/scanner.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lanemap::layout_in::detail::triton_fields {

inline bool powerOfTwo(long n) {
    return n > 0 && (n & (n - 1)) == 0;
}

// [a, b, ...] of integers 0..65536, or [].
inline std::vector<long> integerList(Scanner& s, const std::string& key) {
    std::vector<long> list;
    s.expect("[", "'[' opening " + key);
    if (s.eat("]"))
        return list;
    do {
        const std::optional<long> v = s.integer();
        if (!v || *v < 0 || *v > 65536)
            s.fail("expected an integer 0..65536 in " + key);
        list.push_back(*v);
    } while (s.eat(","));
    s.expect("]", "',' or ']' in " + key);
    return list;
}

// The integer after `key =`, 0..most.
inline long integerField(Scanner& s, const std::string& key, long most = 65536) {
    const std::optional<long> v = s.integer();
    if (!v || *v < 0 || *v > most)
        s.fail("expected an integer 0.." + std::to_string(most) + " after " + key + " =");
    return *v;
}

} // namespace lanemap::layout_in::detail::triton_fields
