// Tiles of tcgen05.mma atoms over the CTAs of a cluster (lanemap/tile_ctas.hpp, docs/tiles.md): CuTe's own
// answer reproduced element by element (its SM100 atoms' "threads" are CTAs), where each element sits in its
// CTA, and bad tiles refused with what is valid.
#include "lanemap/catalog.hpp"
#include "lanemap/query.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile_ctas.hpp"
#include "selection_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>
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
    ASSERT_EQ(doc["cases"].size(), 8u);
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
        const bool sparse = c.contains("E"); // A compressed: checked by the test below
        for (const char* key : {"A", "B", "C"}) {
            if (sparse && key[0] == 'A')
                continue;
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

// A tile of sparse atoms: CuTe's A counts the logical K, lanemap's the compressed one (K/2 stored columns,
// each a kept element of a group of 4): every stored column must sit in exactly the CTAs CuTe gives each
// element of its group. The metadata of every CTA must sit where CuTe's tmem_e_frg puts it (K steps too).
TEST(TileOverCtasAgainstCute, SparseTilesCompressAAndPlaceMetadataAsCuteDoes) {
    std::ifstream file(LANEMAP_SOURCE_DIR "/tests/data/cute/tiled_umma.json");
    ASSERT_TRUE(file) << "tests/data/cute/tiled_umma.json is missing";
    const nlohmann::json doc = nlohmann::json::parse(file);
    int sparseCases = 0;
    for (const auto& c : doc["cases"]) {
        if (!c.contains("E"))
            continue;
        ++sparseCases;
        const std::string spec = c["spec"], atoms = c["atom_layout"], perm = c["permutation"];
        SCOPED_TRACE(spec + " " + atoms + " " + perm);
        const auto in = tiled(spec, atoms, perm);
        const int M = c["tile"][0], K = c["tile"][2];
        std::map<int, std::set<int>> cuteCtas; // logical A index m + M*k -> the CTAs CuTe gives it
        for (std::size_t t = 0; t < c["A"].size(); ++t)
            for (const auto& index : c["A"][t])
                cuteCtas[index.get<int>()].insert(static_cast<int>(t));
        const Placement* a = in->placement(Space::SharedMemory, Operand::A);
        ASSERT_NE(a, nullptr);
        ASSERT_EQ(a->cols(), K / 2); // 2 of every 4 kept
        for (int m = 0; m < M; ++m)
            for (int j = 0; j < K / 2; ++j) {
                std::set<int> ctas;
                for (const tile::CtaHolding& h : tile::ctaHolders(*in, Operand::A, m, j))
                    ctas.insert(h.cta);
                for (int k = 4 * (j / 2); k < 4 * (j / 2) + 4; ++k)
                    ASSERT_EQ(ctas, cuteCtas[m + M * k]) << "A stored [" << m << "][" << j << "], K " << k;
            }
        // Metadata: every group of every row, in each CTA that holds the row of A, where CuTe puts it.
        const Placement* e = in->placement(Space::TensorMemory, Operand::Metadata);
        ASSERT_NE(e, nullptr);
        ASSERT_EQ(e->cols(), K / 4);
        const auto& cute = c["E"];
        for (int m = 0; m < M; ++m)
            for (int g = 0; g < K / 4; ++g) {
                const std::vector<tile::CtaHolding> holders = tile::ctaHolders(*in, Operand::Metadata, m, g);
                std::set<int> ctas;
                for (const tile::CtaHolding& h : holders) {
                    ctas.insert(h.cta);
                    const TmemCell cell = std::get<TmemCell>(h.at);
                    const auto& want = cute[h.localRow][h.localCol];
                    ASSERT_EQ(h.localCol, g % static_cast<int>(cute[0].size()));
                    EXPECT_EQ(cell.lane, want[0].get<int>()) << "E[" << m << "][" << g << "] CTA " << h.cta;
                    EXPECT_EQ(cell.column, want[1].get<int>()) << "E[" << m << "][" << g << "] CTA " << h.cta;
                    EXPECT_EQ(cell.bitLo, want[2].get<int>()) << "E[" << m << "][" << g << "] CTA " << h.cta;
                    EXPECT_EQ(cell.bits, 4);
                }
                ASSERT_EQ(ctas, cuteCtas[m + M * (4 * g)]) << "E[" << m << "][" << g << "]";
            }
    }
    EXPECT_EQ(sparseCases, 2);
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

TEST(TileOverCtas, WhatCtaGivesTheCtasOwnPartNotTheTilesWidth) {
    // Atoms along N split D by columns: CTA 1 of a (2,2,1) layout holds rows 128..255 and 64 of the 128
    // columns; with sparse atoms it also holds its rows' metadata, and A is the compressed K/2.
    for (const std::string spec :
         {"tcgen05.mma.cta_group::1.kind::f16.m128n64", "tcgen05.mma.sp.cta_group::1.kind::f16.m128n64"}) {
        SCOPED_TRACE(spec);
        const auto in = tiled(spec, "(2,2,1)");
        std::string error;
        const std::optional<query::CtaAnswer> cta = query::whatCta(*in, 1, error);
        ASSERT_TRUE(cta) << error;
        const bool sparse = spec.find(".sp.") != std::string::npos;
        ASSERT_EQ(cta->parts.size(), sparse ? 4u : 3u);
        const query::CtaPart& a = cta->parts[0];
        const query::CtaPart& d = cta->parts[2];
        EXPECT_EQ(a.rows, 128);
        EXPECT_EQ(a.cols, 16); // the sparse K 32 compressed to 16, or the dense atom's K 16
        EXPECT_EQ(d.first, 128);
        EXPECT_EQ(d.rows, 128);
        EXPECT_EQ(d.cols, 64);
        if (sparse) {
            EXPECT_EQ(cta->parts[3].operand, Operand::Metadata);
            EXPECT_EQ(cta->parts[3].cols, 8);
            EXPECT_EQ(cta->parts[3].columnHi, 0);
        }
    }
}

TEST(TileOverCtas, SparseTilesSayWhereTheirMetadataIsNotPlacedAndKeepKInOrder) {
    // M = 64: the ISA draws the metadata only as a figure lanemap has not transcribed; A, B, D are placed.
    const auto in = tiled("tcgen05.mma.sp.cta_group::1.kind::f16.m64n64", "(2,1,1)");
    EXPECT_NE(in->placement(Space::SharedMemory, Operand::A), nullptr);
    EXPECT_NE(in->placement(Space::TensorMemory, Operand::D), nullptr);
    EXPECT_EQ(in->placement(Space::TensorMemory, Operand::Metadata), nullptr);
    const std::string note = tile::metadataNote(*in);
    EXPECT_NE(note.find("Figure 262"), std::string::npos) << note;
    EXPECT_TRUE(tile::ctaHolders(*in, Operand::Metadata, 0, 0).empty());
    // Stored column 5 of A holds a kept element of K 8..11.
    EXPECT_EQ(tile::keptRange(*in, 5), (std::pair{8, 11}));
    EXPECT_EQ(tile::keptRange(*tiled("tcgen05.mma.cta_group::1.kind::f16.m64n64", "(2,1,1)"), 5),
              std::nullopt);
    // A sparse K is a size (K steps), never a reordering: the chunks and the metadata count K in order.
    const std::string sparse = "tcgen05.mma.sp.cta_group::1.kind::f16.m128n64";
    EXPECT_EQ(refusal(sparse, "(1,1,1)", "_,_,_64"), "");
    const std::string why = refusal(sparse, "(1,1,1)", "_,_,(_2,_32):(_32,_1)");
    EXPECT_NE(why.find("give K as a size only, e.g. _64"), std::string::npos) << why;
}

} // namespace
} // namespace lanemap::test_tile_tcgen05
