// The web app's engine (docs/web.md): lanemap_core behind a handful of C functions that take text and answer
// JSON, called by web/app.js. The binding is the web's edge: it parses what the page's URL and pickers say
// once — a spec through the CLI's parser (parseSpec, selectionOf), the options into Params — and answers with
// what the core made of it (the site's page data, an export); nothing of a layout is decided here.
//
// Every answer is a JSON object; a bad input is {"error": "<what is wrong and what is valid>"}. The returned
// pointer stays valid until the next call (the page copies it at once).

#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/search.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/site.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/tcgen05_desc.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tmem.hpp"
#include "lanemap/version.hpp"

#include <nlohmann/json.hpp>

#include <exception>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

using nlohmann::json;
using namespace lanemap;

std::string g_answer;         // what the last call returned
std::vector<Diagram> g_shown; // the pictures of the last lm_view: the page asks for their cells' tooltips
std::vector<float> g_cells;   // the last lm_view's cell numbers, which the page reads from memory (lm_cells)

const char* answer(std::string text) {
    g_answer = std::move(text);
    return g_answer.c_str();
}
const char* answer(const json& j) {
    return answer(j.dump());
}
const char* failure(std::string_view message) {
    return answer(json{{"error", message}});
}

// "selector=1&major=mn&swizzle=64" -> key -> value (the page writes these; unknown keys are refused by name).
std::map<std::string, std::string> readOptions(std::string_view text) {
    std::map<std::string, std::string> out;
    while (!text.empty()) {
        const std::size_t amp = text.find('&');
        const std::string_view part = text.substr(0, amp);
        const std::size_t eq = part.find('=');
        if (!part.empty())
            out[std::string(part.substr(0, eq))] =
                eq == std::string_view::npos ? std::string() : std::string(part.substr(eq + 1));
        if (amp == std::string_view::npos)
            break;
        text.remove_prefix(amp + 1);
    }
    return out;
}

// The views a selection can be drawn in, beyond its operands.
enum class View { Layout, SharedMemory, Banks };

struct Request {
    Selection selection;
    View view = View::Layout;
    std::string banksPlacement; // the banks view: the tile's placement, as `banks --smem` reads it
};

// Whether a variant has the bank view: a matrix move that reads or writes shared memory (ldmatrix, stmatrix).
bool hasBanks(const Variant& v) {
    return banks::applies(v);
}

// A spec (or PTX text) and the page's options -> the selection, as the CLI reads SPEC and its flags. Throws
// std::invalid_argument with a message naming the bad input.
Request readRequest(std::string_view spec, std::string_view optionText) {
    const ParsedSpec parsed = parseSpec(spec, Catalog::instance());
    if (!parsed) {
        std::string message = parsed.error;
        if (!parsed.suggestions.empty()) {
            message += "; did you mean";
            for (std::size_t i = 0; i < parsed.suggestions.size() && i < 3; ++i)
                message += (i ? ", " : " ") + parsed.suggestions[i];
            message += '?';
        }
        throw std::invalid_argument(message);
    }
    Request request{selectionOf(parsed), View::Layout, {}};
    Params& params = request.selection.params;
    const std::map<std::string, std::string> options = readOptions(optionText);
    std::string major, swizzle, atoms, perm;
    for (const auto& [key, value] : options) {
        if (key == "ld" || key == "st") {
            // A tcgen05.mma's D read by a tcgen05.ld (or its A written by a tcgen05.st), as --ld / --st.
            const tmem::Op op = key == "ld" ? tmem::Op::Ld : tmem::Op::St;
            std::string error;
            const std::optional<tmem::Access> access = tmem::parseAccess(value, op, error);
            if (!access || access->op != op)
                throw std::invalid_argument("invalid " + key + " '" + value +
                                            "': " + (access ? "names the other operation" : error));
            params.access = access;
        } else if (key == "atoms") {
            atoms = value;
        } else if (key == "perm") {
            perm = value;
        } else if (key == "major") {
            major = value;
        } else if (key == "swizzle") {
            swizzle = value;
        } else if (key == "view") {
            if (value == "smem")
                request.view = View::SharedMemory;
            else if (value == "banks")
                request.view = View::Banks;
            else if (value != "layout" && !value.empty())
                throw std::invalid_argument("unknown view '" + value + "'; valid: layout, smem, banks");
        } else if (key == "smem") {
            request.banksPlacement = value;
        } else if (key == "sel" || key == "color" || key == "palette" || key == "lanes" || key == "zoom") {
            // The page's own choices (which selector's picture, colours, lane filter): not the engine's.
        } else {
            throw std::invalid_argument("unknown option '" + key +
                                        "'; valid: view, major, swizzle, smem, ld, st, atoms, perm, sel, "
                                        "color, palette, lanes, zoom");
        }
    }
    if (!major.empty() || !swizzle.empty()) {
        smem::Choice choice;
        const std::optional<smem::Major> m = major.empty() ? choice.major : smem::parseMajor(major);
        if (!m)
            throw std::invalid_argument("unknown major '" + major +
                                        "'; valid: " + std::string(smem::majorList()));
        const std::optional<smem::Swizzle> w = swizzle.empty() ? choice.swizzle : smem::parseSwizzle(swizzle);
        if (!w)
            throw std::invalid_argument("unknown swizzle '" + swizzle +
                                        "'; valid: " + std::string(smem::swizzleList()));
        params.smem = smem::Choice{*m, *w};
    }
    if (!atoms.empty() || !perm.empty()) {
        // A tile of the atom (CuTe's make_tiled_mma), as --atom-layout / --permutation.
        std::string error;
        params.tile = tile::parseTileLayout(atoms.empty() ? "(1,1,1)" : atoms, perm, error);
        if (!params.tile)
            throw std::invalid_argument(error);
    }
    if (const std::string error = validate(request.selection); !error.empty())
        throw std::invalid_argument(error);
    return request;
}

// wgmma's shared-memory A and B for the instance's major-ness and swizzle, with their memory maps (the app's
// shared-memory pane).
Diagram sharedMemoryDiagram(const Instruction& in) {
    std::string error;
    const std::vector<smem::SharedOperand> operands =
        smem::operands(in, in.params.smem.value_or(smem::Choice{}), error);
    if (operands.empty())
        throw std::invalid_argument(error);
    Diagram d = buildSharedMemoryDiagram(operands.front());
    for (std::size_t i = 1; i < operands.size(); ++i)
        appendSharedMemory(d, operands[i]);
    return d;
}

// The pictures of one request: the operands (one per sparsity selector; a TMA box in shared memory), or
// wgmma's shared-memory operands.
std::vector<Diagram> picturesOf(const Instruction& in, const Request& request) {
    if (request.view == View::Banks) {
        // The tile of an ldmatrix / stmatrix in shared memory, its bank groups and conflicts per phase (the
        // app's bank view, `lanemap-cli banks`).
        if (!hasBanks(in))
            throw std::invalid_argument(in.spec + " reads and writes no shared memory (the bank view is "
                                                  "ldmatrix's and stmatrix's); its view: layout");
        std::string error;
        const std::optional<banks::Placement> placement =
            request.banksPlacement.empty() ? banks::Placement{}
                                           : banks::parsePlacement(request.banksPlacement, error);
        if (!placement)
            throw std::invalid_argument(error);
        const std::optional<banks::Analysis> analysis = banks::analyze(in, *placement, error);
        if (!analysis)
            throw std::invalid_argument(error);
        std::vector<Diagram> out;
        out.push_back(buildBanksDiagram(in, *analysis));
        return out;
    }
    if (request.view != View::SharedMemory)
        return siteDiagrams(in);
    if (!smem::hasSharedMemoryOperands(in))
        throw std::invalid_argument(in.spec +
                                    " reads no operand from shared memory through a descriptor (the "
                                    "shared-memory view is wgmma's); its view: layout");
    std::vector<Diagram> out;
    out.push_back(sharedMemoryDiagram(in));
    return out;
}

// The catalog list the page searches and shows (one row per variant), in catalog order.
const std::vector<std::string>& searchTexts() {
    static const std::vector<std::string> texts = [] {
        std::vector<std::string> out;
        for (const Variant* v : Catalog::instance().variants())
            out.push_back(searchText(*v));
        return out;
    }();
    return texts;
}

} // namespace

extern "C" {

const char* lm_version() {
    return answer(json{{"version", std::string(kVersionLine)}});
}

// [{spec, ptx, family, m, n, k, sm, sparse, hardware}] in catalog order.
const char* lm_catalog() {
    try {
        json rows = json::array();
        for (const Variant* v : Catalog::instance().variants()) {
            rows.push_back({{"spec", v->spec},
                            {"ptx", v->ptx},
                            {"family", std::string(v->family->name)},
                            {"m", v->m},
                            {"n", v->n},
                            {"k", v->k},
                            {"sm", v->minSm},
                            {"sparse", v->sparse}});
        }
        return answer(json{{"variants", std::move(rows)}});
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

// The indices of the catalog rows every word of `query` matches (the app's filter, lanemap/search.hpp).
const char* lm_search(const char* query) {
    try {
        const std::vector<std::string> words = searchWords(query);
        const std::vector<std::string>& texts = searchTexts();
        std::string out = "{\"matches\":[";
        bool first = true;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            if (!matchesSearch(texts[i], words))
                continue;
            if (!first)
                out += ',';
            first = false;
            out += std::to_string(i);
        }
        out += "]}";
        return answer(std::move(out));
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

// The page data of one view of a selection: {"spec", "views", "data": <siteData>}.
const char* lm_view(const char* spec, const char* options) {
    try {
        const Request request = readRequest(spec, options);
        const std::shared_ptr<const Instruction> in = instantiate(request.selection);
        std::vector<Diagram> pictures = picturesOf(*in, request);
        json views = json::array({"layout"});
        if (smem::hasSharedMemoryOperands(*in))
            views.push_back("smem");
        if (hasBanks(*in))
            views.push_back("banks");
        std::string out = "{\"spec\":";
        out += json(request.selection.variant->spec).dump();
        out += ",\"family\":";
        out += json(std::string(request.selection.variant->family->name)).dump();
        out += ",\"views\":";
        out += views.dump();
        // The parameters the page offers pickers for: a tile (its family takes one: a one-atom tile fits)
        // and a tcgen05.ld / tcgen05.st (a tcgen05.mma).
        Selection tiled = request.selection;
        std::string tileError;
        tiled.params.tile = tile::parseTileLayout("(1,1,1)", "", tileError);
        out += ",\"takes\":";
        out += json{{"tile", tiled.params.tile && validate(tiled).empty()},
                    {"access", in->hasSpace(Space::TensorMemory)}}
                   .dump();
        out += ",\"view\":\"";
        out += request.view == View::SharedMemory ? "smem" : request.view == View::Banks ? "banks" : "layout";
        out += "\",\"data\":";
        g_cells.clear();
        siteData(out, *in, pictures, {.header = true, .tooltips = false, .cells = &g_cells});
        g_shown = std::move(pictures);
        out += '}';
        return answer(std::move(out));
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

// Where the last lm_view's cell numbers are: 15 floats a cell, each panel's "cellsAt" [first, cells] into
// them.
const float* lm_cells() {
    return g_cells.data();
}

// The tooltip of a cell of the last lm_view's pictures (Diagram::tooltip): picture, panel, the cell's index
// in its panel. Plain text (not JSON); "" for an index out of range.
const char* lm_tooltip(int picture, int panel, int cell) {
    if (picture < 0 || static_cast<std::size_t>(picture) >= g_shown.size())
        return answer(std::string());
    const Diagram& d = g_shown[static_cast<std::size_t>(picture)];
    if (panel < 0 || static_cast<std::size_t>(panel) >= d.panels.size() || cell < 0 ||
        static_cast<std::uint32_t>(cell) >= d.panels[static_cast<std::size_t>(panel)].cellCount)
        return answer(std::string());
    const DiagramPanel& p = d.panels[static_cast<std::size_t>(panel)];
    return answer(std::string(d.tooltipText(d.cells[p.firstCell + static_cast<std::uint32_t>(cell)]).view()));
}

// A descriptor decoded, as the app's decoder and `lanemap-cli decode` read it: `what` is "wgmma" (a wgmma
// matrix descriptor), "smem" (a tcgen05 shared-memory descriptor) or "idesc" (a tcgen05 instruction
// descriptor, of the mma kind `kind`); `value` decimal or 0x hex. {"fields": [{name, high, low, raw,
// meaning}], "broken": [what the value breaks]}.
const char* lm_decode(const char* what, const char* value, const char* kind) {
    try {
        const std::string_view w = what;
        const int bits = w == "idesc" ? 32 : 64;
        const std::optional<std::uint64_t> v = tcgen05::parseValue(value, bits);
        if (!v)
            return failure(std::string("'") + value + "' is not a " + std::to_string(bits) +
                           "-bit value (decimal or 0x hex)");
        json fields = json::array(), broken = json::array();
        auto field = [&](const std::string& name, int high, int low, std::uint64_t raw,
                         const std::string& meaning) {
            fields.push_back(
                {{"name", name}, {"high", high}, {"low", low}, {"raw", raw}, {"meaning", meaning}});
        };
        if (w == "wgmma") {
            std::vector<std::string> rules;
            for (const smem::DescriptorField& f : smem::descriptorFields(*v, &rules))
                field(f.name, f.highBit, f.lowBit, f.raw, f.meaning);
            for (const std::string& r : rules)
                broken.push_back(r);
        } else if (w == "smem" || w == "idesc") {
            std::vector<tcgen05::Field> decoded;
            std::vector<tcgen05::Violation> violations;
            if (w == "smem") {
                const tcgen05::DecodedSmemDescriptor d = tcgen05::decodeSmemDescriptor(*v);
                decoded = d.fields;
                violations = d.violations;
            } else {
                const std::optional<Kind> k = parseKind(kind);
                if (!k || *k == Kind::None)
                    return failure(std::string("unknown kind '") + kind +
                                   "'; valid: " + std::string(tcgen05::kindList()));
                const tcgen05::DecodedInstrDescriptor d =
                    tcgen05::decodeInstrDescriptor(static_cast<std::uint32_t>(*v), *k);
                decoded = d.fields;
                violations = d.violations;
            }
            for (const tcgen05::Field& f : decoded)
                field(f.name, f.highBit, f.lowBit, f.raw, f.meaning);
            for (const tcgen05::Violation& r : violations)
                broken.push_back(r.field + ": " + r.rule);
        } else {
            return failure(std::string("unknown descriptor '") + what + "'; valid: wgmma, smem, idesc");
        }
        return answer(json{{"fields", std::move(fields)}, {"broken", std::move(broken)}});
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

// One export of a selection: {"document", "extension"}; `format` as the CLI spells it (json, svg, cute, ...).
const char* lm_export(const char* spec, const char* options, const char* format) {
    try {
        const Request request = readRequest(spec, options);
        const std::optional<ExportFormat> f = parseExportFormat(format);
        if (!f)
            return failure(std::string("unknown format '") + format + "'; valid: " + exportFormatList());
        const std::shared_ptr<const Instruction> in = instantiate(request.selection);
        std::string document, error;
        if (!exportInstruction(*in, *f, ExportOptions{}, document, error))
            return failure(error);
        return answer(json{{"document", std::move(document)}, {"extension", std::string(fileExtension(*f))}});
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

} // extern "C"
