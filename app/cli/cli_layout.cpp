// show / identify / check / conform of a pasted layout (docs/layouts-in.md): the text is read once into a
// layout_in::Layout; show draws it through the same Diagram as any operand, the others compare it with the
// catalog cell by cell.

#include "cli_layout.hpp"

#include "cli.hpp"
#include "cli_output.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/family.hpp"
#include "lanemap/layout_in.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/svg.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

namespace lanemap::cli {

namespace {

constexpr std::size_t kMostFileBytes = 16u << 20;

// The text of FILE, or nullopt after a message.
std::optional<std::string> readText(const std::string& path, std::ostream& err) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        // Why it failed (a missing file, a folder, no permission) is what the user acts on.
        err << "lanemap-cli: cannot read '" << excerpt(path, 200) << "': " << std::strerror(errno) << '\n';
        return std::nullopt;
    }
    std::string text;
    char buffer[65536];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > kMostFileBytes) {
            err << "lanemap-cli: '" << excerpt(path, 200) << "' is larger than 16 MiB\n";
            return std::nullopt;
        }
    }
    if (in.bad()) {
        err << "lanemap-cli: cannot read '" << excerpt(path, 200) << "': " << std::strerror(errno) << '\n';
        return std::nullopt;
    }
    return text;
}

// The text of a request: itself, or @FILE's.
std::optional<std::string> textOf(const LayoutRequest& r, std::ostream& err) {
    if (!r.text.empty() && r.text[0] == '@')
        return readText(r.text.substr(1), err);
    return r.text;
}

// What a reader refused, and on one short line the text with a caret under the column, as a compiler shows
// it.
void printReadError(const layout_in::ReadError& e, const std::string& text, std::ostream& err,
                    const std::string& source = "the layout") {
    err << "lanemap-cli: cannot read " << source << ": " << e.describe() << '\n';
    if (e.offset != std::string_view::npos && text.size() < 400 && text.find('\n') == std::string::npos)
        err << "  " << excerpt(text, 400) << "\n  "
            << std::string(static_cast<std::size_t>(e.column - 1), ' ') << "^\n";
}

// The layout of a request (its text or @FILE, --shape, --operand), or nullopt after a message naming the
// position and what was expected.
std::optional<layout_in::Layout> readLayout(const LayoutRequest& r, std::ostream& err,
                                            std::optional<layout_in::Extent> shapeOf = std::nullopt) {
    layout_in::ReadOptions options;
    options.shapeOf = shapeOf;
    if (!r.shape.empty()) {
        std::string error;
        options.extent = layout_in::parseExtent(r.shape, error);
        if (!options.extent) {
            err << "lanemap-cli: " << error << '\n';
            return std::nullopt;
        }
    }
    if (!r.operand.empty()) {
        options.operand = parseOperand(r.operand);
        if (!options.operand || *options.operand == Operand::Metadata) {
            err << "lanemap-cli: unknown --operand '" << excerpt(r.operand) << "'; valid: A, B, C, D\n";
            return std::nullopt;
        }
    }
    const std::optional<std::string> text = textOf(r, err);
    if (!text)
        return std::nullopt;
    std::variant<layout_in::Layout, layout_in::ReadError> read = layout_in::read(*text, options);
    if (const layout_in::ReadError* e = std::get_if<layout_in::ReadError>(&read)) {
        printReadError(*e, *text, err,
                       !r.text.empty() && r.text[0] == '@' ? excerpt(r.text.substr(1), 200) : "the layout");
        return std::nullopt;
    }
    return std::get<layout_in::Layout>(std::move(read));
}

// The options a shared-memory layout is read with (--shape, --element-bits), or nullopt after a message.
std::optional<layout_in::SharedReadOptions> sharedOptions(const LayoutRequest& r, std::ostream& err) {
    layout_in::SharedReadOptions options;
    if (!r.shape.empty()) {
        std::string error;
        options.extent = layout_in::parseExtent(r.shape, error);
        if (!options.extent) {
            err << "lanemap-cli: " << error << '\n';
            return std::nullopt;
        }
    }
    if (!r.elementBits.empty()) {
        const std::string& b = r.elementBits;
        if (b != "8" && b != "16" && b != "32" && b != "64") {
            err << "lanemap-cli: invalid --element-bits '" << excerpt(b) << "'; valid: 8, 16, 32, 64\n";
            return std::nullopt;
        }
        options.elementBits = std::stoi(b);
    }
    return options;
}

// A shared-memory layout read, or nullopt after the reader's message (exit 2).
std::optional<layout_in::SharedLayout>
readSharedLayout(const std::string& text, const layout_in::SharedReadOptions& options, std::ostream& err) {
    std::variant<layout_in::SharedLayout, layout_in::ReadError> read = layout_in::readShared(text, options);
    if (const layout_in::ReadError* e = std::get_if<layout_in::ReadError>(&read)) {
        printReadError(*e, text, err);
        return std::nullopt;
    }
    return std::get<layout_in::SharedLayout>(std::move(read));
}

// A shared-memory layout (CuTe swizzled, Triton shared encoding): txt, the byte of every cell; json, [row,
// col, byte]; svg, the shared-memory pane.
int showShared(const std::string& text, const LayoutRequest& r, const std::string& format, std::ostream& out,
               std::ostream& err) {
    const std::optional<layout_in::SharedReadOptions> options = sharedOptions(r, err);
    if (!options)
        return Usage;
    const std::optional<layout_in::SharedLayout> read = readSharedLayout(text, *options, err);
    if (!read)
        return Usage;
    const layout_in::SharedLayout& l = *read;
    const bool triton = l.tensorDims;
    std::ostringstream doc;
    if (format == "json") {
        doc << "{\n \"notation\": \"" << layout_in::toString(l.notation) << "\",\n \"layout\": \""
            << l.canonical << "\",\n \"shape\": [" << l.rows << ", " << l.cols
            << "],\n \"element_bits\": " << l.elementBits << ",\n \"element\": [\""
            << (triton ? "dim0" : "mode0") << "\", \"" << (triton ? "dim1" : "mode1")
            << "\", \"byte\"],\n \"elements\": [";
        for (int i = 0; i < l.rows; ++i)
            for (int j = 0; j < l.cols; ++j)
                doc << (i || j ? ",\n  [" : "\n  [") << i << ", " << j << ", " << l.address(i, j) << ']';
        doc << "\n ]\n}\n";
    } else if (format == "txt") {
        doc << "layout (" << layout_in::toString(l.notation) << "): " << l.canonical << '\n'
            << "shape " << l.rows << "x" << l.cols
            << (triton ? " (Triton's [dim0, dim1]: A [M, K], B [K, N]), "
                       : " (mode 0, mode 1; an MMA operand's (MN, K)), ")
            << l.elementBits << "-bit elements; "
            << (triton ? "the swizzle is in Triton's linear layout (offset -> [dim0, dim1])" +
                             std::string(l.notation == layout_in::SharedNotation::TritonPadded
                                             ? ", the padding after it"
                                             : "")
                       : std::string("the swizzle acts on the ") +
                             (l.onBytes ? "byte address (smem_ptr)" : "element offset"))
            << "\n"
            << (triton ? "rows dim0, columns dim1" : "rows mode 0, columns mode 1")
            << "; a cell: the byte offset of its element from a base aligned to the swizzle's repeat\n";
        std::size_t width = 1;
        for (int i = 0; i < l.rows; ++i)
            for (int j = 0; j < l.cols; ++j)
                width = std::max(width, std::to_string(l.address(i, j)).size());
        const std::size_t head = std::to_string(l.rows - 1).size();
        doc << std::string(head, ' ');
        for (int j = 0; j < l.cols; ++j)
            doc << ' ' << std::string(width - std::min(width, std::to_string(j).size()), ' ') << j;
        doc << '\n';
        for (int i = 0; i < l.rows; ++i) {
            const std::string n = std::to_string(i);
            doc << std::string(head - n.size(), ' ') << n;
            for (int j = 0; j < l.cols; ++j) {
                const std::string a = std::to_string(l.address(i, j));
                doc << ' ' << std::string(width - a.size(), ' ') << a;
            }
            doc << '\n';
        }
    } else
        doc << toSvg(buildSharedMemoryDiagram(layout_in::instructionOf(l).placements.front()));
    if (r.output.empty() || r.output == "-") {
        out << doc.str();
        return Ok;
    }
    return writeExport(r.output, "layout", format, false, doc.str(), out, err);
}

// check of a shared-memory layout against a wgmma's or tcgen05.mma's A or B, byte for byte.
int checkShared(const std::string& text, const LayoutRequest& r, const Instruction& in, Operand operand,
                std::ostream& out, std::ostream& err) {
    Placement own;
    std::string error;
    if (!in.family || !in.family->sharedOperand || (operand != Operand::A && operand != Operand::B) ||
        !in.family->sharedOperand(in, operand, smem::Choice{}, 0, 0, own, error) || !own.shared()) {
        err << "lanemap-cli: a swizzled layout is a shared-memory layout; " << in.spec << " reads no "
            << toString(operand)
            << " from shared memory: compare it with the A or B of a wgmma or tcgen05.mma (e.g. "
               "wgmma.m64n64k16.f16:B)\n";
        return Usage;
    }
    std::optional<layout_in::SharedReadOptions> options = sharedOptions(r, err);
    if (!options)
        return Usage;
    // The operand's element size (a layout without smem_ptr[Nb] or elementBitWidth does not say it), and its
    // grid as Triton shapes it (A [M, K], B [K, N]) for an encoding given no --shape.
    if (!options->elementBits)
        options->elementBits = own.shared()->layout.elementBits();
    options->shapeOf = layout_in::Extent{own.rows(), own.cols(), 1};
    const std::optional<layout_in::SharedLayout> read = readSharedLayout(text, *options, err);
    if (!read)
        return Usage;
    const layout_in::SharedLayout& l = *read;
    smem::Choice choice;
    if (!r.major.empty()) {
        const std::optional<smem::Major> m = smem::parseMajor(r.major);
        if (!m) {
            err << "lanemap-cli: unknown --major '" << excerpt(r.major) << "'; valid: " << smem::majorList()
                << '\n';
            return Usage;
        }
        choice.major = *m;
    } else if (const std::optional<smem::Major> m = layout_in::impliedMajor(l, operand))
        choice.major = *m; // a Triton encoding's contiguous dim
    if (!r.swizzle.empty()) {
        const std::optional<smem::Swizzle> sw = smem::parseSwizzle(r.swizzle);
        if (!sw) {
            err << "lanemap-cli: unknown --swizzle '" << excerpt(r.swizzle)
                << "'; valid: " << smem::swizzleList() << '\n';
            return Usage;
        }
        choice.swizzle = *sw;
    } else if (l.swizzle)
        choice.swizzle = *l.swizzle;
    else if (l.notation == layout_in::SharedNotation::CuteSwizzle) {
        // the layout's own: Sw<B,4,3> on bytes (Sw<B,3,3> on 16-bit offsets is the same bytes)
        const int bits = l.bits;
        choice.swizzle = bits == 0   ? smem::Swizzle::None
                         : bits == 1 ? smem::Swizzle::B32
                         : bits == 2 ? smem::Swizzle::B64
                                     : smem::Swizzle::B128;
    } else if (r.major.empty()) { // a layout that names no choice: the one it matches best
        std::string why;
        if (const std::optional<layout_in::SharedMatch> best = layout_in::bestChoice(l, in, operand, why))
            choice = best->choice;
    }
    const std::optional<smem::SharedOperand> over = layout_in::coveringOperand(l, in, operand, choice, error);
    if (!over) {
        err << "lanemap-cli: " << in.spec << ": " << error << '\n';
        return Usage;
    }
    const layout_in::SharedComparison c = layout_in::compareShared(l, *over);
    out << "layout (" << layout_in::toString(l.notation) << "): " << excerpt(l.canonical, 400) << '\n'
        << "against " << in.spec << ' ' << toString(operand) << " in shared memory, "
        << smem::toString(choice.major) << "-major, " << smem::toString(choice.swizzle) << " swizzle ("
        << over->layout.rows() << " x " << over->layout.cols() << " as (MN, K), "
        << over->layout.swizzleRule() << "): ";
    if (!c.sameShape)
        out << "differs: " << c.why << '\n';
    else if (c.equal())
        out << "equal: every one of the " << c.cells << " elements at the same byte\n";
    else {
        out << "differs in " << c.differing << " of " << c.cells << " elements; the first " << c.first.size()
            << ":\n";
        for (const layout_in::ByteDifference& d : c.first)
            out << "  " << layout_in::describeSharedCell(l, operand, d.mn, d.k) << ": layout byte "
                << d.layout << "; lanemap " << toString(operand) << '('
                << (operand == Operand::B ? d.k : d.mn) << ',' << (operand == Operand::B ? d.mn : d.k)
                << ") byte " << d.operand << '\n';
    }
    out << in.spec << ": " << layout_in::hardwareStatus(in) << '\n';
    return c.equal() ? Ok : Mismatch;
}

// identify of a shared-memory layout: every wgmma / tcgen05.mma shared-memory operand it equals.
int identifyShared(const std::string& text, const LayoutRequest& r, std::ostream& out, std::ostream& err) {
    const std::optional<layout_in::SharedReadOptions> options = sharedOptions(r, err);
    if (!options)
        return Usage;
    const std::optional<layout_in::SharedLayout> read = readSharedLayout(text, *options, err);
    if (!read)
        return Usage;
    const layout_in::SharedLayout& l = *read;
    out << "layout (" << layout_in::toString(l.notation) << "): " << excerpt(l.canonical, 400) << "\n  "
        << l.rows << " x " << l.cols << (l.tensorDims ? " (Triton's [dim0, dim1])" : " (CuTe's (MN, K))")
        << ", " << l.elementBits << "-bit elements in shared memory\n";
    const layout_in::SharedIdentification id = layout_in::identifyShared(l);
    auto group = [&](const layout_in::SharedGroup& g) {
        int confirmed = 0;
        for (const Instruction* in : g.instructions)
            confirmed += in->hardware && in->hardware->verdict == Verdict::Pass;
        std::string names;
        for (std::size_t i = 0; i < g.instructions.size() && i < 3; ++i)
            names += (i ? ", " : "") + g.instructions[i]->spec;
        out << "  " << g.family << ' ' << toString(g.operand) << ", " << smem::toString(g.choice.major)
            << "-major, " << smem::toString(g.choice.swizzle) << " swizzle";
        if (g.differing)
            out << ": " << g.differing << " of " << g.cells << " elements at other bytes";
        out << "; " << g.instructions.size() << " instruction" << (g.instructions.size() == 1 ? "" : "s")
            << ": " << names << (g.instructions.size() > 3 ? ", ..." : "");
        if (confirmed)
            out << " (" << confirmed << " hardware-confirmed)";
        out << '\n';
    };
    if (!id.equal.empty()) {
        out << "equal to " << id.equal.size() << " shared-memory operand layout"
            << (id.equal.size() == 1 ? "" : "s") << " (every element at the same byte):\n";
        for (const layout_in::SharedGroup& g : id.equal)
            group(g);
        return Ok;
    }
    if (id.nearest.empty()) {
        out << "equal to no shared-memory operand, and none has its " << l.elementBits
            << "-bit elements and covers its shape\n";
        return Mismatch;
    }
    out << "equal to no shared-memory operand; the nearest:\n";
    for (const layout_in::SharedGroup& g : id.nearest)
        group(g);
    return Mismatch;
}

} // namespace

bool looksLikeLayout(std::string_view text) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return false;
    const char c = text[first];
    if (c == '(' || c == '_' || c == '#' || c == '{' || c == '@' || c == '-' || c == '!' ||
        std::isdigit(static_cast<unsigned char>(c)))
        return true;
    const std::string_view rest = text.substr(first);
    return rest.rfind("Layout", 0) == 0 || rest.rfind("using ", 0) == 0 || rest.rfind("cute::", 0) == 0 ||
           layout_in::isSwizzled(rest);
}

int cmdShowLayout(const LayoutRequest& r, std::ostream& out, std::ostream& err) {
    const std::string format = r.format.empty() ? "txt" : r.format;
    if (format != "txt" && format != "svg" && format != "json") {
        err << "lanemap-cli: unknown --format '" << excerpt(format)
            << "' for a layout; valid: txt, svg, json\n";
        return Usage;
    }
    if (layout_in::isSharedLayout(r.text) || (r.text.size() > 1 && r.text[0] == '@')) {
        const std::optional<std::string> text = textOf(r, err);
        if (!text)
            return Usage;
        if (layout_in::isSharedLayout(*text))
            return showShared(*text, r, format, out, err);
    }
    if (!r.elementBits.empty()) {
        err << "lanemap-cli: --element-bits is a shared-memory layout's element size; a thread-value layout "
               "has "
               "none\n";
        return Usage;
    }
    const std::optional<layout_in::Layout> layout = readLayout(r, err);
    if (!layout)
        return Usage;
    if (!layout->extent) {
        err << "lanemap-cli: a CuTe layout maps (thread, value) to an index; give --shape DIM0xDIM1 to fold "
               "it "
               "(CuTe's convention: A MxK, B NxK, C MxN, column-major)\n";
        return Usage;
    }
    std::string error;
    const std::optional<std::vector<layout_in::Coord>> cells =
        layout_in::cellsIn(*layout, *layout->extent, error);
    if (!cells) {
        err << "lanemap-cli: cannot draw the layout in "
            << (r.shape.empty() ? "the " + layout_in::toString(*layout->extent) + " its bases span"
                                : "--shape " + layout_in::toString(*layout->extent))
            << ": " << error << '\n';
        return Usage;
    }
    std::string doc;
    if (format == "txt")
        doc = layout_in::toText(*layout, *layout->extent, *cells);
    else if (format == "json")
        doc = layout_in::toJson(*layout, *layout->extent, *cells);
    else
        doc = toSvg(buildDiagram(layout_in::instructionOf(*layout, *layout->extent, *cells)));
    if (r.output.empty() || r.output == "-") {
        out << doc;
        return Ok;
    }
    return writeExport(r.output, "layout", format, false, doc, out, err);
}

int cmdIdentify(const LayoutRequest& r, std::ostream& out, std::ostream& err) {
    if (layout_in::isSharedLayout(r.text) || (r.text.size() > 1 && r.text[0] == '@')) {
        const std::optional<std::string> text = textOf(r, err);
        if (!text)
            return Usage;
        if (layout_in::isSharedLayout(*text))
            return identifyShared(*text, r, out, err);
    }
    const std::optional<layout_in::Layout> layout = readLayout(r, err);
    if (!layout)
        return Usage;
    out << "layout (" << layout_in::toString(layout->notation) << "): " << excerpt(layout->canonical, 400)
        << "\n  " << layout->threads << " threads x " << layout->values
        << (layout->values == 1 ? " value" : " values")
        << (layout->extent ? ", shape " + layout_in::toString(*layout->extent)
                           : std::string(", any shape (no --shape)"))
        << '\n';
    const layout_in::Identification id = layout_in::identify(*layout);
    if (!id.equal.empty()) {
        out << "equal to " << id.equal.size() << " catalog operand" << (id.equal.size() == 1 ? "" : "s")
            << " (the same (thread, value) in every cell):\n";
        for (const layout_in::Match& m : id.equal)
            out << "  " << m.instruction->spec << ' ' << toString(m.operand)
                << (m.instruction->hardware && m.instruction->hardware->verdict == Verdict::Pass
                        ? "  (hardware-confirmed)"
                        : "")
                << '\n';
        return Ok;
    }
    if (id.nearest.empty()) {
        out << "equal to no catalog operand, and no operand has its threads, values"
            << (layout->extent ? " and shape" : "") << "\n";
        return Mismatch;
    }
    out << "equal to no catalog operand; the nearest of its threads, values and shape:\n";
    for (const layout_in::Match& m : id.nearest)
        out << "  " << m.instruction->spec << ' ' << toString(m.operand) << ": " << m.comparison.differing
            << " of " << m.comparison.cells << " cells differ"
            << (m.comparison.sameThreads ? " (" + std::to_string(m.comparison.sameThreads) +
                                               " held by the same threads under other value numbers)"
                                         : std::string())
            << '\n';
    return Mismatch;
}

int cmdCheck(const LayoutRequest& r, std::ostream& out, std::ostream& err) {
    const std::size_t colon = r.against.rfind(':');
    const std::optional<Operand> operand =
        colon == std::string::npos ? std::nullopt : parseOperand(r.against.substr(colon + 1));
    if (!operand || *operand == Operand::Metadata) {
        err << "lanemap-cli: --against '" << excerpt(r.against)
            << "' must be SPEC:OPERAND, OPERAND A, B, C or D (e.g. mma.m16n8k16.f16:A)\n";
        return Usage;
    }
    const ParsedSpec parsed = parseSpec(r.against.substr(0, colon), Catalog::instance());
    if (!parsed) {
        err << "lanemap-cli: " << parsed.error << '\n';
        return Usage;
    }
    // Against a tile of the spec (docs/tiles.md#triton): its operands over the CTA's threads.
    std::shared_ptr<const Instruction> tiled;
    if (r.tile) {
        Selection selection = selectionOf(parsed);
        selection.params.tile = r.tile;
        if (const std::string why = validate(selection); !why.empty()) {
            err << "lanemap-cli: " << why << '\n';
            return Usage;
        }
        tiled = instantiate(selection);
    }
    const Instruction& in = tiled ? *tiled : Catalog::instance().instruction(*parsed.variant);
    if (layout_in::isSharedLayout(r.text) || (r.text.size() > 1 && r.text[0] == '@')) {
        const std::optional<std::string> text = textOf(r, err);
        if (!text)
            return Usage;
        if (layout_in::isSharedLayout(*text))
            return checkShared(*text, r, in, *operand, out, err);
    }
    const FragmentLayout* op = layout_in::accumulatorOr(in, *operand);
    if (!op) {
        std::string valid;
        for (const FragmentLayout& o : in.operands)
            valid += (valid.empty() ? "" : ", ") + std::string(o.name());
        err << "lanemap-cli: " << in.spec << " has no register operand " << toString(*operand)
            << (valid.empty() ? "" : "; its register operands: " + valid) << '\n';
        return Usage;
    }
    LayoutRequest request = r;
    if (request.operand.empty())
        request.operand = std::string(op->name()); // a triton JSON document: this operand of it
    // A Triton encoding with no --shape (#ttg.dot_op, nvidia_mma, blocked) is laid over the operand's.
    const std::optional<layout_in::Layout> layout =
        readLayout(request, err, layout_in::extentOf(*op, layout_in::Notation::TritonLinear));
    if (!layout)
        return Usage;
    const layout_in::Comparison c = layout_in::compare(*layout, *op, 8);
    const layout_in::Extent e = layout_in::extentOf(*op, layout->notation);
    out << "layout (" << layout_in::toString(layout->notation) << "): " << excerpt(layout->canonical, 400)
        << '\n';
    out << "against " << in.spec << ' ' << op->name() << ", " << layout_in::toString(e) << " as "
        << (layout_in::isCute(layout->notation) ? (*operand == Operand::A   ? "CuTe's (M,K)"
                                                   : *operand == Operand::B ? "CuTe's (N,K)"
                                                                            : "CuTe's (M,N)")
                                                : (*operand == Operand::A   ? "Triton's [M, K]"
                                                   : *operand == Operand::B ? "Triton's [K, N]"
                                                                            : "Triton's [M, N]"))
        << ": " << layout_in::describe(c, *layout, in, *op, 8);
    if (in.tile)
        out << tile::nameOf(in)
            << ": a tile; a recorded probe run confirms an atom, not a tile (docs/tiles.md#proof)\n";
    else
        out << in.spec << ": " << layout_in::hardwareStatus(in) << '\n';
    return c.equal() ? Ok : Mismatch;
}

int cmdConform(const std::string& path, std::ostream& out, std::ostream& err) {
    const std::optional<std::string> text = readText(path, err);
    if (!text)
        return Usage;
    std::string error;
    const std::optional<std::vector<layout_in::ConformLine>> lines = layout_in::conform(*text, error);
    if (!lines) {
        err << "lanemap-cli: " << excerpt(path, 200) << ": " << error << '\n';
        return Usage;
    }
    if (lines->empty()) {
        err << "lanemap-cli: " << excerpt(path, 200)
            << " holds no layout; each line is INSTRUCTION:OPERAND LAYOUT (docs/layouts-in.md#conform)\n";
        return Usage;
    }
    out << layout_in::conformMatrix(*lines);
    for (const layout_in::ConformLine& l : *lines)
        if (l.verdict != layout_in::Conformance::Equal)
            return Mismatch;
    return Ok;
}

} // namespace lanemap::cli
