// CuTe thread-value layouts read from text (docs/layouts-in.md#what-is-read): the printed form that
// cute::print writes, `((4,8),(2,2)):((32,1),(16,8))` (static ints as `_4`), and the C++ type as CUTLASS's
// sources spell it, `Layout<Shape<Shape<_4,_8>,Shape<_2,_2>>, Stride<Stride<_32,_1>,Stride<_16,_8>>>`
// (`Int<4>`, `C<4>`, `_4` or `4`; blanks, line breaks, comments, `cute::`, `using X =` and `;` as in a source
// file). Shape and stride are congruent trees; the first top-level mode is the thread, the second the value,
// each flattened colexicographically as CuTe does.

#include "layout_in/scanner.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace lanemap::layout_in::detail {

namespace {

// A shape or stride: a leaf integer or a tuple of modes; `offset` is where it starts in the text.
struct Tree {
    long value = 0;
    std::vector<Tree> modes;
    bool tuple = false;
    std::size_t offset = 0;
};

constexpr long kMostElements = 1L << 22; // threads x values read at most (a 64 x 256 wgmma D is 2^14)
constexpr long kMostThreads = 1024;      // a CTA
constexpr int kDeepest = 32; // nested modes (a pasted megabyte of '(' must not overflow the stack)

// ---- printed form ----------------------------------------------------------------------------------

Tree printedTuple(Scanner& s, int depth = 0) {
    Tree t;
    s.skipSpace();
    t.offset = s.pos();
    if (depth > kDeepest)
        s.failAt(t.offset, "modes nested more than " + std::to_string(kDeepest) + " deep");
    if (s.eat("(")) {
        t.tuple = true;
        do
            t.modes.push_back(printedTuple(s, depth + 1));
        while (s.eat(","));
        s.expect(")", "',' or ')' after a mode");
        if (t.modes.size() == 1) { // (x) is x, as Shape<X> is: cute::print writes Shape<_8> as (_8)
            Tree only = std::move(t.modes.front());
            only.offset = t.offset;
            return only;
        }
        return t;
    }
    s.eat("_"); // a static integer prints as _4
    const std::optional<long> v = s.integer();
    if (!v)
        s.fail("expected an integer or '('");
    t.value = *v;
    return t;
}

// ---- C++ type ---------------------------------------------------------------------------------------

void skipNamespace(Scanner& s) {
    s.eat("::");
    const std::size_t at = s.pos();
    if (s.eat("cute") && !s.eat("::")) // "cute" not followed by "::": not a namespace; read it again
        s.failAt(at, "expected 'cute::' or a type");
}

void skipBraces(Scanner& s) {
    if (s.eat("{"))
        s.expect("}", "'}' after '{' (a value of the type: Int<4>{})");
}

Tree typeTuple(Scanner& s, std::string_view kind, int depth = 0) {
    Tree t;
    s.skipSpace();
    t.offset = s.pos();
    if (depth > kDeepest)
        s.failAt(t.offset, "modes nested more than " + std::to_string(kDeepest) + " deep");
    if (const std::optional<long> v = s.integer()) { // a plain (dynamic) integer
        t.value = *v;
        return t;
    }
    skipNamespace(s);
    const std::size_t at = s.pos();
    const std::string_view word = s.identifier();
    if (word.empty())
        s.fail("expected " + std::string(kind) + "<...>, Int<N>, _N or an integer");
    if (word == kind || word == "tuple") {
        s.expect("<", "'<' after " + std::string(word));
        t.tuple = true;
        do
            t.modes.push_back(typeTuple(s, kind, depth + 1));
        while (s.eat(","));
        s.expect(">", "',' or '>' after a mode of " + std::string(word) + "<...>");
        skipBraces(s);
        if (t.modes.size() == 1) { // Shape<X> is X
            Tree only = std::move(t.modes.front());
            only.offset = t.offset;
            return only;
        }
        return t;
    }
    if (word == "Int" || word == "C") {
        s.expect("<", "'<' after " + std::string(word));
        const std::optional<long> v = s.integer();
        if (!v)
            s.fail("expected an integer in " + std::string(word) + "<N>");
        s.expect(">", "'>' after the integer of " + std::string(word) + "<N>");
        skipBraces(s);
        t.value = *v;
        return t;
    }
    if (word.size() > 1 && word[0] == '_') { // _4, as cute::_4 is Int<4>
        long v = 0;
        for (std::size_t i = 1; i < word.size(); ++i) {
            if (!std::isdigit(static_cast<unsigned char>(word[i])) || i > 9)
                s.failAt(at, "expected _N (N an integer), found '" + excerpt(word, 16) + "'");
            v = v * 10 + (word[i] - '0');
        }
        skipBraces(s);
        t.value = v;
        return t;
    }
    s.failAt(at, "expected " + std::string(kind) + "<...>, Int<N>, _N or an integer, found '" +
                     excerpt(word, 16) + "'");
}

// ---- the TV layout ----------------------------------------------------------------------------------

struct Leaf {
    long size = 1, stride = 0;
};

void congruent(const Tree& shape, const Tree& stride, Scanner& s) {
    if (shape.tuple != stride.tuple || shape.modes.size() != stride.modes.size())
        s.failAt(stride.offset,
                 "the stride is not congruent with the shape: expected " +
                     (shape.tuple ? "a tuple of " + std::to_string(shape.modes.size()) + " modes"
                                  : std::string("an integer")) +
                     " here, as the shape has");
    if (!shape.tuple && shape.value < 1)
        s.failAt(shape.offset, "a shape mode is a positive size; found " + std::to_string(shape.value));
    for (std::size_t i = 0; i < shape.modes.size(); ++i)
        congruent(shape.modes[i], stride.modes[i], s);
}

void flatten(const Tree& shape, const Tree& stride, std::vector<Leaf>& out) {
    if (!shape.tuple) {
        out.push_back({shape.value, stride.value});
        return;
    }
    for (std::size_t i = 0; i < shape.modes.size(); ++i)
        flatten(shape.modes[i], stride.modes[i], out);
}

long sizeOf(const std::vector<Leaf>& leaves, std::size_t offset, std::string_view mode, Scanner& s) {
    long n = 1;
    for (const Leaf& l : leaves) {
        n *= l.size;
        if (n > kMostElements)
            s.failAt(offset, "the " + std::string(mode) + " mode has more than " +
                                 std::to_string(kMostElements) + " elements");
    }
    return n;
}

long evaluate(const std::vector<Leaf>& leaves, long x) {
    long v = 0;
    for (const Leaf& l : leaves) {
        v += (x % l.size) * l.stride;
        x /= l.size;
    }
    return v;
}

std::string print(const Tree& t) {
    if (!t.tuple)
        return std::to_string(t.value);
    std::string s = "(";
    for (std::size_t i = 0; i < t.modes.size(); ++i)
        s += (i ? "," : "") + print(t.modes[i]);
    return s + ")";
}

Layout tvLayout(const Tree& shape, const Tree& stride, Notation notation, Scanner& s) {
    if (!shape.tuple || shape.modes.size() != 2)
        s.failAt(shape.offset, "expected a thread-value layout, two top-level modes (thread, value); found " +
                                   (shape.tuple ? std::to_string(shape.modes.size()) + " modes"
                                                : std::string("one integer")));
    congruent(shape, stride, s);
    std::vector<Leaf> thread, value;
    flatten(shape.modes[0], stride.modes[0], thread);
    flatten(shape.modes[1], stride.modes[1], value);
    for (const auto& [leaves, mode] : {std::pair{&thread, 0}, std::pair{&value, 1}})
        if (leaves->size() > 64)
            s.failAt(shape.modes[static_cast<std::size_t>(mode)].offset,
                     "more than 64 modes in the " + std::string(mode ? "value" : "thread") + " mode");
    const long threads = sizeOf(thread, shape.modes[0].offset, "thread", s);
    const long values = sizeOf(value, shape.modes[1].offset, "value", s);
    if (threads > kMostThreads)
        s.failAt(shape.modes[0].offset, "the thread mode has " + std::to_string(threads) +
                                            " threads; lanemap reads at most " +
                                            std::to_string(kMostThreads) + " (a CTA)");
    if (threads * values > kMostElements)
        s.failAt(shape.offset, "the layout has more than " + std::to_string(kMostElements) + " elements");
    Layout l;
    l.notation = notation;
    l.threads = static_cast<int>(threads);
    l.values = static_cast<int>(values);
    l.index.reserve(static_cast<std::size_t>(threads * values));
    for (long t = 0; t < threads; ++t)
        for (long v = 0; v < values; ++v)
            l.index.push_back(evaluate(thread, t) + evaluate(value, v));
    l.canonical = print(shape) + ":" + print(stride);
    return l;
}

} // namespace

Layout readCuteLayout(std::string_view text) {
    Scanner s(text);
    const Tree shape = printedTuple(s);
    s.expect(":", "':' between the shape and the stride");
    const Tree stride = printedTuple(s);
    if (!s.atEnd()) {
        if (s.peek() == 'o')
            s.fail("expected the end of the layout (a composed layout, Sw<..> o ..., is not read yet)");
        s.fail("expected the end of the layout");
    }
    return tvLayout(shape, stride, Notation::CuteLayout, s);
}

Layout readCuteType(std::string_view text) {
    Scanner s(text);
    if (s.eat("using")) {
        if (s.identifier().empty())
            s.fail("expected a name after 'using'");
        s.expect("=", "'=' after 'using NAME'");
    }
    skipNamespace(s);
    const std::size_t at = s.pos();
    if (s.identifier() != "Layout")
        s.failAt(at, "expected Layout<Shape<...>, Stride<...>>");
    s.expect("<", "'<' after Layout");
    const Tree shape = typeTuple(s, "Shape");
    s.expect(",", "',' between the Shape and the Stride");
    const Tree stride = typeTuple(s, "Stride");
    s.expect(">", "'>' closing Layout<...>");
    skipBraces(s);
    s.eat(";");
    if (!s.atEnd())
        s.fail("expected the end of the layout");
    return tvLayout(shape, stride, Notation::CuteType, s);
}

} // namespace lanemap::layout_in::detail
