// The fit behind the CUDA and Triton exporters' closed forms (model/bit_layout.hpp): a closed form is
// written only where the map is affine over F2 on every point of its domain, else the export falls back to a
// table. A fit that skipped a point would write a formula that is wrong for some lane and element.
#include "model/bit_layout.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace test_bit_layout {

namespace {

using lanemap::bits::Affine;
using lanemap::bits::fitAffine;

Affine randomAffine(int inputBits, unsigned seed) {
    std::mt19937 rng(seed);
    Affine a;
    a.constant = static_cast<int>(rng() & 0xFFFF);
    for (int b = 0; b < inputBits; ++b)
        a.bases.push_back(static_cast<int>(rng() & 0xFFFF));
    return a;
}

TEST(AffineFit, AnAffineMapIsRecoveredExactly) {
    const Affine truth = randomAffine(10, 7);
    std::vector<int> values(1024);
    for (int x = 0; x < 1024; ++x)
        values[static_cast<std::size_t>(x)] = truth(x);
    const auto fit = fitAffine(values, std::vector<bool>(1024, true));
    ASSERT_TRUE(fit);
    EXPECT_EQ(fit->constant, truth.constant);
    EXPECT_EQ(fit->bases, truth.bases);
}

TEST(AffineFit, AMapWrongAtAnyOnePointIsNotWrittenAsAClosedForm) {
    const Affine truth = randomAffine(9, 11);
    std::vector<int> values(512);
    for (int x = 0; x < 512; ++x)
        values[static_cast<std::size_t>(x)] = truth(x);
    const std::vector<bool> everywhere(512, true);
    for (std::size_t wrong = 0; wrong < values.size(); ++wrong) {
        values[wrong] ^= 0x40;
        EXPECT_FALSE(fitAffine(values, everywhere)) << "the value at " << wrong << " was changed";
        values[wrong] ^= 0x40;
    }
}

TEST(AffineFit, PointsOutsideTheDomainAreNotChecked) {
    // Rows 0-11 of a 16-row domain (bits 0-3 the column, 4-7 the row): the rest may hold anything.
    const Affine truth = randomAffine(8, 3);
    std::vector<int> values(256);
    std::vector<bool> valid(256);
    for (int x = 0; x < 256; ++x) {
        valid[static_cast<std::size_t>(x)] = (x >> 4) < 12;
        values[static_cast<std::size_t>(x)] = valid[static_cast<std::size_t>(x)] ? truth(x) : -1 - x;
    }
    const auto fit = fitAffine(values, valid);
    ASSERT_TRUE(fit);
    for (int x = 0; x < 256; ++x) {
        if (valid[static_cast<std::size_t>(x)]) {
            EXPECT_EQ((*fit)(x), truth(x)) << x;
        }
    }
    // A wrong value inside the domain is still found.
    values[11 * 16 + 15] ^= 1;
    EXPECT_FALSE(fitAffine(values, valid));
}

TEST(AffineFit, ADomainWithoutTheOriginHasNoAffineForm) {
    std::vector<bool> valid(16, true);
    valid[0] = false;
    EXPECT_FALSE(fitAffine(std::vector<int>(16, 0), valid));
}

} // namespace

} // namespace test_bit_layout
