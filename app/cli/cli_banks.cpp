// lanemap-cli banks: the shared-memory bank table of one ldmatrix / stmatrix placement, the conflict-free
// search, and the check that the moved registers feed (or drain) an mma operand (docs/reference/ldmatrix.md).

#include "cli_banks.hpp"

#include "cli.hpp"
#include "cli_output.hpp"

#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tiled_copy.hpp"
#include "lanemap/write.hpp"

#include <ostream>
#include <sstream>

namespace lanemap::cli {

namespace {

// What moves the operand in a tiled copy: an ldmatrix/stmatrix of the catalog, or a plain ld.shared.
struct Mover {
    const Variant* matrixMove = nullptr;
    tiled_copy::SharedLoad load;
    std::optional<tiled_copy::Result> analyze(const Instruction& tile, Operand operand,
                                              const banks::Placement& placement, std::string& error) const {
        return matrixMove ? tiled_copy::analyze(*matrixMove, tile, operand, placement, error)
                          : tiled_copy::analyze(load, tile, operand, placement, error);
    }
    std::vector<banks::SearchResult> search(const Instruction& tile, Operand operand,
                                            const banks::Placement& placement) const {
        return matrixMove ? tiled_copy::search(*matrixMove, tile, operand, placement)
                          : tiled_copy::search(load, tile, operand, placement);
    }
};

// banks MOVE --feeds SPEC:OPERAND --atom-layout ... [--permutation ...]: the tiled copy of the whole tile.
int cmdTiledCopy(const BanksRequest& request, const Mover& move, const std::string& format,
                 const banks::Placement& placement, std::ostream& out, std::ostream& err) {
    if (request.feeds.empty()) {
        err << "lanemap-cli: banks --atom-layout/--permutation needs --feeds SPEC:OPERAND, the tiled MMA's "
               "operand the copy moves (ldmatrix: A or B, e.g. --feeds mma.m16n8k16.f16:A; stmatrix: C or "
               "D)\n";
        return Usage;
    }
    const std::size_t colon = request.feeds.rfind(':');
    const std::optional<Operand> operand =
        colon == std::string::npos ? std::nullopt : parseOperand(request.feeds.substr(colon + 1));
    if (!operand) {
        err << "lanemap-cli: --feeds '" << excerpt(request.feeds)
            << "' is not SPEC:OPERAND (e.g. mma.m16n8k16.f16:A; ldmatrix loads A or B, stmatrix stores C or "
               "D)\n";
        return Usage;
    }
    const ParsedSpec consumer = parseSpec(request.feeds.substr(0, colon), Catalog::instance());
    if (!consumer) {
        err << "lanemap-cli: --feeds: " << consumer.error << '\n';
        return Usage;
    }
    Selection selection = selectionOf(consumer);
    selection.params.tile = request.tile;
    if (const std::string why = validate(selection); !why.empty()) {
        err << "lanemap-cli: " << why << '\n';
        return Usage;
    }
    const std::shared_ptr<const Instruction> tile = instantiate(selection);
    std::string error;
    const std::optional<tiled_copy::Result> r = move.analyze(*tile, *operand, placement, error);
    if (!r) {
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    std::ostringstream doc;
    if (format == "svg") {
        doc << toSvg(buildTiledCopyDiagram(*r));
    } else if (format == "json") {
        doc << tiled_copy::toJson(*r);
    } else {
        doc << tiled_copy::toText(*r);
        if (request.search) {
            doc << "\nsearch (the whole tile, same pitch and start; conflict-free first):\n";
            for (const banks::SearchResult& s : move.search(*tile, *operand, r->placement))
                doc << (s.wavefronts == s.idealWavefronts ? "  conflict-free  " : "  ")
                    << banks::describe(s.placement) << ": " << s.wavefronts << " wavefronts (ideal "
                    << s.idealWavefronts << ")\n";
        }
    }
    if (!request.output || *request.output == "-") {
        out << doc.str();
    } else if (const std::string failure = writeFile(*request.output, doc.str()); !failure.empty()) {
        err << "lanemap-cli: " << failure << '\n';
        return Usage;
    }
    return r->mismatches ? Mismatch : Ok;
}

// The format a banks request asks for ("text", "json", "svg"), or "" after saying why not.
std::string formatOf(const BanksRequest& request, std::ostream& err) {
    const std::string format = request.format.empty() ? (request.json ? "json" : "text") : request.format;
    if (format != "text" && format != "json" && format != "svg") {
        err << "lanemap-cli: unknown --format '" << excerpt(request.format) << "'; valid: text, json, svg\n";
        return "";
    }
    if (request.json && format != "json") {
        err << "lanemap-cli: --json and --format " << format << " contradict each other; use one\n";
        return "";
    }
    return format;
}

} // namespace

int cmdBanks(const BanksRequest& request, std::ostream& out, std::ostream& err) {
    if (tiled_copy::isSharedLoad(request.spec)) {
        // A plain ld.shared is no catalog instruction: it moves whatever the tile's fragment holds.
        std::string error;
        const std::optional<tiled_copy::SharedLoad> load = tiled_copy::parseSharedLoad(request.spec, error);
        if (!load) {
            err << "lanemap-cli: " << error << '\n';
            return Usage;
        }
        const std::string format = formatOf(request, err);
        if (format.empty())
            return Usage;
        if (!request.tile || request.feeds.empty()) {
            err << "lanemap-cli: " << request.spec
                << " loads a tiled MMA's fragment: give --feeds SPEC:A|B and --atom-layout (e.g. --feeds "
                   "mma.m16n8k16.f16:A --atom-layout '(1,1,1)' for one warp)\n";
            return Usage;
        }
        const std::optional<banks::Placement> placement =
            request.smem.empty() ? banks::Placement{} : banks::parsePlacement(request.smem, error);
        if (!placement) {
            err << "lanemap-cli: " << error << '\n';
            return Usage;
        }
        return cmdTiledCopy(request, Mover{nullptr, *load}, format, *placement, out, err);
    }
    const Catalog& catalog = Catalog::instance();
    const ParsedSpec parsed = parseSpec(request.spec, catalog);
    if (!parsed) {
        err << "lanemap-cli: " << parsed.error << '\n';
        return Usage;
    }
    const Variant& v = *parsed.variant;
    if (!banks::applies(v)) {
        err << "lanemap-cli: banks takes an ldmatrix or stmatrix spec (" << v.spec
            << " reads no shared memory); e.g. ldmatrix.m8n8.x4.b16\n";
        return Usage;
    }
    const std::string format = formatOf(request, err);
    if (format.empty())
        return Usage;
    std::string error;
    const std::optional<banks::Placement> placement =
        request.smem.empty() ? banks::Placement{} : banks::parsePlacement(request.smem, error);
    if (!placement) {
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    if (request.tile)
        return cmdTiledCopy(request, Mover{&v, {}}, format, *placement, out, err);
    std::ostringstream doc;
    int code = Ok;
    std::optional<banks::FeedCheck> feed;
    const FragmentLayout* fed = nullptr; // the consumer's operand: its size is the default tile
    if (!request.feeds.empty()) {
        const std::size_t colon = request.feeds.rfind(':');
        const std::optional<Operand> operand =
            colon == std::string::npos ? std::nullopt : parseOperand(request.feeds.substr(colon + 1));
        if (!operand) {
            err << "lanemap-cli: --feeds '" << excerpt(request.feeds)
                << "' is not SPEC:OPERAND (e.g. mma.m16n8k16.f16:A; operands A, B, C, D)\n";
            return Usage;
        }
        const ParsedSpec consumer = parseSpec(request.feeds.substr(0, colon), catalog);
        if (!consumer) {
            err << "lanemap-cli: --feeds: " << consumer.error << '\n';
            return Usage;
        }
        const Instruction& consumerInstruction = catalog.instruction(*consumer.variant);
        fed = consumerInstruction.operand(*operand);
        feed = banks::checkFeed(v, consumerInstruction, *operand, *placement, error);
        if (!feed) {
            err << "lanemap-cli: --feeds: " << error << '\n';
            return Usage;
        }
        code = feed->mismatches ? Mismatch : Ok;
    }
    banks::Placement analyzed = *placement;
    if (fed && analyzed.tileRows == 0 && analyzed.tileCols == 0) {
        analyzed.tileRows = fed->rows();
        analyzed.tileCols = fed->cols();
    }
    const std::optional<banks::Analysis> analysis = banks::analyze(v, analyzed, error);
    if (!analysis) {
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    if (format == "svg") {
        doc << toSvg(feed ? buildBanksDiagram(v, *analysis, *feed) : buildBanksDiagram(v, *analysis));
    } else if (format == "json") {
        doc << banks::toJson(v, *analysis, feed ? &*feed : nullptr);
    } else {
        doc << banks::toText(v, *analysis);
        if (feed)
            doc << '\n' << banks::toText(v, *feed);
        if (request.search) {
            doc << "\nsearch (same tile, pitch and start; conflict-free first):\n";
            for (const banks::SearchResult& r : banks::search(v, analysis->placement))
                doc << (r.wavefronts == r.idealWavefronts ? "  conflict-free  " : "  ")
                    << banks::describe(r.placement) << ": " << r.wavefronts << " wavefronts (ideal "
                    << r.idealWavefronts << ")\n";
            if (const std::optional<banks::Placement> best = banks::recommend(v, analysis->placement))
                doc << "recommended: " << banks::describe(*best) << '\n';
            else
                doc << "recommended: none of the candidates is conflict-free\n";
        }
    }
    // -o '' is an empty file name (refused by the writer), not standard output.
    if (!request.output || *request.output == "-") {
        out << doc.str();
    } else if (const std::string failure = writeFile(*request.output, doc.str()); !failure.empty()) {
        err << "lanemap-cli: " << failure << '\n';
        return Usage;
    }
    return code;
}

int cmdWithPlacement(const std::string& spec, const std::string& smem, const std::string& formatName,
                     const ExportOptions& options, const std::string& output, std::ostream& out,
                     std::ostream& err) {
    const Catalog& catalog = Catalog::instance();
    const ParsedSpec parsed = parseSpec(spec, catalog);
    if (!parsed) {
        err << "lanemap-cli: " << parsed.error << '\n';
        return Usage;
    }
    const Variant& v = *parsed.variant;
    if (!banks::applies(v)) {
        err << "lanemap-cli: --smem describes where an ldmatrix or stmatrix tile sits in shared memory; "
            << v.spec << " reads no shared memory (wgmma: --major and --swizzle)\n";
        return Usage;
    }
    const std::optional<ExportFormat> format = parseExportFormat(formatName);
    if (!format ||
        (*format != ExportFormat::Text && *format != ExportFormat::Json && *format != ExportFormat::Svg)) {
        err << "lanemap-cli: --smem applies to the txt, json and svg formats, not '" << excerpt(formatName)
            << "'\n";
        return Usage;
    }
    std::string error;
    const std::optional<banks::Placement> placement = banks::parsePlacement(smem, error);
    if (!placement) {
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    const std::optional<banks::Analysis> analysis = banks::analyze(v, *placement, error);
    if (!analysis) {
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    std::string doc;
    if (*format == ExportFormat::Svg) {
        doc = toSvg(buildBanksDiagram(v, *analysis, options.palette));
    } else {
        std::string instruction;
        if (!exportInstruction(catalog.instruction(v), *format, options, instruction, error)) {
            err << "lanemap-cli: " << error << '\n';
            return Usage;
        }
        // Two whole documents side by side: neither is parsed back.
        doc = *format == ExportFormat::Json ? "{\"instruction\": " + instruction +
                                                  ",\n\"banks\": " + banks::toJson(v, *analysis) + "}\n"
                                            : instruction + "\n" + banks::toText(v, *analysis);
    }
    if (output.empty() || output == "-") {
        out << doc;
        return Ok;
    }
    return writeExport(output, v.spec, fileExtension(*format), false, doc, out, err);
}

} // namespace lanemap::cli
