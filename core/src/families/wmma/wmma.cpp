// wmma (PTX ISA §9.7.14.4): one row per fragment table entry of the ISA. The ISA states shapes, types, which
// layouts each takes and how many registers each fragment has; it states no placement ("the distribution of
// fragments loaded by the threads in a warp is unspecified and is target architecture dependent"), so this
// table holds none: placements come from discovery reports (wmma_discovery.cpp).

#include "lanemap/wmma.hpp"
#include "families/wmma/wmma_table.hpp"

#include <string>

namespace lanemap::wmma {

namespace {
using enum ElementType;
constexpr const char* kSection = "9.7.14.4";
constexpr const char* kAnchor = "warp-level-matrix-instructions-wmma-mma";
// The table is built on first use, not before main: every command starts, few read wmma.
const std::vector<WmmaAtom>& atomTable() {
    static const std::vector<Major> kBoth{Major::Row, Major::Col};
    static const std::vector<Major> kRow{Major::Row};
    static const std::vector<Major> kCol{Major::Col};
    // Register counts per lane: §9.7.14.4.1 (A/B: .f16x2 or .b32 registers; C/D: .f16x2, .f32, .s32, .f64 —
    // an .f64 register counts as two words here).
    static const std::vector<WmmaAtom> kAtoms{
        // m   n   k   types       accumulators          A  B  A layouts B layouts min SM
        {16, 16, 16, {F16}, {{F32, 8}, {F16, 4}}, 8, 8, kBoth, kBoth, 70, kSection, kAnchor},
        {32, 8, 16, {F16}, {{F32, 8}, {F16, 4}}, 8, 8, kBoth, kBoth, 70, kSection, kAnchor},
        {8, 32, 16, {F16}, {{F32, 8}, {F16, 4}}, 8, 8, kBoth, kBoth, 70, kSection, kAnchor},
        {16, 16, 16, {BF16}, {{F32, 8}}, 4, 4, kBoth, kBoth, 80, kSection, kAnchor},
        {32, 8, 16, {BF16}, {{F32, 8}}, 8, 2, kBoth, kBoth, 80, kSection, kAnchor},
        {8, 32, 16, {BF16}, {{F32, 8}}, 2, 8, kBoth, kBoth, 80, kSection, kAnchor},
        {16, 16, 8, {TF32}, {{F32, 8}}, 4, 4, kBoth, kBoth, 80, kSection, kAnchor},
        {16, 16, 16, {S8, U8}, {{S32, 8}}, 2, 2, kBoth, kBoth, 72, kSection, kAnchor},
        {32, 8, 16, {S8, U8}, {{S32, 8}}, 4, 1, kBoth, kBoth, 72, kSection, kAnchor},
        {8, 32, 16, {S8, U8}, {{S32, 8}}, 1, 4, kBoth, kBoth, 72, kSection, kAnchor},
        {8, 8, 32, {S4, U4}, {{S32, 2}}, 1, 1, kRow, kCol, 75, kSection, kAnchor},
        {8, 8, 128, {B1}, {{S32, 2}}, 1, 1, kRow, kCol, 75, kSection, kAnchor},
        {8, 8, 4, {F64}, {{F64, 4}}, 2, 2, kBoth, kBoth, 80, kSection, kAnchor},
    };
    return kAtoms;
}

std::string_view majorName(Major m) {
    return m == Major::Row ? "row" : "col";
}
std::string_view operandLetter(Operand o) {
    return o == Operand::A ? "a" : o == Operand::B ? "b" : "c";
}
} // namespace

std::span<const WmmaAtom> atoms() {
    return atomTable();
}

int FragmentForm::rows() const {
    return operand == Operand::A ? m : operand == Operand::B ? k : m;
}
int FragmentForm::cols() const {
    return operand == Operand::A ? k : n;
}
int FragmentForm::elementBits() const {
    // tf32 travels in 32-bit containers (wmma.load.a .tf32 fills .b32 registers with one element each).
    return type == TF32 ? 32 : traits(type).bits;
}
int FragmentForm::elementsPerLane() const {
    return words * 32 / elementBits();
}
int FragmentForm::elementsPerWord() const {
    return elementBits() > 32 ? 0 : 32 / elementBits();
}

std::string FragmentForm::key() const {
    std::string s = "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
    ((s += '.') += operandLetter(operand)) += '.';
    (s += majorName(layout)) += '.';
    return s += toString(type);
}

std::string FragmentForm::ptxLoad() const {
    std::string s = "wmma.load.";
    (s += operandLetter(operand)) += ".sync.aligned.";
    (s += majorName(layout)) += ".m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
    return (s += '.') += toString(type);
}

std::string FragmentForm::cudaName() const {
    std::string use = operand == Operand::A ? "matrix_a" : operand == Operand::B ? "matrix_b" : "accumulator";
    std::string t;
    switch (type) {
    case F16:
        t = "half";
        break;
    case BF16:
        t = "__nv_bfloat16";
        break;
    case TF32:
        t = "precision::tf32";
        break;
    case F32:
        t = "float";
        break;
    case F64:
        t = "double";
        break;
    case S8:
        t = "signed char";
        break;
    case U8:
        t = "unsigned char";
        break;
    case S32:
        t = "int";
        break;
    case S4:
        t = "experimental::precision::s4";
        break;
    case U4:
        t = "experimental::precision::u4";
        break;
    case B1:
        t = "experimental::precision::b1";
        break;
    default:
        t = std::string(toString(type));
    }
    std::string s = "wmma::fragment<" + use + ", " + std::to_string(m) + ", " + std::to_string(n) + ", " +
                    std::to_string(k) + ", " + t;
    if (operand != Operand::C)
        (s += ", ") += layout == Major::Row ? "row_major" : "col_major";
    return s + ">";
}

const std::vector<FragmentForm>& fragmentForms() {
    static const std::vector<FragmentForm> forms = [] {
        std::vector<FragmentForm> out;
        auto add = [&out](const FragmentForm& f) {
            for (const FragmentForm& seen : out)
                if (seen == f)
                    return;
            out.push_back(f);
        };
        for (const WmmaAtom& a : atomTable()) {
            for (ElementType t : a.types) {
                for (Major l : a.aLayouts)
                    add({Operand::A, a.m, a.n, a.k, t, l, a.aWords});
                for (Major l : a.bLayouts)
                    add({Operand::B, a.m, a.n, a.k, t, l, a.bWords});
            }
            // wmma.load.c takes .row and .col for every accumulator.
            for (const AccumulatorWords& c : a.accumulators)
                for (Major l : {Major::Row, Major::Col})
                    add({Operand::C, a.m, a.n, a.k, c.type, l, c.words});
        }
        return out;
    }();
    return forms;
}

std::optional<FragmentForm> formOfKey(std::string_view key) {
    for (const FragmentForm& f : fragmentForms())
        if (f.key() == key)
            return f;
    return std::nullopt;
}

std::optional<FragmentForm> formOf(const Variant& v, Operand operand) {
    if (!v.family || v.family->name != "wmma") // the family's own row (wmma_catalog.cpp)
        return std::nullopt;
    for (const FragmentForm& f : fragmentForms()) {
        if (f.m != v.m || f.n != v.n || f.k != v.k)
            continue;
        const bool match =
            operand == Operand::A   ? f.operand == Operand::A && f.type == v.atype && f.layout == v.alayout
            : operand == Operand::B ? f.operand == Operand::B && f.type == v.btype && f.layout == v.blayout
                                    : f.operand == Operand::C && f.type == v.ctype && f.layout == Major::Row;
        if (match)
            return f;
    }
    return std::nullopt;
}

} // namespace lanemap::wmma
