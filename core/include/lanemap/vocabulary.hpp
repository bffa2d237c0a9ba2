#pragma once
// The typed vocabulary every layer speaks: operands, element types, probe verdicts, and the structured PTX
// form of an instruction variant. Strings exist only at the edges (spec parsing, JSON, labels): use
// toString()/parse*() there and the enums everywhere else.

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

namespace lanemap {

// The threads that execute together: a warp of 32 (%laneid 0..31) on every NVIDIA GPU so far, and the
// warpgroup of four warps that wgmma and tcgen05.ld/st are issued by. Lane and warp follow from these, never
// from a literal.
inline constexpr int kWarpSize = 32;
inline constexpr int kWarpsPerWarpgroup = 4;
inline constexpr int kWarpgroupSize = kWarpSize * kWarpsPerWarpgroup;
// A thread's lane (%laneid) and its warp within the warpgroup or CTA.
constexpr int laneOf(int thread) {
    return thread % kWarpSize;
}
constexpr int warpOf(int thread) {
    return thread / kWarpSize;
}

// The .kind:: qualifier of an mma (sm_120) or a tcgen05.mma; None: an mma written without one.
enum class Kind : std::uint8_t { None, F16, TF32, F8F6F4, I8, MXF8F6F4, MXF4, MXF4NVF4 };
std::string_view toString(Kind kind); // "" for None, else "f16", "tf32", "f8f6f4", "i8", "mxf8f6f4", ...
// A kind's name, with or without a "kind::" or ".kind::" prefix, case-insensitively; nullopt otherwise (and
// for the empty text: None is never parsed).
std::optional<Kind> parseKind(std::string_view text);

// The matrices an instruction touches. C and D are separate operands; a C/D pane is a view that merges
// them.
enum class Operand : std::uint8_t { A, B, C, D, Metadata };
inline constexpr Operand kOperands[] = {Operand::A, Operand::B, Operand::C, Operand::D, Operand::Metadata};

std::string_view toString(Operand operand); // "A", "B", "C", "D", "metadata"
// Accepts the names above, case-insensitively; nullopt otherwise.
std::optional<Operand> parseOperand(std::string_view name);

// The operands one view shows: {A}, {metadata}, or {C, D} for a view that merges C and D where their layouts
// are the same. A set, never a name: its label (C/D) is made at the edges.
class OperandSet {
  public:
    constexpr OperandSet() = default;
    constexpr OperandSet(Operand operand) : m_bits(bit(operand)) {}
    constexpr OperandSet(std::initializer_list<Operand> operands) {
        for (Operand o : operands)
            m_bits |= bit(o);
    }

    constexpr bool empty() const { return m_bits == 0; }
    constexpr bool contains(Operand operand) const { return (m_bits & bit(operand)) != 0; }
    constexpr bool intersects(OperandSet other) const { return (m_bits & other.m_bits) != 0; }
    constexpr int size() const {
        int n = 0;
        for (Operand o : kOperands)
            n += contains(o) ? 1 : 0;
        return n;
    }
    // The one operand of a single-operand set; nullopt for an empty or merged one.
    constexpr std::optional<Operand> single() const {
        if (size() != 1)
            return std::nullopt;
        return first();
    }
    // The first member in A, B, C, D, metadata order (a merged C/D view is drawn with C's letter).
    constexpr Operand first() const {
        for (Operand o : kOperands)
            if (contains(o))
                return o;
        return Operand::A;
    }
    constexpr OperandSet operator|(OperandSet other) const { return fromBits(m_bits | other.m_bits); }
    constexpr OperandSet operator&(OperandSet other) const { return fromBits(m_bits & other.m_bits); }
    friend constexpr bool operator==(OperandSet, OperandSet) = default;

    // The members, in A, B, C, D, metadata order: `for (Operand o : set.members())`.
    struct Members {
        Operand items[5]{};
        int count = 0;
        constexpr const Operand* begin() const { return items; }
        constexpr const Operand* end() const { return items + count; }
    };
    constexpr Members members() const {
        Members m;
        for (Operand o : kOperands)
            if (contains(o))
                m.items[m.count++] = o;
        return m;
    }

  private:
    static constexpr std::uint8_t bit(Operand o) {
        return static_cast<std::uint8_t>(1u << static_cast<unsigned>(o));
    }
    static constexpr OperandSet fromBits(std::uint8_t bits) {
        OperandSet s;
        s.m_bits = bits;
        return s;
    }
    std::uint8_t m_bits = 0;
};

// The accumulator views merge: C and D.
inline constexpr OperandSet kAccumulator{Operand::C, Operand::D};

// The label of a set: member names joined by '/' ("A", C/D, "metadata"); "" for the empty set.
std::string toString(OperandSet set);
// The same joined without a separator, for ids ("A", "CD").
std::string idOf(OperandSet set);
// One operand name (as parseOperand) or several joined by '/' (C/D, "c/d"); "CD" names C and D too.
// nullopt for anything else.
std::optional<OperandSet> parseOperandSet(std::string_view text);

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

// Who executes an instruction: a warp, a warpgroup, or (a tile of atoms, lanemap/tile.hpp) the warps of a
// CTA, whose threads count over the CTA (warp = thread / 32, lane = thread % 32).
enum class Scope : std::uint8_t { Warp, Warpgroup, Cta };

// Where a placement comes from. Layout tables say which document (text formula, figure, CUTLASS, inference);
// `Hardware` is never written in a table: the evidence overlay (evidence.hpp) reports it from recorded runs.
// `Discovered`: no document states the placement at all (wmma); a recorded discovery report observed it on a
// GPU of one SASS target (wmma.hpp).
enum class Source : std::uint8_t { Doc, Figure, Inferred, Cutlass, Hardware, Discovered };
inline constexpr int kSourceCount = 6;

std::string_view toString(Scope scope);
std::string_view toString(Source source);

} // namespace lanemap
