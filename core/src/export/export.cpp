#include "lanemap/export.hpp"
#include "lanemap/export_json.hpp"

#include "lanemap/diagram.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/site.hpp"
#include "lanemap/svg.hpp"

#include "export/export_placement.hpp"
#include "export/export_tile_ctas.hpp"
#include "lanemap/tile_ctas.hpp"

#include <array>
#include <stdexcept>

namespace lanemap {

namespace {
struct FormatName {
    ExportFormat format;
    std::string_view name;
    std::string_view extension;
};
constexpr std::array kFormats{FormatName{ExportFormat::Json, "json", "json"},
                              FormatName{ExportFormat::Text, "txt", "txt"},
                              FormatName{ExportFormat::Svg, "svg", "svg"},
                              FormatName{ExportFormat::Html, "html", "html"},
                              FormatName{ExportFormat::Cuda, "cuda", "cuh"},
                              FormatName{ExportFormat::Cute, "cute", "cute.txt"},
                              FormatName{ExportFormat::Triton, "triton", "triton.json"},
                              FormatName{ExportFormat::Csv, "csv", "csv"},
                              FormatName{ExportFormat::Markdown, "md", "md"},
                              FormatName{ExportFormat::Latex, "tex", "tex"}};

std::string registerOperands(const Instruction& in) {
    std::string s;
    for (const FragmentLayout& op : in.operands)
        (s += s.empty() ? "" : ", ") += op.name();
    if (in.metadata)
        s += ", metadata";
    return s;
}

std::string operandList(const Instruction& in) {
    std::string s;
    for (const FragmentLayout& op : in.operands)
        (s += s.empty() ? "" : ", ") += op.name();
    if (smem::hasSharedMemoryOperands(in))
        s += ", B (shared memory)";
    if (in.metadata)
        s += ", metadata";
    return s;
}
} // namespace

std::optional<ExportFormat> parseExportFormat(std::string_view name) {
    for (const FormatName& f : kFormats)
        if (f.name == name)
            return f.format;
    return std::nullopt;
}

std::string_view toString(ExportFormat format) {
    for (const FormatName& f : kFormats)
        if (f.format == format)
            return f.name;
    return "json";
}

std::string_view fileExtension(ExportFormat format) {
    for (const FormatName& f : kFormats)
        if (f.format == format)
            return f.extension;
    return "json";
}

std::string exportFormatList() {
    std::string s;
    for (const FormatName& f : kFormats)
        s += (s.empty() ? "" : ", ") + std::string(f.name);
    return s;
}

namespace {

// An instance whose operand lives in Tensor Memory (a tcgen05.mma view) is drawn and described by its space's
// builders: where each element sits, and with a tcgen05.ld or st who holds it.
bool exportTensorMemory(const Instruction& in, ExportFormat format, const ExportOptions& options,
                        std::string& document, std::string& error) {
    if (!options.operands.empty() || options.colorBy != ColorBy::Lane || !options.lanes.empty() ||
        options.compact) {
        error =
            "a tcgen05.mma view draws D in Tensor Memory (A with --st): it takes no operand, colouring, lane "
            "filter or compact form";
        return false;
    }
    try {
        switch (format) {
        case ExportFormat::Json:
            document = tmem::viewJson(viewOf(in));
            return true;
        case ExportFormat::Text:
            document = tmem::viewText(viewOf(in));
            return true;
        case ExportFormat::Svg: {
            // D (or A) in Tensor Memory, then each CTA's A and B in its shared memory.
            // Every CTA part's cells reserved with D's: appended into a full vector, the 65,536 Tensor
            // Memory cells of an m256 were moved (4.7 MB).
            TensorMemoryOptions o = viewOptionsOf(in.params);
            o.palette = options.palette;
            o.spareCells = detail::ctaSharedMemoryCellCount(in);
            Diagram diagram = buildTensorMemoryDiagram(in, o);
            detail::appendCtaSharedMemory(diagram, in, options.palette);
            document = toSvg(diagram);
            return true;
        }
        case ExportFormat::Html:
            document = htmlPage(in, {ColorBy::Lane, options.palette});
            return true;
        default:
            error = "a tcgen05.mma view exports as txt, json or svg (and html for the site); '" +
                    std::string(toString(format)) + "' is not one of them";
            return false;
        }
    } catch (const std::invalid_argument& e) {
        error = e.what();
        return false;
    }
}

} // namespace

bool exportInstruction(const Instruction& in, ExportFormat format, const ExportOptions& options,
                       std::string& document, std::string& error) {
    // A tile of tcgen05.mma atoms is held by the CTAs of a cluster: documents of its own.
    if (tile::overCtas(in))
        return detail::exportTileOverCtas(in, format, options, document, error);
    // A view of a tcgen05.mma has documents of its own; the catalog entry, which stands for every N, is
    // described like any instruction (export --all).
    if (in.hasSpace(Space::TensorMemory) && in.params.namesTensorMemoryView())
        return exportTensorMemory(in, format, options, document, error);
    // No register fragment and no Tensor Memory: an operand placed cell by cell in memory (a TMA box), whose
    // json, txt, svg and csv come from its placements; the other formats describe it as any instruction (its
    // PTX, section and notes; no register operand).
    if (in.operands.empty() && !in.hasSpace(Space::TensorMemory) && !in.placements.empty() &&
        (format == ExportFormat::Json || format == ExportFormat::Text || format == ExportFormat::Svg ||
         format == ExportFormat::Csv))
        return detail::exportPlacements(in, format, options, document, error);
    // A tile of atoms (lanemap/tile.hpp) is drawn and listed; the code exports describe one instruction.
    if (in.tile && format != ExportFormat::Json && format != ExportFormat::Text &&
        format != ExportFormat::Svg && format != ExportFormat::Html && format != ExportFormat::Cute &&
        format != ExportFormat::Triton) {
        error = "a tile (--atom-layout, --permutation) exports as json, txt, svg, html, cute or triton; '" +
                std::string(toString(format)) + "' is not one of them";
        return false;
    }
    if (in.tile && format == ExportFormat::Triton)
        if (std::string why = tritonTileRefusal(in); !why.empty()) {
            error = "the tile has no Triton LinearLayout: " + why;
            return false;
        }
    const bool wgmma = in.hasSpace(Space::SharedMemory);
    const OperandSet want = options.operands;
    const bool metadataOnly = want == Operand::Metadata;
    const bool smemOperand = wgmma && want == Operand::B;
    // The register operand --operand names, if it names one (B of wgmma and metadata are handled apart).
    const FragmentLayout* chosen = nullptr;
    if (const std::optional<Operand> which = want.single())
        chosen = in.operand(*which);
    if (!want.empty() && !metadataOnly && !smemOperand && !chosen) {
        error = "no operand '" + toString(want) + "' in " + in.spec + "; valid operands: " + operandList(in);
        return false;
    }
    if (metadataOnly && !in.metadata) {
        error = in.spec +
                " has no metadata operand (only sparse instructions do); valid operands: " + operandList(in);
        return false;
    }
    // The instance's parameters were checked when it was made (lanemap/selection.hpp): the selector and the
    // shared-memory layout are the instance's; here only what a format cannot show is refused.
    const std::optional<int> selector = in.params.selector;
    const bool smemOption = in.params.smem.has_value();
    const smem::Choice choice = in.params.smem.value_or(smem::Choice{});
    const bool smemA = wgmma && smemOption && want == Operand::A;
    if (smemOption && !want.empty() && !smemA && !smemOperand) {
        error = "--major/--swizzle describe the shared-memory operands A and B; " + toString(want) + " of " +
                in.spec + " lives in registers";
        return false;
    }
    // Options the chosen format cannot honour are refused, never silently dropped.
    if (format == ExportFormat::Json && (!want.empty() || selector)) {
        error = "--operand and --selector choose what txt and svg draw; a json document always holds every "
                "operand "
                "and every sparsity selector";
        return false;
    }
    if (options.compact && format != ExportFormat::Json) {
        error = "--compact is a form of the json document; --format " + std::string(fileExtension(format)) +
                " has none (--gzip makes any export smaller)";
        return false;
    }
    if (format == ExportFormat::Html && (!want.empty() || selector || smemOption)) {
        error = "--operand, --selector, --major and --swizzle do not apply to html: a page holds every "
                "register operand and lets its reader pick the sparsity selector";
        return false;
    }
    // The code exports hold every register operand; the tables take --operand (register operands only).
    const bool codeFormat =
        format == ExportFormat::Cuda || format == ExportFormat::Cute || format == ExportFormat::Triton;
    const bool tableFormat =
        format == ExportFormat::Csv || format == ExportFormat::Markdown || format == ExportFormat::Latex;
    if (codeFormat && (!want.empty() || selector)) {
        error = "--operand and --selector choose what txt, svg and the tables show; cuda, cute and triton "
                "documents hold every register operand and every sparsity selector";
        return false;
    }
    if ((tableFormat || format == ExportFormat::Triton) && smemOption) {
        error = "--major/--swizzle choose the shared-memory layout of the json, txt, cute and cuda views";
        return false;
    }
    if (tableFormat && (selector || (!want.empty() && !chosen))) {
        error = "the tables list register operands (valid: " +
                registerOperands(in).substr(0, registerOperands(in).find(", metadata")) +
                "); --selector does not apply";
        return false;
    }
    // wgmma's A and B as they sit in shared memory, the instance's placements.
    const Placement* sharedA = in.placement(Space::SharedMemory, Operand::A);
    const Placement* sharedB = in.placement(Space::SharedMemory, Operand::B);
    switch (format) {
    case ExportFormat::Json:
        document = options.compact ? toCompactJson(in, choice) : toJson(in, choice);
        return true;
    case ExportFormat::Text:
        if (want.empty())
            document = toText(in, choice, selector);
        else if (metadataOnly)
            document = metadataTextGrid(in, selector);
        else if (smemOperand)
            document = smem::toText(*sharedB->shared());
        else if (smemA)
            document = smem::toText(*sharedA->shared());
        else
            document = toTextGrid(in, *chosen);
        return true;
    case ExportFormat::Html:
        // The page opens coloured as asked; the reader recolours it.
        try {
            document = htmlPage(in, {options.colorBy, options.palette});
        } catch (const std::invalid_argument& e) {
            error = e.what();
            return false;
        }
        return true;
    case ExportFormat::Cuda:
        document = toCudaHeader(in, choice);
        return true;
    case ExportFormat::Cute:
        document = toCute(in, choice);
        return true;
    case ExportFormat::Triton:
        document = toTritonJson(in);
        return true;
    case ExportFormat::Csv:
        document = toCsv(in, chosen);
        return true;
    case ExportFormat::Markdown:
        document = toMarkdown(in, chosen);
        return true;
    case ExportFormat::Latex:
        document = toLatex(in, chosen);
        return true;
    case ExportFormat::Svg: {
        DiagramOptions d;
        d.operands = want;
        d.selector = selector;
        d.colorBy = options.colorBy;
        d.palette = options.palette;
        d.threads = options.lanes;
        try {
            // wgmma: the shared-memory operand is drawn as the app's shared-memory pane draws it (byte
            // address per element, 16-byte chunks before and after the swizzle, the descriptor): alone for
            // --operand B (or A with --major/--swizzle), under the register operands for the whole
            // instruction (B).
            SharedMemoryDiagramOptions so;
            so.palette = options.palette;
            Diagram diagram;
            if (smemOperand)
                diagram = buildSharedMemoryDiagram(*sharedB->shared(), so);
            else if (smemA)
                diagram = buildSharedMemoryDiagram(*sharedA->shared(), so);
            else if (wgmma && want.empty()) {
                d.spareCells = sharedMemoryCellCount(*sharedB->shared(), so);
                diagram = buildDiagram(in, d);
                appendSharedMemory(diagram, *sharedB->shared(), so);
            } else
                diagram = buildDiagram(in, d);
            document = toSvg(diagram);
        } catch (const std::invalid_argument& e) {
            error = e.what();
            return false;
        }
        return true;
    }
    }
    error = "unsupported format";
    return false;
}

} // namespace lanemap
