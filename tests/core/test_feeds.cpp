// A TMA box feeding a shared-memory reader (lanemap/feeds.hpp, docs/tma.md#feeds): the canonical matches are
// equal cell by cell, and a wrong swizzle, box or major-ness is named by its first wrong cell.
#include "lanemap/feeds.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/family.hpp"
#include "lanemap/spec.hpp"

#include <nlohmann/json.hpp>

#include "selection_text.hpp"

#include <gtest/gtest.h>

namespace test_feeds {

using namespace lanemap;
using lanemap::test::parsed;

namespace {

struct Ask {
    std::string box;
    std::string reader;
    Operand operand = Operand::A;
    std::optional<smem::Major> major = std::nullopt;
    std::optional<smem::Swizzle> swizzle = std::nullopt;
    std::optional<smem::Major> inner = std::nullopt;
    std::optional<std::string> tile = std::nullopt;
};

feeds::Answer ask(const Ask& a) {
    feeds::Request q;
    q.writer = parsed(a.box);
    q.reader = parsed(a.reader);
    q.operand = a.operand;
    q.major = a.major;
    q.swizzle = a.swizzle;
    q.inner = a.inner;
    std::string error;
    if (a.tile) {
        q.tile = banks::parsePlacement(*a.tile, error);
        if (!q.tile)
            throw std::runtime_error(error);
    }
    std::optional<feeds::Answer> answer = feeds::ask(q, error);
    if (!answer)
        throw std::runtime_error(error);
    return std::move(*answer);
}

std::string refusal(const Ask& a) {
    try {
        ask(a);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

constexpr const char* kWgmma = "wgmma.m64n64k16.f16";

} // namespace

TEST(TmaFeeds, A128ByteWideF16BoxWith128BSwizzleIsWgmmasKMajor128BAtom) {
    const feeds::Answer a =
        ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B", kWgmma});
    EXPECT_TRUE(a.comparison.feeds());
    // The box holds four k-steps of A (64 x 16): the reader is tiled to 64 x 64, every cell compared.
    EXPECT_EQ(a.comparison.readerRows, 64);
    EXPECT_EQ(a.comparison.readerCols, 64);
    EXPECT_EQ(a.comparison.compared, 64 * 64);
    EXPECT_EQ(a.comparison.unread, 0);
    EXPECT_FALSE(a.comparison.first);
    EXPECT_EQ(a.comparison.orientation, feeds::Orientation::Same);
}

TEST(TmaFeeds, The64BAnd32BBoxesAreTheirAtomsToo) {
    for (const auto& [box, swizzle] : {std::pair{"box=64x32 swizzle=64B", smem::Swizzle::B64},
                                       std::pair{"box=64x16 swizzle=32B", smem::Swizzle::B32}}) {
        const feeds::Answer a =
            ask({std::string("cp.async.bulk.tensor.2d type=f16 tensor=64x64 ") + box, kWgmma});
        EXPECT_TRUE(a.comparison.feeds()) << box;
        EXPECT_EQ(a.comparison.compared, 64 * (swizzle == smem::Swizzle::B64 ? 32 : 16)) << box;
    }
}

TEST(TmaFeeds, AnUnswizzledBoxIsAnLdmatrixRowMajorTileButNotWgmmasCoreMatrices) {
    const std::string box = "cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64";
    const feeds::Answer tile =
        ask({box, "ldmatrix.m8n8.x4.b16", Operand::A, {}, {}, {}, std::string("row-major")});
    EXPECT_TRUE(tile.comparison.feeds());
    EXPECT_EQ(tile.comparison.compared, 64 * 64);
    // wgmma's interleaved layout keeps 8 rows of 16 bytes together (a core matrix): row 1 is at byte 16,
    // where the dense box has row 0's columns 8..15.
    const feeds::Answer core = ask({box, kWgmma});
    ASSERT_FALSE(core.comparison.feeds());
    ASSERT_TRUE(core.comparison.first);
    EXPECT_EQ(core.comparison.first->offset, 16u);
    EXPECT_EQ(core.comparison.first->expected, (feeds::Cell{1, 0}));
    EXPECT_EQ(core.comparison.first->wroteCell, (feeds::Cell{0, 8}));
    EXPECT_EQ(core.comparison.first->expectedWrittenAt, std::optional<std::uint32_t>(128));
}

TEST(TmaFeeds, BIsReadKMajorFromABoxWhoseRowsAreN) {
    const feeds::Answer a =
        ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B", kWgmma, Operand::B});
    EXPECT_EQ(a.comparison.orientation, feeds::Orientation::Transposed) << "B is K x N; the box is N x K";
    EXPECT_TRUE(a.comparison.feeds());
    EXPECT_EQ(a.sides.readerRow, "k");
    EXPECT_EQ(a.sides.readerCol, "n");
}

TEST(TmaFeeds, AnMnMajorReaderTakesABoxWhoseColumnsAreM) {
    // 16 rows of K, 64 columns of M (128 bytes): one MN-major 128B atom column.
    const feeds::Answer a = ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=16x64 swizzle=128B",
                                 kWgmma, Operand::A, smem::Major::MN});
    EXPECT_EQ(a.comparison.orientation, feeds::Orientation::Transposed);
    EXPECT_TRUE(a.comparison.feeds());
    EXPECT_EQ(a.comparison.compared, 64 * 16);
}

TEST(TmaFeeds, AWrongSwizzleIsNamedByItsFirstCell) {
    const feeds::Answer a = ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B",
                                 kWgmma,
                                 Operand::A,
                                 {},
                                 smem::Swizzle::B64});
    ASSERT_FALSE(a.comparison.feeds());
    ASSERT_TRUE(a.comparison.first);
    const feeds::Difference& d = *a.comparison.first;
    // A 64B atom row is 32 elements: the reader wants A[1][0] at byte 64, where the 128-byte box row 0 has
    // column 32; the box put row 1 at 128, chunk 0 XOR 1 = byte 144.
    EXPECT_EQ(d.offset, 64u);
    EXPECT_EQ(d.expected, (feeds::Cell{1, 0}));
    EXPECT_EQ(d.wroteCell, (feeds::Cell{0, 32}));
    EXPECT_EQ(d.expectedWrittenAt, std::optional<std::uint32_t>(144));
    const std::string text = feeds::toText(a.comparison, a.sides);
    EXPECT_NE(text.find("first difference at byte 64"), std::string::npos) << text;
    EXPECT_NE(text.find("m=1, k=0"), std::string::npos) << text;
    EXPECT_NE(text.find("box (0, 32), global (0, 32)"), std::string::npos) << text;
}

TEST(TmaFeeds, ABoxTooNarrowOrTooShortLeavesTheReadersCellsUnwritten) {
    // 16 bytes wide: the first core-matrix column of K; wgmma reads k 8..15 one LBO (1024 bytes) on.
    const feeds::Answer narrow = ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x8", kWgmma});
    ASSERT_TRUE(narrow.comparison.first);
    EXPECT_EQ(narrow.comparison.first->offset, 1024u);
    EXPECT_EQ(narrow.comparison.first->expected, (feeds::Cell{0, 8}));
    EXPECT_FALSE(narrow.comparison.first->wroteCell);
    EXPECT_FALSE(narrow.comparison.first->expectedWrittenAt);
    EXPECT_EQ(narrow.comparison.equal, 64 * 8) << "the half the box holds is where wgmma reads it";
    EXPECT_EQ(narrow.comparison.unwritten, 64 * 8);
    // 8 rows: wgmma's A has 64.
    const feeds::Answer shortBox =
        ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=8x64 swizzle=128B", kWgmma});
    ASSERT_TRUE(shortBox.comparison.first);
    EXPECT_EQ(shortBox.comparison.first->offset, 1024u);
    EXPECT_EQ(shortBox.comparison.first->expected, (feeds::Cell{8, 0}));
}

TEST(TmaFeeds, AKInnermostBoxReadMnMajorDiffersAtTheSecondElement) {
    const feeds::Answer a = ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64 swizzle=128B",
                                 kWgmma,
                                 Operand::A,
                                 smem::Major::MN,
                                 {},
                                 smem::Major::K});
    ASSERT_FALSE(a.comparison.feeds());
    ASSERT_TRUE(a.comparison.first);
    EXPECT_EQ(a.comparison.first->offset, 2u);
    EXPECT_EQ(a.comparison.first->expected, (feeds::Cell{1, 0})) << "MN-major: m runs along the bytes";
    EXPECT_EQ(a.comparison.first->wroteCell, (feeds::Cell{0, 1}));
    EXPECT_EQ(a.comparison.first->wroteAsReader, (feeds::Cell{0, 1})) << "the box's column 1 is k = 1";
    const nlohmann::json j = nlohmann::json::parse(feeds::toJson(a.comparison, a.sides));
    EXPECT_EQ(j["feeds"], false);
    EXPECT_EQ(j["first_difference"]["smem_offset"], 2);
    EXPECT_EQ(j["first_difference"]["reader_expects"]["row"], 1);
    EXPECT_EQ(j["first_difference"]["wrote"]["box"], nlohmann::json::array({0, 1}));
}

TEST(TmaFeeds, ATcgen05DescriptorReadsTheSameAtoms) {
    const std::string mma = "tcgen05.mma.cta_group::1.kind::f16.m128n64";
    const feeds::Answer a =
        ask({"cp.async.bulk.tensor.2d type=f16 tensor=128x64 box=128x64 swizzle=128B", mma});
    EXPECT_TRUE(a.comparison.feeds());
    EXPECT_EQ(a.comparison.compared, 128 * 64);
    // The sm_100 128B-32B mode (MN-major only): a box with it is the descriptor's layout too.
    const feeds::Answer b = ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=16x64 swizzle=128B-32B",
                                 mma, Operand::B, smem::Major::MN});
    EXPECT_TRUE(b.comparison.feeds());
    // ... and a 128B descriptor does not read it.
    const feeds::Answer c = ask({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=16x64 swizzle=128B-32B",
                                 mma, Operand::B, smem::Major::MN, smem::Swizzle::B128});
    EXPECT_FALSE(c.comparison.feeds());
}

TEST(TmaFeeds, TheTiledReaderIsTheKStepsDescriptors) {
    // CuTe advances a K-major descriptor's start address by the step's unswizzled offset: k-step j of a
    // 128B tile starts 32 bytes on; the swizzle acts on the absolute address.
    const Instruction& wgmma = *Catalog::instance().instruction(kWgmma);
    Placement tiled;
    std::string error;
    ASSERT_TRUE(wgmma.family->sharedOperand(wgmma, Operand::A, smem::Choice{}, 64, 64, tiled, error))
        << error;
    for (int step = 0; step < 4; ++step) {
        const smem::SmemLayout own =
            smem::SmemLayout::make(16, 64, 16, smem::Major::K, smem::Swizzle::B128, 32u * step);
        for (int m = 0; m < 64; ++m)
            for (int k = 0; k < 16; ++k)
                ASSERT_EQ(std::get<SmemByte>(tiled.at(m, 16 * step + k).front().at).address,
                          own.address(m, k))
                    << step << ": " << m << "," << k;
    }
    EXPECT_FALSE(wgmma.family->sharedOperand(wgmma, Operand::A, smem::Choice{}, 64, 24, tiled, error));
    EXPECT_NE(error.find("whole number"), std::string::npos) << error;
}

TEST(TmaFeeds, WhatCannotBeComparedIsRefusedWithWhy) {
    EXPECT_NE(refusal({"cp.async.bulk.tensor.2d type=f16 tensor=64x64 box=64x64", "mma.m16n8k16.f16"})
                  .find("reads no operand from shared memory"),
              std::string::npos);
    EXPECT_NE(refusal({"cp.async.bulk.tensor.2d type=f32 tensor=64x64 box=64x32 swizzle=128B", kWgmma})
                  .find("4 bytes and the reader's 2"),
              std::string::npos);
    EXPECT_NE(refusal({kWgmma, kWgmma}).find("does not move global memory into shared memory"),
              std::string::npos);
}

} // namespace test_feeds
