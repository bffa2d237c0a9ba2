#pragma once
// The typed vocabulary every layer speaks: operands, element types, probe verdicts, and the structured PTX
// form of an instruction variant. Strings exist only at the edges (spec parsing, JSON, labels): use
// toString()/parse*() there and the enums everywhere else.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace lanemap {

// The matrices an instruction touches. C and D are separate operands; a "C/D" pane is a view that merges
// them.
enum class Operand : std::uint8_t { A, B, C, D, Metadata };
inline constexpr Operand kOperands[] = {Operand::A, Operand::B, Operand::C, Operand::D, Operand::Metadata};

std::string_view toString(Operand operand); // "A", "B", "C", "D", "metadata"
// Accepts the names above, case-insensitively; nullopt otherwise.
std::optional<Operand> parseOperand(std::string_view name);

enum class ElementType : std::uint8_t {
    F16,
    BF16,
    TF32,
    F32,
    F64, // IEEE-like floating point
    E4M3,
    E5M2,
    E3M2,
    E2M3,
    E2M1, // fp8 / fp6 / fp4
    S8,
    U8,
    S4,
    U4,
    S32, // integers
    B1,  // single bits (.xor/.and .popc)
    UE8M0,
    UE4M3, // block-scale factors
};

// One row of facts per element type: the single place a type's properties are written.
struct ElementTraits {
    ElementType type;
    std::string_view name;   // PTX spelling without the dot
    int bits;                // data bits of one element
    bool floating;           // floating point (f*, bf16, tf32, e*m*)
    bool isSigned;           // signed integer (s*); floating types count as unsigned here
    std::uint64_t one;       // the encoding of the value 1 (the probe's only non-zero input)
    ElementType accumulator; // default accumulator of mma with this input type
};

const ElementTraits& traits(ElementType type);
std::string_view toString(ElementType type);
std::optional<ElementType> parseElementType(std::string_view name);

// Types with the same layout that PTX lets A and B mix (s8 with u8, s4 with u4, e4m3 with e5m2).
bool sameMixGroup(ElementType a, ElementType b);

// What the hardware said about a variant.
enum class Verdict : std::uint8_t { Pass, Fail, Unsupported };
std::string_view toString(Verdict verdict); // "pass", "fail", "unsupported"
std::optional<Verdict> parseVerdict(std::string_view name);

// Labels for text output (the same words as toString).
std::ostream& operator<<(std::ostream& out, Operand operand);
std::ostream& operator<<(std::ostream& out, ElementType type);
std::ostream& operator<<(std::ostream& out, Verdict verdict);

// b1 multiplication: D = C + popc(a OP b).
enum class B1Op : std::uint8_t { None, Xor, And };

// mma block scaling (.block_scale[.scale_vec::NX]).
enum class ScaleVec : std::uint8_t { None, Default, X1, X2, X4 };
// The qualifiers as PTX writes them: "" (None), ".block_scale", ".block_scale.scale_vec::1X", ...
std::string_view toString(ScaleVec vec);

// One PTX spelling of a variant that shares its layout: the canonical form, a mixed-type form (s8 x u8,
// e4m3 x e5m2), the other b1 operation, or another block-scale spelling. Structured: the PTX string is
// rendered from it on demand (ptxOf in catalog.hpp) and never parsed back.
struct Form {
    ElementType atype = ElementType::F16;
    ElementType btype = ElementType::F16;
    B1Op b1 = B1Op::None;
    ScaleVec scaleVec = ScaleVec::None;
    ElementType scaleType = ElementType::UE8M0; // with scaleVec != None

    friend bool operator==(const Form&, const Form&) = default;
};

} // namespace lanemap
