// Triton linear layouts read from text (docs/layouts-in.md#what-is-read): the attribute Triton prints in
// its IR, `#ttg.linear<{register = [[0, 1], ...], lane = [...], warp = [...], block = []}>` (an alias
// `#linear = ` in front, or the braces alone), and lanemap's own `--format triton` JSON. Each basis is [dim0,
// dim1]; the image of (register, lane, warp) is the XOR of the bases of their set bits; thread = warp * lanes
// + lane.

#include "layout_in/scanner.hpp"
#include "layout_in/triton_fields.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace lanemap::layout_in::detail {

using triton_fields::integerField;
using triton_fields::integerList;
using triton_fields::powerOfTwo;

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

namespace {

// ---- nvidia_mma and dot_op, as Triton's LinearLayoutConversions.cpp converts them ----------------------

// A layout being built as Triton's LinearLayout products build it: bases per input dimension, and how much
// of each output dimension they cover so far. `outs` is the order of the output dimensions (Triton's
// "repOrder", most minor first): the order in which registers repeat the tile over a larger tensor.
struct Building {
    int outs[2] = {1, 0};
    int size[2] = {1, 1};
    Bases b;
    // LinearLayout::identity1D(n, in, dim) multiplied on the right: n more positions along `dim`.
    void identity(std::vector<Coord>& in, int n, int dim) {
        for (int k = 1; k < n; k <<= 1)
            in.push_back(dim == 0 ? Coord{size[0] * k, 0, 0} : Coord{0, size[1] * k, 0});
        size[dim] *= std::max(n, 1);
    }
    // LinearLayout::zeros1D(n, in, dim): n inputs that all hold the same element (a broadcast).
    static void zeros(std::vector<Coord>& in, int n) {
        for (int k = 1; k < n; k <<= 1)
            in.push_back({0, 0, 0});
    }
    // combineCtaCgaWithShape for one CTA: ensureLayoutNotSmallerThan (more registers, dim outs[0] first),
    // then ensureLayoutNotLargerThan (in each dim, the largest bases zeroed until the tile fits: broadcast).
    void overShape(const int shape[2]) {
        for (int d : outs)
            while (size[d] < shape[d]) {
                b.reg.push_back(d == 0 ? Coord{size[0], 0, 0} : Coord{0, size[1], 0});
                size[d] *= 2;
            }
        for (int d : outs) {
            std::vector<int*> parts;
            for (std::vector<Coord>* in : {&b.reg, &b.lane, &b.warp})
                for (Coord& c : *in)
                    if ((d == 0 ? c.d0 : c.d1) != 0)
                        parts.push_back(d == 0 ? &c.d0 : &c.d1);
            std::stable_sort(parts.begin(), parts.end(), [](const int* x, const int* y) { return *x > *y; });
            for (int* part : parts) {
                if (size[d] <= shape[d])
                    break;
                *part = 0;
                size[d] /= 2;
            }
        }
    }
};

// nvidiaMmaTile: kWidth registers and 4 lanes along the inner dim, 8 lanes along the outer, then registers
// repeating it over the outer, then over the inner dim.
void mmaTile(Building& x, const int tile[2], int kWidth, int inner) {
    const int outer = 1 - inner;
    x.identity(x.b.reg, kWidth, inner);
    x.identity(x.b.lane, 4, inner);
    x.identity(x.b.lane, 8, outer);
    x.identity(x.b.reg, tile[outer] / 8, outer);
    x.identity(x.b.reg, tile[inner] / (kWidth * 4), inner);
}

struct MmaAttribute {
    std::size_t at = 0; // where it starts in the text
    long major = 0, minor = 0;
    std::vector<long> warps, instr;
    std::string text() const {
        auto list = [](const std::vector<long>& v) {
            std::string s = "[";
            for (std::size_t i = 0; i < v.size(); ++i)
                s += (i ? ", " : "") + std::to_string(v[i]);
            return s + "]";
        };
        return "#ttg.nvidia_mma<{versionMajor = " + std::to_string(major) +
               ", versionMinor = " + std::to_string(minor) + ", warpsPerCTA = " + list(warps) +
               ", instrShape = " + list(instr) + "}>";
    }
};

// The CTA fields older Triton releases print: accepted when they name one CTA.
bool ctaField(Scanner& s, const std::string& key, std::size_t keyAt) {
    if (key != "CTAsPerCGA" && key != "CTASplitNum" && key != "CTAOrder")
        return false;
    const std::vector<long> list = integerList(s, key);
    if (key != "CTAOrder")
        for (long v : list)
            if (v != 1)
                s.failAt(keyAt, key + " names several CTAs; lanemap reads one CTA's layout");
    return true;
}

// #ttg.nvidia_mma<{...}> from its '<' on: the fields Triton prints.
MmaAttribute nvidiaMma(Scanner& s, std::size_t at) {
    MmaAttribute m;
    m.at = at;
    bool major = false, warps = false, instr = false;
    s.expect("<", "'<' after #ttg.nvidia_mma");
    s.expect("{", "'{' opening the fields of #ttg.nvidia_mma");
    do {
        const std::size_t keyAt = s.here();
        const std::string key(s.identifier());
        s.expect("=", "'=' after " + (key.empty() ? std::string("a field name") : key));
        if (key == "versionMajor")
            m.major = integerField(s, key), major = true;
        else if (key == "versionMinor")
            m.minor = integerField(s, key);
        else if (key == "warpsPerCTA")
            m.warps = integerList(s, key), warps = true;
        else if (key == "instrShape")
            m.instr = integerList(s, key), instr = true;
        else if (key == "CGALayout")
            s.failAt(keyAt, "CGALayout names several CTAs; lanemap reads one CTA's layout");
        else if (!ctaField(s, key, keyAt))
            s.failAt(keyAt, "expected versionMajor, versionMinor, warpsPerCTA or instrShape, found '" +
                                excerpt(key.empty() ? s.found() : key, 24) + "'");
    } while (s.eat(","));
    s.expect("}", "',' or '}' after the fields of #ttg.nvidia_mma");
    s.expect(">", "'>' closing #ttg.nvidia_mma<...>");
    if (!major || !warps || !instr)
        s.failAt(at, std::string("#ttg.nvidia_mma needs ") + (!major   ? "versionMajor"
                                                              : !warps ? "warpsPerCTA"
                                                                       : "instrShape"));
    if (m.major != 2 && m.major != 3)
        s.failAt(at, "versionMajor " + std::to_string(m.major) +
                         " is not read; lanemap reads 2 (mma.sync, Ampere) and 3 (wgmma, Hopper)");
    if (m.warps.size() != 2)
        s.failAt(at,
                 "warpsPerCTA has " + std::to_string(m.warps.size()) + " entries; lanemap reads 2-D layouts");
    for (long w : m.warps)
        if (!powerOfTwo(w))
            s.failAt(at, "warpsPerCTA entries are powers of two; found " + std::to_string(w));
    if (m.warps[0] * m.warps[1] > 32)
        s.failAt(at, "more than 32 warps (1024 threads, a CTA)");
    if (m.major == 2 && m.instr != std::vector<long>{16, 8})
        s.failAt(at, "versionMajor 2 has instrShape = [16, 8] (mma.sync's m16n8 tile)");
    if (m.major == 3 && (m.instr.size() != 3 || m.instr[0] != 16 || !powerOfTwo(m.instr[1]) ||
                         m.instr[1] < 8 || m.instr[1] > 256))
        s.failAt(at, "versionMajor 3 has instrShape = [16, N, K], N a power of two 8..256 (lanemap, as "
                     "Triton's LinearLayout, reads powers of two)");
    if (m.major == 3 && m.warps[0] % 4 != 0)
        s.failAt(at, "versionMajor 3 has warpsPerCTA = [4 x n, m]: a warpgroup's 4 warps along M");
    return m;
}

// "#ttg.nvidia_mma<...>" or "#alias" at the parser's position: the attribute, reading an alias where it is
// defined.
MmaAttribute parentAttribute(Scanner& s, const std::map<std::string, std::size_t, std::less<>>& aliases) {
    const std::size_t at = s.here();
    s.expect("#", "'#' opening the parent attribute (#ttg.nvidia_mma<...> or an alias such as #mma)");
    const std::string_view name = s.identifier();
    if (s.eat(".")) {
        if (name != "ttg" && name != "triton_gpu")
            s.failAt(at, "expected #ttg.nvidia_mma<...> as the parent");
        const std::size_t kindAt = s.here();
        const std::string_view kind = s.identifier();
        if (kind != "nvidia_mma")
            s.failAt(kindAt, "a dot_op of #ttg." + excerpt(kind, 24) +
                                 " is not read; lanemap reads dot_op operands of #ttg.nvidia_mma");
        return nvidiaMma(s, at);
    }
    const auto alias = aliases.find(name);
    if (alias == aliases.end())
        s.failAt(at, "#" + excerpt(name, 24) + " is not defined in the text; paste its line (#" +
                         excerpt(name, 24) + " = #ttg.nvidia_mma<...>) before the layout");
    const std::size_t back = s.pos();
    s.seek(alias->second);
    const std::size_t defAt = s.here();
    s.expect("#", "'#ttg.nvidia_mma<...>' after #" + std::string(name) + " =");
    const std::string_view dialect = s.identifier();
    s.expect(".", "'.' after #" + std::string(dialect));
    const std::size_t kindAt = s.here();
    const std::string_view kind = s.identifier();
    if ((dialect != "ttg" && dialect != "triton_gpu") || kind != "nvidia_mma")
        s.failAt(kindAt, "#" + std::string(name) + " is #" + excerpt(dialect, 16) + "." + excerpt(kind, 24) +
                             "; lanemap reads dot_op operands of #ttg.nvidia_mma");
    MmaAttribute m = nvidiaMma(s, defAt);
    s.seek(back);
    return m;
}

// The accumulator layout of nvidia_mma (NvidiaMmaEncodingAttr::toLinearLayout): the mma tile (kWidth 2),
// repeated by registers in rep order [1, 0]; warps in order [1, 0] (Ampere) or [0, 1] (Hopper).
Building mmaLayout(const MmaAttribute& m) {
    Building x;
    const int tile[2] = {static_cast<int>(m.instr[0]), static_cast<int>(m.instr[1])};
    mmaTile(x, tile, 2, 1);
    const int warpOrder[2] = {m.major == 2 ? 1 : 0, m.major == 2 ? 0 : 1};
    for (int d : warpOrder)
        x.identity(x.b.warp, static_cast<int>(m.warps[static_cast<std::size_t>(d)]), d);
    return x;
}

// A dot operand (nvidiaDotToLinearLayout): A's tile 16 x (kWidth * 8), B's (kWidth * 8) x 8, K the inner
// dim and the rep order's first; the parent's warps, broadcast along K.
Building dotLayout(const MmaAttribute& m, int opIdx, int kWidth) {
    Building x;
    const int inner = opIdx == 0 ? 1 : 0; // K
    x.outs[0] = inner;
    x.outs[1] = 1 - inner;
    const int tile[2] = {opIdx == 0 ? 16 : kWidth * 8, opIdx == 0 ? kWidth * 8 : 8};
    mmaTile(x, tile, kWidth, inner);
    const int warpOrder[2] = {m.major == 2 ? 1 : 0, m.major == 2 ? 0 : 1};
    for (int d : warpOrder) {
        const int w = static_cast<int>(m.warps[static_cast<std::size_t>(d)]);
        if (d == inner)
            Building::zeros(x.b.warp, w);
        else
            x.identity(x.b.warp, w, d);
    }
    return x;
}

// Lays `x` over the shape (or, without one, over the tile it covers) and names what was read.
Layout overShape(Building x, Scanner& s, std::size_t at, const std::optional<Extent>& extent,
                 Notation notation, const std::string& attribute) {
    int shape[2] = {x.size[0], x.size[1]};
    if (extent) {
        if (extent->products != 1)
            s.failAt(at, "a Triton layout has no product mode: give --shape DIM0xDIM1");
        if (!powerOfTwo(extent->dim0) || !powerOfTwo(extent->dim1))
            throw Failure{std::string_view::npos, "Triton lays an encoding over a shape of powers of two; "
                                                  "the shape is " +
                                                      toString(*extent)};
        shape[0] = extent->dim0;
        shape[1] = extent->dim1;
    }
    x.overShape(shape);
    if (x.b.reg.size() > kMostBases)
        s.failAt(at, "the layout has more than 2^" + std::to_string(kMostBases) + " registers");
    Layout l = fromBases(x.b, notation);
    l.extent = Extent{shape[0], shape[1], 1};
    l.canonical = attribute + " over " + toString(*l.extent) + " = " + l.canonical;
    return l;
}

// #ttg.dot_op<{opIdx = 0|1, parent = ..., kWidth = N}> from its '<' on.
Layout dotOperand(Scanner& s, std::size_t at, const std::map<std::string, std::size_t, std::less<>>& aliases,
                  const std::optional<Extent>& extent) {
    std::optional<long> opIdx, kWidth;
    std::optional<MmaAttribute> parent;
    std::size_t opIdxAt = at, kWidthAt = at;
    s.expect("<", "'<' after #ttg.dot_op");
    s.expect("{", "'{' opening the fields of #ttg.dot_op");
    do {
        const std::size_t keyAt = s.here();
        const std::string key(s.identifier());
        s.expect("=", "'=' after " + (key.empty() ? std::string("a field name") : key));
        if (key == "opIdx")
            opIdxAt = s.here(), opIdx = integerField(s, key);
        else if (key == "kWidth")
            kWidthAt = s.here(), kWidth = integerField(s, key);
        else if (key == "parent")
            parent = parentAttribute(s, aliases);
        else
            s.failAt(keyAt, "expected opIdx, parent or kWidth, found '" +
                                excerpt(key.empty() ? s.found() : key, 24) + "'");
    } while (s.eat(","));
    s.expect("}", "',' or '}' after the fields of #ttg.dot_op");
    s.expect(">", "'>' closing #ttg.dot_op<...>");
    if (!opIdx || !parent || !kWidth)
        s.failAt(at, std::string("#ttg.dot_op needs ") + (!opIdx ? "opIdx" : !parent ? "parent" : "kWidth"));
    if (*opIdx != 0 && *opIdx != 1)
        s.failAt(opIdxAt, "opIdx is 0 (A) or 1 (B)");
    if (!powerOfTwo(*kWidth) || *kWidth > 32)
        s.failAt(kWidthAt, "kWidth is a power of two 1..32 (the elements a thread holds along K in a row)");
    if (parent->major == 3 && *opIdx == 1)
        s.failAt(opIdxAt, "wgmma (versionMajor 3) reads B from shared memory: Triton has no dot_op B of it");
    Layout l = overShape(dotLayout(*parent, static_cast<int>(*opIdx), static_cast<int>(*kWidth)), s, at,
                         extent, Notation::TritonDotOperand,
                         "#ttg.dot_op<{opIdx = " + std::to_string(*opIdx) + ", parent = " + parent->text() +
                             ", kWidth = " + std::to_string(*kWidth) + "}>");
    return l; // opIdx is not the operand compared with: check --against names that
}

// Past one attribute: balanced (), [], {}, <> and "strings" — up to the bracket that closes its first one,
// or the end of its line (a pasted dump may run its lines together).
void skipAttribute(Scanner& s) {
    const std::string_view t = s.text();
    std::size_t p = s.pos();
    int depth = 0;
    while (p < t.size()) {
        const char c = t[p];
        if (c == '"') {
            const std::size_t close = t.find('"', p + 1);
            p = close == std::string_view::npos ? t.size() : close + 1;
            continue;
        }
        if (depth == 0 && c == '\n')
            break;
        if (c == '(' || c == '[' || c == '{' || c == '<')
            ++depth;
        else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0 &&
                 !(c == '>' && p > 0 && t[p - 1] == '-')) {
            if (--depth == 0) {
                ++p;
                break;
            }
        }
        ++p;
    }
    s.seek(p);
}

} // namespace

std::size_t attributeAfterAliases(std::string_view text,
                                  std::map<std::string, std::size_t, std::less<>>& aliases) {
    Scanner s(text);
    // An IR dump's alias lines (`#mma = #ttg.nvidia_mma<...>`) first: each name's definition, read when the
    // layout names it. The layout is the attribute after them, or else the last alias's.
    std::optional<std::size_t> lastAlias;
    while (s.peek() == '#') {
        const std::size_t at = s.pos();
        s.eat("#");
        const std::string_view name = s.identifier();
        if (!s.eat("=")) {
            s.seek(at);
            break;
        }
        s.skipSpace();
        aliases[std::string(name)] = s.pos();
        lastAlias = s.pos();
        skipAttribute(s);
    }
    if (s.atEnd() && lastAlias)
        s.seek(*lastAlias);
    s.skipSpace();
    return s.pos();
}

Layout readTritonLinear(std::string_view text, const std::optional<Extent>& extent) {
    Scanner s(text);
    std::map<std::string, std::size_t, std::less<>> aliases;
    s.seek(attributeAfterAliases(text, aliases));
    // The attribute read is the text's last: alias lines come before it.
    auto ends = [&] {
        if (!s.atEnd())
            s.fail("expected the end of the layout");
    };
    const std::size_t attributeAt = s.pos();
    Bases b;
    Notation notation = Notation::TritonLinear;
    if (s.eat("#")) {
        const std::size_t dialectAt = s.pos();
        const std::string_view dialect = s.identifier();
        if (dialect != "ttg" && dialect != "triton_gpu")
            s.failAt(dialectAt, "expected #ttg.linear<...>, found '#" + excerpt(dialect, 16) + "'");
        s.expect(".", "'.' after #" + std::string(dialect));
        const std::size_t at = s.pos();
        const std::string_view name = s.identifier();
        if (name == "nvidia_mma" || name == "dot_op") {
            Layout l;
            if (name == "dot_op")
                l = dotOperand(s, attributeAt, aliases, extent);
            else {
                const MmaAttribute m = nvidiaMma(s, attributeAt);
                l = overShape(mmaLayout(m), s, m.at, extent, Notation::TritonMma, m.text());
            }
            ends();
            return l;
        }
        if (name == "blocked") {
            b = blocked(s, at, extent);
            notation = Notation::TritonBlocked;
        } else if (name != "linear")
            s.failAt(at, name.empty() ? "expected linear after #ttg."
                                      : "#ttg." + excerpt(name, 24) +
                                            " is not read yet; lanemap reads #ttg.linear, #ttg.blocked, "
                                            "#ttg.nvidia_mma and #ttg.dot_op (Triton converts any layout to "
                                            "#ttg.linear: docs/layouts-in.md#triton)");
        else {
            s.expect("<", "'<' after #ttg.linear");
            b = attributeBody(s);
            s.expect(">", "'>' closing #ttg.linear<...>");
        }
    } else
        b = attributeBody(s);
    const std::size_t attributeEnd = s.pos();
    ends();
    Layout l = fromBases(b, notation);
    if (notation == Notation::TritonBlocked) // what was read, then the linear layout it is
        l.canonical =
            excerpt(text.substr(attributeAt, attributeEnd - attributeAt), 200) + " = " + l.canonical;
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
