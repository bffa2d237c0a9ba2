// Triton's shared-memory encodings read from text (docs/layouts-in.md#triton-shared-encodings), as Triton
// 3.6 prints them: `#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>`,
// `#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>`, `#ttg.shared_linear<{offset
// =
// [[0, 1], ...], block = []}, alignment = 128>` — alone, after an IR dump's alias lines, or in the memory
// descriptor type `!ttg.memdesc<64x64xf16, #shared, #smem, mutable>` that carries the shape and element type.
//
// Each is converted as Triton's LinearLayoutConversions.cpp converts it (nvmmaSharedToLinearLayout,
// swizzledSharedToLinearLayout): a linear map from the element offset to [dim0, dim1], whose inverse places
// every element at an offset (the swizzle is in the map). lanemap's SharedLayout holds that offset per
// element.

#include "layout_in/scanner.hpp"
#include "layout_in/triton_fields.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace lanemap::layout_in::detail {

using triton_fields::integerField;
using triton_fields::integerList;
using triton_fields::powerOfTwo;

namespace shared_encoding { // not anonymous: the unity build shares read_triton.cpp's names

constexpr int kMostBases = 22; // 2^22 elements

int log2Of(long n) {
    int b = 0;
    while ((1L << b) < n)
        ++b;
    return b;
}

struct Encoding {
    SharedNotation notation = SharedNotation::TritonNvmma;
    std::size_t at = 0; // where the attribute starts
    // nvmma_shared
    long swizzleBytes = 0, elementBits = 0;
    bool transposed = false, fp4Padded = false;
    // swizzled_shared
    long vec = 1, perPhase = 1, maxPhase = 1;
    std::vector<long> order;
    // shared_linear; padded_shared's linear component, its intervals and paddings, and the shape it names
    std::vector<Coord> bases;
    std::vector<long> intervals, paddings;
    std::optional<Extent> shape;
    std::string text; // as printed back
};

bool boolField(Scanner& s, const std::string& key) {
    if (s.eat("true"))
        return true;
    if (s.eat("false"))
        return false;
    s.fail("expected true or false after " + key + " =");
}

// The CTA fields Triton prints beside a shared encoding: read when they name one CTA.
bool ctaField(Scanner& s, const std::string& key, std::size_t keyAt) {
    if (key == "CGALayout")
        s.failAt(keyAt, "CGALayout (a layout over several CTAs) is not read; lanemap reads one CTA's layout");
    if (key == "rank") {
        const long rank = integerField(s, key, 16);
        if (rank != 2)
            s.failAt(keyAt, "rank = " + std::to_string(rank) + ": lanemap reads 2-D layouts");
        return true;
    }
    if (key != "CTAsPerCGA" && key != "CTASplitNum" && key != "CTAOrder")
        return false;
    const std::vector<long> list = integerList(s, key);
    if (list.size() != 2)
        s.failAt(keyAt, key + " has " + std::to_string(list.size()) + " entries; lanemap reads 2-D layouts");
    if (key != "CTAOrder")
        for (long v : list)
            if (v != 1)
                s.failAt(keyAt, key + " names several CTAs; lanemap reads one CTA's layout");
    return true;
}

// #ttg.nvmma_shared<{...}> from its '<' on.
Encoding nvmma(Scanner& s, std::size_t at) {
    Encoding e;
    e.notation = SharedNotation::TritonNvmma;
    e.at = at;
    bool width = false, bits = false;
    s.expect("<", "'<' after #ttg.nvmma_shared");
    s.expect("{", "'{' opening the fields of #ttg.nvmma_shared");
    do {
        const std::size_t keyAt = s.here();
        const std::string key(s.identifier());
        s.expect("=", "'=' after " + (key.empty() ? std::string("a field name") : key));
        if (key == "swizzlingByteWidth") {
            const std::size_t widthAt = s.here();
            e.swizzleBytes = integerField(s, key, 1024), width = true;
            if (e.swizzleBytes != 0 && e.swizzleBytes != 32 && e.swizzleBytes != 64 && e.swizzleBytes != 128)
                s.failAt(widthAt,
                         "swizzlingByteWidth is 0, 32, 64 or 128; found " + std::to_string(e.swizzleBytes));
        } else if (key == "elementBitWidth") {
            const std::size_t bitsAt = s.here();
            e.elementBits = integerField(s, key, 1024), bits = true;
            if (e.elementBits != 8 && e.elementBits != 16 && e.elementBits != 32 && e.elementBits != 64)
                s.failAt(bitsAt,
                         "elementBitWidth is 8, 16, 32 or 64; found " + std::to_string(e.elementBits));
        } else if (key == "transposed")
            e.transposed = boolField(s, key);
        else if (key == "fp4Padded")
            e.fp4Padded = boolField(s, key);
        else if (!ctaField(s, key, keyAt))
            s.failAt(keyAt, "expected swizzlingByteWidth, transposed, elementBitWidth, fp4Padded or a CTA "
                            "field, found '" +
                                excerpt(key.empty() ? s.found() : key, 24) + "'");
    } while (s.eat(","));
    s.expect("}", "',' or '}' after the fields of #ttg.nvmma_shared");
    s.expect(">", "'>' closing #ttg.nvmma_shared<...>");
    if (!width || !bits)
        s.failAt(at, std::string("#ttg.nvmma_shared needs ") +
                         (!width ? "swizzlingByteWidth" : "elementBitWidth"));
    if (e.fp4Padded && (e.swizzleBytes != 128 || e.elementBits != 8))
        s.failAt(at, "fp4Padded = true needs swizzlingByteWidth = 128 and elementBitWidth = 8 (as Triton)");
    e.text = "#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(e.swizzleBytes) +
             ", transposed = " + (e.transposed ? "true" : "false") +
             ", elementBitWidth = " + std::to_string(e.elementBits) +
             (e.fp4Padded ? ", fp4Padded = true" : "") + "}>";
    return e;
}

// #ttg.swizzled_shared<{...}> from its '<' on.
Encoding swizzled(Scanner& s, std::size_t at) {
    Encoding e;
    e.notation = SharedNotation::TritonSwizzled;
    e.at = at;
    bool seen[4] = {};
    std::size_t orderAt = at;
    s.expect("<", "'<' after #ttg.swizzled_shared");
    s.expect("{", "'{' opening the fields of #ttg.swizzled_shared");
    do {
        const std::size_t keyAt = s.here();
        const std::string key(s.identifier());
        s.expect("=", "'=' after " + (key.empty() ? std::string("a field name") : key));
        if (key == "vec")
            e.vec = integerField(s, key, 1024), seen[0] = true;
        else if (key == "perPhase")
            e.perPhase = integerField(s, key, 1024), seen[1] = true;
        else if (key == "maxPhase")
            e.maxPhase = integerField(s, key, 1024), seen[2] = true;
        else if (key == "order")
            orderAt = keyAt, e.order = integerList(s, key), seen[3] = true;
        else if (!ctaField(s, key, keyAt))
            s.failAt(keyAt, "expected vec, perPhase, maxPhase, order or a CTA field, found '" +
                                excerpt(key.empty() ? s.found() : key, 24) + "'");
    } while (s.eat(","));
    s.expect("}", "',' or '}' after the fields of #ttg.swizzled_shared");
    s.expect(">", "'>' closing #ttg.swizzled_shared<...>");
    static constexpr const char* kNames[] = {"vec", "perPhase", "maxPhase", "order"};
    for (int i = 0; i < 4; ++i)
        if (!seen[i])
            s.failAt(at, std::string("#ttg.swizzled_shared needs ") + kNames[i]);
    if (e.vec < 1 || e.perPhase < 1 || e.maxPhase < 1)
        s.failAt(at, "vec, perPhase and maxPhase are at least 1");
    if (e.order.size() != 2)
        s.failAt(orderAt,
                 "order has " + std::to_string(e.order.size()) + " entries; lanemap reads 2-D layouts");
    if (!((e.order[0] == 0 && e.order[1] == 1) || (e.order[0] == 1 && e.order[1] == 0)))
        s.failAt(orderAt, "order must be [0, 1] or [1, 0]");
    e.text = "#ttg.swizzled_shared<{vec = " + std::to_string(e.vec) +
             ", perPhase = " + std::to_string(e.perPhase) + ", maxPhase = " + std::to_string(e.maxPhase) +
             ", order = [" + std::to_string(e.order[0]) + ", " + std::to_string(e.order[1]) + "]}>";
    return e;
}

// A list of bases [[d0, d1], ...] from its '[' on.
std::vector<Coord> basesList(Scanner& s, const std::string& key) {
    s.expect("[", "'[' opening the " + key + " bases");
    std::vector<Coord> list;
    if (s.eat("]"))
        return list;
    do {
        const std::size_t basisAt = s.here();
        const std::vector<long> b = integerList(s, "a basis");
        if (b.size() != 2)
            s.failAt(basisAt, "expected a basis of rank 2, [dim0, dim1]; found rank " +
                                  std::to_string(b.size()) + " (lanemap reads 2-D layouts)");
        list.push_back({static_cast<int>(b[0]), static_cast<int>(b[1]), 0});
        if (list.size() > kMostBases)
            s.failAt(basisAt, "more than " + std::to_string(kMostBases) + " offset bases");
    } while (s.eat(","));
    s.expect("]", "',' or ']' after a basis");
    return list;
}

// `offset = [...], block = []` (after its '{'): the offset bases; block bases refused.
std::vector<Coord> offsetAndBlock(Scanner& s, const std::string& what) {
    std::vector<Coord> offsets;
    bool seen = false;
    do {
        const std::size_t keyAt = s.here();
        const std::string key(s.identifier());
        if (key != "offset" && key != "block")
            s.failAt(keyAt,
                     "expected offset or block, found '" + excerpt(key.empty() ? s.found() : key, 24) + "'");
        s.expect("=", "'=' after " + key);
        std::vector<Coord> list = basesList(s, key);
        if (key == "block" && !list.empty())
            s.failAt(keyAt, "block bases (a layout over several CTAs) are not read; give block = []");
        if (key == "offset")
            offsets = std::move(list), seen = true;
    } while (s.eat(","));
    if (!seen || offsets.empty())
        s.fail(what + " needs offset bases");
    return offsets;
}

// #ttg.shared_linear<{offset = [...], block = []}, alignment = N> from its '<' on.
Encoding sharedLinear(Scanner& s, std::size_t at) {
    Encoding e;
    e.notation = SharedNotation::TritonLinear;
    e.at = at;
    s.expect("<", "'<' after #ttg.shared_linear");
    s.expect("{", "'{' opening the bases of #ttg.shared_linear");
    e.bases = offsetAndBlock(s, "#ttg.shared_linear");
    s.expect("}", "',' or '}' after the bases of #ttg.shared_linear");
    if (s.eat(",")) { // alignment = N: where the allocation starts, not where elements go
        s.expect("alignment", "alignment after the bases");
        s.expect("=", "'=' after alignment");
        integerField(s, "alignment", 1 << 20);
    }
    s.expect(">", "'>' closing #ttg.shared_linear<...>");
    return e;
}

// #ttg.padded_shared<[I:+P, ...] {order = [..], shape = [..]}> or <[I:+P, ...] {offset = [...], block = []}>
// from its '<' on: a linear component (an identity over the shape in `order`, or the bases), then `P`
// elements of padding after every `I` (PaddedSharedEncodingAttr).
Encoding padded(Scanner& s, std::size_t at) {
    Encoding e;
    e.notation = SharedNotation::TritonPadded;
    e.at = at;
    s.expect("<", "'<' after #ttg.padded_shared");
    s.expect("[", "'[' opening the interval:+padding pairs");
    do {
        const std::size_t pairAt = s.here();
        const std::optional<long> interval = s.integer();
        if (!interval || *interval < 1 || *interval > (1L << 22) || !powerOfTwo(*interval))
            s.failAt(pairAt, "expected an interval, a power of two (32:+4)");
        s.expect(":", "':' after the interval (32:+4)");
        s.expect("+", "'+' before the padding (32:+4)");
        const std::size_t paddingAt = s.here();
        const std::optional<long> padding = s.integer();
        if (!padding || *padding < 1 || *padding > 4096 || !powerOfTwo(*padding))
            s.failAt(paddingAt, "expected the padding, a power of two (32:+4)");
        if (std::find(e.intervals.begin(), e.intervals.end(), *interval) != e.intervals.end())
            s.failAt(pairAt, "the interval " + std::to_string(*interval) + " is given twice");
        e.intervals.push_back(*interval);
        e.paddings.push_back(*padding);
    } while (s.eat(","));
    s.expect("]", "',' or ']' after an interval:+padding pair");
    s.expect("{", "'{' opening {order = [..], shape = [..]} or {offset = [..], block = []}");
    const std::size_t keyAt = s.here();
    const std::string first(s.identifier());
    if (first == "offset" || first == "block") {
        s.seek(keyAt);
        e.bases = offsetAndBlock(s, "#ttg.padded_shared");
    } else {
        s.seek(keyAt);
        std::vector<long> order, shape;
        do {
            const std::size_t at2 = s.here();
            const std::string key(s.identifier());
            if (key != "order" && key != "shape")
                s.failAt(at2, "expected order, shape, offset or block, found '" +
                                  excerpt(key.empty() ? s.found() : key, 24) + "'");
            s.expect("=", "'=' after " + key);
            (key == "order" ? order : shape) = integerList(s, key);
            if ((key == "order" ? order : shape).size() != 2)
                s.failAt(at2, key + " has " + std::to_string((key == "order" ? order : shape).size()) +
                                  " entries; lanemap reads 2-D layouts");
        } while (s.eat(","));
        if (order.empty() || shape.empty())
            s.failAt(keyAt, "#ttg.padded_shared needs order and shape (or offset bases)");
        if (!((order[0] == 0 && order[1] == 1) || (order[0] == 1 && order[1] == 0)))
            s.failAt(keyAt, "order must be [0, 1] or [1, 0]");
        for (long n : shape)
            if (!powerOfTwo(n) || n > 65536)
                s.failAt(keyAt, "the shape's sizes are powers of two up to 65536");
        // identityStandardND(offset, shape, order): dim order[0] first.
        for (long d : order)
            for (long k = 1; k < shape[static_cast<std::size_t>(d)]; k <<= 1)
                e.bases.push_back(d == 0 ? Coord{static_cast<int>(k), 0, 0}
                                         : Coord{0, static_cast<int>(k), 0});
        e.shape = Extent{static_cast<int>(shape[0]), static_cast<int>(shape[1]), 1};
        e.order = order;
    }
    s.expect("}", "',' or '}' after the fields of #ttg.padded_shared");
    s.expect(">", "'>' closing #ttg.padded_shared<...>");
    std::string pairs;
    for (std::size_t i = 0; i < e.intervals.size(); ++i)
        pairs += (i ? ", " : "") + std::to_string(e.intervals[i]) + ":+" + std::to_string(e.paddings[i]);
    e.text = "#ttg.padded_shared<[" + pairs + "] " +
             (e.shape ? "{order = [" + std::to_string(e.order[0]) + ", " + std::to_string(e.order[1]) +
                            "], shape = [" + std::to_string(e.shape->dim0) + ", " +
                            std::to_string(e.shape->dim1) + "]}>"
                      : std::string("{offset = [..], block = []}>"));
    return e;
}

// One shared encoding: inline, or `#name` defined on an alias line.
Encoding encoding(Scanner& s, const std::map<std::string, std::size_t, std::less<>>& aliases) {
    const std::size_t at = s.here();
    s.expect(
        "#",
        "a shared encoding, #ttg.nvmma_shared<...>, #ttg.swizzled_shared<...> or #ttg.shared_linear<...>");
    const std::size_t nameAt = s.pos();
    const std::string_view dialect = s.identifier();
    if (s.peek() != '.') { // an alias: read its definition
        const auto alias = aliases.find(dialect);
        if (alias == aliases.end())
            s.failAt(at, "#" + excerpt(dialect, 24) + " is not defined in the text; paste its line (#" +
                             excerpt(dialect, 24) + " = #ttg.nvmma_shared<...>) before the layout");
        const std::size_t back = s.pos();
        s.seek(alias->second);
        Encoding e = encoding(s, {}); // an alias's definition is an attribute, not another alias
        s.seek(back);
        return e;
    }
    if (dialect != "ttg" && dialect != "triton_gpu")
        s.failAt(nameAt, "expected #ttg.<encoding>, found '#" + excerpt(dialect, 16) + "'");
    s.expect(".", "'.' after #" + std::string(dialect));
    const std::size_t kindAt = s.pos();
    const std::string_view kind = s.identifier();
    if (kind == "nvmma_shared")
        return nvmma(s, at);
    if (kind == "swizzled_shared")
        return swizzled(s, at);
    if (kind == "shared_linear")
        return sharedLinear(s, at);
    if (kind == "padded_shared")
        return padded(s, at);
    s.failAt(kindAt,
             "expected nvmma_shared, swizzled_shared, shared_linear or padded_shared after #ttg., found '" +
                 excerpt(kind.empty() ? s.found() : kind, 24) + "'");
}

// The element type of a memdesc (f16, bf16, f32, i8, f8E4M3FN, ...): its bits.
int typeBits(std::string_view type) {
    if (type == "f16" || type == "bf16" || type == "i16")
        return 16;
    if (type == "f32" || type == "i32" || type == "tf32")
        return 32;
    if (type == "f64" || type == "i64")
        return 64;
    if (type == "i8" || type.rfind("f8", 0) == 0)
        return 8;
    return 0;
}

// A layout being built as Triton's LinearLayout products build it: offset bases [dim0, dim1], and the size
// each out dim covers so far.
struct Building {
    std::vector<Coord> bases;
    int size[2] = {1, 1};
    // LinearLayout::identity1D(n, offset, dim) multiplied on the right.
    void identity(long n, int dim) {
        for (long k = 1; k < n; k <<= 1)
            bases.push_back(dim == 0 ? Coord{static_cast<int>(size[0] * k), 0, 0}
                                     : Coord{0, static_cast<int>(size[1] * k), 0});
        size[dim] *= static_cast<int>(std::max(n, 1L));
    }
    // ensureLayoutNotSmallerThan over dims in the order [dim0, dim1].
    void notSmallerThan(const long shape[2]) {
        for (int d = 0; d < 2; ++d)
            if (size[d] < shape[d])
                identity(shape[d] / size[d], d);
    }
    // ensureLayoutNotLargerThan: the largest bases of a dim zeroed until it fits (a broadcast).
    void notLargerThan(const long shape[2]) {
        for (int d = 0; d < 2; ++d) {
            std::vector<int*> parts;
            for (Coord& c : bases)
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

// nvmmaSharedToLinearLayout for one CTA, rank 2: the core matrix (8 rows of the swizzle width, swizzled),
// repeated over the TMA block (rows first, dim0 then dim1), transposed when `transposed`, then over the
// tensor (dim0 then dim1).
std::vector<Coord> nvmmaBases(Scanner& s, const Encoding& e, const long shape[2]) {
    const int contig = e.transposed ? 0 : 1;
    // getTMABlockShape(packedSize = true): each dim at most 256, the contiguous one the swizzle's width.
    long block[2] = {shape[0], shape[1]};
    if (e.fp4Padded)
        block[contig] *= 2;
    for (long& b : block)
        b = std::min(b, 256L);
    if (e.swizzleBytes != 0) {
        const long width = 8 * e.swizzleBytes / e.elementBits;
        if (block[contig] < width)
            s.failAt(e.at, "the tensor's contiguous dim" + std::to_string(contig) + " holds " +
                               std::to_string(e.fp4Padded ? shape[contig] * 2 : shape[contig]) +
                               " elements, fewer than the " + std::to_string(e.swizzleBytes) +
                               "-byte swizzle's " + std::to_string(width) +
                               " (Triton refuses it: the block shape is too small for the swizzle)");
        block[contig] = width;
    }
    if (e.fp4Padded)
        block[contig] /= 2;
    Building x;
    if (e.swizzleBytes == 0) { // row-major over the block, whatever `transposed` says (as Triton)
        x.identity(block[1], 1);
        x.identity(block[0], 0);
    } else {
        long collapsed[2] = {block[0], block[1]};
        if (e.transposed)
            std::swap(collapsed[0], collapsed[1]);
        // getCoreMatrixLinearLayout: 8 rows x (8 * width / bits) offsets, row r's phase XORed into its
        // columns in units of vec; fp4Padded: each 16 offsets hold 8 elements and 8 of padding.
        const long vec = 128 / e.elementBits, perPhase = 128 / e.swizzleBytes, maxPhase = e.swizzleBytes / 16;
        const long tileCols = 8 * std::max(16L, e.swizzleBytes) / e.elementBits;
        auto packed = [&](long col) { return e.fp4Padded ? col / 16 * 8 + col % 8 : col; };
        for (long col = 1; col < tileCols; col *= 2)
            x.bases.push_back({0, static_cast<int>(packed(col)), 0});
        for (long row = 1; row < 8; row *= 2)
            x.bases.push_back(
                {static_cast<int>(row), static_cast<int>(packed(vec * ((row / perPhase) % maxPhase))), 0});
        x.size[0] = 8;
        x.size[1] = static_cast<int>(e.fp4Padded ? tileCols / 2 : tileCols);
        if (collapsed[0] < 8 || collapsed[1] < x.size[1])
            s.failAt(e.at, "the tensor is smaller than one " + std::to_string(e.swizzleBytes) +
                               "-byte swizzle atom, 8 x " + std::to_string(x.size[1]) +
                               " (Triton refuses it)");
        x.notSmallerThan(collapsed);
        if (e.transposed) { // transposeLinearLayout(order [1, 0]): the contiguous dim is dim0
            for (Coord& c : x.bases)
                std::swap(c.d0, c.d1);
            std::swap(x.size[0], x.size[1]);
        }
    }
    x.notSmallerThan(shape);
    x.notLargerThan(shape);
    return x.bases;
}

// swizzledSharedToLinearLayout, rank 2: offsets run along order[0] (the columns), each row's columns XORed
// with vec * ((row / perPhase) % maxPhase) (mod the columns).
std::vector<Coord> swizzledBases(const Encoding& e, const long shape[2]) {
    const int colDim = static_cast<int>(e.order[0]), rowDim = static_cast<int>(e.order[1]);
    const long cols = shape[colDim], rows = shape[rowDim];
    std::vector<Coord> bases;
    auto at = [&](long row, long col) {
        Coord c;
        (rowDim == 0 ? c.d0 : c.d1) = static_cast<int>(row);
        (colDim == 0 ? c.d0 : c.d1) = static_cast<int>(col);
        return c;
    };
    for (long col = 1; col < cols; col *= 2)
        bases.push_back(at(0, col));
    for (long row = 1; row < rows; row *= 2)
        bases.push_back(at(row, (e.vec * ((row / e.perPhase) % e.maxPhase)) % cols));
    return bases;
}

std::string basisText(const std::vector<Coord>& bases) {
    std::string t = "[";
    for (std::size_t i = 0; i < bases.size(); ++i)
        t += (i ? ", [" : "[") + std::to_string(bases[i].d0) + ", " + std::to_string(bases[i].d1) + "]";
    return t + "]";
}

// The kind of attribute at `at` ("nvmma_shared", "dot_op", "!" for a memdesc type, "#name" for an alias).
std::string kindAt(std::string_view text, std::size_t at) {
    Scanner s(text);
    s.seek(at);
    if (s.peek() == '!')
        return "!";
    if (!s.eat("#"))
        return {};
    std::string first(s.identifier());
    if (!s.eat("."))
        return "#" + first;
    return std::string(s.identifier());
}

bool sharedKind(const std::string& kind) {
    return kind == "nvmma_shared" || kind == "swizzled_shared" || kind == "shared_linear" ||
           kind == "padded_shared";
}

// Where the shared encoding to read starts: the attribute after the alias lines; with none after them, the
// last alias that defines a shared encoding (an IR dump's header ends with `#smem = #ttg.shared_memory`).
std::size_t sharedAttributeAt(std::string_view text,
                              std::map<std::string, std::size_t, std::less<>>& aliases) {
    const std::size_t at = attributeAfterAliases(text, aliases);
    std::size_t last = std::string_view::npos;
    bool onlyAliases = false;
    for (const auto& [name, def] : aliases) {
        onlyAliases = onlyAliases || def == at;
        if (sharedKind(kindAt(text, def)) && (last == std::string_view::npos || def > last))
            last = def;
    }
    return onlyAliases && !sharedKind(kindAt(text, at)) && last != std::string_view::npos ? last : at;
}

} // namespace shared_encoding

bool isTritonShared(std::string_view text) {
    std::map<std::string, std::size_t, std::less<>> aliases;
    std::string kind = shared_encoding::kindAt(text, shared_encoding::sharedAttributeAt(text, aliases));
    if (kind == "!")
        return true;                         // !ttg.memdesc<...>: a shared-memory type
    if (kind.size() > 1 && kind[0] == '#') { // a bare alias: its definition
        const auto alias = aliases.find(std::string_view(kind).substr(1));
        if (alias == aliases.end())
            return false;
        kind = shared_encoding::kindAt(text, alias->second);
    }
    return shared_encoding::sharedKind(kind);
}

SharedLayout readTritonShared(std::string_view text, const SharedReadOptions& options) {
    Scanner s(text);
    std::map<std::string, std::size_t, std::less<>> aliases;
    std::optional<Extent> typeShape;
    int typeBitsOf = 0;
    std::size_t typeAt = 0;
    shared_encoding::Encoding e;
    const std::size_t start = shared_encoding::sharedAttributeAt(text, aliases);
    // An alias's definition chosen among alias lines ends at its line, not at the text's end.
    const bool aliasLine =
        std::any_of(aliases.begin(), aliases.end(), [&](const auto& a) { return a.second == start; });
    s.seek(start);
    if (s.peek() == '!') { // !ttg.memdesc<64x64xf16, ENCODING, #smem(, mutable)>
        typeAt = s.pos();
        s.eat("!");
        const std::string_view dialect = s.identifier();
        if (dialect != "ttg" && dialect != "triton_gpu")
            s.failAt(typeAt, "expected !ttg.memdesc<...>, found '!" + excerpt(dialect, 16) + "'");
        s.expect(".", "'.' after !" + std::string(dialect));
        s.expect("memdesc", "memdesc after !ttg.");
        s.expect("<", "'<' after !ttg.memdesc");
        std::vector<long> dims;
        for (;;) {
            const std::size_t dimAt = s.here();
            const std::optional<long> d = s.integer();
            if (!d)
                break;
            if (*d < 1 || *d > 65536)
                s.failAt(dimAt, "a dimension is 1..65536");
            dims.push_back(*d);
            s.expect("x", "'x' after a dimension (64x64xf16)");
        }
        const std::size_t elementAt = s.here();
        const std::string_view type = s.identifier();
        typeBitsOf = shared_encoding::typeBits(type);
        if (!typeBitsOf)
            s.failAt(elementAt, "expected the element type (f16, bf16, f32, i8, f8E4M3FN, ...), found " +
                                    (type.empty() ? s.found() : "'" + excerpt(type, 16) + "'"));
        if (dims.size() != 2)
            s.failAt(typeAt, "the memdesc has " + std::to_string(dims.size()) +
                                 " dimensions; lanemap reads 2-D layouts");
        typeShape = Extent{static_cast<int>(dims[0]), static_cast<int>(dims[1]), 1};
        s.expect(",", "',' then the encoding after the element type");
        e = shared_encoding::encoding(s, aliases);
        while (s.eat(",")) { // the memory space (#smem, #ttg.shared_memory), mutable, an allocation shape
            if (s.peek() == '#') {
                s.eat("#");
                s.identifier();
                if (s.eat("."))
                    s.identifier();
            } else if (!s.eat("mutable")) {
                const std::optional<long> d = s.integer();
                if (!d)
                    s.fail("expected the memory space, mutable or the allocation shape");
                while (s.eat("x"))
                    if (!s.integer())
                        s.fail("expected a dimension after 'x'");
            }
        }
        s.expect(">", "'>' closing !ttg.memdesc<...>");
    } else
        e = shared_encoding::encoding(s, aliases);
    if (!aliasLine && !s.atEnd())
        s.fail("expected the end of the layout");

    SharedLayout l;
    l.notation = e.notation;
    l.tensorDims = true;
    // The element size: the encoding's, the memdesc's, or what the caller gives (--element-bits, the
    // operand).
    int bits = e.notation == SharedNotation::TritonNvmma ? static_cast<int>(e.elementBits) : 0;
    if (typeBitsOf) {
        if (bits && bits != typeBitsOf)
            s.failAt(typeAt, "the memdesc's elements are " + std::to_string(typeBitsOf) +
                                 "-bit; its encoding says elementBitWidth = " + std::to_string(bits));
        bits = typeBitsOf;
    }
    if (options.elementBits && bits && options.elementBits != bits)
        throw Failure{std::string_view::npos, "the layout's elements are " + std::to_string(bits) +
                                                  "-bit; the operand's are " +
                                                  std::to_string(options.elementBits) + "-bit"};
    if (!bits)
        bits = options.elementBits;
    if (!bits)
        throw Failure{
            std::string_view::npos,
            "the layout's element size is not in the text: give --element-bits 8|16|32|64, paste it in its "
            "!ttg.memdesc<...> type, or compare it with an operand (check --against)"};
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        throw Failure{std::string_view::npos,
                      "elements of " + std::to_string(bits) + " bits; lanemap reads 8, 16, 32 or 64"};
    l.elementBits = bits;

    // The shape: the memdesc's, --shape, the operand's, or what a shared_linear's bases span.
    std::optional<Extent> extent = options.extent ? options.extent : typeShape;
    if (options.extent && typeShape && *options.extent != *typeShape)
        throw Failure{std::string_view::npos,
                      "--shape " + toString(*options.extent) + " but the memdesc is " + toString(*typeShape)};
    if (e.shape) { // padded_shared's own shape
        if (extent && *extent != *e.shape)
            throw Failure{std::string_view::npos, "the encoding's shape is " + toString(*e.shape) + "; " +
                                                      (options.extent ? "--shape" : "the memdesc") +
                                                      " says " + toString(*extent)};
        extent = e.shape;
    }
    if (!extent && !e.bases.empty() &&
        (e.notation == SharedNotation::TritonLinear || e.notation == SharedNotation::TritonPadded)) {
        int span[2] = {1, 1};
        for (const Coord& c : e.bases) {
            span[0] = std::max(span[0], c.d0 * 2);
            span[1] = std::max(span[1], c.d1 * 2);
        }
        extent = Extent{span[0], span[1], 1};
    }
    if (!extent)
        extent = options.shapeOf;
    if (!extent)
        throw Failure{std::string_view::npos,
                      "a Triton shared encoding is laid over its tensor: give its shape, --shape "
                      "DIM0xDIM1 (Triton's [dim0, dim1]), or paste its !ttg.memdesc<...> type"};
    if (extent->products != 1)
        throw Failure{std::string_view::npos, "a Triton layout has no product mode: give --shape DIM0xDIM1"};
    if (!powerOfTwo(extent->dim0) || !powerOfTwo(extent->dim1))
        throw Failure{std::string_view::npos,
                      "Triton lays a shared encoding over a shape of powers of two; the shape is " +
                          toString(*extent)};
    const long shape[2] = {extent->dim0, extent->dim1};
    if (shared_encoding::log2Of(shape[0]) + shared_encoding::log2Of(shape[1]) > shared_encoding::kMostBases)
        throw Failure{std::string_view::npos,
                      "the shape " + toString(*extent) + " has more than 2^22 elements"};

    std::vector<Coord> bases;
    switch (e.notation) {
    case SharedNotation::TritonNvmma:
        bases = shared_encoding::nvmmaBases(s, e, shape);
        l.contiguousDim = e.transposed && e.swizzleBytes ? 0 : 1;
        l.swizzle = e.swizzleBytes == 0    ? smem::Swizzle::None
                    : e.swizzleBytes == 32 ? smem::Swizzle::B32
                    : e.swizzleBytes == 64 ? smem::Swizzle::B64
                                           : smem::Swizzle::B128;
        break;
    case SharedNotation::TritonSwizzled: {
        bases = shared_encoding::swizzledBases(e, shape);
        l.contiguousDim = static_cast<int>(e.order[0]);
        // The wgmma swizzle its phases are, for its element size (Triton's nvmma_shared getVec and phases).
        const bool vecIsChunk = e.vec * bits == 128;
        if (e.maxPhase == 1)
            l.swizzle = smem::Swizzle::None;
        else if (vecIsChunk && e.perPhase == 1 && e.maxPhase == 8)
            l.swizzle = smem::Swizzle::B128;
        else if (vecIsChunk && e.perPhase == 2 && e.maxPhase == 4)
            l.swizzle = smem::Swizzle::B64;
        else if (vecIsChunk && e.perPhase == 4 && e.maxPhase == 2)
            l.swizzle = smem::Swizzle::B32;
        break;
    }
    default: // shared_linear, padded_shared's linear component
        bases = e.bases;
        if (!e.order.empty())
            l.contiguousDim = static_cast<int>(e.order[0]);
        break;
    }
    // The inverse: every element at the lowest offset that maps to it (a zero basis — fp4Padded's padding, a
    // broadcast — maps several offsets to one element; the lowest is the one that holds it).
    if (bases.size() > shared_encoding::kMostBases)
        throw Failure{std::string_view::npos, "more than 2^22 offsets"};
    const std::size_t cells = static_cast<std::size_t>(shape[0]) * static_cast<std::size_t>(shape[1]);
    l.rows = extent->dim0;
    l.cols = extent->dim1;
    l.offsets.assign(cells, -1);
    const long count = 1L << bases.size();
    for (long o = 0; o < count; ++o) {
        Coord c;
        for (std::size_t i = 0; i < bases.size(); ++i)
            if ((o >> i) & 1) {
                c.d0 ^= bases[i].d0;
                c.d1 ^= bases[i].d1;
            }
        if (c.d0 >= l.rows || c.d1 >= l.cols)
            throw Failure{std::string_view::npos, "offset " + std::to_string(o) + " maps to [" +
                                                      std::to_string(c.d0) + ", " + std::to_string(c.d1) +
                                                      "], outside the " + toString(*extent) + " tensor"};
        long& at = l.offsets[static_cast<std::size_t>(c.d0) * static_cast<std::size_t>(l.cols) +
                             static_cast<std::size_t>(c.d1)];
        if (at < 0)
            at = o;
    }
    for (std::size_t i = 0; i < cells; ++i)
        if (l.offsets[i] < 0)
            throw Failure{std::string_view::npos,
                          "no offset holds element [" + std::to_string(i / static_cast<std::size_t>(l.cols)) +
                              ", " + std::to_string(i % static_cast<std::size_t>(l.cols)) + "] of the " +
                              toString(*extent) + " tensor: the bases do not span it"};
    if (e.notation == SharedNotation::TritonPadded) // `padding` elements after every `interval`, summed
        for (long& x : l.offsets) {
            const long unpadded = x;
            for (std::size_t i = 0; i < e.intervals.size(); ++i)
                x += (unpadded >> shared_encoding::log2Of(e.intervals[i]))
                     << shared_encoding::log2Of(e.paddings[i]);
        }
    for (long x : l.offsets)
        if (x * (bits / 8) >= (1L << 24))
            throw Failure{std::string_view::npos, "an element's offset is past 16 MiB"};
    l.bases = bases;
    const std::string linear =
        "#ttg.shared_linear<{offset = " + shared_encoding::basisText(bases) + ", block = []}>";
    if (e.notation == SharedNotation::TritonPadded)
        l.canonical = e.text + " over " + toString(*extent) + " = " + linear + " then the padding";
    else
        l.canonical = e.notation == SharedNotation::TritonLinear
                          ? linear + " (" + toString(*extent) + ")"
                          : e.text + " over " + toString(*extent) + " = " + linear;
    return l;
}

} // namespace lanemap::layout_in::detail
