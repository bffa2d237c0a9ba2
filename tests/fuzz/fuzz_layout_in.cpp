// Fuzz target: the layout reader (lanemap/layout_in.hpp) must never crash or hang on pasted text; an error
// names a position inside the text; a layout it accepts prints back (`canonical`) to text that reads to the
// same map.
#include "lanemap/layout_in.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace lanemap::layout_in;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (isSharedLayout(text)) { // a shared-memory layout: read over an operand's shape, every element placed
        SharedReadOptions options;
        options.elementBits = 16;
        options.shapeOf = Extent{64, 64, 1};
        const std::variant<SharedLayout, ReadError> shared = readShared(text, options);
        if (const ReadError* e = std::get_if<ReadError>(&shared)) {
            if (e->offset != std::string_view::npos && (e->offset > size || e->line < 1 || e->column < 1))
                std::abort();
            return 0;
        }
        const SharedLayout& l = std::get<SharedLayout>(shared);
        if (l.rows < 1 || l.cols < 1 ||
            l.offsets.size() != static_cast<std::size_t>(l.rows) * static_cast<std::size_t>(l.cols))
            std::abort();
        for (long x : l.offsets)
            if (x < 0)
                std::abort();
        return 0;
    }
    const std::variant<Layout, ReadError> read = lanemap::layout_in::read(text);
    if (const ReadError* e = std::get_if<ReadError>(&read)) {
        if (e->offset != std::string_view::npos && (e->offset > size || e->line < 1 || e->column < 1))
            std::abort();
        return 0;
    }
    const Layout& l = std::get<Layout>(read);
    if (l.threads < 1 || l.values < 1)
        std::abort();
    // An encoding converted over a shape (#ttg.blocked, nvidia_mma, dot_op) prints what was read, then
    // " = " and the linear layout it became: that reads back.
    std::string_view canonical = l.canonical;
    if (l.notation == Notation::TritonBlocked || l.notation == Notation::TritonMma ||
        l.notation == Notation::TritonDotOperand) {
        const std::size_t linear = canonical.rfind(" = #ttg.linear<");
        if (linear == std::string_view::npos)
            std::abort();
        canonical = canonical.substr(linear + 3);
    }
    const std::variant<Layout, ReadError> again = lanemap::layout_in::read(canonical);
    const Layout* back = std::get_if<Layout>(&again);
    if (!back || back->index != l.index || back->coord != l.coord || back->threads != l.threads)
        std::abort();
    return 0;
}
