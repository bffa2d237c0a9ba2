// Errata findings (errata.hpp), read off the observed mapping rather than off the verdict alone, so a finding
// names what the hardware did even where it disagrees with both the manual and lanemap.
#include "errata.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <sstream>

namespace lanemap::gpu::detail {

namespace {

// How a finding words the two readings of an erratum's elements. The placements themselves are core's
// (Erratum::manualReading); only these words are not there yet.
struct ReadingWords {
    std::string_view id, lanemapSays, manualSays;
};
constexpr ReadingWords kWords[] = {
    {"E1", "row groupID+8, k = threadID_in_group*32 + (i & 0x1F)", "k = threadID_in_group*32 + i"},
};

// For the elements with `pick(element)`, how many observed placements match the engine and how many
// `formula`.
struct Tally {
    int elements = 0, matchEngine = 0, matchFormula = 0;
    std::string firstOdd; // one observed placement that matches neither
};

const std::vector<std::vector<ObservedElement>>& observedOf(const ObservedMapping& obs, Operand operand) {
    switch (operand) {
    case Operand::B:
        return obs.b;
    case Operand::C:
        return obs.c;
    default:
        return obs.a;
    }
}

Tally tally(const FragmentLayout& op, Operand operand, const std::vector<ObservedElement>& obs,
            const std::function<bool(const Element&)>& pick,
            const std::function<Cell(const Element&)>& formula) {
    Tally t;
    const std::string letter(1, static_cast<char>(std::tolower(toString(operand)[0])));
    for (std::size_t f = 0; f < op.elements().size() && f < obs.size(); ++f) {
        const Element& e = op.elements()[f];
        if (!pick(e))
            continue;
        ++t.elements;
        const ObservedElement& o = obs[f];
        const Cell want = formula(e);
        const bool engine = o.row == e.row && o.col == e.col;
        const bool manual = o.row == want.row && o.col == want.col;
        t.matchEngine += engine;
        t.matchFormula += manual;
        if (!engine && !manual && t.firstOdd.empty())
            t.firstOdd = "T" + std::to_string(e.thread) + ":" + letter + std::to_string(e.index) +
                         " at row " + std::to_string(o.row) + (operand == Operand::A ? ", k " : ", column ") +
                         std::to_string(o.col);
    }
    return t;
}

std::string e2Finding(const Instruction& in, const ObservedMapping& obs, bool pass) {
    const FragmentLayout& a = *in.operand(Operand::A);
    const Tally t = tally(
        a, Operand::A, obs.a.at(0), [](const Element& e) { return e.index % 2 == 1; },
        [](const Element& e) {
            const Lane l = Lane::of(e.thread);
            const int i = e.index;
            return Cell{i % 2 == 0 ? l.groupID : l.groupID + 8,
                        i % 2 == 0 ? i * 2 + l.threadID_in_group : i * 2 - 2 + l.threadID_in_group};
        });
    std::ostringstream s;
    if (t.matchFormula == t.elements && pass)
        s << "E2 confirmed: the odd elements a1, a3, a5, a7 sit at row groupID+8, k = (i*2) - 2 + "
             "threadID_in_group (the balanced reading of the manual's formula) in all "
          << t.elements << " placements";
    else
        s << "E2 unresolved: the balanced reading matches " << t.matchFormula << " of " << t.elements
          << " odd-element placements" << (t.firstOdd.empty() ? "" : "; e.g. " + t.firstOdd);
    return s.str();
}

} // namespace

std::optional<ManualReading> manualReadingOf(const Erratum& erratum) {
    if (!erratum.manualReading)
        return std::nullopt;
    ManualReading r{erratum.manualReading->operand, erratum.manualReading->place, "where lanemap draws them",
                    "literal formula"};
    for (const ReadingWords& w : kWords)
        if (w.id == erratum.id) {
            r.lanemapSays = w.lanemapSays;
            r.manualSays = w.manualSays;
        }
    return r;
}

std::string readingFinding(std::string_view id, const ManualReading& reading, const Instruction& in,
                           const ObservedMapping& obs) {
    const FragmentLayout& op = *in.operand(reading.operand);
    const auto manual = [&](const Element& e) { return reading.place(Lane::of(e.thread), e.index, in.n); };
    // The elements the two readings place differently: the only ones that can tell them apart.
    const auto differs = [&](const Element& e) {
        const Cell c = manual(e);
        return c.row != e.row || c.col != e.col;
    };
    Tally t;
    int lo = -1, hi = -1;
    for (const Element& e : op.elements())
        if (differs(e)) {
            lo = lo < 0 ? e.index : std::min<int>(lo, e.index);
            hi = std::max<int>(hi, e.index);
        }
    for (const std::vector<ObservedElement>& form : observedOf(obs, reading.operand)) {
        const Tally f = tally(op, reading.operand, form, differs, manual);
        t.elements += f.elements;
        t.matchEngine += f.matchEngine;
        t.matchFormula += f.matchFormula;
        if (t.firstOdd.empty())
            t.firstOdd = f.firstOdd;
    }
    const std::string letter(1, static_cast<char>(std::tolower(toString(reading.operand)[0])));
    const std::string which = letter + std::to_string(lo) + ".." + letter + std::to_string(hi);
    std::ostringstream s;
    if (t.matchEngine == t.elements)
        s << id << " confirmed: " << which << " of every lane sit at " << reading.lanemapSays
          << ", as lanemap draws (" << t.matchEngine << " of " << t.elements << " placements); the manual's "
          << reading.manualSays << " matches " << t.matchFormula << " of them";
    else if (t.matchFormula == t.elements)
        s << id << " refuted: the hardware follows the manual's literal formula for " << which << " ("
          << t.matchFormula << " of " << t.elements << " placements)";
    else
        s << id << " unresolved: " << which << " match lanemap in " << t.matchEngine << " and the manual in "
          << t.matchFormula << " of " << t.elements << " placements; e.g. " << t.firstOdd;
    return s.str();
}

std::vector<std::string> errataFindings(const Instruction& in, const ObservedMapping& obs, bool pass) {
    std::vector<std::string> out;
    for (const Erratum& e : in.errata) {
        if (const std::optional<ManualReading> reading = manualReadingOf(e))
            out.push_back(readingFinding(e.id, *reading, in, obs));
        else if (e.id == "E2")
            out.push_back(e2Finding(in, obs, pass));
        else if (e.id == "E3")
            continue; // syntax typo: nothing the hardware can say
        else if (pass)
            out.push_back(std::string(e.id) + " confirmed: " + std::string(e.summary) +
                          " — the instruction runs on this device and agrees with lanemap in every cell");
        else
            out.push_back(std::string(e.id) + " unresolved: " + std::string(e.summary) +
                          " — the hardware disagrees with lanemap (see the mismatches)");
    }
    return out;
}

} // namespace lanemap::gpu::detail
