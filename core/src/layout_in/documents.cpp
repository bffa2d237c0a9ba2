// The documents of a layout read from text (lanemap/layout_in.hpp): its text grid and JSON, what a comparison
// found, and the conformance of a whole file.

#include "lanemap/layout_in.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/family.hpp"
#include "lanemap/spec.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

namespace lanemap::layout_in {

namespace {

// Owners per cell [product][d0][d1].
std::vector<std::vector<Owner>> ownersPerCell(const Layout& l, const Extent& e,
                                              const std::vector<Coord>& cells) {
    std::vector<std::vector<Owner>> owners(static_cast<std::size_t>(e.dim0) *
                                           static_cast<std::size_t>(e.dim1) *
                                           static_cast<std::size_t>(e.products));
    for (int t = 0; t < l.threads; ++t)
        for (int v = 0; v < l.values; ++v) {
            const Coord& c = cells[static_cast<std::size_t>(t) * static_cast<std::size_t>(l.values) +
                                   static_cast<std::size_t>(v)];
            owners[(static_cast<std::size_t>(c.product) * static_cast<std::size_t>(e.dim0) +
                    static_cast<std::size_t>(c.d0)) *
                       static_cast<std::size_t>(e.dim1) +
                   static_cast<std::size_t>(c.d1)]
                .push_back({t, v});
        }
    return owners;
}

std::string axes(const Layout& l, std::optional<Operand> operand) {
    if (!isCute(l.notation))
        return "[dim0, dim1]";
    if (!operand)
        return "(dim0, dim1), column-major";
    return *operand == Operand::A   ? "(M,K), column-major"
           : *operand == Operand::B ? "(N,K), column-major"
                                    : "(M,N), column-major";
}

} // namespace

std::string toText(const Layout& l, const Extent& e, const std::vector<Coord>& cells) {
    const std::vector<std::vector<Owner>> owners = ownersPerCell(l, e, cells);
    int holes = 0, shared = 0;
    for (const std::vector<Owner>& o : owners) {
        holes += o.empty();
        shared += o.size() > 1;
    }
    std::ostringstream out;
    out << "layout (" << toString(l.notation) << "): " << excerpt(l.canonical, 400) << '\n';
    out << "shape " << toString(e) << ' ' << axes(l, l.operand) << "; " << l.threads << " threads x "
        << l.values << (l.values == 1 ? " value" : " values");
    if (!isCute(l.notation))
        out << " (" << l.lanesPerWarp << " lanes x " << l.threads / l.lanesPerWarp << " warps)";
    out << "; "
        << (holes || shared ? std::to_string(holes) + " cells held by no thread, " + std::to_string(shared) +
                                  " by several"
                            : std::string("every cell held once"))
        << '\n';
    out << "rows dim0, columns dim1; a cell: T<thread>:v<value> ('.' none, '/' between several)\n";
    for (int p = 0; p < e.products; ++p) {
        if (e.products > 1)
            out << "product " << p << '\n';
        std::vector<std::string> labels;
        std::size_t width = 1;
        for (int r = 0; r < e.dim0; ++r)
            for (int c = 0; c < e.dim1; ++c) {
                std::string label;
                for (const Owner& o : owners[(static_cast<std::size_t>(p) * static_cast<std::size_t>(e.dim0) +
                                              static_cast<std::size_t>(r)) *
                                                 static_cast<std::size_t>(e.dim1) +
                                             static_cast<std::size_t>(c)])
                    label += (label.empty() ? "T" : "/T") + std::to_string(o.thread) + ":v" +
                             std::to_string(o.value);
                labels.push_back(label.empty() ? "." : label);
                width = std::max(width, labels.back().size());
            }
        width = std::max(width, std::to_string(e.dim1 - 1).size());
        const std::size_t rowLabel = std::to_string(e.dim0 - 1).size();
        std::string line(rowLabel, ' ');
        for (int c = 0; c < e.dim1; ++c)
            line += ' ' + std::string(width - std::to_string(c).size(), ' ') + std::to_string(c);
        out << line << '\n';
        for (int r = 0; r < e.dim0; ++r) {
            line = std::string(rowLabel - std::to_string(r).size(), ' ') + std::to_string(r);
            for (int c = 0; c < e.dim1; ++c) {
                const std::string& cell = labels[static_cast<std::size_t>(r * e.dim1 + c)];
                line += ' ' + std::string(width - cell.size(), ' ') + cell;
            }
            out << line << '\n';
        }
    }
    return out.str();
}

std::string toJson(const Layout& l, const Extent& e, const std::vector<Coord>& cells) {
    std::ostringstream out;
    auto quoted = [](std::string_view s) {
        std::string q = "\"";
        for (char c : s) {
            if (c == '"' || c == '\\')
                q += '\\';
            if (static_cast<unsigned char>(c) < 0x20) {
                q += ' ';
                continue;
            }
            q += c;
        }
        return q + "\"";
    };
    out << "{\n \"notation\": " << quoted(toString(l.notation)) << ",\n \"layout\": " << quoted(l.canonical)
        << ",\n \"shape\": [" << e.dim0 << ", " << e.dim1
        << (e.products > 1 ? ", " + std::to_string(e.products) : "") << "],\n \"threads\": " << l.threads
        << ",\n \"values\": " << l.values;
    if (!isCute(l.notation))
        out << ",\n \"lanes_per_warp\": " << l.lanesPerWarp;
    if (l.operand)
        out << ",\n \"operand\": \"" << toString(*l.operand) << '"';
    out << ",\n \"element\": [\"thread\", \"value\", \"dim0\", \"dim1\""
        << (e.products > 1 ? ", \"product\"" : "") << "],\n \"elements\": [";
    for (std::size_t i = 0; i < cells.size(); ++i) {
        const int t = static_cast<int>(i) / l.values, v = static_cast<int>(i) % l.values;
        out << (i ? ",\n  [" : "\n  [") << t << ", " << v << ", " << cells[i].d0 << ", " << cells[i].d1
            << (e.products > 1 ? ", " + std::to_string(cells[i].product) : "") << ']';
    }
    out << "\n ]\n}\n";
    return out.str();
}

std::string describe(const Comparison& c, const Layout& l, const Instruction& in, const FragmentLayout& op,
                     std::size_t lines) {
    std::ostringstream out;
    const std::string name = in.spec + " " + std::string(op.name());
    if (!c.expressible)
        return name + " cannot be written as a " + std::string(toString(l.notation)) + " layout: " + c.why +
               "\n";
    if (!c.sameShape)
        return "differs: " + c.why + "\n";
    if (c.equal())
        return "equal: every one of the " + std::to_string(c.cells) + " cells of " + name +
               " is held by the same (thread, value)\n";
    out << "differs in " << c.differing << " of " << c.cells << " cells";
    if (c.sameThreads)
        out << " (" << c.sameThreads << " of them held by the same threads under other value numbers)";
    out << "; the first " << std::min(lines, c.first.size()) << ":\n";
    const Extent e = extentOf(op, l.notation);
    const char letter = static_cast<char>(std::tolower(static_cast<unsigned char>(op.name()[0])));
    auto owners = [&](const std::vector<Owner>& list) {
        if (list.empty())
            return std::string("nobody");
        std::string s;
        for (const Owner& o : list)
            s += (s.empty() ? "" : ", ") + describeOwner(o, l, letter);
        return s;
    };
    for (std::size_t i = 0; i < c.first.size() && i < lines; ++i) {
        const CellDifference& d = c.first[i];
        out << "  " << describeCell(d.at, l, e, op.operand()) << ", lanemap " << op.name() << "(" << d.row
            << "," << d.col << ")" << (e.products > 1 ? " product " + std::to_string(d.at.product) : "")
            << ": layout " << owners(d.layout) << "; " << name << ' ' << owners(d.operand) << '\n';
    }
    return out.str();
}

// ---- conformance ------------------------------------------------------------------------------------

const FragmentLayout* accumulatorOr(const Instruction& in, Operand operand) {
    if (const FragmentLayout* op = in.operand(operand))
        return op;
    // wgmma has one accumulator fragment, D, which is also its C: CUTLASS's CLayout.
    if (operand == Operand::C || operand == Operand::D)
        return in.operand(operand == Operand::C ? Operand::D : Operand::C);
    return nullptr;
}

std::string_view toString(Conformance c) {
    switch (c) {
    case Conformance::Equal:
        return "equal";
    case Conformance::Differs:
        return "differs";
    case Conformance::NotLinear:
        return "not linear";
    case Conformance::Unknown:
        return "unknown";
    }
    return "?";
}

namespace {

// A warp-level atom's name without its architecture: CUTLASS spells one PTX instruction under several
// (SM75_16x8x8_... and SM80_16x8x8_... are mma.m16n8k8; SM90_16x8x4_F64... aliases SM90::MMA_16x8x4_F64...).
// "" for a warpgroup atom, whose prefix is part of its name.
std::string withoutArchitecture(std::string_view atom) {
    if (atom.find("GMMA") != std::string_view::npos || atom.size() < 5 || atom.substr(0, 2) != "SM")
        return {};
    std::size_t at = 2;
    while (at < atom.size() && std::isdigit(static_cast<unsigned char>(atom[at])))
        ++at;
    if (atom.substr(at, 6) == "::MMA_")
        return std::string(atom.substr(at + 6));
    return atom.substr(at, 1) == "_" ? std::string(atom.substr(at + 1)) : std::string();
}

// The instruction a claim names: a spec (or PTX string) of the catalog, or a CUTLASS atom name as lanemap's
// --format cute gives it for any form of a variant (template arguments and cute:: ignored; warp-level atoms
// under any architecture prefix).
const Instruction* claimed(const std::string& name) {
    const Catalog& catalog = Catalog::instance();
    if (const ParsedSpec parsed = parseSpec(name, catalog); parsed)
        return &catalog.instruction(*parsed.variant);
    std::string atom = name.substr(0, name.find('<'));
    if (atom.rfind("cute::", 0) == 0)
        atom = atom.substr(6);
    struct Names {
        std::map<std::string, const Instruction*> exact, anyArchitecture;
    };
    static const Names names = [] {
        Names n;
        for (const Variant* v : Catalog::instance().variants()) {
            const Instruction& in = Catalog::instance().instruction(*v);
            if (!in.family || !in.family->cutlassAtom)
                continue;
            // Every form has the variant's layout: each is named with its own types (an e5m2 x e4m3 form
            // is CUTLASS's SM89_16x8x32_F32E5M2E4M3F32_TN).
            for (std::size_t f = 0; f < in.forms.size(); ++f) {
                Instruction form = in;
                std::vector<Form>& forms = form.forms.edit();
                std::rotate(forms.begin(), forms.begin() + static_cast<long>(f), forms.end());
                if (const std::string a = in.family->cutlassAtom(form); !a.empty()) {
                    n.exact.emplace(a, &in); // the first (canonical) variant of a name
                    if (const std::string key = withoutArchitecture(a); !key.empty())
                        n.anyArchitecture.emplace(key, &in);
                }
            }
        }
        return n;
    }();
    if (const auto it = names.exact.find(atom); it != names.exact.end())
        return it->second;
    if (const std::string key = withoutArchitecture(atom); !key.empty())
        if (const auto it = names.anyArchitecture.find(key); it != names.anyArchitecture.end())
            return it->second;
    return nullptr;
}

// A conform line whose layout is a shared-memory one (CuTe swizzled, a Triton shared encoding): compared
// with the claimed instruction's shared-memory operand under every descriptor choice, equal when one
// choice places every element at the same byte. False with `error` (", column N: ..." after the line
// number) when the layout does not read.
bool conformShared(ConformLine& c, std::string_view text, std::size_t column, std::string& error) {
    c.shared = true;
    if (!c.instruction) {
        c.detail = "no catalog instruction or CUTLASS atom named '" + excerpt(c.atom, 80) + "'";
        return true;
    }
    const Instruction& in = *c.instruction;
    Placement own;
    std::string why;
    if (!in.family || !in.family->sharedOperand ||
        !in.family->sharedOperand(in, c.operand, smem::Choice{}, 0, 0, own, why) || !own.shared()) {
        c.detail = in.spec + " reads no shared-memory operand " + std::string(toString(c.operand)) +
                   " through a descriptor (wgmma and tcgen05.mma read A and B)";
        return true;
    }
    SharedReadOptions options;
    options.elementBits = own.shared()->layout.elementBits();
    options.shapeOf = Extent{own.rows(), own.cols(), 1}; // the operand's grid: A M x K, B K x N, as Triton's
    std::variant<SharedLayout, ReadError> read = readShared(text, options);
    if (const ReadError* e = std::get_if<ReadError>(&read)) {
        error = e->offset == std::string_view::npos
                    ? ": " + e->message
                    : ", column " + std::to_string(column + e->offset + 1) + ": " + e->message;
        return false;
    }
    const SharedLayout& l = std::get<SharedLayout>(read);
    const std::optional<SharedMatch> best = bestChoice(l, in, c.operand, why);
    if (!best) {
        c.verdict = Conformance::Differs;
        c.detail = "differs: " + why + "\n";
        return true;
    }
    const SharedComparison& cmp = best->comparison;
    const std::string choice = std::string(smem::toString(best->choice.major)) + "-major, " +
                               std::string(smem::toString(best->choice.swizzle)) + " swizzle";
    if (cmp.equal()) {
        c.verdict = Conformance::Equal;
        return true;
    }
    c.verdict = Conformance::Differs;
    std::ostringstream d;
    d << "differs in shared memory: " << cmp.differing << " of " << cmp.cells
      << " elements at other bytes under the nearest choice (" << choice << "); the first:\n";
    for (std::size_t i = 0; i < cmp.first.size() && i < 4; ++i) {
        const ByteDifference& b = cmp.first[i];
        d << "  " << describeSharedCell(l, c.operand, b.mn, b.k) << ": layout byte " << b.layout
          << "; lanemap " << toString(c.operand) << " byte " << b.operand << '\n';
    }
    c.detail = d.str();
    return true;
}

} // namespace

std::optional<std::vector<ConformLine>> conform(std::string_view text, std::string& error) {
    std::vector<ConformLine> out;
    std::map<std::string, std::vector<int>> threadMaps; // ATOM:ThrID lines, by atom
    int number = 0;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++number;
        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#')
            continue;
        const std::size_t claimEnd = std::min(line.find_first_of(" \t", first), line.size());
        ConformLine c;
        c.line = number;
        c.claim = std::string(line.substr(first, claimEnd - first));
        const std::size_t colon = c.claim.rfind(':');
        if (colon != std::string::npos && c.claim.substr(colon + 1) == "ThrID") {
            const std::optional<std::vector<int>> lanes = readThreadMap(line.substr(claimEnd), error);
            if (!lanes) {
                error = "line " + std::to_string(number) + ": " + error;
                return std::nullopt;
            }
            threadMaps[c.claim.substr(0, colon)] = *lanes;
            continue;
        }
        const std::optional<Operand> operand =
            colon == std::string::npos || colon == 0 ? std::nullopt : parseOperand(c.claim.substr(colon + 1));
        if (!operand || *operand == Operand::Metadata) {
            error = "line " + std::to_string(number) + ", column " + std::to_string(first + 1) +
                    ": expected INSTRUCTION:OPERAND (A, B, C or D) then the layout, found '" +
                    excerpt(c.claim, 60) + "'";
            return std::nullopt;
        }
        c.operand = *operand;
        c.atom = c.claim.substr(0, colon);
        const std::string_view layoutText = line.substr(claimEnd);
        if (layoutText.find_first_not_of(" \t\r") == std::string_view::npos) {
            error = "line " + std::to_string(number) + ", column " + std::to_string(line.size() + 1) +
                    ": expected a layout after '" + excerpt(c.claim, 60) + "'";
            return std::nullopt;
        }
        c.instruction = claimed(c.atom);
        if (isSharedLayout(layoutText)) { // a shared-memory layout: byte for byte with the operand's
            if (!conformShared(c, layoutText, claimEnd, error)) {
                error = "line " + std::to_string(number) + error;
                return std::nullopt;
            }
            out.push_back(std::move(c));
            continue;
        }
        const FragmentLayout* claimedOp = c.instruction ? accumulatorOr(*c.instruction, c.operand) : nullptr;
        ReadOptions options;
        options.operand = c.operand;
        if (claimedOp) // a Triton encoding (#ttg.dot_op, nvidia_mma, blocked) over the operand's shape
            options.shapeOf = extentOf(*claimedOp, Notation::TritonLinear);
        std::variant<Layout, ReadError> read = layout_in::read(layoutText, options);
        if (const ReadError* e = std::get_if<ReadError>(&read)) {
            error = "line " + std::to_string(number) +
                    (e->offset == std::string_view::npos
                         ? ": " + e->message
                         : ", column " + std::to_string(claimEnd + e->offset + 1) + ": " + e->message);
            return std::nullopt;
        }
        const Layout& l = std::get<Layout>(read);
        const FragmentLayout* op = claimedOp;
        if (!c.instruction)
            c.detail = "no catalog instruction or CUTLASS atom named '" + excerpt(c.atom, 80) + "'";
        else if (!op)
            c.detail =
                c.instruction->spec + " has no register operand " + std::string(toString(c.operand)) +
                (c.instruction->placement(Space::SharedMemory, c.operand) ? " (it is in shared memory)" : "");
        else {
            std::optional<FragmentLayout> mapped;
            if (const auto map = threadMaps.find(c.atom); map != threadMaps.end()) {
                c.threadMap = map->second;
                std::string why;
                mapped = throughThreadMap(*op, c.threadMap, why);
                if (!mapped) {
                    error = "line " + std::to_string(number) + ": " + c.atom + ":ThrID does not fit " +
                            c.instruction->spec + " " + std::string(op->name()) + ": " + why;
                    return std::nullopt;
                }
                op = &*mapped;
            }
            const Comparison cmp = compare(l, *op, 4);
            c.verdict = cmp.equal()        ? Conformance::Equal
                        : !cmp.expressible ? Conformance::NotLinear
                                           : Conformance::Differs;
            if (!cmp.equal())
                c.detail = describe(cmp, l, *c.instruction, *op, 4);
            if (mapped) { // say what was compared: the lanes of the thread map, their one product
                std::string lanes;
                for (int lane : c.threadMap)
                    lanes += (lanes.empty() ? "" : ",") + std::to_string(lane);
                c.detail = "through ThrID (CuTe threads are lanes " + lanes +
                           ", one product): " + (c.detail.empty() ? "equal\n" : c.detail);
            }
        }
        out.push_back(std::move(c));
    }
    return out;
}

std::string conformMatrix(const std::vector<ConformLine>& lines) {
    std::vector<std::string> rows;
    std::map<std::string, std::map<char, std::vector<Conformance>>> perCell;
    std::map<Conformance, int> totals;
    std::size_t width = 5;
    for (const ConformLine& c : lines) {
        if (!perCell.count(c.atom))
            rows.push_back(c.atom);
        perCell[c.atom][toString(c.operand)[0]].push_back(c.verdict);
        ++totals[c.verdict];
        width = std::max(width, c.atom.size());
    }
    // A cell: its verdicts in line order ("equal/differs"), or counted where a claim has more than two lines
    // (a shared-memory operand in several encodings: "10 equal, 2 differs").
    std::map<std::string, std::map<char, std::string>> cells;
    for (const auto& [row, byOperand] : perCell)
        for (const auto& [operand, list] : byOperand) {
            std::string& cell = cells[row][operand];
            if (list.size() <= 2) {
                for (Conformance v : list)
                    cell += (cell.empty() ? "" : "/") + std::string(toString(v));
                continue;
            }
            for (Conformance v :
                 {Conformance::Equal, Conformance::Differs, Conformance::NotLinear, Conformance::Unknown})
                if (const auto n = std::count(list.begin(), list.end(), v))
                    cell += (cell.empty() ? "" : ", ") + std::to_string(n) + " " + std::string(toString(v));
        }
    std::ostringstream out;
    auto pad = [](std::string s, std::size_t n) {
        return s + std::string(n > s.size() ? n - s.size() : 1, ' ');
    };
    // A column as wide as its widest verdict ("differs/differs" where a claim has two lines), 12 at least.
    std::size_t column = 12;
    for (const auto& [row, verdicts] : cells)
        for (const auto& [operand, verdict] : verdicts)
            column = std::max(column, verdict.size() + 1);
    out << pad("claim", width + 2) << pad("A", column) << pad("B", column) << pad("C", column) << "D\n";
    for (const std::string& r : rows) {
        std::string line = pad(r, width + 2);
        for (char o : {'A', 'B', 'C', 'D'}) {
            const auto it = cells[r].find(o);
            line += pad(it == cells[r].end() ? "-" : it->second, column);
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << '\n';
    }
    out << '\n'
        << lines.size() << (lines.size() == 1 ? " layout: " : " layouts: ") << totals[Conformance::Equal]
        << " equal, " << totals[Conformance::Differs] << " differ, " << totals[Conformance::NotLinear]
        << " not linear, " << totals[Conformance::Unknown] << " unknown\n";
    const auto mapped =
        std::count_if(lines.begin(), lines.end(), [](const ConformLine& c) { return !c.threadMap.empty(); });
    if (mapped)
        out << mapped
            << " of them compared through their atom's ThrID: the lanes it names, the one product they "
               "hold\n";
    for (const ConformLine& c : lines)
        if (c.verdict != Conformance::Equal)
            out << "\nline " << c.line << ", " << c.claim << ": " << toString(c.verdict) << "\n  " << c.detail
                << (c.detail.empty() || c.detail.back() == '\n' ? "" : "\n");
    return out.str();
}

} // namespace lanemap::layout_in
