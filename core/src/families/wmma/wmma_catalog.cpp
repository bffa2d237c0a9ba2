// wmma in the catalog: one variant per shape x type x accumulator x A/B layout of the table (wmma.cpp), whose
// layouts come from the recorded discovery reports, never from a formula; and the wmma spellings the spec
// grammar accepts (short specs, PTX strings, CUDA C++ fragment types).

#include "families/params_check.hpp"
#include "families/wmma/wmma_table.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/wmma.hpp"
#include "model/build_cache.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <stdexcept>

namespace lanemap::wmma {

namespace {
// Generated at build time from resources/discovery/*.json by core/tools/embed_reports.cpp.
struct RecordedDiscoveryRow {
    const char* file;
    const char* const* json; // the report's text in chunks, ending with nullptr
};
#include "recorded_discovery.inc" // kRecordedDiscoveries[]

std::string shapeOf(int m, int n, int k) {
    return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
}

std::string specOf(int m, int n, int k, Major a, Major b, ElementType atype, ElementType ctype) {
    std::string s = "wmma." + shapeOf(m, n, k);
    ((s += '.') += toString(a)) += '.';
    (s += toString(b)) += '.';
    (s += toString(atype)) += '.';
    return s += toString(ctype);
}

FragmentShape shapeOfForm(const FragmentForm& f) {
    const bool wide = f.elementBits() == 64;
    return FragmentShape{
        f.rows(), f.cols(), 1, wide ? f.words / 2 : f.words, wide ? 64 : 32, wide ? 1 : f.elementsPerWord()};
}

// A discovered fragment serves several variants (C and D are one accumulator fragment; an A fragment every
// accumulator type of its shape): its table is built once, as a formula's is. The reports live as long as
// the program (availableDiscoveries), so a fragment's address names it.
FragmentLayout layoutOf(const DiscoveredFragment& d, Operand operand) {
    static detail::SharedCache<const DiscoveredFragment*, FragmentLayout, true> cache;
    return cache
        .get(&d,
             [&] {
                 return FragmentLayout::fromCells(operand, d.form.type, traits(d.form.type).bits, 32,
                                                  shapeOfForm(d.form), d.cells, Source::Discovered);
             })
        ->asOperand(operand);
}

void fill(Instruction& in, const RecordedDiscovery* recorded) {
    in.operands.clear();
    in.notes.clear();
    in.discovery = recorded;
    in.notes.emplace_back(kUnspecified.substr(0, kUnspecified.find(';')));
    bool missing = false;
    for (const Operand op : {Operand::A, Operand::B, Operand::C, Operand::D}) {
        const std::optional<FragmentForm> form = formOf(in, op);
        const DiscoveredFragment* d = recorded && form ? recorded->report.fragment(*form) : nullptr;
        if (!d) {
            missing = true;
            continue;
        }
        in.operands.push_back(layoutOf(*d, op));
    }
    if (recorded && !in.operands.empty())
        in.notes.push_back(observedOn(*recorded));
    if (missing)
        in.notes.emplace_back(in.operands.empty() ? std::string(kNotDiscovered)
                                                  : std::string(kNotDiscovered) + " (some operands)");
    if (recorded)
        if (const DiscoveryCheck* c = recorded->report.check(in.spec))
            in.notes.push_back(
                "on that GPU, wmma.store.d of the discovered C/D layout: " + std::string(toString(c->store)) +
                "; wmma.mma through the discovered A, B, C, D layouts against the CPU product: " +
                std::string(toString(c->mma)) + (c->detail.empty() ? "" : " (" + c->detail + ")"));
}

std::string lower(std::string_view text) {
    std::string s(text);
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<std::string> splitOn(std::string_view s, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t at = s.find(sep, start);
        out.emplace_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos)
            return out;
        start = at + 1;
    }
}

std::string trimmed(std::string_view s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && (std::isspace(static_cast<unsigned char>(s[e - 1])) || s[e - 1] == ';'))
        --e;
    return std::string(s.substr(b, e - b));
}

// What a wmma spelling names, before the table is asked.
struct WmmaParts {
    int m = 0, n = 0, k = 0;
    std::optional<Major> a, b;
    std::optional<ElementType> atype, ctype;
    B1Op b1 = B1Op::None;
};

std::optional<ElementType> cudaType(const std::string& raw) {
    std::string t = raw;
    if (const std::size_t colons = t.rfind("::"); colons != std::string::npos)
        t = t.substr(colons + 2);
    t.erase(std::remove_if(t.begin(), t.end(),
                           [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
            t.end());
    static const std::pair<const char*, ElementType> kNames[] = {{"half", ElementType::F16},
                                                                 {"__half", ElementType::F16},
                                                                 {"__nv_bfloat16", ElementType::BF16},
                                                                 {"nv_bfloat16", ElementType::BF16},
                                                                 {"float", ElementType::F32},
                                                                 {"double", ElementType::F64},
                                                                 {"signedchar", ElementType::S8},
                                                                 {"int8_t", ElementType::S8},
                                                                 {"unsignedchar", ElementType::U8},
                                                                 {"uint8_t", ElementType::U8},
                                                                 {"int", ElementType::S32},
                                                                 {"int32_t", ElementType::S32}};
    for (const auto& [name, type] : kNames)
        if (t == name)
            return type;
    return parseElementType(t); // tf32, s4, u4, b1 (precision::)
}

// Decimal digits without a leading zero or sign, as the ISA spells shapes (sscanf's %d let m016n16k16,
// m+16 and "m 16" through, and std::stoi "16abc", where the other families refuse them).
std::optional<int> shapeNumber(std::string_view t) {
    int value = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (t.empty() || t[0] == '-' || (t.size() > 1 && t[0] == '0') || ec != std::errc() ||
        end != t.data() + t.size())
        return std::nullopt;
    return value;
}

// wmma::fragment<use, m, n, k, type[, layout]>
std::string parseCuda(const std::string& text, WmmaParts& p) {
    const std::size_t open = text.find('<'), close = text.rfind('>');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return "a CUDA C++ fragment is wmma::fragment<use, M, N, K, type[, layout]>";
    const std::vector<std::string> args = splitOn(text.substr(open + 1, close - open - 1), ',');
    if (args.size() != 5 && args.size() != 6)
        return "wmma::fragment takes 5 or 6 template arguments (use, M, N, K, type[, layout]); got " +
               std::to_string(args.size());
    std::string use = trimmed(args[0]);
    if (const std::size_t colons = use.rfind("::"); colons != std::string::npos)
        use = use.substr(colons + 2);
    const std::optional<int> m = shapeNumber(trimmed(args[1])), n = shapeNumber(trimmed(args[2])),
                             k = shapeNumber(trimmed(args[3]));
    if (!m || !n || !k)
        return "M, N and K of wmma::fragment must be numbers (e.g. 16, 16, 16); got '" +
               excerpt(trimmed(args[1]) + ", " + trimmed(args[2]) + ", " + trimmed(args[3]), 48) + "'";
    p.m = *m;
    p.n = *n;
    p.k = *k;
    const std::optional<ElementType> type = cudaType(lower(trimmed(args[4])));
    if (!type)
        return "unknown fragment element type '" + excerpt(trimmed(args[4]), 32) + "'";
    std::optional<Major> layout;
    if (args.size() == 6) {
        std::string l = trimmed(args[5]);
        if (const std::size_t colons = l.rfind("::"); colons != std::string::npos)
            l = l.substr(colons + 2);
        if (l == "row_major")
            layout = Major::Row;
        else if (l == "col_major")
            layout = Major::Col;
        else
            return "the fragment layout is row_major or col_major; got '" + excerpt(l, 32) + "'";
    }
    if (use == "matrix_a") {
        p.atype = type;
        p.a = layout;
    } else if (use == "matrix_b") {
        p.atype = type;
        p.b = layout;
    } else if (use == "accumulator") {
        if (layout)
            return "an accumulator fragment has no layout argument";
        p.ctype = type;
    } else {
        return "the fragment use is matrix_a, matrix_b or accumulator; got '" + excerpt(use, 32) + "'";
    }
    return {};
}

bool isShapeToken(const std::string& t, WmmaParts& p) {
    const std::size_t n = t.find('n'), k = t.find('k');
    if (t.empty() || t[0] != 'm' || n == std::string::npos || k == std::string::npos || k < n)
        return false;
    const std::optional<int> mv = shapeNumber(std::string_view(t).substr(1, n - 1)),
                             nv = shapeNumber(std::string_view(t).substr(n + 1, k - n - 1)),
                             kv = shapeNumber(std::string_view(t).substr(k + 1));
    if (!mv || !nv || !kv)
        return false;
    p.m = *mv;
    p.n = *nv;
    p.k = *kv;
    return true;
}

// Short specs and PTX strings: wmma.mma..., wmma.load.{a,b,c}..., wmma.store.d...,
// wmma.SHAPE.row.col.TYPE[.CTYPE].
std::string parseDotted(const std::string& text, WmmaParts& p) {
    const std::vector<std::string> tokens = splitOn(text, '.');
    std::vector<Major> layouts;
    std::vector<ElementType> types;
    std::string mode = "short";
    char operand = 0;
    for (std::size_t i = 1; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        if (t.empty())
            return "empty component (two dots in a row?)";
        if (t == "mma" || t == "load" || t == "store") {
            mode = t;
        } else if ((mode == "load" || mode == "store") && operand == 0 && t.size() == 1) {
            operand = t[0];
        } else if (t == "sync" || t == "aligned" || t == "popc" || t == "satfinite" || t == "rn" ||
                   t == "rz" || t == "rm" || t == "rp" || t == "global" || t == "shared" ||
                   t == "shared::cta") {
        } else if (t == "xor" || t == "and") {
            p.b1 = t == "xor" ? B1Op::Xor : B1Op::And;
        } else if (t == "row" || t == "col") {
            layouts.push_back(t == "row" ? Major::Row : Major::Col);
        } else if (isShapeToken(t, p)) {
        } else if (const std::optional<ElementType> type = parseElementType(t)) {
            types.push_back(*type);
        } else {
            return "unknown component '" + excerpt(t, 32) + "'";
        }
    }
    if (!p.m)
        return "no shape given (e.g. m16n16k16)";
    if (types.empty())
        return "no element type given (e.g. f16)";
    if (mode == "load" || mode == "store") {
        if (layouts.size() != 1 || types.size() != 1)
            return "wmma." + mode + " names one layout and one type";
        const bool accumulator = operand == 'c' || operand == 'd';
        if ((mode == "load" && operand != 'a' && operand != 'b' && operand != 'c') ||
            (mode == "store" && operand != 'd'))
            return mode == "load" ? "wmma.load takes .a, .b or .c" : "wmma.store takes .d";
        if (accumulator)
            p.ctype = types[0];
        else
            p.atype = types[0];
        (operand == 'a' ? p.a : p.b) = accumulator ? std::nullopt : std::optional<Major>(layouts[0]);
        return {};
    }
    if (layouts.size() == 2) {
        p.a = layouts[0];
        p.b = layouts[1];
    } else if (!layouts.empty()) {
        return "give both A and B layouts (e.g. row.col)";
    }
    if (mode == "mma") { // PTX: .dtype.ctype (f16) or .dtype.atype.btype.ctype
        if (types.size() == 2) {
            if (types[0] != types[1])
                return "lanemap shows wmma with C and D of one type; got ." +
                       std::string(toString(types[0])) + "." + std::string(toString(types[1]));
            p.atype = ElementType::F16;
            p.ctype = types[1];
        } else if (types.size() == 4) {
            if (types[1] != types[2])
                return "wmma takes A and B of one type; got ." + std::string(toString(types[1])) + "." +
                       std::string(toString(types[2]));
            if (types[0] != types[3])
                return "lanemap shows wmma with C and D of one type";
            p.atype = types[1];
            p.ctype = types[3];
        } else {
            return "a PTX wmma.mma names .dtype.ctype (f16) or .dtype.atype.btype.ctype; got " +
                   std::to_string(types.size()) + " types";
        }
        return {};
    }
    if (types.size() > 2)
        return "too many types: a short wmma spec is atype[.ctype]";
    p.atype = types[0];
    if (types.size() == 2)
        p.ctype = types[1];
    return {};
}
} // namespace

std::string observedOn(const RecordedDiscovery& r) {
    return "observed on " + r.report.device.name + ", SASS " + r.report.sassTarget + " (driver " +
           r.report.device.driver + ", CUDA " + r.report.device.cudaRuntime + ", " + r.report.date + "; " +
           r.file + "); other targets may differ";
}

const std::vector<RecordedDiscovery>& recordedDiscoveries() {
    static const std::vector<RecordedDiscovery> recorded = [] {
        std::vector<RecordedDiscovery> out;
        for (const RecordedDiscoveryRow& row : kRecordedDiscoveries) {
            if (!row.file)
                continue;
            RecordedDiscovery r;
            r.file = row.file;
            std::string error;
            std::string json;
            for (const char* const* chunk = row.json; *chunk; ++chunk)
                json += *chunk;
            if (!parseDiscoveryReport(json, r.report, error)) // validated when embedded: cannot happen
                throw std::logic_error("embedded discovery report " + r.file + ": " + error);
            out.push_back(std::move(r));
        }
        // The default target first: the newest SM, then the newest run.
        std::stable_sort(out.begin(), out.end(), [](const RecordedDiscovery& a, const RecordedDiscovery& b) {
            return a.report.device.sm != b.report.device.sm ? a.report.device.sm > b.report.device.sm
                                                            : a.report.date > b.report.date;
        });
        return out;
    }();
    return recorded;
}

std::vector<std::string> discoveredTargets() {
    std::vector<std::string> out;
    for (const RecordedDiscovery* r : availableDiscoveries())
        if (std::find(out.begin(), out.end(), r->report.sassTarget) == out.end())
            out.push_back(r->report.sassTarget);
    return out;
}

std::vector<std::string> targetsOf(const Variant& variant) {
    std::vector<std::string> out;
    for (const RecordedDiscovery* r : availableDiscoveries()) {
        bool holds = false;
        for (const Operand op : {Operand::A, Operand::B, Operand::C})
            if (const std::optional<FragmentForm> f = formOf(variant, op))
                holds = holds || r->report.fragment(*f);
        if (holds && std::find(out.begin(), out.end(), r->report.sassTarget) == out.end())
            out.push_back(r->report.sassTarget);
    }
    return out;
}

const RecordedDiscovery* recordedFor(std::string_view target) {
    for (const RecordedDiscovery* r : availableDiscoveries())
        if (r->report.sassTarget == target ||
            (target.size() + 1 == r->report.sassTarget.size() && r->report.sassTarget.rfind(target, 0) == 0))
            return r; // sm_90 finds an sm_90a report
    return nullptr;
}

Instruction instructionFor(const Variant& variant, std::string_view target) {
    Instruction in;
    static_cast<Variant&>(in) = variant;
    const RecordedDiscovery* r = target.empty()
                                     ? (recordedDiscoveries().empty() ? nullptr : &recordedDiscoveries()[0])
                                     : recordedFor(target);
    fill(in, r);
    placeOperands(in);
    return in;
}

// The catalog's name for what a wmma spelling (short, PTX, CUDA C++) names; empty with `error` set otherwise.
std::string canonicalSpec(std::string_view text, Form& form, std::string& error) {
    const std::string raw = trimmed(text);
    const std::string input = lower(raw);
    WmmaParts p;
    error = input.find("fragment") != std::string::npos ? parseCuda(input, p) : parseDotted(input, p);
    if (!error.empty())
        return {};
    // Fill what the spelling leaves open from the table: the accumulator's first input type, the first
    // accumulator of the input type, .row.col.
    const WmmaAtom* atom = nullptr;
    for (const WmmaAtom& a : atoms()) {
        if (a.m != p.m || a.n != p.n || a.k != p.k)
            continue;
        const bool typeFits =
            !p.atype || std::find(a.types.begin(), a.types.end(), *p.atype) != a.types.end();
        const bool accFits =
            !p.ctype || std::any_of(a.accumulators.begin(), a.accumulators.end(),
                                    [&](const AccumulatorWords& c) { return c.type == *p.ctype; });
        if (typeFits && accFits) {
            atom = &a;
            break;
        }
    }
    if (!atom) {
        std::string valid;
        for (const WmmaAtom& a : atoms())
            for (ElementType t : a.types)
                for (const AccumulatorWords& c : a.accumulators)
                    valid += (valid.empty() ? "" : ", ") + shapeOf(a.m, a.n, a.k) + " ." +
                             std::string(toString(t)) + "->." + std::string(toString(c.type));
        error = "no wmma " + shapeOf(p.m, p.n, p.k) + " with these types; valid: " + valid;
        return {};
    }
    const ElementType atype = p.atype.value_or(atom->types.front());
    const ElementType ctype = p.ctype.value_or(atom->accumulators.front().type);
    const Major a = p.a.value_or(Major::Row), b = p.b.value_or(Major::Col);
    if (std::find(atom->aLayouts.begin(), atom->aLayouts.end(), a) == atom->aLayouts.end() ||
        std::find(atom->bLayouts.begin(), atom->bLayouts.end(), b) == atom->bLayouts.end()) {
        error =
            "wmma " + shapeOf(p.m, p.n, p.k) + " ." + std::string(toString(atype)) + " takes only .row.col";
        return {};
    }
    form =
        Form{atype, atype, atype == ElementType::B1 ? (p.b1 == B1Op::None ? B1Op::Xor : p.b1) : B1Op::None};
    return specOf(p.m, p.n, p.k, a, b, atype, ctype);
}

} // namespace lanemap::wmma

namespace lanemap {

namespace family {
extern const Family kWmma;
}

void registerWmma(Catalog& catalog) {
    using namespace wmma;
    for (const WmmaAtom& atom : atoms())
        for (ElementType t : atom.types)
            for (const AccumulatorWords& c : atom.accumulators)
                for (Major a : atom.aLayouts)
                    for (Major b : atom.bLayouts) {
                        Variant v;
                        v.spec = specOf(atom.m, atom.n, atom.k, a, b, t, c.type);
                        if (!catalog.wants(v.spec)) // registering one spec: skip the other rows
                            continue;
                        v.family = &family::kWmma;
                        v.scope = Scope::Warp;
                        v.threads = 32;
                        v.m = atom.m;
                        v.n = atom.n;
                        v.k = atom.k;
                        v.atype = v.btype = t;
                        v.ctype = v.dtype = c.type;
                        v.alayout = a;
                        v.blayout = b;
                        v.minSm = atom.minSm;
                        v.section = atom.section;
                        v.anchor = atom.anchor;
                        if (t ==
                            ElementType::B1) // .xor.popc (sm_75) canonical, .and.popc (sm_80) another form
                            v.forms = {Form{t, t, B1Op::Xor}, Form{t, t, B1Op::And}};
                        else
                            v.forms = {Form{t, t}};
                        v.ptx = ptxOf(v, v.forms.front());
                        // The report is parsed, and the notes naming where the layout was observed are
                        // written, when a wmma instruction is first built (fill): registering the catalog,
                        // which every one-shot command does, must not parse it.
                        v.notes = {std::string(kUnspecified.substr(0, kUnspecified.find(';')))};
                        catalog.add(std::move(v), [](Instruction& in) {
                            const std::vector<RecordedDiscovery>& recorded = recordedDiscoveries();
                            fill(in, recorded.empty() ? nullptr : &recorded[0]);
                        });
                    }
}

namespace family {

namespace {

// wmma.mma names .dtype.ctype for .f16 inputs and .dtype.atype.btype.ctype for the others (§9.7.14.4.5).
std::string wmmaPtx(const Variant& v, const Form& form) {
    std::string s = "wmma.mma";
    if (form.b1 != B1Op::None)
        s += form.b1 == B1Op::Xor ? ".xor.popc" : ".and.popc";
    s += ".sync.aligned.";
    ((s += toString(v.alayout)) += '.') += toString(v.blayout);
    (s += '.') += shapeName(v);
    (s += '.') += toString(v.dtype);
    if (v.atype != ElementType::F16) {
        (s += '.') += toString(form.atype);
        (s += '.') += toString(form.btype);
    }
    return (s += '.') += toString(v.ctype);
}

// wmma has its own spellings (CUDA C++ fragment types carry blanks): wmma::canonicalSpec reads what was
// typed.
ParsedSpec parseWmma(std::string_view text, const std::string& opcode, const Catalog& catalog) {
    ParsedSpec result;
    std::string why;
    const std::string spec = wmma::canonicalSpec(text, result.form, why);
    if (const Variant* v = spec.empty() ? nullptr : catalog.variant(spec)) {
        result.variant = v;
        result.ptx = ptxOf(*v, result.form);
        return result;
    }
    result.suggestions = nearestSpecs(spec.empty() ? opcode : spec, catalog);
    result.error = "invalid spec '" + excerpt(opcode) + "': " + (why.empty() ? "not in the catalog" : why);
    if (!result.suggestions.empty()) {
        result.error += "; nearest valid specs: ";
        for (std::size_t i = 0; i < result.suggestions.size(); ++i)
            result.error += (i ? ", " : "") + result.suggestions[i];
    }
    return result;
}

// A wmma variant takes the SASS target whose discovery report places its fragments.
std::string validateWmma(const Instruction& entry, const Params& p) {
    if (std::string why = refuseOthers(entry, p, TakesTarget); !why.empty())
        return why;
    if (p.target.empty())
        return {};
    const std::vector<std::string> valid = wmma::targetsOf(entry);
    const wmma::RecordedDiscovery* report = wmma::recordedFor(p.target);
    if (report && std::find(valid.begin(), valid.end(), report->report.sassTarget) != valid.end())
        return {};
    std::string targets;
    for (const std::string& t : valid)
        targets += (targets.empty() ? "" : ", ") + t;
    return "no discovery report for --target '" + excerpt(p.target) +
           "'; recorded targets: " + (targets.empty() ? "none" : targets) +
           " (lanemap-cli discover records one on a GPU of that target)";
}

// The layouts of the target asked for (the catalog entry has the default target's).
void instantiateWmma(Instruction& in) {
    if (in.params.target.empty())
        return;
    Instruction discovered = wmma::instructionFor(in, in.params.target);
    in.operands = std::move(discovered.operands);
    in.notes = std::move(discovered.notes);
    in.discovery = discovered.discovery;
    placeRegisters(in);
}

} // namespace

const Family kWmma{.name = "wmma",
                   .registerTable = registerWmma,
                   .ptx = wmmaPtx,
                   .shape = [](const Variant& v) { return shapeWord(v.m, v.n, v.k); },
                   .claims =
                       [](std::string_view opcode) {
                           return opcode.rfind("wmma", 0) == 0 || opcode.rfind("nvcuda::wmma", 0) == 0;
                       },
                   .parse = parseWmma,
                   .validate = validateWmma,
                   .instantiate = instantiateWmma,
                   .discovered = true};

} // namespace family

} // namespace lanemap
