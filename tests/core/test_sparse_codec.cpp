// Sparse storage rules and the compress/expand codec (lanemap/sparse.hpp): valid and invalid metadata values,
// round trips on random valid matrices for every sparse variant, selector and candidate, pattern violations
// named by row and chunk, and an independent cross-check against the empirically confirmed m16n8k16 mapping.
#include "lanemap/catalog.hpp"
#include "lanemap/sparse.hpp"

#include "sparse_unresolved.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

namespace test_sparse_codec {

using namespace lanemap;
using namespace lanemap::sparse;
using Placement = lanemap::sparse::Placement; // not lanemap::Placement

namespace {

const Instruction& get(const char* spec) {
    const Instruction* in = Catalog::instance().instruction(spec);
    if (!in)
        throw std::runtime_error(std::string("not in catalog: ") + spec);
    return *in;
}

Codec codec(const char* spec, int selector, std::string_view candidate = {}) {
    std::string error;
    std::optional<Codec> c = Codec::make(get(spec), selector, error, candidate);
    if (!c)
        throw std::runtime_error(error);
    return std::move(*c);
}

std::vector<std::string> sparseSpecs() {
    std::vector<std::string> specs;
    for (const Variant* v : Catalog::instance().variants())
        if (v->family->name == "mma.sp")
            specs.push_back(v->spec);
    return specs;
}

// A random matrix that satisfies the rule: per chunk, random kept units (some left zero), random non-zero
// values.
Matrix randomSparse(const Codec& c, int rows, int cols, int elementBits, std::mt19937& rng) {
    Matrix m(rows, cols);
    const StorageRule& r = c.rule();
    const int unit = r.pattern == Pattern::PairwiseFourOfEight ? 2 : 1;
    const int units = r.chunkCols / unit;
    const int keep = r.kept / unit;
    const std::uint32_t mask = elementBits >= 32 ? 0xFFFFFFFFu : (1u << elementBits) - 1u;
    std::uniform_int_distribution<std::uint32_t> value(1, mask);
    for (int row = 0; row < rows; ++row)
        for (int first = 0; first < cols; first += r.chunkCols) {
            std::vector<int> order(static_cast<std::size_t>(units));
            for (int u = 0; u < units; ++u)
                order[static_cast<std::size_t>(u)] = u;
            std::shuffle(order.begin(), order.end(), rng);
            const int used =
                static_cast<int>(rng() % static_cast<unsigned>(keep + 1)); // 0..keep units non-zero
            for (int k = 0; k < used; ++k)
                for (int x = 0; x < unit; ++x)
                    if (rng() % 5 != 0 || x == 0)
                        m.at(row, first + order[static_cast<std::size_t>(k)] * unit + x) = value(rng);
        }
    return m;
}

// --- storage rules
// -------------------------------------------------------------------------------------------

TEST(SparseRules, GranularityPerContainerWidth) {
    EXPECT_EQ(ruleForContainerBits(16)->granularity, "2:4");
    EXPECT_EQ(ruleForContainerBits(8)->granularity, "2:4");
    EXPECT_EQ(ruleForContainerBits(32)->granularity, "1:2");
    EXPECT_EQ(ruleForContainerBits(4)->granularity, "4:8 pair-wise");
    EXPECT_EQ(ruleForContainerBits(64), nullptr);
    EXPECT_EQ(rule(Pattern::TwoOfFour).chunkCols, 4);
    EXPECT_EQ(rule(Pattern::OneOfTwo).chunkCols, 2);
    EXPECT_EQ(rule(Pattern::PairwiseFourOfEight).chunkCols, 8);
    EXPECT_EQ(rule(Pattern::PairwiseFourOfEight).kept, 4);
}

TEST(SparseRules, ValidMetadataValuesAsTheStorageSectionLists) {
    // §9.7.14.6.1: 0b0000, 0b0101, 0b1010, 0b1111 invalid; ordered: only 0b0100, 0b1000, 0b1001, 0b1100,
    // 0b1101, 0b1110.
    const std::vector<std::uint8_t> ordered{0b0100, 0b1000, 0b1001, 0b1100, 0b1101, 0b1110};
    EXPECT_EQ(validFieldValues(Pattern::TwoOfFour, true), ordered);
    EXPECT_EQ(validFieldValues(Pattern::PairwiseFourOfEight, true), ordered);
    const std::vector<std::uint8_t> plain = validFieldValues(Pattern::TwoOfFour, false);
    EXPECT_EQ(plain.size(), 12u);
    for (int bad : {0b0000, 0b0101, 0b1010, 0b1111})
        EXPECT_EQ(std::count(plain.begin(), plain.end(), bad), 0) << binary(static_cast<unsigned>(bad));
    // tf32: only 0b0100 and 0b1110, in both forms.
    EXPECT_EQ(validFieldValues(Pattern::OneOfTwo, false), (std::vector<std::uint8_t>{0b0100, 0b1110}));
    EXPECT_EQ(validFieldValues(Pattern::OneOfTwo, true), (std::vector<std::uint8_t>{0b0100, 0b1110}));
}

TEST(SparseRules, InvalidValuesSayWhy) {
    EXPECT_NE(fieldValueProblem(Pattern::TwoOfFour, false, 0b0101).find("repeats index 1"),
              std::string::npos);
    EXPECT_NE(fieldValueProblem(Pattern::TwoOfFour, true, 0b0001).find("not sorted"), std::string::npos);
    EXPECT_EQ(fieldValueProblem(Pattern::TwoOfFour, false, 0b0001), "");
    EXPECT_NE(fieldValueProblem(Pattern::OneOfTwo, false, 0b0001).find("only 0b0100 (element 0) and 0b1110"),
              std::string::npos);
    EXPECT_NE(fieldValueProblem(Pattern::PairwiseFourOfEight, false, 0b1010).find("repeats pair index 2"),
              std::string::npos);
    EXPECT_NE(fieldValueProblem(Pattern::TwoOfFour, false, 0x13).find("4-bit"), std::string::npos);
}

TEST(SparseRules, DecodeAndEncodeAgree) {
    EXPECT_EQ(decodeField(Pattern::TwoOfFour, 0b1101), (std::vector<int>{1, 3}));
    EXPECT_EQ(decodeField(Pattern::TwoOfFour, 0b0001),
              (std::vector<int>{1, 0})); // plain .sp: unsorted is valid
    EXPECT_EQ(decodeField(Pattern::OneOfTwo, 0b0100), (std::vector<int>{0}));
    EXPECT_EQ(decodeField(Pattern::OneOfTwo, 0b1110), (std::vector<int>{1}));
    EXPECT_EQ(decodeField(Pattern::PairwiseFourOfEight, 0b1100), (std::vector<int>{0, 1, 6, 7}));
    EXPECT_TRUE(decodeField(Pattern::TwoOfFour, 0b1010).empty());
    for (Pattern p : {Pattern::TwoOfFour, Pattern::OneOfTwo, Pattern::PairwiseFourOfEight})
        for (std::uint8_t v : validFieldValues(p, true)) {
            const std::vector<int> positions = decodeField(p, v);
            EXPECT_EQ(encodeField(p, positions), v) << binary(v);
        }
}

// --- round trips
// ---------------------------------------------------------------------------------------------

class EverySparseVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(EverySparseVariant, CompressExpandRoundTripsForEverySelectorAndCandidate) {
    const Instruction& in = get(GetParam().c_str());
    ASSERT_TRUE(in.metadata);
    const FragmentLayout& a = *in.operand(Operand::A);
    std::vector<std::string> candidates{""};
    for (const MetadataCandidate& c : in.metadata->candidates)
        candidates.push_back(c.name);
    std::mt19937 rng(12345);
    for (const std::string& candidate : candidates) {
        const auto& selectors =
            candidate.empty() ? in.metadata->selectors : [&]() -> const std::vector<MetadataSelector>& {
            for (const MetadataCandidate& c : in.metadata->candidates)
                if (c.name == candidate)
                    return c.selectors;
            throw std::logic_error("candidate vanished");
        }();
        for (const MetadataSelector& sel : selectors) {
            SCOPED_TRACE(in.spec + " selector " + std::to_string(sel.value) + " candidate '" + candidate +
                         "'");
            std::string error;
            const std::optional<Codec> c = Codec::make(in, sel.value, error, candidate);
            ASSERT_TRUE(c) << error;
            std::set<int> supplying;
            for (const MetadataField& f : sel.fields)
                supplying.insert(f.thread);
            for (int trial = 0; trial < 20; ++trial) {
                const Matrix logical = randomSparse(*c, a.rows(), a.cols(), a.elementBits(), rng);
                Fragments frags;
                ASSERT_TRUE(c->compress(logical, frags, error)) << error;
                ASSERT_EQ(frags.a.size(), 32u);
                ASSERT_EQ(frags.a[0].size(), static_cast<std::size_t>(a.registers()));
                for (int t = 0; t < 32; ++t) {
                    if (!supplying.count(t)) {
                        EXPECT_EQ(frags.metadata[static_cast<std::size_t>(t)], 0u) << "lane " << t;
                    }
                }
                // Every supplied field holds a valid value for this form.
                for (const MetadataField& f : sel.fields)
                    EXPECT_TRUE(
                        isValidFieldValue(c->rule().pattern, in.ordered, Codec::getField(frags.metadata, f)));
                Matrix back;
                ASSERT_TRUE(c->expand(frags, back, error)) << error;
                ASSERT_EQ(back, logical);
            }
        }
    }
}

TEST_P(EverySparseVariant, EveryChunkReceivesExactlyItsKeptElements) {
    const Instruction& in = get(GetParam().c_str());
    for (const MetadataSelector& sel : in.metadata->selectors) {
        const Codec c = codec(in.spec.c_str(), sel.value);
        // All-zero matrix: every chunk keeps its lowest units; every element lands in a distinct cell of its
        // chunk.
        Fragments frags;
        std::string error;
        ASSERT_TRUE(c.compress(Matrix(in.m, in.k), frags, error)) << error;
        std::vector<Placement> placed;
        ASSERT_TRUE(c.place(frags.metadata, placed, error)) << error;
        std::map<std::pair<int, int>, int> perChunk;
        std::set<std::pair<int, int>> cells;
        for (const Placement& p : placed) {
            ++perChunk[{p.row, p.chunkFirst}];
            EXPECT_TRUE(cells.insert({p.row, p.col}).second)
                << "two elements on (" << p.row << "," << p.col << ")";
            const Element& e = in.operand(Operand::A)->element(p.thread, p.index);
            EXPECT_GE(p.col, e.col);
            EXPECT_LE(p.col, e.colLast);
            EXPECT_EQ(p.row, e.row);
            EXPECT_EQ(p.field.row, p.row);
            EXPECT_EQ(p.field.colFirst, p.chunkFirst);
        }
        EXPECT_EQ(perChunk.size(), static_cast<std::size_t>(in.m * in.k / c.rule().chunkCols));
        for (const auto& [chunk, count] : perChunk)
            EXPECT_EQ(count, c.rule().kept);
    }
}

INSTANTIATE_TEST_SUITE_P(Catalog, EverySparseVariant, ::testing::ValuesIn(sparseSpecs()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                             std::string name;
                             for (char ch : param.param)
                                 name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                             return name;
                         });

// --- independent cross-check -------------------------------------------------------------------------------

TEST(SparseCodec, MatchesTheEmpiricalM16n8k16Mapping) {
    // kmsmith137/gputils test-sparse-mma.cu, confirmed on a GPU for all four selectors: row i's metadata sits
    // in lane 4*(i&7)+f, nibble ((i&8)>>1)+chunk, bits 2*half of it give the column of the element in that
    // half of the A register; A register (i>=8) of lane 4*(i&7)+chunk holds row i's chunk.
    std::mt19937 rng(7);
    for (int f = 0; f < 4; ++f) {
        const Codec c = codec("mma.sp.m16n8k16.f16", f);
        const Matrix logical = randomSparse(c, 16, 16, 16, rng);
        Fragments frags;
        std::string error;
        ASSERT_TRUE(c.compress(logical, frags, error)) << error;
        for (int i = 0; i < 16; ++i)
            for (int chunk = 0; chunk < 4; ++chunk)
                for (int half = 0; half < 2; ++half) {
                    const std::uint32_t e = frags.metadata[static_cast<std::size_t>(4 * (i & 7) + f)];
                    const int nibble = ((i & 8) >> 1) + chunk;
                    const int col = 4 * chunk + static_cast<int>((e >> (4 * nibble + 2 * half)) & 3u);
                    const std::uint32_t reg =
                        frags.a[static_cast<std::size_t>(4 * (i & 7) + chunk)][i >= 8 ? 1 : 0];
                    EXPECT_EQ((reg >> (16 * half)) & 0xFFFFu, logical.at(i, col))
                        << "selector " << f << " row " << i << " chunk " << chunk << " half " << half;
                }
    }
}

// --- errors
// --------------------------------------------------------------------------------------------------

TEST(SparseCodec, PatternViolationsNameRowAndChunk) {
    std::string error;
    Fragments frags;
    Matrix m(16, 16);
    m.at(5, 8) = 1;
    m.at(5, 9) = 1;
    m.at(5, 11) = 1;
    EXPECT_FALSE(codec("mma.sp.m16n8k16.f16", 0).compress(m, frags, error));
    EXPECT_NE(error.find("row 5, chunk cols [8..11] breaks 2:4 sparsity: non-zero cols 8 9 11"),
              std::string::npos)
        << error;

    Matrix t(16, 8);
    t.at(3, 6) = 0x3F800000u;
    t.at(3, 7) = 0x3F800000u;
    EXPECT_FALSE(codec("mma.sp.m16n8k8.tf32", 2).compress(t, frags, error));
    EXPECT_NE(error.find("row 3, chunk cols [6..7] breaks 1:2"), std::string::npos) << error;

    // 4:8 pair-wise: three of the four pairs touched.
    Matrix q(16, 64);
    q.at(9, 16) = 1;
    q.at(9, 19) = 1;
    q.at(9, 22) = 1;
    EXPECT_FALSE(codec("mma.sp.m16n8k64.s4", 1).compress(q, frags, error));
    EXPECT_NE(error.find("row 9, chunk cols [16..23] breaks 4:8 pair-wise"), std::string::npos) << error;
    EXPECT_NE(error.find("touch 3 column pairs"), std::string::npos) << error;
    // One non-zero in each of two pairs is fine: the pairs are kept whole, zeros included.
    q.at(9, 22) = 0;
    EXPECT_TRUE(codec("mma.sp.m16n8k64.s4", 1).compress(q, frags, error)) << error;
}

TEST(SparseCodec, RejectsValuesWiderThanTheElementAndWrongShapes) {
    std::string error;
    Fragments frags;
    Matrix m(16, 32);
    m.at(2, 3) = 0x100;
    EXPECT_FALSE(codec("mma.sp.m16n8k32.s8", 0).compress(m, frags, error));
    EXPECT_NE(error.find("value 0x100 at row 2, col 3 does not fit the 8-bit .s8 elements"),
              std::string::npos)
        << error;
    EXPECT_FALSE(codec("mma.sp.m16n8k32.s8", 0).compress(Matrix(16, 16), frags, error));
    EXPECT_NE(error.find("is 16x32"), std::string::npos) << error;
}

TEST(SparseCodec, InvalidMetadataValuesAreRejectedOnExpand) {
    const Codec c = codec("mma.sp::ordered_metadata.m16n8k16.f16", 0);
    Fragments frags;
    std::string error;
    ASSERT_TRUE(c.compress(Matrix(16, 16), frags, error)) << error;
    Matrix out;
    const MetadataField* f = c.field(9, 5); // row 9, chunk [4..7]: lane 4, bits [23..20]
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->thread, 4);
    EXPECT_EQ(f->bitHi, 23);
    Fragments bad = frags;
    Codec::setField(bad.metadata, *f, 0b0101);
    EXPECT_FALSE(c.expand(bad, out, error));
    EXPECT_NE(error.find("lane 4, metadata bits [23..20] (row 9, cols [4..7]): 0b0101 repeats index 1"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("valid values for mma.sp::ordered_metadata.m16n8k16.f16: 0b0100, 0b1000"),
              std::string::npos)
        << error;
    Codec::setField(bad.metadata, *f, 0b0001);
    EXPECT_FALSE(c.expand(bad, out, error));
    EXPECT_NE(error.find("not sorted"), std::string::npos) << error;
}

TEST(SparseCodec, PlainSpAcceptsUnsortedIndicesAndSwapsTheColumns) {
    const Codec c = codec("mma.sp.m16n8k16.f16", 0);
    Matrix m(16, 16);
    m.at(9, 4) = 0x1111;
    m.at(9, 5) = 0x2222;
    Fragments frags;
    std::string error;
    ASSERT_TRUE(c.compress(m, frags, error)) << error;
    const MetadataField& f = *c.field(9, 4);
    EXPECT_EQ(Codec::getField(frags.metadata, f), 0b0100u); // sorted: index 0 then 1
    Codec::setField(frags.metadata, f, 0b0001);             // index 1 then 0
    Matrix out;
    ASSERT_TRUE(c.expand(frags, out, error)) << error;
    EXPECT_EQ(out.at(9, 4), 0x2222u);
    EXPECT_EQ(out.at(9, 5), 0x1111u);
}

TEST(SparseCodec, ChangingOneFieldMovesOnlyThatChunksElements) {
    // The probe's metadata experiment: one field changes, and only the elements it places move.
    const Codec c = codec("mma.sp::ordered_metadata.m16n8k64.e4m3", 0);
    Fragments frags;
    std::string error;
    ASSERT_TRUE(c.compress(Matrix(16, 64), frags, error)) << error;
    std::vector<Placement> before, after;
    ASSERT_TRUE(c.place(frags.metadata, before, error)) << error;
    const MetadataField f = *c.field(13, 50); // row 13, chunk [48..51]: lane 23 (g5, t3), field 4
    EXPECT_EQ(f.thread, 23);
    EXPECT_EQ(f.bitLo, 16);
    Codec::setField(frags.metadata, f, 0b1110);
    ASSERT_TRUE(c.place(frags.metadata, after, error)) << error;
    int moved = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (before[i].col == after[i].col)
            continue;
        ++moved;
        EXPECT_EQ(after[i].row, 13);
        EXPECT_EQ(after[i].chunkFirst, 48);
        EXPECT_EQ(after[i].col, 48 + 2 + after[i].slot);
        EXPECT_EQ(after[i].thread, 22) << "t = 2 holds cols 48..55 of rows g and g+8 (Fig. 131)";
    }
    EXPECT_EQ(moved, 2);
}

TEST(SparseCodec, ElementBitsFollowTheContainer) {
    // .kind::f8f6f4 e2m1 sits in the middle of its byte; mxf4 e2m1 is packed.
    const Codec k64 = codec("mma.sp::ordered_metadata.m16n8k64.kind::f8f6f4.e2m1", 0);
    Matrix m(16, 64);
    m.at(0, 0) = 0xF;
    m.at(0, 1) = 0x3;
    Fragments frags;
    std::string error;
    ASSERT_TRUE(k64.compress(m, frags, error)) << error;
    EXPECT_EQ(frags.a[0][0], (0xFu << 2) | (0x3u << 10));
    const Codec k128 = codec("mma.sp::ordered_metadata.m16n8k128.kind::mxf4.e2m1", 0);
    Matrix p(16, 128);
    p.at(0, 0) = 0xF;
    p.at(0, 1) = 0x3;
    ASSERT_TRUE(k128.compress(p, frags, error)) << error;
    EXPECT_EQ(frags.a[0][0], 0xFu | (0x3u << 4));
}

TEST(SparseCodec, MakeRejectsDenseInstructionsSelectorsAndCandidates) {
    std::string error;
    EXPECT_FALSE(Codec::make(get("mma.m16n8k16.f16"), 0, error));
    EXPECT_NE(error.find("is dense"), std::string::npos) << error;
    EXPECT_FALSE(Codec::make(get("mma.sp.m16n8k32.f16"), 2, error));
    EXPECT_NE(error.find("sparsity selector 2 is not valid for mma.sp.m16n8k32.f16; valid selectors: 0, 1"),
              std::string::npos)
        << error;
    EXPECT_FALSE(Codec::make(get("mma.sp.m16n8k64.s8"), 1, error));
    EXPECT_NE(error.find("valid selectors: 0"), std::string::npos) << error;
    EXPECT_FALSE(Codec::make(lanemap::testing::unresolvedSparse("mma.sp.m16n8k32.s8"), 0, error, "diagonal"));
    EXPECT_NE(error.find("candidates: rows-per-lane, k-halves-per-lane"), std::string::npos) << error;
    // Resolved on hardware: the catalog's m16n8k32 .s8 offers no candidates any more.
    EXPECT_FALSE(Codec::make(get("mma.sp.m16n8k32.s8"), 0, error, "k-halves-per-lane"));
    EXPECT_NE(error.find("resolved"), std::string::npos) << error;
    EXPECT_FALSE(Codec::make(get("mma.sp.m16n8k16.f16"), 0, error, "rows-per-lane"));
    EXPECT_NE(error.find("resolved"), std::string::npos) << error;
}

TEST(SparseCodec, CandidatesGiveDifferentMetadataWords) {
    std::mt19937 rng(99);
    const Instruction& open = lanemap::testing::unresolvedSparse("mma.sp.m16n8k32.s8");
    std::string error0;
    const std::optional<Codec> rowsCodec = Codec::make(open, 1, error0, "rows-per-lane");
    const std::optional<Codec> halvesCodec = Codec::make(open, 1, error0, "k-halves-per-lane");
    ASSERT_TRUE(rowsCodec && halvesCodec) << error0;
    const Codec& rows = *rowsCodec;
    const Codec& halves = *halvesCodec;
    const Matrix m = randomSparse(rows, 16, 32, 8, rng);
    Fragments a, b;
    std::string error;
    ASSERT_TRUE(rows.compress(m, a, error)) << error;
    ASSERT_TRUE(halves.compress(m, b, error)) << error;
    EXPECT_EQ(a.a, b.a) << "A registers do not depend on the metadata mapping";
    EXPECT_NE(a.metadata, b.metadata);
    // Lane 6 (g1, t2) supplies selector 1; bits [31..28] are row 1 cols [28..31] or row 9 cols [12..15].
    const MetadataField* fr = rows.field(1, 28);
    const MetadataField* fh = halves.field(9, 12);
    ASSERT_TRUE(fr && fh);
    EXPECT_EQ(fr->thread, 6);
    EXPECT_EQ(fr->bitHi, 31);
    EXPECT_EQ(fh->thread, 6);
    EXPECT_EQ(fh->bitHi, 31);
}

} // namespace

} // namespace test_sparse_codec
