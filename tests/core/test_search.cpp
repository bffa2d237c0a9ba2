// The one catalog word matcher (lanemap/search.hpp) the app's filter box and the site's index both use.
#include "lanemap/catalog.hpp"
#include "lanemap/search.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace test_search {

using namespace lanemap;

namespace {

std::vector<std::string> matching(std::string_view text) {
    const std::vector<std::string> words = searchWords(text);
    std::vector<std::string> specs;
    for (const Variant* v : Catalog::instance().variants())
        if (matchesSearch(searchText(*v), words))
            specs.push_back(v->spec);
    return specs;
}

TEST(Search, FoldsEverydaySpellingsAndTheAccumulator) {
    EXPECT_EQ(searchWords("FP16 acc"), (std::vector<std::string>{"acc:f16"}));
    EXPECT_EQ(searchWords("acc f32, m16n8k16"), (std::vector<std::string>{"acc:f32", "m16n8k16"}));
    EXPECT_EQ(searchWords("sm90a int8  sp"), (std::vector<std::string>{"sm_90", "s8", "sparse"}));
    EXPECT_EQ(searchWords("  "), std::vector<std::string>{});
}

TEST(Search, SearchTextNamesSmSparsityAndAccumulator) {
    const Variant* v = Catalog::instance().variant("mma.sp.m16n8k32.s8");
    ASSERT_NE(v, nullptr);
    const std::string text = searchText(*v);
    EXPECT_NE(text.find("mma.sp.m16n8k32.s8 "), std::string::npos) << text;
    EXPECT_NE(text.find(" sm_80"), std::string::npos) << text;
    EXPECT_NE(text.find(" sparse"), std::string::npos) << text;
    EXPECT_NE(text.find(" acc:s32"), std::string::npos) << text;
}

TEST(Search, EveryWordMustMatch) {
    for (const std::string& spec : matching("wgmma sparse sm_90")) {
        EXPECT_TRUE(spec.starts_with("wgmma.sp.")) << spec;
    }
    std::size_t wgmmaSp = 0;
    for (const Variant* v : Catalog::instance().variants())
        wgmmaSp += v->family->name == "wgmma.sp";
    EXPECT_EQ(matching("wgmma sparse sm_90").size(), wgmmaSp);
    const std::vector<std::string> bf16 = matching("m16n8k16 bf16");
    ASSERT_FALSE(bf16.empty());
    for (const std::string& spec : bf16) {
        EXPECT_NE(spec.find("m16n8k16"), std::string::npos);
        EXPECT_NE(spec.find("bf16"), std::string::npos);
    }
    EXPECT_TRUE(matching("m16n8k16 bf61").empty());
    EXPECT_EQ(matching("").size(), Catalog::instance().size()); // no words: everything
}

bool contains(const std::vector<std::string>& specs, std::string_view spec) {
    return std::find(specs.begin(), specs.end(), spec) != specs.end();
}

// A CuTe user knows the atom, not the PTX: CUTLASS's names find the variant, as CUTLASS spells them today and
// did before (cute::, template arguments, another architecture prefix of a warp-level atom, CUTLASS 3.0's
// SM90_ spelling of a wgmma atom, _SS as well as _RS).
TEST(Search, FindsAVariantByItsCutlassAtomName) {
    const std::vector<std::string> sm80 = matching("SM80_16x8x16_F32F16F16F32_TN");
    EXPECT_TRUE(contains(sm80, "mma.m16n8k16.f16")) << sm80.size();
    for (const std::string& spec : sm80)
        EXPECT_NE(spec.find("m16n8k16"), std::string::npos) << spec;
    EXPECT_TRUE(contains(matching("cute::SM75_16x8x8_F32F16F16F32_TN"), "mma.m16n8k8.f16"));
    EXPECT_TRUE(contains(matching("SM89_16x8x32_F32E4M3E4M3F32_TN"), "mma.m16n8k32.e4m3"));
    const Variant* wgmma = nullptr;
    for (const Variant* v : Catalog::instance().variants())
        if (v->family->name == "wgmma" && v->m == 64 && v->n == 128 && v->k == 16 &&
            v->atype == ElementType::F16 && v->dtype == ElementType::F16)
            wgmma = v;
    ASSERT_NE(wgmma, nullptr);
    for (const std::string name :
         {"SM90_64x128x16_F16F16F16_SS", "SM90::GMMA::MMA_64x128x16_F16F16F16_RS",
          "cute::SM90::GMMA::MMA_64x128x16_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>"}) {
        const std::vector<std::string> found = matching(name);
        EXPECT_TRUE(contains(found, wgmma->spec)) << name;
        for (const std::string& spec : found)
            EXPECT_NE(spec.find("m64n128k16"), std::string::npos) << name << ": " << spec;
    }
    EXPECT_TRUE(matching("SM80_16x8x16_F32F16F16F32_XX").empty());
}

TEST(Search, EditDistanceCountsASwapAsOneEdit) {
    EXPECT_EQ(editDistance("bf61", "bf16"), 1);
    EXPECT_EQ(editDistance("f16", "f16"), 0);
    EXPECT_EQ(editDistance("", "abc"), 3);
}

} // namespace

} // namespace test_search
