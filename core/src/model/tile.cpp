// Tiles of MMA atoms (lanemap/tile.hpp, docs/tiles.md): CuTe's layout notation read once, the tile checked,
// and the atom's register placements composed into the tile's.
#include "lanemap/tile.hpp"
#include "model/tile_json.hpp"
#include "model/tile_rules.hpp"

#include "families/params_check.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/model.hpp"

#include <algorithm>
#include <cctype>
#include <memory>
#include <stdexcept>

namespace lanemap {

// --- CuTe layouts
// --------------------------------------------------------------------------------------------

int CuteLayout::size() const {
    long long s = 1;
    for (int e : shape)
        s *= e;
    return static_cast<int>(s);
}

long long CuteLayout::operator()(long long index) const {
    long long value = 0;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        value += (index % shape[i]) * stride[i];
        index /= shape[i];
    }
    return value;
}

namespace {

bool compactColumnMajor(const CuteLayout& l) {
    long long expect = 1;
    for (std::size_t i = 0; i < l.shape.size(); ++i) {
        if (l.shape[i] != 1 && l.stride[i] != expect)
            return false;
        expect *= l.shape[i];
    }
    return true;
}

std::string cuteTuple(const std::vector<int>& values) {
    if (values.size() == 1)
        return "_" + std::to_string(values.front());
    std::string s = "(";
    for (std::size_t i = 0; i < values.size(); ++i)
        s += (i ? ",_" : "_") + std::to_string(values[i]);
    return s + ")";
}

// A recursive reader of CuTe's shape and stride tuples: "(_8,(2,_2))" into its leaves, and its nesting as a
// string of '(' ')' ',' and 'x' (a leaf), so that a stride can be checked against its shape.
class TupleReader {
  public:
    TupleReader(std::string_view text, std::string_view what) : m_text(text), m_what(what) {}

    bool read(std::vector<int>& leaves, std::string& nesting, std::string& error, bool allowZero) {
        skipBlanks();
        if (m_pos < m_text.size() && m_text[m_pos] == '(') {
            ++m_pos;
            nesting += '(';
            for (bool first = true;; first = false) {
                if (!first)
                    nesting += ',';
                if (!read(leaves, nesting, error, allowZero))
                    return false;
                skipBlanks();
                if (m_pos < m_text.size() && m_text[m_pos] == ',') {
                    ++m_pos;
                    continue;
                }
                if (m_pos < m_text.size() && m_text[m_pos] == ')') {
                    ++m_pos;
                    nesting += ')';
                    return true;
                }
                error =
                    std::string(m_what) + ": expected ',' or ')' at position " + std::to_string(m_pos + 1);
                return false;
            }
        }
        if (m_pos < m_text.size() && m_text[m_pos] == '_')
            ++m_pos;
        const std::size_t start = m_pos;
        long long v = 0;
        while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
            v = v * 10 + (m_text[m_pos] - '0');
            if (v > 1'000'000) {
                error = std::string(m_what) + ": " + excerpt(m_text.substr(start), 24) +
                        " is too large; a mode has at most 1024 elements";
                return false;
            }
            ++m_pos;
        }
        if (m_pos == start) {
            error = std::string(m_what) + ": expected an integer (8 or CuTe's _8) or '(' at position " +
                    std::to_string(m_pos + 1);
            return false;
        }
        if (v == 0 && !allowZero) {
            error = std::string(m_what) + ": a shape has no mode of size 0";
            return false;
        }
        leaves.push_back(static_cast<int>(v));
        nesting += 'x';
        return true;
    }
    void skipBlanks() {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    std::size_t pos() const { return m_pos; }
    void advance() { ++m_pos; }
    bool atEnd() {
        skipBlanks();
        return m_pos == m_text.size();
    }
    char peek() {
        skipBlanks();
        return m_pos < m_text.size() ? m_text[m_pos] : '\0';
    }

  private:
    std::string_view m_text;
    std::string_view m_what;
    std::size_t m_pos = 0;
};

// Splits "a,(b,c):(d,e),f" at its top-level commas.
std::vector<std::string_view> topLevel(std::string_view text) {
    std::vector<std::string_view> parts;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '(')
            ++depth;
        else if (text[i] == ')')
            --depth;
        else if (text[i] == ',' && depth == 0) {
            parts.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.push_back(text.substr(start));
    return parts;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::optional<CuteLayout> parseLayoutAs(std::string_view text, std::string_view what, std::string& error) {
    CuteLayout l;
    TupleReader r(text, what);
    std::string shapeNesting, strideNesting;
    if (r.atEnd()) {
        error =
            std::string(what) + " is empty; write a CuTe layout such as (2,2,1) or (_8,_2,_2):(_1,_16,_8)";
        return std::nullopt;
    }
    if (!r.read(l.shape, shapeNesting, error, false))
        return std::nullopt;
    if (r.peek() == ':') {
        r.advance();
        if (!r.read(l.stride, strideNesting, error, true))
            return std::nullopt;
        if (strideNesting != shapeNesting) {
            error = std::string(what) + ": the stride " + excerpt(text.substr(text.find(':') + 1), 40) +
                    " does not have the shape's nesting " + excerpt(text.substr(0, text.find(':')), 40);
            return std::nullopt;
        }
    } else {
        long long s = 1;
        for (int e : l.shape) {
            l.stride.push_back(static_cast<int>(s));
            s *= e;
        }
    }
    if (!r.atEnd()) {
        error =
            std::string(what) + ": unexpected '" + excerpt(text.substr(r.pos()), 20) + "' after the layout";
        return std::nullopt;
    }
    long long size = 1;
    for (int e : l.shape)
        size *= e;
    if (size > 1'000'000) {
        error = std::string(what) + " " + excerpt(text, 40) + " has " + std::to_string(size) +
                " elements; a mode has at most " + std::to_string(tile::kMaxExtent);
        return std::nullopt;
    }
    return l;
}

} // namespace

std::string CuteLayout::cute() const {
    if (shape.size() == 1 && stride.front() == 1)
        return "_" + std::to_string(shape.front());
    if (compactColumnMajor(*this))
        return cuteTuple(shape);
    return cuteTuple(shape) + ":" + cuteTuple(stride);
}

std::optional<CuteLayout> parseCuteLayout(std::string_view text, std::string& error) {
    return parseLayoutAs(text, "layout", error);
}

namespace tile {

std::string TileLayout::atomLayoutText() const {
    std::string s = "(";
    for (std::size_t i = 0; i < atoms.shape.size(); ++i)
        s += (i ? "," : "") + std::to_string(atoms.shape[i]);
    s += ")";
    if (!compactColumnMajor(atoms)) {
        s += ":(";
        for (std::size_t i = 0; i < atoms.stride.size(); ++i)
            s += (i ? "," : "") + std::to_string(atoms.stride[i]);
        s += ")";
    }
    return s;
}

std::string TileLayout::permutationText() const {
    if (std::none_of(permutation.begin(), permutation.end(), [](const auto& p) { return p.has_value(); }))
        return "";
    std::string s;
    for (int m = 0; m < 3; ++m)
        s += (m ? "," : "") + (permutation[m] ? permutation[m]->cute() : std::string("_"));
    return s;
}

std::optional<TileLayout> parseTileLayout(std::string_view atomLayout, std::string_view permutation,
                                          std::string& error) {
    TileLayout t;
    std::optional<CuteLayout> atoms = parseLayoutAs(atomLayout, "--atom-layout", error);
    if (!atoms)
        return std::nullopt;
    if (atoms->shape.size() != 3) {
        error = "--atom-layout " + excerpt(atomLayout, 40) + " has " + std::to_string(atoms->shape.size()) +
                " modes; it has three, the atoms along M, N and K, e.g. (2,2,1) or (2,2,1):(2,1,0)";
        return std::nullopt;
    }
    t.atoms = std::move(*atoms);
    std::string_view text = trimmed(permutation);
    if (text.empty())
        return t;
    // CuTe prints a Tile in parentheses: "(_32,_32,_16)" reads as its three modes.
    std::vector<std::string_view> modes = topLevel(text);
    if (modes.size() == 1 && text.front() == '(' && text.back() == ')' && text.find(':') == std::string::npos)
        modes = topLevel(text.substr(1, text.size() - 2));
    if (modes.size() > 3) {
        error = "--permutation " + excerpt(permutation, 60) + " has " + std::to_string(modes.size()) +
                " modes; it has at most three, for M, N and K, e.g. _32,(_8,_2,_2):(_1,_16,_8),_16 ('_' for "
                "none)";
        return std::nullopt;
    }
    for (std::size_t m = 0; m < modes.size(); ++m) {
        const std::string_view mode = trimmed(modes[m]);
        if (mode == "_")
            continue;
        std::optional<CuteLayout> p =
            parseLayoutAs(mode, std::string("--permutation ") + kModeNames[m], error);
        if (!p)
            return std::nullopt;
        t.permutation[m] = std::move(*p);
    }
    return t;
}

namespace {

int atomExtent(const Instruction& atom, int mode) {
    return mode == M ? atom.m : mode == N ? atom.n : atom.k;
}

std::string modeWord(int mode) {
    return std::string(kModeNames[mode]);
}

} // namespace

std::string checkNumbering(const TileLayout& tile) {
    // The atom layout numbers the atoms: a bijection onto 0 .. copies-1, as right_inverse needs.
    const int copies = tile.atoms.size();
    std::vector<char> seen(static_cast<std::size_t>(copies), 0);
    for (int i = 0; i < copies; ++i) {
        const long long w = tile.atoms(i);
        if (w < 0 || w >= copies || seen[static_cast<std::size_t>(w)]++)
            return "--atom-layout " + tile.atomLayoutText() + " numbers two atoms alike or one beyond " +
                   std::to_string(copies - 1) + "; its strides must number the atoms 0.." +
                   std::to_string(copies - 1) + " once each (e.g. (2,2,1):(1,2,0) or (2,2,1):(2,1,0))";
    }
    return {};
}

std::string checkPermutation(const std::string& spec, Mode m, const CuteLayout& perm, int atomExtent,
                             int atoms, bool sparse) {
    const CuteLayout* p = &perm;
    const int core = atomExtent * atoms;
    const int size = p->size();
    // CuTe tiles max(core, permutation size); lanemap asks for a multiple, where CuTe's division is exact.
    if (size % core != 0)
        return "--permutation " + modeWord(m) + " " + p->cute() + " covers " + std::to_string(size) +
               " elements; the tile's " + modeWord(m) + " is a multiple of " + std::to_string(core) + " (" +
               std::to_string(atomExtent) + " of the atom x " + std::to_string(atoms) + " atoms), e.g. _" +
               std::to_string(core) + " or _" + std::to_string(2 * core);
    if (size > kMaxExtent)
        return "--permutation " + modeWord(m) + " " + p->cute() + " covers " + std::to_string(size) +
               " elements; lanemap draws at most " + std::to_string(kMaxExtent) + " along a mode";
    std::vector<char> hit(static_cast<std::size_t>(size), 0);
    for (int i = 0; i < size; ++i) {
        const long long v = (*p)(i);
        if (v < 0 || v >= size)
            return "--permutation " + modeWord(m) + " " + p->cute() + " maps " + std::to_string(i) + " to " +
                   std::to_string(v) + ", outside the tile's " + modeWord(m) + " 0.." +
                   std::to_string(size - 1) + "; a permutation is a bijection of 0.." +
                   std::to_string(size - 1);
        if (hit[static_cast<std::size_t>(v)]++)
            return "--permutation " + modeWord(m) + " " + p->cute() + " is not a bijection onto 0.." +
                   std::to_string(size - 1) + ": it reaches " + std::to_string(v) +
                   " twice (check its strides)";
    }
    if (m == K && sparse)
        for (int i = 0; i < size; ++i)
            if ((*p)(i) != i)
                return "--permutation K " + p->cute() + " reorders K of the sparse " + spec +
                       ", whose A chunks and metadata count K in order; give K as a size only, e.g. _" +
                       std::to_string(size);
    return {};
}

std::string validate(const Instruction& atom, const TileLayout& tile) {
    if (atom.operands.empty())
        return "a tile composes an atom's register operands; " + atom.spec + " has none in registers";
    for (const FragmentLayout& op : atom.operands)
        if (op.matrices() != 1)
            return "a tile of " + atom.spec +
                   " is not drawn: its four quad-pair products (mma.m8n8k4 .f16) are no single atom";
    const int atomThreads = atom.threads;
    const int copies = tile.atoms.size();
    for (int m = 0; m < 3; ++m)
        if (tile.atoms.shape[m] < 1)
            return "--atom-layout: mode " + modeWord(m) + " has no atoms";
    if (static_cast<long long>(copies) * atomThreads > kMaxCtaThreads)
        return "--atom-layout " + tile.atomLayoutText() + " asks for " + std::to_string(copies) + " x " +
               std::to_string(atomThreads) + " = " + std::to_string(copies * atomThreads) +
               " threads; a CTA has at most " + std::to_string(kMaxCtaThreads) + " (at most " +
               std::to_string(kMaxCtaThreads / atomThreads) + (atomThreads == 32 ? " warps" : " warpgroups") +
               " of " + atom.spec + ")";
    if (std::string why = checkNumbering(tile); !why.empty())
        return why;
    const std::array<int, 3> layoutShape{tile.atoms.shape[0], tile.atoms.shape[1], tile.atoms.shape[2]};
    for (int m = 0; m < 3; ++m) {
        const int core = atomExtent(atom, m) * layoutShape[m];
        const std::optional<CuteLayout>& p = tile.permutation[m];
        if (!p) {
            if (core > kMaxExtent)
                return "the tile's " + modeWord(m) + " is " + std::to_string(core) +
                       "; lanemap draws at most " + std::to_string(kMaxExtent) + " along a mode";
            continue;
        }
        if (std::string why = checkPermutation(atom.spec, static_cast<Mode>(m), *p, atomExtent(atom, m),
                                               layoutShape[m], atom.sparse);
            !why.empty())
            return why;
    }
    // Elements per thread fit the views' 16-bit indices.
    const std::array<int, 3> ext{tile.permutation[M] ? tile.permutation[M]->size() : atom.m * layoutShape[M],
                                 tile.permutation[N] ? tile.permutation[N]->size() : atom.n * layoutShape[N],
                                 tile.permutation[K] ? tile.permutation[K]->size() : atom.k * layoutShape[K]};
    const long long restMN = static_cast<long long>(ext[M] / (atom.m * layoutShape[M])) *
                             (ext[N] / (atom.n * layoutShape[N])) * (ext[K] / (atom.k * layoutShape[K]));
    for (const FragmentLayout& op : atom.operands)
        if (static_cast<long long>(op.elementsPerThread()) * restMN > 16384)
            return "the tile " + std::to_string(ext[M]) + "x" + std::to_string(ext[N]) + "x" +
                   std::to_string(ext[K]) + " gives each thread over 16384 elements of " +
                   std::string(op.name()) + "; give more atoms (--atom-layout) or a smaller tile";
    return {};
}

std::string nameOf(const Instruction& in) {
    if (!in.tile)
        return in.spec;
    const TileFacts& f = *in.tile;
    const std::string& spec = f.atomSpec.empty() ? in.spec : f.atomSpec;
    std::string s = spec + " tile " + std::to_string(f.extent[M]) + "x" + std::to_string(f.extent[N]) + "x" +
                    std::to_string(f.extent[K]) + " (atom layout " + f.atomLayout;
    if (!f.permutation.empty())
        s += ", permutation " + f.permutation;
    return s + ")";
}

std::string factLine(const TileFacts& f) {
    const int copies = f.atomsPerMode[M] * f.atomsPerMode[N] * f.atomsPerMode[K];
    const bool warpgroups = f.atomThreads == kWarpgroupSize;
    if (f.atomThreads < kWarpSize) // tcgen05.mma atoms over the CTAs of a cluster
        return std::to_string(copies) + " atom" + (copies == 1 ? "" : "s") + " (" +
               std::to_string(f.atomsPerMode[M]) + " along M, " + std::to_string(f.atomsPerMode[N]) +
               " along N, " + std::to_string(f.atomsPerMode[K]) + " along K) of " +
               std::to_string(f.atomThreads) + (f.atomThreads == 1 ? " CTA" : " CTAs") + ", " +
               std::to_string(f.threads) + " CTAs of a cluster, each running the " +
               std::to_string(f.atomShape[M]) + "x" + std::to_string(f.atomShape[N]) + "x" +
               std::to_string(f.atomShape[K]) + " atom " +
               std::to_string(f.extent[K] / (f.atomShape[K] * f.atomsPerMode[K])) + " times";
    std::string s = std::to_string(copies) + (warpgroups ? " warpgroup" : " warp") +
                    (copies == 1 ? "" : "s") + " (" + std::to_string(f.atomsPerMode[M]) + " along M, " +
                    std::to_string(f.atomsPerMode[N]) + " along N, " + std::to_string(f.atomsPerMode[K]) +
                    " along K), " + std::to_string(f.threads) + " threads, each running the " +
                    std::to_string(f.atomShape[M]) + "x" + std::to_string(f.atomShape[N]) + "x" +
                    std::to_string(f.atomShape[K]) + " atom " +
                    std::to_string(f.extent[M] / (f.atomShape[M] * f.atomsPerMode[M]) *
                                   (f.extent[N] / (f.atomShape[N] * f.atomsPerMode[N])) *
                                   (f.extent[K] / (f.atomShape[K] * f.atomsPerMode[K]))) +
                    " times";
    return s;
}

nlohmann::ordered_json tileJson(const TileFacts& f) {
    nlohmann::ordered_json o;
    o["atom"] = {
        {"m", f.atomShape[M]}, {"n", f.atomShape[N]}, {"k", f.atomShape[K]}, {"threads", f.atomThreads}};
    o["atom_layout"] = f.atomLayout;
    o["permutation"] = f.permutation;
    o["atoms"] = {f.atomsPerMode[M], f.atomsPerMode[N], f.atomsPerMode[K]};
    o["m"] = f.extent[M];
    o["n"] = f.extent[N];
    o["k"] = f.extent[K];
    if (f.atomThreads < kWarpSize) { // tcgen05.mma atoms: CuTe's "threads" are CTAs (lanemap/tile_ctas.hpp)
        o["atom"].erase("threads");
        o["atom"]["ctas"] = f.atomThreads;
        o["ctas"] = f.threads;
        return o;
    }
    o["threads"] = f.threads;
    o["warps"] = f.threads / kWarpSize;
    if (f.atomThreads == kWarpgroupSize)
        o["warpgroups"] = f.threads / kWarpgroupSize;
    return o;
}

int ctaThread(const TileFacts& facts, const TileLayout& tile, int v, const AtomCopy& w) {
    const long long index = w.wm + static_cast<long long>(tile.atoms.shape[0]) *
                                       (w.wn + static_cast<long long>(tile.atoms.shape[1]) * w.wk);
    return v + facts.atomThreads * static_cast<int>(tile.atoms(index));
}

int tileCoordinate(const TileFacts& facts, const TileLayout& tile, Mode mode, int a, int w, int r) {
    const int i = a + facts.atomShape[mode] * (w + facts.atomsPerMode[mode] * r);
    return tile.permutation[mode] ? static_cast<int>((*tile.permutation[mode])(i)) : i;
}

void apply(Instruction& in) {
    const TileLayout& t = *in.params.tile;
    TileFacts f;
    f.atomShape = {in.m, in.n, in.k};
    f.atomsPerMode = {t.atoms.shape[0], t.atoms.shape[1], t.atoms.shape[2]};
    f.atomThreads = in.threads;
    for (int m = 0; m < 3; ++m)
        f.extent[m] = t.permutation[m] ? t.permutation[m]->size() : f.atomShape[m] * f.atomsPerMode[m];
    const int copies = t.atoms.size();
    f.threads = f.atomThreads * copies;
    std::array<int, 3> rest{};
    for (int m = 0; m < 3; ++m)
        rest[m] = f.extent[m] / (f.atomShape[m] * f.atomsPerMode[m]);

    std::vector<FragmentLayout> tiled;
    for (const FragmentLayout& op : in.operands) {
        // The operand's two modes: A is M x K, B is K x N (rows k), C and D are M x N.
        const Operand o = op.operand();
        const Mode rowMode = o == Operand::A ? M : o == Operand::B ? K : M;
        const Mode colMode = o == Operand::A ? K : o == Operand::B ? N : N;
        // The mode along which threads hold the same elements (A: N; B: M; C, D: K) and the two rest modes in
        // CuTe's value order (A: M then K; B: N then K; C, D: M then N).
        const Mode first = o == Operand::B ? N : M;
        const Mode second = o == Operand::A || o == Operand::B ? K : N;
        const int restFirst = rest[first], restSecond = rest[second];
        const int atomPer = op.elementsPerThread();
        const int perThread = atomPer * restFirst * restSecond;
        FragmentShape shape;
        shape.rows = f.extent[rowMode];
        shape.cols = f.extent[colMode];
        shape.registers = op.registers() * restFirst * restSecond;
        shape.registerBits = op.registerBits();
        shape.elementsPerRegister = op.elementsPerRegister();
        std::vector<Element> elements(static_cast<std::size_t>(f.threads) *
                                      static_cast<std::size_t>(perThread));
        for (int wk = 0; wk < f.atomsPerMode[K]; ++wk)
            for (int wn = 0; wn < f.atomsPerMode[N]; ++wn)
                for (int wm = 0; wm < f.atomsPerMode[M]; ++wm) {
                    const AtomCopy w{wm, wn, wk};
                    const std::array<int, 3> wOf{wm, wn, wk};
                    for (const Element& e : op.elements()) {
                        const int thread = ctaThread(f, t, e.thread, w);
                        for (int r2 = 0; r2 < restSecond; ++r2)
                            for (int r1 = 0; r1 < restFirst; ++r1) {
                                std::array<int, 3> r{};
                                r[first] = r1;
                                r[second] = r2;
                                const int restIndex = r1 + restFirst * r2;
                                Element x = e;
                                x.thread = static_cast<std::uint16_t>(thread);
                                x.index = static_cast<std::uint16_t>(e.index + atomPer * restIndex);
                                x.reg = static_cast<std::uint16_t>(e.reg + op.registers() * restIndex);
                                x.row = static_cast<std::uint16_t>(
                                    tileCoordinate(f, t, rowMode, e.row, wOf[rowMode], r[rowMode]));
                                // A sparse chunk stays one range: K is not permuted for sparse atoms.
                                const int col =
                                    tileCoordinate(f, t, colMode, e.col, wOf[colMode], r[colMode]);
                                x.col = static_cast<std::uint16_t>(col);
                                x.colLast = static_cast<std::uint16_t>(col + (e.colLast - e.col));
                                elements[static_cast<std::size_t>(thread) *
                                             static_cast<std::size_t>(perThread) +
                                         x.index] = x;
                            }
                    }
                }
        tiled.push_back(FragmentLayout::fromElements(o, op.elementType(), op.elementBits(), f.threads, shape,
                                                     std::move(elements)));
    }
    f.atomLayout = t.atomLayoutText();
    f.permutation = t.permutationText();
    f.cutlassAtom = in.family && in.family->cutlassAtom ? in.family->cutlassAtom(in) : ""; // the atom's shape
    in.tile = std::make_shared<const TileFacts>(std::move(f));
    in.operands = std::move(tiled);
    in.m = in.tile->extent[M];
    in.n = in.tile->extent[N];
    in.k = in.tile->extent[K];
    in.threads = in.tile->threads;
    in.scope = Scope::Cta;
    in.metadata.reset();
    in.hardware = nullptr; // a recorded run confirmed the atom, not this tile (docs/tiles.md)
    in.placements.clear();
    family::placeRegisters(in);
}

} // namespace tile
} // namespace lanemap
