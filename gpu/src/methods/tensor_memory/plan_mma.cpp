// The tcgen05.mma probe's images and descriptors (mma.hpp).
#include "mma.hpp"

#include <bit>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

namespace lanemap::gpu::tc {

namespace {

using tcgen05::Kind;
using tcgen05::Type;

// The element types each kind is written in: exact small powers of two in every one (e4m3 for the 8-bit
// floats, u8 for i8, e2m1 for the 4-bit kinds).
struct KindTypes {
    Kind kind;
    Type type;
    tcgen05::DType dtype;
    int group; // sparse metadata group in elements (2:4; tf32 1:2; the 4-bit kinds 4:8 in pairs)
};
constexpr KindTypes kKindTypes[] = {
    {Kind::F16, Type::F16, tcgen05::DType::F32, 4},       {Kind::TF32, Type::TF32, tcgen05::DType::F32, 2},
    {Kind::F8F6F4, Type::E4M3, tcgen05::DType::F32, 4},   {Kind::I8, Type::U8, tcgen05::DType::S32, 4},
    {Kind::MXF8F6F4, Type::E4M3, tcgen05::DType::F32, 4}, {Kind::MXF4, Type::E2M1, tcgen05::DType::F32, 8},
    {Kind::MXF4NVF4, Type::E2M1, tcgen05::DType::F32, 8},
};

const KindTypes& typesOf(Kind kind) {
    for (const KindTypes& t : kKindTypes)
        if (t.kind == kind)
            return t;
    throw std::invalid_argument("tcgen05.mma probe: no element types for kind::" +
                                std::string(tcgen05::toString(kind)));
}

// One type's exact powers of two: the exponent field's position and bias.
struct PowerCode {
    Type type;
    int bits;
    int mantissaBits;
    int bias;
    int maxPower;
};
constexpr PowerCode kPowerCodes[] = {
    {Type::F16, 16, 10, 15, 8}, {Type::BF16, 16, 7, 127, 8}, {Type::TF32, 32, 23, 127, 8},
    {Type::E4M3, 8, 3, 7, 8},   {Type::E5M2, 8, 2, 15, 8},   {Type::E2M1, 4, 1, 1, 2},
};

const PowerCode* powerCodeOf(Type type) {
    for (const PowerCode& c : kPowerCodes)
        if (c.type == type)
            return &c;
    return nullptr;
}

void put(std::vector<std::uint32_t>& words, std::uint32_t byteAddress, int bit, std::uint32_t value,
         int bits) {
    // Elements are 4, 8, 16 or 32 bits, naturally aligned: they never straddle a word.
    const std::uint32_t shift = (byteAddress % 4) * 8 + static_cast<std::uint32_t>(bit);
    const std::uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1u;
    std::uint32_t& w = words.at(byteAddress / 4);
    w = (w & ~(mask << shift)) | (value & mask) << shift;
}

} // namespace

int elementBits(Type type) {
    if (type == Type::U8 || type == Type::S8)
        return 8;
    const PowerCode* c = powerCodeOf(type);
    if (!c)
        throw std::invalid_argument("tcgen05.mma probe: no encoding for ." +
                                    std::string(tcgen05::toString(type)));
    return c->bits;
}

std::uint32_t encodeElement(Type type, int value) {
    if (value == 0)
        return 0;
    if (type == Type::U8 && value > 0 && value < 256)
        return static_cast<std::uint32_t>(value);
    const PowerCode* c = powerCodeOf(type);
    const int power = std::countr_zero(static_cast<unsigned>(value));
    if (!c || value < 0 || !std::has_single_bit(static_cast<unsigned>(value)) || power > c->maxPower)
        throw std::invalid_argument("tcgen05.mma probe: " + std::to_string(value) + " is not exact in ." +
                                    std::string(tcgen05::toString(type)));
    return static_cast<std::uint32_t>(c->bias + power) << c->mantissaBits;
}

double decodeElement(Type type, std::uint32_t bits) {
    if (type == Type::U8)
        return bits & 0xffu;
    if (type == Type::S8)
        return static_cast<std::int8_t>(bits & 0xffu);
    const PowerCode* c = powerCodeOf(type);
    if (!c)
        return std::nan("");
    const int exponentBits = c->bits - 1 - c->mantissaBits;
    const std::uint32_t mantissa = bits & ((1u << c->mantissaBits) - 1u);
    const int exponent = static_cast<int>(bits >> c->mantissaBits & ((1u << exponentBits) - 1u));
    const double sign = bits >> (c->bits - 1) & 1u ? -1.0 : 1.0;
    const double fraction = static_cast<double>(mantissa) / static_cast<double>(1u << c->mantissaBits);
    if (exponent == 0) // subnormal
        return sign * std::ldexp(fraction, 1 - c->bias);
    return sign * std::ldexp(1.0 + fraction, exponent - c->bias);
}

int logicalK(const MmaSetup& setup, int j) {
    if (!setup.instr.sparse)
        return j;
    const int kept = setup.group / 2;
    return setup.group * (j / kept) + j % kept;
}

namespace {

tcgen05::InstrDescriptor instrOf(const tmem::MmaShape& s) {
    const KindTypes& types = typesOf(s.kind);
    tcgen05::InstrDescriptor d;
    d.kind = s.kind;
    d.sparse = s.sparse;
    d.dtype = types.dtype;
    d.atype = d.btype = types.type;
    d.majorA = d.majorB = smem::Major::K;
    d.m = s.m;
    d.n = s.n;
    if (tcgen05::isBlockScaled(s.kind))
        d.scaleType = s.kind == Kind::MXF4NVF4 ? tcgen05::ScaleType::UE4M3 : tcgen05::ScaleType::UE8M0;
    return d;
}

} // namespace

MmaSetup mmaSetupOf(const tmem::MmaShape& s) {
    const KindTypes& types = typesOf(s.kind);
    MmaSetup out;
    out.aType = out.bType = types.type;
    out.instr = instrOf(s);
    const tcgen05::InstrDescriptor& d = out.instr;
    out.idesc = tcgen05::encode(d, tcgen05::Context{s.ctaGroup, s.ws});
    out.k = tcgen05::kOf(d);
    out.storedK = s.sparse ? out.k / 2 : out.k;
    out.group = types.group;
    out.rowsA = s.m / s.ctaGroup;
    out.rowsB = s.n / s.ctaGroup;
    const int bits = elementBits(types.type);
    out.a = smem::SmemLayout::make(bits, out.rowsA, out.storedK, smem::Major::K, smem::Swizzle::None, 0);
    const std::uint32_t bStart = (out.a.footprintBytes() + 1023u) / 1024u * 1024u;
    out.b = smem::SmemLayout::make(bits, out.rowsB, out.k, smem::Major::K, smem::Swizzle::None, bStart);
    out.descriptorA = tcgen05::encode(tcgen05::descriptorFor(out.a));
    out.descriptorB = tcgen05::encode(tcgen05::descriptorFor(out.b));
    out.sharedWords = static_cast<int>((bStart + out.b.footprintBytes() + 3) / 4);
    if (s.sparse)
        out.metadataWord = 0x44444444u; // indices 0 and 1 of every group: its first half
    if (tcgen05::isBlockScaled(s.kind))
        out.unitScaleWord = d.scaleType == tcgen05::ScaleType::UE8M0 ? 0x7f7f7f7fu  // 2^(127 - 127)
                                                                     : 0x38383838u; // e4m3 1.0
    return out;
}

std::vector<std::uint32_t> mmaImages(const Plan& plan, const Experiment& x, int cta) {
    const MmaSetup& setup = *plan.mmaSetup;
    const tmem::MmaShape& s = *plan.mma;
    std::vector<std::uint32_t> out(setup.wordsPerCta(), 0u);
    std::vector<std::uint32_t> shared(static_cast<std::size_t>(setup.sharedWords), 0u);
    const int bits = elementBits(setup.aType);
    const auto cell = [&](int lane, int column) -> std::uint32_t& {
        return out.at(static_cast<std::size_t>(setup.sharedWords) +
                      static_cast<std::size_t>((column - kFillColumn) * tmem::kLanes + lane));
    };
    // A: this CTA's rows m = cta * rowsA + r, stored K; in shared memory or in Tensor Memory.
    for (int r = 0; r < setup.rowsA; ++r)
        for (int j = 0; j < setup.storedK; ++j) {
            const int m = cta * setup.rowsA + r;
            const std::uint32_t v = encodeElement(setup.aType, operandValue(plan, x, Operand::A, m, j));
            if (x.aSource == ASource::SharedMemory) {
                const smem::Placement p = setup.a.placement(r, j);
                put(shared, p.address, p.bit, v, bits);
                continue;
            }
            const tmem::Placement p = tmem::placeA(s, m, j, bits);
            if (p.cta != cta || p.column >= kRegionColumns)
                throw std::logic_error("tcgen05.mma probe: A[" + std::to_string(m) + "][" +
                                       std::to_string(j) + "] falls outside this CTA's A columns");
            std::uint32_t& w = cell(p.lane, kAColumn + p.column);
            w |= v << p.bit;
        }
    // B: this CTA's rows n = cta * rowsB + r; the stored K values at their logical K, zero elsewhere.
    for (int r = 0; r < setup.rowsB; ++r)
        for (int j = 0; j < setup.storedK; ++j) {
            const std::uint32_t v =
                encodeElement(setup.bType, operandValue(plan, x, Operand::B, cta * setup.rowsB + r, j));
            const smem::Placement p = setup.b.placement(r, logicalK(setup, j));
            put(shared, p.address, p.bit, v, bits);
        }
    std::copy(shared.begin(), shared.end(), out.begin());
    for (int lane = 0; lane < tmem::kLanes; ++lane)
        for (int c = 0; c < kRegionColumns; ++c) {
            if (setup.instr.sparse)
                cell(lane, kMetadataColumn + c) = setup.metadataWord;
            if (tcgen05::isBlockScaled(setup.instr.kind)) {
                cell(lane, kScaleAColumn + c) = setup.unitScaleWord;
                cell(lane, kScaleBColumn + c) = setup.unitScaleWord;
            }
        }
    return out;
}

} // namespace lanemap::gpu::tc
