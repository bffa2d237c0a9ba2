// Tiles of tcgen05.mma atoms over the CTAs of a cluster (lanemap/tile_ctas.hpp, docs/tiles.md): CuTe's own
// answer reproduced element by element (its SM100 atoms' "threads" are CTAs), where each element sits in its
// CTA, and bad tiles refused with what is valid.
#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile_ctas.hpp"
#include "selection_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <stdexcept>

namespace lanemap::test_tile_tcgen05 {
namespace {

using test::tiled;
using test::tiledSelection;

std::string refusal(std::string_view spec, std::string_view atoms, std::string_view permutation = "") {
    return validate(tiledSelection(spec, atoms, permutation));
}

// CuTe's make_tiled_mma over SM100 atoms, evaluated by tests/data/cute/gen_tiled_umma.cpp:
// get_layout{A,B,C}_TV()(cta, value) is the column-major index of the element in the tile's (M,K), (N,K),
// (M,N). Every CTA must hold, as the value CuTe numbers, the element CuTe names, and nothing else.
TEST(TileOverCtasAgainstCute, EveryCtaHoldsWhatCutesMakeTiledMmaSays) {
    std::ifstream file(LANEMAP_SOURCE_DIR "/tests/data/cute/tiled_umma.json");
    ASSERT_TRUE(file) << "tests/data/cute/tiled_umma.json is missing";
    const nlohmann::json doc = nlohmann::json::parse(file);
    ASSERT_EQ(doc["cases"].size(), 6u);
    for (const auto& c : doc["cases"]) {
        const std::string spec = c["spec"], atoms = c["atom_layout"], perm = c["permutation"];
        SCOPED_TRACE(spec + " " + atoms + " " + perm);
        const auto in = tiled(spec, atoms, perm);
        ASSERT_TRUE(tile::overCtas(*in));
        const int M = c["tile"][0], N = c["tile"][1], K = c["tile"][2];
        ASSERT_EQ(in->m, M);
        ASSERT_EQ(in->n, N);
        ASSERT_EQ(in->k, K);
        ASSERT_EQ(in->tile->threads, c["threads"].get<int>());
        for (const char* key : {"A", "B", "C"}) {
            const Operand o = key[0] == 'A' ? Operand::A : key[0] == 'B' ? Operand::B : Operand::D;
            const int rows = o == Operand::B ? K : M, cols = o == Operand::A ? K : N;
            std::map<std::pair<int, int>, int> held; // (cta, value) -> CuTe's index of the element
            for (int r = 0; r < rows; ++r)
                for (int col = 0; col < cols; ++col) {
                    const std::vector<tile::CtaHolding> holders = tile::ctaHolders(*in, o, r, col);
                    ASSERT_FALSE(holders.empty()) << key << "[" << r << "][" << col << "]";
                    const int index = o == Operand::A   ? r + M * col
                                      : o == Operand::B ? col + N * r
                                                        : r + M * col;
                    for (const tile::CtaHolding& h : holders) {
                        ASSERT_TRUE(held.emplace(std::pair{h.cta, h.value}, index).second)
                            << key << " CTA " << h.cta << " value " << h.value << " held twice";
                        ASSERT_EQ(std::get_if<TmemCell>(&h.at) ? std::get<TmemCell>(h.at).cta
                                                               : std::get<SmemByte>(h.at).cta,
                                  h.cta);
                    }
                }
            // Every CTA CuTe lists, the K slices' too (they hold the same D: partial sums).
            const auto& cute = c[key];
            ASSERT_EQ(static_cast<int>(cute.size()), in->tile->threads) << key;
            ASSERT_EQ(held.size(), cute.size() * cute[0].size()) << key;
            for (const auto& [at, index] : held) {
                ASSERT_EQ(cute[at.first][at.second].get<int>(), index)
                    << key << " CTA " << at.first << " value " << at.second;
            }
        }
    }
}

TEST(TileOverCtas, TwoPairsAlongMPutEachPairsRowsInItsOwnTensorMemory) {
    // Two cta_group::2 m256 atoms along M: CTAs 0, 1 run rows 0..255 (128 each), CTAs 2, 3 rows 256..511.
    const auto in = tiled("tcgen05.mma.cta_group::2.kind::f16.m256n16", "(2,1,1)");
    ASSERT_EQ(in->tile->threads, 4);
    EXPECT_EQ(in->m, 512);
    const std::vector<tile::CtaHolding> d = tile::ctaHolders(*in, Operand::D, 300, 5);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].cta, 2);
    EXPECT_EQ(d[0].atomCta, 0);
    EXPECT_EQ(d[0].localRow, 44);
    const TmemCell cell = std::get<TmemCell>(d[0].at);
    EXPECT_EQ(cell.cta, 2);
    EXPECT_EQ(cell.lane, 44); // layout A (4x1): row m of the CTA's 128 in lane m
    EXPECT_EQ(cell.column, 5);
    // B is split by columns inside a pair and shared by both pairs: B[3][12] sits in CTA 1 and CTA 3.
    const std::vector<tile::CtaHolding> b = tile::ctaHolders(*in, Operand::B, 3, 12);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[0].cta, 1);
    EXPECT_EQ(b[1].cta, 3);
    EXPECT_EQ(b[0].localCol, 4);
    EXPECT_EQ(std::get<SmemByte>(b[0].at).address, std::get<SmemByte>(b[1].at).address);
    // The placements name the CTA of every holder; D has one per element.
    const Placement* tm = in->placement(Space::TensorMemory, Operand::D);
    ASSERT_NE(tm, nullptr);
    EXPECT_EQ(tm->clusterCtas(), 4);
    ASSERT_EQ(tm->at(300, 5).size(), 1u);
    EXPECT_EQ(std::get<TmemCell>(tm->at(300, 5)[0].at).cta, 2);
    ASSERT_NE(in->placement(Space::SharedMemory, Operand::A), nullptr);
    ASSERT_NE(in->placement(Space::SharedMemory, Operand::B), nullptr);
}

TEST(TileOverCtas, BadTilesAreRefusedWithWhatIsValid) {
    const std::string twoSm = "tcgen05.mma.cta_group::2.kind::f16.m128n32";
    // 9 atoms of a pair: 18 CTAs, beyond a cluster's 16.
    std::string why = refusal(twoSm, "(9,1,1)");
    EXPECT_NE(why.find("18 CTAs; a cluster has at most 16"), std::string::npos) << why;
    EXPECT_NE(why.find("8 portable"), std::string::npos) << why;
    EXPECT_NE(why.find("at most 8 atoms"), std::string::npos) << why;
    EXPECT_EQ(refusal(twoSm, "(8,1,1)"), "");
    // M and N are reorderings of the core (one accumulator per CTA); K may be a multiple.
    why = refusal(twoSm, "(1,1,1)", "_256,_,_");
    EXPECT_NE(why.find("is a reordering of _128"), std::string::npos) << why;
    EXPECT_EQ(refusal(twoSm, "(1,1,1)", "_,_,_64"), "");
    why = refusal(twoSm, "(1,1,1)", "_,_,_24");
    EXPECT_NE(why.find("multiple of 16"), std::string::npos) << why;
    why = refusal(twoSm, "(2,2,1):(1,1,0)");
    EXPECT_NE(why.find("numbers two atoms alike"), std::string::npos) << why;
    // One instruction's views do not tile.
    Selection s = tiledSelection("tcgen05.mma.cta_group::1.kind::f16.m128n32", "(2,1,1)");
    s.params.tensorOperand = Operand::A;
    ASSERT_EQ(validate(tiledSelection("tcgen05.mma.cta_group::1.kind::f16.m128n32", "(1,1,1)")), "");
    why = validate(s);
    EXPECT_NE(why.find("describe one instruction"), std::string::npos) << why;
}

} // namespace
} // namespace lanemap::test_tile_tcgen05
