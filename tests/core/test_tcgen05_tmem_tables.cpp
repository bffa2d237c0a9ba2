// Block-scale factors and sparse metadata in Tensor Memory (docs/reference/tcgen05-descriptors.md): the ISA's
// text rules (scale-factor IDs per vector size, duplication into every 32-lane subpartition, valid kind and
// vector-size pairs, metadata granularity) and the placements a kernel author writes with tcgen05.cp or
// tcgen05.st before the MMA reads them.
#include "lanemap/tcgen05_tmem_tables.hpp"
#include "thrown.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace test_tcgen05_tmem_tables {

using namespace lanemap::tcgen05;
using lanemap::Operand;

namespace {

using lanemap::test::thrown;

TEST(Tcgen05ScaleFactors, IdsPerVectorSizeAreTheIsas) {
    // 1X: "the byte offset in the Tensor Memory word"; 2X: "the half word offset"; 4X: "must be 0".
    for (const int id : {0, 1, 2, 3})
        EXPECT_NO_THROW(scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, id, Operand::A, 0, 0)) << id;
    EXPECT_NO_THROW(scaleFactorPlaces(Kind::MXF4, ScaleVec::X2, 2, Operand::A, 0, 1));
    EXPECT_NE(
        thrown([] { scaleFactorPlaces(Kind::MXF4, ScaleVec::X2, 1, Operand::A, 0, 0); }).find("valid: 0, 2"),
        std::string::npos);
    EXPECT_NE(
        thrown([] { scaleFactorPlaces(Kind::MXF4NVF4, ScaleVec::X4, 2, Operand::B, 0, 0); }).find("valid: 0"),
        std::string::npos);
}

TEST(Tcgen05ScaleFactors, KindAndVectorSizeFollowTheValidCombinations) {
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF4, ScaleVec::X4, 0, Operand::A, 0, 0);
              }).find("§9.7.16.10.7.1"),
              std::string::npos);
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X2, 0, Operand::A, 0, 0);
              }).find("§9.7.16.10.7.1"),
              std::string::npos);
    // .block32 is 1X for mxf8f6f4 and 2X for the fp4 kinds; .block16 is 4X.
    EXPECT_EQ(parseScaleVec("block32", Kind::MXF8F6F4), ScaleVec::X1);
    EXPECT_EQ(parseScaleVec("block32", Kind::MXF4NVF4), ScaleVec::X2);
    EXPECT_EQ(parseScaleVec("block16", Kind::MXF4NVF4), ScaleVec::X4);
    EXPECT_EQ(parseScaleVec("scale_vec::2X", Kind::MXF4), ScaleVec::X2);
    EXPECT_FALSE(parseScaleVec("8X", Kind::MXF4));
    for (const ScaleVecRule& r : scaleVecRules())
        EXPECT_EQ(r.factorsPerRow * r.blockSize, r.vec == ScaleVec::X1 ? 32 : 64)
            << toString(r.vec); // K per MMA
}

TEST(Tcgen05ScaleFactors, EveryFactorIsDuplicatedIntoAllFourSubpartitions) {
    // Row 37 of A, 4X, factor 3: lane 37 % 32 = 5 of each subpartition, column 37 / 32 = 1, byte 0 + 3.
    const auto places = scaleFactorPlaces(Kind::MXF4NVF4, ScaleVec::X4, 0, Operand::A, 37, 3);
    ASSERT_EQ(places.size(), 4u);
    for (int s = 0; s < 4; ++s)
        EXPECT_EQ(places[static_cast<std::size_t>(s)], (TmemPlace{5 + 32 * s, 1, 24, 8}));
    // 1X with ID 2: byte 2 of the word. B's column 200: lane 8, column 6.
    EXPECT_EQ(scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, 2, Operand::B, 200, 0).front(),
              (TmemPlace{8, 6, 16, 8}));
    // 2X with ID 2: bytes 2 and 3 (the upper half word).
    EXPECT_EQ(scaleFactorPlaces(Kind::MXF4, ScaleVec::X2, 2, Operand::A, 0, 1).front(),
              (TmemPlace{0, 0, 24, 8}));
}

TEST(Tcgen05ScaleFactors, DistinctFactorsNeverShareABit) {
    for (const ScaleVecRule& r : scaleVecRules()) {
        std::set<std::tuple<int, int, int>> used;
        for (int m = 0; m < 128; ++m)
            for (int f = 0; f < r.factorsPerRow; ++f)
                for (const TmemPlace& p : scaleFactorPlaces(r.kinds.front(), r.vec, 0, Operand::A, m, f))
                    EXPECT_TRUE(used.insert({p.lane, p.column, p.lowBit}).second)
                        << toString(r.vec) << " m " << m;
    }
}

TEST(Tcgen05ScaleFactors, OutOfRangeInputsAreNamed) {
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, 0, Operand::A, 128, 0);
              }).find("row m 128"),
              std::string::npos);
    EXPECT_NO_THROW(scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, 0, Operand::B, 255, 0));
    EXPECT_NE(
        thrown([] { scaleFactorPlaces(Kind::MXF4, ScaleVec::X2, 0, Operand::A, 0, 2); }).find("factor 2"),
        std::string::npos);
}

TEST(Tcgen05SparseMetadata, GranularityPerKind) {
    // §9.7.16.10.8: tf32 1:2, f16/f8f6f4/mxf8f6f4/i8 2:4, mxf4/mxf4nvf4 4:8 in pairs; 4 metadata bits per
    // group.
    EXPECT_EQ(sparseGranularity(Kind::TF32).group, 2);
    EXPECT_EQ(sparseGranularity(Kind::F16).group, 4);
    EXPECT_EQ(sparseGranularity(Kind::I8).nonZero, 2);
    EXPECT_EQ(sparseGranularity(Kind::MXF4NVF4).group, 8);
    for (const Kind k : {Kind::TF32, Kind::F16, Kind::MXF4})
        EXPECT_EQ(sparseGranularity(k).metadataBits, 4);
}

TEST(Tcgen05SparseMetadata, EightBitKindsKeepOneRowPerLaneInOrder) {
    // Sparse K = 64: 16 nibbles per row, two columns.
    EXPECT_EQ(sparseMetadataPlace(Kind::F8F6F4, 5, 0), (TmemPlace{5, 0, 0, 4}));
    EXPECT_EQ(sparseMetadataPlace(Kind::I8, 5, 9), (TmemPlace{5, 1, 4, 4}));
    EXPECT_EQ(sparseMetadataPlace(Kind::MXF8F6F4, 127, 15), (TmemPlace{127, 1, 28, 4}));
    EXPECT_NE(thrown([] { sparseMetadataPlace(Kind::I8, 0, 16); }).find("group 16"), std::string::npos);
}

TEST(Tcgen05ScaleFactors, EveryVectorSizeAndIdIsDrawableAndTheIdsTileTheWord) {
    // §9.7.16.10.7.2/.3: successive MMAs choose successive IDs; over all IDs of one vector size, every byte
    // of the 4 columns x 128 lanes that hold A's factors is used exactly once, and every factor is placed.
    for (const ScaleVecRule& r : scaleVecRules())
        for (const Kind kind : r.kinds)
            for (const Operand op : {Operand::A, Operand::B}) {
                const int rows = op == Operand::A ? 128 : 256;
                std::set<std::tuple<int, int, int>> used;
                int placed = 0;
                for (const int id : r.ids)
                    for (int i = 0; i < rows; ++i)
                        for (int f = 0; f < r.factorsPerRow; ++f)
                            for (const TmemPlace& p : scaleFactorPlaces(kind, r.vec, id, op, i, f)) {
                                EXPECT_TRUE(used.insert({p.lane, p.column, p.lowBit}).second)
                                    << toString(r.vec) << " id " << id << " row " << i << " factor " << f;
                                EXPECT_EQ(p.bits, 8);
                                ++placed;
                            }
                // The IDs together fill every byte of rows / 32 columns of all 128 lanes: 4 bytes a word.
                EXPECT_EQ(placed, 128 * (rows / 32) * 4) << toString(r.vec);
                EXPECT_EQ(static_cast<int>(used.size()), placed);
            }
}

TEST(Tcgen05ScaleFactors, WorkedExamplesFromTheFigures) {
    // Figure 231 (1X, A): SFA_ID 3 selects the fourth byte (the red sub-column) of each word; row 100 sits in
    // lane 100 % 32 = 4 of each subpartition, column 100 / 32 = 3.
    EXPECT_EQ(scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, 3, Operand::A, 100, 0)[2],
              (TmemPlace{68, 3, 24, 8}));
    // Figure 241 (2X, B): SFB_ID 2 is the upper half word; column n = 255: lane 31, column 7, bytes 2 and 3.
    const auto b = scaleFactorPlaces(Kind::MXF4NVF4, ScaleVec::X2, 2, Operand::B, 255, 1);
    EXPECT_EQ(b.front(), (TmemPlace{31, 7, 24, 8}));
    EXPECT_EQ(b.back(), (TmemPlace{127, 7, 24, 8}));
    // Figure 233 (4X): the whole word, factor f in byte f.
    EXPECT_EQ(scaleFactorPlaces(Kind::MXF4NVF4, ScaleVec::X4, 0, Operand::A, 0, 2)[1],
              (TmemPlace{32, 0, 16, 8}));
}

TEST(Tcgen05ScaleFactors, BlockScaleValidationNamesTheValidValues) {
    EXPECT_EQ(validate(Kind::MXF4NVF4, BlockScale{ScaleVec::X2, 2, 0}), "");
    EXPECT_NE(validate(Kind::MXF4NVF4, BlockScale{ScaleVec::X2, 1, 0}).find("SFA ID 1 is invalid"),
              std::string::npos);
    EXPECT_NE(validate(Kind::MXF8F6F4, BlockScale{ScaleVec::X1, 0, 4}).find("valid: 0, 1, 2, 3"),
              std::string::npos);
    EXPECT_NE(validate(Kind::MXF4, BlockScale{ScaleVec::X4, 0, 0}).find("valid: scale_vec::2X"),
              std::string::npos);
    EXPECT_NE(validate(Kind::F16, BlockScale{}).find("not block-scaled"), std::string::npos);
    EXPECT_EQ(scaleVecsOf(Kind::MXF4NVF4), (std::vector<ScaleVec>{ScaleVec::X2, ScaleVec::X4}));
    EXPECT_FALSE(defaultBlockScale(Kind::I8));
    EXPECT_EQ(defaultBlockScale(Kind::MXF8F6F4)->vec, ScaleVec::X1);
    EXPECT_EQ(defaultBlockScale(Kind::MXF4NVF4)->vec, ScaleVec::X4) << "the size the catalog's PTX names";
    // The 2x2 datapath's B factors are a finding, not a guess.
    EXPECT_THROW(scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, 0, Operand::D, 0, 0), std::invalid_argument);
    EXPECT_NE(scaleFactorFinding(Operand::B, 128, 2), "");
    EXPECT_EQ(scaleFactorFinding(Operand::A, 128, 2), "");
    EXPECT_EQ(scaleFactorFinding(Operand::B, 256, 2), "");
}

TEST(Tcgen05SparseMetadata, SixteenAndThirtyTwoBitKindsInterleaveHalfRows) {
    // CUTLASS tmem_e_frg (16-bit atom ((8,2,8),(16,2)):((1,2048,16),(128,8))): rows 0-7 on lanes 0-7 bits
    // 15-0, rows 8-15 on the same lanes bits 31-16, groups 4-7 eight lanes down, rows 16-31 on lanes 16-31.
    EXPECT_EQ(sparseMetadataPlace(Kind::F16, 128, 1, 0, 0), (TmemPlace{0, 0, 0, 4}));
    EXPECT_EQ(sparseMetadataPlace(Kind::F16, 128, 1, 9, 1), (TmemPlace{1, 0, 20, 4}));
    EXPECT_EQ(sparseMetadataPlace(Kind::F16, 128, 1, 3, 6), (TmemPlace{11, 0, 8, 4}));
    EXPECT_EQ(sparseMetadataPlace(Kind::TF32, 256, 2, 127, 7), (TmemPlace{127, 0, 28, 4}));
    EXPECT_EQ(sparseMetadataPlace(Kind::TF32, 128, 1, 21, 2), (TmemPlace{21, 0, 8, 4}));
    // The 4-bit kinds: one row a lane like the 8-bit ones (K = 128, 16 groups of 8).
    EXPECT_EQ(sparseMetadataPlace(Kind::MXF4NVF4, 128, 1, 7, 12), (TmemPlace{7, 1, 16, 4}));
}

TEST(Tcgen05SparseMetadata, EveryCoveredKindAndMPlacesEveryGroupOnceAndTheRestAreFindings) {
    for (const Kind kind :
         {Kind::F16, Kind::TF32, Kind::F8F6F4, Kind::I8, Kind::MXF8F6F4, Kind::MXF4, Kind::MXF4NVF4})
        for (const auto& [m, ctaGroup] :
             {std::pair{64, 1}, std::pair{128, 1}, std::pair{128, 2}, std::pair{256, 2}, std::pair{32, 1}}) {
            std::string why;
            const MetadataLayoutRecord* rec = metadataLayoutOf(kind, m, ctaGroup, &why);
            const bool drawn = (m == 128 && ctaGroup == 1) || m == 256;
            EXPECT_EQ(rec && rec->place, drawn) << toString(kind) << " M " << m << " cta_group " << ctaGroup;
            if (!drawn) {
                // (clang 14 cannot capture structured bindings: copies)
                const int rows = m, group = ctaGroup;
                EXPECT_FALSE(thrown([&] { sparseMetadataPlace(kind, rows, group, 0, 0); }).empty());
                EXPECT_TRUE(!why.empty() || (rec && !rec->finding.empty()));
                continue;
            }
            EXPECT_FALSE(rec->figure.empty());
            std::set<std::tuple<int, int, int>> used;
            for (int row = 0; row < m / ctaGroup; ++row)
                for (int g = 0; g < metadataGroupsPerRow(kind); ++g) {
                    const TmemPlace p = sparseMetadataPlace(kind, m, ctaGroup, row, g);
                    EXPECT_TRUE(p.lane >= 0 && p.lane < 128 && p.lowBit % 4 == 0 && p.bits == 4);
                    EXPECT_TRUE(used.insert({p.lane, p.column, p.lowBit}).second)
                        << toString(kind) << " row " << row << " group " << g;
                }
            // Every nibble of the columns used, each once: 128 lanes x columns x 8.
            EXPECT_EQ(static_cast<int>(used.size()), 128 * metadataGroupsPerRow(kind) / 8 * 8);
        }
}

} // namespace

} // namespace test_tcgen05_tmem_tables
