// What a probe run settled, in words: a summary, the sub-register positions the run can and cannot see, and
// what the run says about each erratum the variant carries (errata.cpp).
#include "interpret_detail.hpp"
#include "shared/errata.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace lanemap::gpu::detail {

namespace {

struct Counts {
    std::map<Operand, int> bad;
    int total = 0;
};

Counts countBad(const ProbeResult& r) {
    Counts c;
    std::set<std::pair<Operand, std::tuple<int, int, int, int, int>>> seen;
    for (const ProbeMismatch& m : r.mismatches)
        if (seen.insert({m.operand, {m.matrix, m.row, m.col, m.thread, m.index}}).second)
            ++c.bad[m.operand];
    return c;
}

std::string subRegisterFinding(const FragmentLayout& op, const char* name, bool clean, const char* anchor) {
    if (op.elementsPerRegister() < 2 || !clean)
        return "";
    const int w = op.containerBits();
    const int pad = op.elements()[0].bit % w; // e2m1 sits in the middle of its 8-bit container
    std::ostringstream s;
    if (op.elementBits() == 1) {
        s << name << " sub-register positions: element " << name[0] << "i is bit (i % "
          << op.elementsPerRegister() << ") of its register (" << anchor << ")";
        return s.str();
    }
    s << name << " sub-register positions: element " << name[0] << "i sits in bits [" << w << "*(i % "
      << op.elementsPerRegister() << ") + " << (pad + op.elementBits() - 1) << " : " << w << "*(i % "
      << op.elementsPerRegister() << ")" << (pad ? " + " + std::to_string(pad) : "")
      << "] of its register, low element first";
    s << " (" << anchor << ")";
    return s.str();
}

// Where the hardware reads metadata, in the manual's terms: for quad 0 (lanes 0..3, rows 0 and 8), which lane
// and bits index which row and columns, and whether every quad g repeats it at lanes 4g.., rows g and g+8.
std::string observedMetadataMap(const Instruction& in, const ObservedMapping& obs, std::size_t form) {
    const FragmentLayout& a = *in.operand(Operand::A);
    const int chunk = in.metadata->chunkCols;
    std::map<std::pair<int, int>, std::pair<int, std::pair<int, int>>>
        map; // (lane, nibble) -> (row, [first, last])
    bool everyQuad = true;
    std::map<std::pair<int, int>, std::pair<int, int>>
        relative; // (lane - 4g, nibble) -> (row - g, chunk first)
    for (std::size_t e = 0; e < a.elements().size(); ++e) {
        const ObservedField& f = obs.metadata[form][e];
        const ObservedElement& o = obs.a[form][e];
        if (f.thread < 0 || o.row < 0 || o.col < 0)
            continue;
        const int g = a.elements()[e].thread / 4 % 8;
        const int first = o.col / chunk * chunk;
        const auto key = std::make_pair(f.thread - 4 * g, f.nibble);
        const auto val = std::make_pair(o.row - g, first);
        auto [it, fresh] = relative.emplace(key, val);
        if (!fresh && it->second != val)
            everyQuad = false;
        if (g != 0)
            continue;
        const auto [at, added] = map.emplace(std::make_pair(f.thread, f.nibble),
                                             std::make_pair(o.row, std::make_pair(first, first + chunk - 1)));
        if (!added) {
            at->second.second.first = std::min(at->second.second.first, first);
            at->second.second.second = std::max(at->second.second.second, first + chunk - 1);
        }
    }
    // Runs of consecutive nibbles of one lane that index consecutive columns of one row read as one range.
    struct Run {
        int lane, nibbleLo, nibbleHi, row, colLo, colHi;
    };
    std::vector<Run> runs;
    for (const auto& [key, val] : map) {
        if (!runs.empty()) {
            Run& r = runs.back();
            if (r.lane == key.first && r.nibbleHi + 1 == key.second && r.row == val.first &&
                r.colHi + 1 == val.second.first) {
                r.nibbleHi = key.second;
                r.colHi = val.second.second;
                continue;
            }
        }
        runs.push_back({key.first, key.second, key.second, val.first, val.second.first, val.second.second});
    }
    std::ostringstream s;
    for (std::size_t i = 0; i < runs.size(); ++i)
        s << (i ? "; " : "") << "lane " << runs[i].lane << " bits [" << 4 * runs[i].nibbleHi + 3 << ":"
          << 4 * runs[i].nibbleLo << "] -> row " << runs[i].row << " cols " << runs[i].colLo << ".."
          << runs[i].colHi;
    s << (everyQuad ? " (every quad g repeats this at lanes 4g.., rows g and g+8)" : " (quads differ)");
    return s.str();
}

// For an unresolved mapping: how many A elements each candidate reading places where the hardware read them.
std::vector<std::string> metadataFindings(const ProbePlan& plan, const ObservedMapping& obs) {
    const Instruction& in = *plan.instruction;
    const FragmentLayout& a = *in.operand(Operand::A);
    const MetadataLayout& md = *in.metadata;
    std::vector<std::string> out;
    for (std::size_t form = 0; form < plan.forms.size(); ++form) {
        const int selector = plan.forms[form].selector;
        // Only the first base form of each selector: the aliases (mixed types) read metadata the same way.
        if (form >= md.selectors.size())
            break;
        auto matches = [&](const std::vector<MetadataSelector>& selectors) {
            int n = 0, total = 0;
            const MetadataSelector* sel = nullptr;
            for (const MetadataSelector& s : selectors)
                if (s.value == selector)
                    sel = &s;
            for (std::size_t e = 0; e < a.elements().size(); ++e) {
                const ObservedField& f = obs.metadata[form][e];
                const ObservedElement& o = obs.a[form][e];
                ++total;
                if (!sel || f.thread < 0 || o.row < 0 || o.col < 0)
                    continue;
                for (const MetadataField& mf : sel->fields)
                    if (mf.row == o.row && mf.colFirst <= o.col && o.col <= mf.colLast &&
                        mf.thread == f.thread && mf.bitLo / 4 == f.nibble)
                        ++n;
            }
            return std::make_pair(n, total);
        };
        std::ostringstream s;
        s << "metadata, selector " << selector << ": ";
        if (md.candidates.empty()) {
            const auto [n, total] = matches(md.selectors);
            s << (n == total ? "confirmed" : "disagrees") << ": the hardware reads " << n << " of " << total
              << " A elements' indices from the lane and bits lanemap draws; observed: "
              << observedMetadataMap(in, obs, form);
        } else {
            std::string winner;
            std::ostringstream tally;
            for (const MetadataCandidate& c : md.candidates) {
                const auto [n, total] = matches(c.selectors);
                if (n == total)
                    winner = c.name;
                tally << (tally.tellp() > 0 ? ", " : "") << "'" << c.name << "' " << n << " of " << total;
            }
            s << (winner.empty() ? "UNRESOLVED: no candidate matches the hardware"
                                 : "resolved: the hardware reads candidate '" + winner + "'")
              << " (" << tally.str() << " A elements); observed: " << observedMetadataMap(in, obs, form);
        }
        out.push_back(s.str());
    }
    return out;
}

// Placements the engine marks inferred or figure-only, now seen on hardware.
std::vector<std::string> sourceFindings(const Instruction& in, const Counts& bad) {
    std::vector<std::string> out;
    for (const Operand name : {Operand::A, Operand::B, Operand::C, Operand::D}) {
        const FragmentLayout& op = *in.operand(name);
        int inferred = 0, figure = 0;
        for (const Element& e : op.elements()) {
            inferred += e.source == Source::Inferred;
            figure += e.source == Source::Figure;
        }
        if (!inferred && !figure)
            continue;
        std::ostringstream s;
        s << toString(name) << " placements lanemap marks " << (inferred ? "inferred" : "figure-only");
        s << (bad.bad.count(name)
                  ? ": the hardware disagrees (see the mismatches)"
                  : ": the hardware agrees in all " + std::to_string(op.elements().size()) + " cells");
        out.push_back(s.str());
    }
    return out;
}

} // namespace

std::vector<std::string> findings(const ProbePlan& plan, const ObservedMapping& obs, const ProbeResult& r) {
    const Instruction& in = *plan.instruction;
    std::vector<std::string> out;
    const Counts c = countBad(r);
    const bool pass = r.cellsMismatched == 0;
    {
        std::ostringstream s;
        if (pass) {
            s << "all " << r.cellsChecked << " cells of A, B, C and D"
              << (in.metadata ? " and the metadata" : "") << " agree with lanemap";
            if (plan.forms.size() > 1)
                s << " in every one of the " << plan.forms.size() << " instruction forms";
        } else {
            s << r.cellsMismatched << " of " << r.cellsChecked << " cells disagree with lanemap:";
            for (const auto& [op, n] : c.bad)
                s << ' ' << op << ' ' << n;
        }
        out.push_back(s.str());
    }
    const bool dClean = !c.bad.count(Operand::D) && !c.bad.count(Operand::B) && !c.bad.count(Operand::C);
    const bool abClean =
        !c.bad.count(Operand::A) && !c.bad.count(Operand::B) && !c.bad.count(Operand::Metadata);
    const char* dAnchor = "confirmed: B's columns, which are lanes, anchor D's element order";
    const char* abAnchor = in.metadata
                               ? "confirmed within each chunk: the metadata indices anchor k"
                               : "consistent with the k pairing; a swap made in both A and B would be "
                                 "invisible to A·B";
    for (std::string s : {subRegisterFinding(*in.operand(Operand::D), "D", dClean, dAnchor),
                          subRegisterFinding(*in.operand(Operand::A), "A", abClean, abAnchor),
                          subRegisterFinding(*in.operand(Operand::B), "B", abClean, abAnchor)})
        if (!s.empty())
            out.push_back(std::move(s));

    for (std::string f : sourceFindings(in, c))
        out.push_back(std::move(f));
    if (in.metadata)
        for (std::string f : metadataFindings(plan, obs))
            out.push_back(std::move(f));
    for (std::string f : errataFindings(in, obs, pass))
        out.push_back(std::move(f));
    return out;
}

} // namespace lanemap::gpu::detail
