// The cases lanemap-ldshared-banks measures (gpu/tools/ldshared_banks_cases.hpp, docs/ldshared-banks.md): the
// addresses each warp loads are the engine's tiled copy, and the model's wavefronts for each are the ones
// worked by hand below — so the table the Nsight Compute run fills compares the hardware with these numbers.
#include "tools/ldshared_banks_cases.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace test_ldshared_banks_cases {

using namespace lanemap;

namespace {

struct Expected {
    int wavefronts, ideal, wholeWarp;
    std::vector<int> phases;
};

// Case by case, in the tool's order. b32: lane l = (g = l / 4, t = l % 4) reads A[g][2t] at byte
// pitch * g + 4t, one phase of 32. B by v2 (k 4t.. of column n = g) at pitch * n + 8t, two half-warp phases;
// by v4 (k 8t..) at pitch * n + 16t, four quarter-warp phases (lanes 8p.. are n = 2p, 2p + 1).
const std::vector<Expected> kExpected = {
    {2, 1, 2, {2}},          // words 8g + t: g and g + 4 share banks
    {1, 1, 1, {1}},          // words 12g + t: 32 banks once
    {4, 1, 4, {4}},          // words 16g + t: g, g + 2, g + 4, g + 6
    {8, 1, 8, {8}},          // words 32g + t: every row on banks 0..3
    {1, 1, 1, {1}},          // 128B: chunk g, banks 4g + t
    {4, 1, 4, {4}},          // <1,3,3> = bytes <1,4,3>: chunk g % 2, four rows each
    {2, 1, 2, {2}},          // words 8n + 2t: n and n + 4
    {2, 2, 2, {1, 1}},       // bytes 0..127, then 128..255
    {4, 2, 4, {2, 2}},       // groups 8 (n % 2) + t: n and n + 2
    {8, 2, 8, {4, 4}},       // group t for every n
    {4, 2, 2, {2, 2}},       // chunk (t / 2) ^ n: half 0 on chunks 0..3 twice, half 1 on 4..7
    {4, 4, 4, {1, 1, 1, 1}}, // chunks 4 (n % 2) + t
    {8, 4, 4, {2, 2, 2, 2}}, // chunks 5n + t mod 8: n = 2p + 1 wraps onto 2p's first
    {8, 4, 8, {2, 2, 2, 2}}, // chunk t for both n
    {8, 4, 4, {2, 2, 2, 2}}, // chunk t ^ n: 2p and 2p + 1 differ in bit 0 only
    {4, 4, 4, {1, 1, 1, 1}}, // bytes <1,6,1>: chunk t + 4 (n % 2)
    {8, 4, 8, {2, 2, 2, 2}}, // chunk t for both n
    {8, 4, 4, {2, 2, 2, 2}}, // chunk t ^ (2n % 8): 4p and 4p + 2 keep t's block
    {1, 1, 1, {1}},          // one word: a broadcast
    {2, 2, 2, {1, 1}},       // 8 addresses per half, distinct groups
    {4, 4, 4, {1, 1, 1, 1}}, // one address: one wavefront per quarter
};

} // namespace

TEST(LdSharedBanksCases, EveryCaseHasTheWavefrontsWorkedByHand) {
    const std::vector<ldshared_banks::Case>& cases = ldshared_banks::cases();
    ASSERT_EQ(cases.size(), kExpected.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const ldshared_banks::Case& c = cases[i];
        SCOPED_TRACE("case " + std::to_string(i) + " " + c.operand + " " + c.permutation + " " + c.smem);
        std::string error;
        const auto w = ldshared_banks::warpOf(c, error);
        ASSERT_TRUE(w) << error;
        EXPECT_EQ(w->wavefronts, kExpected[i].wavefronts);
        EXPECT_EQ(w->ideal, kExpected[i].ideal);
        EXPECT_EQ(w->wholeWarp, kExpected[i].wholeWarp);
        EXPECT_EQ(w->phaseDegrees, kExpected[i].phases);
        EXPECT_EQ(w->ideal, c.bytes * 32 / 128); // 128 bytes per wavefront
        for (const std::uint32_t a : w->offsets)
            EXPECT_EQ(a % static_cast<std::uint32_t>(c.bytes), 0u); // aligned: the GPU faults otherwise
    }
}

// The addresses are the tiled copy's, lane by lane: the A of the (2,2,1) tile at pitch 32 B and B by v2 under
// the 128B swizzle.
TEST(LdSharedBanksCases, TheAddressesAreTheTiledCopysLaneByLane) {
    std::string error;
    const auto a = ldshared_banks::warpOf(ldshared_banks::cases().at(0), error);
    ASSERT_TRUE(a) << error;
    for (int lane = 0; lane < 32; ++lane)
        EXPECT_EQ(a->offsets[static_cast<std::size_t>(lane)],
                  static_cast<std::uint32_t>(32 * (lane / 4) + 4 * (lane % 4)));
    const auto v2 = ldshared_banks::warpOf(ldshared_banks::cases().at(10), error);
    ASSERT_TRUE(v2) << error;
    for (int lane = 0; lane < 32; ++lane) {
        const int n = lane / 4, t = lane % 4;
        const int chunk = (t / 2) ^ n;
        EXPECT_EQ(v2->offsets[static_cast<std::size_t>(lane)],
                  static_cast<std::uint32_t>(128 * n + 16 * chunk + 8 * (t % 2)));
    }
    // Warp 1's first b32 of A is the second atom along M: A[16][0] at 16 x 32 bytes.
    ldshared_banks::Case warp1 = ldshared_banks::cases().at(0);
    warp1.warp = 1;
    const auto w1 = ldshared_banks::warpOf(warp1, error);
    ASSERT_TRUE(w1) << error;
    EXPECT_EQ(w1->offsets[0], 16u * 32u);
    // A v2 of A is refused as the engine refuses it: registers 0 and 1 are rows g and g + 8.
    ldshared_banks::Case v2OfA = ldshared_banks::cases().at(0);
    v2OfA.bytes = 8;
    EXPECT_FALSE(ldshared_banks::warpOf(v2OfA, error));
    EXPECT_NE(error.find("the widest load that works here is ld.shared.b32"), std::string::npos) << error;
}

} // namespace test_ldshared_banks_cases
