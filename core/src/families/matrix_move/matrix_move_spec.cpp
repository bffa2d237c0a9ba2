// The spec grammar of ldmatrix / stmatrix / movmatrix (docs/reference/spec-grammar.md): the short spec
// op.mMnN[.xN][.trans].type and the PTX string op.sync.aligned.mMnN[.xN][.trans][.shared{::cta}].type, both
// resolved to one catalog variant. `.shared::cta` and a missing state space canonicalize to `.shared`.

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/matrix_move.hpp"
#include "lanemap/spec.hpp"
#include "model/shape_word.hpp"

#include "families/matrix_move/matrix_move_spec.hpp"

#include <cctype>

namespace lanemap {

namespace {

bool isMoveShape(std::string_view t) {
    return detail::isShapeWord(t, "mn");
}

std::string validList(std::string_view op, const Catalog& catalog) {
    std::string s;
    for (const Variant* v : catalog.variants())
        if (const MatrixMove* mv = matrixMoveOf(*v); mv && toString(mv->op) == op)
            s += (s.empty() ? "" : ", ") + v->spec;
    return s;
}

} // namespace

ParsedSpec parseMatrixMoveSpec(std::string_view, const std::string& input, const Catalog& catalog) {
    ParsedSpec result;
    std::vector<std::string> tokens;
    for (std::size_t start = 0;;) {
        const std::size_t dot = input.find('.', start);
        tokens.push_back(input.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
        if (dot == std::string::npos)
            break;
        start = dot + 1;
    }
    const std::string op = tokens.front();
    std::string shape, num, format, error;
    bool trans = false, sync = false, aligned = false, shared = false;
    auto once = [&](bool& flag, const std::string& tok) {
        if (flag && error.empty())
            error = "'." + tok + "' given twice";
        flag = true;
    };
    for (std::size_t i = 1; i < tokens.size() && error.empty(); ++i) {
        const std::string& tok = tokens[i];
        if (tok.empty())
            error = "empty component (two dots in a row?)";
        else if (tok == "sync")
            once(sync, tok);
        else if (tok == "aligned")
            once(aligned, tok);
        else if (tok == "trans")
            once(trans, tok);
        else if (tok == "shared" || tok == "shared::cta")
            once(shared, tok);
        else if (isMoveShape(tok)) {
            if (!shape.empty())
                error = "two shapes given ('" + shape + "' and '" + tok + "')";
            shape = tok;
        } else if (tok == "x1" || tok == "x2" || tok == "x4") {
            if (!num.empty())
                error = "two counts given ('." + num + "' and '." + tok + "')";
            num = tok;
        } else if (tok == "b16" || tok == "b8" || tok == "b8x16" || tok == "b6x16_p32" ||
                   tok == "b4x16_p64") {
            format += (format.empty() ? "" : ".") + tok;
        } else {
            error = "unknown component '" + excerpt(tok, 32) +
                    "' (valid: .sync.aligned, a shape such as .m8n8, "
                    ".x1/.x2/.x4, .trans, .shared or .shared::cta, a type such as .b16)";
        }
    }
    if (error.empty() && sync != aligned)
        error = "a PTX string names both .sync and .aligned";
    if (error.empty() && shape.empty())
        error = "no shape given (e.g. m8n8)";
    if (error.empty() && format.empty())
        error = "no type given (e.g. b16)";
    if (error.empty() && op == "movmatrix" && (!num.empty() || shared))
        error = "movmatrix moves one matrix between registers: it takes no ." +
                (num.empty() ? std::string("shared") : num);
    if (error.empty() && op != "movmatrix" && num.empty())
        error = "no matrix count given: ." + op + " needs .x1, .x2 or .x4";
    std::string spec;
    if (error.empty()) {
        spec = op + "." + shape + (num.empty() ? "" : "." + num) + (trans ? ".trans" : "") + "." + format;
        if (const Variant* v = catalog.variant(spec)) {
            result.variant = v;
            result.form = v->forms.front();
            result.ptx = v->ptx;
            return result;
        }
        error = "no " + op + " variant " + spec + "; valid: " + validList(op, catalog);
    }
    result.suggestions = nearestSpecs(spec.empty() ? input : spec, catalog);
    result.error = "invalid spec '" + excerpt(input) + "': " + error;
    return result;
}

} // namespace lanemap
