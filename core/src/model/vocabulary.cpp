#include "lanemap/vocabulary.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <ostream>
#include <utility>

namespace lanemap {

namespace {
using T = ElementType;
// clang-format off
constexpr std::array kTraits{
    //           type     name     bits  float  signed  encoding of 1            default accumulator
    ElementTraits{T::F16,   "f16",   16,  true,  false, 0x3C00,                   T::F32},
    ElementTraits{T::BF16,  "bf16",  16,  true,  false, 0x3F80,                   T::F32},
    ElementTraits{T::TF32,  "tf32",  32,  true,  false, 0x3F800000,               T::F32},
    ElementTraits{T::F32,   "f32",   32,  true,  false, 0x3F800000,               T::F32},
    ElementTraits{T::F64,   "f64",   64,  true,  false, 0x3FF0000000000000ull,    T::F64},
    ElementTraits{T::E4M3,  "e4m3",   8,  true,  false, 0x38, /* 0 0111 000 */    T::F32},
    ElementTraits{T::E5M2,  "e5m2",   8,  true,  false, 0x3C, /* 0 01111 00 */    T::F32},
    ElementTraits{T::E3M2,  "e3m2",   6,  true,  false, 0x0C, /* 0 011 00 */      T::F32},
    ElementTraits{T::E2M3,  "e2m3",   6,  true,  false, 0x08, /* 0 01 000 */      T::F32},
    ElementTraits{T::E2M1,  "e2m1",   4,  true,  false, 0x2,  /* 0 01 0 */        T::F32},
    ElementTraits{T::S8,    "s8",     8,  false, true,  1,                        T::S32},
    ElementTraits{T::U8,    "u8",     8,  false, false, 1,                        T::S32},
    ElementTraits{T::S4,    "s4",     4,  false, true,  1,                        T::S32},
    ElementTraits{T::U4,    "u4",     4,  false, false, 1,                        T::S32},
    ElementTraits{T::S32,   "s32",   32,  false, true,  1,                        T::S32},
    ElementTraits{T::B1,    "b1",     1,  false, false, 1,                        T::S32},
    ElementTraits{T::UE8M0, "ue8m0",  8,  true,  false, 0x7F, /* 2^0 */           T::F32},
    ElementTraits{T::UE4M3, "ue4m3",  8,  true,  false, 0x38, /* 0111 000 */      T::F32},
};
// clang-format on

bool equalNoCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}
} // namespace

const ElementTraits& traits(ElementType type) {
    return kTraits[static_cast<std::size_t>(type)];
}

std::string_view toString(ElementType type) {
    return traits(type).name;
}

std::optional<ElementType> parseElementType(std::string_view name) {
    for (const ElementTraits& t : kTraits)
        if (t.name == name)
            return t.type;
    return std::nullopt;
}

bool sameMixGroup(ElementType a, ElementType b) {
    auto group = [](ElementType t) {
        switch (t) {
        case T::S8:
        case T::U8:
            return 1;
        case T::S4:
        case T::U4:
            return 2;
        case T::E4M3:
        case T::E5M2:
            return 3;
        default:
            return 0;
        }
    };
    return a == b || (group(a) != 0 && group(a) == group(b));
}

std::string_view toString(Operand operand) {
    switch (operand) {
    case Operand::A:
        return "A";
    case Operand::B:
        return "B";
    case Operand::C:
        return "C";
    case Operand::D:
        return "D";
    case Operand::Metadata:
        return "metadata";
    }
    return "?";
}

namespace {
constexpr std::pair<Kind, std::string_view> kKindNames[] = {
    {Kind::F16, "f16"},           {Kind::TF32, "tf32"}, {Kind::F8F6F4, "f8f6f4"},    {Kind::I8, "i8"},
    {Kind::MXF8F6F4, "mxf8f6f4"}, {Kind::MXF4, "mxf4"}, {Kind::MXF4NVF4, "mxf4nvf4"}};
} // namespace

std::string_view toString(Kind kind) {
    for (const auto& [k, name] : kKindNames)
        if (k == kind)
            return name;
    return ""; // None
}

std::optional<Kind> parseKind(std::string_view text) {
    for (std::string_view prefix : {".kind::", "kind::"})
        if (text.size() >= prefix.size() && equalNoCase(text.substr(0, prefix.size()), prefix)) {
            text.remove_prefix(prefix.size());
            break;
        }
    for (const auto& [k, name] : kKindNames)
        if (equalNoCase(text, name))
            return k;
    return std::nullopt;
}

std::optional<Operand> parseOperand(std::string_view name) {
    for (Operand o : kOperands)
        if (equalNoCase(name, toString(o)))
            return o;
    return std::nullopt;
}

std::string toString(OperandSet set) {
    std::string s;
    for (Operand o : set.members())
        (s += s.empty() ? "" : "/") += toString(o);
    return s;
}

std::string idOf(OperandSet set) {
    std::string s;
    for (Operand o : set.members())
        s += toString(o);
    return s;
}

std::optional<OperandSet> parseOperandSet(std::string_view text) {
    if (const std::optional<Operand> one = parseOperand(text))
        return OperandSet(*one);
    if (equalNoCase(text, idOf(kAccumulator)))
        return kAccumulator;
    OperandSet set;
    while (!text.empty()) {
        const std::size_t slash = text.find('/');
        const std::optional<Operand> o = parseOperand(text.substr(0, slash));
        if (!o || set.contains(*o))
            return std::nullopt;
        set = set | *o;
        text = slash == std::string_view::npos ? std::string_view() : text.substr(slash + 1);
        if (slash != std::string_view::npos && text.empty())
            return std::nullopt; // "C/"
    }
    if (set.empty())
        return std::nullopt;
    return set;
}

std::string_view toString(ScaleVec vec) {
    switch (vec) {
    case ScaleVec::None:
        return "";
    case ScaleVec::Default:
        return ".block_scale";
    case ScaleVec::X1:
        return ".block_scale.scale_vec::1X";
    case ScaleVec::X2:
        return ".block_scale.scale_vec::2X";
    case ScaleVec::X4:
        return ".block_scale.scale_vec::4X";
    }
    return "";
}

std::string_view toString(Verdict verdict) {
    switch (verdict) {
    case Verdict::Pass:
        return "pass";
    case Verdict::Fail:
        return "fail";
    case Verdict::Unsupported:
        return "unsupported";
    }
    return "?";
}

std::optional<Verdict> parseVerdict(std::string_view name) {
    for (Verdict v : {Verdict::Pass, Verdict::Fail, Verdict::Unsupported})
        if (name == toString(v))
            return v;
    return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, Operand operand) {
    return out << toString(operand);
}
std::ostream& operator<<(std::ostream& out, ElementType type) {
    return out << toString(type);
}
std::ostream& operator<<(std::ostream& out, Verdict verdict) {
    return out << toString(verdict);
}

} // namespace lanemap
