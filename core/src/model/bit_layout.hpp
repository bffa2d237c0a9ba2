#pragma once
// Fits a function of a packed (thread, element) index to an affine map over F2 (XOR of one value per set
// input bit, plus a constant). Tensor-core fragments are such maps almost everywhere; the CUDA and Triton
// exporters write their closed forms from the fit and fall back (a table, or a plain statement) where it
// does not hold.

#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

namespace lanemap::bits {

inline int bitsFor(int count) {
    int b = 0;
    while ((1 << b) < count)
        ++b;
    return b;
}

struct Affine {
    int constant = 0;
    std::vector<int> bases; // bases[b]: the XOR contribution of input bit b
    int operator()(int x) const {
        int v = constant;
        for (std::size_t b = 0; b < bases.size(); ++b)
            if ((x >> b) & 1)
                v ^= bases[b];
        return v;
    }
};

// The domain is every x < 2^inputBits with valid(x); f must be defined there. nullopt when no affine map
// agrees with f on the whole domain. Bits whose unit vector is outside the domain get the basis implied by
// the first valid x that sets them. `valid` and `f` are called directly (a template, not std::function):
// the CUDA export fits every function of every variant over its whole domain.
template <class Valid, class F>
std::optional<Affine> fitAffine(int inputBits, const Valid& valid, const F& f) {
    if (!valid(0))
        return std::nullopt;
    Affine a;
    a.constant = f(0);
    a.bases.assign(static_cast<std::size_t>(inputBits), 0);
    for (int b = 0; b < inputBits; ++b) {
        // The smallest valid x whose highest set bit is b; its lower bits have known bases.
        for (int x = 1 << b; x < (2 << b); ++x)
            if (valid(x)) {
                int lower = a.constant;
                for (int k = 0; k < b; ++k)
                    if ((x >> k) & 1)
                        lower ^= a.bases[static_cast<std::size_t>(k)];
                a.bases[static_cast<std::size_t>(b)] = f(x) ^ lower;
                break;
            }
    }
    // Check every x in Gray-code order: the next code differs from the last in one bit (the lowest set bit
    // of the step), so the map's value is the last one XOR that bit's basis, not a sum over all bits.
    int value = a.constant;
    for (unsigned step = 0; step < (1u << inputBits); ++step) {
        if (step)
            value ^= a.bases[static_cast<std::size_t>(std::countr_zero(step))];
        const int x = static_cast<int>(step ^ (step >> 1));
        if (valid(x) && value != f(x))
            return std::nullopt;
    }
    return a;
}

// The same over a table: values[x] for every x < values.size() (a power of two), valid[x] where defined.
inline std::optional<Affine> fitAffine(const std::vector<int>& values, const std::vector<bool>& valid) {
    const int inputBits = bitsFor(static_cast<int>(values.size()));
    return fitAffine(
        inputBits, [&](int x) { return static_cast<bool>(valid[static_cast<std::size_t>(x)]); },
        [&](int x) { return values[static_cast<std::size_t>(x)]; });
}

} // namespace lanemap::bits
