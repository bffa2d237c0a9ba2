// Triton linear layouts read from text (docs/layouts-in.md#what-is-read): the attribute Triton prints in
// its IR, `#ttg.linear<{register = [[0, 1], ...], lane = [...], warp = [...], block = []}>` (an alias
// `#linear = ` in front, or the braces alone), and lanemap's own `--format triton` JSON. Each basis is [dim0,
// dim1]; the image of (register, lane, warp) is the XOR of the bases of their set bits; thread = warp * lanes
// + lane.

#include "layout_in/scanner.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace lanemap::layout_in::detail {

namespace {

constexpr int kMostBases = 12; // per input dimension: 4096 registers, lanes or warps

std::vector<Coord> basisList(Scanner& s, std::string_view name) {
    std::vector<Coord> list;
    s.expect("[", "'[' opening the " + std::string(name) + " bases");
    if (s.eat("]"))
        return list;
    do {
        const std::size_t at = s.pos();
        s.expect("[", "'[' opening a basis [dim0, dim1]");
        std::vector<long> basis;
        do {
            const std::optional<long> v = s.integer();
            if (!v)
                s.fail("expected an integer in a basis");
            if (*v < 0 || *v > 65535)
                s.failAt(at, "a basis component is 0..65535; found " + std::to_string(*v));
            basis.push_back(*v);
        } while (s.eat(","));
        s.expect("]", "',' or ']' in a basis");
        if (basis.size() != 2)
            s.failAt(at, "expected a basis of rank 2, [dim0, dim1]; found rank " +
                             std::to_string(basis.size()) + " (lanemap reads 2-D layouts)");
        list.push_back({static_cast<int>(basis[0]), static_cast<int>(basis[1]), 0});
        if (list.size() > kMostBases)
            s.failAt(at, "more than " + std::to_string(kMostBases) + " " + std::string(name) + " bases");
    } while (s.eat(","));
    s.expect("]", "',' or ']' after a basis");
    return list;
}

Bases attributeBody(Scanner& s) {
    Bases b;
    bool seen[4] = {};
    s.expect("{", "'{' opening the bases");
    if (!s.eat("}"))
        do {
            const std::size_t at = s.pos();
            const std::string_view key = s.identifier();
            static constexpr std::string_view kKeys[] = {"register", "lane", "warp", "block"};
            int k = 0;
            while (k < 4 && kKeys[k] != key)
                ++k;
            if (k == 4)
                s.failAt(at, "expected register, lane, warp or block, found '" +
                                 excerpt(key.empty() ? s.found() : key, 16) + "'");
            if (seen[k])
                s.failAt(at, "'" + std::string(key) + "' is given twice");
            seen[k] = true;
            s.expect("=", "'=' after " + std::string(key));
            const std::size_t listAt = s.pos();
            std::vector<Coord> list = basisList(s, key);
            if (k == 3 && !list.empty())
                s.failAt(listAt, "block bases (a layout over several CTAs) are not read; give block = []");
            if (k < 3)
                (k == 0 ? b.reg : k == 1 ? b.lane : b.warp) = std::move(list);
        } while (s.eat(","));
    s.expect("}", "',' or '}' after the bases");
    return b;
}

} // namespace

Layout fromBases(const Bases& b, Notation notation) {
    Layout l;
    l.notation = notation;
    l.values = 1 << b.reg.size();
    l.lanesPerWarp = 1 << b.lane.size();
    l.threads = l.lanesPerWarp << b.warp.size();
    if (static_cast<long>(l.values) * l.threads > (1L << 22))
        throw Failure{std::string_view::npos, "the layout has more than 2^22 elements"};
    if (l.threads > 1024)
        throw Failure{std::string_view::npos, "the layout has " + std::to_string(l.threads) +
                                                  " threads; lanemap reads at most 1024 (a CTA)"};
    auto image = [](const std::vector<Coord>& bases, int x, Coord c) {
        for (std::size_t i = 0; i < bases.size(); ++i)
            if ((x >> i) & 1) {
                c.d0 ^= bases[i].d0;
                c.d1 ^= bases[i].d1;
            }
        return c;
    };
    int span0 = 0, span1 = 0;
    l.coord.reserve(static_cast<std::size_t>(l.threads) * static_cast<std::size_t>(l.values));
    for (int t = 0; t < l.threads; ++t) {
        const Coord thread = image(b.warp, t / l.lanesPerWarp, image(b.lane, t % l.lanesPerWarp, {}));
        for (int v = 0; v < l.values; ++v) {
            const Coord c = image(b.reg, v, thread);
            span0 = std::max(span0, c.d0);
            span1 = std::max(span1, c.d1);
            l.coord.push_back(c);
        }
    }
    auto pow2Above = [](int n) {
        int p = 1;
        while (p <= n)
            p <<= 1;
        return p;
    };
    l.extent = Extent{pow2Above(span0), pow2Above(span1), 1};
    auto list = [](const std::vector<Coord>& bases) {
        std::string s = "[";
        for (std::size_t i = 0; i < bases.size(); ++i)
            s += (i ? ", [" : "[") + std::to_string(bases[i].d0) + ", " + std::to_string(bases[i].d1) + "]";
        return s + "]";
    };
    l.canonical = "#ttg.linear<{register = " + list(b.reg) + ", lane = " + list(b.lane) +
                  ", warp = " + list(b.warp) + ", block = []}>";
    return l;
}

namespace {

// #ttg.blocked<{sizePerThread = [..], threadsPerWarp = [..], warpsPerCTA = [..], order = [..]}> (the CTA
// fields of older printouts accepted when they name one CTA), as Triton converts it: registers, then lanes,
// then warps, each an identity over its sizes in `order` (most minor first), each scaled by what the ones
// before cover; then more registers, dim order[0] first, until the tile covers `extent`. A tile larger than
// the tensor broadcasts, which Triton's releases do differently: refused.
Bases blocked(Scanner& s, std::size_t at, const std::optional<Extent>& extent) {
    std::map<std::string, std::vector<long>, std::less<>> fields;
    s.expect("<", "'<' after #ttg.blocked");
    s.expect("{", "'{' opening the fields of #ttg.blocked");
    do {
        const std::size_t keyAt = s.pos();
        const std::string key(s.identifier());
        static constexpr std::string_view kKeys[] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA",
                                                     "order",         "CTAsPerCGA",     "CTASplitNum",
                                                     "CTAOrder"};
        if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys))
            s.failAt(keyAt,
                     "expected sizePerThread, threadsPerWarp, warpsPerCTA, order or a CTA field, found " +
                         (key.empty() ? s.found() : "'" + excerpt(key, 24) + "'"));
        s.expect("=", "'=' after " + key);
        s.expect("[", "'[' opening " + key);
        std::vector<long>& list = fields[key];
        do {
            const std::optional<long> v = s.integer();
            if (!v || *v < 0 || *v > 4096)
                s.fail("expected an integer 0..4096 in " + key);
            list.push_back(*v);
        } while (s.eat(","));
        s.expect("]", "',' or ']' in " + key);
        if (list.size() != 2)
            s.failAt(keyAt,
                     key + " has " + std::to_string(list.size()) + " entries; lanemap reads 2-D layouts");
    } while (s.eat(","));
    s.expect("}", "',' or '}' after the fields of #ttg.blocked");
    s.expect(">", "'>' closing #ttg.blocked<...>");
    for (const char* key : {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"})
        if (!fields.count(key))
            s.failAt(at, std::string("#ttg.blocked needs ") + key);
    for (const char* key : {"CTAsPerCGA", "CTASplitNum"})
        if (fields.count(key) && (fields[key][0] != 1 || fields[key][1] != 1))
            s.failAt(at, std::string(key) + " names several CTAs; lanemap reads one CTA's layout");
    const std::vector<long>& order = fields["order"];
    if (!((order[0] == 0 && order[1] == 1) || (order[0] == 1 && order[1] == 0)))
        s.failAt(at, "order must be [0, 1] or [1, 0]");
    if (!extent)
        throw Failure{std::string_view::npos,
                      "a #ttg.blocked layout repeats over its tensor: give its shape, --shape DIM0xDIM1"};
    auto log2 = [&](long n, const char* key) {
        int b = 0;
        while ((1L << b) < n)
            ++b;
        if (n < 1 || (1L << b) != n)
            s.failAt(at, std::string(key) + " entries are powers of two; found " + std::to_string(n));
        return b;
    };
    const long shape[2] = {extent->dim0, extent->dim1};
    if (extent->products != 1)
        s.failAt(at, "a Triton layout has no product mode: give --shape DIM0xDIM1");
    long covered[2] = {1, 1};
    Bases b;
    auto identity = [&](const char* key, std::vector<Coord>& into) {
        for (long dim : order) {
            const int bits = log2(fields[key][static_cast<std::size_t>(dim)], key);
            for (int i = 0; i < bits; ++i) {
                const int v = static_cast<int>(covered[dim] << i);
                into.push_back(dim == 0 ? Coord{v, 0, 0} : Coord{0, v, 0});
            }
            covered[dim] <<= bits;
        }
    };
    identity("sizePerThread", b.reg);
    identity("threadsPerWarp", b.lane);
    identity("warpsPerCTA", b.warp);
    for (long dim : order) {
        log2(shape[dim], "the shape's");
        if (covered[dim] > shape[dim])
            s.failAt(at,
                     "the tile covers " + std::to_string(covered[dim]) + " in dim" + std::to_string(dim) +
                         ", more than the tensor's " + std::to_string(shape[dim]) +
                         ": Triton broadcasts it (differently across releases); paste its #ttg.linear form");
        for (long c = covered[dim]; c < shape[dim]; c <<= 1)
            b.reg.push_back(dim == 0 ? Coord{static_cast<int>(c), 0, 0} : Coord{0, static_cast<int>(c), 0});
        covered[dim] = shape[dim];
    }
    if (b.reg.size() > kMostBases || b.lane.size() > kMostBases || b.warp.size() > kMostBases)
        s.failAt(at,
                 "the layout has more than 2^" + std::to_string(kMostBases) + " registers, lanes or warps");
    return b;
}

} // namespace

Layout readTritonLinear(std::string_view text, const std::optional<Extent>& extent) {
    Scanner s(text);
    Bases b;
    bool isBlocked = false;
    if (s.eat("#")) {
        std::size_t at = s.pos();
        std::string_view dialect = s.identifier();
        if (s.eat("=")) { // "#linear = #ttg.linear<...>", as an IR dump's alias line
            s.expect("#", "'#' before the attribute after the alias");
            at = s.pos();
            dialect = s.identifier();
        }
        if (dialect != "ttg" && dialect != "triton_gpu")
            s.failAt(at, "expected #ttg.linear<...>, found '#" + excerpt(dialect, 16) + "'");
        s.expect(".", "'.' after #" + std::string(dialect));
        at = s.pos();
        const std::string_view name = s.identifier();
        if (name == "blocked") {
            b = blocked(s, at, extent);
            isBlocked = true;
        } else if (name != "linear")
            s.failAt(at, name.empty()
                             ? "expected linear after #ttg."
                             : "#ttg." + excerpt(name, 24) +
                                   " is not read yet; lanemap reads #ttg.linear and #ttg.blocked (Triton "
                                   "converts any layout to #ttg.linear: docs/layouts-in.md#triton)");
        if (!isBlocked) {
            s.expect("<", "'<' after #ttg.linear");
            b = attributeBody(s);
            s.expect(">", "'>' closing #ttg.linear<...>");
        }
    } else
        b = attributeBody(s);
    if (!s.atEnd())
        s.fail("expected the end of the layout");
    Layout l = fromBases(b, isBlocked ? Notation::TritonBlocked : Notation::TritonLinear);
    if (isBlocked) // what was read, then the linear layout it is
        l.canonical = excerpt(text.substr(text.find('#')), 200) + " = " + l.canonical;
    return l;
}

namespace {

using nlohmann::json;

std::vector<Coord> jsonBases(const json& bases, const char* key) {
    std::vector<Coord> list;
    const auto it = bases.find(key);
    if (it == bases.end())
        return list;
    const std::string where = std::string("\"bases\".\"") + key + "\"";
    if (!it->is_array())
        throw Failure{std::string_view::npos, where + " must be a list of [dim0, dim1]"};
    for (const json& b : *it) {
        if (!b.is_array() || b.size() != 2 || !b[0].is_number_unsigned() || !b[1].is_number_unsigned() ||
            b[0].get<std::uint64_t>() > 65535 || b[1].get<std::uint64_t>() > 65535)
            throw Failure{std::string_view::npos, where + " holds " + excerpt(b.dump(), 40) +
                                                      "; expected [dim0, dim1], each 0..65535"};
        list.push_back({b[0].get<int>(), b[1].get<int>(), 0});
        if (list.size() > kMostBases)
            throw Failure{std::string_view::npos,
                          where + " has more than " + std::to_string(kMostBases) + " bases"};
    }
    return list;
}

} // namespace

Layout readTritonJson(std::string_view text, const ReadOptions& options) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        // e.byte: 1-based offset of the last byte read. The library's message names the token it expected.
        std::string what = e.what();
        const std::size_t colon = what.rfind(": ");
        throw Failure{e.byte == 0 ? 0 : e.byte - 1,
                      "not valid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2))};
    } catch (const json::exception& e) { // a number out of range (1e632), found by the fuzzer
        std::string what = e.what();
        const std::size_t bracket = what.find("] ");
        throw Failure{std::string_view::npos,
                      "not valid JSON: " + (bracket == std::string::npos ? what : what.substr(bracket + 2))};
    }
    if (!doc.is_object())
        throw Failure{0, "expected a JSON object (an operand of lanemap's --format triton, or the document)"};
    const json* op = &doc;
    if (const auto ops = doc.find("operands"); ops != doc.end()) {
        if (!ops->is_array() || ops->empty())
            throw Failure{std::string_view::npos, "\"operands\" must be a non-empty list"};
        std::string names;
        op = nullptr;
        for (const json& o : *ops) {
            const std::string name = o.is_object() && o.contains("operand") && o["operand"].is_string()
                                         ? o["operand"].get<std::string>()
                                         : "?";
            names += (names.empty() ? "" : ", ") + name;
            if (options.operand && parseOperand(name) == options.operand)
                op = &o;
        }
        if (!op && ops->size() == 1)
            op = &ops->front();
        if (!op)
            throw Failure{std::string_view::npos,
                          options.operand
                              ? "the document has no operand " + std::string(toString(*options.operand)) +
                                    "; it has " + names
                              : "the document holds operands " + names + ": name one with --operand"};
    }
    if (op->contains("linear") && (*op)["linear"] == false)
        throw Failure{
            std::string_view::npos,
            "operand " + excerpt(op->value("operand", std::string("?")), 8) +
                " is not linear in this export: " + excerpt(op->value("reason", std::string()), 200)};
    const auto bases = op->find("bases");
    if (bases == op->end() || !bases->is_object())
        throw Failure{std::string_view::npos,
                      "expected \"bases\": {\"register\": [...], \"lane\": [...], \"warp\": [...]}"};
    if (const auto block = bases->find("block");
        block != bases->end() && !(block->is_array() && block->empty()))
        throw Failure{std::string_view::npos,
                      "block bases (a layout over several CTAs) are not read; give []"};
    Bases b{jsonBases(*bases, "register"), jsonBases(*bases, "lane"), jsonBases(*bases, "warp")};
    Layout l = fromBases(b, Notation::TritonJson);
    if (op->contains("operand") && (*op)["operand"].is_string())
        l.operand = parseOperand((*op)["operand"].get<std::string>());
    if (const auto dims = op->find("out_dims"); dims != op->end() && dims->is_object()) {
        const json d0 = dims->value("dim0", json()), d1 = dims->value("dim1", json());
        if (!d0.is_number_unsigned() || !d1.is_number_unsigned() || d0.get<std::uint64_t>() < 1 ||
            d1.get<std::uint64_t>() < 1 || d0.get<std::uint64_t>() > 65536 || d1.get<std::uint64_t>() > 65536)
            throw Failure{std::string_view::npos,
                          "\"out_dims\" must be {\"dim0\": N, \"dim1\": N}, each 1..65536"};
        l.extent = Extent{d0.get<int>(), d1.get<int>(), 1};
    }
    return l;
}

} // namespace lanemap::layout_in::detail
