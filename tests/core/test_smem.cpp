// wgmma shared-memory layouts (PTX 9.1 §9.7.15.5.1.2; docs/reference/ptx-facts.md#shared-memory): the
// Swizzle<B,4,3> XOR on byte addresses, the canonical K/MN-major layouts against the ISA's worked examples,
// LBO/SBO, and the 64-bit matrix descriptor. The hardware probe places operands with this code, so every
// number here is one a kernel author would get wrong if it broke.
#include "lanemap/smem.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <vector>

namespace test_smem {

using namespace lanemap::smem;

namespace {

// --- an independent evaluator of the ISA's CuTe layouts (colexicographic, first mode fastest) ------------

struct Mode {
    std::vector<int> shape, stride;
};

int evalMode(const Mode& m, int index) {
    int offset = 0;
    for (std::size_t i = 0; i < m.shape.size(); ++i) {
        offset += (index % m.shape[i]) * m.stride[i];
        index /= m.shape[i];
    }
    return offset;
}

// Element offset of (mn, k) in the ISA's "exact layout" (first mode = MN rows, second = K).
int cute(const Mode& mn, const Mode& k, int mnIndex, int kIndex) {
    return evalMode(mn, mnIndex) + evalMode(k, kIndex);
}

// --- Swizzle<B,4,3> ----------------------------------------------------------------------------------------

TEST(Swizzle, Xor128BMovesTheSixteenByteChunkByTheRowIndex) {
    // 128B: bits [6:4] ^= bits [9:7]: chunk c of 128-byte row r lands in chunk c ^ (r mod 8).
    for (std::uint32_t row = 0; row < 16; ++row)
        for (std::uint32_t chunk = 0; chunk < 8; ++chunk)
            for (std::uint32_t byte : {0u, 5u, 15u}) {
                const std::uint32_t a = row * 128 + chunk * 16 + byte;
                EXPECT_EQ(swizzleAddress(a, Swizzle::B128), row * 128 + ((chunk ^ (row % 8)) * 16) + byte)
                    << a;
            }
}

TEST(Swizzle, Xor64BAnd32BUseFewerBits) {
    for (std::uint32_t a = 0; a < 4096; ++a) {
        const std::uint32_t b54 = (a >> 4) & 3, b87 = (a >> 7) & 3;
        EXPECT_EQ(swizzleAddress(a, Swizzle::B64), (a & ~0x30u) | ((b54 ^ b87) << 4)) << a;
        const std::uint32_t b4 = (a >> 4) & 1, b7 = (a >> 7) & 1;
        EXPECT_EQ(swizzleAddress(a, Swizzle::B32), (a & ~0x10u) | ((b4 ^ b7) << 4)) << a;
        EXPECT_EQ(swizzleAddress(a, Swizzle::None), a);
    }
}

TEST(Swizzle, IsItsOwnInverseAndKeepsBytesInside16ByteChunks) {
    for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128})
        for (std::uint32_t a = 0; a < 8192; a += 3) {
            EXPECT_EQ(swizzleAddress(swizzleAddress(a, s), s), a);
            EXPECT_EQ(swizzleAddress(a, s) & 15u, a & 15u);
            EXPECT_EQ(swizzleAddress(a, s) / static_cast<std::uint32_t>(repeatBytes(s)),
                      a / static_cast<std::uint32_t>(repeatBytes(s)))
                << "the XOR stays inside one repeat of the pattern";
        }
}

TEST(Swizzle, NamesParseAndPrint) {
    EXPECT_EQ(parseSwizzle("128B"), Swizzle::B128);
    EXPECT_EQ(parseSwizzle("128b"), Swizzle::B128);
    EXPECT_EQ(parseSwizzle("64"), Swizzle::B64);
    EXPECT_EQ(parseSwizzle("32B"), Swizzle::B32);
    EXPECT_EQ(parseSwizzle("none"), Swizzle::None);
    EXPECT_EQ(parseSwizzle("interleave"), Swizzle::None);
    EXPECT_FALSE(parseSwizzle("48B"));
    EXPECT_EQ(parseMajor("K"), Major::K);
    EXPECT_EQ(parseMajor("mn"), Major::MN);
    EXPECT_FALSE(parseMajor("row"));
    EXPECT_EQ(toString(Swizzle::B64), "64B");
    EXPECT_EQ(toString(Major::MN), "MN");
    EXPECT_EQ(repeatBytes(Swizzle::B128), 1024);
    EXPECT_EQ(repeatBytes(Swizzle::B64), 512);
    EXPECT_EQ(repeatBytes(Swizzle::B32), 256);
}

// --- descriptor ----------------------------------------------------------------------------------------

TEST(Descriptor, FieldsSitInTheDocumentedBits) {
    MatrixDescriptor d;
    d.startAddress = 0x400;
    d.leadingByteOffset = 16;
    d.strideByteOffset = 1024;
    d.baseOffset = 5;
    d.swizzle = Swizzle::B128;
    const std::uint64_t bits = encodeDescriptor(d);
    EXPECT_EQ(bits & 0x3FFF, 0x40u);       // 13-0: 0x400 >> 4
    EXPECT_EQ((bits >> 14) & 0x3, 0u);     // reserved
    EXPECT_EQ((bits >> 16) & 0x3FFF, 1u);  // 29-16: 16 >> 4
    EXPECT_EQ((bits >> 32) & 0x3FFF, 64u); // 45-32: 1024 >> 4
    EXPECT_EQ((bits >> 49) & 0x7, 5u);     // 51-49
    EXPECT_EQ(bits >> 62, 1u);             // 63-62: 1 = 128B
    EXPECT_EQ(bits, 0x400A004000010040ull);
    EXPECT_EQ(decodeDescriptor(bits), d);
}

TEST(Descriptor, SwizzleCodesFollowTheTable) {
    // 0: none, 1: 128B, 2: 64B, 3: 32B.
    const std::pair<Swizzle, std::uint64_t> codes[] = {
        {Swizzle::None, 0}, {Swizzle::B128, 1}, {Swizzle::B64, 2}, {Swizzle::B32, 3}};
    for (const auto& [s, code] : codes) {
        MatrixDescriptor d;
        d.swizzle = s;
        EXPECT_EQ(encodeDescriptor(d) >> 62, code) << toString(s);
        EXPECT_EQ(decodeDescriptor(code << 62).swizzle, s);
    }
}

TEST(Descriptor, EncodeIsTheIsaFunction) {
    // matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4
    EXPECT_EQ(descriptorEncode(256), 16u);
    EXPECT_EQ(descriptorEncode(0x3FFF0), 0x3FFFu);
    EXPECT_EQ(descriptorEncode(0x40010), 1u) << "bits above 17 are dropped";
    for (std::uint32_t start : {0u, 16u, 0x1230u, 0x3FFF0u}) {
        MatrixDescriptor d;
        d.startAddress = start;
        d.leadingByteOffset = 0x3FFF0u - start;
        d.strideByteOffset = start;
        EXPECT_EQ(decodeDescriptor(encodeDescriptor(d)), d);
    }
}

TEST(Descriptor, RejectsValuesThatDoNotEncodeExactly) {
    MatrixDescriptor d;
    d.leadingByteOffset = 24;
    try {
        encodeDescriptor(d);
        FAIL() << "LBO 24 is not a multiple of 16";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("leading byte offset: 24 bytes"), std::string::npos) << e.what();
    }
    d.leadingByteOffset = 0;
    d.startAddress = 1u << 18;
    EXPECT_THROW(encodeDescriptor(d), std::invalid_argument);
    d.startAddress = 0;
    d.baseOffset = 8;
    EXPECT_THROW(encodeDescriptor(d), std::invalid_argument);
}

TEST(Descriptor, CheckListsEveryRuleTheFieldsBreak) {
    // The web app's encoder lists them all, each with its field; encode throws the first.
    const MatrixDescriptor d{24, 16, 1u << 18, 9, Swizzle::B128Atom32};
    const std::vector<DescriptorRule> broken = checkDescriptor(d);
    ASSERT_EQ(broken.size(), 4u);
    EXPECT_EQ(broken[0].field, "start address");
    EXPECT_EQ(broken[1].field, "stride byte offset");
    EXPECT_EQ(broken[2], (DescriptorRule{"base offset", "9 does not fit bits 51-49; valid: 0..7"}));
    EXPECT_EQ(broken[3].field, "swizzle");
    EXPECT_TRUE(checkDescriptor(MatrixDescriptor{1024, 16, 1024, 0, Swizzle::B128}).empty());
}

TEST(Descriptor, FieldsReadByName) {
    EXPECT_EQ(parseDescriptorFields("start=0x400,lbo=16,sbo=1024,base=1,swizzle=128B"),
              (MatrixDescriptor{1024, 16, 1024, 1, Swizzle::B128}));
    EXPECT_EQ(parseDescriptorFields(""), MatrixDescriptor{});
    for (const auto& [text, message] :
         {std::pair{"lbo=x", "'lbo=x': expected a non-negative number"},
          {"mode=relative", "unknown key 'mode'"},
          {"swizzle=16B", "swizzle '16B' is unknown; valid: none, 32B, 64B, 128B"},
          {"sbo=1,sbo=2", "'sbo' is given twice"},
          {"start", "'start' is not key=value"}}) {
        try {
            parseDescriptorFields(text);
            ADD_FAILURE() << text << " read";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
        }
    }
}

TEST(Descriptor, ReservedBitsAreRejectedOnDecode) {
    try {
        decodeDescriptor(1ull << 14);
        FAIL() << "bit 14 is reserved";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("reserved bits 0x4000"), std::string::npos) << e.what();
    }
    EXPECT_THROW(decodeDescriptor(1ull << 46), std::invalid_argument);
    EXPECT_THROW(decodeDescriptor(1ull << 52), std::invalid_argument);
}

TEST(Descriptor, BaseOffsetFollowsThePatternStart) {
    EXPECT_EQ(baseOffsetFor(0, Swizzle::B128), 0);
    EXPECT_EQ(baseOffsetFor(0x400, Swizzle::B128), 0);
    EXPECT_EQ(baseOffsetFor(0x480, Swizzle::B128), 1); // (addr >> 7) & 7
    EXPECT_EQ(baseOffsetFor(0x380, Swizzle::B128), 7);
    EXPECT_EQ(baseOffsetFor(0x200, Swizzle::B64), 0);
    EXPECT_EQ(baseOffsetFor(0x100, Swizzle::B32), 0);
    EXPECT_EQ(baseOffsetFor(0x180, Swizzle::B32), 3);
    EXPECT_EQ(baseOffsetFor(0x180, Swizzle::None), 0) << "not used without swizzle";
}

// --- the ISA's worked examples (§9.7.15.5.1.2.1.3) -----------------------------------------------------

struct IsaExample {
    const char* name;
    int bits, rows, cols;
    Major major;
    Swizzle swizzle;
    Mode mn, k;               // the ISA's exact layout
    std::uint32_t lboEncoded; // "Encoding of LBO in descriptor"
    std::uint32_t sboEncoded;
    const char* exact;
};

class WorkedExample : public ::testing::TestWithParam<IsaExample> {};

TEST_P(WorkedExample, MatchesTheIsaLayoutAndOffsets) {
    const IsaExample& ex = GetParam();
    const SmemLayout l = SmemLayout::make(ex.bits, ex.rows, ex.cols, ex.major, ex.swizzle);
    EXPECT_EQ(descriptorEncode(l.leadingByteOffset()), ex.lboEncoded);
    EXPECT_EQ(descriptorEncode(l.strideByteOffset()), ex.sboEncoded);
    EXPECT_EQ(l.exactLayout(), ex.exact);
    for (int mn = 0; mn < ex.rows; ++mn)
        for (int k = 0; k < ex.cols; ++k) {
            const Placement p = l.placement(mn, k);
            const std::uint32_t bytes = static_cast<std::uint32_t>(cute(ex.mn, ex.k, mn, k) * ex.bits / 8);
            ASSERT_EQ(p.linear, bytes) << ex.name << " (" << mn << ", " << k << ")";
            ASSERT_EQ(p.address, swizzleAddress(bytes, ex.swizzle)) << "the swizzle acts on byte addresses";
        }
}

INSTANTIATE_TEST_SUITE_P(
    Isa, WorkedExample,
    ::testing::Values(
        // K-major, no swizzle, tf32: ((8,2),(4,4)):((4,32),(1,64)); LBO 64*4 -> 16, SBO 32*4 -> 8.
        IsaExample{"K none tf32",
                   32,
                   16,
                   16,
                   Major::K,
                   Swizzle::None,
                   {{8, 2}, {4, 32}},
                   {{4, 4}, {1, 64}},
                   16,
                   8,
                   "((8,2),(4,4)):((4,32),(1,64))"},
        // K-major, 32B, tf32: ((8,2),(4,4)):((8,64),(1,4)), SBO 64*4 -> 16, LBO "1 (assumed)". One swizzle
        // row holds 8 tf32, so the example's K is taken as one atom (see KMajorSwizzledKBeyondOneAtom).
        IsaExample{"K 32B tf32",
                   32,
                   16,
                   8,
                   Major::K,
                   Swizzle::B32,
                   {{8, 2}, {8, 64}},
                   {{4, 2}, {1, 4}},
                   1,
                   16,
                   "((8,2),(4,2)):((8,64),(1,4))"},
        // MN-major, no swizzle, bf16: ((8,1,2),(8,2)):((1,8,64),(8,128)); LBO 128*2 -> 16, SBO 64*2 -> 8.
        IsaExample{"MN none bf16",
                   16,
                   16,
                   16,
                   Major::MN,
                   Swizzle::None,
                   {{8, 1, 2}, {1, 8, 64}},
                   {{8, 2}, {8, 128}},
                   16,
                   8,
                   "((8,1,2),(8,2)):((1,8,64),(8,128))"},
        // MN-major, 32B, bf16: ((8,2,2),(8,2)):((1,8,128),(16,256)); LBO 128*2 -> 16, SBO 256*2 -> 32.
        IsaExample{"MN 32B bf16",
                   16,
                   32,
                   16,
                   Major::MN,
                   Swizzle::B32,
                   {{8, 2, 2}, {1, 8, 128}},
                   {{8, 2}, {16, 256}},
                   16,
                   32,
                   "((8,2,2),(8,2)):((1,8,128),(16,256))"},
        // MN-major, 64B, bf16: ((8,4,2),(8,2)):((1,8,256),(32,512)); LBO 256*2 -> 32, SBO 512*2 -> 64.
        IsaExample{"MN 64B bf16",
                   16,
                   64,
                   16,
                   Major::MN,
                   Swizzle::B64,
                   {{8, 4, 2}, {1, 8, 256}},
                   {{8, 2}, {32, 512}},
                   32,
                   64,
                   "((8,4,2),(8,2)):((1,8,256),(32,512))"}),
    [](const ::testing::TestParamInfo<IsaExample>& p) {
        std::string n;
        for (const char* c = p.param.name; *c; ++c)
            n += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
        return n;
    });

TEST(KMajorSwizzledKBeyondOneAtom, TheIsaFormulaWouldOverlapSoFurtherAtomsGoLboApart) {
    // The ISA's K-major 32B tf32 example prints ((8,2),(4,4)):((8,64),(1,4)) for 16 x 16 tf32: its (0, 8)
    // and (1, 0) are both element 8 — two elements at one address. lanemap keeps one swizzle row of K per
    // atom and places the next K atom LBO bytes further (inferred; only sparse B of a 32B tile needs it).
    const Mode mn{{8, 2}, {8, 64}}, k{{4, 4}, {1, 4}};
    EXPECT_EQ(cute(mn, k, 0, 8), cute(mn, k, 1, 0));
    const SmemLayout l = SmemLayout::make(32, 16, 16, Major::K, Swizzle::B32);
    EXPECT_TRUE(l.usesLeadingByteOffset());
    EXPECT_EQ(l.leadingByteOffset(), 512u) << "two 8-row atoms of 256 bytes along MN, then the next K atom";
    EXPECT_EQ(l.strideByteOffset(), 256u);
    EXPECT_EQ(l.placement(0, 8).linear, 512u);
    EXPECT_NE(l.address(0, 8), l.address(1, 0));
}

// --- CuTe's GMMA swizzle atoms --------------------------------------------------------------------------

TEST(Atoms, KMajor128BOf16BitIsEightRowsOf128BytesWithChunkXorRow) {
    // GMMA::Layout_K_SW128_Atom<half>: 8 x 64, Swizzle<3,4,3> on the byte address.
    const SmemLayout l = SmemLayout::make(16, 8, 64, Major::K, Swizzle::B128);
    for (int r = 0; r < 8; ++r)
        for (int k = 0; k < 64; ++k) {
            const auto expect = static_cast<std::uint32_t>(r * 128 + (((k / 8) ^ r) * 16) + (k % 8) * 2);
            ASSERT_EQ(l.address(r, k), expect) << r << "," << k;
        }
    EXPECT_EQ(l.strideByteOffset(), 1024u);
    EXPECT_FALSE(l.usesLeadingByteOffset());
    EXPECT_EQ(l.leadingByteOffset(), 16u) << "encoded 1: 'not used, assumed to be 1'";
}

TEST(Atoms, MnMajor128BOf16BitXorsByTheKRow) {
    // GMMA::Layout_MN_SW128_Atom<half>: 64 (MN) x 8 (K), MN contiguous.
    const SmemLayout l = SmemLayout::make(16, 64, 8, Major::MN, Swizzle::B128);
    for (int mn = 0; mn < 64; ++mn)
        for (int k = 0; k < 8; ++k) {
            const auto expect = static_cast<std::uint32_t>(k * 128 + (((mn / 8) ^ k) * 16) + (mn % 8) * 2);
            ASSERT_EQ(l.address(mn, k), expect) << mn << "," << k;
        }
}

TEST(Atoms, NoSwizzleCoreMatrixIsEightRowsOfSixteenContiguousBytes) {
    // K-major interleave: the 8 x (16 bytes) core matrix occupies 128 contiguous bytes, row after row.
    const SmemLayout l = SmemLayout::make(16, 64, 16, Major::K, Swizzle::None);
    for (int r = 0; r < 8; ++r)
        for (int k = 0; k < 8; ++k)
            EXPECT_EQ(l.address(r, k), static_cast<std::uint32_t>(r * 16 + k * 2));
    EXPECT_EQ(l.strideByteOffset(), 128u) << "the next 8 rows follow directly";
    EXPECT_EQ(l.leadingByteOffset(), 1024u) << "the next 8 k come after all 8 row groups";
    EXPECT_EQ(l.address(8, 0), 128u);
    EXPECT_EQ(l.address(0, 8), 1024u);
}

TEST(Atoms, PlacementExplainsTheXor) {
    const SmemLayout l = SmemLayout::make(16, 64, 16, Major::K, Swizzle::B128);
    // Row 5, k 8..15: logical chunk 1 of the fifth 128-byte row, XOR 5 -> physical chunk 4.
    const Placement p = l.placement(5, 9);
    EXPECT_EQ(p.linear, 5u * 128 + 16 + 2);
    EXPECT_EQ(p.chunkBefore, 1);
    EXPECT_EQ(p.xorValue, 5);
    EXPECT_EQ(p.chunkAfter, 4);
    EXPECT_EQ(p.address, 5u * 128 + 4 * 16 + 2);
    // Second 8-row atom: the row index restarts (1024-byte repeat).
    const Placement q = l.placement(8, 0);
    EXPECT_EQ(q.linear, 1024u);
    EXPECT_EQ(q.xorValue, 0);
}

// --- every layout is exact: a bijection with an inverse -------------------------------------------------

struct Case {
    int bits, rows, cols;
};

TEST(Layouts, EveryElementHasItsOwnBitsAndTheInverseFindsIt) {
    const Case cases[] = {{16, 64, 16}, {16, 256, 16}, {16, 8, 32},  {32, 64, 8},  {8, 64, 32}, {8, 24, 64},
                          {1, 64, 256}, {1, 8, 256},   {16, 64, 64}, {16, 16, 32}, {32, 16, 16}};
    for (const Case& c : cases)
        for (Major major : {Major::K, Major::MN})
            for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128}) {
                if (major == Major::MN && (c.rows * c.bits) % 128 != 0)
                    continue;
                if (major == Major::MN && c.cols % 8 != 0)
                    continue;
                SCOPED_TRACE(std::to_string(c.bits) + "-bit " + std::to_string(c.rows) + "x" +
                             std::to_string(c.cols) + " " + std::string(toString(major)) + " " +
                             std::string(toString(s)));
                const SmemLayout l = SmemLayout::make(c.bits, c.rows, c.cols, major, s, 0x800);
                std::set<std::uint64_t> bitsUsed;
                for (int mn = 0; mn < c.rows; ++mn)
                    for (int k = 0; k < c.cols; ++k) {
                        const Placement p = l.placement(mn, k);
                        ASSERT_EQ(p.address % 16, p.linear % 16);
                        ASSERT_GE(p.linear, 0x800u);
                        ASSERT_LT(p.address, 0x800u + l.footprintBytes());
                        const std::uint64_t first =
                            std::uint64_t{p.address} * 8 + static_cast<std::uint64_t>(p.bit);
                        for (int b = 0; b < c.bits; ++b)
                            ASSERT_TRUE(bitsUsed.insert(first + static_cast<std::uint64_t>(b)).second);
                        const auto back = l.elementAt(p.address, p.bit);
                        ASSERT_TRUE(back.has_value());
                        ASSERT_EQ(*back, (Coord{mn, k}));
                    }
                // Bytes not holding an element have no owner.
                std::size_t unused = 0;
                for (std::uint32_t a = 0x800; a < 0x800 + l.footprintBytes(); ++a)
                    if (!bitsUsed.count(std::uint64_t{a} * 8)) {
                        ++unused;
                        ASSERT_FALSE(l.elementAt(a).has_value()) << a;
                    }
                EXPECT_EQ(unused * 8 + bitsUsed.size(), std::size_t{l.footprintBytes()} * 8);
                EXPECT_FALSE(l.elementAt(0x7F0).has_value());
            }
}

TEST(Layouts, SubByteElementsCarryTheirBit) {
    // b1, K-major, no swizzle: 128 elements per 16-byte unit; element k of row 0 is bit k % 8 of byte k / 8.
    const SmemLayout l = SmemLayout::make(1, 8, 256, Major::K, Swizzle::None);
    EXPECT_EQ(l.elementsPerUnit(), 128);
    EXPECT_EQ(l.placement(0, 13).address, 1u);
    EXPECT_EQ(l.placement(0, 13).bit, 5);
    EXPECT_EQ(l.placement(0, 128).address, l.leadingByteOffset());
    EXPECT_EQ(l.elementAt(1, 5), (Coord{0, 13}));
    EXPECT_EQ(l.placement(3, 0).address, 48u);
}

TEST(Layouts, BadInputNamesWhatIsWrong) {
    auto message = [](auto&& f) {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no exception");
    };
    EXPECT_NE(message([] { SmemLayout::make(16, 12, 16, Major::K, Swizzle::None); }).find("multiple of 8"),
              std::string::npos);
    EXPECT_NE(message([] { SmemLayout::make(16, 64, 4, Major::K, Swizzle::None); }).find("16-byte units"),
              std::string::npos);
    EXPECT_NE(message([] { SmemLayout::make(16, 4, 16, Major::MN, Swizzle::B32); }).find("16-byte units"),
              std::string::npos);
    EXPECT_NE(message([] { SmemLayout::make(12, 64, 16, Major::K, Swizzle::None); }).find("element bits"),
              std::string::npos);
    EXPECT_NE(
        message([] { SmemLayout::make(16, 64, 16, Major::K, Swizzle::None, 8); }).find("16-byte aligned"),
        std::string::npos);
    EXPECT_NE(message([] { SmemLayout::make(16, 2048, 128, Major::K, Swizzle::None); }).find("256 KiB"),
              std::string::npos);
}

TEST(Layouts, DescriptorOfTheUsualBTile) {
    // B of wgmma.m64n256k16.f16, K-major, 128B swizzle, at 0x1000: SBO 1024 (next 8 n), LBO assumed 1.
    const SmemLayout l = SmemLayout::make(16, 256, 16, Major::K, Swizzle::B128, 0x1000);
    const MatrixDescriptor d = l.descriptor();
    EXPECT_EQ(d.startAddress, 0x1000u);
    EXPECT_EQ(d.leadingByteOffset, 16u);
    EXPECT_EQ(d.strideByteOffset, 1024u);
    EXPECT_EQ(d.baseOffset, 0);
    EXPECT_EQ(l.encodedDescriptor(), 0x4000004000010100ull);
    EXPECT_EQ(l.footprintBytes(), 32u * 1024);
    EXPECT_NE(describe(d).find("SBO 1024 B (encoded 64)"), std::string::npos) << describe(d);
}

TEST(Layouts, FormulasNameTheirParameters) {
    const SmemLayout k = SmemLayout::make(16, 64, 16, Major::K, Swizzle::B128);
    EXPECT_EQ(k.canonicalFormula(), "Swizzle<3,4,3> o ((8,m),(T,2k)):((8T,SBO),(1,T)) with T = 8, m = 8, 2k "
                                    "= 2, SBO = 1024 B, LBO unused "
                                    "(encoded 1)");
    EXPECT_EQ(k.exactLayout(), "((8,8),(8,2)):((64,512),(1,8))");
    EXPECT_EQ(k.swizzleRule().rfind("Swizzle<3,4,3>: byte address bits [6..4] ^= bits [9..7]", 0), 0u);
    const SmemLayout mn = SmemLayout::make(16, 64, 16, Major::MN, Swizzle::None);
    EXPECT_EQ(mn.canonicalFormula(), "Swizzle<0,4,3> o ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO)) with T = 8, m = "
                                     "8, k = 2, LBO = 1024 B, SBO = 128 B");
    EXPECT_EQ(SmemLayout::make(16, 64, 16, Major::K, Swizzle::B32)
                  .swizzleRule()
                  .rfind("Swizzle<1,4,3>: byte address bits [4] ^= bits [7]", 0),
              0u);
}

} // namespace

} // namespace test_smem
