#include "lanemap/spec.hpp"
#include "model/shape_word.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"

#include "families/matrix_move/matrix_move_spec.hpp"
#include "families/tcgen05/tcgen05_spec.hpp"
#include "lanemap/matrix_move.hpp"
#include "lanemap/wmma.hpp"
#include "model/ptx_rules.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace lanemap {

namespace {

// Sets built on first use, not before main (a canonical spec is found without them).
const std::set<std::string, std::less<>>& types() {
    static const std::set<std::string, std::less<>> kTypes{"f16",  "bf16", "tf32", "f32",  "f64", "e4m3",
                                                           "e5m2", "e3m2", "e2m3", "e2m1", "s8",  "u8",
                                                           "s4",   "u4",   "b1",   "s32"};
    return kTypes;
}
// Tokens of a PTX string that do not change the layout.
// Block scaling (.block_scale, .scale_vec::NX, the scale type) adds scale-factor operands and leaves the A,
// B, C/D and metadata fragments alone.
const std::set<std::string, std::less<>>& ignored() {
    static const std::set<std::string, std::less<>> kIgnored{
        "sync", "aligned",     "satfinite",     "popc",          "xor",           "and",   "rn",   "rz", "rm",
        "rp",   "block_scale", "scale_vec::1x", "scale_vec::2x", "scale_vec::4x", "ue8m0", "ue4m3"};
    return kIgnored;
}

std::string lower(std::string_view text) {
    std::string s(text);
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(std::string_view text) {
    std::size_t b = 0, e = text.size();
    while (b < e && std::isspace(static_cast<unsigned char>(text[b])))
        ++b;
    while (e > b && (std::isspace(static_cast<unsigned char>(text[e - 1])) || text[e - 1] == ';'))
        --e;
    std::string s(text.substr(b, e - b));
    // A pasted instruction may carry operands after whitespace: keep the opcode only.
    const std::size_t space = s.find_first_of(" \t\r\n");
    if (space != std::string::npos)
        s.resize(space);
    return s;
}

std::vector<std::string> split(std::string_view s) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t dot = s.find('.', start);
        const std::size_t end = dot == std::string_view::npos ? s.size() : dot;
        out.emplace_back(s.substr(start, end - start));
        if (dot == std::string_view::npos)
            break;
        start = dot + 1;
    }
    return out;
}

bool isShape(std::string_view t) {
    return detail::isShapeWord(t, "mnk");
}

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string joinList(const std::vector<std::string>& items) {
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i)
            s += ", ";
        s += items[i];
    }
    return s;
}

// The parts of a spec or PTX string, before canonicalization.
struct Parts {
    std::string family; // "mma", "mma.sp", "mma.sp::ordered_metadata", "wgmma", "wgmma.sp"
    std::string shape;
    std::vector<std::string> layouts;
    std::string kind;
    std::vector<std::string> types;
    bool ptxForm = false;
};

// Tokenize; returns an error message or empty.
std::string tokenize(const std::string& text, Parts& parts) {
    const std::vector<std::string> tokens = split(text);
    if (tokens.empty() || (tokens[0] != "mma" && tokens[0] != "wgmma"))
        // The registry's names: a family added there (wmma was missed) is named here too.
        return "a spec starts with a family: " + familyNames(" or ");
    parts.family = tokens[0];
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::string& tok = tokens[i];
        if (tok.empty())
            return "empty component (two dots in a row?)";
        if (tok == "sp" || tok == "sp::ordered_metadata") {
            if (parts.family.find(".sp") != std::string::npos)
                return "'" + tok + "' given twice";
            parts.family += "." + tok;
        } else if (tok == "mma_async") {
            parts.ptxForm = true;
        } else if (tok == "sync" || tok == "aligned") {
            parts.ptxForm = true;
        } else if (isShape(tok)) {
            if (!parts.shape.empty())
                return "two shapes given ('" + parts.shape + "' and '" + tok + "')";
            parts.shape = tok;
        } else if (tok == "row" || tok == "col") {
            parts.layouts.push_back(tok);
        } else if (tok.rfind("kind::", 0) == 0) {
            parts.kind = tok.substr(6);
        } else if (types().count(tok)) {
            parts.types.push_back(tok);
        } else if (ignored().count(tok)) {
            parts.ptxForm = parts.ptxForm || tok == "popc";
        } else {
            return "unknown component '" + excerpt(tok, 32) + "'";
        }
    }
    if (parts.shape.empty())
        return "no shape given (e.g. m16n8k16)";
    if (parts.types.empty())
        return "no element type given (e.g. f16)";
    if (parts.layouts.size() != 0 && parts.layouts.size() != 2)
        return "give both A and B layouts (e.g. row.col)";
    return {};
}

// Canonical short spec from the parts: family.shape[.layouts][.kind::k].atype[.ctype][.dtype].
std::string canonical(const Parts& p, std::string& error) {
    const bool warpgroup = p.family.rfind("wgmma", 0) == 0;
    std::string atype, ctype, dtype;
    const std::size_t n = p.types.size();
    if (p.ptxForm || (!warpgroup && n >= 4) || (warpgroup && n >= 3)) {
        // PTX operand order: mma d.a.b.c, wgmma d.a.b
        if (!warpgroup && n != 4) {
            error = "a PTX mma string names four types (.dtype.atype.btype.ctype); got " + std::to_string(n);
            return {};
        }
        if (warpgroup && n != 3) {
            error = "a PTX wgmma string names three types (.dtype.atype.btype); got " + std::to_string(n);
            return {};
        }
        dtype = p.types[0];
        atype = p.types[1];
        ctype = warpgroup ? dtype : p.types[3];
    } else {
        if (n > 3) {
            error = "too many types: a short spec is atype[.ctype[.dtype]]";
            return {};
        }
        atype = p.types[0];
        ctype = n > 1 ? p.types[1] : std::string(defaultCtype(atype));
        dtype = n > 2 ? p.types[2] : ctype;
    }
    std::string s = p.family + "." + p.shape;
    const bool quadPair = !warpgroup && p.shape == "m8n8k4" && atype == "f16";
    if (quadPair)
        s += "." + (p.layouts.empty() ? std::string("row.col") : p.layouts[0] + "." + p.layouts[1]);
    else if (!p.layouts.empty() && (p.layouts[0] != "row" || p.layouts[1] != "col")) {
        error = "layout ." + p.layouts[0] + "." + p.layouts[1] + " is not valid for " + p.family + "." +
                p.shape + ": only .row.col (other layouts exist only for mma.m8n8k4 .f16)";
        return {};
    }
    if (!p.kind.empty())
        s += ".kind::" + p.kind;
    s += "." + atype;
    if (ctype != defaultCtype(atype) || dtype != ctype)
        s += "." + ctype;
    if (dtype != ctype)
        s += "." + dtype;
    return s;
}

// A specific message when the family and shape exist but the rest does not.
std::string explain(const Parts& p, const Catalog& catalog) {
    std::set<std::string> shapes, typesForShape;
    std::set<int> validN;
    std::map<std::string, std::set<std::string>> accumulators; // per A type of the requested shape
    const std::string shapeKey = p.family + "." + p.shape;
    const std::string atype =
        p.types.empty() ? "" : (p.ptxForm && p.types.size() > 1 ? p.types[1] : p.types[0]);
    for (const Variant* v : catalog.variants()) {
        const std::string fam = v->spec.substr(0, v->spec.find(".m"));
        if (fam != p.family)
            continue;
        const std::string shape =
            "m" + std::to_string(v->m) + "n" + std::to_string(v->n) + "k" + std::to_string(v->k);
        // wgmma shapes are listed per K (m64nNkK): the N values are given per type.
        shapes.insert(v->scope == Scope::Warpgroup ? "m64nNk" + std::to_string(v->k) : shape);
        if (shape == p.shape) {
            const std::string type =
                std::string(toString(v->atype)) +
                (v->kind == Kind::None ? "" : " (kind::" + std::string(toString(v->kind)) + ")");
            typesForShape.insert(type);
            accumulators[type].insert(std::string(toString(v->dtype)));
        }
        // wgmma: same M and K and type, any N
        if (toString(v->atype) == atype && p.shape.size() > 1 &&
            p.shape.substr(p.shape.find('k')) == "k" + std::to_string(v->k) && v->scope == Scope::Warpgroup)
            validN.insert(v->n);
    }
    if (shapes.empty())
        return "no variants of family '" + p.family + "' in the catalog";
    // wgmma: an N that another type of the same K accepts is still invalid for this type.
    const std::size_t nPos = p.shape.find('n'), kPos = p.shape.find('k');
    const int n = nPos != std::string::npos && kPos > nPos + 1 ? std::atoi(p.shape.c_str() + nPos + 1) : 0;
    if (!validN.empty() && !validN.count(n)) {
        std::vector<std::string> ns;
        for (int valid : validN)
            ns.push_back(std::to_string(valid));
        return "N of " + p.shape + " is not valid for " + p.family + " ." + atype +
               "; valid N: " + joinList(ns);
    }
    if (typesForShape.empty()) {
        return "unknown shape '" + p.shape + "' for " + p.family +
               "; valid shapes: " + joinList(std::vector<std::string>(shapes.begin(), shapes.end()));
    }
    std::vector<std::string> types;
    for (const std::string& type : typesForShape) {
        std::string accs;
        for (const std::string& d : accumulators[type])
            accs += (accs.empty() ? "" : " or ") + d;
        types.push_back(type + " (accumulator " + accs + ")");
    }
    std::string hint;
    if (p.family == "mma.sp") {
        // Newer sparse types (fp8 with .f16 accumulation, .kind::*) exist only with ordered metadata.
        Parts ordered = p;
        ordered.family = "mma.sp::ordered_metadata";
        std::string ignored;
        const std::string spec = canonical(ordered, ignored);
        if (!spec.empty() && catalog.variant(spec))
            hint = "; " + spec + " exists: this form needs mma.sp::ordered_metadata";
    }
    return "no " + shapeKey + " variant with these types; valid types for " + shapeKey + ": " +
           joinList(types) + hint;
}

} // namespace

std::string_view defaultCtype(std::string_view atype) {
    if (atype == "f64")
        return "f64";
    static const std::set<std::string, std::less<>> integer{"s8", "u8", "s4", "u4", "b1", "s32"};
    return integer.count(atype) ? "s32" : "f32";
}

std::string normalizePtx(std::string_view ptx) {
    const std::string text = lower(trim(ptx));
    std::string out;
    for (const std::string& tok : split(text)) {
        if (tok == "sync" || tok == "aligned" || ignored().count(tok))
            continue;
        if (!out.empty())
            out += '.';
        out += tok;
    }
    return out;
}

std::vector<std::string> nearestSpecs(std::string_view text, const Catalog& catalog, std::size_t count) {
    const std::string query = lower(trim(text));
    // A spec that differs in one dot-separated component (e5m9 for e5m2) is what was meant, ahead of a short
    // spec a few edits away from the whole text: it ranks by that component's distance alone.
    const std::vector<std::string> parts = split(query);
    auto oneComponentFix = [&parts](const std::string& spec) -> std::optional<std::size_t> {
        const std::vector<std::string> other = split(spec);
        if (other.size() != parts.size())
            return std::nullopt;
        std::optional<std::size_t> distance;
        for (std::size_t i = 0; i < parts.size(); ++i)
            if (parts[i] != other[i]) {
                if (distance)
                    return std::nullopt;
                distance = editDistance(parts[i], other[i]);
            }
        return distance;
    };
    std::vector<std::pair<std::size_t, std::string>> scored;
    scored.reserve(catalog.size());
    for (const Variant* v : catalog.variants()) {
        if (const std::optional<std::size_t> fix = oneComponentFix(v->spec)) {
            scored.emplace_back(*fix, v->spec);
            continue;
        }
        // A PTX string one component off: its fixed spelling (e4m3.e5m9 -> e4m3.e5m2, a form of a spec).
        std::optional<std::pair<std::size_t, std::string>> best;
        for (const Form& form : v->forms) {
            std::string ptx = ptxOf(*v, form);
            if (const std::optional<std::size_t> fix = oneComponentFix(ptx);
                fix && (!best || *fix < best->first))
                best.emplace(*fix, std::move(ptx));
        }
        scored.push_back(best ? std::move(*best) : std::pair(1000 + editDistance(query, v->spec), v->spec));
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (std::size_t i = 0; i < scored.size() && out.size() < count; ++i)
        out.push_back(scored[i].second);
    return out;
}

ParsedSpec parseSpec(std::string_view text, const Catalog& catalog) {
    ParsedSpec result;
    // Bounded before any work: a pasted wgmma with all its operands fits in 4 KiB, an opcode in 256 bytes.
    constexpr std::size_t kMaxText = 4096, kMaxOpcode = 256;
    if (text.size() > kMaxText || trim(text.substr(0, kMaxText)).size() > kMaxOpcode) {
        result.error = "invalid spec '" + excerpt(text, 60) + "': too long (at most " +
                       std::to_string(kMaxOpcode) + " characters before the operands, " +
                       std::to_string(kMaxText) + " in all)";
        return result;
    }
    const std::string input = lower(trim(text));
    if (input.empty()) {
        result.error = "empty spec; try e.g. mma.m16n8k16.f16 (see `lanemap-cli list`)";
        return result;
    }
    // A family with a grammar of its own reads its text (the rows, lanemap/family.hpp).
    for (const Family* f : families())
        if (f->parse && f->claims && f->claims(input))
            return f->parse(text.substr(0, kMaxText), input, catalog);
    // What was typed, checked against the ISA's rules for the variant it names (ptx_rules).
    auto accept = [&](const Variant* v, bool ptxForm) {
        result.form = ptx_rules::canonicalForm(*v);
        const std::string why = ptxForm ? ptx_rules::checkPtx(split(input), *v, result.form)
                                        : ptx_rules::checkShortSpec(split(input));
        if (!why.empty())
            return why;
        result.variant = v;
        result.ptx = ptxOf(*v, result.form);
        return std::string();
    };
    if (const Variant* v = catalog.variant(input)) {
        accept(v, false);
        return result;
    }
    Parts parts;
    std::string error;
    if (const Variant* v = catalog.byPtx(normalizePtx(input))) {
        if ((error = accept(v, true)).empty())
            return result;
    } else {
        error = tokenize(input, parts);
    }
    std::string spec;
    if (error.empty())
        spec = canonical(parts, error);
    if (error.empty()) {
        const bool ptxForm =
            parts.ptxForm || parts.types.size() >= (parts.family.rfind("wgmma", 0) == 0 ? 3u : 4u);
        if (const Variant* v = catalog.variant(spec)) {
            if ((error = accept(v, ptxForm)).empty())
                return result;
        } else {
            error = explain(parts, catalog);
        }
    }
    result.suggestions = nearestSpecs(spec.empty() ? input : spec, catalog);
    std::ostringstream msg;
    msg << "invalid spec '" << excerpt(trim(text)) << "': " << error;
    if (!result.suggestions.empty())
        msg << "; nearest valid specs: " << joinList(result.suggestions);
    result.error = msg.str();
    return result;
}

} // namespace lanemap
