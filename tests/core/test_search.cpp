// The one catalog word matcher (lanemap/search.hpp) the app's filter box and the site's index both use.
#include "lanemap/catalog.hpp"
#include "lanemap/search.hpp"

#include <gtest/gtest.h>

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

TEST(Search, EditDistanceCountsASwapAsOneEdit) {
    EXPECT_EQ(editDistance("bf61", "bf16"), 1);
    EXPECT_EQ(editDistance("f16", "f16"), 0);
    EXPECT_EQ(editDistance("", "abc"), 3);
}

} // namespace

} // namespace test_search
