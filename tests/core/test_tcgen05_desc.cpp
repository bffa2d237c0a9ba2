// tcgen05 descriptors (PTX 9.1 §9.7.16.4; docs/reference/tcgen05-descriptors.md): the 64-bit shared-memory
// descriptor and the 32-bit instruction descriptor of every kind, encoded and decoded field by field, every
// documented limit, and the rules that reject a value. A kernel author pastes these values into a Blackwell
// kernel: a wrong bit here is a silent wrong answer there.
#include "lanemap/tcgen05_desc.hpp"
#include "thrown.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace test_tcgen05_desc {

using namespace lanemap;
using namespace lanemap::tcgen05;
using lanemap::tcgen05::Kind; // not lanemap::Kind (model.hpp), which a unity batch may also see

namespace {

bool names(const std::vector<Violation>& v, std::string_view field) {
    return std::any_of(v.begin(), v.end(),
                       [&](const Violation& x) { return x.field.find(field) != std::string::npos; });
}

using lanemap::test::thrown;

// --- shared-memory descriptor ------------------------------------------------------------------------------

TEST(Tcgen05SmemDescriptor, PacksEveryFieldWhereTable40PutsIt) {
    SmemDescriptor d;
    d.startAddress = 0x400;
    d.leadingByteOffset = 16;
    d.strideByteOffset = 1024;
    d.swizzle = smem::Swizzle::B128;
    // start 0x400 >> 4 = 0x40 (bits 13-0), LBO 1 (bits 29-16), SBO 64 (bits 45-32), version 0b001 (bits
    // 48-46), swizzle 2 = 128B (bits 63-61).
    EXPECT_EQ(encode(d), 0x4000404000010040ull);
    d.baseOffset = 5;
    d.leadingMode = LeadingMode::RelativeOffset;
    EXPECT_EQ(encode(d), 0x4000404000010040ull | (5ull << 49));
}

TEST(Tcgen05SmemDescriptor, SwizzleCodesAreWgmmasOneBitLowerPlusThe32ByteAtomMode) {
    EXPECT_EQ(swizzleCode(smem::Swizzle::None), 0);
    EXPECT_EQ(swizzleCode(smem::Swizzle::B128Atom32), 1);
    EXPECT_EQ(swizzleCode(smem::Swizzle::B128), 2);
    EXPECT_EQ(swizzleCode(smem::Swizzle::B64), 4);
    EXPECT_EQ(swizzleCode(smem::Swizzle::B32), 6);
    for (const int invalid : {3, 5, 7})
        EXPECT_FALSE(swizzleFromCode(invalid)) << invalid;
    // wgmma's codes are unchanged (bits 63-62: 1 = 128B, 3 = 32B), and the shared modes sit on the same bits:
    // the 3-bit tcgen05 code is wgmma's 2-bit code one bit lower.
    EXPECT_EQ(smem::descriptorSwizzleCode(smem::Swizzle::B128), 1);
    EXPECT_EQ(smem::descriptorSwizzleCode(smem::Swizzle::B32), 3);
    for (const smem::Swizzle sw :
         {smem::Swizzle::None, smem::Swizzle::B32, smem::Swizzle::B64, smem::Swizzle::B128})
        EXPECT_EQ(swizzleCode(sw), smem::descriptorSwizzleCode(sw) << 1) << smem::toString(sw);
}

TEST(Tcgen05SmemDescriptor, EveryValidDescriptorRoundTrips) {
    for (const smem::Swizzle sw : {smem::Swizzle::None, smem::Swizzle::B128Atom32, smem::Swizzle::B128,
                                   smem::Swizzle::B64, smem::Swizzle::B32})
        for (const std::uint32_t start : {0u, 16u, 0x3FFF0u})
            for (const std::uint32_t lbo : {0u, 16u, 4096u, 0x3FFF0u})
                for (const int base : {0, 3, 7}) {
                    const SmemDescriptor d{start, lbo, 0x3FFF0u - lbo, base, LeadingMode::RelativeOffset, sw};
                    const DecodedSmemDescriptor back = decodeSmemDescriptor(encode(d));
                    EXPECT_EQ(back.descriptor, d);
                    EXPECT_TRUE(back.violations.empty()) << back.violations.front().rule;
                }
    const SmemDescriptor absolute{0x800, 0x2000, 1024, 0, LeadingMode::AbsoluteAddress, smem::Swizzle::B128};
    EXPECT_EQ(decodeSmemDescriptor(encode(absolute)).descriptor, absolute);
    EXPECT_EQ(encode(absolute) >> 52 & 1, 1u);
}

TEST(Tcgen05SmemDescriptor, FieldLimitsAreTheEncodableOnes) {
    SmemDescriptor d;
    d.startAddress = 0x3FFF0; // the largest encodable address: 2^18 - 16
    EXPECT_NO_THROW(encode(d));
    d.startAddress = 0x40000;
    EXPECT_NE(thrown([&] { encode(d); }).find("matrix start address"), std::string::npos);
    d.startAddress = 8;
    EXPECT_NE(thrown([&] { encode(d); }).find("16-byte aligned"), std::string::npos);
    d.startAddress = 0;
    d.leadingByteOffset = 24;
    EXPECT_NE(thrown([&] { encode(d); }).find("leading dimension byte offset"), std::string::npos);
    d.leadingByteOffset = 0;
    d.strideByteOffset = 0x40000;
    EXPECT_NE(thrown([&] { encode(d); }).find("stride dimension byte offset"), std::string::npos);
    d.strideByteOffset = 0;
    d.baseOffset = 8;
    EXPECT_NE(thrown([&] { encode(d); }).find("matrix base offset"), std::string::npos);
}

TEST(Tcgen05SmemDescriptor, AbsoluteLeadingModeOnlyWith128BAndBaseOffsetZero) {
    SmemDescriptor d;
    d.leadingMode = LeadingMode::AbsoluteAddress;
    d.swizzle = smem::Swizzle::B64;
    const std::string why = thrown([&] { encode(d); });
    EXPECT_NE(why.find("leading dimension stride mode"), std::string::npos) << why;
    EXPECT_NE(why.find("128-byte swizzling with 16-byte atomicity"), std::string::npos) << why;
    d.swizzle = smem::Swizzle::B128Atom32; // 32B atomicity is not the mode either
    EXPECT_TRUE(names(check(d), "leading dimension stride mode"));
    d.swizzle = smem::Swizzle::B128;
    d.baseOffset = 1;
    EXPECT_TRUE(names(check(d), "matrix base offset"));
    d.baseOffset = 0;
    EXPECT_TRUE(check(d).empty());
}

TEST(Tcgen05SmemDescriptor, DecodeNamesReservedBitsVersionAndInvalidSwizzle) {
    const std::uint64_t good = 0x4000404000010040ull;
    EXPECT_TRUE(decodeSmemDescriptor(good).violations.empty());
    // A wgmma descriptor pasted here: no version bits. The user must be told, not shown a silent decode.
    const DecodedSmemDescriptor wgmma = decodeSmemDescriptor(0x4000004000010040ull);
    ASSERT_EQ(wgmma.violations.size(), 1u);
    EXPECT_NE(wgmma.violations[0].field.find("version"), std::string::npos);
    EXPECT_TRUE(names(decodeSmemDescriptor(good | (1ull << 14)).violations, "reserved (bits 15-14)"));
    EXPECT_TRUE(names(decodeSmemDescriptor(good | (1ull << 31)).violations, "reserved (bits 31-30)"));
    EXPECT_TRUE(names(decodeSmemDescriptor(good | (1ull << 53)).violations, "fixed constant (bits 60-53)"));
    for (const std::uint64_t code : {3ull, 5ull, 7ull}) {
        const std::uint64_t bits = (good & ~(7ull << 61)) | (code << 61);
        EXPECT_TRUE(names(decodeSmemDescriptor(bits).violations, "swizzling mode")) << code;
    }
    // Every field of Table 40 is listed with its bits.
    const DecodedSmemDescriptor d = decodeSmemDescriptor(good);
    ASSERT_EQ(d.fields.size(), 10u);
    EXPECT_EQ(d.fields.front().key, "start_address");
    EXPECT_EQ(d.fields.front().raw, 0x40u);
    EXPECT_EQ(d.fields.back().key, "swizzle");
    EXPECT_EQ(d.fields.back().lowBit, 61);
    EXPECT_EQ(d.fields.back().raw, 2u);
}

TEST(Tcgen05SmemDescriptor, ParsesTheSwizzleNames) {
    EXPECT_EQ(parseSwizzle("128B-32B"), smem::Swizzle::B128Atom32);
    EXPECT_EQ(parseSwizzle("128b_base32b"), smem::Swizzle::B128Atom32);
    EXPECT_EQ(parseSwizzle("128B"), smem::Swizzle::B128);
    EXPECT_EQ(parseSwizzle("none"), smem::Swizzle::None);
    EXPECT_FALSE(parseSwizzle("96B"));
    // The wgmma parser does not learn the tcgen05-only mode.
    EXPECT_FALSE(smem::parseSwizzle("128B-32B"));
}

TEST(Tcgen05Descriptors, PastedValuesReadAsHexOfTheirWidth) {
    EXPECT_EQ(parseValue("0x4000_4040_0001_0040", 64), 0x4000404000010040ull);
    EXPECT_EQ(parseValue(" 08400490 ", 32), 0x08400490ull);
    EXPECT_EQ(parseValue("0XFFFFFFFF", 32), 0xFFFFFFFFull);
    EXPECT_FALSE(parseValue("0x100000000", 32)); // nine digits do not fit an idesc
    EXPECT_FALSE(parseValue("0x10000000000000000", 64));
    EXPECT_FALSE(parseValue("0x", 64));
    EXPECT_FALSE(parseValue("0x12g4", 64));
}

// --- the 128B swizzle with 32-byte atomicity in lanemap/smem.hpp ------------------------------------------

TEST(Tcgen05Smem, Swizzle128BWith32ByteAtomsXorsThe32ByteChunkWithTheRow) {
    // Swizzle<2,5,2>: byte address bits [6:5] ^= bits [8:7]. Row r (128 bytes) moves its 32-byte chunk c to
    // c ^ (r mod 4); the pattern repeats every 512 bytes; the low 5 bits never move.
    for (std::uint32_t row = 0; row < 8; ++row)
        for (std::uint32_t chunk = 0; chunk < 4; ++chunk)
            for (std::uint32_t byte : {0u, 17u, 31u}) {
                const std::uint32_t address = row * 128 + chunk * 32 + byte;
                EXPECT_EQ(smem::swizzleAddress(address, smem::Swizzle::B128Atom32),
                          row * 128 + ((chunk ^ (row % 4)) * 32) + byte);
            }
    EXPECT_EQ(smem::repeatBytes(smem::Swizzle::B128Atom32), 512);
    EXPECT_EQ(smem::swizzleAddress(0x1A0, smem::Swizzle::B128Atom32), 0x1C0u);
    // The wgmma modes are unchanged: 128B still moves 16-byte chunks by bits [9:7].
    EXPECT_EQ(smem::swizzleAddress(0x390, smem::Swizzle::B128), 0x390u ^ (7u << 4));
}

TEST(Tcgen05Smem, MnMajor32BitTileWith32ByteAtoms) {
    // Table 55: the atom is 8 x 4 128-bit elements (MN x K); 32-bit MN-major operands need this mode
    // (Table 54). 32 tf32 of MN fill one 128-byte row; 8 k are two atoms, SBO apart.
    const smem::SmemLayout l = smem::SmemLayout::make(32, 32, 8, smem::Major::MN, smem::Swizzle::B128Atom32);
    EXPECT_EQ(l.strideByteOffset(), 512u);
    EXPECT_EQ(l.footprintBytes(), 1024u);
    EXPECT_EQ(l.address(0, 0), 0u);
    EXPECT_EQ(l.address(8, 1), 0x80u);  // linear 0xA0: row 1, chunk 1 ^ 1 = chunk 0
    EXPECT_EQ(l.address(0, 3), 0x1E0u); // linear 0x180: row 3, chunk 0 ^ 3 = chunk 3
    EXPECT_EQ(l.address(0, 4), 0x200u); // the next atom (k 4-7) starts the pattern again
    for (int mn = 0; mn < 32; ++mn)
        for (int k = 0; k < 8; ++k) {
            const smem::Placement p = l.placement(mn, k);
            EXPECT_EQ(l.elementAt(p.address), (smem::Coord{mn, k}));
        }
    EXPECT_NE(l.swizzleRule().find("Swizzle<2,5,2>"), std::string::npos) << l.swizzleRule();
    EXPECT_NE(l.swizzleRule().find("[6..5] ^= bits [8..7]"), std::string::npos) << l.swizzleRule();
    const SmemDescriptor d = descriptorFor(l);
    EXPECT_EQ(d.swizzle, smem::Swizzle::B128Atom32);
    EXPECT_EQ(encode(d) >> 61, 1u);
}

TEST(Tcgen05Smem, The32ByteAtomModeIsMnMajorOnlyAndNotWgmma) {
    EXPECT_THROW(smem::SmemLayout::make(32, 8, 32, smem::Major::K, smem::Swizzle::B128Atom32),
                 std::invalid_argument);
    smem::MatrixDescriptor wgmma;
    wgmma.swizzle = smem::Swizzle::B128Atom32;
    EXPECT_THROW(smem::encodeDescriptor(wgmma), std::invalid_argument);
}

// --- instruction descriptor --------------------------------------------------------------------------------

InstrDescriptor f16(Type a, Type b, DType d, int m, int n) {
    InstrDescriptor i;
    i.kind = Kind::F16;
    i.atype = a;
    i.btype = b;
    i.dtype = d;
    i.m = m;
    i.n = n;
    return i;
}

TEST(Tcgen05Idesc, F16KindPacksTable42) {
    // bf16 x bf16 -> f32, M = 128, N = 256, both K-major: dtype 1 << 4, atype/btype 1 << 7 / 1 << 10,
    // N >> 3 = 32 at bit 17, M >> 4 = 8 at bit 24.
    EXPECT_EQ(encode(f16(Type::BF16, Type::BF16, DType::F32, 128, 256)), 0x08400490u);
    InstrDescriptor t = f16(Type::F16, Type::F16, DType::F16, 64, 8);
    t.majorA = smem::Major::MN;
    t.negateB = true;
    EXPECT_EQ(encode(t), (1u << 15) | (1u << 14) | (1u << 17) | (4u << 24));
}

TEST(Tcgen05Idesc, BlockScaledKindsStoreMShiftedBySevenAtBit27) {
    InstrDescriptor d;
    d.kind = Kind::MXF8F6F4;
    d.atype = d.btype = Type::E4M3;
    d.m = 128;
    d.n = 256;
    d.scaleType = ScaleType::UE8M0;
    // N 32 << 17, .ue8m0 1 << 23, M >> 7 = 1 at bit 27 (the same bit CUTLASS sets with M >> 4 at bit 24).
    EXPECT_EQ(encode(d, {.ctaGroup = 1, .ws = false}), 0x08C00000u);
    d.kind = Kind::MXF4NVF4;
    d.atype = d.btype = Type::E2M1;
    d.scaleType = ScaleType::UE4M3;
    d.m = 256;
    d.n = 128;
    d.k96 = true;
    d.scaleFactorA = 2;
    EXPECT_EQ(encode(d, {.ctaGroup = 2, .ws = false}),
              0x80u | 0x400u | (16u << 17) | (2u << 27) | (2u << 29) | (1u << 31));
    EXPECT_EQ(kOf(d), 96);
}

TEST(Tcgen05Idesc, EveryKindRoundTripsThroughItsTable) {
    struct Case {
        Kind kind;
        Type a, b;
        DType d;
    };
    for (const Case& c : {Case{Kind::F16, Type::F16, Type::F16, DType::F16},
                          Case{Kind::TF32, Type::TF32, Type::TF32, DType::F32},
                          Case{Kind::F8F6F4, Type::E2M3, Type::E5M2, DType::F16},
                          Case{Kind::I8, Type::S8, Type::U8, DType::S32},
                          Case{Kind::MXF8F6F4, Type::E3M2, Type::E2M1, DType::F32},
                          Case{Kind::MXF4, Type::E2M1, Type::E2M1, DType::F32},
                          Case{Kind::MXF4NVF4, Type::E2M1, Type::E2M1, DType::F32}})
        for (const bool sparse : {false, true})
            for (const int n : {64, 128, 256}) {
                InstrDescriptor d;
                d.kind = c.kind;
                d.atype = c.a;
                d.btype = c.b;
                d.dtype = c.d;
                d.sparse = sparse;
                d.m = isBlockScaled(c.kind) && sparse ? 256 : 128;
                d.n = n;
                d.sparsitySelector = sparse && !isBlockScaled(c.kind) ? 2 : 0;
                d.scaleFactorB = isBlockScaled(c.kind) ? 2 : 0;
                d.negateA = c.kind != Kind::I8;
                d.saturate = c.kind == Kind::I8;
                const std::uint32_t bits = encode(d);
                const DecodedInstrDescriptor back = decodeInstrDescriptor(bits, c.kind);
                EXPECT_EQ(back.descriptor, d) << toString(c.kind) << " " << std::hex << bits;
                EXPECT_TRUE(back.violations.empty())
                    << toString(c.kind) << ": " << back.violations.front().field << ": "
                    << back.violations.front().rule;
            }
}

TEST(Tcgen05Idesc, TypesOutsideTheKindAreRejectedByField) {
    InstrDescriptor d = f16(Type::E4M3, Type::F16, DType::F32, 128, 128);
    const std::string why = thrown([&] { encode(d); });
    EXPECT_NE(why.find("atype"), std::string::npos) << why;
    EXPECT_NE(why.find("f16 = 0, bf16 = 1"), std::string::npos) << why;
    EXPECT_TRUE(names(check(f16(Type::F16, Type::BF16, DType::F32, 128, 128)), "btype"));
    // A .f16 D takes .f16 inputs only (Table 39).
    EXPECT_TRUE(names(check(f16(Type::BF16, Type::BF16, DType::F16, 128, 128)), "dtype"));
    d = f16(Type::TF32, Type::TF32, DType::F16, 128, 128);
    d.kind = Kind::TF32;
    EXPECT_TRUE(names(check(d), "dtype"));
}

TEST(Tcgen05Idesc, SaturateNegateAndTransposeRules) {
    InstrDescriptor d = f16(Type::F16, Type::F16, DType::F32, 128, 128);
    d.saturate = true;
    EXPECT_TRUE(names(check(d), "saturate"));
    d = InstrDescriptor{};
    d.kind = Kind::I8;
    d.atype = d.btype = Type::S8;
    d.dtype = DType::S32;
    d.negateA = true;
    EXPECT_TRUE(names(check(d), "negate A"));
    d.negateA = false;
    d.majorA = smem::Major::MN; // 8-bit MN-major: allowed
    EXPECT_TRUE(check(d).empty());
    d.kind = Kind::F8F6F4;
    d.atype = d.btype = Type::E2M1; // 4-bit MN-major: not allowed (Table 54)
    d.dtype = DType::F32;
    EXPECT_TRUE(names(check(d), "transpose A"));
    d.kind = Kind::MXF4;
    d.majorA = smem::Major::K;
    d.majorB = smem::Major::MN;
    EXPECT_TRUE(names(check(d), "transpose B"));
}

TEST(Tcgen05Idesc, ShapeRulesFollowTable39PerForm) {
    InstrDescriptor d = f16(Type::F16, Type::F16, DType::F32, 256, 128);
    EXPECT_TRUE(names(check(d, {.ctaGroup = 1, .ws = false}), "M"));
    EXPECT_TRUE(check(d, {.ctaGroup = 2, .ws = false}).empty());
    EXPECT_TRUE(check(d).empty()); // some form allows it
    d.m = 128;
    d.n = 24;
    EXPECT_TRUE(check(d, {.ctaGroup = 1, .ws = false}).empty());
    EXPECT_TRUE(names(check(d, {.ctaGroup = 2, .ws = false}), "N")); // steps of 16 with cta_group::2
    // .ws: M 32/64/128, N 64/128/256 dense, 64/128 sparse; cta_group::1 only; no max shift without it.
    d.m = 32;
    d.n = 256;
    EXPECT_TRUE(check(d, {.ctaGroup = 1, .ws = true}).empty());
    EXPECT_TRUE(names(check(d, {.ctaGroup = 1, .ws = false}), "M"));
    EXPECT_TRUE(names(check(d, {.ctaGroup = 2, .ws = true}), ".ws"));
    d.sparse = true;
    EXPECT_TRUE(names(check(d, {.ctaGroup = 1, .ws = true}), "N"));
    d.sparse = false;
    d.m = 128;
    d.maxShift = 16;
    EXPECT_TRUE(check(d, {.ctaGroup = 1, .ws = true}).empty());
    EXPECT_TRUE(names(check(d, {.ctaGroup = 1, .ws = false}), "maximum shift"));
    d.maxShift = 12;
    EXPECT_TRUE(names(check(d), "maximum shift"));
}

TEST(Tcgen05Idesc, I8NSteps) {
    InstrDescriptor d;
    d.kind = Kind::I8;
    d.atype = d.btype = Type::U8;
    d.dtype = DType::S32;
    d.m = 128;
    for (const int n : {8, 16, 24, 32, 48, 64, 256}) {
        d.n = n;
        EXPECT_TRUE(check(d, {.ctaGroup = 1, .ws = false}).empty()) << n;
    }
    d.n = 40;
    EXPECT_TRUE(names(check(d, {.ctaGroup = 1, .ws = false}), "N"));
    d.n = 48;
    EXPECT_TRUE(names(check(d, {.ctaGroup = 2, .ws = false}), "N"));
    d.n = 96;
    EXPECT_TRUE(check(d, {.ctaGroup = 2, .ws = false}).empty());
}

TEST(Tcgen05Idesc, BlockScaleRules) {
    InstrDescriptor d;
    d.kind = Kind::MXF4;
    d.atype = d.btype = Type::E2M1;
    d.m = 128;
    d.n = 128;
    d.scaleFactorA = 1; // mxf4: 0 or 2
    EXPECT_TRUE(names(check(d), "matrix A scale factor data ID"));
    d.scaleFactorA = 2;
    d.scaleType = ScaleType::UE4M3; // only mxf4nvf4 takes ue4m3
    EXPECT_TRUE(names(check(d), "scale matrix type"));
    d.kind = Kind::MXF4NVF4;
    EXPECT_TRUE(check(d).empty());
    d.k96 = true; // K = 96: cta_group::2, M = 256, dense
    EXPECT_TRUE(names(check(d), "K dimension"));
    d.m = 256;
    EXPECT_TRUE(check(d).empty());
    d.sparse = true;
    EXPECT_TRUE(names(check(d), "K dimension"));
    d.k96 = false;
    d.m = 128; // sparse block-scaled with cta_group::2 is M = 256 only
    EXPECT_TRUE(names(check(d, {.ctaGroup = 2, .ws = false}), "M"));
    EXPECT_TRUE(check(d, {.ctaGroup = 1, .ws = false}).empty());
    EXPECT_TRUE(names(check(d, {.ctaGroup = 1, .ws = true}), ".ws"));
    d.kind = Kind::F16;
    d.atype = d.btype = Type::F16;
    d.scaleFactorA = 1;
    EXPECT_TRUE(names(check(d), "scale factor"));
}

TEST(Tcgen05Idesc, SparsitySelectorIsReadOnlyWhenSparse) {
    InstrDescriptor d = f16(Type::F16, Type::F16, DType::F32, 128, 128);
    d.sparsitySelector = 1;
    EXPECT_TRUE(names(check(d), "sparsity selector"));
    d.sparse = true;
    EXPECT_TRUE(check(d).empty());
    EXPECT_EQ(kOf(d), 32);
}

TEST(Tcgen05Idesc, DecodeNamesReservedBitsAndUnknownCodesPerKind) {
    const std::uint32_t good = 0x08400490u; // f16 bf16 x bf16 -> f32, 128 x 256
    EXPECT_TRUE(decodeInstrDescriptor(good, Kind::F16).violations.empty());
    EXPECT_TRUE(names(decodeInstrDescriptor(good | (1u << 6), Kind::F16).violations, "reserved (bit 6)"));
    EXPECT_TRUE(names(decodeInstrDescriptor(good | (1u << 23), Kind::F16).violations, "reserved (bit 23)"));
    // atype code 7 is nothing for kind::f8f6f4.
    const std::uint32_t f8 = (1u << 4) | (7u << 7) | (32u << 17) | (8u << 24);
    EXPECT_TRUE(names(decodeInstrDescriptor(f8, Kind::F8F6F4).violations, "atype"));
    // The same bits mean different fields per kind: bit 23 is the scale type for mxf8f6f4.
    const DecodedInstrDescriptor mx = decodeInstrDescriptor(0x08C00000u, Kind::MXF8F6F4);
    EXPECT_TRUE(mx.violations.empty()) << mx.violations.front().rule;
    EXPECT_EQ(mx.descriptor.scaleType, ScaleType::UE8M0);
    EXPECT_EQ(mx.descriptor.m, 128);
    // Bits 26-24 are reserved for block-scaled kinds: M = 64 (M >> 4 = 4 at bit 24) does not exist there.
    EXPECT_TRUE(
        names(decodeInstrDescriptor(0x04C00000u, Kind::MXF8F6F4).violations, "reserved (bits 26-24)"));
    // Field keys are unique (they are JSON keys).
    for (const Kind k : {Kind::F16, Kind::MXF8F6F4, Kind::MXF4})
        for (const Field& f : decodeInstrDescriptor(0, k).fields) {
            const auto& fields = decodeInstrDescriptor(0, k).fields;
            EXPECT_EQ(
                std::count_if(fields.begin(), fields.end(), [&](const Field& g) { return g.key == f.key; }),
                1)
                << f.key;
        }
}

TEST(Tcgen05Idesc, ParsesKeyValueFormWithDefaultsAndNamedErrors) {
    const InstrDescriptor d = parseInstrDescriptor("kind=f16,a=bf16,b=bf16,m=128,n=256");
    EXPECT_EQ(encode(d), 0x08400490u); // d defaults to f32
    EXPECT_EQ(parseInstrDescriptor("kind=i8,m=64,n=8").dtype, DType::S32);
    EXPECT_EQ(parseInstrDescriptor("kind=kind::tf32,n=64").atype, Type::TF32);
    EXPECT_NE(thrown([] { parseInstrDescriptor("a=f16"); }).find("kind= is required"), std::string::npos);
    EXPECT_NE(thrown([] { parseInstrDescriptor("kind=f32"); }).find("valid: f16, tf32"), std::string::npos);
    EXPECT_NE(thrown([] { parseInstrDescriptor("kind=f16,q=1"); }).find("unknown key 'q'"),
              std::string::npos);
    EXPECT_NE(thrown([] { parseInstrDescriptor("kind=f16,n=x"); }).find("'n=x'"), std::string::npos);
}

} // namespace

} // namespace test_tcgen05_desc
