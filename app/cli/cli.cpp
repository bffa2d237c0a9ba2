#include "cli.hpp"
#include "catalog_names.hpp"
#include "cli_banks.hpp"
#include "cli_decode.hpp"
#include "cli_feeds.hpp"
#include "cli_layout.hpp"
#include "cli_numbers.hpp"
#include "cli_output.hpp"
#include "cli_tcgen05.hpp"
#include "cli_timing.hpp"

#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_gzip.hpp"
#include "lanemap/gpu/discover.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/query.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/site.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tile_ctas.hpp"
#include "lanemap/version.hpp"
#include "lanemap/wmma.hpp"
#include "lanemap/write.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace lanemap::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kAtomLayoutHelp =
    "Tile the MMA atom over warps (wgmma: warpgroups; tcgen05.mma: the CTAs of a cluster) along M, N, K, in "
    "CuTe's notation: (2,2,1) or (2,2,1):(2,1,0) (docs/tiles.md)";
constexpr const char* kPermutationHelp = "The tile's permutation per mode M,N,K in CuTe's notation, e.g. "
                                         "_32,(_8,_2,_2):(_1,_16,_8),_16 ('_': none); "
                                         "its sizes set the tile";

const Variant* resolve(const std::string& text, std::ostream& err) {
    const ParsedSpec parsed = parseSpec(text, Catalog::instance());
    if (!parsed) {
        err << "lanemap-cli: " << parsed.error << '\n';
        return nullptr;
    }
    return parsed.variant;
}

// The parameters show and export were given as flags, read once (the spec's own come from parsing it):
// --selector, --major/--swizzle, --target, --imm-half-splitoff, --ld/--st, and the block scale, which is read
// once the spec's kind is known.
struct ViewFlags {
    Params params;
    Tcgen05Scale scale;
    std::vector<std::string_view> notForTensorMemory; // the register-view options given, by name
    bool exporting = false;
    std::optional<Number> halfSplit; // as typed: a message quotes a number beyond int as it was typed
};

// --atom-layout and --permutation (docs/tiles.md), read once: nullopt (with `failed` false) when neither was
// given; nullopt with `failed` after a message.
std::optional<tile::TileLayout> tileFlags(const std::string& atomLayout, const std::string& permutation,
                                          std::ostream& err, bool& failed) {
    failed = false;
    if (atomLayout.empty() && permutation.empty())
        return std::nullopt;
    std::string error;
    // CuTe's default atom layout is one atom: a permutation alone tiles one warp (warpgroup).
    std::optional<tile::TileLayout> t =
        tile::parseTileLayout(atomLayout.empty() ? "(1,1,1)" : atomLayout, permutation, error);
    if (!t) {
        err << "lanemap-cli: " << error << '\n';
        failed = true;
    }
    return t;
}

// `selection` with the flags' parameters, checked by its family: "" or what is wrong and what is valid.
std::string withFlags(Selection& selection, const ViewFlags& flags) {
    const Params& f = flags.params;
    Params& p = selection.params;
    p.selector = f.selector;
    if (f.smem) // --swizzle; a spec's own swizzle= (a TMA box) stands otherwise
        p.smem = f.smem;
    p.target = f.target;
    p.halfSplit = f.halfSplit;
    p.tile = f.tile;
    if (f.access) {
        p.access = f.access;
        p.tensorOperand = f.tensorOperand;
    }
    if (std::string why = applyTcgen05Scale(selection, flags.scale); !why.empty())
        return why;
    if (Catalog::instance().instruction(*selection.variant).hasSpace(Space::TensorMemory) &&
        p.namesTensorMemoryView())
        if (std::string why = refusedByTensorMemory(flags.notForTensorMemory, flags.exporting); !why.empty())
            return why;
    const std::string why = validate(selection);
    return flags.halfSplit ? asTyped(why, *flags.halfSplit) : why;
}

// The selection SPEC names, with the flags: the one road of show and export. nullopt after a message.
std::optional<Selection> select(const std::string& text, const ViewFlags& flags, std::ostream& err) {
    const ParsedSpec parsed = parseSpec(text, Catalog::instance());
    if (!parsed) {
        err << "lanemap-cli: " << parsed.error << '\n';
        return std::nullopt;
    }
    Selection selection = selectionOf(parsed);
    if (const std::string why = withFlags(selection, flags); !why.empty()) {
        err << "lanemap-cli: " << why << '\n';
        if (!flags.params.target.empty()) // a report that was refused may be the one asked for
            for (const std::string& refused : wmma::refusedDiscoveryReports())
                err << "lanemap-cli: ignored discovery report " << refused << '\n';
        return std::nullopt;
    }
    return selection;
}

int cmdList(const std::string& family, const std::optional<std::string>& smText, std::ostream& out,
            std::ostream& err) {
    int sm = 0; // 0: every SM
    if (smText) {
        const std::optional<Number> n = readNumber("--sm", *smText, err);
        if (!n)
            return Usage;
        if (n->value < 1 || n->value > 999) {
            err << "lanemap-cli: --sm " << (n->typed.empty() ? std::to_string(n->value) : n->typed)
                << " is out of range: valid 1 to 999 (an SM number such as 80, 90 or 100)\n";
            return Usage;
        }
        sm = n->value;
    }
    if (!family.empty() && !familyNamed(family)) {
        err << "lanemap-cli: unknown family '" << excerpt(family) << "'; valid families: " << familyNames()
            << '\n';
        return Usage;
    }
    // One buffer written once: 800 lines through the stream's formatting cost more than the names themselves.
    std::string lines;
    if (family != "wmma") {
        // The names written at build time (catalog_names.hpp): no family registers.
        for (const ListedVariant& v : listedVariants())
            if ((family.empty() || listedFamily(v) == family) && (sm <= 0 || v.minSm <= sm)) {
                lines += listedSpec(v);
                lines += "\tsm_";
                lines += std::to_string(v.minSm);
                lines += '\n';
            }
        out.write(lines.data(), static_cast<std::streamsize>(lines.size()));
        return Ok;
    }
    for (const Variant* v : Catalog::instance().variants()) {
        if (!family.empty() && v->family->name != family)
            continue;
        if (sm > 0 && v->minSm > sm)
            continue;
        lines += v->spec;
        lines += "\tsm_";
        lines += std::to_string(v->minSm);
        if (family == "wmma") {
            // wmma layouts belong to a SASS target: the targets with a report (built in or contributed). Only
            // when asked for: reading the reports costs a plain `list` (shell completion) three times its
            // time.
            std::string targets;
            for (const std::string& t : wmma::targetsOf(*v))
                targets += (targets.empty() ? "" : ",") + t;
            lines += "\tdiscovered ";
            lines += targets.empty() ? "nowhere" : targets;
        }
        lines += '\n';
    }
    out.write(lines.data(), static_cast<std::streamsize>(lines.size()));
    if (family == "wmma")
        for (const std::string& refused : wmma::refusedDiscoveryReports())
            err << "lanemap-cli: ignored discovery report " << refused << '\n';
    return Ok;
}

int cmdShow(const std::string& spec, const ExportOptions& options, const ViewFlags& flags, std::ostream& out,
            std::ostream& err) {
    const std::optional<Selection> selection = select(spec, flags, err);
    if (!selection)
        return Usage;
    std::string doc, error;
    if (!exportInstruction(*instantiate(*selection), ExportFormat::Text, options, doc, error)) {
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    out << doc;
    return Ok;
}

int cmdExport(const std::string& spec, bool all, const std::string& formatName, const ExportOptions& options,
              const ViewFlags& flags, bool gzip, const std::string& path, std::ostream& out,
              std::ostream& err) {
    if (all == !spec.empty()) {
        err << "lanemap-cli: export needs exactly one of SPEC or --all\n";
        return Usage;
    }
    if (all && flags.params.halfSplit) {
        err << "lanemap-cli: --imm-half-splitoff applies to one tcgen05 .16x32bx2 spec, not --all\n";
        return Usage;
    }
    if (all && flags.scale.given()) {
        err << "lanemap-cli: --scale-vec, --sfa-id and --sfb-id apply to one block-scaled tcgen05.mma spec, "
               "not --all\n";
        return Usage;
    }
    const std::optional<ExportFormat> format = parseExportFormat(formatName);
    if (!format) {
        err << "lanemap-cli: unknown format '" << excerpt(formatName)
            << "'; valid formats: " << exportFormatList() << '\n';
        return Usage;
    }
    if (path.empty()) {
        err << "lanemap-cli: export needs -o PATH (a file for one spec, a folder for --all, '-' for "
               "stdout)\n";
        return Usage;
    }
    const Catalog& catalog = Catalog::instance();
    std::vector<Selection> selections;
    std::vector<const Variant*> variants;
    if (all) {
        variants = catalog.variants();
        for (const Variant* v : variants)
            selections.push_back(Selection{v, {}});
    } else if (const std::optional<Selection> one = select(spec, flags, err)) {
        selections.push_back(*one);
        variants.push_back(one->variant);
    } else {
        return Usage;
    }

    if (all) {
        if (path == "-") {
            err << "lanemap-cli: --all writes one file per spec; give a folder with -o\n";
            return Usage;
        }
        std::error_code ec;
        fs::create_directories(path, ec);
        if (ec || !fs::is_directory(path)) {
            err << "lanemap-cli: cannot create folder '" << excerpt(path, 200)
                << "': " << (ec ? ec.message() : std::string("a file of that name exists")) << '\n';
            return Usage;
        }
    }
    std::size_t written = 0, skipped = 0;
    std::string firstSkip;
    for (Selection& selection : selections) {
        const Variant* v = selection.variant;
        std::string doc, error;
        // Every variant of --all with the flags' parameters where they fit it; the others are skipped.
        if (all)
            error = withFlags(selection, flags);
        if (error.empty())
            exportInstruction(*instantiate(selection), *format, options, doc, error);
        if (!error.empty()) {
            if (!all) {
                err << "lanemap-cli: " << error << '\n';
                return Usage;
            }
            // An option (--operand metadata, --lanes 64-127) that fits only some variants: skip them, and say
            // so.
            if (!skipped++)
                firstSkip = v->spec + ": " + error;
            continue;
        }
        if (gzip)
            doc = gzipBytes(doc);
        if (path == "-") {
            out << doc;
            continue;
        }
        if (!all) // one spec: to the file, or into the folder, that -o names
            return writeExport(path, v->spec, fileExtension(*format), gzip, doc, out, err);
        if (const std::string failure =
                writeFile(exportTarget(path, v->spec, fileExtension(*format), gzip), doc);
            !failure.empty()) {
            err << "lanemap-cli: " << failure << '\n';
            return Usage;
        }
        ++written;
    }
    // The static site: --all --format html adds the index page linking every page (lanemap/site.hpp).
    if (all && *format == ExportFormat::Html) {
        if (const std::string failure =
                writeFile((fs::path(path) / (gzip ? "index.html.gz" : "index.html")).string(),
                          gzip ? gzipBytes(htmlIndex(variants)) : htmlIndex(variants));
            !failure.empty()) {
            err << "lanemap-cli: " << failure << '\n';
            return Usage;
        }
        ++written;
    }
    if (skipped) {
        err << "lanemap-cli: skipped " << skipped << " of " << variants.size()
            << " variants the options do not fit (first: " << firstSkip << ")\n";
        if (!written) {
            err << "lanemap-cli: nothing written: the options fit no variant\n";
            return Usage;
        }
    }
    if (path != "-")
        out << "wrote " << written << " file" << (written == 1 ? "" : "s") << " to " << excerpt(path, 200)
            << '\n';
    return Ok;
}

std::shared_ptr<const Instruction>
queryInstance(const std::string& text, const std::optional<tile::TileLayout>& tile, std::ostream& err);

// probe SPEC --atom-layout ... --permutation ...: a tile run by the tiled-mma or tiled-wgmma method
// (docs/tiles.md#proof).
int cmdProbeTile(const std::string& spec, const tile::TileLayout& tileLayout, gpu::TileLoad load,
                 const gpu::TileStaging& staging, const std::optional<std::string>& jsonOption,
                 std::ostream& out, std::ostream& err) {
    const std::shared_ptr<const Instruction> tile = queryInstance(spec, tileLayout, err);
    if (!tile)
        return Usage;
    const std::string jsonPath = jsonOption.value_or("");
    if (jsonOption)
        if (const std::string failure = checkWritable(jsonPath); !failure.empty()) {
            err << "lanemap-cli: --json: " << failure << '\n';
            return Usage;
        }
    const gpu::Availability availability = gpu::discover();
    // A tile over a cluster's CTAs needs a Blackwell GPU whatever is here; with a GPU the probe says which
    // (and writes the report), without one this does.
    if (!availability.available && tile::overCtas(*tile)) {
        err << "lanemap-cli: " << tile::nameOf(*tile) << ": " << gpu::clusterTileRefusal(*tile, nullptr)
            << " (" << availability.reason << ")\n";
        return GpuUnavailable;
    }
    if (!availability.available) {
        err << "lanemap-cli: GPU unavailable: " << availability.reason << '\n';
        return GpuUnavailable;
    }
    out << "probing " << tile::nameOf(*tile)
        << (load == gpu::TileLoad::Ldmatrix     ? " (A and B loaded by ldmatrix from shared memory)"
            : load == gpu::TileLoad::SharedLoad ? " (A and B loaded by ld.shared from shared memory)"
                                                : "")
        << " on " << availability.device.name << " (sm_" << availability.device.sm << ")\n";
    // dated, with the device and lanemap's version
    const ProbeReport report = gpu::probeTile(*tile, load, staging);
    const ProbeResult& r = report.results.front();
    out << r.verdict << '\t' << r.spec << '\t' << r.cellsChecked << " cells";
    if (r.cellsMismatched)
        out << ", " << r.cellsMismatched << " mismatched";
    if (!r.reason.empty())
        out << " (" << r.reason << ")";
    out << '\n';
    for (std::size_t i = 0; i < r.mismatches.size() && i < 20; ++i) {
        const ProbeMismatch& m = r.mismatches[i];
        out << "  " << m.operand << " (" << m.row << "," << m.col << ") T" << m.thread << ":" << m.index
            << ' ' << m.experiment << ": expected " << m.expected << ", observed " << m.observed << '\n';
    }
    for (const std::string& f : r.findings)
        out << "  finding: " << f << '\n';
    if (jsonOption) {
        if (const std::string failure = writeFile(jsonPath, toJson(report)); !failure.empty()) {
            err << "lanemap-cli: " << failure << '\n';
            return Usage;
        }
        out << "report written to " << excerpt(jsonPath, 200) << '\n';
    }
    return r.verdict == Verdict::Fail ? Mismatch : r.verdict == Verdict::Pass ? Ok : GpuUnavailable;
}

int cmdProbe(const std::string& spec, bool all, const std::string& family,
             const std::optional<std::string>& jsonOption, bool timing, std::ostream& out,
             std::ostream& err) {
    ProbeStopwatch stopwatch;
    if (all == !spec.empty()) {
        err << "lanemap-cli: probe needs exactly one of SPEC or --all\n";
        return Usage;
    }
    // The catalog's families, and tcgen05 for its three.
    std::vector<std::string> names{"tcgen05"};
    for (const Family* f : families())
        names.emplace_back(f->name);
    // --family takes one family or a comma-separated list (ldmatrix,stmatrix,movmatrix).
    std::vector<std::string> chosen;
    for (std::size_t start = 0; !family.empty() && start <= family.size();) {
        const std::size_t comma = std::min(family.find(',', start), family.size());
        chosen.push_back(family.substr(start, comma - start));
        start = comma + 1;
    }
    for (const std::string& f : chosen)
        if (!all || std::find(names.begin(), names.end(), f) == names.end()) {
            err << "lanemap-cli: --family goes with --all and is one of: " << familyNames()
                << ", or tcgen05 for its three (or a comma-separated list of them)\n";
            return Usage;
        }
    std::vector<const Variant*> variants;
    if (all) {
        // wmma has no documented layout to confirm: its method rediscovers it and compares with the recorded
        // report of the device's target, so it runs when named (--family wmma), not as part of every --all.
        for (const Variant* v : Catalog::instance().variants())
            if (chosen.empty()
                    ? !v->family->discovered
                    : std::find(chosen.begin(), chosen.end(), std::string(v->family->name)) != chosen.end() ||
                          (v->family->name.starts_with("tcgen05.") &&
                           std::find(chosen.begin(), chosen.end(), "tcgen05") != chosen.end()))
                variants.push_back(v);
    } else if (const Variant* one = resolve(spec, err)) {
        variants.push_back(one);
    } else {
        return Usage;
    }

    // A bad --json path must not cost a whole run: check it first (an empty name too: it skipped the check).
    const std::string jsonPath = jsonOption.value_or("");
    if (jsonOption) {
        if (const std::string failure = checkWritable(jsonPath); !failure.empty()) {
            err << "lanemap-cli: --json: " << failure << '\n';
            return Usage;
        }
    }
    const gpu::Availability availability = gpu::discover();
    stopwatch.discovered();
    if (!availability.available) {
        err << "lanemap-cli: GPU unavailable: " << availability.reason << '\n';
        return GpuUnavailable;
    }
    out << "probing " << variants.size() << " variant" << (variants.size() == 1 ? "" : "s") << " on "
        << availability.device.name << " (sm_" << availability.device.sm << ", driver "
        << availability.device.driver << ", CUDA " << availability.device.cudaRuntime << ")\n";
    const ProbeReport report = gpu::probeAll(variants);
    stopwatch.probed();
    int pass = 0, fail = 0, unsupported = 0;
    constexpr std::size_t kShown = 20; // per variant; the JSON report has every mismatch
    for (const ProbeResult& r : report.results) {
        out << r.verdict << '\t' << r.spec << '\t' << r.cellsChecked << " cells";
        if (r.cellsMismatched)
            out << ", " << r.cellsMismatched << " mismatched";
        if (r.verdict != Verdict::Unsupported)
            out << ", " << r.experiments << " experiments, " << r.seconds << " s";
        if (!r.reason.empty())
            out << " (" << r.reason << ")";
        out << '\n';
        for (std::size_t i = 0; i < r.mismatches.size() && i < kShown; ++i) {
            const ProbeMismatch& m = r.mismatches[i];
            out << "  " << m.operand << " (" << m.row << "," << m.col << ")";
            if (m.thread >= 0)
                out << " T" << m.thread << (m.index >= 0 ? ":" + std::to_string(m.index) : "");
            out << ' ' << m.experiment << ": expected " << m.expected << ", observed " << m.observed << '\n';
        }
        if (r.mismatches.size() > kShown)
            out << "  ... " << r.mismatches.size() - kShown
                << " more mismatches (--json PATH writes them all)\n";
        for (const std::string& f : r.findings)
            out << "  finding: " << f << '\n';
        pass += r.verdict == Verdict::Pass;
        fail += r.verdict == Verdict::Fail;
        unsupported += r.verdict == Verdict::Unsupported;
    }
    out << pass << " passed, " << fail << " failed, " << unsupported << " unsupported\n";
    if (jsonOption) {
        const std::string json = toJson(report);
        if (const std::string failure = writeFile(jsonPath, json); !failure.empty()) {
            // The run is done: keep its report somewhere rather than lose it.
            err << "lanemap-cli: " << failure << '\n';
            const std::string rescue =
                (fs::temp_directory_path() / ("lanemap-probe-report-" + std::to_string(::getpid()) + ".json"))
                    .string();
            if (writeFile(rescue, json).empty())
                err << "lanemap-cli: the report was saved to " << excerpt(rescue, 200) << " instead\n";
            else
                err << "lanemap-cli: the report follows on standard error\n" << json;
            return Usage;
        }
        out << "report written to " << excerpt(jsonPath, 200) << '\n';
    }
    if (timing)
        stopwatch.print(out);
    return fail ? Mismatch : Ok;
}

// --- queries (docs/reference/queries.md) ---------------------------------------------------------------

const Instruction* resolveInstruction(const std::string& text, std::ostream& err) {
    const Variant* v = resolve(text, err);
    return v ? &Catalog::instance().instruction(*v) : nullptr;
}

// The instruction a query asks about: the catalog's, or a tile of it (--atom-layout, --permutation). nullptr
// after a message.
std::shared_ptr<const Instruction>
queryInstance(const std::string& text, const std::optional<tile::TileLayout>& tile, std::ostream& err) {
    if (!tile) {
        // A spec that names parameters (a tcgen05.mma's N: ...m128n64) is that instance, not the catalog's.
        if (const ParsedSpec named = parseSpec(text, Catalog::instance()); named) {
            const Selection selection = selectionOf(named);
            if (selection.params != Params{} && validate(selection).empty())
                return instantiate(selection);
        }
        const Instruction* in = resolveInstruction(text, err);
        return in ? std::shared_ptr<const Instruction>(std::shared_ptr<void>(), in) : nullptr;
    }
    const ParsedSpec parsed = parseSpec(text, Catalog::instance());
    if (!parsed) {
        err << "lanemap-cli: " << parsed.error << '\n';
        return nullptr;
    }
    Selection selection = selectionOf(parsed);
    selection.params.tile = tile;
    if (const std::string why = validate(selection); !why.empty()) {
        err << "lanemap-cli: " << why << '\n';
        return nullptr;
    }
    return instantiate(selection);
}

// An operand argument: one operand, or with `merged` also C/D (the accumulator view --operand draws). PTX
// names the metadata operand `e`.
std::optional<OperandSet> operandSetArgument(const std::string& text, bool merged, std::ostream& err) {
    std::string lowered = text;
    for (char& c : lowered)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered == "e" || lowered == "m" || lowered == "meta")
        lowered = toString(Operand::Metadata);
    std::optional<OperandSet> operands = parseOperandSet(lowered);
    if (operands && !merged && !operands->single())
        operands.reset();
    if (!operands)
        err << "lanemap-cli: unknown operand '" << excerpt(text) << "'; valid operands: A, B, C, D, "
            << (merged ? toString(kAccumulator) + ", " : std::string()) << "metadata\n";
    return operands;
}

// One operand (the queries).
std::optional<Operand> operandArgument(const std::string& text, std::ostream& err) {
    const std::optional<OperandSet> operands = operandSetArgument(text, false, err);
    return operands ? operands->single() : std::nullopt;
}

// `numbers`: the command's number arguments, whose range errors quote them as typed.
template <typename Answer>
int answer(const Instruction& in, const std::optional<Answer>& a, std::string error, bool json,
           std::ostream& out, std::ostream& err, std::initializer_list<const Number*> numbers = {}) {
    if (!a) {
        for (const Number* n : numbers)
            error = asTyped(std::move(error), *n);
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    out << (json ? query::toJson(in, *a) : query::toText(in, *a));
    return Ok;
}

int cmdWhere(const std::string& spec, const std::string& operandName, const Number& row, const Number& col,
             const std::optional<tile::TileLayout>& tile, bool json, std::ostream& out, std::ostream& err) {
    const std::shared_ptr<const Instruction> in = queryInstance(spec, tile, err);
    if (!in)
        return Usage;
    const std::optional<Operand> operand = operandArgument(operandName, err);
    if (!operand)
        return Usage;
    std::string error;
    const auto a = query::where(*in, *operand, row.value, col.value, error);
    return answer(*in, a, error, json, out, err, {&row, &col});
}

int cmdWhat(const std::string& spec, const Number& lane, const std::optional<Number>& reg,
            const std::optional<tile::TileLayout>& tile, bool json, std::ostream& out, std::ostream& err) {
    const std::shared_ptr<const Instruction> in = queryInstance(spec, tile, err);
    if (!in)
        return Usage;
    std::string error;
    const std::optional<int> regValue = reg ? std::optional<int>(reg->value) : std::nullopt;
    const auto a = query::what(*in, lane.value, regValue, error);
    return answer(*in, a, error, json, out, err, {&lane, reg ? &*reg : &lane});
}

// what SPEC --cta C: what one CTA of a tcgen05.mma's group holds (docs/reference/queries.md).
int cmdWhatCta(const std::string& spec, const Number& cta, const std::optional<tile::TileLayout>& tile,
               bool json, std::ostream& out, std::ostream& err) {
    const std::shared_ptr<const Instruction> in = queryInstance(spec, tile, err);
    if (!in)
        return Usage;
    std::string error;
    const auto a = query::whatCta(*in, cta.value, error);
    return answer(*in, a, error, json, out, err, {&cta});
}

int cmdFeeds(const std::string& spec, const Number& row, const Number& col,
             const std::optional<Number>& selector, bool json, std::ostream& out, std::ostream& err) {
    const Instruction* in = resolveInstruction(spec, err);
    if (!in)
        return Usage;
    std::string error;
    const std::optional<int> selectorValue = selector ? std::optional<int>(selector->value) : std::nullopt;
    const auto a = query::feeds(*in, row.value, col.value, selectorValue, error);
    return answer(*in, a, error, json, out, err, {&row, &col, selector ? &*selector : &row});
}

int cmdDiff(const std::string& spec1, const std::string& spec2, const std::string& operandName, bool json,
            std::ostream& out, std::ostream& err) {
    const Instruction* first = resolveInstruction(spec1, err);
    if (!first)
        return Usage;
    const Instruction* second = resolveInstruction(spec2, err);
    if (!second)
        return Usage;
    std::optional<Operand> operand;
    if (!operandName.empty() && !(operand = operandArgument(operandName, err)))
        return Usage;
    std::string error;
    const std::optional<query::DiffAnswer> a = query::diff(*first, *second, operand, error);
    if (!a) {
        err << "lanemap-cli: " << error << '\n';
        return Usage;
    }
    out << (json ? query::toJson(*a) : query::toText(*a));
    return Ok;
}

// discover --validate PATH: a report someone contributes, checked before it goes into resources/discovery/.
int cmdValidateDiscovery(const std::string& path, std::ostream& out, std::ostream& err) {
    wmma::DiscoveryReport report;
    std::string error;
    if (!wmma::loadDiscoveryReportFile(path, report, error)) {
        err << "lanemap-cli: " << excerpt(path, 200) << " is not a valid discovery report: " << error << '\n';
        return Usage;
    }
    out << excerpt(path, 200) << ": valid discovery report of " << report.device.name << ", SASS "
        << report.sassTarget << ", " << report.date << ": " << report.fragments.size() << " fragments, "
        << report.checks.size() << " checks, " << report.failures.size() << " failures\n";
    return Ok;
}

// The placements and checks of two reports (date, device and version aside): empty when they agree.
std::string differences(const wmma::DiscoveryReport& a, const wmma::DiscoveryReport& b) {
    std::string diff;
    auto add = [&diff](const std::string& line) { diff += "  " + line + "\n"; };
    for (const wmma::DiscoveredFragment& f : a.fragments) {
        const wmma::DiscoveredFragment* g = b.fragment(f.form);
        if (!g)
            add(f.form.key() + ": only in this run");
        else
            for (std::size_t i = 0; i < f.cells.size(); ++i)
                if (f.cells[i].row != g->cells[i].row || f.cells[i].col != g->cells[i].col) {
                    const int per = f.numElements();
                    add(f.form.key() + ": lane " + std::to_string(static_cast<int>(i) / per) + " x[" +
                        std::to_string(static_cast<int>(i) % per) + "] differs");
                    break;
                }
    }
    for (const wmma::DiscoveredFragment& g : b.fragments)
        if (!a.fragment(g.form))
            add(g.form.key() + ": only in the recorded report");
    for (const wmma::DiscoveryCheck& c : a.checks) {
        const wmma::DiscoveryCheck* d = b.check(c.spec);
        if (!d || d->store != c.store || d->mma != c.mma)
            add(c.spec + ": checks differ");
    }
    if (a.sassTarget != b.sassTarget)
        add("SASS target " + a.sassTarget + " vs " + b.sassTarget);
    return diff;
}

int cmdDiscover(const std::string& spec, const std::string& family,
                const std::optional<std::string>& jsonOption, const std::string& expectPath,
                std::ostream& out, std::ostream& err) {
    const std::string jsonPath = jsonOption.value_or("");
    if (spec.empty() == family.empty()) {
        err << "lanemap-cli: discover needs exactly one of SPEC (a wmma spec) or --family wmma\n";
        return Usage;
    }
    if (!family.empty() && family != "wmma") {
        err << "lanemap-cli: discover --family takes wmma (the only family whose layout no document "
               "states)\n";
        return Usage;
    }
    std::vector<wmma::FragmentForm> forms;
    std::vector<const Variant*> variants;
    if (!spec.empty()) {
        const Variant* v = resolve(spec, err);
        if (!v)
            return Usage;
        if (!v->family->discovered) {
            err << "lanemap-cli: discover runs wmma only; " << v->spec
                << " has a documented layout (lanemap-cli probe confirms it)\n";
            return Usage;
        }
        forms = gpu::discoveryForms(*v);
        variants.push_back(v);
    } else {
        forms = wmma::fragmentForms();
        for (const Variant* v : Catalog::instance().variants())
            if (v->family->discovered)
                variants.push_back(v);
    }
    wmma::DiscoveryReport expected;
    if (!expectPath.empty()) {
        std::string error;
        if (!wmma::loadDiscoveryReportFile(expectPath, expected, error)) {
            err << "lanemap-cli: --expect " << excerpt(expectPath, 200)
                << " is not a valid discovery report: " << error << '\n';
            return Usage;
        }
    }
    if (jsonOption) // an empty name too: it skipped the check
        if (const std::string failure = checkWritable(jsonPath); !failure.empty()) {
            err << "lanemap-cli: --json: " << failure << '\n';
            return Usage;
        }
    // Discovery is a method of the probe pipeline: the same device and driver loop as lanemap-cli probe.
    if (const gpu::Availability a = gpu::discover(); !a.available) {
        err << "lanemap-cli: GPU unavailable: " << a.reason << '\n';
        return GpuUnavailable;
    }
    const wmma::DiscoveryReport report = gpu::discoverOn(gpu::localDevice(), forms, variants);
    const DeviceInfo& info = report.device;
    out << "discovering " << forms.size() << " wmma fragment" << (forms.size() == 1 ? "" : "s")
        << " and checking " << variants.size() << " variant" << (variants.size() == 1 ? "" : "s") << " on "
        << info.name << " (sm_" << info.sm << ", SASS " << report.sassTarget << ", driver " << info.driver
        << ", CUDA " << info.cudaRuntime << ")\n";
    for (const std::string& line : gpu::discoveryLines(report, forms))
        out << line << '\n';
    int failedChecks = 0;
    for (const wmma::DiscoveryCheck& c : report.checks)
        failedChecks += c.store == Verdict::Fail || c.mma == Verdict::Fail;
    out << report.fragments.size() << " fragments discovered, " << report.failures.size() << " failed; "
        << report.checks.size() - static_cast<std::size_t>(failedChecks) << " of " << report.checks.size()
        << " variants without a failed check\n";
    int code = report.failures.empty() && !failedChecks ? Ok : Mismatch;
    if (!expectPath.empty()) {
        const std::string diff = differences(report, expected);
        if (diff.empty()) {
            out << "reproduces " << excerpt(expectPath, 200) << " exactly: the same placements of all "
                << report.fragments.size() << " fragments and the same check verdicts\n";
        } else {
            out << "differs from " << excerpt(expectPath, 200) << ":\n" << diff;
            code = Mismatch;
        }
    }
    if (jsonOption) {
        if (const std::string failure = writeFile(jsonPath, wmma::toJson(report)); !failure.empty()) {
            err << "lanemap-cli: " << failure << '\n';
            return Usage;
        }
        out << "report written to " << excerpt(jsonPath, 200) << '\n';
    }
    return code;
}

// An option typed on the command line of `command` (show and export add an option only when it is typed).
bool given(const CLI::App* command, const std::string& name) {
    const CLI::Option* option = command->get_option_no_throw(name);
    return command->parsed() && option && option->count() > 0;
}

bool selectorGiven(const CLI::App* command) {
    return given(command, "--selector");
}

// The number `text` of option `name`, when `command` has it typed; nullopt when not typed. False after a
// message when it is not a whole number.
bool optionalNumber(const CLI::App* command, const std::string& name, const std::string& text,
                    std::optional<Number>& number, std::ostream& err) {
    number.reset();
    if (!given(command, name))
        return true;
    number = readNumber(name, text, err);
    return number.has_value();
}

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const int code = dispatch(args, out, err);
    // Output that never arrived (full disk, closed pipe, closed stdout) is a failure, not a success.
    out.flush();
    if (!out) {
        err << "lanemap-cli: the output could not be written (standard output closed, full or broken)\n";
        return code == Ok ? Usage : code;
    }
    return code;
}

namespace {

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CLI::App app{
        "lanemap-cli — PTX tensor-core fragment layouts: list, show, export, probe, discover, banks, "
        "where, what, feeds, diff, decode, identify, check, conform"};
    app.require_subcommand(1);
    // CLI11 gives every subcommand a copy of the app's help flag when it is added: only a named subcommand
    // can be parsed, so only it gets one (eleven help flags cost a one-shot command about as much as its own
    // options). The app's own -h,--help and --version are set again after the subcommands, in that order.
    const std::string helpNames = app.get_help_ptr()->get_name(false, true);
    const std::string helpText = app.get_help_ptr()->get_description();
    app.set_help_flag();
    const auto isShort = [](const std::string& a, char name) {
        return a.size() > 1 && a[0] == '-' && a[1] == name;
    };
    const bool helpAsked = std::any_of(
        args.begin(), args.end(), [&](const std::string& a) { return a == "--help" || isShort(a, 'h'); });
    // A subcommand the command line does not name cannot be parsed and no error lists the subcommands: it is
    // added only when help is asked for (the program's help lists them all); the others answer `parsed()`
    // with false from one unlisted stand-in (CLI11 builds each subcommand's option defaults, formatter and
    // name tables, ~5 k instructions apiece).
    struct Unlisted final : CLI::App {
        Unlisted() : CLI::App("", "", nullptr) {} // no help flag of its own
    } unlisted;
    const auto withHelpIf = [&](bool isNamed, auto add) -> CLI::App* {
        if (!isNamed && !helpAsked)
            return &unlisted;
        if (isNamed)
            app.set_help_flag(helpNames, helpText);
        CLI::App* const added = add();
        if (isNamed)
            app.set_help_flag();
        return added;
    };
    const auto subcommand = [&](const std::string& name, const std::string& description) {
        return withHelpIf(std::find(args.begin(), args.end(), name) != args.end(),
                          [&] { return app.add_subcommand(name, description); });
    };

    // Only a subcommand named on the command line gets its options: adding them is most of what CLI11 costs a
    // one-shot command, and a subcommand that is not named cannot be parsed.
    const auto named = [&](const CLI::App* command) {
        return command != &unlisted && std::find(args.begin(), args.end(), command->get_name()) != args.end();
    };

    // Number options are read as text (cli_numbers.hpp): CLI11 read '' as 0 and refused 2147483648 naming no
    // range.
    std::string family;
    std::optional<std::string> smText;
    auto* list = subcommand("list", "List every instruction variant (one spec per line, with min SM)");
    if (named(list)) {
        list->add_option("--family", family, "Only this family: " + familyNames());
        list->add_option("--sm", smText, "Only variants that run on this SM (e.g. 90)")->type_name("INT");
    }

    // show and export add only the options their command line names: CLI11 splits every option's names and
    // checks them against every other option's, about 10 k instructions apiece. An option that is not typed
    // cannot be parsed and no error lists the options; --help and -h (alone or leading a cluster) add them
    // all. A long name is typed as itself or NAME=VALUE, a short one as -X, -XVALUE.
    const bool everyOption = helpAsked;
    const auto typed = [&](std::string_view names) {
        for (std::size_t start = 0; !everyOption && start < names.size();) {
            const std::size_t comma = std::min(names.find(',', start), names.size());
            const std::string_view name = names.substr(start, comma - start);
            start = comma + 1;
            for (const std::string& a : args)
                if (name.substr(0, 2) == "--" ? a.substr(0, name.size()) == name &&
                                                    (a.size() == name.size() || a[name.size()] == '=')
                                              : name.size() == 2 && isShort(a, name[1]))
                    return true;
        }
        return everyOption;
    };
    const auto option = [&](CLI::App* command, const std::string& names, auto& value,
                            const std::string& description) {
        if (typed(names))
            command->add_option(names, value, description);
    };
    // Numbers are read as text (cli_numbers.hpp) and shown as INT in the help, as before.
    const auto numberOption = [&](CLI::App* command, const std::string& names, std::string& value,
                                  const std::string& description) {
        if (typed(names))
            command->add_option(names, value, description)->type_name("INT");
    };
    const auto flag = [&](CLI::App* command, const std::string& names, bool& value,
                          const std::string& description) {
        if (typed(names))
            command->add_flag(names, value, description);
    };

    std::string spec;
    std::string operand;
    std::string selectorText;
    std::string major, swizzle;
    std::string placementText;        // --smem: ldmatrix / stmatrix placement (cli_banks.cpp)
    std::string ld, st;               // tcgen05.mma composed with a Tensor Memory access (cli_tcgen05.cpp)
    std::string halfSplitoffText;     // tcgen05 .16x32bx2: an explicit immHalfSplitoff (cli_tcgen05.cpp)
    Tcgen05Scale tcgen05Scale;        // tcgen05.mma block scale: --scale-vec, --sfa-id, --sfb-id
    std::string sfaIdText, sfbIdText; // read into tcgen05Scale
    std::string target;
    LayoutRequest layoutRequest;                 // show LAYOUT, identify, check (cli_layout.cpp)
    std::string atomLayoutText, permutationText; // a tile of the atom (docs/tiles.md)
    auto* show = subcommand(
        "show", "Print a text grid of one instruction (cells T<lane>:a<i>; tcgen05.mma: L<lane> C<column>)");
    if (named(show)) {
        show->add_option("spec", spec, "Spec or PTX instruction, e.g. mma.m16n8k16.f16")->required();
        option(show, "--operand", operand, "Only this operand: A, B, C, D or metadata");
        numberOption(show, "--selector", selectorText, "Sparse metadata: only this sparsity selector");
        option(show, "--major", major,
               "wgmma shared memory: K or MN (with --operand A: A's shared-memory view)");
        option(show, "--swizzle", swizzle, "wgmma shared memory: none, 32B, 64B or 128B (default 128B)");
        option(show, "--smem", placementText,
               "ldmatrix/stmatrix: a shared-memory placement; adds its per-phase bank table "
               "(docs/reference/ldmatrix.md)");
        option(show, "--target", target,
               "wmma: the SASS target whose discovered layout to show (e.g. sm_90)");
        option(show, "--ld", ld,
               "tcgen05.mma: who holds D[m][n] after this tcgen05.ld, e.g. 16x256b.x8 "
               "(docs/reference/tcgen05.md)");
        option(show, "--st", st, "tcgen05.mma: who must hold A[m][k] for this tcgen05.st, e.g. 32x32b.x8");
        numberOption(show, "--imm-half-splitoff", halfSplitoffText, kHalfSplitoffHelp);
        option(show, "--scale-vec", tcgen05Scale.vec, kScaleVecHelp);
        numberOption(show, "--sfa-id", sfaIdText, kSfaIdHelp);
        numberOption(show, "--sfb-id", sfbIdText, kSfbIdHelp);
        option(show, "--shape", layoutRequest.shape,
               "A pasted layout (docs/layouts-in.md): its tensor, DIM0xDIM1 (CuTe: A MxK, B NxK, C MxN)");
        option(
            show, "--element-bits", layoutRequest.elementBits,
            "A pasted shared-memory layout without its element size (#ttg.swizzled_shared): 8, 16, 32 or 64");
        option(show, "--format", layoutRequest.format, "A pasted layout: txt (default), svg or json");
        option(show, "-o,--output", layoutRequest.output, "A pasted layout: write to this file");
        option(show, "--atom-layout", atomLayoutText, kAtomLayoutHelp);
        option(show, "--permutation", permutationText, kPermutationHelp);
        show->allow_extras(); // a family grammar's words after the spec, read with it below
    }

    std::string conformPath;
    auto* identifyCommand = subcommand(
        "identify", "Name every catalog operand a pasted CuTe or Triton layout equals (docs/layouts-in.md)");
    auto* checkCommand = subcommand(
        "check", "Compare a pasted CuTe or Triton layout with one operand: exit 0 equal, 1 differ");
    for (CLI::App* command : {identifyCommand, checkCommand})
        if (named(command)) {
            command
                ->add_option("layout", layoutRequest.text,
                             "The layout: CuTe ((4,8),(2,2)):((32,1),(16,8)) or Layout<...>, Triton "
                             "#ttg.linear<{...}> or lanemap's triton JSON, or @FILE")
                ->required();
            command->add_option("--shape", layoutRequest.shape,
                                "Its tensor, DIM0xDIM1 (CuTe: A MxK, B NxK, C MxN; Triton: [dim0, dim1])");
            command->add_option("--operand", layoutRequest.operand,
                                "Which operand of a triton JSON document; CuTe's axis names");
            command->add_option(
                "--element-bits", layoutRequest.elementBits,
                "A shared-memory layout without its element size (#ttg.swizzled_shared): 8, 16, "
                "32 or 64");
            command->allow_extras(); // a Triton attribute typed without quotes: its words, joined
        }
    if (named(checkCommand))
        checkCommand
            ->add_option("--against", layoutRequest.against,
                         "The operand it claims to be, SPEC:OPERAND (e.g. mma.m16n8k16.f16:A)")
            ->required();
    if (named(checkCommand)) {
        option(checkCommand, "--atom-layout", atomLayoutText,
               kAtomLayoutHelp + std::string(": against a tile"));
        option(checkCommand, "--permutation", permutationText, kPermutationHelp);
        checkCommand->add_option("--major", layoutRequest.major,
                                 "A swizzled layout against wgmma's A or B: lanemap's K or MN (default K)");
        checkCommand->add_option("--swizzle", layoutRequest.swizzle,
                                 "A swizzled layout against wgmma's A or B: none, 32B, 64B or 128B (default: "
                                 "the layout's own Sw<B,4,3>)");
    }
    auto* conformCommand = subcommand(
        "conform", "Check a file of layouts, one per line with the instruction each claims (a matrix)");
    if (named(conformCommand))
        conformCommand->add_option("file", conformPath, "Lines 'INSTRUCTION:OPERAND LAYOUT'")->required();

    std::string exportSpec, format = "json", output;
    bool all = false;
    std::string color, palette, lanes;
    bool gzip = false;
    bool compact = false;
    auto* exp = subcommand("export", "Write one spec or --all as json, txt, svg, html (a static "
                                     "site), cuda, cute, triton, csv, md or tex");
    if (named(exp)) {
        exp->add_option("spec", exportSpec, "Spec or PTX instruction");
        flag(exp, "--all", all, "Every variant in the catalog (-o names a folder)");
        option(exp, "--format", format, "Output format: " + exportFormatList());
        option(exp, "--operand", operand, "Only this operand (txt, svg)");
        numberOption(exp, "--selector", selectorText, "Sparse metadata: only this sparsity selector");
        option(exp, "--major", major, "wgmma shared memory: K or MN (default K)");
        option(exp, "--swizzle", swizzle, "wgmma shared memory: none, 32B, 64B or 128B (default 128B)");
        option(exp, "-o,--output", output,
               "Output file, folder (--all; for one spec, SPEC.EXT inside it) or '-' for stdout");
        option(exp, "--smem", placementText,
               "ldmatrix/stmatrix: a shared-memory placement (txt, json: with its banks; svg: its picture)");
        option(exp, "--color", color,
               "svg, html: color cells by lane, register, group (groupID), warp, warpgroup or thread; "
               "default lane");
        option(exp, "--palette", palette, "svg, html: default or colorblind");
        flag(exp, "--gzip", gzip,
             "Write gzip (FILE as given, SPEC.FORMAT.gz per variant with --all; any format)");
        flag(exp, "--compact", compact,
             "json: the compact form, elements as columns (docs/reference/json.md#compact-form)");
        option(exp, "--ld", ld, "tcgen05.mma: compose with this tcgen05.ld (txt, json, svg)");
        option(exp, "--st", st, "tcgen05.mma: compose with this tcgen05.st (txt, json, svg)");
        numberOption(exp, "--imm-half-splitoff", halfSplitoffText, kHalfSplitoffHelp);
        option(exp, "--scale-vec", tcgen05Scale.vec, kScaleVecHelp);
        numberOption(exp, "--sfa-id", sfaIdText, kSfaIdHelp);
        numberOption(exp, "--sfb-id", sfbIdText, kSfbIdHelp);
        option(exp, "--lanes", lanes, "svg: only these lanes/threads in color, e.g. 0-3,13 (others grey)");
        option(exp, "--atom-layout", atomLayoutText, kAtomLayoutHelp);
        option(exp, "--permutation", permutationText, kPermutationHelp);
        exp->allow_extras(); // a family grammar's words after the spec, read with it below
    }

    std::string probeSpec;
    std::optional<std::string> jsonPath; // given empty: refused before the run
    bool probeAllVariants = false;
    bool probeTiming = false;
    std::string probeFamily;
    std::string probeCopy;                // --copy direct|ldmatrix: how a tile's A and B reach the registers
    std::optional<std::string> probeSmem; // --smem: the ld.shared copy's staging (pad, swizzle)
    auto* probe = subcommand("probe", "Run the real instructions on the GPU and compare every cell");
    if (named(probe)) {
        probe->add_option("spec", probeSpec, "Spec or PTX instruction");
        probe->add_flag("--all", probeAllVariants, "Every variant in the catalog");
        probe->add_option("--json", jsonPath,
                          "Write the report (JSON, docs/probe.md) to this file; checked before the run");
        probe->add_flag("--timing", probeTiming,
                        "Print where the run's time went: CUDA start-up, context, plan, device, interpret");
        probe->add_option("--family", probeFamily,
                          "With --all: only this family (" + familyNames() +
                              ", or tcgen05 for its three); or a comma-separated list; wmma runs only when "
                              "named");
        probe->add_option("--atom-layout", atomLayoutText,
                          kAtomLayoutHelp + std::string(" (mma.m16n8k16.f16)"));
        probe->add_option("--permutation", permutationText, kPermutationHelp);
        probe->add_option("--copy", probeCopy,
                          "With --atom-layout: how A and B reach the registers, direct (default), ldmatrix "
                          "or ld.shared (the tiled copies from shared memory, docs/tiles.md#tiled-copy)");
        probe->add_option("--smem", probeSmem,
                          "With --copy ld.shared: how A (row-major) and B (col-major), K-major both, are "
                          "staged: pad=BYTES, swizzle=B,M,S or mode=32B|64B|128B, as banks --smem writes "
                          "them (e.g. swizzle=3,3,3)");
    }

    BanksRequest banksRequest;
    auto* banksCommand = subcommand(
        "banks", "Shared-memory banks of one ldmatrix/stmatrix placement: per-phase table, search, --feeds");
    if (named(banksCommand)) {
        banksCommand
            ->add_option("spec", banksRequest.spec,
                         "ldmatrix or stmatrix spec or PTX string; with --feeds and --atom-layout also "
                         "ld.shared.b32, ld.shared.v2.b32 or ld.shared.v4.b32")
            ->required();
        banksCommand->add_option(
            "--smem", banksRequest.smem,
            "Placement: row-major|col-major, pitch=B, pad=B, swizzle=B,M,S, mode=32B|64B|128B, "
            "start=B, tile=RxC (docs/reference/ldmatrix.md)");
        banksCommand->add_flag("--search", banksRequest.search,
                               "List the conflict-free swizzles and paddings");
        banksCommand->add_option("--feeds", banksRequest.feeds,
                                 "Check the registers against an mma operand, e.g. mma.m16n8k16.f16:A");
        banksCommand->add_flag("--json", banksRequest.json, "JSON instead of the text table");
        banksCommand->add_option(
            "--format", banksRequest.format,
            "text (default), json, or svg: the shared-memory picture (lines, phases, conflicts)");
        banksCommand->add_option("-o,--output", banksRequest.output, "Output file (default stdout)");
        option(banksCommand, "--atom-layout", atomLayoutText,
               kAtomLayoutHelp + std::string(": with --feeds, the tiled copy of the whole tile"));
        option(banksCommand, "--permutation", permutationText, kPermutationHelp);
    }

    DecodeRequest decodeRequest; // tcgen05 descriptors (cli_decode.cpp)
    CLI::App* decodeCommand = withHelpIf(std::find(args.begin(), args.end(), "decode") != args.end(), [&] {
        return addDecodeCommand(app, decodeRequest,
                                std::find(args.begin(), args.end(), "decode") != args.end());
    });

    std::string querySpec, queryOperand, diffSpec2;
    std::string queryRow, queryCol, queryLane, queryRegister, querySelector, queryCta;
    bool queryJson = false;
    auto* where = subcommand("where", "Who holds OPERAND[ROW][COL]: lane(s), register, bits, element");
    if (named(where)) {
        where->add_option("spec", querySpec, "Spec or PTX instruction")->required();
        where->add_option("operand", queryOperand, "A, B, C or D")->required();
        where->add_option("row", queryRow, "Row of the operand")->required()->type_name("INT");
        where->add_option("col", queryCol, "Column of the operand")->required()->type_name("INT");
        where->add_flag("--json", queryJson, "JSON instead of text (docs/reference/queries.md)");
        where->add_option("--atom-layout", atomLayoutText, kAtomLayoutHelp);
        where->add_option("--permutation", permutationText, kPermutationHelp);
    }
    auto* what = subcommand("what", "Every element one lane (thread) holds, per operand");
    if (named(what)) {
        what->add_option("spec", querySpec, "Spec or PTX instruction")->required();
        what->add_option("--lane,--thread", queryLane, "Lane (warp) or thread 0..127 (warpgroup)")
            ->type_name("INT");
        what->add_option(
                "--cta", queryCta,
                "tcgen05.mma: what CTA C of the pair (of a tile: of the cluster) holds (rows of A and D, "
                "columns of B), not with --lane")
            ->type_name("INT");
        what->add_option("--register", queryRegister, "Only this register")->type_name("INT");
        what->add_flag("--json", queryJson, "JSON instead of text");
        what->add_option("--atom-layout", atomLayoutText, kAtomLayoutHelp);
        what->add_option("--permutation", permutationText, kPermutationHelp);
    }
    FeedsIntoRequest feedsInto; // feeds SPEC --into CONSUMER:OPERAND (cli_feeds.cpp)
    auto* feedsCmd = subcommand("feeds", "Which A, B, C registers and metadata fields make D[ROW][COL]; with "
                                         "--into, whether a TMA box feeds a wgmma/tcgen05/ldmatrix reader");
    if (named(feedsCmd)) {
        feedsCmd->add_option("spec", querySpec, "Spec or PTX instruction")->required();
        feedsCmd->add_option("row", queryRow, "Row of D (not with --into)")->type_name("INT");
        feedsCmd->add_option("col", queryCol, "Column of D (not with --into)")->type_name("INT");
        feedsCmd->add_option("--selector", querySelector, "Sparse: only this sparsity selector's metadata")
            ->type_name("INT");
        feedsCmd->add_flag("--json", queryJson, "JSON instead of text");
        feedsCmd->add_option(
            "--into", feedsInto.into,
            "The reader of what SPEC writes into shared memory: CONSUMER:A|B (wgmma, "
            "tcgen05.mma) or an ldmatrix with --smem (docs/tma.md#feeds); exit 1 when a cell "
            "differs");
        feedsCmd->add_option("--major", feedsInto.major,
                             "--into: the reader's descriptor major-ness, K or MN");
        feedsCmd->add_option(
            "--swizzle", feedsInto.swizzle,
            "--into: the reader's swizzle (default: the box's): none, 32B, 64B, 128B, 128B-32B");
        feedsCmd->add_option(
            "--inner", feedsInto.inner,
            "--into: which operand axis the box's columns (innermost) hold, K or MN (default: "
            "--major)");
        feedsCmd->add_option("--smem", feedsInto.smem,
                             "--into an ldmatrix: its tile's placement (banks --smem)");
    }
    auto* diffCmd =
        subcommand("diff", "Cells two layouts hold differently, and the permutation or shuffle between them");
    if (named(diffCmd)) {
        diffCmd->add_option("spec1", querySpec, "First spec")->required();
        diffCmd->add_option("spec2", diffSpec2, "Second spec")->required();
        diffCmd->add_option("--operand", queryOperand, "Only this operand: A, B, C or D");
        diffCmd->add_flag("--json", queryJson, "JSON instead of text");
    }

    std::string discoverSpec, discoverFamily, discoverExpect, discoverValidate;
    std::optional<std::string> discoverJson; // given empty: refused before the run
    auto* disc = subcommand(
        "discover",
        "Discover wmma fragment layouts on the GPU (docs/discovery.md): load index-tagged matrices, "
        "decode every register, check store and mma");
    if (named(disc)) {
        disc->add_option("spec", discoverSpec, "A wmma spec, PTX string or CUDA C++ fragment type");
        disc->add_option("--family", discoverFamily, "wmma: every wmma fragment and variant");
        disc->add_option("--json", discoverJson,
                         "Write the discovery report to this file; checked before the run");
        disc->add_option("--expect", discoverExpect,
                         "A recorded report this run must reproduce exactly (placements and verdicts)");
        disc->add_option(
            "--validate", discoverValidate,
            "Check a discovery report file (exit 2 when malformed or inconsistent); runs nothing");
    }

    app.set_help_flag(helpNames, helpText);
    app.set_version_flag("--version", "lanemap-cli " + std::string(kVersionLine));

    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) // --help, --version
            return app.exit(e, out, err) == 0 ? Ok : Usage;
        // One line, input escaped and cut, as every other error (CLI11's own printing took two lines and
        // passed control characters through).
        std::string command;
        for (const CLI::App* sub : app.get_subcommands())
            command = " " + sub->get_name();
        if (command.empty() && !args.empty() && !args[0].empty() && args[0][0] != '-') {
            // Subcommands not named are not added (above): CLI11 would only say "A subcommand is required".
            err << "lanemap-cli: unknown command '" << excerpt(args[0], 32)
                << "'; valid: list, show, export, probe, discover, banks, where, what, feeds, diff, decode, "
                   "identify, check, conform\n";
            return Usage;
        }
        err << "lanemap-cli: " << excerpt(e.what(), 240) << "; see lanemap-cli" << command << " --help\n";
        return Usage;
    }

    // A pasted layout (docs/layouts-in.md): words after it that no option names are its own (a Triton
    // attribute typed without quotes), joined with blanks.
    const auto joined = [](CLI::App* command, std::string text) {
        for (const std::string& w : command->remaining())
            text += " " + w;
        return text;
    };
    if (show->parsed() && (looksLikeLayout(spec) || !layoutRequest.shape.empty())) {
        if (!atomLayoutText.empty() || !permutationText.empty()) { // a pasted layout is drawn as it is
            err << "lanemap-cli: --atom-layout and --permutation tile a catalog atom (e.g. show "
                   "mma.m16n8k16.f16 "
                   "--atom-layout '(2,2,1)'); a pasted layout is shown as given\n";
            return Usage;
        }
        layoutRequest.text = joined(show, spec);
        layoutRequest.operand = operand;
        return cmdShowLayout(layoutRequest, out, err);
    }
    if (identifyCommand->parsed() || checkCommand->parsed()) {
        bool failed = false;
        layoutRequest.tile = tileFlags(atomLayoutText, permutationText, err, failed);
        if (failed)
            return Usage;
        layoutRequest.text =
            joined(identifyCommand->parsed() ? identifyCommand : checkCommand, layoutRequest.text);
        return identifyCommand->parsed() ? cmdIdentify(layoutRequest, out, err)
                                         : cmdCheck(layoutRequest, out, err);
    }
    if (conformCommand->parsed())
        return cmdConform(conformPath, out, err);

    // Words after the spec that no option names are the spec's own where its family has a grammar that reads
    // them (a TMA box: cp.async.bulk.tensor.2d --tensor 128x192 --box 8x64, docs/tma.md): read with it, once.
    for (const auto& [command, text] : {std::pair{show, &spec}, std::pair{exp, &exportSpec}}) {
        if (!command->parsed() || command->remaining().empty())
            continue;
        const std::vector<std::string> words = command->remaining();
        const ParsedSpec alone = text->empty() ? ParsedSpec{} : parseSpec(*text, Catalog::instance());
        if (!alone || !alone.variant->family || !alone.variant->family->parse) {
            // As CLI11 says it where no family reads words.
            err << "lanemap-cli: The following argument" << (words.size() == 1 ? " was" : "s were")
                << " not expected:";
            for (const std::string& w : words)
                err << ' ' << excerpt(w, 40);
            err << "; see lanemap-cli " << command->get_name() << " --help\n";
            return Usage;
        }
        for (const std::string& w : words)
            *text += " " + w;
    }

    bool tileFailed = false;
    const std::optional<tile::TileLayout> tileLayout =
        tileFlags(atomLayoutText, permutationText, err, tileFailed);
    if (tileFailed)
        return Usage;
    if (where->parsed()) {
        const std::optional<Number> row = readNumber("row", queryRow, err);
        const std::optional<Number> col = row ? readNumber("col", queryCol, err) : std::nullopt;
        return row && col ? cmdWhere(querySpec, queryOperand, *row, *col, tileLayout, queryJson, out, err)
                          : Usage;
    }
    if (what->parsed()) {
        if (given(what, "--cta")) {
            if (given(what, "--lane") || given(what, "--register")) {
                err << "lanemap-cli: what --cta names a CTA of a tcgen05.mma's pair (or of a tile of them, "
                       "--atom-layout); it takes --json, not --lane or --register; see lanemap-cli what "
                       "--help\n";
                return Usage;
            }
            const std::optional<Number> cta = readNumber("--cta", queryCta, err);
            return cta ? cmdWhatCta(querySpec, *cta, tileLayout, queryJson, out, err) : Usage;
        }
        if (!given(what, "--lane")) {
            err << "lanemap-cli: what needs --lane L (--thread T), or --cta C for a tcgen05.mma; see "
                   "lanemap-cli what --help\n";
            return Usage;
        }
        const std::optional<Number> lane = readNumber("--lane", queryLane, err);
        std::optional<Number> reg;
        if (!lane || !optionalNumber(what, "--register", queryRegister, reg, err))
            return Usage;
        return cmdWhat(querySpec, *lane, reg, tileLayout, queryJson, out, err);
    }
    if (feedsCmd->parsed() && !feedsInto.into.empty()) {
        if (feedsCmd->count("row") || feedsCmd->count("col") || feedsCmd->count("--selector")) {
            err << "lanemap-cli: feeds --into compares shared memory cell by cell; ROW, COL and --selector "
                   "belong to the register form (feeds SPEC ROW COL)\n";
            return Usage;
        }
        feedsInto.spec = querySpec;
        feedsInto.json = queryJson;
        return cmdFeedsInto(feedsInto, out, err);
    }
    if (feedsCmd->parsed() && (!feedsInto.major.empty() || !feedsInto.swizzle.empty() ||
                               !feedsInto.inner.empty() || !feedsInto.smem.empty())) {
        err << "lanemap-cli: --major, --swizzle, --inner and --smem describe the reader of --into; give "
               "--into CONSUMER:OPERAND\n";
        return Usage;
    }
    if (feedsCmd->parsed() && (!feedsCmd->count("row") || !feedsCmd->count("col"))) {
        err << "lanemap-cli: feeds needs ROW and COL (feeds SPEC ROW COL), or --into CONSUMER:OPERAND; see "
               "lanemap-cli feeds --help\n";
        return Usage;
    }
    if (feedsCmd->parsed()) {
        const std::optional<Number> row = readNumber("row", queryRow, err);
        const std::optional<Number> col = row ? readNumber("col", queryCol, err) : std::nullopt;
        std::optional<Number> selectorNumber;
        if (!row || !col || !optionalNumber(feedsCmd, "--selector", querySelector, selectorNumber, err))
            return Usage;
        return cmdFeeds(querySpec, *row, *col, selectorNumber, queryJson, out, err);
    }
    if (diffCmd->parsed())
        return cmdDiff(querySpec, diffSpec2, queryOperand, queryJson, out, err);

    ExportOptions options;
    options.compact = compact;
    if (!operand.empty()) {
        const std::optional<OperandSet> operands = operandSetArgument(operand, true, err);
        if (!operands)
            return Usage;
        options.operands = *operands;
    }
    ViewFlags flags;
    flags.exporting = exp->parsed();
    flags.params.tile = tileLayout;
    if (tileLayout && all) {
        err << "lanemap-cli: --atom-layout and --permutation tile one MMA atom; give its SPEC, not --all\n";
        return Usage;
    }
    flags.params.target = target;
    if (!major.empty() || !swizzle.empty()) {
        smem::Choice choice;
        const std::optional<smem::Major> m = major.empty() ? choice.major : smem::parseMajor(major);
        if (!m) {
            err << "lanemap-cli: unknown --major '" << excerpt(major) << "'; valid: " << smem::majorList()
                << '\n';
            return Usage;
        }
        const std::optional<smem::Swizzle> w = swizzle.empty() ? choice.swizzle : smem::parseSwizzle(swizzle);
        if (!w) {
            err << "lanemap-cli: unknown --swizzle '" << excerpt(swizzle)
                << "'; valid: " << smem::swizzleList() << '\n';
            return Usage;
        }
        flags.params.smem = smem::Choice{*m, *w};
    }
    if (selectorGiven(show) || selectorGiven(exp)) {
        const std::optional<Number> selector = readNumber("--selector", selectorText, err);
        if (!selector)
            return Usage;
        if (selector->value < 0 || selector->value > 3) {
            err << "lanemap-cli: --selector "
                << (selector->typed.empty() ? std::to_string(selector->value) : selector->typed)
                << " is out of range: --selector must be 0..3\n";
            return Usage;
        }
        flags.params.selector = selector->value;
    }
    if (!ld.empty() && !st.empty()) {
        err << "lanemap-cli: give --ld (who holds D) or --st (who must hold A), not both\n";
        return Usage;
    }
    if (!ld.empty() || !st.empty()) {
        const tmem::Op op = ld.empty() ? tmem::Op::St : tmem::Op::Ld;
        std::string error;
        const std::optional<tmem::Access> access = tmem::parseAccess(ld.empty() ? st : ld, op, error);
        if (!access || access->op != op) {
            err << "lanemap-cli: invalid " << (ld.empty() ? "--st" : "--ld") << " '"
                << excerpt(ld.empty() ? st : ld) << "': " << (access ? "names the other operation" : error)
                << '\n';
            return Usage;
        }
        flags.params.access = access;
        flags.params.tensorOperand = op == tmem::Op::St ? Operand::A : Operand::D;
    }
    std::optional<Number> halfSplitoff;
    const CLI::App* viewCommand = show->parsed() ? show : exp;
    if (!optionalNumber(viewCommand, "--imm-half-splitoff", halfSplitoffText, halfSplitoff, err))
        return Usage;
    if (halfSplitoff)
        flags.params.halfSplit = halfSplitoff->value;
    flags.halfSplit = halfSplitoff;
    for (const auto& [name, text, id] : {std::tuple{"--sfa-id", &sfaIdText, &tcgen05Scale.sfaId},
                                         std::tuple{"--sfb-id", &sfbIdText, &tcgen05Scale.sfbId}}) {
        std::optional<Number> n;
        if (!optionalNumber(viewCommand, name, *text, n, err))
            return Usage;
        if (n && !n->typed.empty()) { // beyond int: no vector size takes it
            err << "lanemap-cli: " << name << ' ' << n->typed
                << " is out of range: a scale factor ID is 0 to 3 (1X: 0-3, 2X: 0 or 2, 4X: 0)\n";
            return Usage;
        }
        if (n)
            *id = n->value;
    }

    // html: the colouring and palette the page opens with (its reader changes them, and filters threads).
    if (exp->parsed() && (!color.empty() || !palette.empty()) && format != "svg" && format != "html") {
        err << "lanemap-cli: --color and --palette apply to --format svg and html only\n";
        return Usage;
    }
    if (exp->parsed() && !lanes.empty() && format != "svg") {
        err << "lanemap-cli: --lanes applies to --format svg only (an html page has its own Lanes box)\n";
        return Usage;
    }
    if (!color.empty()) {
        const std::optional<ColorBy> c = parseColorBy(color);
        if (!c) {
            err << "lanemap-cli: unknown --color '" << excerpt(color)
                << "'; valid: lane, register, group, warp, warpgroup, thread\n";
            return Usage;
        }
        options.colorBy = *c;
    }
    if (!palette.empty()) {
        const std::optional<Palette> p = parsePalette(palette);
        if (!p) {
            err << "lanemap-cli: unknown --palette '" << excerpt(palette)
                << "'; valid: default, colorblind\n";
            return Usage;
        }
        options.palette = *p;
    }
    if (!lanes.empty()) {
        std::string error;
        // A tile's threads are the CTA's (at most 1024); the diagram checks them against the instance's.
        const std::optional<std::vector<int>> laneList = parseLaneList(lanes, tile::kMaxCtaThreads, error);
        if (!laneList) {
            err << "lanemap-cli: --lanes: " << error << '\n';
            return Usage;
        }
        options.lanes = *laneList;
    }

    if (list->parsed())
        return cmdList(family, smText, out, err);
    if (show->parsed() && !placementText.empty())
        return cmdWithPlacement(spec, placementText, "txt", options, "-", out, err);
    // The options of register and shared-memory views, as typed: a tcgen05.mma view refuses them by name.
    for (const auto& [given, name] :
         {std::pair{!operand.empty(), "--operand"},
          std::pair{selectorGiven(show) || selectorGiven(exp), "--selector"},
          std::pair{!major.empty(), "--major"}, std::pair{!swizzle.empty(), "--swizzle"},
          std::pair{!target.empty(), "--target"}, std::pair{!color.empty(), "--color"},
          std::pair{!lanes.empty(), "--lanes"}, std::pair{compact, "--compact"}})
        if (given)
            flags.notForTensorMemory.emplace_back(name);
    flags.scale = tcgen05Scale;
    if (show->parsed())
        return cmdShow(spec, options, flags, out, err);
    if (disc->parsed()) {
        if (!discoverValidate.empty()) {
            if (!discoverSpec.empty() || !discoverFamily.empty() || discoverJson || !discoverExpect.empty()) {
                err << "lanemap-cli: discover --validate PATH takes no other argument\n";
                return Usage;
            }
            return cmdValidateDiscovery(discoverValidate, out, err);
        }
        return cmdDiscover(discoverSpec, discoverFamily, discoverJson, discoverExpect, out, err);
    }
    if (exp->parsed() && !placementText.empty()) {
        if (all || exportSpec.empty() || output.empty()) {
            err << "lanemap-cli: export --smem takes one SPEC and -o PATH (or '-')\n";
            return Usage;
        }
        if (gzip || compact) {
            err << "lanemap-cli: export --smem writes the move with its banks; --gzip and --compact apply to "
                   "plain exports (without --smem)\n";
            return Usage;
        }
        return cmdWithPlacement(exportSpec, placementText, format, options, output, out, err);
    }
    if (exp->parsed())
        return cmdExport(exportSpec, all, format, options, flags, gzip, output, out, err);
    if (banksCommand->parsed()) {
        banksRequest.tile = tileLayout;
        return cmdBanks(banksRequest, out, err);
    }
    if (decodeCommand->parsed())
        return cmdDecode(decodeRequest, out, err);
    if (probe->parsed() && tileLayout) {
        if (probeAllVariants || probeTiming || !probeFamily.empty()) {
            err << "lanemap-cli: probe --atom-layout runs one tile of one SPEC; it takes --json, not --all, "
                   "--family or --timing\n";
            return Usage;
        }
        if (!probeCopy.empty() && probeCopy != "direct" && probeCopy != "ldmatrix" &&
            probeCopy != "ld.shared") {
            err << "lanemap-cli: unknown --copy '" << excerpt(probeCopy)
                << "'; valid: direct, ldmatrix, ld.shared\n";
            return Usage;
        }
        gpu::TileStaging staging;
        if (probeSmem) {
            if (probeCopy != "ld.shared") {
                err << "lanemap-cli: probe --smem stages A and B for the ld.shared copy; give --copy "
                       "ld.shared\n";
                return Usage;
            }
            std::string error;
            const std::optional<banks::Placement> p = banks::parsePlacement(*probeSmem, error);
            if (!p) {
                err << "lanemap-cli: probe " << error << '\n';
                return Usage;
            }
            if (p->major != banks::TileMajor::Row || p->pitchBytes || p->start || p->tileRows ||
                p->tileCols) {
                err << "lanemap-cli: probe --smem '" << excerpt(*probeSmem)
                    << "': the kernel stages A row-major and B col-major (K-major both; a register's two "
                       "halves are k and k + 1), each line right after the previous one's pad, A at byte 0 "
                       "and B at the next 1024; valid: pad=BYTES, swizzle=B,M,S, mode=32B|64B|128B\n";
                return Usage;
            }
            staging = {p->padBytes, p->cute, p->mode};
        }
        return cmdProbeTile(probeSpec, *tileLayout,
                            probeCopy == "ldmatrix"    ? gpu::TileLoad::Ldmatrix
                            : probeCopy == "ld.shared" ? gpu::TileLoad::SharedLoad
                                                       : gpu::TileLoad::Direct,
                            staging, jsonPath, out, err);
    }
    if (probe->parsed() && probeSmem) {
        err << "lanemap-cli: probe --smem stages a tile's A and B for --copy ld.shared; give the tile "
               "(--atom-layout, --permutation) and --copy ld.shared\n";
        return Usage;
    }
    if (probe->parsed() && !probeCopy.empty()) {
        err << "lanemap-cli: --copy says how a tile's A and B reach the registers; give the tile "
               "(--atom-layout, --permutation)\n";
        return Usage;
    }
    if (probe->parsed())
        return cmdProbe(probeSpec, probeAllVariants, probeFamily, jsonPath, probeTiming, out, err);
    return Usage;
}

} // namespace

} // namespace lanemap::cli
