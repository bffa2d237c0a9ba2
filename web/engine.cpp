// The web app's engine (docs/web.md): lanemap_core behind a handful of C functions that take text and answer
// JSON, called by web/app.js. The binding is the web's edge: it parses what the page's URL and pickers say
// once — a spec through the CLI's parser (parseSpec, selectionOf), the options into Params — and answers with
// what the core made of it (the site's page data, an export); nothing of a layout is decided here.
//
// Every answer is a JSON object; a bad input is {"error": "<what is wrong and what is valid>"}. The returned
// pointer stays valid until the next call (the page copies it at once).

#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/compare.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/export.hpp"
#include "lanemap/family.hpp"
#include "lanemap/feeds.hpp"
#include "lanemap/layout_in.hpp"
#include "lanemap/search.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/site.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tcgen05_desc.hpp"
#include "lanemap/tile.hpp"
#include "lanemap/tiled_copy.hpp"
#include "lanemap/tmem.hpp"
#include "lanemap/version.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
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
// A compare view draws two pictures side by side as one (g_shown's first); the tooltips are each side's own.
std::vector<Diagram> g_sides;
std::size_t g_split = 0; // the first panel of the right-hand side

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
    std::string feeds; // the banks view: the mma operand the move's registers must be (`banks --feeds`)
    // The banks view with a tile (atoms, perm): the tiled copy of the feeds' operand over the whole tile, as
    // `banks MOVE --feeds SPEC:OPERAND --atom-layout ...` (the tile is the consumer's, not the move's).
    std::optional<tile::TileLayout> copyTile;
    // What moves the operand in that copy (`copy`, as `banks MOVE`'s MOVE): the instruction shown when
    // nullopt, else each thread's own fragment by a plain ld.shared.
    std::optional<tiled_copy::SharedLoad> sharedLoad;
    std::optional<Selection> compare; // the compare view: the instruction drawn beside it
    Operand feedOperand = Operand::A; // a box compared with its reader: the operand the reader reads it as
};

// A spec as the CLI reads it, or std::invalid_argument with its message and the nearest specs.
Selection readSpec(std::string_view spec) {
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
    return selectionOf(parsed);
}

// Whether a variant has the bank view: a matrix move that reads or writes shared memory (ldmatrix, stmatrix).
bool hasBanks(const Variant& v) {
    return banks::applies(v);
}

// A spec (or PTX text) and the page's options -> the selection, as the CLI reads SPEC and its flags. Throws
// std::invalid_argument with a message naming the bad input.
Request readRequest(std::string_view spec, std::string_view optionText) {
    Request request;
    request.selection = readSpec(spec);
    Params& params = request.selection.params;
    const std::map<std::string, std::string> options = readOptions(optionText);
    std::string major, swizzle, atoms, perm;
    for (const auto& [key, value] : options) {
        if ((key == "ld" || key == "st") && value.empty()) {
            // No access: D in Tensor Memory as the mma leaves it.
        } else if (key == "ld" || key == "st") {
            // A tcgen05.mma's D read by a tcgen05.ld (or its A written by a tcgen05.st), as --ld / --st.
            const tmem::Op op = key == "ld" ? tmem::Op::Ld : tmem::Op::St;
            std::string error;
            const std::optional<tmem::Access> access = tmem::parseAccess(value, op, error);
            if (!access || access->op != op)
                throw std::invalid_argument("invalid " + key + " '" + value +
                                            "': " + (access ? "names the other operation" : error));
            if (params.access && !value.empty())
                throw std::invalid_argument("give ld (who holds D) or st (who must hold A), not both");
            params.access = access;
            // A tcgen05.st writes A into Tensor Memory: the view of A there (as --st).
            params.tensorOperand = op == tmem::Op::St ? Operand::A : Operand::D;
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
        } else if (key == "feeds") {
            request.feeds = value;
        } else if (key == "copy") {
            if (!value.empty()) {
                std::string error;
                request.sharedLoad = tiled_copy::parseSharedLoad(value, error);
                if (!request.sharedLoad)
                    throw std::invalid_argument("copy: " + error + ", or none for the instruction shown");
            }
        } else if (key == "compare") {
            if (!value.empty())
                request.compare = readSpec(value);
        } else if (key == "operand") {
            // The reader's operand a TMA box is compared with (`feeds --into SPEC:A|B`).
            if (value == "B")
                request.feedOperand = Operand::B;
            else if (value != "A" && !value.empty())
                throw std::invalid_argument("unknown operand '" + value + "'; valid: A, B");
        } else if (key == "sel" || key == "color" || key == "palette" || key == "lanes" || key == "zoom") {
            // The page's own choices (which selector's picture, colours, lane filter): not the engine's.
        } else {
            throw std::invalid_argument("unknown option '" + key +
                                        "'; valid: view, major, swizzle, smem, feeds, copy, ld, st, atoms, "
                                        "perm, compare, operand, sel, color, palette, lanes, zoom");
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
        if (request.view == View::Banks) {
            if (request.feeds.empty())
                throw std::invalid_argument("a tile in the bank view is a tiled copy: give feeds, the tiled "
                                            "MMA's operand it moves (ldmatrix: A or B, e.g. "
                                            "feeds=mma.m16n8k16.f16:A; stmatrix: C or D)");
            request.copyTile = std::move(params.tile);
            params.tile.reset();
        }
    }
    if (request.sharedLoad && request.view == View::Banks && !request.copyTile)
        throw std::invalid_argument("copy=" + tiled_copy::toString(*request.sharedLoad) +
                                    " moves a tiled MMA's fragment: give the tile (atoms, e.g. (2,2,1)) and "
                                    "feeds, the operand it loads (e.g. feeds=mma.m16n8k16.f16:A)");
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

// The height a picture draws at: the page draws the legend itself, so the canvas ends above the Diagram's.
double drawnHeight(const Diagram& d) {
    return d.legends.empty() ? d.height : std::min(d.height, d.legends.front().bounds.y);
}

// Two pictures side by side as one (the compare view): `right` drawn right of `left`, each as drawn alone, so
// the page draws, hovers and pins both as one picture (a lane lights on both sides). g_sides keeps the two
// for their tooltips.
Diagram sideBySide(Diagram left, const Diagram& right) {
    constexpr double kGap = 40;
    const double dx = left.width + kGap;
    const auto cellBase = static_cast<std::uint32_t>(left.cells.size());
    const auto panelBase = static_cast<std::uint16_t>(left.panels.size());
    left.height = std::max(drawnHeight(left), drawnHeight(right));
    left.legends.clear();
    std::erase_if(left.texts, [](const DiagramText& t) { return t.role == TextRole::Legend; });
    for (DiagramPanel p : right.panels) {
        p.bounds.x += dx;
        p.origin.x += dx;
        p.firstCell += cellBase;
        for (std::uint32_t& c : p.gridCells)
            c += cellBase;
        left.panels.push_back(std::move(p));
    }
    for (DiagramCell c : right.cells) {
        c.rect.x += dx;
        c.panel = static_cast<std::uint16_t>(c.panel + panelBase);
        left.cells.push_back(c);
    }
    for (DiagramText t : right.texts)
        if (t.role != TextRole::Legend) {
            t.pos.x += dx;
            left.texts.push_back(std::move(t));
        }
    for (DiagramLine l : right.lines) {
        l.from.x += dx;
        l.to.x += dx;
        left.lines.push_back(l);
    }
    left.width = dx + right.width;
    left.partner.clear();
    left.threadOffsets.clear();
    left.threadCells.clear();
    return left;
}

// Per panel of a picture, the indices (in the panel) of its marked cells: what the page frames in red.
std::vector<std::vector<std::uint32_t>> marksOf(const Diagram& d, const std::vector<std::uint8_t>& marked) {
    std::vector<std::vector<std::uint32_t>> out(d.panels.size());
    for (std::size_t pi = 0; pi < d.panels.size(); ++pi)
        for (std::uint32_t i = 0; i < d.panels[pi].cellCount; ++i)
            if (marked[d.panels[pi].firstCell + i])
                out[pi].push_back(i);
    return out;
}

// The compare view (the app's compare page): the operand both hold in registers, the shown instruction's on
// the left and the other's on the right, the cells whose position the other holds differently marked on both
// sides (lanemap/compare.hpp).
struct Compared {
    Diagram picture;
    std::vector<std::vector<std::uint32_t>> marks;
    json summary;
};
// A TMA box and the instruction that reads it through a descriptor, compared in shared memory (the app's
// compare page when the two hold no register operand in common; `lanemap-cli feeds BOX --into READER`): the
// box's grid and lines on the left, the reader's on the right, every position and 16-byte chunk where they
// disagree marked, and the verdict with the first difference. nullopt with `error` when they do not compare.
std::optional<Compared> feedView(const Request& request, std::string& error) {
    feeds::Request q;
    q.writer = request.selection;
    q.reader = *request.compare;
    q.operand = request.feedOperand;
    // The reader as the app draws it: its own shared-memory choice, else wgmma's default, K-major 128B.
    const smem::Choice choice = request.compare->params.smem.value_or(smem::Choice{});
    q.major = choice.major;
    q.swizzle = choice.swizzle;
    const std::optional<feeds::Answer> feed = feeds::ask(q, error);
    if (!feed)
        return std::nullopt;
    const Placement* written = feed->writer->placement(Space::SharedMemory, Operand::D);
    for (const Placement& p : feed->writer->placements)
        if (!written && p.space() == Space::SharedMemory)
            written = &p;
    const Diagram left = buildSharedMemoryDiagram(*written, feed->sides.writerGlobal),
                  right = buildSharedMemoryDiagram(feed->reader);
    const feeds::Comparison& c = feed->comparison;
    std::vector<std::uint8_t> marked = feedMarks(left, c, true).marks;
    const std::vector<std::uint8_t> r = feedMarks(right, c, false).marks;
    marked.insert(marked.end(), r.begin(), r.end());
    Compared out;
    out.picture = sideBySide(left, right);
    out.marks = marksOf(out.picture, marked);
    g_sides = {left, right};
    g_split = left.panels.size();
    // The report's verdict and first difference, as `lanemap-cli feeds --into` prints them.
    const std::string report = feeds::toText(c, feed->sides);
    const std::size_t verdict = report.find("feeds: ");
    out.summary = {{"spec", request.compare->variant->spec},
                   {"operand", std::string(toString(request.feedOperand))},
                   {"reader", feed->sides.reader},
                   {"feeds", c.feeds()},
                   {"positions", c.compared},
                   {"differing", c.compared - c.equal},
                   {"report", report.substr(verdict == std::string::npos ? 0 : verdict)}};
    return out;
}

Compared compareView(const Request& request, const Instruction& mine, const Instruction& other) {
    const std::optional<Operand> which = comparedOperand(mine, other, Operand::A);
    const bool writerOnly =
        mine.hasSpace(Space::SharedMemory) &&
        std::none_of(mine.operands.begin(), mine.operands.end(),
                     [&](const FragmentLayout& op) { return inRegisters(mine, op.operand()); });
    if (!which && writerOnly) {
        // What one writes into shared memory and the other reads there (a TMA box and its reader).
        std::string error;
        if (std::optional<Compared> fed = feedView(request, error))
            return std::move(*fed);
        throw std::invalid_argument(mine.spec + " and " + other.spec +
                                    " hold no operand in common in registers, and the box does not compare "
                                    "with what " +
                                    other.spec + " reads: " + error);
    }
    if (!which) {
        const auto list = [](const Instruction& in) {
            std::string names;
            for (const FragmentLayout& op : in.operands)
                if (inRegisters(in, op.operand()))
                    names += (names.empty() ? "" : ", ") + std::string(op.name());
            return names.empty() ? std::string("none") : names;
        };
        throw std::invalid_argument(
            mine.spec + " and " + other.spec + " hold no operand in common in registers (" + mine.spec +
            ": " + list(mine) + "; " + other.spec + ": " + list(other) + "): nothing to compare");
    }
    DiagramOptions o;
    o.operands = {*which};
    const Diagram left = buildDiagram(mine, o), right = buildDiagram(other, o);
    const CompareResult l = compareDiagram(left, mine, other), r = compareDiagram(right, other, mine);
    std::vector<std::uint8_t> marked = l.marks;
    marked.insert(marked.end(), r.marks.begin(), r.marks.end());
    Compared c;
    c.picture = sideBySide(left, right);
    c.marks = marksOf(c.picture, marked);
    g_sides = {left, right};
    g_split = left.panels.size();
    c.summary = {{"spec", other.spec},
                 {"operand", std::string(toString(*which))},
                 {"positions", l.positions},
                 {"differing", l.differing}};
    return c;
}

// The pictures of one request: the operands (one per sparsity selector; a TMA box in shared memory), or
// wgmma's shared-memory operands.
std::vector<Diagram> picturesOf(const Instruction& in, const Request& request, json& feedVerdict) {
    if (request.view == View::Banks) {
        // The tile of an ldmatrix / stmatrix in shared memory, its bank groups and conflicts per phase (the
        // app's bank view, `lanemap-cli banks`).
        if (!hasBanks(in))
            throw std::invalid_argument(in.spec + " reads and writes no shared memory (the bank view is "
                                                  "ldmatrix's and stmatrix's); its view: layout");
        std::string error;
        std::optional<banks::Placement> placement =
            request.banksPlacement.empty() ? banks::Placement{}
                                           : banks::parsePlacement(request.banksPlacement, error);
        if (!placement)
            throw std::invalid_argument(error);
        // Feeds (`banks --feeds SPEC:OPERAND`, the app's Feeds picker): whether the moved registers are that
        // operand's fragment, drawn over the memory; the operand's size is the default tile.
        std::optional<banks::FeedCheck> feed;
        if (!request.feeds.empty()) {
            const std::size_t colon = request.feeds.rfind(':');
            const std::optional<Operand> operand =
                colon == std::string::npos ? std::nullopt : parseOperand(request.feeds.substr(colon + 1));
            if (!operand)
                throw std::invalid_argument(
                    "feeds '" + excerpt(request.feeds) +
                    "' is not SPEC:OPERAND (e.g. mma.m16n8k16.f16:A; ldmatrix loads A "
                    "or B, stmatrix stores C or D)");
            Selection consumer = readSpec(request.feeds.substr(0, colon));
            if (request.copyTile) { // the whole tile's copy, one Diagram (buildTiledCopyDiagram)
                consumer.params.tile = request.copyTile;
                if (const std::string why = validate(consumer); !why.empty())
                    throw std::invalid_argument(why);
                const std::shared_ptr<const Instruction> tile = instantiate(consumer);
                const std::optional<tiled_copy::Result> copy =
                    request.sharedLoad
                        ? tiled_copy::analyze(*request.sharedLoad, *tile, *operand, *placement, error)
                        : tiled_copy::analyze(in, *tile, *operand, *placement, error);
                if (!copy)
                    throw std::invalid_argument(error);
                feedVerdict = {{"consumer", tile::nameOf(*tile) + ":" + std::string(toString(*operand))},
                               {"move", copy->move},
                               {"sharedLoad", copy->sharedLoad},
                               {"mismatches", copy->mismatches},
                               {"slots", copy->slots.size()},
                               {"report", tiled_copy::toText(*copy)}};
                std::vector<Diagram> out;
                out.push_back(buildTiledCopyDiagram(*copy));
                return out;
            }
            const Instruction& consumerInstruction = Catalog::instance().instruction(*consumer.variant);
            feed = banks::checkFeed(in, consumerInstruction, *operand, *placement, error);
            if (!feed)
                throw std::invalid_argument("feeds: " + error);
            if (const FragmentLayout* fed = consumerInstruction.operand(*operand);
                fed && placement->tileRows == 0 && placement->tileCols == 0) {
                placement->tileRows = fed->rows();
                placement->tileCols = fed->cols();
            }
            feedVerdict = {{"consumer", feed->consumer},
                           {"mismatches", feed->mismatches},
                           {"slots", feed->cells.size()},
                           {"report", banks::toText(in, *feed)}};
        }
        const std::optional<banks::Analysis> analysis = banks::analyze(in, *placement, error);
        if (!analysis)
            throw std::invalid_argument(error);
        std::vector<Diagram> out;
        out.push_back(feed ? buildBanksDiagram(in, *analysis, *feed) : buildBanksDiagram(in, *analysis));
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

// ---- A pasted layout (docs/web.md#paste-a-layout): the reader of `lanemap-cli show`, `identify`, `check`
// ----

// What the page may paste and draw: the text travels in the URL, and every cell is drawn and indexed in the
// page (the catalog's largest picture, a cta_group::2 m256 D, is 65,536 cells).
constexpr std::size_t kMostPasteBytes = 64 * 1024;
constexpr long kMostPasteCells = 65536;

// A layout that does not read, where and what was expected (the page puts the cursor there).
struct PasteFailure {
    layout_in::ReadError error;
    std::string field = "text"; // "text", "shape" or "against"
};
[[noreturn]] void refuse(std::string message, std::string field = "text") {
    layout_in::ReadError e;
    e.message = std::move(message);
    throw PasteFailure{std::move(e), std::move(field)};
}

// The operand a pasted layout is compared with: SPEC:OPERAND, as `check --against` reads it.
struct Against {
    const Instruction* instruction = nullptr;
    Operand operand = Operand::A;
    const FragmentLayout* fragment = nullptr; // its register operand (nullptr for a shared-memory A or B)
    std::string error;                        // why SPEC:OPERAND names no operand to compare with
};

Against readAgainst(std::string_view text, bool shared) {
    Against a;
    const std::size_t colon = text.rfind(':');
    const std::optional<Operand> operand =
        colon == std::string_view::npos ? std::nullopt : parseOperand(text.substr(colon + 1));
    if (!operand || *operand == Operand::Metadata) {
        a.error =
            "'" + excerpt(text) + "' must be SPEC:OPERAND, OPERAND A, B, C or D (e.g. mma.m16n8k16.f16:A)";
        return a;
    }
    const ParsedSpec parsed = parseSpec(text.substr(0, colon), Catalog::instance());
    if (!parsed) {
        a.error = parsed.error;
        if (!parsed.suggestions.empty())
            a.error += "; did you mean " + parsed.suggestions.front() + "?";
        return a;
    }
    a.instruction = &Catalog::instance().instruction(*parsed.variant);
    a.operand = *operand;
    if (shared) {
        if (!smem::hasSharedMemoryOperands(*parsed.variant) ||
            (*operand != Operand::A && *operand != Operand::B))
            a.error = "a swizzled layout is a shared-memory layout; " + a.instruction->spec +
                      " has none: compare it with the A or B of a wgmma (e.g. wgmma.m64n64k16.f16:B)";
        return a;
    }
    a.fragment = layout_in::accumulatorOr(*a.instruction, *operand);
    if (!a.fragment) {
        std::string valid;
        for (const FragmentLayout& o : a.instruction->operands)
            valid += (valid.empty() ? "" : ", ") + std::string(o.name());
        a.error = a.instruction->spec + " has no register operand " + std::string(toString(*operand)) +
                  (valid.empty() ? "" : "; its register operands: " + valid);
    }
    return a;
}

struct Pasted {
    std::optional<layout_in::Layout> layout;             // a thread-value layout
    std::optional<layout_in::SharedLayout> sharedLayout; // a swizzled shared-memory layout
    layout_in::Extent extent;
    std::vector<layout_in::Coord> cells;
    std::shared_ptr<const Instruction> drawn;
    Against against;
};

// Reads the text (over `shape`; without one, the layout's own or, for check, the operand's) as the CLI does.
// Throws PasteFailure.
Pasted readPasted(std::string_view text, std::string_view shape, std::string_view against) {
    if (text.size() > kMostPasteBytes)
        refuse("the layout is " + std::to_string(text.size()) + " bytes; the web app reads at most " +
               std::to_string(kMostPasteBytes) + " (lanemap-cli show @FILE reads a file of up to 16 MiB)");
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        refuse(
            "paste a layout: CuTe ((4,8),(2,2,2)):((32,1),(16,8,128)) or Layout<...>, a swizzled Sw<3,4,3> o "
            "smem_ptr[16b](unset) o (_8,_64):(_64,_1), Triton #ttg.linear, #ttg.blocked, #ttg.nvidia_mma or "
            "#ttg.dot_op");
    Pasted p;
    const bool shared =
        layout_in::isSwizzled(text.substr(std::min(text.size(), text.find_first_not_of(" \t\r\n"))));
    if (!against.empty())
        p.against = readAgainst(against, shared);
    if (shared) {
        if (!shape.empty())
            refuse("a swizzled layout's shape is its own modes: leave the shape empty", "shape");
        // The element size a layout without smem_ptr[Nb] does not say: the operand's, where one is named.
        int elementBits = 0;
        if (p.against.instruction && p.against.error.empty()) {
            std::string error;
            for (const smem::SharedOperand& o : smem::operands(
                     *Catalog::instance().variant(p.against.instruction->spec), smem::Choice{}, error))
                if (o.operand == p.against.operand)
                    elementBits = o.layout.elementBits();
        }
        std::variant<layout_in::SharedLayout, layout_in::ReadError> read =
            layout_in::readShared(text, elementBits);
        if (auto* e = std::get_if<layout_in::ReadError>(&read))
            throw PasteFailure{std::move(*e)};
        p.sharedLayout = std::get<layout_in::SharedLayout>(std::move(read));
        if (static_cast<long>(p.sharedLayout->rows) * p.sharedLayout->cols > kMostPasteCells)
            refuse("the layout has " +
                   std::to_string(static_cast<long>(p.sharedLayout->rows) * p.sharedLayout->cols) +
                   " elements; the web app draws at most " + std::to_string(kMostPasteCells) +
                   " (lanemap-cli show draws any)");
        p.drawn = std::make_shared<const Instruction>(layout_in::instructionOf(*p.sharedLayout));
        return p;
    }
    layout_in::ReadOptions options;
    if (!shape.empty()) {
        std::string error;
        options.extent = layout_in::parseExtent(shape, error);
        if (!options.extent)
            refuse(error, "shape");
    }
    // A Triton encoding with no shape (#ttg.dot_op, nvidia_mma, blocked) is laid over the operand's, as
    // check.
    if (p.against.fragment)
        options.shapeOf = layout_in::extentOf(*p.against.fragment, layout_in::Notation::TritonLinear);
    std::variant<layout_in::Layout, layout_in::ReadError> read = layout_in::read(text, options);
    if (auto* e = std::get_if<layout_in::ReadError>(&read))
        throw PasteFailure{std::move(*e)};
    p.layout = std::get<layout_in::Layout>(std::move(read));
    const layout_in::Layout& l = *p.layout;
    if (static_cast<long>(l.threads) * l.values > kMostPasteCells)
        refuse("the layout has " + std::to_string(static_cast<long>(l.threads) * l.values) +
               " elements (threads x values); the web app draws at most " + std::to_string(kMostPasteCells) +
               " (lanemap-cli show draws up to 2^22)");
    if (l.extent)
        p.extent = *l.extent;
    else if (p.against.fragment)
        p.extent = layout_in::extentOf(*p.against.fragment, l.notation); // check folds it so
    else
        refuse(
            "a CuTe layout maps (thread, value) to an index: give its shape, DIM0xDIM1 (CuTe's convention: "
            "A MxK, B NxK, C MxN, column-major), or an operand to compare with",
            "shape");
    const long cells = static_cast<long>(p.extent.dim0) * p.extent.dim1 * p.extent.products;
    if (cells > kMostPasteCells)
        refuse("the shape " + layout_in::toString(p.extent) + " has " + std::to_string(cells) +
                   " cells; the web app draws at most " + std::to_string(kMostPasteCells),
               "shape");
    std::string error;
    std::optional<std::vector<layout_in::Coord>> in = layout_in::cellsIn(l, p.extent, error);
    if (!in)
        refuse("cannot draw the layout in " +
                   (shape.empty() ? "the " + layout_in::toString(p.extent) + " it spans"
                                  : "the shape " + layout_in::toString(p.extent)) +
                   ": " + error,
               shape.empty() ? "text" : "shape");
    p.cells = std::move(*in);
    p.drawn = std::make_shared<const Instruction>(layout_in::instructionOf(l, p.extent, p.cells));
    return p;
}

Diagram pictureOf(const Pasted& p) {
    if (p.sharedLayout)
        return buildSharedMemoryDiagram(p.drawn->placements.front());
    return buildDiagram(*p.drawn);
}

const char* pasteFailure(const PasteFailure& f, std::string_view text) {
    json j{{"error", f.error.describe()}, {"field", f.field}, {"message", f.error.message}};
    if (f.error.offset != std::string_view::npos) {
        j["line"] = f.error.line;
        j["column"] = f.error.column;
        j["offset"] = f.error.offset;
        // The line read, for a caret under the column (its first 400 bytes).
        const std::size_t start = f.error.offset > text.size() ? text.size() : f.error.offset;
        const std::size_t begin = start == 0 ? 0 : text.rfind('\n', start - 1) + 1;
        const std::size_t end = std::min(text.find('\n', begin), text.size());
        j["lineText"] = std::string(text.substr(begin, std::min<std::size_t>(end - begin, 400)));
    }
    return answer(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

bool confirmed(const Instruction& in) {
    return in.hardware && in.hardware->verdict == Verdict::Pass;
}

// identify's answer: every catalog operand the layout equals, or the nearest.
json identified(const layout_in::Layout& l) {
    const layout_in::Identification id = layout_in::identify(l);
    json equal = json::array(), nearest = json::array();
    for (const layout_in::Match& m : id.equal)
        equal.push_back({{"spec", m.instruction->spec},
                         {"operand", std::string(toString(m.operand))},
                         {"confirmed", confirmed(*m.instruction)}});
    for (const layout_in::Match& m : id.nearest)
        nearest.push_back({{"spec", m.instruction->spec},
                           {"operand", std::string(toString(m.operand))},
                           {"confirmed", confirmed(*m.instruction)},
                           {"differing", m.comparison.differing},
                           {"cells", m.comparison.cells},
                           {"sameThreads", m.comparison.sameThreads}});
    return {{"equal", std::move(equal)}, {"nearest", std::move(nearest)}};
}

// check's answer (`lanemap-cli check LAYOUT --against SPEC:OPERAND`): the verdict text, in both notations,
// and per cell of the pasted picture whether it differs (`marks`, indices into the picture's first panel on).
json checked(const Pasted& p, const Diagram& picture, std::vector<std::uint8_t>& marked,
             std::vector<layout_in::CellDifference>& differences) {
    const Against& a = p.against;
    json j{{"spec", a.instruction ? a.instruction->spec : std::string()},
           {"operand", std::string(toString(a.operand))}};
    if (!a.error.empty()) {
        j["error"] = a.error;
        return j;
    }
    const Instruction& in = *a.instruction;
    j["confirmed"] = confirmed(in);
    j["hardware"] = in.spec + ": " + layout_in::hardwareStatus(in);
    if (p.sharedLayout) {
        const layout_in::SharedLayout& l = *p.sharedLayout;
        smem::Choice choice; // K-major with the layout's own swizzle, as check without --major / --swizzle
        choice.swizzle = l.bits == 0   ? smem::Swizzle::None
                         : l.bits == 1 ? smem::Swizzle::B32
                         : l.bits == 2 ? smem::Swizzle::B64
                                       : smem::Swizzle::B128;
        std::string error;
        const std::optional<smem::SharedOperand> over =
            layout_in::coveringOperand(l, *Catalog::instance().variant(in.spec), a.operand, choice, error);
        if (!over) {
            j["error"] = in.spec + ": " + error;
            return j;
        }
        const layout_in::SharedComparison c = layout_in::compareShared(l, *over);
        std::string text = "against " + in.spec + " " + std::string(toString(a.operand)) +
                           " in shared memory, " + std::string(smem::toString(choice.major)) + "-major, " +
                           std::string(smem::toString(choice.swizzle)) + " swizzle: ";
        if (!c.sameShape)
            text += "differs: " + c.why + "\n";
        else if (c.equal())
            text += "equal: every one of the " + std::to_string(c.cells) + " elements at the same byte\n";
        else {
            text += "differs in " + std::to_string(c.differing) + " of " + std::to_string(c.cells) +
                    " elements; the first " + std::to_string(c.first.size()) + ":\n";
            const char mnl = a.operand == Operand::B ? 'n' : 'm';
            for (const layout_in::ByteDifference& d : c.first)
                text += std::string("  (") + mnl + ' ' + std::to_string(d.mn) + ", k " + std::to_string(d.k) +
                        "): layout byte " + std::to_string(d.layout) + "; lanemap byte " +
                        std::to_string(d.operand) + "\n";
        }
        j["equal"] = c.equal();
        j["cells"] = c.cells;
        j["differing"] = c.differing;
        j["text"] = text;
        return j;
    }
    const layout_in::Layout& l = *p.layout;
    const FragmentLayout& op = *a.fragment;
    const layout_in::Extent e = layout_in::extentOf(op, l.notation);
    const layout_in::Comparison c = layout_in::compare(l, op, static_cast<std::size_t>(kMostPasteCells));
    const char* convention = layout_in::isCute(l.notation) ? (a.operand == Operand::A   ? "CuTe's (M,K)"
                                                              : a.operand == Operand::B ? "CuTe's (N,K)"
                                                                                        : "CuTe's (M,N)")
                                                           : (a.operand == Operand::A   ? "Triton's [M, K]"
                                                              : a.operand == Operand::B ? "Triton's [K, N]"
                                                                                        : "Triton's [M, N]");
    j["operand"] = std::string(op.name());
    j["equal"] = c.equal();
    j["expressible"] = c.expressible;
    j["sameShape"] = c.sameShape;
    j["cells"] = c.cells;
    j["differing"] = c.differing;
    j["sameThreads"] = c.sameThreads;
    j["text"] = "against " + in.spec + " " + std::string(op.name()) + ", " + layout_in::toString(e) + " as " +
                convention + ": " + layout_in::describe(c, l, in, op, 8);
    // The differing cells in the pasted picture: rows dim0, columns dim1, a panel per CuTe product.
    marked.assign(picture.cells.size(), 0);
    if (c.sameShape && p.extent == e) {
        std::vector<std::uint8_t> differs(static_cast<std::size_t>(e.dim0) * e.dim1 * e.products, 0);
        for (const layout_in::CellDifference& d : c.first)
            differs[(static_cast<std::size_t>(d.at.product) * e.dim1 + d.at.d1) * e.dim0 + d.at.d0] = 1;
        for (std::size_t i = 0; i < picture.cells.size(); ++i) {
            const DiagramCell& cell = picture.cells[i];
            const int product = std::max<int>(cell.matrix, 0);
            if (product < e.products && cell.row < e.dim0 && cell.col < e.dim1)
                marked[i] =
                    differs[(static_cast<std::size_t>(product) * e.dim1 + cell.col) * e.dim0 + cell.row];
        }
        differences = c.first;
    }
    return j;
}

// A descriptor's value as the decoder's address and `lanemap-cli decode` write it: 0x and every digit.
std::string hexDigits(std::uint64_t value, int digits) {
    std::string out(static_cast<std::size_t>(digits), '0');
    for (int i = digits - 1; i >= 0; --i, value >>= 4)
        out[static_cast<std::size_t>(i)] = "0123456789abcdef"[value & 15];
    return "0x" + out;
}

// A descriptor's fields with their bits, raw value and meaning, and the rules it breaks (the decoders of
// `lanemap-cli decode` and the app): {"fields": [{name, high, low, raw, meaning}], "broken": [text]}.
json decoded(std::string_view what, std::uint64_t value, Kind kind, const tcgen05::Context& context) {
    json fields = json::array(), broken = json::array();
    auto field = [&](const std::string& name, int high, int low, std::uint64_t raw,
                     const std::string& meaning) {
        fields.push_back({{"name", name}, {"high", high}, {"low", low}, {"raw", raw}, {"meaning", meaning}});
    };
    if (what == "wgmma") {
        std::vector<std::string> rules;
        for (const smem::DescriptorField& f : smem::descriptorFields(value, &rules))
            field(f.name, f.highBit, f.lowBit, f.raw, f.meaning);
        for (const std::string& r : rules)
            broken.push_back(r);
    } else {
        std::vector<tcgen05::Field> parts;
        std::vector<tcgen05::Violation> violations;
        if (what == "smem") {
            const tcgen05::DecodedSmemDescriptor d = tcgen05::decodeSmemDescriptor(value);
            parts = d.fields;
            violations = d.violations;
        } else {
            const tcgen05::DecodedInstrDescriptor d =
                tcgen05::decodeInstrDescriptor(static_cast<std::uint32_t>(value), kind, context);
            parts = d.fields;
            violations = d.violations;
        }
        for (const tcgen05::Field& f : parts)
            field(f.name, f.highBit, f.lowBit, f.raw, f.meaning);
        for (const tcgen05::Violation& r : violations)
            broken.push_back(r.field + ": " + r.rule);
    }
    return json{{"fields", std::move(fields)}, {"broken", std::move(broken)}};
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
        g_sides.clear();
        std::vector<Diagram> pictures;
        json compare, marks = json::array(), feedVerdict;
        if (request.compare && request.view == View::Layout) {
            const std::shared_ptr<const Instruction> other = instantiate(*request.compare);
            Compared c = compareView(request, *in, *other);
            pictures.push_back(std::move(c.picture));
            compare = std::move(c.summary);
            marks = c.marks;
        } else {
            pictures = picturesOf(*in, request, feedVerdict);
        }
        json views = json::array({"layout"});
        if (smem::hasSharedMemoryOperands(*in))
            views.push_back("smem");
        if (hasBanks(*in))
            views.push_back("banks");
        // What can move a tiled copy's operand besides the instruction shown (the bank view's Move by
        // picker).
        json copies = json::array();
        if (hasBanks(*in))
            for (const tiled_copy::SharedLoad load : tiled_copy::kSharedLoads)
                copies.push_back(tiled_copy::toString(load));
        std::string out = "{\"spec\":";
        // The spec with the family's own words (a TMA box's tensor map), so the address names the instance;
        // the words one by one for the page's fields.
        // (Given no words, the spec as it was: its default box.)
        out +=
            json(request.selection.params.family ? specTextOf(*in) : request.selection.variant->spec).dump();
        out += ",\"opcode\":";
        out += json(request.selection.variant->spec).dump();
        json words = json::array();
        for (const SpecWord& w : wordsOf(*in))
            words.push_back({{"key", w.key}, {"value", w.value}});
        out += ",\"words\":";
        out += words.dump();
        out += ",\"family\":";
        out += json(std::string(request.selection.variant->family->name)).dump();
        out += ",\"views\":";
        out += views.dump();
        out += ",\"copies\":";
        out += copies.dump();
        // The parameters the page offers pickers for: a tile (its family takes one: a one-atom tile fits)
        // and a tcgen05.ld / tcgen05.st (a tcgen05.mma).
        Selection tiled = request.selection;
        std::string tileError;
        tiled.params.tile = tile::parseTileLayout("(1,1,1)", "", tileError);
        out += ",\"takes\":";
        out += json{{"tile", tiled.params.tile && validate(tiled).empty()},
                    {"access", in->hasSpace(Space::TensorMemory)},
                    {"store", in->hasSpace(Space::TensorMemory)}}
                   .dump();
        out += ",\"view\":\"";
        out += request.view == View::SharedMemory ? "smem" : request.view == View::Banks ? "banks" : "layout";
        out += "\",\"compare\":";
        out += compare.dump();
        out += ",\"marks\":";
        out += marks.dump();
        out += ",\"feed\":";
        out += feedVerdict.dump();
        out += ",\"data\":";
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
    if (!g_sides.empty() && picture == 0) {
        // A compare view: the cell's own side says it (its scope, its instruction's words).
        const bool right = static_cast<std::size_t>(panel) >= g_split;
        const Diagram& side = g_sides[right ? 1 : 0];
        const DiagramPanel& p = side.panels[static_cast<std::size_t>(panel) - (right ? g_split : 0)];
        return answer(
            std::string(side.tooltipText(side.cells[p.firstCell + static_cast<std::uint32_t>(cell)]).view()));
    }
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
        if (w != "wgmma" && w != "smem" && w != "idesc")
            return failure(std::string("unknown descriptor '") + what + "'; valid: wgmma, smem, idesc");
        const int bits = w == "idesc" ? 32 : 64;
        const std::optional<std::uint64_t> v = tcgen05::parseValue(value, bits);
        if (!v)
            return failure(std::string("'") + value + "' is not a " + std::to_string(bits) +
                           "-bit value (decimal or 0x hex)");
        std::optional<Kind> k;
        if (w == "idesc") {
            k = parseKind(kind);
            if (!k || *k == Kind::None)
                return failure(std::string("unknown kind '") + kind +
                               "'; valid: " + std::string(tcgen05::kindList()));
        }
        return answer(decoded(w, *v, k.value_or(Kind::F16), {}));
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

// A descriptor encoded from its fields, as `lanemap-cli decode --smem-desc-from / --idesc-from` take them
// (and a wgmma matrix descriptor's, smem::parseDescriptorFields): `what` as lm_decode's, `fields` the URL's
// "start=0&lbo=16&..." (an instruction descriptor's also "cta_group=1&ws=0", the instruction's context).
// {"form": [{key, label, choices, value}] (the fields the page offers, each value as encoded), "value" (when
// no rule is broken), "fields" and "broken" (the decoder's), "rules": [{key, field, rule}] (every rule the
// fields break, each with the form's key it concerns)}.
const char* lm_encode(const char* what, const char* fields) {
    try {
        const std::string_view w = what;
        std::map<std::string, std::string> given = readOptions(fields);
        json rules = json::array();
        const auto rule = [&](const std::string& key, const std::string& field, const std::string& text) {
            rules.push_back({{"key", key}, {"field", field}, {"rule", text}});
        };
        // The core's parsers separate fields with commas: a value holding one would read as two fields.
        for (auto it = given.begin(); it != given.end();)
            if (it->second.find(',') != std::string::npos) {
                rule(it->first, "",
                     it->first + " '" + excerpt(it->second, 32) + "' is not one value (a comma)");
                it = given.erase(it);
            } else {
                ++it;
            }
        json out;
        if (w == "wgmma" || w == "smem") {
            const bool wgmma = w == "wgmma";
            json swizzles = json::array();
            for (const smem::Swizzle z : {smem::Swizzle::None, smem::Swizzle::B128Atom32, smem::Swizzle::B128,
                                          smem::Swizzle::B64, smem::Swizzle::B32})
                if (!wgmma || smem::descriptorSwizzleCode(z) >= 0)
                    swizzles.push_back(std::string(smem::toString(z)));
            const auto parsedAlone = [&](const std::string& key, const std::string& value) {
                try {
                    if (wgmma)
                        smem::parseDescriptorFields(key + "=" + value);
                    else
                        tcgen05::parseSmemDescriptor(key + "=" + value);
                    return std::string();
                } catch (const std::invalid_argument& e) {
                    return std::string(e.what());
                }
            };
            // A field that does not read says why on its own (the parser stops at the first); the others are
            // read together as the core's parsers take them, and their values checked.
            std::string text;
            for (const auto& [key, value] : given) {
                if (const std::string why = parsedAlone(key, value); !why.empty())
                    rule(key, "", why);
                else
                    text += (text.empty() ? "" : ",") + key + "=" + value;
            }
            std::uint32_t start = 0, lbo = 0, sbo = 0;
            int base = 0;
            std::string mode = "relative", swizzle = "none";
            bool read = true;
            std::optional<std::uint64_t> bits;
            try {
                if (wgmma) {
                    const smem::MatrixDescriptor d = smem::parseDescriptorFields(text);
                    start = d.startAddress, lbo = d.leadingByteOffset, sbo = d.strideByteOffset;
                    base = d.baseOffset, swizzle = smem::toString(d.swizzle);
                    static const std::map<std::string, std::string> keyOf = {{"start address", "start"},
                                                                             {"leading byte offset", "lbo"},
                                                                             {"stride byte offset", "sbo"},
                                                                             {"base offset", "base"},
                                                                             {"swizzle", "swizzle"}};
                    for (const smem::DescriptorRule& r : smem::checkDescriptor(d))
                        rule(keyOf.at(r.field), r.field, r.rule);
                    if (rules.empty())
                        bits = smem::encodeDescriptor(d);
                } else {
                    const tcgen05::SmemDescriptor d = tcgen05::parseSmemDescriptor(text);
                    start = d.startAddress, lbo = d.leadingByteOffset, sbo = d.strideByteOffset;
                    base = d.baseOffset, swizzle = smem::toString(d.swizzle);
                    mode = d.leadingMode == tcgen05::LeadingMode::AbsoluteAddress ? "absolute" : "relative";
                    static const std::map<std::string, std::string> keyOf = {
                        {"matrix start address", "start"},         {"leading dimension byte offset", "lbo"},
                        {"stride dimension byte offset", "sbo"},   {"matrix base offset", "base"},
                        {"leading dimension stride mode", "mode"}, {"swizzling mode", "swizzle"}};
                    for (const tcgen05::Violation& r : tcgen05::check(d)) {
                        const auto k = keyOf.find(r.field);
                        rule(k == keyOf.end() ? "" : k->second, r.field, r.rule);
                    }
                    if (rules.empty())
                        bits = tcgen05::encode(d);
                }
            } catch (const std::invalid_argument& e) {
                read = false;
                rule("", "", e.what());
            }
            const auto number = [&](std::uint32_t v) { return read ? json(std::to_string(v)) : json(); };
            out["form"] = json::array(
                {{{"key", "start"}, {"label", "start address (bytes)"}, {"value", number(start)}},
                 {{"key", "lbo"},
                  {"label", wgmma ? "leading byte offset" : "leading byte offset (LBO)"},
                  {"value", number(lbo)}},
                 {{"key", "sbo"}, {"label", "stride byte offset"}, {"value", number(sbo)}},
                 {{"key", "base"},
                  {"label", "base offset"},
                  {"value", number(static_cast<std::uint32_t>(base))}},
                 {{"key", "swizzle"}, {"label", "swizzle"}, {"choices", swizzles}, {"value", swizzle}}});
            if (!wgmma)
                out["form"].insert(out["form"].begin() + 4, json{{"key", "mode"},
                                                                 {"label", "leading mode"},
                                                                 {"choices", {"relative", "absolute"}},
                                                                 {"value", mode}});
            if (bits) {
                out["value"] = hexDigits(*bits, 16);
                out.update(decoded(w, *bits, Kind::F16, {}));
            }
        } else if (w == "idesc") {
            // The instruction's context (cta_group, .ws) is not in the descriptor; the rest is the core's
            // --idesc-from.
            tcgen05::Context context;
            std::string ctaText, wsText;
            if (const auto c = given.find("cta_group"); c != given.end())
                ctaText = c->second;
            if (const auto c = given.find("ws"); c != given.end())
                wsText = c->second;
            if (ctaText == "1" || ctaText == "2")
                context.ctaGroup = ctaText[0] - '0';
            else if (!ctaText.empty() && ctaText != "any")
                rule("cta_group", "",
                     "cta_group '" + excerpt(ctaText, 32) + "' is not a CTA group; valid: any, 1, 2");
            if (wsText == "1" || wsText == "yes")
                context.ws = true;
            else if (wsText == "0" || wsText == "no")
                context.ws = false;
            else if (!wsText.empty() && wsText != "any")
                rule("ws", "", ".ws '" + excerpt(wsText, 32) + "' is not a .ws choice; valid: any, yes, no");
            // A field that does not read says why on its own (with the kind, which the parser needs); the
            // others are read together and their values checked.
            const auto kindIt = given.find("kind");
            const std::string kindPart =
                "kind=" + (kindIt != given.end() && parseKind(kindIt->second) ? kindIt->second : "f16");
            std::string text = kindPart;
            for (const auto& [key, value] : given) {
                if (key == "cta_group" || key == "ws")
                    continue;
                try {
                    tcgen05::parseInstrDescriptor(key == "kind" ? key + "=" + value
                                                                : kindPart + "," + key + "=" + value);
                    if (key != "kind")
                        text += "," + key + "=" + value;
                } catch (const std::invalid_argument& one) {
                    rule(key, "", one.what());
                }
            }
            std::optional<tcgen05::InstrDescriptor> d;
            try {
                d = tcgen05::parseInstrDescriptor(text);
            } catch (const std::invalid_argument& e) {
                rule("", "", e.what());
            }
            static const std::map<std::string, std::string> keyOf = {
                {"atype (matrix A type)", "a"},
                {"btype (matrix B type)", "b"},
                {"dtype (matrix D type)", "d"},
                {"sparsity selector", "selector"},
                {"saturate", "saturate"},
                {"negate A", "negate_a"},
                {"negate B", "negate_b"},
                {"transpose A (major-ness)", "major_a"},
                {"transpose B (major-ness)", "major_b"},
                {"maximum shift (.ws B reuse)", "max_shift"},
                {"matrix A scale factor data ID", "sf_a"},
                {"matrix B scale factor data ID", "sf_b"},
                {"scale matrix type", "scale"},
                {"K dimension", "k96"},
                {"M", "m"},
                {"N", "n"},
                {".ws", "ws"},
                {"cta_group", "cta_group"}};
            if (d) {
                for (const tcgen05::Violation& r : tcgen05::check(*d, context)) {
                    const auto k = keyOf.find(r.field);
                    rule(k == keyOf.end() ? "" : k->second, r.field, r.rule);
                }
                if (rules.empty()) {
                    const std::uint32_t bits = tcgen05::encode(*d, context);
                    out["value"] = hexDigits(bits, 8);
                    out["k"] = tcgen05::kOf(*d);
                    out.update(decoded(w, bits, d->kind, context));
                }
            }
            const auto names = [](auto first, auto last, auto toText) {
                json a = json::array();
                for (int i = static_cast<int>(first); i <= static_cast<int>(last); ++i)
                    a.push_back(std::string(toText(static_cast<decltype(first)>(i))));
                return a;
            };
            json kinds = json::array();
            for (std::string_view list = tcgen05::kindList(); !list.empty();) {
                const std::size_t comma = list.find(", ");
                kinds.push_back(std::string(list.substr(0, comma)));
                list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 2);
            }
            const auto typeName = [](tcgen05::Type t) { return tcgen05::toString(t); };
            const json types = names(tcgen05::Type::F16, tcgen05::Type::S8, typeName);
            const json dtypes = names(tcgen05::DType::F16, tcgen05::DType::S32,
                                      [](tcgen05::DType t) { return tcgen05::toString(t); });
            const json scales = names(tcgen05::ScaleType::UE4M3, tcgen05::ScaleType::UE8M0,
                                      [](tcgen05::ScaleType t) { return tcgen05::toString(t); });
            const auto v = [&](auto get) { return d ? json(get(*d)) : json(); };
            const auto flag = [](bool b) { return std::string(b ? "1" : "0"); };
            const json yesNo = {"0", "1"};
            out["form"] = json::array(
                {{{"key", "kind"}, {"label", "kind"}, {"choices", kinds}, {"value", v([](const auto& x) {
                                                                               return std::string(
                                                                                   toString(x.kind));
                                                                           })}},
                 {{"key", "a"}, {"label", "A type"}, {"choices", types}, {"value", v([](const auto& x) {
                                                                              return std::string(
                                                                                  tcgen05::toString(x.atype));
                                                                          })}},
                 {{"key", "b"}, {"label", "B type"}, {"choices", types}, {"value", v([](const auto& x) {
                                                                              return std::string(
                                                                                  tcgen05::toString(x.btype));
                                                                          })}},
                 {{"key", "d"},
                  {"label", "D type"},
                  {"choices", dtypes},
                  {"value", v([](const auto& x) { return std::string(tcgen05::toString(x.dtype)); })}},
                 {{"key", "m"}, {"label", "M"}, {"value", v([](const auto& x) {
                                                     return std::to_string(x.m);
                                                 })}},
                 {{"key", "n"}, {"label", "N"}, {"value", v([](const auto& x) {
                                                     return std::to_string(x.n);
                                                 })}},
                 {{"key", "sparse"}, {"label", "sparse"}, {"choices", yesNo}, {"value", v([&](const auto& x) {
                                                                                   return flag(x.sparse);
                                                                               })}},
                 {{"key", "selector"},
                  {"label", "sparsity selector"},
                  {"value", v([](const auto& x) { return std::to_string(x.sparsitySelector); })}},
                 {{"key", "major_a"},
                  {"label", "A major"},
                  {"choices", {"K", "MN"}},
                  {"value", v([](const auto& x) { return std::string(smem::toString(x.majorA)); })}},
                 {{"key", "major_b"},
                  {"label", "B major"},
                  {"choices", {"K", "MN"}},
                  {"value", v([](const auto& x) { return std::string(smem::toString(x.majorB)); })}},
                 {{"key", "negate_a"},
                  {"label", "negate A"},
                  {"choices", yesNo},
                  {"value", v([&](const auto& x) { return flag(x.negateA); })}},
                 {{"key", "negate_b"},
                  {"label", "negate B"},
                  {"choices", yesNo},
                  {"value", v([&](const auto& x) { return flag(x.negateB); })}},
                 {{"key", "saturate"},
                  {"label", "saturate"},
                  {"choices", yesNo},
                  {"value", v([&](const auto& x) { return flag(x.saturate); })}},
                 {{"key", "max_shift"},
                  {"label", "maximum shift"},
                  {"choices", {"0", "8", "16", "32"}},
                  {"value", v([](const auto& x) { return std::to_string(x.maxShift); })}},
                 {{"key", "sf_a"}, {"label", "A scale factor ID"}, {"value", v([](const auto& x) {
                                                                        return std::to_string(x.scaleFactorA);
                                                                    })}},
                 {{"key", "sf_b"}, {"label", "B scale factor ID"}, {"value", v([](const auto& x) {
                                                                        return std::to_string(x.scaleFactorB);
                                                                    })}},
                 {{"key", "scale"},
                  {"label", "scale type"},
                  {"choices", scales},
                  {"value", v([](const auto& x) { return std::string(tcgen05::toString(x.scaleType)); })}},
                 {{"key", "k96"}, {"label", "K = 96"}, {"choices", yesNo}, {"value", v([&](const auto& x) {
                                                                                return flag(x.k96);
                                                                            })}},
                 {{"key", "cta_group"},
                  {"label", "cta_group"},
                  {"choices", {"any", "1", "2"}},
                  {"value", context.ctaGroup ? std::to_string(*context.ctaGroup) : std::string("any")}},
                 {{"key", "ws"},
                  {"label", ".ws"},
                  {"choices", {"any", "no", "yes"}},
                  {"value", context.ws ? (*context.ws ? "yes" : "no") : "any"}}});
        } else {
            return failure(std::string("unknown descriptor '") + what + "'; valid: wgmma, smem, idesc");
        }
        out["rules"] = std::move(rules);
        return answer(out);
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

// A pasted layout (`text`, over `shape`, compared with `against`, SPEC:OPERAND; either may be empty), read
// and drawn as `lanemap-cli show` and compared as `identify` and `check`: {"spec": "layout", "paste": {what
// was read, "identify", "check"}, "marks": [per panel, the cells that differ], "data": <siteData>}; a text
// that does not read: {"error", "field", "line", "column", "offset", "lineText"}. Without `against`,
// `beside` (a spec) draws that instruction's picture left of the layout ({"error", "field": "beside"} when
// it is not one).
const char* lm_paste(const char* text, const char* shape, const char* against, const char* beside) {
    const std::string_view t = text;
    try {
        const Pasted p = readPasted(t, shape, against);
        g_sides.clear();
        std::vector<Diagram> pictures;
        pictures.push_back(pictureOf(p));
        json paste{{"shared", p.sharedLayout.has_value()}};
        int holes = 0, replicated = 0;
        if (p.layout) {
            const layout_in::Layout& l = *p.layout;
            std::vector<std::uint16_t> owners(
                static_cast<std::size_t>(p.extent.dim0) * p.extent.dim1 * p.extent.products, 0);
            for (const layout_in::Coord& c : p.cells) {
                std::uint16_t& n =
                    owners[(static_cast<std::size_t>(c.product) * p.extent.dim1 + c.d1) * p.extent.dim0 +
                           c.d0];
                n = static_cast<std::uint16_t>(std::min(n + 1, 2));
            }
            for (std::uint16_t n : owners) {
                holes += n == 0;
                replicated += n > 1;
            }
            paste["notation"] = std::string(layout_in::toString(l.notation));
            paste["canonical"] = l.canonical;
            paste["threads"] = l.threads;
            paste["values"] = l.values;
            paste["shape"] = layout_in::toString(p.extent);
            paste["identify"] = identified(l);
        } else {
            const layout_in::SharedLayout& l = *p.sharedLayout;
            paste["notation"] = "CuTe swizzled layout";
            paste["canonical"] = l.canonical;
            paste["shape"] = std::to_string(l.rows) + "x" + std::to_string(l.cols);
            paste["elementBits"] = l.elementBits;
        }
        paste["holes"] = holes;
        paste["replicated"] = replicated;
        std::vector<std::uint8_t> marked(pictures.front().cells.size(), 0);
        std::vector<layout_in::CellDifference> differences;
        if (against[0])
            paste["check"] = checked(p, pictures.front(), marked, differences);
        if (p.against.fragment && p.against.error.empty()) {
            // Compared with a register operand: lanemap's operand on the left (its rows and columns), the
            // layout on the right (the notation's), the differing cells marked on both sides.
            DiagramOptions o;
            o.operands = {p.against.fragment->operand()};
            Diagram left = buildDiagram(*p.against.instruction, o);
            std::vector<std::uint8_t> leftMarked(left.cells.size(), 0);
            for (const DiagramPanel& panel : left.panels) {
                if (panel.kind != PanelKind::Operand)
                    continue;
                std::vector<std::uint8_t> grid(static_cast<std::size_t>(panel.rows) * panel.cols, 0);
                for (const layout_in::CellDifference& d : differences)
                    if (std::max(panel.matrix, 0) == d.at.product && d.row < panel.rows && d.col < panel.cols)
                        grid[static_cast<std::size_t>(d.row) * panel.cols + d.col] = 1;
                for (std::uint32_t i = panel.firstCell; i < panel.firstCell + panel.cellCount; ++i)
                    for (int c = left.cells[i].col; c <= left.cells[i].colLast; ++c)
                        leftMarked[i] |= grid[static_cast<std::size_t>(left.cells[i].row) * panel.cols + c];
            }
            leftMarked.insert(leftMarked.end(), marked.begin(), marked.end());
            marked = std::move(leftMarked);
            g_sides = {left, pictures.front()};
            g_split = left.panels.size();
            pictures.front() = sideBySide(std::move(left), g_sides[1]);
        } else if (beside[0]) {
            // Beside an instruction (the app's pasted pane next to its panes): the instruction's picture on
            // the left, the layout on the right, a lane hovered lit in both; nothing compared.
            std::shared_ptr<const Instruction> in;
            try {
                in = instantiate(readSpec(beside));
            } catch (const std::invalid_argument& e) {
                return answer(json{{"error", e.what()}, {"field", "beside"}});
            }
            Diagram left = siteDiagrams(*in).front();
            marked.insert(marked.begin(), left.cells.size(), 0);
            g_sides = {left, pictures.front()};
            g_split = left.panels.size();
            pictures.front() = sideBySide(std::move(left), g_sides[1]);
            paste["beside"] = in->spec;
        }
        const std::vector<std::vector<std::uint32_t>> marks = marksOf(pictures.front(), marked);
        std::string out =
            "{\"spec\":\"layout\",\"family\":\"\",\"views\":[\"layout\"],"
            "\"takes\":{\"tile\":false,\"access\":false,\"store\":false},\"view\":\"layout\",\"paste\":";
        out += paste.dump(-1, ' ', false, json::error_handler_t::replace);
        out += ",\"marks\":";
        out += json(marks).dump();
        out += ",\"data\":";
        g_cells.clear();
        siteData(out, *p.drawn, pictures, {.header = true, .tooltips = false, .cells = &g_cells});
        g_shown = std::move(pictures);
        out += '}';
        return answer(std::move(out));
    } catch (const PasteFailure& f) {
        return pasteFailure(f, t);
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

// The pasted layout as `lanemap-cli show --format svg|txt|json` writes it: {"document", "extension"}.
const char* lm_paste_export(const char* text, const char* shape, const char* against, const char* format) {
    try {
        const std::string_view f = format;
        if (f != "svg" && f != "txt" && f != "json")
            return failure(std::string("unknown format '") + format +
                           "' for a layout; valid: svg, txt, json");
        const Pasted p = readPasted(text, shape, against);
        std::string document;
        if (f == "svg")
            document = toSvg(pictureOf(p));
        else if (p.sharedLayout)
            return failure(
                "a swizzled layout exports as svg here (lanemap-cli show writes its txt and json)");
        else if (f == "txt")
            document = layout_in::toText(*p.layout, p.extent, p.cells);
        else
            document = layout_in::toJson(*p.layout, p.extent, p.cells);
        return answer(json{{"document", std::move(document)}, {"extension", std::string(f)}});
    } catch (const PasteFailure& f) {
        return failure(f.error.describe());
    } catch (const std::exception& e) {
        return failure(e.what());
    }
}

} // extern "C"
