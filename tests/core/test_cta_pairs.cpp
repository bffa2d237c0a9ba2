// CTA pairs (docs/tiles.md#cta-pairs): `where` of a tcgen05.mma names the CTA of the pair that holds an
// element of A, B or D and where in that CTA it sits — with cta_group::2, CTA c holds rows c M/2 .. of A and
// of D (Tensor Memory) and columns c N/2 .. of B (shared memory), as the PTX ISA and CUTLASS's 2SM atoms
// (ThrID = Layout<_2>) split them; with cta_group::1, CTA 0 holds everything.
#include "lanemap/catalog.hpp"
#include "lanemap/cta_parts.hpp"
#include "lanemap/family.hpp"
#include "lanemap/query.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace test_cta_pairs {

using namespace lanemap;

namespace {

std::shared_ptr<const Instruction> view(const std::string& spec) {
    const ParsedSpec parsed = parseSpec(spec, Catalog::instance());
    EXPECT_TRUE(parsed) << parsed.error;
    return instantiate(selectionOf(parsed));
}

query::PairHolding onlyHolder(const Instruction& in, Operand operand, int row, int col) {
    std::string error;
    const std::optional<query::WhereAnswer> a = query::where(in, operand, row, col, error);
    EXPECT_TRUE(a) << error;
    EXPECT_TRUE(a && a->holders.empty());
    EXPECT_EQ(a ? a->pair.size() : 0u, 1u);
    return a && !a->pair.empty() ? a->pair.front() : query::PairHolding{};
}

// The CTA parts of an operand are the family row's answer (Family::ctaParts), asked the same way of every
// instruction: a tcgen05.mma pair's halves, one CTA's whole operand with cta_group::1, nothing for the
// families that run in one CTA, nor for A in Tensor Memory.
TEST(CtaPairs, EveryFamilyRowAnswersTheCtaPartsOfAnOperand) {
    const auto pair = view("tcgen05.mma.cta_group::2.kind::f16.m128n64");
    const std::optional<CtaParts> a = ctaParts(*pair, Operand::A);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->ctas, 2);
    EXPECT_EQ(a->part.rows, 64);
    EXPECT_EQ(a->partOf(1), "rows 64..127 of A (cta_group::2)");
    const std::optional<CtaParts> b = ctaParts(*pair, Operand::B);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->part.cols, 32);
    EXPECT_EQ(b->partOf(1), "columns 32..63 of B (cta_group::2)");
    EXPECT_FALSE(ctaParts(*pair, Operand::D));
    const std::optional<CtaParts> one =
        ctaParts(*view("tcgen05.mma.cta_group::1.kind::f16.m128n64"), Operand::B);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->ctas, 1);
    EXPECT_EQ(one->partOf(0), "all of B");
    for (const char* spec : {"mma.m16n8k16.f16", "wgmma.m64n64k16.f16", "ldmatrix.m8n8.x4.b16"})
        EXPECT_FALSE(ctaParts(*view(spec), Operand::A)) << spec;
    int rows = 0;
    for (const Family* f : families())
        rows += f->ctaParts != nullptr;
    EXPECT_EQ(rows, 1) << "only tcgen05.mma holds its operands per CTA";
}

TEST(CtaPairs, AnM256PairSplitsAAndDByRowsAndBByColumns) {
    const auto in = view("tcgen05.mma.cta_group::2.kind::f16.m256n256");
    // D: rows 128..255 in CTA 1's Tensor Memory, its row 72 at lane 72 (data-path layout A).
    const query::PairHolding d = onlyHolder(*in, Operand::D, 200, 3);
    EXPECT_EQ(d.space, Space::TensorMemory);
    EXPECT_EQ(d.cta, 1);
    EXPECT_EQ(d.ctas, 2);
    EXPECT_EQ(d.first, 128);
    EXPECT_EQ(d.localRow, 72);
    EXPECT_EQ(d.lane, 72);
    EXPECT_EQ(d.column, 3);
    EXPECT_EQ(onlyHolder(*in, Operand::D, 127, 255).cta, 0);
    // A: row 200 is CTA 1's row 72 of its 128 x 16 part in shared memory.
    const query::PairHolding a = onlyHolder(*in, Operand::A, 200, 3);
    EXPECT_EQ(a.space, Space::SharedMemory);
    EXPECT_EQ(a.cta, 1);
    EXPECT_EQ(a.localRow, 72);
    EXPECT_EQ(a.localCol, 3);
    EXPECT_EQ(a.count, 128);
    // The same part-local element of A in CTA 0 sits at the same byte of CTA 0's shared memory.
    EXPECT_EQ(onlyHolder(*in, Operand::A, 72, 3).address, a.address);
    EXPECT_EQ(onlyHolder(*in, Operand::A, 72, 3).cta, 0);
    // B: columns split, not rows: B[3][200] is CTA 1's column 72; B[15][127] is CTA 0's.
    const query::PairHolding b = onlyHolder(*in, Operand::B, 3, 200);
    EXPECT_EQ(b.cta, 1);
    EXPECT_EQ(b.localRow, 3);
    EXPECT_EQ(b.localCol, 72);
    EXPECT_EQ(onlyHolder(*in, Operand::B, 15, 127).cta, 0);
}

TEST(CtaPairs, AnM128PairHoldsSixtyFourRowsAndHalfOfNEach) {
    const auto in = view("tcgen05.mma.cta_group::2.kind::f16.m128n64");
    EXPECT_EQ(onlyHolder(*in, Operand::D, 70, 33).cta, 1);
    EXPECT_EQ(onlyHolder(*in, Operand::D, 70, 33).localRow, 6);
    EXPECT_EQ(onlyHolder(*in, Operand::A, 63, 0).cta, 0);
    EXPECT_EQ(onlyHolder(*in, Operand::A, 64, 0).cta, 1);
    const query::PairHolding b = onlyHolder(*in, Operand::B, 0, 40);
    EXPECT_EQ(b.cta, 1);
    EXPECT_EQ(b.first, 32); // N = 64: CTA 1 holds B's columns 32..63
    EXPECT_EQ(b.localCol, 8);
    const std::string text = query::toText(*in, query::WhereAnswer{Operand::B, 0, 40, {}, {}, {b}, {}});
    EXPECT_NE(text.find("tcgen05.mma.cta_group::2.kind::f16.m128n64  B[0][40]"), std::string::npos) << text;
    EXPECT_NE(text.find("CTA 1 of the pair (cta_group::2: CTA 1 holds B's columns 32..63), its B[0][8]"),
              std::string::npos)
        << text;
    // Outside the instance's N: refused, naming the extent.
    std::string error;
    EXPECT_FALSE(query::where(*in, Operand::D, 0, 64, error));
    EXPECT_NE(error.find("column 64 is outside D (128x64); valid: 0..63"), std::string::npos) << error;
    EXPECT_FALSE(query::where(*in, Operand::C, 0, 0, error));
    EXPECT_NE(error.find("valid operands: A, B, D"), std::string::npos) << error;
}

TEST(CtaPairs, OneCtaHoldsEverythingOfACtaGroupOneMma) {
    const auto in = view("tcgen05.mma.cta_group::1.kind::f16.m128n256");
    for (const auto& [operand, row, col] : {std::tuple{Operand::A, 127, 15}, std::tuple{Operand::B, 15, 255},
                                            std::tuple{Operand::D, 127, 255}}) {
        const query::PairHolding h = onlyHolder(*in, operand, row, col);
        EXPECT_EQ(h.cta, 0);
        EXPECT_EQ(h.ctas, 1);
    }
    std::string error;
    const auto a = query::where(*in, Operand::D, 5, 7, error);
    ASSERT_TRUE(a) << error;
    EXPECT_NE(query::toText(*in, *a).find("CTA 0 (cta_group::1: one CTA holds all of D)"), std::string::npos);
}

TEST(CtaPairs, TheJsonNamesTheCtaOfEachHolder) {
    const auto in = view("tcgen05.mma.cta_group::2.kind::f16.m256n128");
    std::string error;
    const auto d = query::where(*in, Operand::D, 130, 5, error);
    ASSERT_TRUE(d) << error;
    const nlohmann::json doc = nlohmann::json::parse(query::toJson(*in, *d));
    EXPECT_EQ(doc["spec"], "tcgen05.mma.cta_group::2.kind::f16.m256n128");
    ASSERT_EQ(doc["holders"].size(), 1u);
    const nlohmann::json& h = doc["holders"][0];
    EXPECT_EQ(h["space"], "tensor_memory");
    EXPECT_EQ(h["cta"], 1);
    EXPECT_EQ(h["ctas"], 2);
    EXPECT_EQ(h["cta_rows"], nlohmann::json({128, 255}));
    EXPECT_EQ(h["cta_row"], 2);
    EXPECT_EQ(h["lane"], 2);
    const auto b = query::where(*in, Operand::B, 0, 64, error);
    ASSERT_TRUE(b) << error;
    const nlohmann::json bj = nlohmann::json::parse(query::toJson(*in, *b))["holders"][0];
    EXPECT_EQ(bj["space"], "shared_memory");
    EXPECT_EQ(bj["cta"], 1);
    EXPECT_EQ(bj["cta_cols"], nlohmann::json({64, 127}));
    EXPECT_EQ(bj["cta_col"], 0);
    EXPECT_EQ(bj["layout"], "K-major, 128B swizzle");
}

TEST(CtaPairs, WhatACtaHoldsListsItsRowsOfAAndDAndColumnsOfB) {
    const auto in = view("tcgen05.mma.cta_group::2.kind::f16.m128n64");
    std::string error;
    const auto one = query::whatCta(*in, 1, error);
    ASSERT_TRUE(one) << error;
    EXPECT_EQ(one->ctas, 2);
    ASSERT_EQ(one->parts.size(), 3u);
    const query::CtaPart& a = one->parts[0];
    EXPECT_EQ(a.operand, Operand::A);
    EXPECT_EQ(a.space, Space::SharedMemory);
    EXPECT_EQ(a.first, 64);
    EXPECT_EQ(a.last, 127);
    const query::CtaPart& b = one->parts[1];
    EXPECT_TRUE(b.byColumns);
    EXPECT_EQ(b.first, 32);
    EXPECT_EQ(b.last, 63);
    // Layout B (M = 128, cta_group::2): the CTA's 64 rows x 64 columns fold into 128 lanes x 32 columns.
    const query::CtaPart& d = one->parts[2];
    EXPECT_EQ(d.space, Space::TensorMemory);
    EXPECT_EQ(d.first, 64);
    EXPECT_EQ(d.laneHi, 127);
    EXPECT_EQ(d.columnHi, 31);
    EXPECT_NE(query::toText(*in, *one).find("B columns 32..63 (its 16x32): shared memory"), std::string::npos)
        << query::toText(*in, *one);
    // One CTA of a cta_group::1 mma; no CTA 2; no pair in an mma's registers.
    EXPECT_FALSE(query::whatCta(*in, 2, error));
    EXPECT_NE(error.find("valid: 0..1"), std::string::npos) << error;
    EXPECT_FALSE(query::whatCta(*view("mma.m16n8k16.f16"), 0, error));
    EXPECT_NE(error.find("give --lane or --thread"), std::string::npos) << error;
}

} // namespace

} // namespace test_cta_pairs
