// tcgen05 shared-memory and instruction descriptors: PTX 9.1 §9.7.16.4 (Tables 40, 42-44) and the shape rules
// of Table 39, as tables.
#include "lanemap/tcgen05_desc.hpp"

#include "io/field_number.hpp"
#include "lanemap/excerpt.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace lanemap::tcgen05 {

namespace {

std::string lower(std::string_view text) {
    std::string s(text);
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string hex(std::uint64_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << v;
    return s.str();
}

std::uint64_t bitsOf(std::uint64_t value, int lo, int width) {
    return (value >> lo) & ((1ull << width) - 1ull);
}

// --- shared-memory descriptor ------------------------------------------------------------------------------

struct SwizzleCode {
    smem::Swizzle swizzle;
    int code;
    std::string_view meaning;
};
constexpr std::array kSwizzleCodes{
    SwizzleCode{smem::Swizzle::None, 0, "no swizzling"},
    SwizzleCode{smem::Swizzle::B128Atom32, 1, "128-byte swizzling with 32-byte atomicity"},
    SwizzleCode{smem::Swizzle::B128, 2, "128-byte swizzling"},
    SwizzleCode{smem::Swizzle::B64, 4, "64-byte swizzling"},
    SwizzleCode{smem::Swizzle::B32, 6, "32-byte swizzling"}};

constexpr std::uint32_t kAddressSpace = 1u << 18; // matrix-descriptor-encode keeps 18 bits
constexpr std::uint64_t encode14(std::uint32_t bytes) {
    return (bytes & 0x3FFFFu) >> 4;
}

void checkBytes(std::vector<Violation>& out, std::string_view field, std::uint32_t bytes) {
    if (bytes % 16 != 0 || bytes >= kAddressSpace)
        out.push_back(
            {std::string(field), std::to_string(bytes) +
                                     " bytes cannot be encoded: it must be 16-byte aligned and below "
                                     "262144 (matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4)"});
}

constexpr const char* kStart = "matrix start address";
constexpr const char* kLeading = "leading dimension byte offset";
constexpr const char* kStride = "stride dimension byte offset";
constexpr const char* kBase = "matrix base offset";
constexpr const char* kMode = "leading dimension stride mode";
constexpr const char* kSwizzle = "swizzling mode";

} // namespace

std::optional<std::uint64_t> parseValue(std::string_view text, int bits) {
    std::string digits;
    for (const char c : text)
        if (c != '_' && !std::isspace(static_cast<unsigned char>(c)))
            digits += c;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        digits = digits.substr(2);
    if (digits.empty() || digits.size() > static_cast<std::size_t>(bits / 4) ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
        return std::nullopt;
    return std::stoull(digits, nullptr, 16);
}

int swizzleCode(smem::Swizzle swizzle) {
    for (const SwizzleCode& c : kSwizzleCodes)
        if (c.swizzle == swizzle)
            return c.code;
    return 0;
}

std::optional<smem::Swizzle> swizzleFromCode(int code) {
    for (const SwizzleCode& c : kSwizzleCodes)
        if (c.code == code)
            return c.swizzle;
    return std::nullopt;
}

std::optional<smem::Swizzle> parseSwizzle(std::string_view text) {
    const std::string s = lower(text);
    if (s == "128b-32b" || s == "128b_base32b" || s == "128b32" || s == "128b-base32b")
        return smem::Swizzle::B128Atom32;
    return smem::parseSwizzle(text); // none, 32B, 64B, 128B
}

std::string_view swizzleList() {
    return "none, 128B-32B, 128B, 64B, 32B";
}

std::vector<Violation> check(const SmemDescriptor& d) {
    std::vector<Violation> out;
    checkBytes(out, kStart, d.startAddress);
    checkBytes(out, kLeading, d.leadingByteOffset);
    checkBytes(out, kStride, d.strideByteOffset);
    if (d.baseOffset < 0 || d.baseOffset > 7)
        out.push_back(
            {std::string(kBase), std::to_string(d.baseOffset) + " does not fit bits 51-49; valid: 0..7"});
    if (d.leadingMode == LeadingMode::AbsoluteAddress) {
        // §9.7.16.3.1.2.1: only 128B swizzle with 16B atomicity, K-major (idesc bits 15/16 = 0), base offset
        // 0.
        if (d.swizzle != smem::Swizzle::B128)
            out.push_back({std::string(kMode),
                           "the absolute-address leading mode takes only 128-byte swizzling with 16-byte "
                           "atomicity (swizzle code 2), not " +
                               std::string(smem::toString(d.swizzle))});
        if (d.baseOffset != 0)
            out.push_back({std::string(kBase), "must be 0 in the absolute-address leading mode"});
    }
    return out;
}

std::uint64_t encode(const SmemDescriptor& d) {
    const std::vector<Violation> v = check(d);
    if (!v.empty())
        throw std::invalid_argument("tcgen05 shared-memory descriptor: " + v.front().field + ": " +
                                    v.front().rule);
    return encode14(d.startAddress) | (encode14(d.leadingByteOffset) << 16) |
           (encode14(d.strideByteOffset) << 32) | (kSmemVersion << 46) |
           (static_cast<std::uint64_t>(d.baseOffset) << 49) |
           (static_cast<std::uint64_t>(d.leadingMode == LeadingMode::AbsoluteAddress) << 52) |
           (static_cast<std::uint64_t>(swizzleCode(d.swizzle)) << 61);
}

DecodedSmemDescriptor decodeSmemDescriptor(std::uint64_t bits) {
    DecodedSmemDescriptor out;
    out.bits = bits;
    SmemDescriptor& d = out.descriptor;
    d.startAddress = static_cast<std::uint32_t>(bitsOf(bits, 0, 14) << 4);
    d.leadingByteOffset = static_cast<std::uint32_t>(bitsOf(bits, 16, 14) << 4);
    d.strideByteOffset = static_cast<std::uint32_t>(bitsOf(bits, 32, 14) << 4);
    d.baseOffset = static_cast<int>(bitsOf(bits, 49, 3));
    d.leadingMode = bitsOf(bits, 52, 1) ? LeadingMode::AbsoluteAddress : LeadingMode::RelativeOffset;
    const int code = static_cast<int>(bitsOf(bits, 61, 3));
    const std::optional<smem::Swizzle> swizzle = swizzleFromCode(code);
    d.swizzle = swizzle.value_or(smem::Swizzle::None);

    auto bytes = [](std::uint32_t b) {
        return std::to_string(b) + " bytes (" + hex(b) + ", encoded " + std::to_string(b >> 4) + ")";
    };
    const bool absolute = d.leadingMode == LeadingMode::AbsoluteAddress;
    std::string swizzleMeaning = "invalid (3, 5 and 7 are not swizzling modes)";
    for (const SwizzleCode& c : kSwizzleCodes)
        if (c.code == code)
            swizzleMeaning = std::string(c.meaning) + " (" + std::string(smem::toString(c.swizzle)) + ")";
    out.fields = {
        {"start_address", kStart, 0, 13, bitsOf(bits, 0, 14), bytes(d.startAddress)},
        {"reserved_15_14", "reserved", 14, 15, bitsOf(bits, 14, 2), "must be 0"},
        {"leading_byte_offset", kLeading, 16, 29, bitsOf(bits, 16, 14),
         bytes(d.leadingByteOffset) +
             (absolute ? " absolute address of the next buffer" : " relative offset")},
        {"reserved_31_30", "reserved", 30, 31, bitsOf(bits, 30, 2), "must be 0"},
        {"stride_byte_offset", kStride, 32, 45, bitsOf(bits, 32, 14), bytes(d.strideByteOffset)},
        {"version", "fixed constant (version)", 46, 48, bitsOf(bits, 46, 3), "must be 0b001"},
        {"base_offset", kBase, 49, 51, bitsOf(bits, 49, 3),
         d.baseOffset == 0 ? "0: the swizzle pattern starts on its repeat boundary"
                           : std::to_string(d.baseOffset) + ": (pattern start address >> 7) & 7"},
        {"leading_mode", kMode, 52, 52, bitsOf(bits, 52, 1),
         absolute ? "1: byte address absolute (sm_103a)" : "0: byte offset relative"},
        {"fixed_60_53", "fixed constant", 53, 60, bitsOf(bits, 53, 8), "must be 0"},
        {"swizzle", kSwizzle, 61, 63, static_cast<std::uint64_t>(code), swizzleMeaning},
    };
    for (const Field& f : out.fields) {
        const bool mustBeZero =
            f.key == "reserved_15_14" || f.key == "reserved_31_30" || f.key == "fixed_60_53";
        if (mustBeZero && f.raw != 0)
            out.violations.push_back({std::string(f.name) + " (bits " + std::to_string(f.highBit) + "-" +
                                          std::to_string(f.lowBit) + ")",
                                      "is " + hex(f.raw) + "; it must be 0"});
    }
    if (bitsOf(bits, 46, 3) != kSmemVersion)
        out.violations.push_back({"fixed constant (version, bits 48-46)",
                                  "is " + std::to_string(bitsOf(bits, 46, 3)) +
                                      "; the ISA fixes it at 0b001 (a wgmma descriptor has 0 here)"});
    if (!swizzle)
        out.violations.push_back(
            {std::string(kSwizzle), "code " + std::to_string(code) +
                                        " is invalid; valid: 0 none, 1 128B-32B, 2 128B, "
                                        "4 64B, 6 32B"});
    for (Violation& v : check(d))
        out.violations.push_back(std::move(v));
    return out;
}

SmemDescriptor descriptorFor(const smem::SmemLayout& layout) {
    SmemDescriptor d;
    d.startAddress = layout.startAddress();
    d.leadingByteOffset = layout.leadingByteOffset();
    d.strideByteOffset = layout.strideByteOffset();
    d.baseOffset = layout.baseOffset();
    d.swizzle = layout.swizzle();
    return d;
}

// --- instruction descriptor --------------------------------------------------------------------------------

namespace {

struct KindInfo { // the names are lanemap::toString's
    Kind kind;
    int denseK, sparseK;
};
constexpr std::array kKinds{KindInfo{Kind::F16, 16, 32},      KindInfo{Kind::TF32, 8, 16},
                            KindInfo{Kind::F8F6F4, 32, 64},   KindInfo{Kind::I8, 32, 64},
                            KindInfo{Kind::MXF8F6F4, 32, 64}, KindInfo{Kind::MXF4, 64, 128},
                            KindInfo{Kind::MXF4NVF4, 64, 128}};

const KindInfo& kindInfo(Kind k) {
    for (const KindInfo& i : kKinds)
        if (i.kind == k)
            return i;
    return kKinds[0];
}

struct TypeInfo {
    Type type;
    std::string_view name;
    int bits;
};
constexpr std::array kTypes{TypeInfo{Type::F16, "f16", 16},   TypeInfo{Type::BF16, "bf16", 16},
                            TypeInfo{Type::TF32, "tf32", 32}, TypeInfo{Type::E4M3, "e4m3", 8},
                            TypeInfo{Type::E5M2, "e5m2", 8},  TypeInfo{Type::E2M3, "e2m3", 6},
                            TypeInfo{Type::E3M2, "e3m2", 6},  TypeInfo{Type::E2M1, "e2m1", 4},
                            TypeInfo{Type::U8, "u8", 8},      TypeInfo{Type::S8, "s8", 8}};

// "a, b, c" from a name table, so a valid-values message lists exactly what the parser accepts.
template <typename Table> std::string namesOf(const Table& table) {
    std::string out;
    for (const auto& row : table)
        out.append(out.empty() ? "" : ", ").append(row.name);
    return out;
}

const TypeInfo& typeInfo(Type t) {
    for (const TypeInfo& i : kTypes)
        if (i.type == t)
            return i;
    return kTypes[0];
}

// atype/btype codes per kind (Tables 42-44).
struct TypeCode {
    Kind kind;
    Type type;
    int code;
};
constexpr std::array kTypeCodes{
    TypeCode{Kind::TF32, Type::TF32, 2},     TypeCode{Kind::F16, Type::F16, 0},
    TypeCode{Kind::F16, Type::BF16, 1},      TypeCode{Kind::F8F6F4, Type::E4M3, 0},
    TypeCode{Kind::F8F6F4, Type::E5M2, 1},   TypeCode{Kind::F8F6F4, Type::E2M3, 3},
    TypeCode{Kind::F8F6F4, Type::E3M2, 4},   TypeCode{Kind::F8F6F4, Type::E2M1, 5},
    TypeCode{Kind::MXF8F6F4, Type::E4M3, 0}, TypeCode{Kind::MXF8F6F4, Type::E5M2, 1},
    TypeCode{Kind::MXF8F6F4, Type::E2M3, 3}, TypeCode{Kind::MXF8F6F4, Type::E3M2, 4},
    TypeCode{Kind::MXF8F6F4, Type::E2M1, 5}, TypeCode{Kind::I8, Type::U8, 0},
    TypeCode{Kind::I8, Type::S8, 1},         TypeCode{Kind::MXF4, Type::E2M1, 1},
    TypeCode{Kind::MXF4NVF4, Type::E2M1, 1}};

std::optional<int> typeCode(Kind k, Type t) {
    for (const TypeCode& c : kTypeCodes)
        if (c.kind == k && c.type == t)
            return c.code;
    return std::nullopt;
}
std::optional<Type> typeFromCode(Kind k, int code) {
    for (const TypeCode& c : kTypeCodes)
        if (c.kind == k && c.code == code)
            return c.type;
    return std::nullopt;
}
std::string typesOf(Kind k) {
    std::string s;
    for (const TypeCode& c : kTypeCodes)
        if (c.kind == k)
            s +=
                (s.empty() ? "" : ", ") + std::string(typeInfo(c.type).name) + " = " + std::to_string(c.code);
    return s;
}

// dtype codes and the D types each kind takes (Table 42; block-scaled kinds accumulate in f32, no field).
struct DTypeInfo {
    DType type;
    std::string_view name;
    int code;
};
constexpr std::array kDTypes{DTypeInfo{DType::F16, "f16", 0}, DTypeInfo{DType::F32, "f32", 1},
                             DTypeInfo{DType::S32, "s32", 2}};
std::string dtypeCodes() { // "f16 = 0, f32 = 1, s32 = 2"
    std::string out;
    for (const DTypeInfo& i : kDTypes)
        out.append(out.empty() ? "" : ", ").append(i.name).append(" = ").append(std::to_string(i.code));
    return out;
}
struct KindDType {
    Kind kind;
    DType type;
};
constexpr std::array kKindDTypes{KindDType{Kind::TF32, DType::F32},   KindDType{Kind::F16, DType::F16},
                                 KindDType{Kind::F16, DType::F32},    KindDType{Kind::F8F6F4, DType::F16},
                                 KindDType{Kind::F8F6F4, DType::F32}, KindDType{Kind::I8, DType::S32}};
bool takesDType(Kind k, DType t) {
    return std::any_of(kKindDTypes.begin(), kKindDTypes.end(),
                       [&](const KindDType& d) { return d.kind == k && d.type == t; });
}
std::string dtypesOf(Kind k) {
    std::string s;
    for (const KindDType& d : kKindDTypes)
        if (d.kind == k)
            s += (s.empty() ? "" : ", ") + std::string(toString(d.type));
    return s;
}

// Scale types per block-scaled kind (Table 57).
struct KindScale {
    Kind kind;
    ScaleType type;
};
constexpr std::array kKindScales{
    KindScale{Kind::MXF8F6F4, ScaleType::UE8M0}, KindScale{Kind::MXF4, ScaleType::UE8M0},
    KindScale{Kind::MXF4NVF4, ScaleType::UE8M0}, KindScale{Kind::MXF4NVF4, ScaleType::UE4M3}};

// The bit fields of each table.
enum class IField : std::uint8_t {
    SparsitySelector,
    Sparse,
    Saturate,
    DType,
    AType,
    BType,
    NegateA,
    NegateB,
    TransposeA,
    TransposeB,
    N,
    M,
    MaxShift,
    ScaleFactorB,
    ScaleType,
    ScaleFactorA,
    K96,
    Reserved
};
struct BitField {
    IField field;
    int lo, width;
};
struct FieldName {
    IField field;
    std::string_view key, name;
};
constexpr std::array kFieldNames{
    FieldName{IField::SparsitySelector, "sparsity_selector", "sparsity selector"},
    FieldName{IField::Sparse, "sparse", "sparsity"},
    FieldName{IField::Saturate, "saturate", "saturate"},
    FieldName{IField::DType, "dtype", "dtype (matrix D type)"},
    FieldName{IField::AType, "atype", "atype (matrix A type)"},
    FieldName{IField::BType, "btype", "btype (matrix B type)"},
    FieldName{IField::NegateA, "negate_a", "negate A"},
    FieldName{IField::NegateB, "negate_b", "negate B"},
    FieldName{IField::TransposeA, "transpose_a", "transpose A (major-ness)"},
    FieldName{IField::TransposeB, "transpose_b", "transpose B (major-ness)"},
    FieldName{IField::N, "n", "N >> 3"},
    FieldName{IField::M, "m", "M"},
    FieldName{IField::MaxShift, "max_shift", "maximum shift (.ws B reuse)"},
    FieldName{IField::ScaleFactorB, "scale_factor_b_id", "matrix B scale factor data ID"},
    FieldName{IField::ScaleType, "scale_type", "scale matrix type"},
    FieldName{IField::ScaleFactorA, "scale_factor_a_id", "matrix A scale factor data ID"},
    FieldName{IField::K96, "k", "K dimension"},
    FieldName{IField::Reserved, "reserved", "reserved"}};
const FieldName& nameOf(IField f) {
    for (const FieldName& n : kFieldNames)
        if (n.field == f)
            return n;
    return kFieldNames.back();
}

// Table 42: .kind::tf32, f16, f8f6f4, i8.
constexpr std::array kTable42{BitField{IField::SparsitySelector, 0, 2}, BitField{IField::Sparse, 2, 1},
                              BitField{IField::Saturate, 3, 1},         BitField{IField::DType, 4, 2},
                              BitField{IField::Reserved, 6, 1},         BitField{IField::AType, 7, 3},
                              BitField{IField::BType, 10, 3},           BitField{IField::NegateA, 13, 1},
                              BitField{IField::NegateB, 14, 1},         BitField{IField::TransposeA, 15, 1},
                              BitField{IField::TransposeB, 16, 1},      BitField{IField::N, 17, 6},
                              BitField{IField::Reserved, 23, 1},        BitField{IField::M, 24, 5},
                              BitField{IField::Reserved, 29, 1},        BitField{IField::MaxShift, 30, 2}};
// Table 43: .kind::mxf8f6f4.
constexpr std::array kTable43{BitField{IField::Reserved, 0, 2},    BitField{IField::Sparse, 2, 1},
                              BitField{IField::Reserved, 3, 1},    BitField{IField::ScaleFactorB, 4, 2},
                              BitField{IField::Reserved, 6, 1},    BitField{IField::AType, 7, 3},
                              BitField{IField::BType, 10, 3},      BitField{IField::NegateA, 13, 1},
                              BitField{IField::NegateB, 14, 1},    BitField{IField::TransposeA, 15, 1},
                              BitField{IField::TransposeB, 16, 1}, BitField{IField::N, 17, 6},
                              BitField{IField::ScaleType, 23, 1},  BitField{IField::Reserved, 24, 3},
                              BitField{IField::M, 27, 2},          BitField{IField::ScaleFactorA, 29, 2},
                              BitField{IField::Reserved, 31, 1}};
// Table 44: .kind::mxf4, mxf4nvf4 (btype is 2 bits; bit 31 is the K dimension).
constexpr std::array kTable44{BitField{IField::Reserved, 0, 2},
                              BitField{IField::Sparse, 2, 1},
                              BitField{IField::Reserved, 3, 1},
                              BitField{IField::ScaleFactorB, 4, 2},
                              BitField{IField::Reserved, 6, 1},
                              BitField{IField::AType, 7, 3},
                              BitField{IField::BType, 10, 2},
                              BitField{IField::Reserved, 12, 1},
                              BitField{IField::NegateA, 13, 1},
                              BitField{IField::NegateB, 14, 1},
                              BitField{IField::TransposeA, 15, 1},
                              BitField{IField::TransposeB, 16, 1},
                              BitField{IField::N, 17, 6},
                              BitField{IField::ScaleType, 23, 1},
                              BitField{IField::Reserved, 24, 3},
                              BitField{IField::M, 27, 2},
                              BitField{IField::ScaleFactorA, 29, 2},
                              BitField{IField::K96, 31, 1}};

struct Table {
    const BitField* begin;
    const BitField* end;
    int mShift; // M is stored as M >> mShift
};
Table tableOf(Kind k) {
    if (k == Kind::MXF8F6F4)
        return {kTable43.data(), kTable43.data() + kTable43.size(), 7};
    if (k == Kind::MXF4 || k == Kind::MXF4NVF4)
        return {kTable44.data(), kTable44.data() + kTable44.size(), 7};
    return {kTable42.data(), kTable42.data() + kTable42.size(), 4};
}

int maxShiftCode(int shift) {
    switch (shift) {
    case 0:
        return 0;
    case 8:
        return 1;
    case 16:
        return 2;
    case 32:
        return 3;
    default:
        return -1;
    }
}

// The code a typed field packs to (valid descriptors only; check() ran first).
std::uint32_t codeOf(const InstrDescriptor& d, IField f, int mShift) {
    switch (f) {
    case IField::SparsitySelector:
        return static_cast<std::uint32_t>(d.sparsitySelector);
    case IField::Sparse:
        return d.sparse;
    case IField::Saturate:
        return d.saturate;
    case IField::DType:
        for (const DTypeInfo& i : kDTypes)
            if (i.type == d.dtype)
                return static_cast<std::uint32_t>(i.code);
        return 0;
    case IField::AType:
        return static_cast<std::uint32_t>(typeCode(d.kind, d.atype).value_or(0));
    case IField::BType:
        return static_cast<std::uint32_t>(typeCode(d.kind, d.btype).value_or(0));
    case IField::NegateA:
        return d.negateA;
    case IField::NegateB:
        return d.negateB;
    case IField::TransposeA:
        return d.majorA == smem::Major::MN;
    case IField::TransposeB:
        return d.majorB == smem::Major::MN;
    case IField::N:
        return static_cast<std::uint32_t>(d.n >> 3);
    case IField::M:
        return static_cast<std::uint32_t>(d.m >> mShift);
    case IField::MaxShift:
        return static_cast<std::uint32_t>(std::max(0, maxShiftCode(d.maxShift)));
    case IField::ScaleFactorB:
        return static_cast<std::uint32_t>(d.scaleFactorB);
    case IField::ScaleType:
        return d.scaleType == ScaleType::UE8M0;
    case IField::ScaleFactorA:
        return static_cast<std::uint32_t>(d.scaleFactorA);
    case IField::K96:
        return d.k96;
    case IField::Reserved:
        return 0;
    }
    return 0;
}

// --- Table 39: M and N per kind, cta_group, .ws and sparsity
// ------------------------------------------------

bool nAllowed(const InstrDescriptor& d, int cta, bool ws) {
    const int n = d.n;
    if (ws)
        return d.sparse ? (n == 64 || n == 128) : (n == 64 || n == 128 || n == 256);
    if (n <= 0 || n > 256)
        return false;
    if (d.kind == Kind::I8) {
        if (cta == 2)
            return n % 32 == 0;
        return n == 8 || n == 16 || n == 24 || (n >= 32 && n % 16 == 0);
    }
    return cta == 2 ? n % 16 == 0 : n % 8 == 0;
}
std::string nRule(const InstrDescriptor& d, int cta, bool ws) {
    if (ws)
        return d.sparse ? "64 or 128 (.ws, sparse)" : "64, 128 or 256 (.ws)";
    if (d.kind == Kind::I8)
        return cta == 2 ? "32..256 in steps of 32 (kind::i8, cta_group::2)"
                        : "8, 16, 24, 32, then 48..256 in steps of 16 (kind::i8, cta_group::1)";
    return cta == 2 ? "16..256 in steps of 16 (cta_group::2)" : "8..256 in steps of 8 (cta_group::1)";
}
std::vector<int> mAllowed(const InstrDescriptor& d, int cta, bool ws) {
    if (ws)
        return {32, 64, 128};
    if (isBlockScaled(d.kind)) {
        if (cta == 1)
            return {128};
        return d.sparse ? std::vector<int>{256} : std::vector<int>{128, 256};
    }
    return cta == 1 ? std::vector<int>{64, 128} : std::vector<int>{128, 256};
}
std::string listOf(const std::vector<int>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i == 0 ? "" : i + 1 == v.size() ? " or " : ", ") + std::to_string(v[i]);
    return s;
}
std::string formName(int cta, bool ws) {
    return "cta_group::" + std::to_string(cta) + (ws ? " .ws" : "");
}

// The shape and form rules of one concrete (cta_group, .ws) form.
std::vector<Violation> formViolations(const InstrDescriptor& d, int cta, bool ws) {
    std::vector<Violation> out;
    const std::string form = formName(cta, ws);
    if (ws && isBlockScaled(d.kind)) {
        out.push_back({".ws", "kind::" + std::string(toString(d.kind)) + " has no .ws form (Table 39)"});
        return out;
    }
    if (ws && cta == 2) {
        out.push_back({".ws", ".ws exists only with cta_group::1 (Table 39)"});
        return out;
    }
    const std::vector<int> ms = mAllowed(d, cta, ws);
    if (std::find(ms.begin(), ms.end(), d.m) == ms.end())
        out.push_back({"M", std::to_string(d.m) + " is not an M of kind::" + std::string(toString(d.kind)) +
                                (d.sparse ? " sparse" : " dense") + " with " + form +
                                "; valid: " + listOf(ms) + " (Table 39)"});
    if (!nAllowed(d, cta, ws))
        out.push_back({"N", std::to_string(d.n) + " is not an N of kind::" + std::string(toString(d.kind)) +
                                " with " + form + "; valid: " + nRule(d, cta, ws) + " (Table 39)"});
    if (!ws && d.maxShift != 0)
        out.push_back(
            {"maximum shift (.ws B reuse)",
             "is " + std::to_string(d.maxShift) + " but the maximum shift applies only to .ws; use 0"});
    if (d.k96 && !(cta == 2 && d.m == 256))
        out.push_back({"K dimension", "K = 96 exists only for cta_group::2 with M = 256 (Table 39)"});
    return out;
}

} // namespace

std::vector<Violation> shapeViolations(Kind kind, bool sparse, int m, int n, int ctaGroup, bool ws) {
    InstrDescriptor d;
    d.kind = kind;
    d.sparse = sparse;
    d.m = m;
    d.n = n;
    return formViolations(d, ctaGroup, ws);
}
bool validShapeN(Kind kind, bool sparse, int n, int ctaGroup, bool ws) {
    InstrDescriptor d;
    d.kind = kind;
    d.sparse = sparse;
    d.n = n;
    return nAllowed(d, ctaGroup, ws);
}

std::string_view toString(DType type) {
    for (const DTypeInfo& i : kDTypes)
        if (i.type == type)
            return i.name;
    return "?";
}
std::string_view toString(Type type) {
    return typeInfo(type).name;
}
std::string_view toString(ScaleType type) {
    return type == ScaleType::UE8M0 ? "ue8m0" : "ue4m3";
}
std::optional<DType> parseDType(std::string_view text) {
    const std::string s = lower(text);
    for (const DTypeInfo& i : kDTypes)
        if (i.name == s)
            return i.type;
    return std::nullopt;
}
std::optional<Type> parseType(std::string_view text) {
    const std::string s = lower(text);
    for (const TypeInfo& i : kTypes)
        if (i.name == s)
            return i.type;
    return std::nullopt;
}
std::optional<ScaleType> parseScaleType(std::string_view text) {
    const std::string s = lower(text);
    if (s == "ue8m0")
        return ScaleType::UE8M0;
    if (s == "ue4m3")
        return ScaleType::UE4M3;
    return std::nullopt;
}
std::string_view kindList() {
    static const std::string list = [] {
        std::string out;
        for (const KindInfo& i : kKinds)
            out.append(out.empty() ? "" : ", ").append(toString(i.kind));
        return out;
    }();
    return list;
}
bool isBlockScaled(Kind kind) {
    return kind == Kind::MXF8F6F4 || kind == Kind::MXF4 || kind == Kind::MXF4NVF4;
}

int kOf(const InstrDescriptor& d) {
    if (d.k96)
        return 96;
    const KindInfo& i = kindInfo(d.kind);
    return d.sparse ? i.sparseK : i.denseK;
}

std::vector<Violation> check(const InstrDescriptor& d, const Context& context) {
    std::vector<Violation> out;
    const std::string kind = "kind::" + std::string(toString(d.kind));
    const bool scaled = isBlockScaled(d.kind);
    // Types (Tables 42-44, 39).
    for (const auto& [field, type] :
         {std::pair{"atype (matrix A type)", d.atype}, {"btype (matrix B type)", d.btype}})
        if (!typeCode(d.kind, type))
            out.push_back({field, "." + std::string(toString(type)) + " is not a " + kind +
                                      " type; valid: " + typesOf(d.kind)});
    if (!scaled && !takesDType(d.kind, d.dtype))
        out.push_back({"dtype (matrix D type)", "." + std::string(toString(d.dtype)) + " is not a " + kind +
                                                    " D type; valid: " + dtypesOf(d.kind)});
    if (scaled && d.dtype != DType::F32)
        out.push_back(
            {"dtype (matrix D type)", kind + " accumulates in .f32 (the descriptor has no dtype field)"});
    if (d.kind == Kind::F16 && d.atype != d.btype)
        out.push_back({"btype (matrix B type)",
                       "kind::f16 multiplies A and B of one type (.f16 x .f16 or .bf16 x .bf16); A is ." +
                           std::string(toString(d.atype))});
    if (d.kind == Kind::F16 && d.dtype == DType::F16 && (d.atype != Type::F16 || d.btype != Type::F16))
        out.push_back(
            {"dtype (matrix D type)", "a .f16 D takes .f16 A and B only; .bf16 needs a .f32 D (Table 39)"});
    // Sparsity.
    if (d.sparsitySelector < 0 || d.sparsitySelector > 3)
        out.push_back({"sparsity selector",
                       std::to_string(d.sparsitySelector) + " does not fit bits 1-0; valid: 0..3"});
    else if (d.sparsitySelector != 0 && scaled)
        out.push_back(
            {"sparsity selector", kind + " has no sparsity selector (bits 1-0 are reserved): use 0"});
    else if (d.sparsitySelector != 0 && !d.sparse)
        out.push_back(
            {"sparsity selector", "is " + std::to_string(d.sparsitySelector) +
                                      " but is read only when sparsity (bit 2) is 1: use 0 for dense"});
    // Saturate and negate.
    if (d.saturate && d.kind != Kind::I8)
        out.push_back({"saturate", "saturation exists only for kind::i8 (integer D)"});
    if (d.kind == Kind::I8 && (d.negateA || d.negateB))
        out.push_back({d.negateA ? "negate A" : "negate B", "kind::i8 cannot negate A or B: use 0"});
    // Major-ness (Tables 44 and 54).
    for (const auto& [field, major, type] : {std::tuple{"transpose A (major-ness)", d.majorA, d.atype},
                                             std::tuple{"transpose B (major-ness)", d.majorB, d.btype}}) {
        if (major != smem::Major::MN)
            continue;
        if (d.kind == Kind::MXF4 || d.kind == Kind::MXF4NVF4)
            out.push_back({field, kind + " reads A and B K-major only: transpose must be 0 (Table 44)"});
        else if (const int bits = typeInfo(type).bits; bits != 8 && bits != 16 && bits != 32)
            out.push_back({field, "MN-major (transpose) exists for 8-, 16- and 32-bit types only; ." +
                                      std::string(toString(type)) + " is " + std::to_string(bits) +
                                      "-bit (Table 54)"});
    }
    // .ws maximum shift, block-scale fields.
    if (maxShiftCode(d.maxShift) < 0)
        out.push_back({"maximum shift (.ws B reuse)",
                       std::to_string(d.maxShift) + " is not a maximum shift; valid: 0, 8, 16, 32"});
    else if (d.maxShift != 0 && scaled)
        out.push_back(
            {"maximum shift (.ws B reuse)", kind + " has no maximum-shift field (no .ws form): use 0"});
    for (const auto& [field, id] : {std::pair{"matrix A scale factor data ID", d.scaleFactorA},
                                    std::pair{"matrix B scale factor data ID", d.scaleFactorB}}) {
        if (!scaled && id != 0)
            out.push_back({field, kind + " is not block-scaled: it has no scale factor ID, use 0"});
        else if (id < 0 || id > 3)
            out.push_back({field, std::to_string(id) + " does not fit 2 bits; valid: 0..3"});
        else if ((d.kind == Kind::MXF4 || d.kind == Kind::MXF4NVF4) && id != 0 && id != 2)
            out.push_back({field, std::to_string(id) + " is not a " + kind +
                                      " scale factor ID; valid: 0 or 2 (Table 44)"});
    }
    if (scaled && std::none_of(kKindScales.begin(), kKindScales.end(),
                               [&](const KindScale& s) { return s.kind == d.kind && s.type == d.scaleType; }))
        out.push_back({"scale matrix type", "." + std::string(toString(d.scaleType)) + " is not a " + kind +
                                                " scale type; valid: .ue8m0" +
                                                (d.kind == Kind::MXF4NVF4 ? ", .ue4m3" : "") +
                                                " (Table 57)"});
    if (d.k96 && d.kind != Kind::MXF4 && d.kind != Kind::MXF4NVF4)
        out.push_back({"K dimension", "K = 96 exists only for kind::mxf4 and kind::mxf4nvf4"});
    if (d.k96 && d.sparse)
        out.push_back({"K dimension", "K = 96 is dense only (sparse mxf4 has K = 128)"});
    // Encodable M and N.
    const int mShift = tableOf(d.kind).mShift;
    if (d.m <= 0 || d.m % (1 << mShift) != 0 || (d.m >> mShift) >= (scaled ? 4 : 32))
        out.push_back({"M", std::to_string(d.m) + " cannot be encoded: " + kind + " stores M >> " +
                                std::to_string(mShift) +
                                (scaled ? " in 2 bits (M = 128 or 256)" : " in 5 bits")});
    if (d.n <= 0 || d.n % 8 != 0 || (d.n >> 3) >= 64)
        out.push_back({"N", std::to_string(d.n) + " cannot be encoded: N >> 3 in 6 bits, N a multiple of 8"});
    if (!out.empty() && std::any_of(out.begin(), out.end(),
                                    [](const Violation& v) { return v.field == "M" || v.field == "N"; }))
        return out;
    // Shapes per form (Table 39): the instruction string's cta_group and .ws, or any form when unknown.
    if (context.ctaGroup && *context.ctaGroup != 1 && *context.ctaGroup != 2) {
        out.push_back(
            {"cta_group", std::to_string(*context.ctaGroup) + " is not a CTA group; valid: 1 or 2"});
        return out;
    }
    std::vector<std::pair<int, bool>> forms;
    for (const int cta : {1, 2})
        for (const bool ws : {false, true})
            if ((!context.ctaGroup || *context.ctaGroup == cta) && (!context.ws || *context.ws == ws))
                forms.emplace_back(cta, ws);
    std::vector<Violation> best;
    bool first = true;
    for (const auto& [cta, ws] : forms) {
        std::vector<Violation> v = formViolations(d, cta, ws);
        if (v.empty())
            return out;
        if (first || v.size() < best.size())
            best = std::move(v);
        first = false;
    }
    const bool known = forms.size() == 1;
    for (Violation& v : best) {
        if (!known)
            v.rule += "; no other cta_group/.ws form allows it either";
        out.push_back(std::move(v));
    }
    return out;
}

std::uint32_t encode(const InstrDescriptor& d, const Context& context) {
    const std::vector<Violation> v = check(d, context);
    if (!v.empty())
        throw std::invalid_argument("tcgen05 instruction descriptor (kind::" + std::string(toString(d.kind)) +
                                    "): " + v.front().field + ": " + v.front().rule);
    const Table t = tableOf(d.kind);
    std::uint32_t bits = 0;
    for (const BitField* f = t.begin; f != t.end; ++f)
        bits |= (codeOf(d, f->field, t.mShift) & ((1u << f->width) - 1u)) << f->lo;
    return bits;
}

DecodedInstrDescriptor decodeInstrDescriptor(std::uint32_t bits, Kind kind, const Context& context) {
    DecodedInstrDescriptor out;
    out.bits = bits;
    InstrDescriptor& d = out.descriptor;
    d.kind = kind;
    const std::string kindName = "kind::" + std::string(toString(kind));
    const Table t = tableOf(kind);
    std::vector<Violation> codeViolations;
    for (const BitField* f = t.begin; f != t.end; ++f) {
        const int raw = static_cast<int>(bitsOf(bits, f->lo, f->width));
        const FieldName& n = nameOf(f->field);
        std::string meaning;
        auto flag = [&](std::string_view off, std::string_view on) { return std::string(raw ? on : off); };
        switch (f->field) {
        case IField::SparsitySelector:
            d.sparsitySelector = raw;
            meaning = std::to_string(raw);
            break;
        case IField::Sparse:
            d.sparse = raw != 0;
            meaning = flag("dense", "sparse");
            break;
        case IField::Saturate:
            d.saturate = raw != 0;
            meaning = flag("no saturate", "saturate");
            break;
        case IField::DType: {
            meaning = "invalid code " + std::to_string(raw);
            bool found = false;
            for (const DTypeInfo& i : kDTypes)
                if (i.code == raw) {
                    d.dtype = i.type;
                    meaning = "." + std::string(i.name);
                    found = true;
                }
            if (!found)
                codeViolations.push_back(
                    {std::string(n.name),
                     "code " + std::to_string(raw) + " is not a D type; valid: " + dtypeCodes()});
            break;
        }
        case IField::AType:
        case IField::BType: {
            const std::optional<Type> type = typeFromCode(kind, raw);
            if (type) {
                (f->field == IField::AType ? d.atype : d.btype) = *type;
                meaning = "." + std::string(toString(*type));
            } else {
                meaning = "invalid code " + std::to_string(raw);
                codeViolations.push_back({std::string(n.name), "code " + std::to_string(raw) + " is not a " +
                                                                   kindName +
                                                                   " type; valid: " + typesOf(kind)});
            }
            break;
        }
        case IField::NegateA:
            d.negateA = raw != 0;
            meaning = flag("no negate", "negate");
            break;
        case IField::NegateB:
            d.negateB = raw != 0;
            meaning = flag("no negate", "negate");
            break;
        case IField::TransposeA:
            d.majorA = raw ? smem::Major::MN : smem::Major::K;
            meaning = flag("no transpose: K-major", "transpose: M-major");
            break;
        case IField::TransposeB:
            d.majorB = raw ? smem::Major::MN : smem::Major::K;
            meaning = flag("no transpose: K-major", "transpose: N-major");
            break;
        case IField::N:
            d.n = raw << 3;
            meaning = "N = " + std::to_string(d.n);
            break;
        case IField::M:
            d.m = raw << t.mShift;
            meaning = "M = " + std::to_string(d.m) + " (stored as M >> " + std::to_string(t.mShift) + ")";
            break;
        case IField::MaxShift:
            d.maxShift = raw == 0 ? 0 : 4 << raw;
            meaning = raw == 0 ? "no shift" : "maximum shift of " + std::to_string(d.maxShift);
            break;
        case IField::ScaleFactorB:
            d.scaleFactorB = raw;
            meaning = "byte " + std::to_string(raw) + " of the scale_B cells";
            break;
        case IField::ScaleFactorA:
            d.scaleFactorA = raw;
            meaning = "byte " + std::to_string(raw) + " of the scale_A cells";
            break;
        case IField::ScaleType:
            d.scaleType = raw ? ScaleType::UE8M0 : ScaleType::UE4M3;
            meaning = raw ? ".ue8m0" : ".ue4m3";
            break;
        case IField::K96:
            d.k96 = raw != 0;
            meaning = raw ? "K = 96 (dense only, sm_103a)" : "K = 64 dense / 128 sparse";
            break;
        case IField::Reserved:
            meaning = "must be 0";
            if (raw != 0)
                codeViolations.push_back(
                    {"reserved (" +
                         (f->width == 1 ? "bit " + std::to_string(f->lo)
                                        : "bits " + std::to_string(f->lo + f->width - 1) + "-" +
                                              std::to_string(f->lo)) +
                         ")",
                     "is " + std::to_string(raw) + "; " + kindName + " reserves it: must be 0"});
            break;
        }
        const int hi = f->lo + f->width - 1;
        std::string key(n.key);
        if (f->field == IField::Reserved) // distinct keys: a kind has several reserved ranges
            key +=
                "_" + (hi == f->lo ? std::to_string(hi) : std::to_string(hi) + "_" + std::to_string(f->lo));
        out.fields.push_back({key, std::string(n.name), f->lo, hi, static_cast<std::uint64_t>(raw), meaning});
    }
    if (isBlockScaled(kind))
        d.dtype = DType::F32;
    out.violations = std::move(codeViolations);
    for (Violation& v : check(d, context)) {
        // A type code that decoded to nothing is reported once, by its code.
        const bool duplicate = std::any_of(out.violations.begin(), out.violations.end(),
                                           [&](const Violation& w) { return w.field == v.field; });
        if (!duplicate)
            out.violations.push_back(std::move(v));
    }
    return out;
}

// --- `--smem-desc-from` ------------------------------------------------------------------------------------

std::string_view smemKeyList() {
    return "start, lbo, sbo, base, mode, swizzle";
}

SmemDescriptor parseSmemDescriptor(std::string_view text) {
    SmemDescriptor d;
    detail::forEachKeyValue(text, smemKeyList(), [&](const std::string& key, const std::string& value) {
        if (detail::takeAddressField(d, key, value))
            return;
        if (key == "mode") {
            const std::string m = lower(value);
            if (m == "relative")
                d.leadingMode = LeadingMode::RelativeOffset;
            else if (m == "absolute")
                d.leadingMode = LeadingMode::AbsoluteAddress;
            else
                throw std::invalid_argument("mode '" + excerpt(value, 32) +
                                            "' is unknown; valid: relative, absolute");
        } else if (key == "swizzle") {
            const std::optional<smem::Swizzle> s = parseSwizzle(value);
            if (!s)
                throw std::invalid_argument("swizzle '" + excerpt(value, 32) +
                                            "' is unknown; valid: " + std::string(swizzleList()));
            d.swizzle = *s;
        } else
            throw std::invalid_argument("unknown key '" + excerpt(key, 32) +
                                        "'; keys: " + std::string(smemKeyList()));
    });
    return d;
}

// --- `--idesc-from`
// ------------------------------------------------------------------------------------------

std::string_view instrKeyList() {
    return "kind, a, b, d, m, n, sparse, selector, saturate, negate_a, negate_b, major_a, major_b, "
           "max_shift, "
           "sf_a, sf_b, scale, k96";
}

InstrDescriptor parseInstrDescriptor(std::string_view text) {
    InstrDescriptor d;
    bool dtypeGiven = false, kindGiven = false, aGiven = false, bGiven = false;
    auto fail = [](const std::string& why) { throw std::invalid_argument(why); };
    auto integer = [&](std::string_view key, const std::string& value) {
        int v = 0;
        if (value.empty() || value.size() > 6 || !std::all_of(value.begin(), value.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
            fail("'" + excerpt(std::string(key) + "=" + value, 48) + "': expected a non-negative integer");
        v = std::stoi(value);
        return v;
    };
    auto boolean = [&](std::string_view key, const std::string& value) {
        const std::string v = lower(value);
        if (v == "1" || v == "true" || v == "yes")
            return true;
        if (v == "0" || v == "false" || v == "no")
            return false;
        fail("'" + excerpt(std::string(key) + "=" + value, 48) + "': expected 0/1, true/false or yes/no");
        return false;
    };
    detail::forEachKeyValue(text, instrKeyList(), [&](const std::string& key, const std::string& value) {
        if (key == "kind") {
            const std::optional<Kind> k = parseKind(value);
            if (!k)
                fail("kind '" + excerpt(value, 32) +
                     "' is not a tcgen05 kind; valid: " + std::string(kindList()));
            d.kind = *k;
            kindGiven = true;
        } else if (key == "a" || key == "b") {
            const std::optional<Type> t = parseType(value);
            if (!t)
                fail(key + " type '" + excerpt(value, 32) + "' is unknown; valid: " + namesOf(kTypes));
            (key == "a" ? d.atype : d.btype) = *t;
            (key == "a" ? aGiven : bGiven) = true;
        } else if (key == "d") {
            const std::optional<DType> t = parseDType(value);
            if (!t)
                fail("d type '" + excerpt(value, 32) + "' is unknown; valid: " + namesOf(kDTypes));
            d.dtype = *t;
            dtypeGiven = true;
        } else if (key == "m") {
            d.m = integer(key, value);
        } else if (key == "n") {
            d.n = integer(key, value);
        } else if (key == "sparse") {
            d.sparse = boolean(key, value);
        } else if (key == "selector") {
            d.sparsitySelector = integer(key, value);
        } else if (key == "saturate") {
            d.saturate = boolean(key, value);
        } else if (key == "negate_a") {
            d.negateA = boolean(key, value);
        } else if (key == "negate_b") {
            d.negateB = boolean(key, value);
        } else if (key == "major_a" || key == "major_b") {
            const std::optional<smem::Major> m = smem::parseMajor(value);
            if (!m)
                fail(key + " '" + excerpt(value, 32) + "' is unknown; valid: K, MN");
            (key == "major_a" ? d.majorA : d.majorB) = *m;
        } else if (key == "max_shift") {
            d.maxShift = integer(key, value);
        } else if (key == "sf_a") {
            d.scaleFactorA = integer(key, value);
        } else if (key == "sf_b") {
            d.scaleFactorB = integer(key, value);
        } else if (key == "scale") {
            const std::optional<ScaleType> s = parseScaleType(value);
            if (!s)
                fail("scale '" + excerpt(value, 32) + "' is unknown; valid: ue8m0, ue4m3");
            d.scaleType = *s;
        } else if (key == "k96") {
            d.k96 = boolean(key, value);
        } else {
            fail("unknown key '" + excerpt(key, 32) + "'; keys: " + std::string(instrKeyList()));
        }
    });
    if (!kindGiven)
        fail("kind= is required; valid: " + std::string(kindList()));
    // The D type a kind implies when not given: s32 for i8, f32 otherwise.
    if (!dtypeGiven)
        d.dtype = d.kind == Kind::I8 ? DType::S32 : DType::F32;
    // A and B default to the kind's first type (f16, tf32, e4m3, u8, e2m1).
    for (const TypeCode& c : kTypeCodes)
        if (c.kind == d.kind) {
            if (!aGiven)
                d.atype = c.type;
            if (!bGiven)
                d.btype = c.type;
            break;
        }
    return d;
}

} // namespace lanemap::tcgen05
