// cp.async.bulk.tensor as a family (docs/tma.md): one catalog entry per rank, the spec grammar (the opcode,
// then the tensor map's words or the PTX operands), the parameters (a TensorMap in Params::family, the
// swizzle in Params::smem) and the placements they make: the box in shared memory and the same box in global
// memory, cell by cell (a fill element is a hole of the global placement).
#include "families/tma/tma.hpp"

#include "families/params_check.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/model.hpp"
#include "lanemap/spec.hpp"

#include <algorithm>
#include <cctype>

namespace lanemap {

namespace family {
extern const Family kTma;
}

namespace tma {

namespace {

constexpr std::string_view kOpcode = "cp.async.bulk.tensor";
constexpr std::string_view kPtxTail = ".shared::cluster.global.tile.mbarrier::complete_tx::bytes";

std::string specOf(int rank) {
    return std::string(kOpcode) + "." + std::to_string(rank) + "d";
}

void registerTma(Catalog& catalog) {
    for (int rank = 1; rank <= kMaxRank; ++rank) {
        Variant v;
        v.spec = specOf(rank);
        if (!catalog.wants(v.spec))
            continue;
        v.ptx = v.spec + std::string(kPtxTail);
        v.family = &family::kTma;
        v.scope = Scope::Warp;
        v.threads = 1; // one thread issues the copy
        v.atype = v.btype = v.ctype = v.dtype = ElementType::F16;
        v.minSm = 90;
        v.section = "9.7.9.25";
        v.anchor = "data-movement-and-conversion-instructions-cp-async-bulk-tensor";
        v.forms = {Form{v.atype, v.btype}};
        v.notes.emplace_back("the tensor map and the load's coordinates are parameters: " +
                             specText(defaultMap(rank)) + " (docs/tma.md)");
        v.facts = rank;
        catalog.add(std::move(v), [](Instruction&) {});
    }
}

int rankOf(const Variant& v) {
    const int* rank = std::any_cast<int>(&v.facts);
    return rank ? *rank : 2;
}

bool claimsTma(std::string_view opcode) {
    return opcode.substr(0, kOpcode.size()) == kOpcode;
}

// The PTX qualifiers a tiled load may carry; none changes where the box lands in one CTA's shared memory
// (multicast writes the same box to several CTAs).
constexpr std::string_view kQualifiers[] = {
    "shared::cluster",    "shared::cta",    "global",       "tile",        "mbarrier::complete_tx::bytes",
    "multicast::cluster", "l2::cache_hint", "cta_group::1", "cta_group::2"};

ParsedSpec parseTmaSpec(std::string_view text, const std::string& input, const Catalog& catalog) {
    ParsedSpec result;
    auto fail = [&](const std::string& why) {
        result.error = "invalid spec '" + excerpt(text) + "': " + why;
        result.variant = nullptr;
        return result;
    };
    // `input` is the opcode alone; the words and operands after it are in `text`.
    std::string full(text);
    for (char& ch : full)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const std::size_t lead = full.find_first_not_of(" \t\r\n");
    full = lead == std::string::npos ? std::string() : full.substr(lead);
    const std::size_t blank = full.find_first_of(" \t\r\n[");
    const std::string opcode = input;
    std::string rest = blank == std::string::npos ? std::string() : full.substr(blank);
    for (char& ch : rest)
        if (ch == '\r' || ch == '\n')
            ch = ' ';
    int rank = 0;
    std::size_t start = kOpcode.size();
    while (start < opcode.size()) {
        if (opcode[start] != '.')
            return fail("expected '.' after " + opcode.substr(0, start));
        std::size_t end = start + 1;
        // A qualifier may hold "::" (shared::cluster); components end at a single '.'.
        while (end < opcode.size() && opcode[end] != '.')
            ++end;
        const std::string part = opcode.substr(start + 1, end - start - 1);
        start = end;
        if (part.size() == 2 && part[1] == 'd' && part[0] >= '1' && part[0] <= '5') {
            if (rank != 0)
                return fail("two ranks given");
            rank = part[0] - '0';
        } else if (part == "im2col" || part.rfind("im2col", 0) == 0) {
            return fail("the im2col mode is not modelled; lanemap draws the tiled mode (.tile)");
        } else if (std::find(std::begin(kQualifiers), std::end(kQualifiers), part) == std::end(kQualifiers)) {
            return fail(
                "unknown component '." + excerpt(part, 32) +
                "' (valid: a rank .1d to .5d, then PTX qualifiers such as .shared::cluster.global.tile."
                "mbarrier::complete_tx::bytes)");
        }
    }
    if (rank == 0) { // a pasted map names its rank
        if (const std::size_t at = rest.find("tensormap"); at != std::string::npos) {
            std::string value = rest.substr(at + 9);
            value = value.substr(value.find_first_not_of(" =\t") == std::string::npos
                                     ? value.size()
                                     : value.find_first_not_of(" =\t"));
            value = value.substr(0, value.find_first_of(" \t"));
            std::string error;
            const std::optional<std::array<std::uint8_t, 128>> bytes = parseTensorMapHex(value, error);
            std::optional<DecodedMap> decoded;
            if (bytes)
                decoded = decodeTensorMap(*bytes, error);
            if (!decoded)
                return fail("tensormap: " + error);
            rank = decoded->map.rank;
        }
    }
    if (rank == 0)
        return fail("no rank given: write " + std::string(kOpcode) + ".1d to .5d (or paste tensormap=HEX)");
    TensorMap map;
    std::optional<smem::Swizzle> swizzle;
    // PTX operands: [dst], [tensorMap, {c0, c1, ...}], [mbar]; the coordinates are innermost first.
    std::string words = rest;
    if (const std::size_t brace = rest.find('{'); rest.find('[') != std::string::npos) {
        const std::size_t close = rest.find('}');
        if (brace == std::string::npos || close == std::string::npos || close < brace)
            return fail("PTX operands without the coordinate vector {c0, c1, ...}");
        std::string list = rest.substr(brace + 1, close - brace - 1);
        std::erase_if(list, [](char ch) { return ch == ' ' || ch == '\t'; });
        std::vector<std::string> coords;
        for (std::size_t s = 0;;) {
            const std::size_t comma = list.find(',', s);
            coords.push_back(list.substr(s, comma == std::string::npos ? std::string::npos : comma - s));
            if (comma == std::string::npos)
                break;
            s = comma + 1;
        }
        std::reverse(coords.begin(), coords.end()); // the grammar lists outermost first
        std::string origin;
        for (const std::string& c : coords)
            origin += (origin.empty() ? "" : ",") + c;
        words = "origin=" + origin;
        // Words after the operands' ';' are the map's.
        if (const std::size_t semi = rest.find(';', close); semi != std::string::npos)
            words += " " + rest.substr(semi + 1);
    }
    if (std::string why = parseWords(words, rank, map, swizzle); !why.empty())
        return fail(why);
    const Variant* v = catalog.variant(specOf(rank));
    if (!v)
        return fail("no catalog entry " + specOf(rank));
    result.variant = v;
    result.form = v->forms.front();
    result.ptx = v->ptx;
    map.swizzle = smem::Swizzle::None; // the swizzle is Params::smem's
    if (map != defaultMap(rank))
        result.params.family = FamilyParams::of(map);
    if (swizzle && *swizzle != smem::Swizzle::None)
        result.params.smem = smem::Choice{smem::Major::K, *swizzle};
    return result;
}

} // namespace

TensorMap mapOf(const Instruction& in) {
    TensorMap map = tensorMapOf(in.params) ? *tensorMapOf(in.params) : defaultMap(rankOf(in));
    map.swizzle = in.params.smem ? in.params.smem->swizzle : smem::Swizzle::None;
    return map;
}

namespace {

std::string validateTma(const Instruction& entry, const Params& p) {
    if (std::string why =
            family::refuseOthers(entry, p, family::TakesSharedMemory | family::TakesFamilyParams);
        !why.empty())
        return why;
    if (p.family && !tensorMapOf(p))
        return "parameters of another family's own grammar do not apply to " + entry.spec;
    if (p.smem && p.smem->major != smem::Major::K)
        return "a TMA box is written innermost dimension first: it has no major-ness to choose (--major "
               "applies "
               "to wgmma)";
    Instruction probe = entry;
    probe.params = p;
    const TensorMap map = mapOf(probe);
    if (map.rank != rankOf(entry))
        return "the map has rank " + std::to_string(map.rank) + " but " + entry.spec + " loads rank " +
               std::to_string(rankOf(entry));
    if (std::string why = checkEncoding(map); !why.empty())
        return "cuTensorMapEncodeTiled refuses this map: " + why;
    if (std::string why = checkLoad(map); !why.empty())
        return why;
    if (std::string why = checkMulticast(map); !why.empty())
        return why;
    if (map.footprintBytes() * map.loads() > 227 * 1024)
        return (map.loads() > 1 ? "the " + std::to_string(map.loads()) + " boxes of the split span "
                                : std::string("the box spans ")) +
               std::to_string(map.footprintBytes() * map.loads()) +
               " bytes of shared memory; a CTA has at most 227 KiB (232,448 bytes)";
    return {};
}

void instantiateTma(Instruction& in) {
    const TensorMap map = mapOf(in);
    const int rows = gridRows(map), cols = gridCols(map);
    const int bits = map.elementBytes() * 8;
    const auto cellCount = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    // A multicast writes each element into every CTA of the mask, at the same offset; a split's load t is
    // issued by the t-th CTA of the mask, one box further along the outermost dimension and one footprint
    // further in shared memory (docs/tma.md#multicast).
    const std::vector<int> receivers = map.ctaMask ? map.receivers() : std::vector<int>{0};
    Placement::Cells shared(cellCount, cellCount * receivers.size()), global(cellCount, cellCount);
    const auto outer = static_cast<std::size_t>(map.rank - 1);
    for (int load = 0; load < map.loads(); ++load) {
        TensorMap slice = map;
        slice.origin[outer] += static_cast<std::int64_t>(load) * map.box[outer];
        const auto base = static_cast<std::uint32_t>(load * map.footprintBytes());
        BoxWalk walk(slice, base);
        for (BoxElement e; walk.next(e);) { // shared-memory order = the grid's row-major
            for (const int cta : receivers)
                shared.add({SmemByte{e.smemOffset, 0, bits, cta}, Source::Doc});
            if (!e.fill) {
                GlobalElement g;
                g.offset = e.globalOffset;
                g.bits = bits;
                for (std::size_t d = 0; d < g.coord.size(); ++d) // in the tensor: [0, 2^32)
                    g.coord[d] = static_cast<std::uint32_t>(e.coord[d]);
                g.rank = map.rank;
                g.cta = map.split ? receivers[static_cast<std::size_t>(load)] : 0;
                global.add({g, Source::Doc});
            }
            shared.next();
            global.next();
        }
    }
    in.atype = in.btype = in.ctype = in.dtype = map.type;
    Presentation words;
    words.rowAxis = map.rank == 2 ? "box row" : "box row (outer dimensions, dimension 1 fastest)";
    words.colAxis = "box column (innermost)";
    words.extentTitle = "box " + std::to_string(rows) + " \u00d7 " + std::to_string(cols) + " ." +
                        std::string(toString(map.type)) + ", " + std::string(smem::toString(map.swizzle)) +
                        " swizzle";
    // A split's mbarrier counts every box it receives: said with the multicast below.
    words.extentFact = specText(map) + "; " + std::to_string(map.boxBytes()) +
                       (map.loads() > 1 ? " bytes loaded per box, each into "
                                        : " bytes loaded (the mbarrier's transaction count) into ") +
                       std::to_string(map.footprintBytes()) + " bytes of shared memory";
    if (map.swizzle == smem::Swizzle::B128Atom32) // docs/tma.md#legality-study, finding 3
        words.extentFact +=
            "; 128B-32B is an sm_100 mode: cuTensorMapEncodeTiled refuses it on sm_90 (an H200 "
            "answered CUDA_ERROR_INVALID_VALUE), and this placement is not confirmed on hardware";
    if (map.ctaMask != 0) {
        std::string ctas;
        for (const int r : receivers)
            ctas += (ctas.empty() ? "" : ", ") + std::to_string(r);
        const int n = static_cast<int>(receivers.size());
        words.extentFact += "; multicast to CTA" + std::string(n == 1 ? " " : "s ") + ctas + " of a " +
                            std::to_string(map.clusterCtas()) + "-CTA cluster";
        if (map.split)
            words.extentFact += ": each of them loads one box (CTA " + std::to_string(receivers.front()) +
                                " the first, rows 0.." + std::to_string(rows / n - 1) +
                                ") and every one receives all " + std::to_string(n) + " (" +
                                std::to_string(map.boxBytes() * n) +
                                " bytes, its mbarrier's transaction count)";
        else
            words.extentFact += ": each receives the whole box at the same offset (its mbarrier counts " +
                                std::to_string(map.boxBytes()) + " bytes)";
        if (receivers.size() < static_cast<std::size_t>(map.clusterCtas()))
            words.extentFact += "; the cluster's other CTAs receive nothing";
    }
    Placement s = Placement::table(OperandSet{Operand::D}, Space::SharedMemory, map.type, rows, cols,
                                   std::move(shared));
    s.setClusterCtas(map.clusterCtas());
    s.setPresentation(words);
    Placement g =
        Placement::table(OperandSet{Operand::D}, Space::Global, map.type, rows, cols, std::move(global));
    g.setClusterCtas(map.split ? map.clusterCtas() : 1);
    g.setPresentation(std::move(words));
    in.placements.reserve(in.placements.size() + 2);
    in.placements.push_back(std::move(s));
    in.placements.push_back(std::move(g));
}

} // namespace

} // namespace tma

namespace family {

const Family kTma{.name = "cp.async.bulk.tensor",
                  .registerTable = tma::registerTma,
                  .ptx = [](const Variant& v, const Form&) { return v.ptx; },
                  .shape = [](const Variant& v) { return std::to_string(tma::rankOf(v)) + "d"; },
                  .claims = tma::claimsTma,
                  .parse = tma::parseTmaSpec,
                  .validate = tma::validateTma,
                  .instantiate = tma::instantiateTma,
                  .words = [](const Instruction& in) { return tma::wordsOf(tma::mapOf(in)); }};

} // namespace family

} // namespace lanemap
