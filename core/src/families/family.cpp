#include "family.hpp"

#include "lanemap/spec.hpp"

#include <array>

namespace lanemap::family {

namespace {
constexpr std::array kTypes{
    TypeInfo{"f16", 16, true},  TypeInfo{"bf16", 16, true}, TypeInfo{"tf32", 32, true},
    TypeInfo{"f32", 32, true},  TypeInfo{"f64", 64, true},  TypeInfo{"e4m3", 8, true},
    TypeInfo{"e5m2", 8, true},  TypeInfo{"e3m2", 6, true},  TypeInfo{"e2m3", 6, true},
    TypeInfo{"e2m1", 4, true},  TypeInfo{"s8", 8, false},   TypeInfo{"u8", 8, false},
    TypeInfo{"s4", 4, false},   TypeInfo{"u4", 4, false},   TypeInfo{"b1", 1, false},
    TypeInfo{"s32", 32, false},
};
} // namespace

const TypeInfo* typeInfo(std::string_view name) {
    for (const TypeInfo& t : kTypes)
        if (t.name == name) return &t;
    return nullptr;
}

int containerPad(std::string_view type, int containerBits) {
    if (containerBits == 8 && type == "e2m1") return 2;
    return 0;
}

FragmentLayout makeOperand(std::string name, std::string_view type, int threads, const Fragment& fragment,
                           int n) {
    const TypeInfo* info = typeInfo(type);
    const int container = fragment.shape.registerBits / fragment.shape.elementsPerRegister;
    const int bits = info ? info->bits : container;
    return FragmentLayout::build(std::move(name), std::string(type), bits, threads, fragment.shape,
                                 fragment.place, n, fragment.source, containerPad(type, container));
}

std::string mmaPtx(std::string_view shape, std::string_view alayout, std::string_view blayout,
                   std::string_view kind, std::string_view dtype, std::string_view atype,
                   std::string_view btype, std::string_view ctype, std::string_view familyName,
                   std::string_view b1op) {
    std::string s(familyName);
    s += ".sync.aligned.";
    s += shape;
    s += '.';
    s += alayout;
    s += '.';
    s += blayout;
    if (!kind.empty()) {
        s += ".kind::";
        s += kind;
    }
    for (std::string_view t : {dtype, atype, btype, ctype}) {
        s += '.';
        s += t;
    }
    if (atype == "b1") {
        s += '.';
        s += b1op;
        s += ".popc";
    }
    return s;
}

std::string shortSpec(std::string_view familyName, std::string_view shape, std::string_view layouts,
                      std::string_view kind, std::string_view atype, std::string_view ctype,
                      std::string_view dtype) {
    std::string s(familyName);
    (s += '.') += shape;
    if (!layouts.empty()) (s += '.') += layouts;
    if (!kind.empty()) (s += ".kind::") += kind;
    (s += '.') += atype;
    if (ctype != defaultCtype(atype) || dtype != ctype) (s += '.') += ctype;
    if (dtype != ctype) (s += '.') += dtype;
    return s;
}

std::vector<std::string> mixedPartners(std::string_view atype) {
    if (atype == "s8" || atype == "u8") return {"s8", "u8"};
    if (atype == "s4" || atype == "u4") return {"s4", "u4"};
    if (atype == "e4m3" || atype == "e5m2") return {"e4m3", "e5m2"};
    return {std::string(atype)};
}

} // namespace lanemap::family
