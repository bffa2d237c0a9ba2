#include "model/ptx_rules.hpp"

#include "lanemap/excerpt.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace lanemap::ptx_rules {

namespace {

using T = ElementType;

std::vector<std::string> splitDots(const std::string& s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = s.find('.', start);
        out.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            return out;
        start = dot + 1;
    }
}

bool isDataType(const std::string& token) {
    const std::optional<ElementType> t = parseElementType(token);
    return t && *t != T::UE8M0 && *t != T::UE4M3; // scale-factor types come after the data types
}

// Positions of the data types (d, a, b[, c]) in a token list.
std::vector<std::size_t> typePositions(const std::vector<std::string>& tokens) {
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (isDataType(tokens[i]))
            at.push_back(i);
    return at;
}

bool isInteger(const std::string& type) {
    return type == "s8" || type == "u8" || type == "s4" || type == "u4";
}

// Optional PTX qualifiers the catalog's spellings leave out, with the types they apply to.
struct Optional {
    std::array<const char*, 4> names;
    bool (*applies)(const std::string& atype);
    const char* rule;
};
const std::array kOptional{
    Optional{{"satfinite", nullptr, nullptr, nullptr},
             isInteger,
             "only integer (s8, u8, s4, u4) mma and wgmma saturate"},
    Optional{{"rn", "rz", "rm", "rp"},
             [](const std::string& a) { return a == "f64"; },
             "rounding applies only to .f64 mma"},
};

const Optional* optionalOf(const std::string& token) {
    for (const Optional& o : kOptional)
        for (const char* name : o.names)
            if (name && token == name)
                return &o;
    return nullptr;
}

// The steps of a real string that a user may leave out as a group (`mma.m16n8k16.row.col.f32.f16.f16.f32`).
bool isSyncStep(const std::string& token) {
    return token == "sync" || token == "aligned" || token == "mma_async";
}

} // namespace

std::vector<ElementType> allowedBTypes(ElementType atype, const std::string& kind) {
    if (kind == "f8f6f4" || kind == "mxf8f6f4")
        return {T::E4M3, T::E5M2, T::E3M2, T::E2M3, T::E2M1};
    std::vector<ElementType> out;
    for (ElementType b : {T::F16, T::BF16, T::TF32, T::F32, T::F64, T::E4M3, T::E5M2, T::E3M2, T::E2M3,
                          T::E2M1, T::S8, T::U8, T::S4, T::U4, T::S32, T::B1})
        if (b == atype || (kind.empty() && sameMixGroup(atype, b)))
            out.push_back(b);
    return out;
}

std::string checkShortSpec(const std::vector<std::string>& tokens) {
    // Slots in grammar order: family suffix (.sp), shape, layouts, kind, types.
    int last = 0;
    bool kind = false;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        int slot = 0;
        if (t == "sp" || t.rfind("sp::", 0) == 0)
            slot = 1;
        else if (!t.empty() && t[0] == 'm' && t.find('n') != std::string::npos &&
                 t.find('k') != std::string::npos && std::isdigit(static_cast<unsigned char>(t[1])))
            slot = 2;
        else if (t == "row" || t == "col")
            slot = 3;
        else if (t.rfind("kind::", 0) == 0) {
            if (t.size() == 6)
                return "empty '.kind::' (e.g. .kind::f8f6f4)";
            if (kind)
                return "'." + excerpt(t, 32) + "' is a second .kind";
            kind = true;
            slot = 4;
        } else if (isDataType(t))
            slot = 5;
        else if (optionalOf(t) || t == "popc" || t == "xor" || t == "and" || t == "block_scale" ||
                 t.rfind("scale_vec::", 0) == 0 || t == "ue8m0" || t == "ue4m3")
            return "qualifier '." + t +
                   "' belongs to full PTX strings (e.g. mma.sync.aligned...), not to short specs";
        else
            continue; // unknown components are reported by the tokenizer
        if (slot < last)
            return "qualifier '." + excerpt(t, 32) +
                   "' is out of order; a spec is family.shape[.layouts][.kind::K].atype[.ctype[.dtype]]";
        last = slot;
    }
    return {};
}

std::string checkPtx(const std::vector<std::string>& tokens, const Variant& v, Form& form) {
    const std::string atype(toString(v.atype));
    const std::string kind(toString(v.kind));
    // 1. Optional qualifiers: only where they apply, at most once, anywhere after the shape (ptxas accepts
    // both orders the manual uses).
    std::vector<std::string> rest;
    std::vector<const Optional*> seen;
    for (const std::string& t : tokens) {
        if (t.rfind("kind::", 0) == 0 && t.size() == 6)
            return "empty '.kind::' (e.g. .kind::f8f6f4)";
        if (const Optional* o = optionalOf(t)) {
            if (!o->applies(atype))
                return "qualifier '." + t + "' does not apply to " + v.spec + ": " + o->rule;
            if (std::find(seen.begin(), seen.end(), o) != seen.end())
                return "qualifier '." + t + "' given twice (or with another of its kind)";
            seen.push_back(o);
            continue;
        }
        rest.push_back(t);
    }
    // 2. The B type: PTX lets some types mix; the rest of the comparison is on A's type.
    const std::vector<std::size_t> at = typePositions(rest);
    const bool warpgroup = v.scope == Scope::Warpgroup;
    const std::size_t expectedTypes = warpgroup ? 3 : 4;
    if (at.size() != expectedTypes)
        return std::string(warpgroup ? "a PTX wgmma string names three types (.dtype.atype.btype)"
                                     : "a PTX mma string names four types (.dtype.atype.btype.ctype)") +
               "; got " + std::to_string(at.size());
    const std::string typedA = rest[at[1]], typedB = rest[at[2]];
    if (typedA != atype)
        return "A type '." + typedA + "' does not match " + v.spec;
    const ElementType a = *parseElementType(typedA), b = *parseElementType(typedB);
    if (b != a) {
        const std::vector<ElementType> allowed = allowedBTypes(a, kind);
        if (std::find(allowed.begin(), allowed.end(), b) == allowed.end()) {
            std::string list;
            for (ElementType t : allowed)
                list += (list.empty() ? "." : ", .") + std::string(toString(t));
            return "B type '." + typedB + "' cannot go with A type '." + typedA + "'" +
                   (kind.empty() ? "" : " under .kind::" + kind) + "; valid B types: " + list;
        }
        rest[at[2]] = typedA;
    }
    // 3. Everything else, in order, against the variant's own spellings.
    const bool userSync = std::any_of(rest.begin(), rest.end(), isSyncStep);
    std::vector<std::vector<std::string>> spellings;
    for (const Form& f : v.forms) {
        std::string lowered = ptxOf(v, f);
        for (char& c : lowered)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::vector<std::string> t = splitDots(lowered);
        const std::vector<std::size_t> sat = typePositions(t);
        if (sat.size() == expectedTypes)
            t[sat[2]] = t[sat[1]];
        if (!userSync)
            t.erase(std::remove_if(t.begin(), t.end(), isSyncStep), t.end());
        spellings.push_back(std::move(t));
    }
    if (spellings.empty())
        return "no PTX spelling known for " + v.spec;
    const std::vector<std::string>* best = nullptr;
    std::size_t bestPrefix = 0;
    for (const std::vector<std::string>& s : spellings) {
        if (s == rest) {
            best = &s;
            bestPrefix = s.size() + 1;
            break;
        }
        std::size_t p = 0;
        while (p < s.size() && p < rest.size() && s[p] == rest[p])
            ++p;
        if (!best || p > bestPrefix) {
            best = &s;
            bestPrefix = p;
        }
    }
    if (bestPrefix <= best->size()) {
        if (bestPrefix < rest.size())
            return "qualifier '." + excerpt(rest[bestPrefix], 32) + "' is not valid here" +
                   (bestPrefix < best->size() ? " (expected '." + (*best)[bestPrefix] + "')" : "") + "; " +
                   v.spec + " is spelled " + v.ptx;
        return "missing '." + (*best)[bestPrefix] + "' after '." + rest[bestPrefix - 1] + "'; " + v.spec +
               " is spelled " + v.ptx;
    }
    // The matched spelling's form (b1 operation, scale vector and type), with B as typed.
    form = v.forms[static_cast<std::size_t>(best - spellings.data())];
    form.atype = a;
    form.btype = b;
    return {};
}

Form canonicalForm(const Variant& v) {
    if (!v.forms.empty())
        return v.forms.front();
    Form form;
    form.atype = v.atype;
    form.btype = v.btype;
    return form;
}

} // namespace lanemap::ptx_rules
