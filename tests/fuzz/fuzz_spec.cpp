// Fuzz target: the spec parser must never crash, whatever it accepts must round-trip, and an accepted PTX
// string must obey the ISA's qualifier rules (checked here independently of the parser's own rule code).
#include "lanemap/catalog.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/vocabulary.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

// The data types of the opcode in input order (scale-factor types left out).
std::vector<lanemap::ElementType> typesOf(std::string_view text) {
    std::string s(text.substr(0, text.find_first_of(" \t\r\n")));
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<lanemap::ElementType> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = s.find('.', start);
        std::string token = s.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        while (!token.empty() && token.back() == ';')
            token.pop_back();
        if (const auto t = lanemap::parseElementType(token))
            if (*t != lanemap::ElementType::UE8M0 && *t != lanemap::ElementType::UE4M3)
                out.push_back(*t);
        if (dot == std::string::npos)
            return out;
        start = dot + 1;
    }
}

// The ISA's mixes: s8/u8, s4/u4, e4m3/e5m2 without .kind; any f8f6f4 type with .kind::(mx)f8f6f4.
bool mixAllowed(lanemap::ElementType a, lanemap::ElementType b, const std::string& kind) {
    using T = lanemap::ElementType;
    const auto f8f6f4 = [](T t) {
        return t == T::E4M3 || t == T::E5M2 || t == T::E3M2 || t == T::E2M3 || t == T::E2M1;
    };
    if (kind == "f8f6f4" || kind == "mxf8f6f4")
        return f8f6f4(a) && f8f6f4(b);
    return a == b || (kind.empty() && lanemap::sameMixGroup(a, b));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const lanemap::Catalog& catalog = lanemap::Catalog::instance();
    const lanemap::ParsedSpec parsed = lanemap::parseSpec(text, catalog);
    if (parsed) {
        const lanemap::Variant& v = *parsed.variant;
        // Accepted input names a real variant whose canonical spec and PTX parse back to it.
        if (lanemap::parseSpec(v.spec, catalog).variant != &v)
            std::abort();
        if (lanemap::parseSpec(v.ptx, catalog).variant != &v)
            std::abort();
        // The typed form's own PTX string parses back to the same variant and form.
        const lanemap::ParsedSpec again = lanemap::parseSpec(parsed.ptx, catalog);
        if (again.variant != &v || !(again.form == parsed.form))
            std::abort();
        // A PTX string's types obey the ISA: A is the variant's, B a type PTX lets go with it.
        const std::vector<lanemap::ElementType> types = typesOf(text);
        const std::size_t ptxTypes = v.scope == lanemap::Scope::Warpgroup ? 3 : 4;
        if (types.size() == ptxTypes) {
            if (types[1] != v.atype)
                std::abort();
            if (!mixAllowed(types[1], types[2], std::string(lanemap::toString(v.kind))))
                std::abort();
            if (types[0] != v.dtype)
                std::abort();
        }
        if (types.size() > ptxTypes)
            std::abort();
    } else if (parsed.error.empty()) {
        std::abort(); // a rejection always says why
    }
    return 0;
}
