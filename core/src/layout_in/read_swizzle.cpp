// Swizzled shared-memory layouts read from text (docs/layouts-in.md#shared-memory-swizzled-layouts): CuTe's
// composed layouts as cute::print writes them — `Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)` (a
// GMMA atom: the swizzle acts on the byte address of the element pointer), `Sw<3,3,3> o _0 o
// (_8,_64):(_64,_1)` (the swizzle acts on the element offset) and `Sw<3,3,3> o (_8,_64):(_64,_1)` — made into
// a shared-memory placement, one byte address per element, compared byte for byte with lanemap's wgmma
// operand.

#include "lanemap/layout_in.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/family.hpp"
#include "layout_in/scanner.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

namespace lanemap::layout_in {

bool isSwizzled(std::string_view text) {
    detail::Scanner s(text);
    s.skipSpace();
    const std::string_view word = s.identifier();
    return (word == "Sw" || word == "S" || word == "Swizzle") && s.peek() == '<';
}

std::string_view toString(SharedNotation notation) {
    switch (notation) {
    case SharedNotation::CuteSwizzle:
        return "CuTe swizzled layout";
    case SharedNotation::TritonNvmma:
        return "Triton #ttg.nvmma_shared";
    case SharedNotation::TritonSwizzled:
        return "Triton #ttg.swizzled_shared";
    case SharedNotation::TritonLinear:
        return "Triton #ttg.shared_linear";
    case SharedNotation::TritonPadded:
        return "Triton #ttg.padded_shared";
    }
    return "?";
}

bool isSharedLayout(std::string_view text) {
    if (isSwizzled(text))
        return true;
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && (text[first] == '#' || text[first] == '!') &&
           detail::isTritonShared(text);
}

std::variant<SharedLayout, ReadError> readShared(std::string_view text, const SharedReadOptions& options) {
    if (isSwizzled(text)) {
        if (options.extent)
            return ReadError{std::string_view::npos, 0, 0,
                             "a CuTe swizzled layout's shape is its own modes; drop --shape"};
        return readShared(text, options.elementBits);
    }
    try {
        if (!detail::isTritonShared(text))
            throw detail::Failure{
                0, "expected a shared-memory layout: CuTe's Sw<B,M,S> o ... or Triton's "
                   "#ttg.nvmma_shared<...>, #ttg.swizzled_shared<...>, #ttg.shared_linear<...>"};
        return detail::readTritonShared(text, options);
    } catch (const detail::Failure& f) {
        return detail::readError(text, f);
    }
}

SharedLayout forOperand(const SharedLayout& l, Operand operand) {
    if (!l.tensorDims)
        return l;
    SharedLayout o = l;
    o.tensorDims = false;
    if (operand != Operand::B) // A is [M, K]: (MN, K) already
        return o;
    o.rows = l.cols; // B is [K, N]: (N, K) is its transpose
    o.cols = l.rows;
    for (int n = 0; n < o.rows; ++n)
        for (int k = 0; k < o.cols; ++k)
            o.offsets[static_cast<std::size_t>(n) * static_cast<std::size_t>(o.cols) +
                      static_cast<std::size_t>(k)] =
                l.offsets[static_cast<std::size_t>(k) * static_cast<std::size_t>(l.cols) +
                          static_cast<std::size_t>(n)];
    return o;
}

std::optional<smem::Major> impliedMajor(const SharedLayout& l, Operand operand) {
    if (!l.tensorDims || l.contiguousDim < 0)
        return std::nullopt;
    const int kDim = operand == Operand::B ? 0 : 1; // A [M, K], B [K, N]
    return l.contiguousDim == kDim ? smem::Major::K : smem::Major::MN;
}

std::uint32_t SharedLayout::address(int row, int col) const {
    const long inner = offsets[static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) +
                               static_cast<std::size_t>(col)];
    auto xorred = [&](long x) {
        if (bits == 0)
            return x;
        const long yyy = ((1L << bits) - 1) << (base + shift);
        return x ^ ((x & yyy) >> shift);
    };
    const long bytes = elementBits / 8;
    if (onBytes) // the swizzle of a smem_ptr acts on the pointer: the byte address
        return static_cast<std::uint32_t>(xorred(inner * bytes));
    return static_cast<std::uint32_t>(xorred(offset + inner) * bytes);
}

std::variant<SharedLayout, ReadError> readShared(std::string_view text, int elementBits) {
    detail::Scanner s(text);
    SharedLayout l;
    try {
        s.skipSpace();
        const std::size_t at = s.pos();
        const std::string word(s.identifier());
        if (word != "Sw" && word != "S" && word != "Swizzle")
            s.failAt(at, "expected Sw<B,M,S> opening a swizzled layout");
        s.expect("<", "'<' after " + word);
        long bms[3] = {};
        for (int i = 0; i < 3; ++i) {
            if (i)
                s.expect(",", "',' between the swizzle's B, M and S");
            const std::optional<long> v = s.integer();
            if (!v || *v < 0 || *v > 16)
                s.fail("expected an integer 0..16 (Sw<B,M,S>: B bits XORed, M the lowest, S the shift)");
            bms[i] = *v;
        }
        s.expect(">", "'>' closing Sw<B,M,S>");
        l.bits = static_cast<int>(bms[0]);
        l.base = static_cast<int>(bms[1]);
        l.shift = static_cast<int>(bms[2]);
        if (l.bits > 0 && l.shift < l.bits)
            s.failAt(at, "Sw<B,M,S> needs S >= B (CuTe's Swizzle: the XORed bit ranges must not overlap)");
        if (l.bits + l.base + l.shift > 30)
            s.failAt(at, "Sw<B,M,S> reaches past bit 30 of the address");
        s.expect("o", "'o' composing the swizzle with the layout");
        l.elementBits = elementBits;
        // The offset between them: smem_ptr[16b](unset), an integer (`_0`), or none.
        const std::size_t offsetAt = s.here();
        if (s.eat("smem_ptr")) {
            s.expect("[", "'[' after smem_ptr");
            const std::size_t bitsAt = s.here();
            const std::optional<long> bitsOf = s.integer();
            if (!bitsOf || (*bitsOf != 8 && *bitsOf != 16 && *bitsOf != 32 && *bitsOf != 64))
                s.failAt(bitsAt, "expected the element's bits, 8, 16, 32 or 64 (smem_ptr[16b]), found '" +
                                     excerpt(text.substr(bitsAt, 4), 4) + "'");
            s.expect("b", "'b' after the bits (smem_ptr[16b])");
            s.expect("]", "']' after smem_ptr[Nb");
            s.expect("(", "'(' after smem_ptr[Nb] (unset)");
            if (!s.eat("unset")) {
                const std::optional<long> base = s.integer();
                if (!base || *base != 0)
                    s.fail("expected unset or 0: lanemap places the layout at byte 0 (a base aligned to "
                           "the swizzle's repeat)");
            }
            s.expect(")", "')' after smem_ptr[Nb](unset");
            if (elementBits && elementBits != *bitsOf)
                s.failAt(offsetAt, "smem_ptr[" + std::to_string(*bitsOf) + "b] holds " +
                                       std::to_string(*bitsOf) + "-bit elements; the operand's are " +
                                       std::to_string(elementBits) + "-bit");
            l.elementBits = static_cast<int>(*bitsOf);
            l.onBytes = true;
            s.expect("o", "'o' composing the pointer with the layout");
        } else if (s.peek() == '_' || std::isdigit(static_cast<unsigned char>(s.peek()))) {
            const std::size_t p = s.pos();
            s.eat("_");
            const std::optional<long> off = s.integer();
            if (!off || *off < 0)
                s.fail("expected the offset, an integer");
            if (s.peek() == ':') { // no offset: this was the layout's own shape (`Sw<..> o 8:1`)
                s.seek(p);
            } else {
                l.offset = *off;
                s.expect("o", "'o' composing the offset with the layout");
            }
        }
        if (!l.elementBits)
            throw detail::Failure{
                std::string_view::npos,
                "the layout's element size is not in the text: paste it as CuTe prints a GMMA "
                "atom (Sw<3,4,3> o smem_ptr[16b](unset) o ...) or compare it with an operand "
                "(check --against)"};
        // The layout: (rows, cols) -> element offset, read as a CuTe thread-value layout of two modes.
        const std::size_t layoutAt = s.here();
        std::variant<Layout, ReadError> inner = read(text.substr(layoutAt));
        if (const ReadError* e = std::get_if<ReadError>(&inner))
            throw detail::Failure{e->offset == std::string_view::npos ? e->offset : layoutAt + e->offset,
                                  e->message};
        Layout& tv = std::get<Layout>(inner);
        if (!isCute(tv.notation))
            s.failAt(layoutAt, "expected a CuTe layout (ROWS,COLS):(STRIDES) after the swizzle");
        l.rows = tv.threads;
        l.cols = tv.values;
        l.offsets = std::move(tv.index);
        for (long x : l.offsets)
            if (x < 0 || (x + l.offset) * (l.elementBits / 8) >= (1L << 24))
                s.failAt(layoutAt, "an element's offset is negative or past 16 MiB");
        l.canonical = std::string(word == "Swizzle" ? "Sw" : word) + "<" + std::to_string(l.bits) + "," +
                      std::to_string(l.base) + "," + std::to_string(l.shift) + "> o " +
                      (l.onBytes ? "smem_ptr[" + std::to_string(l.elementBits) + "b](unset)"
                                 : "_" + std::to_string(l.offset)) +
                      " o " + tv.canonical;
    } catch (const detail::Failure& f) {
        return detail::readError(text, f);
    }
    return l;
}

namespace {

ElementType typeOfBits(int bits) {
    return bits == 8    ? ElementType::U8
           : bits == 16 ? ElementType::F16
           : bits == 32 ? ElementType::F32
                        : ElementType::F64;
}

} // namespace

Instruction instructionOf(const SharedLayout& l) {
    std::vector<std::vector<Holding>> holdings(static_cast<std::size_t>(l.rows) *
                                               static_cast<std::size_t>(l.cols));
    for (int r = 0; r < l.rows; ++r)
        for (int c = 0; c < l.cols; ++c)
            holdings[static_cast<std::size_t>(r) * static_cast<std::size_t>(l.cols) +
                     static_cast<std::size_t>(c)]
                .push_back({SmemByte{l.address(r, c), 0, l.elementBits, 0}, Source::Doc});
    Placement p = Placement::table(OperandSet{Operand::A}, Space::SharedMemory, typeOfBits(l.elementBits),
                                   l.rows, l.cols, std::move(holdings));
    Presentation words;
    words.rowAxis = l.tensorDims ? "dim0" : "mode 0";
    words.colAxis = l.tensorDims ? "dim1" : "mode 1";
    words.extentTitle = "shared memory: " + excerpt(l.canonical, 120);
    words.extentFact = std::to_string(l.rows) + " x " + std::to_string(l.cols) +
                       (l.tensorDims ? " (Triton's [dim0, dim1]), " : " (CuTe's (mode 0, mode 1)), ") +
                       std::to_string(l.elementBits) + "-bit elements";
    words.operandName = "layout";
    p.setPresentation(std::move(words));
    Instruction in;
    in.spec = "layout";
    in.ptx = std::string(toString(l.notation)) + ": " + excerpt(l.canonical, 160);
    in.threads = 0;
    in.scope = Scope::Warp;
    in.placements.push_back(std::move(p));
    return in;
}

namespace {

// The layout as (MN, K) of `operand`: itself when it is (a CuTe layout, or oriented already), else a
// transposed or relabelled copy in `copy` — no copy of a large layout for every comparison.
const SharedLayout& oriented(const SharedLayout& l, Operand operand, SharedLayout& copy) {
    if (!l.tensorDims)
        return l;
    copy = forOperand(l, operand);
    return copy;
}

// Whole tiles of `tile` (rows x cols of the operand's grid: A M x K, B K x N) covering the (MN, K) layout.
std::pair<int, int> covering(const SharedLayout& l, Operand operand, int tileRows, int tileCols) {
    const int gridRows = operand == Operand::B ? l.cols : l.rows,
              gridCols = operand == Operand::B ? l.rows : l.cols;
    auto cover = [](int want, int step) { return std::max(1, (want + step - 1) / step) * step; };
    return {cover(gridRows, tileRows), cover(gridCols, tileCols)};
}

} // namespace

std::optional<smem::SharedOperand> coveringOperand(const SharedLayout& layout, const Variant& variant,
                                                   Operand operand, const smem::Choice& choice,
                                                   std::string& error) {
    SharedLayout copy;
    const SharedLayout& l = oriented(layout, operand, copy);
    const std::vector<smem::SharedOperand> ops = smem::operands(variant, choice, error);
    const auto tile = std::find_if(ops.begin(), ops.end(),
                                   [&](const smem::SharedOperand& o) { return o.operand == operand; });
    if (tile == ops.end()) {
        if (error.empty())
            error = "no shared-memory " + std::string(toString(operand)) + " in this instruction";
        return std::nullopt;
    }
    const auto [rows, cols] = covering(l, operand, tile->rows, tile->cols);
    return smem::operandOver(variant, operand, choice, rows, cols, error);
}

std::optional<smem::SharedOperand> coveringOperand(const SharedLayout& layout, const Instruction& in,
                                                   Operand operand, const smem::Choice& choice,
                                                   std::string& error) {
    if (!in.family || !in.family->sharedOperand) {
        error =
            in.spec + " reads no operand from shared memory through a descriptor (wgmma and tcgen05.mma do)";
        return std::nullopt;
    }
    SharedLayout copy;
    const SharedLayout& l = oriented(layout, operand, copy);
    Placement own;
    if (!in.family->sharedOperand(in, operand, choice, 0, 0, own, error))
        return std::nullopt;
    const auto [rows, cols] = covering(l, operand, own.rows(), own.cols());
    Placement over;
    if (!in.family->sharedOperand(in, operand, choice, rows, cols, over, error))
        return std::nullopt;
    if (!over.shared()) {
        error = in.spec + " " + std::string(toString(operand)) + " is not a descriptor's layout";
        return std::nullopt;
    }
    return *over.shared();
}

SharedComparison compareShared(const SharedLayout& layout, const smem::SharedOperand& op) {
    SharedLayout copy;
    const SharedLayout& l = oriented(layout, op.operand, copy);
    SharedComparison c;
    // CuTe's shared-memory layouts are (MN, K), as lanemap's SmemLayout: mode 0 is mn, mode 1 is k.
    c.cells = l.rows * l.cols;
    if (l.elementBits != op.layout.elementBits()) {
        c.sameShape = false;
        c.why = "the layout's elements are " + std::to_string(l.elementBits) + "-bit; " +
                std::string(toString(op.operand)) + "'s are " + std::to_string(op.layout.elementBits()) +
                "-bit";
        return c;
    }
    if (l.rows > op.layout.rows() || l.cols > op.layout.cols()) {
        c.sameShape = false;
        c.why = "the layout is " + std::to_string(l.rows) + " x " + std::to_string(l.cols) + " (MN x K); " +
                std::string(toString(op.operand)) + " is " + std::to_string(op.layout.rows()) + " x " +
                std::to_string(op.layout.cols());
        return c;
    }
    for (int mn = 0; mn < l.rows; ++mn)
        for (int k = 0; k < l.cols; ++k) {
            const std::uint32_t mine = l.address(mn, k), theirs = op.layout.address(mn, k);
            if (mine == theirs)
                continue;
            ++c.differing;
            if (c.first.size() < 8)
                c.first.push_back({mn, k, mine, theirs});
        }
    return c;
}

namespace {

// The choices a descriptor can name: wgmma's (K or MN, none to 128B), and tcgen05's 128B-32B (MN only).
std::vector<smem::Choice> allChoices() {
    std::vector<smem::Choice> out;
    for (smem::Major m : {smem::Major::K, smem::Major::MN})
        for (smem::Swizzle sw : {smem::Swizzle::B128, smem::Swizzle::B64, smem::Swizzle::B32,
                                 smem::Swizzle::None, smem::Swizzle::B128Atom32})
            if (!(sw == smem::Swizzle::B128Atom32 && m == smem::Major::K))
                out.push_back({m, sw});
    return out;
}

} // namespace

std::optional<SharedMatch> bestChoice(const SharedLayout& layout, const Instruction& in, Operand operand,
                                      std::string& error) {
    std::optional<SharedMatch> best;
    std::string firstError;
    // The choice the layout names first (a Triton encoding's major and swizzle; CuTe's swizzle), then the
    // rest.
    std::vector<smem::Choice> choices = allChoices();
    smem::Choice named;
    named.major = impliedMajor(layout, operand).value_or(smem::Major::K);
    named.swizzle = layout.swizzle ? *layout.swizzle
                    : layout.notation == SharedNotation::CuteSwizzle
                        ? (layout.bits == 0   ? smem::Swizzle::None
                           : layout.bits == 1 ? smem::Swizzle::B32
                           : layout.bits == 2 ? smem::Swizzle::B64
                                              : smem::Swizzle::B128)
                        : smem::Swizzle::B128;
    choices.insert(choices.begin(), named);
    SharedLayout copy;
    const SharedLayout& l = oriented(layout, operand, copy);
    for (const smem::Choice& choice : choices) {
        std::string why;
        const std::optional<smem::SharedOperand> over = coveringOperand(l, in, operand, choice, why);
        if (!over) {
            if (firstError.empty())
                firstError = why;
            continue;
        }
        SharedComparison c = compareShared(l, *over);
        if (!c.sameShape) {
            if (firstError.empty())
                firstError = c.why;
            continue;
        }
        if (!best || c.differing < best->comparison.differing)
            best = SharedMatch{choice, std::move(c)};
        if (best->comparison.equal())
            break;
    }
    if (!best)
        error = firstError.empty() ? in.spec + " has no shared-memory " + std::string(toString(operand))
                                   : firstError;
    return best;
}

SharedIdentification identifyShared(const SharedLayout& layout, std::size_t nearest) {
    SharedIdentification id;
    const Catalog& catalog = Catalog::instance();
    // Many instructions read the same operand layout (every N of a wgmma A, f16 and bf16): one comparison per
    // family, operand, element size, covering extent and choice.
    std::map<std::tuple<std::string, int, int, int, int, int, int>, std::optional<SharedComparison>> seen;
    std::map<std::tuple<std::string, int, int, int>, std::size_t> groupOf; // family, operand, major, swizzle
    std::vector<SharedGroup> groups;
    const std::vector<smem::Choice> choices = allChoices();
    const SharedLayout asA = forOperand(layout, Operand::A), asB = forOperand(layout, Operand::B);
    for (const Variant* v : catalog.variants()) {
        const Instruction& in = catalog.instruction(*v);
        if (!in.family || !in.family->sharedOperand)
            continue;
        for (Operand operand : {Operand::A, Operand::B})
            for (const smem::Choice& choice : choices) {
                std::string error;
                Placement own;
                if (!in.family->sharedOperand(in, operand, choice, 0, 0, own, error) || !own.shared())
                    continue;
                if (own.shared()->layout.elementBits() != layout.elementBits || own.shared()->compressed)
                    continue;
                const SharedLayout& l = operand == Operand::B ? asB : asA;
                const auto [rows, cols] = covering(l, operand, own.rows(), own.cols());
                const auto key = std::tuple{std::string(in.family->name),
                                            static_cast<int>(operand),
                                            layout.elementBits,
                                            rows,
                                            cols,
                                            static_cast<int>(choice.major),
                                            static_cast<int>(choice.swizzle)};
                auto it = seen.find(key);
                if (it == seen.end()) {
                    std::optional<SharedComparison> c;
                    if (const std::optional<smem::SharedOperand> over =
                            coveringOperand(l, in, operand, choice, error))
                        if (SharedComparison r = compareShared(l, *over); r.sameShape)
                            c = std::move(r);
                    it = seen.emplace(key, std::move(c)).first;
                }
                if (!it->second)
                    continue;
                const auto gkey =
                    std::tuple{std::string(in.family->name), static_cast<int>(operand),
                               static_cast<int>(choice.major), static_cast<int>(choice.swizzle)};
                auto g = groupOf.find(gkey);
                if (g == groupOf.end()) {
                    g = groupOf.emplace(gkey, groups.size()).first;
                    groups.push_back({std::string(in.family->name),
                                      operand,
                                      choice,
                                      it->second->differing,
                                      it->second->cells,
                                      {}});
                }
                SharedGroup& group = groups[g->second];
                group.differing = std::min(group.differing, it->second->differing);
                group.instructions.push_back(&in);
            }
    }
    for (SharedGroup& g : groups)
        (g.differing == 0 ? id.equal : id.nearest).push_back(std::move(g));
    if (!id.equal.empty()) {
        id.nearest.clear();
        return id;
    }
    std::stable_sort(id.nearest.begin(), id.nearest.end(),
                     [](const SharedGroup& a, const SharedGroup& b) { return a.differing < b.differing; });
    if (id.nearest.size() > nearest)
        id.nearest.resize(nearest);
    return id;
}

std::string describeSharedCell(const SharedLayout& l, Operand operand, int mn, int k) {
    const char mnl = operand == Operand::B ? 'n' : 'm';
    std::string s =
        "(" + std::string(1, mnl) + " " + std::to_string(mn) + ", k " + std::to_string(k) + ") = ";
    if (!l.tensorDims)
        return s + "CuTe (" + std::to_string(mn) + "," + std::to_string(k) + ")";
    const int d0 = operand == Operand::B ? k : mn, d1 = operand == Operand::B ? mn : k;
    return s + "Triton [" + std::to_string(d0) + ", " + std::to_string(d1) + "] (offset " +
           std::to_string(l.offsets[static_cast<std::size_t>(d0) * static_cast<std::size_t>(l.cols) +
                                    static_cast<std::size_t>(d1)]) +
           ")";
}

} // namespace lanemap::layout_in
