// Forms of a variant, derived from its PTX strings (see forms.hpp: this adapter goes with the typed core
// model).
#include "forms.hpp"

#include <cctype>
#include <stdexcept>

namespace lanemap::gpu {

namespace {

std::vector<std::string> splitDots(std::string_view s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t dot = s.find('.', start);
        out.emplace_back(
            s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos)
            return out;
        start = dot + 1;
    }
}

bool isShape(const std::string& tok) {
    return tok.size() > 4 && tok[0] == 'm' && std::isdigit(static_cast<unsigned char>(tok[1])) &&
           tok.find('n') != std::string::npos && tok.find('k') != std::string::npos;
}

// mma:
// `mma{.sp}.sync.aligned.<shape>.<alayout>.<blayout>[.kind::k][.block_scale...].<d>.<a>.<b>.<c>[.op.popc]`
// wgmma: `wgmma.mma_async{.sp}.sync.aligned.<shape>.<d>.<a>.<b>[.op.popc]`
lanemap::Form formOfPtx(const std::string& ptx) {
    const std::vector<std::string> tok = splitDots(ptx);
    std::size_t i = 0;
    while (i < tok.size() && !isShape(tok[i]))
        ++i;
    if (tok.empty() || tok[0] != "wgmma")
        i += 2; // mma: the operand layouts follow the shape
    ++i;
    lanemap::Form f;
    for (; i < tok.size(); ++i) {
        const std::string& q = tok[i];
        if (q == "block_scale") {
            f.scaleVec = ScaleVec::Default;
        } else if (q.rfind("scale_vec::", 0) == 0) {
            const char n = q.size() > 11 ? q[11] : '?';
            f.scaleVec = n == '1' ? ScaleVec::X1 : n == '2' ? ScaleVec::X2 : ScaleVec::X4;
        } else if (q.rfind("kind::", 0) != 0) {
            break;
        }
    }
    if (i + 2 >= tok.size())
        throw std::logic_error("probe: cannot read the types of " + ptx);
    f.atype = elementTypeOf(tok[i + 1]);
    f.btype = elementTypeOf(tok[i + 2]);
    for (std::size_t j = i + 3; j < tok.size(); ++j) {
        if (tok[j] == "xor")
            f.b1 = B1Op::Xor;
        if (tok[j] == "and")
            f.b1 = B1Op::And;
        // Block scaling names the scale factors' type last (after C).
        if (f.scaleVec != ScaleVec::None && j == i + 4)
            if (const std::optional<ElementType> t = parseElementType(tok[j]))
                f.scaleType = *t;
    }
    return f;
}

} // namespace

ElementType elementTypeOf(std::string_view name) {
    if (const std::optional<ElementType> t = parseElementType(name))
        return *t;
    throw std::logic_error("probe: unknown element type '" + std::string(name) + "'");
}

std::vector<lanemap::Form> variantForms(const Variant& v) {
    std::vector<lanemap::Form> out{formOfPtx(v.ptx)};
    for (const std::string& alias : v.ptxAliases)
        out.push_back(formOfPtx(alias));
    return out;
}

std::string ptxOf(const Variant& v, const lanemap::Form& form) {
    if (formOfPtx(v.ptx) == form)
        return v.ptx;
    for (const std::string& alias : v.ptxAliases)
        if (formOfPtx(alias) == form)
            return alias;
    throw std::logic_error("probe: " + v.spec + " has no form with A ." + std::string(toString(form.atype)) +
                           " and B ." + std::string(toString(form.btype)));
}

} // namespace lanemap::gpu
