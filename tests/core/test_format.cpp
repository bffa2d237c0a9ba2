// detail::formatInt writes every number of an SVG (millions per catalog export): it must agree with
// std::to_chars digit for digit, at every length boundary of its fast paths and beyond.
#include "io/format.hpp"

#include <gtest/gtest.h>

#include <charconv>
#include <climits>
#include <random>
#include <string>
#include <vector>

namespace test_format {

namespace {

std::string viaFormatInt(long long v) {
    char buf[32];
    return {buf, lanemap::detail::formatInt(buf, v)};
}

std::string viaToChars(long long v) {
    char buf[32];
    return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

TEST(FormatInt, AgreesWithToCharsAtEveryLengthBoundary) {
    std::vector<long long> values{0, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1};
    long long p = 1; // 10^0 .. 10^18
    for (int e = 0; e <= 18; ++e) {
        for (long long d : {-1LL, 0LL, 1LL}) {
            values.push_back(p + d);
            values.push_back(-(p + d));
        }
        if (e < 18)
            p *= 10;
    }
    for (long long v : values)
        EXPECT_EQ(viaFormatInt(v), viaToChars(v)) << v;
}

TEST(FormatInt, AgreesWithToCharsOnRandomValues) {
    std::mt19937_64 rng(42);
    for (int i = 0; i < 20000; ++i) {
        const long long v = static_cast<long long>(rng()) >> (rng() % 63);
        ASSERT_EQ(viaFormatInt(v), viaToChars(v)) << v;
    }
}

} // namespace

} // namespace test_format
