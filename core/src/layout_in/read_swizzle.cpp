// Swizzled shared-memory layouts read from text (docs/layouts-in.md#shared-memory-swizzled-layouts): CuTe's
// composed layouts as cute::print writes them — `Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)` (a
// GMMA atom: the swizzle acts on the byte address of the element pointer), `Sw<3,3,3> o _0 o
// (_8,_64):(_64,_1)` (the swizzle acts on the element offset) and `Sw<3,3,3> o (_8,_64):(_64,_1)` — made into
// a shared-memory placement, one byte address per element, compared byte for byte with lanemap's wgmma
// operand.

#include "lanemap/layout_in.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "layout_in/scanner.hpp"

#include <algorithm>
#include <stdexcept>

namespace lanemap::layout_in {

bool isSwizzled(std::string_view text) {
    detail::Scanner s(text);
    s.skipSpace();
    const std::string_view word = s.identifier();
    return (word == "Sw" || word == "S" || word == "Swizzle") && s.peek() == '<';
}

std::uint32_t SharedLayout::address(int row, int col) const {
    const long inner = offsets[static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) +
                               static_cast<std::size_t>(col)];
    auto swizzle = [&](long x) {
        if (bits == 0)
            return x;
        const long yyy = ((1L << bits) - 1) << (base + shift);
        return x ^ ((x & yyy) >> shift);
    };
    const long bytes = elementBits / 8;
    if (onBytes) // the swizzle of a smem_ptr acts on the pointer: the byte address
        return static_cast<std::uint32_t>(swizzle(inner * bytes));
    return static_cast<std::uint32_t>(swizzle(offset + inner) * bytes);
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
    words.rowAxis = "mode 0";
    words.colAxis = "mode 1";
    words.extentTitle = "shared memory: " + excerpt(l.canonical, 120);
    words.extentFact = std::to_string(l.rows) + " x " + std::to_string(l.cols) +
                       " (CuTe's (mode 0, mode 1)), " + std::to_string(l.elementBits) + "-bit elements";
    words.operandName = "layout";
    p.setPresentation(std::move(words));
    Instruction in;
    in.spec = "layout";
    in.ptx = "CuTe swizzled layout: " + excerpt(l.canonical, 160);
    in.threads = 0;
    in.scope = Scope::Warp;
    in.placements.push_back(std::move(p));
    return in;
}

std::optional<smem::SharedOperand> coveringOperand(const SharedLayout& l, const Variant& variant,
                                                   Operand operand, const smem::Choice& choice,
                                                   std::string& error) {
    const std::vector<smem::SharedOperand> ops = smem::operands(variant, choice, error);
    const auto tile = std::find_if(ops.begin(), ops.end(),
                                   [&](const smem::SharedOperand& o) { return o.operand == operand; });
    if (tile == ops.end()) {
        if (error.empty())
            error = "no shared-memory " + std::string(toString(operand)) + " in this instruction";
        return std::nullopt;
    }
    // The grid is A M x K, B K x N; the layout (MN, K).
    const int gridRows = operand == Operand::B ? l.cols : l.rows,
              gridCols = operand == Operand::B ? l.rows : l.cols;
    auto cover = [](int want, int step) { return std::max(1, (want + step - 1) / step) * step; };
    return smem::operandOver(variant, operand, choice, cover(gridRows, tile->rows),
                             cover(gridCols, tile->cols), error);
}

SharedComparison compareShared(const SharedLayout& l, const smem::SharedOperand& op) {
    SharedComparison c;
    // CuTe's shared-memory layouts are (MN, K), as lanemap's SmemLayout: mode 0 is mn, mode 1 is k.
    c.cells = l.rows * l.cols;
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

} // namespace lanemap::layout_in
