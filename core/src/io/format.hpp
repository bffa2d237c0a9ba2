#pragma once
// Integer formatting for the writers of large documents (SVG of millions of cells): inline, two digits per
// step, no locale and no error path. Internal to core.

#include <cstdint>
#include <cstring>

namespace lanemap::detail {

// Writes v in decimal at p (at most 20 characters) and returns the end. Digits are counted first and written
// back to front in place: no temporary, no variable-length copy.
inline char* formatInt(char* p, long long v) {
    static constexpr char kPairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    unsigned long long u = static_cast<unsigned long long>(v);
    if (v < 0) {
        *p++ = '-';
        u = 0ull - u;
    }
    // Cell coordinates, lanes, registers and bits are almost all below 10 000: no loops for them.
    if (u < 10) {
        *p = static_cast<char>('0' + u);
        return p + 1;
    }
    if (u < 100) {
        p[0] = kPairs[2 * u];
        p[1] = kPairs[2 * u + 1];
        return p + 2;
    }
    if (u < 1000) {
        p[0] = static_cast<char>('0' + u / 100);
        p[1] = kPairs[2 * (u % 100)];
        p[2] = kPairs[2 * (u % 100) + 1];
        return p + 3;
    }
    if (u < 10000) {
        p[0] = kPairs[2 * (u / 100)];
        p[1] = kPairs[2 * (u / 100) + 1];
        p[2] = kPairs[2 * (u % 100)];
        p[3] = kPairs[2 * (u % 100) + 1];
        return p + 4;
    }
    int n = 2;
    for (unsigned long long rest = u / 100; rest; rest /= 10)
        ++n;
    char* const end = p + n;
    char* t = end;
    while (u >= 100) {
        t -= 2;
        t[0] = kPairs[2 * (u % 100)];
        t[1] = kPairs[2 * (u % 100) + 1];
        u /= 100;
    }
    if (u < 10)
        *--t = static_cast<char>('0' + u);
    else {
        t[-2] = kPairs[2 * u];
        t[-1] = kPairs[2 * u + 1];
    }
    return end;
}

} // namespace lanemap::detail
