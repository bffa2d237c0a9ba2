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

namespace test_tcgen05_tmem_tables {

using namespace lanemap::tcgen05;

namespace {

using lanemap::test::thrown;

TEST(Tcgen05ScaleFactors, IdsPerVectorSizeAreTheIsas) {
    // 1X: "the byte offset in the Tensor Memory word"; 2X: "the half word offset"; 4X: "must be 0".
    for (const int id : {0, 1, 2, 3})
        EXPECT_NO_THROW(scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, id, ScaleOperand::A, 0, 0)) << id;
    EXPECT_NO_THROW(scaleFactorPlaces(Kind::MXF4, ScaleVec::X2, 2, ScaleOperand::A, 0, 1));
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF4, ScaleVec::X2, 1, ScaleOperand::A, 0, 0);
              }).find("valid: 0, 2"),
              std::string::npos);
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF4NVF4, ScaleVec::X4, 2, ScaleOperand::B, 0, 0);
              }).find("valid: 0"),
              std::string::npos);
}

TEST(Tcgen05ScaleFactors, KindAndVectorSizeFollowTable57) {
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF4, ScaleVec::X4, 0, ScaleOperand::A, 0, 0);
              }).find("Table 57"),
              std::string::npos);
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X2, 0, ScaleOperand::A, 0, 0);
              }).find("Table 57"),
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
    const auto places = scaleFactorPlaces(Kind::MXF4NVF4, ScaleVec::X4, 0, ScaleOperand::A, 37, 3);
    ASSERT_EQ(places.size(), 4u);
    for (int s = 0; s < 4; ++s)
        EXPECT_EQ(places[static_cast<std::size_t>(s)], (TmemPlace{5 + 32 * s, 1, 24, 8}));
    // 1X with ID 2: byte 2 of the word. B's column 200: lane 8, column 6.
    EXPECT_EQ(scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, 2, ScaleOperand::B, 200, 0).front(),
              (TmemPlace{8, 6, 16, 8}));
    // 2X with ID 2: bytes 2 and 3 (the upper half word).
    EXPECT_EQ(scaleFactorPlaces(Kind::MXF4, ScaleVec::X2, 2, ScaleOperand::A, 0, 1).front(),
              (TmemPlace{0, 0, 24, 8}));
}

TEST(Tcgen05ScaleFactors, DistinctFactorsNeverShareABit) {
    for (const ScaleVecRule& r : scaleVecRules()) {
        std::set<std::tuple<int, int, int>> used;
        for (int m = 0; m < 128; ++m)
            for (int f = 0; f < r.factorsPerRow; ++f)
                for (const TmemPlace& p : scaleFactorPlaces(r.kinds.front(), r.vec, 0, ScaleOperand::A, m, f))
                    EXPECT_TRUE(used.insert({p.lane, p.column, p.lowBit}).second)
                        << toString(r.vec) << " m " << m;
    }
}

TEST(Tcgen05ScaleFactors, OutOfRangeInputsAreNamed) {
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, 0, ScaleOperand::A, 128, 0);
              }).find("row m 128"),
              std::string::npos);
    EXPECT_NO_THROW(scaleFactorPlaces(Kind::MXF8F6F4, ScaleVec::X1, 0, ScaleOperand::B, 255, 0));
    EXPECT_NE(thrown([] {
                  scaleFactorPlaces(Kind::MXF4, ScaleVec::X2, 0, ScaleOperand::A, 0, 2);
              }).find("factor 2"),
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
    EXPECT_NE(thrown([] { sparseMetadataPlace(Kind::F16, 0, 0); }).find("not covered"), std::string::npos);
    EXPECT_NE(thrown([] { sparseMetadataPlace(Kind::I8, 0, 16); }).find("group 16"), std::string::npos);
}

} // namespace

} // namespace test_tcgen05_tmem_tables
