// The tcgen05 spec grammar (docs/reference/tcgen05.md#spec-grammar):
//   tcgen05.ld.SHAPE.xN[.pack::16b]        tcgen05.st.SHAPE.xN[.unpack::16b]
//   tcgen05.mma[.ws][.sp].cta_group::G.kind::K.mMnN[.lane16]
// and the PTX strings (.sync.aligned, .b32; an mma's M and N live in the instruction descriptor).

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tmem.hpp"

#include "families/tcgen05/tcgen05_spec.hpp"

#include <algorithm>
#include <charconv>

namespace lanemap {

namespace tmem {

namespace {

std::vector<std::string_view> words(std::string_view text) {
    std::vector<std::string_view> out;
    for (std::size_t start = 0;;) {
        const std::size_t dot = text.find('.', start);
        out.push_back(
            text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
        if (dot == std::string_view::npos)
            return out;
        start = dot + 1;
    }
}

// Decimal digits without a leading zero, as the ISA spells shapes and counts: `m0128n8` was read as m128n8
// while the other families refuse `m016n8k16`.
std::optional<int> number(std::string_view text) {
    int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty() || text[0] == '-' ||
        (text.size() > 1 && text[0] == '0'))
        return std::nullopt;
    return value;
}

// The opcode of what was typed or pasted: no surrounding blanks, no operands, no ';'
// ("tcgen05.mma.cta_group::1.kind::f16 [d], adesc, bdesc, idesc, p;").
std::string_view opcodeOf(std::string_view text) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    const std::size_t end = text.find_first_of(" \t\r\n;");
    return end == std::string_view::npos ? text : text.substr(0, end);
}

std::string shapeList() {
    std::string s;
    for (const Shape shape : kShapes)
        s += (s.empty() ? "." : ", .") + std::string(toString(shape));
    return s;
}

} // namespace

std::string specOf(const Access& a) {
    std::string s = "tcgen05." + std::string(toString(a.op)) + "." + std::string(toString(a.shape)) + ".x" +
                    std::to_string(a.num);
    if (a.packed)
        s += a.op == Op::Ld ? ".pack::16b" : ".unpack::16b";
    return s;
}

std::string specOf(const MmaShape& s, bool withN) {
    std::string spec = ptxStemOf(s) + ".m" + std::to_string(s.m);
    if (withN)
        spec += "n" + std::to_string(s.n);
    if (s.laneAlignment)
        spec += ".lane" + std::to_string(s.laneAlignment);
    return spec;
}

std::optional<Access> parseAccess(std::string_view text, Op op, std::string& error) {
    Access a;
    a.op = op;
    bool shape = false, num = false;
    std::string_view packWord;
    for (const std::string_view w : words(opcodeOf(text))) {
        if (w == "tcgen05" || w == "sync" || w == "aligned" || w == "b32")
            continue;
        if (w == "ld" || w == "st") {
            a.op = w == "ld" ? Op::Ld : Op::St;
        } else if (const auto s = parseShape(w)) {
            if (shape) {
                error = "two shapes given";
                return std::nullopt;
            }
            a.shape = *s;
            shape = true;
        } else if (w.size() > 1 && w[0] == 'x' && number(w.substr(1))) {
            if (num) {
                error = "two .num given";
                return std::nullopt;
            }
            a.num = *number(w.substr(1));
            num = true;
        } else if (w == "pack::16b" || w == "unpack::16b") {
            a.packed = true;
            packWord = w;
        } else {
            error = "unknown component '" + excerpt(w, 32) + "' (valid: a shape " + shapeList() +
                    ", a .num .x1 ... .x128, .pack::16b (ld) or .unpack::16b (st))";
            return std::nullopt;
        }
    }
    if (!shape) {
        error = "no data-path shape given; valid: " + shapeList();
        return std::nullopt;
    }
    if (!num) {
        error = "no .num given; valid for ." + std::string(toString(a.shape)) + ": .x1 ... .x" +
                std::to_string(recordOf(a.shape).maxNum);
        return std::nullopt;
    }
    if (a.packed && (packWord == "unpack::16b") != (a.op == Op::St)) {
        error = a.op == Op::Ld ? "tcgen05.ld takes .pack::16b (.unpack::16b is tcgen05.st's)"
                               : "tcgen05.st takes .unpack::16b (.pack::16b is tcgen05.ld's)";
        return std::nullopt;
    }
    if (std::string why = validate(a); !why.empty()) {
        error = why;
        return std::nullopt;
    }
    return a;
}

std::optional<MmaShape> parseMma(std::string_view text, std::string& error,
                                 std::optional<tcgen05::ScaleVec>* scaleVec) {
    MmaShape s;
    bool kind = false, group = false, shape = false;
    std::string_view vecWord; // .scale_vec::NX, .block16, .block32: read once the kind is known
    const std::vector<std::string_view> ws = words(opcodeOf(text));
    if (ws.size() < 2 || ws[0] != "tcgen05" || ws[1] != "mma") {
        error = "an mma spec starts with tcgen05.mma";
        return std::nullopt;
    }
    for (std::size_t i = 2; i < ws.size(); ++i) {
        const std::string_view w = ws[i];
        if (w == "ws")
            s.ws = true;
        else if (w == "sp")
            s.sparse = true;
        else if (w == "sync" || w == "aligned" || w == "block_scale")
            continue;
        else if (w == "block16" || w == "block32" || w.rfind("scale_vec::", 0) == 0)
            vecWord = w; // the scale factors' vector size, not where D sits
        else if (w.rfind("cta_group::", 0) == 0) {
            const auto g = number(w.substr(11));
            if (!g || (*g != 1 && *g != 2)) {
                error = "invalid ." + std::string(w) + "; valid: .cta_group::1, .cta_group::2";
                return std::nullopt;
            }
            s.ctaGroup = *g;
            group = true;
        } else if (w.rfind("kind::", 0) == 0) {
            const auto k = parseMmaKind(w.substr(6));
            if (!k) {
                std::string valid;
                for (const MmaKind v : kMmaKinds)
                    valid += (valid.empty() ? ".kind::" : ", .kind::") + std::string(toString(v));
                error = "invalid ." + excerpt(w, 32) + "; valid: " + valid;
                return std::nullopt;
            }
            s.kind = *k;
            kind = true;
        } else if (w.rfind("lane", 0) == 0 && number(w.substr(4))) {
            s.laneAlignment = *number(w.substr(4));
        } else if (w.size() > 1 && w[0] == 'm') {
            const std::size_t npos = w.find('n');
            const auto m = number(w.substr(1, npos == std::string_view::npos ? npos : npos - 1));
            const auto n = npos == std::string_view::npos ? std::optional<int>() : number(w.substr(npos + 1));
            // N = 0 is no shape: leaving N out (m128) means the largest N, `n0` silently meant the same.
            if (!m || (npos != std::string_view::npos && (!n || *n == 0))) {
                error = "invalid shape '" + excerpt(w, 32) + "' (e.g. m128n256, or m128 for the largest N)";
                return std::nullopt;
            }
            s.m = *m;
            s.n = n.value_or(0);
            shape = true;
        } else {
            error = "unknown component '" + excerpt(w, 32) +
                    "' (valid: .ws, .sp, .cta_group::1/2, .kind::K, a shape such as .m128n256, .lane16)";
            return std::nullopt;
        }
    }
    if (!group) {
        error = "no .cta_group given; valid: .cta_group::1, .cta_group::2";
        return std::nullopt;
    }
    if (!kind) {
        error = "no .kind given (e.g. .kind::f16)";
        return std::nullopt;
    }
    if (!shape) { // the PTX string: M and N are in the instruction descriptor; the largest N is chosen below
        s.m = s.ws ? 128 : 128 * s.ctaGroup;
        s.n = 0;
    }
    if (s.n == 0) {
        std::string ignored;
        if (selectLayout(s.m, s.ctaGroup, s.ws, s.sparse, &ignored))
            s.n = validN(s).last;
    }
    if (std::string why = validate(s); !why.empty()) {
        error = why;
        return std::nullopt;
    }
    if (!vecWord.empty()) {
        const std::optional<tcgen05::ScaleVec> vec = tcgen05::parseScaleVec(vecWord, s.kind);
        const std::vector<tcgen05::ScaleVec> valid = tcgen05::scaleVecsOf(s.kind);
        if (!vec || std::find(valid.begin(), valid.end(), *vec) == valid.end()) {
            std::string names;
            for (const tcgen05::ScaleVec v : valid)
                names += (names.empty() ? "." : ", .") + std::string(tcgen05::toString(v));
            error = "invalid ." + excerpt(vecWord, 32) + " for .kind::" + std::string(toString(s.kind)) +
                    (valid.empty() ? " (a kind without block scaling takes no vector size)"
                                   : "; valid: " + names);
            return std::nullopt;
        }
        if (scaleVec)
            *scaleVec = vec;
    }
    return s;
}

} // namespace tmem

bool isTcgen05Text(std::string_view text) {
    return text.rfind("tcgen05.", 0) == 0;
}

ParsedSpec parseTcgen05Spec(std::string_view, const std::string& input, const Catalog& catalog) {
    ParsedSpec result;
    std::string error, spec;
    std::optional<tcgen05::ScaleVec> vec; // a block-scaled PTX string's .scale_vec::NX
    if (input.rfind("tcgen05.mma", 0) == 0) {
        if (const auto s = tmem::parseMma(input, error, &vec)) {
            spec = tmem::specOf(*s, false);
            result.params.n = s->n;
            if (vec) // the scale factors a view of it shows (IDs 0)
                result.params.blockScale = tcgen05::BlockScale{*vec, 0, 0};
        }
    } else if (input.rfind("tcgen05.ld.", 0) == 0 || input.rfind("tcgen05.st.", 0) == 0) {
        if (const auto a = tmem::parseAccess(input, tmem::Op::Ld, error))
            spec = tmem::specOf(*a);
    } else {
        error =
            "a tcgen05 spec starts with tcgen05.ld, tcgen05.st or tcgen05.mma (tcgen05.cp, .shift and the "
            "others are not in the catalog)";
    }
    if (!spec.empty()) {
        if (const Variant* v = catalog.variant(spec)) {
            result.variant = v;
            result.form = v->forms.front();
            result.ptx = v->ptx;
            return result;
        }
        error = "no catalog variant " + spec;
    }
    result.error = "invalid spec '" + excerpt(input) + "': " + error;
    return result;
}

} // namespace lanemap
