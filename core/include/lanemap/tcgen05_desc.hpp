#pragma once
// tcgen05 (Blackwell) descriptors, PTX 9.1 §9.7.16.4: the 64-bit shared-memory descriptor and the 32-bit
// instruction descriptor (idesc) of every .kind, encoded from typed fields and decoded back to them, with
// every value the ISA forbids reported as a Violation naming the field and the rule.
//
// Decoding never throws: a pasted value is shown field by field with the rules it breaks (the CLI's
// `decode`, the GUI decoder). Encoding throws std::invalid_argument with the first broken rule, so a value
// lanemap writes is always one the ISA allows.
//
// Nothing here ran on Blackwell hardware; the bit positions are the ISA's Tables 40, 42, 43 and 44, cross-
// checked against CUTLASS (UMMA::SmemDescriptor, InstrDescriptor, InstrDescriptorBlockScaled).

#include "lanemap/smem.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap::tcgen05 {

// A rule a descriptor breaks: the field (as named in Field::name) and what the ISA allows.
struct Violation {
    std::string field;
    std::string rule;
    bool operator==(const Violation&) const = default;
};

// One bit field of a decoded descriptor, for text, JSON and the GUI.
struct Field {
    std::string key;  // JSON key, unique within a descriptor, e.g. "start_address", "reserved_23"
    std::string name; // e.g. "matrix start address"
    int lowBit = 0, highBit = 0;
    std::uint64_t raw = 0; // the bits as stored
    std::string meaning;   // e.g. "1024 bytes (encoded 64)"
};

// A pasted descriptor value: hex of at most `bits` bits, "0x" optional, '_' separators and surrounding spaces
// ignored (0x4000_4040_0001_0040); nullopt when it is not one.
std::optional<std::uint64_t> parseValue(std::string_view text, int bits);

// --- shared-memory descriptor (Table 40) ------------------------------------------------------------------

// Bit 52: how bits 29-16 are read.
enum class LeadingMode : std::uint8_t { RelativeOffset, AbsoluteAddress };

struct SmemDescriptor {
    std::uint32_t startAddress = 0;      // bits 13-0: encode(start), bytes
    std::uint32_t leadingByteOffset = 0; // bits 29-16: encode(LBO) or encode(absolute address), bytes
    std::uint32_t strideByteOffset = 0;  // bits 45-32: encode(SBO), bytes
    int baseOffset = 0;                  // bits 51-49
    LeadingMode leadingMode = LeadingMode::RelativeOffset; // bit 52
    smem::Swizzle swizzle = smem::Swizzle::None;           // bits 63-61
    bool operator==(const SmemDescriptor&) const = default;
};

// Swizzle codes of bits 63-61: 0 none, 1 128B with 32B atomicity, 2 128B, 4 64B, 6 32B (3, 5, 7 invalid).
int swizzleCode(smem::Swizzle swizzle);
std::optional<smem::Swizzle> swizzleFromCode(int code);
// Accepts none/0, 128B-32B (also 128b_base32b, 128b32), 128B/128, 64B/64, 32B/32 (any case).
std::optional<smem::Swizzle> parseSwizzle(std::string_view text);
std::string_view swizzleList(); // "none, 128B-32B, 128B, 64B, 32B"

constexpr std::uint64_t kSmemVersion = 1; // bits 48-46: the fixed constant 0b001

// The rules a descriptor's typed fields break (alignment, range, mode combinations); empty when valid.
std::vector<Violation> check(const SmemDescriptor& descriptor);
// Packs. Throws std::invalid_argument "tcgen05 shared-memory descriptor: <field>: <rule>" on the first rule
// broken.
std::uint64_t encode(const SmemDescriptor& descriptor);

struct DecodedSmemDescriptor {
    std::uint64_t bits = 0;
    SmemDescriptor descriptor; // the fields as read (an invalid swizzle code reads as none)
    std::vector<Field> fields; // every field of Table 40, reserved ones included
    std::vector<Violation> violations;
};
DecodedSmemDescriptor decodeSmemDescriptor(std::uint64_t bits);

// Fields for `--smem-desc-from`: "start=0x400,lbo=16,sbo=1024,base=0,mode=relative,swizzle=128B" (byte values
// in decimal or 0x hex; mode relative|absolute; swizzle as parseSwizzle). Omitted keys are 0 / relative /
// none. Throws std::invalid_argument naming the key and what is valid.
SmemDescriptor parseSmemDescriptor(std::string_view text);
std::string_view smemKeyList(); // "start, lbo, sbo, base, mode, swizzle"

// The tcgen05 descriptor of a canonical shared-memory tile (start address, LBO, SBO, base offset, swizzle as
// the layout computes them; relative leading mode).
SmemDescriptor descriptorFor(const smem::SmemLayout& layout);

// --- instruction descriptor (Tables 42-44) ----------------------------------------------------------------

using lanemap::Kind; // a tcgen05.mma takes every kind but None
using lanemap::parseKind;
using lanemap::toString;
enum class DType : std::uint8_t { F16, F32, S32 };
enum class Type : std::uint8_t { F16, BF16, TF32, E4M3, E5M2, E2M3, E3M2, E2M1, U8, S8 };
enum class ScaleType : std::uint8_t { UE4M3, UE8M0 };

std::string_view toString(DType type);
std::string_view toString(Type type);
std::string_view toString(ScaleType type);
std::optional<DType> parseDType(std::string_view text);
std::optional<Type> parseType(std::string_view text);
std::optional<ScaleType> parseScaleType(std::string_view text);
std::string_view kindList(); // "f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4, mxf4nvf4"
bool isBlockScaled(Kind kind);

struct InstrDescriptor {
    Kind kind = Kind::F16;
    bool sparse = false;
    int sparsitySelector = 0; // bits 1-0 (non-block-scaled kinds)
    bool saturate = false;    // bit 3 (i8)
    DType dtype = DType::F32; // bits 5-4 (non-block-scaled kinds; block-scaled D is f32)
    Type atype = Type::F16, btype = Type::F16;
    bool negateA = false, negateB = false;
    smem::Major majorA = smem::Major::K, majorB = smem::Major::K; // bits 15, 16 ("transpose": MN-major)
    int m = 128, n = 256;
    int maxShift = 0; // bits 31-30: 0, 8, 16 or 32 (.ws B reuse)
    // Block-scaled kinds:
    int scaleFactorA = 0, scaleFactorB = 0; // bits 30-29, 5-4: the byte of the scale-factor TMEM cell
    ScaleType scaleType = ScaleType::UE8M0; // bit 23
    bool k96 = false;                       // bit 31 (mxf4, mxf4nvf4: dense K = 96, sm_103a)
    bool operator==(const InstrDescriptor&) const = default;
};

// What the instruction string adds: the idesc carries neither .cta_group nor .ws. Unknown (nullopt) checks
// what holds for either.
struct Context {
    std::optional<int> ctaGroup; // 1 or 2
    std::optional<bool> ws;
};

// K of the MMA (Table 39): from the kind, the sparsity and the K=96 bit.
int kOf(const InstrDescriptor& descriptor);

std::vector<Violation> check(const InstrDescriptor& descriptor, const Context& context = {});
// Table 39's shape rules for one concrete form (cta_group, .ws): whether M and N exist for the kind and
// sparsity, as violations naming "M" or "N" with the valid values. The one statement of those rules: the
// catalog (tmem::validate, tmem::validN) asks here too.
std::vector<Violation> shapeViolations(Kind kind, bool sparse, int m, int n, int ctaGroup, bool ws);
bool validShapeN(Kind kind, bool sparse, int n, int ctaGroup, bool ws);
// Throws std::invalid_argument "tcgen05 instruction descriptor (kind::K): <field>: <rule>".
std::uint32_t encode(const InstrDescriptor& descriptor, const Context& context = {});

struct DecodedInstrDescriptor {
    std::uint32_t bits = 0;
    InstrDescriptor descriptor; // fields as read; an unknown type code leaves the field at its default
    std::vector<Field> fields;  // every field of the kind's table, reserved ones included
    std::vector<Violation> violations;
};
DecodedInstrDescriptor decodeInstrDescriptor(std::uint32_t bits, Kind kind, const Context& context = {});

// Fields for `--idesc-from`: "kind=f16,a=bf16,b=bf16,d=f32,m=128,n=256,...". Keys: kind, a, b, d, m, n,
// sparse, selector, saturate, negate_a, negate_b, major_a, major_b, max_shift, sf_a, sf_b, scale, k96.
// Throws std::invalid_argument naming the key and what is valid.
InstrDescriptor parseInstrDescriptor(std::string_view text);
std::string_view instrKeyList();

} // namespace lanemap::tcgen05
