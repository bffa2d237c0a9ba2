// What a probe run settled, in words: a summary, the sub-register positions the run can and cannot see, and
// each erratum of ptx-catalog.md §10 the variant carries, read off the observed mapping (not off the verdict
// alone), so a finding names what the hardware did even where it disagrees with both manual and engine.
#include "interpret_detail.hpp"

#include <functional>
#include <map>
#include <sstream>

namespace lanemap::gpu::detail {

namespace {

struct Counts {
    std::map<std::string, int> bad;
    int total = 0;
};

Counts countBad(const ProbeResult& r) {
    Counts c;
    std::set<std::pair<std::string, std::tuple<int, int, int, int, int>>> seen;
    for (const ProbeMismatch& m : r.mismatches)
        if (seen.insert({m.operand, {m.matrix, m.row, m.col, m.thread, m.index}}).second) ++c.bad[m.operand];
    return c;
}

// For the A elements with `pick(index)`, how many lanes' observed (row, k) match `formula`.
struct Tally {
    int elements = 0, matchEngine = 0, matchFormula = 0;
    std::string firstOdd; // one observed placement that matches neither
};

Tally tallyA(const FragmentLayout& a, const std::vector<ObservedElement>& obs, const std::function<bool(int)>& pick,
             const std::function<Cell(const Lane&, int)>& formula) {
    Tally t;
    for (std::size_t f = 0; f < a.elements().size(); ++f) {
        const Element& e = a.elements()[f];
        if (!pick(e.index)) continue;
        ++t.elements;
        const ObservedElement& o = obs[f];
        const Cell want = formula(Lane::of(e.thread), e.index);
        const bool engine = o.row == e.row && o.col == e.col;
        const bool manual = o.row == want.row && o.col == want.col;
        t.matchEngine += engine;
        t.matchFormula += manual;
        if (!engine && !manual && t.firstOdd.empty())
            t.firstOdd = "T" + std::to_string(e.thread) + ":a" + std::to_string(e.index) + " at row " +
                         std::to_string(o.row) + ", k " + std::to_string(o.col);
    }
    return t;
}

std::string e1Finding(const Instruction& in, const ObservedMapping& obs) {
    const FragmentLayout& a = *in.operand("A");
    // The manual's literal first branch: col = threadID_in_group * 32 + i for i < 64.
    const auto manual = [](const Lane& l, int i) {
        return Cell{(i < 32 || (64 <= i && i < 96)) ? l.groupID : l.groupID + 8, l.threadID_in_group * 32 + i};
    };
    Tally t;
    for (const auto& form : obs.a) {
        const Tally f = tallyA(a, form, [](int i) { return i >= 32 && i < 64; }, manual);
        t.elements += f.elements;
        t.matchEngine += f.matchEngine;
        t.matchFormula += f.matchFormula;
        if (t.firstOdd.empty()) t.firstOdd = f.firstOdd;
    }
    std::ostringstream s;
    if (t.matchEngine == t.elements) {
        s << "E1 confirmed: a32..a63 of every lane sit at row groupID+8, k = threadID_in_group*32 + (i & 0x1F), as "
             "lanemap draws (" << t.matchEngine << " of " << t.elements << " placements); the manual's "
             "k = threadID_in_group*32 + i matches " << t.matchFormula << " of them";
    } else if (t.matchFormula == t.elements) {
        s << "E1 refuted: the hardware follows the manual's literal formula for a32..a63 (" << t.matchFormula
          << " of " << t.elements << " placements)";
    } else {
        s << "E1 unresolved: a32..a63 match lanemap in " << t.matchEngine << " and the manual in "
          << t.matchFormula << " of " << t.elements << " placements; e.g. " << t.firstOdd;
    }
    return s.str();
}

std::string e2Finding(const Instruction& in, const ObservedMapping& obs, bool pass) {
    const FragmentLayout& a = *in.operand("A");
    const auto reading = [](const Lane& l, int i) {
        return Cell{i % 2 == 0 ? l.groupID : l.groupID + 8, i % 2 == 0 ? i * 2 + l.threadID_in_group
                                                                       : i * 2 - 2 + l.threadID_in_group};
    };
    const Tally t = tallyA(a, obs.a.at(0), [](int i) { return i % 2 == 1; }, reading);
    std::ostringstream s;
    if (t.matchFormula == t.elements && pass)
        s << "E2 confirmed: the odd elements a1, a3, a5, a7 sit at row groupID+8, k = (i*2) - 2 + threadID_in_group "
             "(the balanced reading of the manual's formula) in all " << t.elements << " placements";
    else
        s << "E2 unresolved: the balanced reading matches " << t.matchFormula << " of " << t.elements
          << " odd-element placements" << (t.firstOdd.empty() ? "" : "; e.g. " + t.firstOdd);
    return s.str();
}

std::string subRegisterFinding(const FragmentLayout& op, const char* name, bool clean, bool anchored) {
    if (op.elementsPerRegister() < 2 || !clean) return "";
    const int w = op.containerBits();
    std::ostringstream s;
    s << name << " sub-register positions: element " << name[0] << "i sits in bits [" << w << "*(i % "
      << op.elementsPerRegister() << ") + " << (op.elementBits() - 1) << " : " << w << "*(i % "
      << op.elementsPerRegister() << ")] of its register, low element first";
    if (anchored)
        s << " (confirmed: B's columns, which are lanes, anchor D's element order)";
    else
        s << " (consistent with the k pairing; a swap made in both A and B would be invisible to A·B)";
    return s.str();
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
            s << "all " << r.cellsChecked << " cells of A, B, C and D" << (in.metadata ? " and the metadata" : "")
              << " agree with lanemap";
            if (plan.forms.size() > 1) s << " in every one of the " << plan.forms.size() << " instruction forms";
        } else {
            s << r.cellsMismatched << " of " << r.cellsChecked << " cells disagree with lanemap:";
            for (const auto& [op, n] : c.bad) s << ' ' << op << ' ' << n;
        }
        out.push_back(s.str());
    }
    const bool dClean = !c.bad.count("D") && !c.bad.count("B") && !c.bad.count("C");
    const bool abClean = !c.bad.count("A") && !c.bad.count("B");
    for (std::string s : {subRegisterFinding(*in.operand("D"), "D", dClean, true),
                          subRegisterFinding(*in.operand("A"), "A", abClean, false),
                          subRegisterFinding(*in.operand("B"), "B", abClean, false)})
        if (!s.empty()) out.push_back(std::move(s));

    for (const Erratum& e : in.errata) {
        if (e.id == "E1") out.push_back(e1Finding(in, obs));
        else if (e.id == "E2") out.push_back(e2Finding(in, obs, pass));
        else if (e.id == "E3") continue; // syntax typo: nothing the hardware can say
        else if (pass)
            out.push_back(e.id + " confirmed: " + e.summary + " — the instruction runs on this device and agrees with "
                                                              "lanemap in every cell");
        else
            out.push_back(e.id + " unresolved: " + e.summary + " — the hardware disagrees with lanemap (see the "
                                                               "mismatches)");
    }
    return out;
}

} // namespace lanemap::gpu::detail
