// Layouts in (lanemap/layout_in.hpp, docs/layouts-in.md): which notation a text is, the extent, the register
// placement a read layout becomes, and the comparison with the catalog's operands.

#include "lanemap/layout_in.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/evidence.hpp"
#include "layout_in/scanner.hpp"

#include <algorithm>
#include <charconv>

namespace lanemap::layout_in {

std::string_view toString(Notation notation) {
    switch (notation) {
    case Notation::CuteLayout:
        return "CuTe Shape:Stride";
    case Notation::CuteType:
        return "CuTe Layout<> type";
    case Notation::TritonLinear:
        return "Triton #ttg.linear";
    case Notation::TritonJson:
        return "Triton bases JSON";
    case Notation::TritonBlocked:
        return "Triton #ttg.blocked";
    case Notation::TritonMma:
        return "Triton #ttg.nvidia_mma";
    case Notation::TritonDotOperand:
        return "Triton #ttg.dot_op";
    }
    return "?";
}

bool isCute(Notation notation) {
    return notation == Notation::CuteLayout || notation == Notation::CuteType;
}

std::optional<Extent> parseExtent(std::string_view text, std::string& error) {
    std::vector<int> dims;
    std::size_t start = 0;
    for (;;) {
        std::size_t end = text.find_first_of("xX,", start);
        const std::string_view part =
            text.substr(start, end == std::string_view::npos ? text.npos : end - start);
        int v = 0;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || v < 1 || v > 65536) {
            error = "invalid --shape '" + excerpt(text, 32) +
                    "': expected DIM0xDIM1 (or DIM0xDIM1xPRODUCTS), each 1..65536, e.g. 16x16";
            return std::nullopt;
        }
        dims.push_back(v);
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    if (dims.size() < 2 || dims.size() > 3) {
        error = "invalid --shape '" + excerpt(text, 32) +
                "': expected 2 extents (or 3: the CuTe product mode), e.g. 16x16";
        return std::nullopt;
    }
    const long cells = static_cast<long>(dims[0]) * dims[1] * (dims.size() == 3 ? dims[2] : 1);
    if (cells > (1L << 24)) {
        error = "invalid --shape '" + excerpt(text, 32) + "': more than 2^24 elements";
        return std::nullopt;
    }
    return Extent{dims[0], dims[1], dims.size() == 3 ? dims[2] : 1};
}

std::string toString(const Extent& e) {
    return std::to_string(e.dim0) + "x" + std::to_string(e.dim1) +
           (e.products > 1 ? "x" + std::to_string(e.products) : std::string());
}

ReadError detail::readError(std::string_view text, const Failure& failure) {
    ReadError e;
    e.offset = failure.offset;
    e.message = failure.message;
    if (failure.offset != std::string_view::npos) {
        const std::size_t upto = std::min(failure.offset, text.size());
        e.line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(upto), '\n'));
        const std::size_t lineStart = upto == 0 ? std::string_view::npos : text.rfind('\n', upto - 1);
        e.column = static_cast<int>(upto - (lineStart == std::string_view::npos ? 0 : lineStart + 1)) + 1;
    }
    return e;
}

namespace {

// CuTe's B is (N,K): lanemap draws B K x N, so its rows and columns swap.
bool transposed(Operand operand, Notation notation) {
    return isCute(notation) && operand == Operand::B;
}

} // namespace

Extent extentOf(const FragmentLayout& op, Notation notation) {
    return transposed(op.operand(), notation) ? Extent{op.cols(), op.rows(), op.matrices()}
                                              : Extent{op.rows(), op.cols(), op.matrices()};
}

std::string ReadError::describe() const {
    if (offset == std::string_view::npos)
        return message;
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
}

std::variant<Layout, ReadError> read(std::string_view text, const ReadOptions& options) {
    // The notation is told by the first word: '(' or a digit: CuTe printed; Layout / using / cute:: : CuTe
    // type;
    // '#' or '{' + a key: Triton attribute; '{' + '"': JSON.
    detail::Scanner s(text);
    const char first = s.peek();
    const std::size_t at = s.pos();
    Layout l;
    try {
        if (first == '\0')
            throw detail::Failure{at, "expected a layout, found nothing"};
        if ((first == '#' || first == '!') && isSharedLayout(text))
            throw detail::Failure{
                at, "a Triton shared-memory encoding is no thread-value layout: show draws it, "
                    "check compares it with a wgmma's or tcgen05.mma's A or B, identify names them"};
        if (first == '(' || first == '_' || first == '-' || std::isdigit(static_cast<unsigned char>(first)))
            l = detail::readCuteLayout(text);
        else if (first == '#')
            l = detail::readTritonLinear(text, options.extent ? options.extent : options.shapeOf);
        else if (first == '{') {
            s.eat("{");
            l = s.peek() == '"'
                    ? detail::readTritonJson(text, options)
                    : detail::readTritonLinear(text, options.extent ? options.extent : options.shapeOf);
        } else if (isSwizzled(text))
            throw detail::Failure{
                at, "a swizzled shared-memory layout (Sw<B,M,S> o ...) is no thread-value "
                    "layout: show draws it, check compares it with a wgmma's A or B, identify names them"};
        else if (std::isalpha(static_cast<unsigned char>(first)) || first == ':')
            l = detail::readCuteType(text);
        else
            throw detail::Failure{at, "expected a layout: a CuTe layout ((4,8),(2,2)):((32,1),(16,8)) or "
                                      "Layout<Shape<...>, Stride<...>>, a Triton #ttg.linear<{...}> or "
                                      "lanemap's triton JSON; found " +
                                          s.found()};
    } catch (const detail::Failure& f) {
        return detail::readError(text, f);
    }
    if (options.extent)
        l.extent = options.extent;
    if (options.operand && !l.operand)
        l.operand = options.operand;
    else if (options.operand && l.operand && *l.operand != *options.operand)
        return ReadError{std::string_view::npos, 0, 0,
                         "the layout is operand " + std::string(toString(*l.operand)) + "; --operand says " +
                             std::string(toString(*options.operand))};
    return l;
}

std::optional<std::vector<Coord>> cellsIn(const Layout& l, const Extent& e, std::string& error) {
    const long plane = static_cast<long>(e.dim0) * e.dim1;
    if (plane * e.products > (1L << 24)) { // a Triton basis may span 65536 x 65536: no grid of that is drawn
        error = "the shape " + toString(e) + " has more than 2^24 elements";
        return std::nullopt;
    }
    std::vector<Coord> cells;
    cells.reserve(static_cast<std::size_t>(l.threads) * static_cast<std::size_t>(l.values));
    for (int t = 0; t < l.threads; ++t)
        for (int v = 0; v < l.values; ++v) {
            const std::size_t i = static_cast<std::size_t>(t) * static_cast<std::size_t>(l.values) +
                                  static_cast<std::size_t>(v);
            Coord c;
            if (isCute(l.notation)) {
                const long x = l.index[i];
                if (x < 0 || x >= plane * e.products) {
                    error = "thread " + std::to_string(t) + ", value " + std::to_string(v) +
                            " maps to index " + std::to_string(x) + ", outside the " + toString(e) +
                            " shape (0.." + std::to_string(plane * e.products - 1) + ")";
                    return std::nullopt;
                }
                c = {static_cast<int>(x % e.dim0), static_cast<int>((x / e.dim0) % e.dim1),
                     static_cast<int>(x / plane)};
            } else {
                c = l.coord[i];
                if (c.d0 >= e.dim0 || c.d1 >= e.dim1) {
                    error = "register " + std::to_string(v) + ", lane " + std::to_string(t % l.lanesPerWarp) +
                            ", warp " + std::to_string(t / l.lanesPerWarp) + " maps to [" +
                            std::to_string(c.d0) + ", " + std::to_string(c.d1) + "], outside the " +
                            toString(e) + " tensor";
                    return std::nullopt;
                }
            }
            cells.push_back(c);
        }
    return cells;
}

Instruction instructionOf(const Layout& l, const Extent& e, const std::vector<Coord>& coords) {
    std::vector<Cell> cells;
    cells.reserve(coords.size());
    for (const Coord& c : coords)
        cells.push_back({c.d0, c.d1, c.d1, e.products > 1 ? c.product : -1});
    const Operand operand = l.operand.value_or(Operand::A);
    FragmentShape shape;
    shape.rows = e.dim0;
    shape.cols = e.dim1;
    shape.matrices = e.products;
    shape.registers = l.values;
    const FragmentLayout fragment =
        FragmentLayout::fromCells(operand, ElementType::F32, 32, l.threads, shape, cells, Source::Doc);
    Instruction in;
    in.spec = "layout";
    in.ptx = std::string(toString(l.notation)) + ": " + excerpt(l.canonical, 160);
    in.threads = l.threads;
    in.scope = l.threads > kWarpSize ? Scope::Warpgroup : Scope::Warp;
    in.operands.push_back(fragment);
    Placement p = Placement::registers(fragment, isCute(l.notation) ? kWarpSize : l.lanesPerWarp);
    // The panel says what the axes are in the notation's words, and that a cell holds a value, not a
    // register.
    Presentation words;
    const bool named = l.operand.has_value();
    const bool cute = isCute(l.notation);
    const char* row = "dim0";
    const char* col = "dim1";
    if (named && cute)
        row = operand == Operand::B ? "n" : "m",
        col = operand == Operand::A || operand == Operand::B ? "k" : "n";
    words.rowAxis = row;
    words.colAxis = col;
    words.extentTitle = toString(e) + " (" + row + " x " + col + (e.products > 1 ? " x product" : "") + ")";
    words.extentFact = std::to_string(e.dim0) + " " + row + " x " + std::to_string(e.dim1) + " " + col +
                       ", " + std::to_string(l.values) + (l.values == 1 ? " value" : " values") +
                       " per thread";
    words.operandName = named ? std::string(toString(operand)) : "layout";
    words.valueLetter = named ? '\0' : 'v';
    words.subtitle = std::to_string(l.values) + " value" + (l.values == 1 ? "" : "s") + " per thread (" +
                     (cute ? "CuTe's value mode" : "Triton's register bases") + ")";
    p.setPresentation(std::move(words));
    in.placements.push_back(std::move(p));
    return in;
}

// ---- comparing --------------------------------------------------------------------------------------

namespace {

bool powerOfTwo(int n) {
    return n > 0 && (n & (n - 1)) == 0;
}

// Why `notation` cannot express `op` (lanemap's own exporters say the same), or "".
std::string inexpressible(const FragmentLayout& op, Notation notation) {
    if (op.chunked())
        return "sparse A: each compressed element's column inside its chunk is chosen at run time by the "
               "metadata, so no fixed layout holds it";
    if (!isCute(notation) && op.matrices() > 1)
        return "the warp computes " + std::to_string(op.matrices()) +
               " independent products (quad-pairs): one 2-D linear layout cannot hold them";
    if (!isCute(notation) && (!powerOfTwo(op.elementsPerThread()) || !powerOfTwo(op.threads()) ||
                              !powerOfTwo(op.rows()) || !powerOfTwo(op.cols())))
        return "LinearLayout sizes are powers of two; this operand is " + std::to_string(op.rows()) + "x" +
               std::to_string(op.cols()) + " with " + std::to_string(op.elementsPerThread()) +
               " elements per thread";
    return {};
}

} // namespace

Comparison compare(const Layout& l, const FragmentLayout& op, std::size_t keep) {
    Comparison c;
    c.why = inexpressible(op, l.notation);
    if (!c.why.empty()) {
        c.expressible = false;
        return c;
    }
    const Extent e = extentOf(op, l.notation);
    c.cells = e.dim0 * e.dim1 * e.products;
    if (l.extent && *l.extent != e) {
        c.sameShape = false;
        c.why = "the layout's shape is " + toString(*l.extent) + "; " + std::string(op.name()) + " is " +
                toString(e);
        return c;
    }
    if (l.threads != op.threads() || l.values != op.elementsPerThread()) {
        c.sameShape = false;
        c.why = "the layout has " + std::to_string(l.threads) + " threads x " + std::to_string(l.values) +
                " values; " + std::string(op.name()) + " has " + std::to_string(op.threads()) + " x " +
                std::to_string(op.elementsPerThread());
        return c;
    }
    std::string error;
    const std::optional<std::vector<Coord>> cells = cellsIn(l, e, error);
    if (!cells) {
        c.sameShape = false;
        c.why = error;
        return c;
    }
    const std::size_t plane = static_cast<std::size_t>(e.dim0) * static_cast<std::size_t>(e.dim1);
    // Cells in the notation's own order: CuTe's column-major index, Triton's row-major [dim0, dim1].
    const bool cute = isCute(l.notation);
    auto slot = [&](const Coord& x) {
        return static_cast<std::size_t>(x.product) * plane +
               (cute ? static_cast<std::size_t>(x.d0) +
                           static_cast<std::size_t>(e.dim0) * static_cast<std::size_t>(x.d1)
                     : static_cast<std::size_t>(x.d1) +
                           static_cast<std::size_t>(e.dim1) * static_cast<std::size_t>(x.d0));
    };
    std::vector<std::vector<Owner>> mine(plane * static_cast<std::size_t>(e.products)), theirs(mine.size());
    for (int t = 0; t < l.threads; ++t)
        for (int v = 0; v < l.values; ++v)
            mine[slot((*cells)[static_cast<std::size_t>(t) * static_cast<std::size_t>(l.values) +
                               static_cast<std::size_t>(v)])]
                .push_back({t, v});
    const bool swap = transposed(op.operand(), l.notation);
    for (const Element& x : op.elements()) {
        const Coord at{swap ? x.col : x.row, swap ? x.row : x.col, std::max(0, int(x.matrix))};
        theirs[slot(at)].push_back({x.thread, x.index});
    }
    for (std::size_t i = 0; i < mine.size(); ++i) {
        std::sort(mine[i].begin(), mine[i].end());
        std::sort(theirs[i].begin(), theirs[i].end());
        if (mine[i] == theirs[i])
            continue;
        ++c.differing;
        std::vector<int> a, b;
        for (const Owner& o : mine[i])
            a.push_back(o.thread);
        for (const Owner& o : theirs[i])
            b.push_back(o.thread);
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        c.sameThreads += a == b;
        if (c.first.size() < keep) {
            CellDifference d;
            const std::size_t p = i / plane, r = i % plane;
            const int inner = cute ? e.dim0 : e.dim1;
            const int lo = static_cast<int>(r % static_cast<std::size_t>(inner));
            const int hi = static_cast<int>(r / static_cast<std::size_t>(inner));
            d.at = cute ? Coord{lo, hi, static_cast<int>(p)} : Coord{hi, lo, 0};
            d.row = swap ? d.at.d1 : d.at.d0;
            d.col = swap ? d.at.d0 : d.at.d1;
            d.layout = mine[i];
            d.operand = theirs[i];
            c.first.push_back(std::move(d));
        }
    }
    return c;
}

std::optional<FragmentLayout> throughThreadMap(const FragmentLayout& op, const std::vector<int>& lanes,
                                               std::string& error) {
    if (op.chunked()) {
        error = "sparse A has no fixed layout";
        return std::nullopt;
    }
    std::vector<Cell> cells;
    int product = -2;
    for (int lane : lanes) {
        if (lane < 0 || lane >= op.threads()) {
            error = "the thread map names lane " + std::to_string(lane) + "; " + std::string(op.name()) +
                    " has " + std::to_string(op.threads()) + " threads";
            return std::nullopt;
        }
        for (int v = 0; v < op.elementsPerThread(); ++v) {
            const Element& e = op.element(lane, v);
            if (product != -2 && e.matrix != product) {
                error = "the lanes of the thread map hold elements of different products";
                return std::nullopt;
            }
            product = e.matrix;
            cells.push_back({e.row, e.col, e.col, -1});
        }
    }
    FragmentShape shape{op.rows(), op.cols(), 1, op.registers(), op.registerBits(), op.elementsPerRegister()};
    return FragmentLayout::fromCells(op.operand(), op.elementType(), op.elementBits(),
                                     static_cast<int>(lanes.size()), shape, cells, Source::Doc);
}

std::optional<std::vector<int>> readThreadMap(std::string_view text, std::string& error) {
    // A ThrID is a plain layout, often of one mode ("_32:_1"); read as a (thread, value) layout of one value.
    std::string tv(text);
    const std::size_t colon = tv.find(':');
    if (colon != std::string::npos)
        tv = "(" + tv.substr(0, colon) + ",1):(" + tv.substr(colon + 1) + ",0)";
    std::variant<Layout, ReadError> read = layout_in::read(tv);
    const Layout* l = std::get_if<Layout>(&read);
    if (!l || !isCute(l->notation)) {
        error = "expected a ThrID layout, e.g. (_4,_2):(_1,_16)" +
                (l ? std::string() : "; " + std::get<ReadError>(read).message);
        return std::nullopt;
    }
    std::vector<int> lanes;
    for (long x : l->index) {
        if (x < 0 || x > 1023) {
            error = "a ThrID maps a thread to lane " + std::to_string(x);
            return std::nullopt;
        }
        lanes.push_back(static_cast<int>(x));
    }
    return lanes;
}

Identification identify(const Layout& l, std::size_t nearest) {
    Identification id;
    const Catalog& catalog = Catalog::instance();
    for (const Variant* v : catalog.variants()) {
        const Instruction& in = catalog.instruction(*v);
        for (const FragmentLayout& op : in.operands) {
            if (op.threads() != l.threads || op.elementsPerThread() != l.values)
                continue;
            if (l.extent && extentOf(op, l.notation) != *l.extent)
                continue;
            Comparison c = compare(l, op, 0);
            if (!c.expressible || !c.sameShape)
                continue;
            (c.equal() ? id.equal : id.nearest).push_back({&in, op.operand(), std::move(c)});
        }
    }
    if (!id.equal.empty()) {
        id.nearest.clear();
        return id;
    }
    std::stable_sort(id.nearest.begin(), id.nearest.end(), [](const Match& a, const Match& b) {
        return a.comparison.differing < b.comparison.differing;
    });
    if (id.nearest.size() > nearest)
        id.nearest.resize(nearest);
    return id;
}

std::string hardwareStatus(const Instruction& in) {
    if (!in.hardware)
        return "not confirmed on hardware: no recorded probe run covers " + in.spec;
    const std::string run = describe(*in.hardware->run);
    switch (in.hardware->verdict) {
    case Verdict::Pass:
        return "hardware-confirmed, cell by cell, by the " + run;
    case Verdict::Fail:
        return "NOT confirmed: the " + run + " found cells that differ from lanemap's table";
    case Verdict::Unsupported:
        break;
    }
    return "not confirmed on hardware: the " + run + " could not run " + in.spec;
}

std::string describeOwner(const Owner& o, const Layout& l, char letter) {
    std::string s;
    if (isCute(l.notation))
        s = "T" + std::to_string(o.thread) + " V" + std::to_string(o.value);
    else
        s = "register " + std::to_string(o.value) + " lane " + std::to_string(o.thread % l.lanesPerWarp) +
            " warp " + std::to_string(o.thread / l.lanesPerWarp);
    return s + " (T" + std::to_string(o.thread) + ":" + letter + std::to_string(o.value) + ")";
}

std::string describeCell(const Coord& at, const Layout& l, const Extent& e, std::optional<Operand> operand) {
    if (!isCute(l.notation))
        return "[" + std::to_string(at.d0) + ", " + std::to_string(at.d1) + "]";
    const char* d0 = "d0";
    const char* d1 = "d1";
    if (operand)
        d0 = *operand == Operand::B ? "n" : "m",
        d1 = *operand == Operand::A || *operand == Operand::B ? "k" : "n";
    const long index =
        at.d0 + static_cast<long>(e.dim0) * at.d1 + static_cast<long>(e.dim0) * e.dim1 * at.product;
    return std::string("(") + d0 + " " + std::to_string(at.d0) + ", " + d1 + " " + std::to_string(at.d1) +
           (e.products > 1 ? ", p " + std::to_string(at.product) : std::string()) + ") = index " +
           std::to_string(index);
}

} // namespace lanemap::layout_in
