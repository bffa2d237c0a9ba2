// Reading raw D registers back into cells (docs/probe.md). The D layout is the frame of reference: "row r"
// means "the D slots the engine puts in row r". Every A, B and C element is judged by where its one-hot value
// landed; where several elements disagree with the frame the same way, the frame (D) is blamed instead, by
// majority vote, so a single wrong table names its own cells and not its neighbours'.
#include "lanemap/gpu/experiments.hpp"

#include "interpret_detail.hpp"
#include "plan_detail.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

namespace lanemap::gpu {

namespace {

using detail::Frame;
using detail::matrixOf;

std::string number(double v) {
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace

namespace {
using detail::Collector;
using detail::formLabel;

// Majority of a vote map; `own` wins ties so a cell is blamed only when most of the evidence is against it.
int majority(const std::map<int, int>& votes, int own, int* count = nullptr) {
    int best = -1, bestCount = 0;
    for (const auto& [key, n] : votes)
        if (n > bestCount || (n == bestCount && key == own)) {
            best = key;
            bestCount = n;
        }
    if (count)
        *count = bestCount;
    return best;
}

class Interpreter {
  public:
    Interpreter(const ProbePlan& plan, std::span<const std::uint32_t> raw)
        : m_plan(plan), m_in(*plan.instruction), m_a(*m_in.operand(Operand::A)),
          m_b(*m_in.operand(Operand::B)), m_c(*m_in.operand(Operand::C)), m_d(*m_in.operand(Operand::D)),
          m_frame(m_d), m_raw(raw) {
        if (raw.size() != plan.outWords())
            throw std::invalid_argument("raw D has " + std::to_string(raw.size()) +
                                        " words; the plan expects " + std::to_string(plan.outWords()));
        m_k = detail::kModelOf(m_in);
        m_sparse = (m_in.metadata != nullptr);
    }

    Interpretation run() {
        Interpretation out;
        const std::size_t forms = m_plan.forms.size();
        out.observed.a.assign(forms, std::vector<ObservedElement>(m_a.elements().size()));
        out.observed.b.assign(forms, std::vector<ObservedElement>(m_b.elements().size()));
        out.observed.c.assign(forms, std::vector<ObservedElement>(m_c.elements().size()));
        if (m_sparse)
            out.observed.metadata.assign(forms, std::vector<ObservedField>(m_a.elements().size()));
        m_observed = &out.observed;

        // Experiments of one form are contiguous; interpret form by form.
        std::size_t begin = 0;
        while (begin < m_plan.experiments.size()) {
            std::size_t end = begin;
            while (end < m_plan.experiments.size() &&
                   m_plan.experiments[end].form == m_plan.experiments[begin].form)
                ++end;
            interpretForm(m_plan.experiments[begin].form, begin, end);
            begin = end;
        }

        ProbeResult& r = out.result;
        r.spec = m_in.spec;
        r.experiments = static_cast<int>(m_plan.experiments.size());
        r.cellsChecked = static_cast<int>(m_a.elements().size() + m_b.elements().size() +
                                          m_c.elements().size() + m_d.elements().size());
        if (m_sparse)
            r.cellsChecked += detail::metadataFieldCount(m_in);
        r.cellsMismatched = static_cast<int>(m_verdicts.badCells.size());
        r.mismatches = std::move(m_verdicts.mismatches);
        r.verdict = r.cellsMismatched == 0 ? Verdict::Pass : Verdict::Fail;
        r.findings = detail::findings(m_plan, out.observed, r);
        return out;
    }

  private:
    std::span<const std::uint32_t> block(std::size_t experiment) const {
        const std::size_t per = m_plan.outWordsPerExperiment();
        return m_raw.subspan(experiment * per, per);
    }

    // Slots of D that hold a non-zero value, with the values.
    std::vector<std::pair<int, double>> lit(std::size_t experiment) const {
        std::vector<std::pair<int, double>> out;
        const auto b = block(experiment);
        for (int s = 0; s < static_cast<int>(m_d.elements().size()); ++s) {
            const double v = m_frame.value(b, s);
            if (v != 0.0)
                out.emplace_back(s, v);
        }
        return out;
    }

    std::string describeSlots(const std::vector<std::pair<int, double>>& slots,
                              const std::vector<std::vector<int>>& sets, bool rows) const {
        if (slots.empty())
            return "no D slot changed";
        std::vector<int> ids;
        for (const auto& [s, v] : slots)
            ids.push_back(s);
        std::string text;
        for (std::size_t key = 0; key < sets.size(); ++key)
            if (sets[key] == ids)
                text = rows ? m_frame.rowName(static_cast<int>(key)) : m_frame.colName(static_cast<int>(key));
        if (text.empty()) {
            text = "D slots ";
            for (std::size_t i = 0; i < ids.size() && i < 8; ++i)
                text += (i ? ", " : "") + m_frame.slotName(ids[i]);
            if (ids.size() > 8)
                text += ", ... (" + std::to_string(ids.size()) + " slots)";
        }
        for (const auto& [s, v] : slots)
            if (v != 1.0) {
                text += " (value " + number(v) + " at " + m_frame.slotName(s) + ")";
                break;
            }
        return text;
    }

    // One one-hot operand against the D frame: rows (A) or columns (B). `expected(flat, pattern)` gives the
    // engine's D key, or -1 where the element should reach nothing.
    struct FrameCheck {
        const FragmentLayout& layout;
        Operand operand;
        bool rows;
        ExperimentKind kind;
    };

    void checkAgainstFrame(std::uint16_t form, std::size_t begin, std::size_t end, const FrameCheck& check,
                           const std::function<int(int flat, int pattern)>& expectedKey,
                           std::vector<ObservedElement>& observed) {
        const auto& sets = check.rows ? m_frame.rowSlots : m_frame.colSlots;
        const std::string label = std::string(toString(check.kind)) + formLabel(m_plan, form);
        struct Run {
            int flat, pattern;
            std::vector<std::pair<int, double>> slots;
        };
        std::vector<Run> runs;
        std::vector<std::map<int, int>> votes(m_d.elements().size());
        for (std::size_t x = begin; x < end; ++x) {
            const Experiment& ex = m_plan.experiments[x];
            if (ex.kind != check.kind)
                continue;
            Run run{ex.element, ex.pattern, lit(x)};
            const int key = expectedKey(ex.element, ex.pattern);
            for (const auto& [s, v] : run.slots)
                ++votes[static_cast<std::size_t>(s)][key < 0 ? -2 : key];
            runs.push_back(std::move(run));
        }
        if (runs.empty())
            return;

        // D slots that most of the evidence places elsewhere than the engine's D table does.
        std::set<int> blamed;
        for (std::size_t s = 0; s < votes.size(); ++s) {
            const Element& d = m_d.elements()[s];
            const int own = check.rows ? m_frame.rowKey(d) : m_frame.colKey(d);
            int n = 0;
            const int best = majority(votes[s], own, &n);
            if (votes[s].empty() || best == own)
                continue;
            blamed.insert(static_cast<int>(s));
            const std::string where = check.rows ? m_frame.rowName(own) : m_frame.colName(own);
            std::string seen = best == -2 ? "reached by elements that should reach nothing"
                                          : "reached by " + std::to_string(n) + " " +
                                                std::string(toString(check.operand)) + " elements of " +
                                                (check.rows ? m_frame.rowName(best) : m_frame.colName(best));
            addD(static_cast<int>(s), label, where, seen);
        }

        for (const Run& run : runs) {
            const int key = expectedKey(run.flat, run.pattern);
            std::vector<int> expected;
            if (key >= 0)
                expected = sets[static_cast<std::size_t>(key)];
            std::vector<int> seen;
            bool badValue = false;
            for (const auto& [s, v] : run.slots) {
                seen.push_back(s);
                badValue = badValue || v != 1.0;
            }
            std::vector<int> diff;
            std::set_symmetric_difference(expected.begin(), expected.end(), seen.begin(), seen.end(),
                                          std::back_inserter(diff));
            std::erase_if(diff, [&](int s) { return blamed.count(s) > 0; });
            ObservedElement& o = observed[static_cast<std::size_t>(run.flat)];
            if (!run.slots.empty())
                recordObserved(o, run.slots, check.rows);
            if (diff.empty() && !badValue)
                continue;
            const std::string exp =
                key < 0 ? "no D slot changed" : (check.rows ? m_frame.rowName(key) : m_frame.colName(key));
            m_verdicts.add(check.operand, check.layout, run.flat, label, exp,
                           describeSlots(run.slots, sets, check.rows));
        }
    }

    void recordObserved(ObservedElement& o, const std::vector<std::pair<int, double>>& slots,
                        bool rows) const {
        std::map<int, int> votes;
        for (const auto& [s, v] : slots) {
            const Element& d = m_d.elements()[static_cast<std::size_t>(s)];
            ++votes[rows ? m_frame.rowKey(d) : m_frame.colKey(d)];
        }
        const int key = majority(votes, -1);
        if (rows) {
            o.matrix = key / m_d.rows();
            o.row = key % m_d.rows();
        } else {
            o.matrix = key / m_d.cols();
            o.col = key % m_d.cols();
        }
    }

    void addD(int slot, const std::string& label, const std::string& expected, const std::string& observed) {
        if (m_dBlamed.count({label, slot}))
            return;
        m_dBlamed.insert({label, slot});
        m_verdicts.add(Operand::D, m_d, slot, label, expected, observed);
        m_dBlamedSlots.insert(slot);
    }

    void interpretForm(std::uint16_t form, std::size_t begin, std::size_t end) {
        const ProbeForm& f = m_plan.forms[form];
        ObservedMapping& obs = *m_observed;

        // Rows of A vs D: the engine expects A element e in D's row of e.
        checkAgainstFrame(
            form, begin, end, {m_a, Operand::A, true, ExperimentKind::RowsAD},
            [&](int flat, int) { return m_frame.rowKey(m_a.elements()[static_cast<std::size_t>(flat)]); },
            obs.a[form]);
        // Columns of B vs D: B element f in D's column of f, if its k is multiplied under the pattern.
        checkAgainstFrame(
            form, begin, end, {m_b, Operand::B, false, ExperimentKind::ColsBD},
            [&](int flat, int pattern) {
                const Element& e = m_b.elements()[static_cast<std::size_t>(flat)];
                if (!m_k->kSelected(matrixOf(e), e.row, pattern))
                    return -1;
                return m_frame.colKey(e);
            },
            obs.b[form]);
        checkKPairs(form, f, begin, end);
        checkC(form, begin, end);
        if (m_sparse)
            detail::checkMetadata(m_plan, m_frame, m_raw, form, begin, end, *m_k, m_verdicts, *m_observed);
    }

    // k of A vs k of B: per A element, the runs spell (f+1) per D slot; f must sit at the A element's k.
    void checkKPairs(std::uint16_t form, const ProbeForm& f, std::size_t begin, std::size_t end) {
        const std::string label = std::string(toString(ExperimentKind::KAB)) + formLabel(m_plan, form);
        const std::size_t nD = m_d.elements().size();
        const int nB = static_cast<int>(m_b.elements().size());
        // xor baselines per (pattern, bit)
        std::map<std::pair<int, int>, std::vector<double>> base;
        if (f.xorPopc())
            for (std::size_t x = begin; x < end; ++x) {
                const Experiment& ex = m_plan.experiments[x];
                if (ex.kind != ExperimentKind::KBase)
                    continue;
                std::vector<double> v(nD);
                const auto b = block(x);
                for (std::size_t s = 0; s < nD; ++s)
                    v[s] = m_frame.value(b, static_cast<int>(s));
                base[{ex.pattern, ex.bit}] = std::move(v);
            }
        struct Acc {
            std::vector<std::uint32_t> code;
            std::vector<bool> touched;
            bool anomaly = false;
        };
        std::map<std::pair<int, int>, Acc> acc; // (pattern, A element)
        for (std::size_t x = begin; x < end; ++x) {
            const Experiment& ex = m_plan.experiments[x];
            if (ex.kind != ExperimentKind::KAB)
                continue;
            Acc& a = acc[{ex.pattern, ex.element}];
            if (a.code.empty()) {
                a.code.assign(nD, 0);
                a.touched.assign(nD, false);
            }
            const auto b = block(x);
            const std::vector<double>* bl = f.xorPopc() ? &base.at({ex.pattern, ex.bit}) : nullptr;
            for (std::size_t s = 0; s < nD; ++s) {
                const double v = m_frame.value(b, static_cast<int>(s));
                if (bl) {
                    const double diff = v - (*bl)[s];
                    if (diff == 0.0)
                        continue;
                    a.touched[s] = true;
                    if (diff == -1.0)
                        a.code[s] |= 1u << ex.bit; // a ^ 1 = 0: the B bit was 1
                    else if (diff != 1.0)
                        a.anomaly = true;
                } else if (v != 0.0) {
                    a.touched[s] = true;
                    a.code[s] |= 1u << ex.bit;
                    if (v != 1.0)
                        a.anomaly = true;
                }
            }
        }
        struct Pair {
            int aFlat, pattern, bFlat, slot;
        };
        std::vector<Pair> pairs;
        std::map<std::pair<int, int>, std::string> oddities;
        for (const auto& [key, a] : acc) {
            for (std::size_t s = 0; s < nD; ++s) {
                if (!a.touched[s])
                    continue;
                const int fb = static_cast<int>(a.code[s]) - 1;
                if (fb < 0 || fb >= nB) {
                    oddities[key] = "slot " + m_frame.slotName(static_cast<int>(s)) + " spelled " +
                                    std::to_string(a.code[s]) + ", which names no B element";
                    continue;
                }
                pairs.push_back({key.second, key.first, fb, static_cast<int>(s)});
            }
            if (a.anomaly && !oddities.count(key))
                oddities[key] = "D values other than 0 and 1";
        }
        const int K = m_a.cols();
        auto kKeyB = [&](int fb) {
            const Element& e = m_b.elements()[static_cast<std::size_t>(fb)];
            return matrixOf(e) * K + e.row;
        };
        auto kKeyA = [&](int fa, int pattern) {
            const Element& e = m_a.elements()[static_cast<std::size_t>(fa)];
            const int k = m_k->kOfA(fa, pattern);
            return k < 0 ? -1 : matrixOf(e) * K + k;
        };
        auto kName = [&](int key) {
            return (m_a.matrices() > 1 ? "product " + std::to_string(key / K) + " k " : "k ") +
                   std::to_string(key % K);
        };
        std::map<std::pair<int, int>, std::map<int, int>> aVotes; // (pattern, A) -> k of B
        std::map<int, std::map<int, int>> bVotes;                 // B -> k of A
        for (const Pair& p : pairs) {
            ++aVotes[{p.pattern, p.aFlat}][kKeyB(p.bFlat)];
            ++bVotes[p.bFlat][kKeyA(p.aFlat, p.pattern)];
        }
        for (const auto& [key, a] : acc) {
            const auto [pattern, fa] = key;
            const int own = kKeyA(fa, pattern);
            auto it = aVotes.find(key);
            int n = 0;
            const int best = it == aVotes.end() ? -1 : majority(it->second, own, &n);
            if (pattern == 0 && best >= 0) {
                ObservedElement& o = m_observed->a[form][static_cast<std::size_t>(fa)];
                o.col = best % K;
            }
            const std::string suffix = m_k->patternName(pattern);
            if (it == aVotes.end()) {
                if (own >= 0)
                    m_verdicts.add(Operand::A, m_a, fa, label + suffix, kName(own),
                                   oddities.count(key) ? oddities[key] : "multiplies no B element");
                continue;
            }
            if (best != own) {
                int total = 0;
                for (const auto& [k2, c] : it->second)
                    total += c;
                m_verdicts.add(
                    Operand::A, m_a, fa, label + suffix, own < 0 ? "multiplies nothing" : kName(own),
                    kName(best) + " (in " + std::to_string(n) + " of " + std::to_string(total) + " columns)");
            } else if (oddities.count(key)) {
                m_verdicts.add(Operand::A, m_a, fa, label + suffix, kName(own), oddities[key]);
            }
        }
        for (int fb = 0; fb < nB; ++fb) {
            const int own = kKeyB(fb);
            const Element& e = m_b.elements()[static_cast<std::size_t>(fb)];
            bool multiplied = false;
            for (int p = 0; p < m_k->patterns(); ++p)
                multiplied = multiplied || m_k->kSelected(matrixOf(e), e.row, p);
            auto it = bVotes.find(fb);
            if (it == bVotes.end()) {
                if (multiplied)
                    m_verdicts.add(Operand::B, m_b, fb, label, kName(own), "multiplied by no A element");
                continue;
            }
            int n = 0, total = 0;
            const int best = majority(it->second, own, &n);
            for (const auto& [k2, c] : it->second)
                total += c;
            m_observed->b[form][static_cast<std::size_t>(fb)].row = best < 0 ? -1 : best % K;
            m_observed->b[form][static_cast<std::size_t>(fb)].matrix = best < 0 ? -1 : best / K;
            if (best != own)
                m_verdicts.add(Operand::B, m_b, fb, label, kName(own),
                               (best < 0 ? std::string("multiplied by unplaced A elements")
                                         : "multiplied by A elements of " + kName(best)) +
                                   " (" + std::to_string(n) + " of " + std::to_string(total) + ")");
        }
    }

    void checkC(std::uint16_t form, std::size_t begin, std::size_t end) {
        const std::string label = std::string(toString(ExperimentKind::CvsD)) + formLabel(m_plan, form);
        for (std::size_t x = begin; x < end; ++x) {
            const Experiment& ex = m_plan.experiments[x];
            if (ex.kind != ExperimentKind::CvsD)
                continue;
            const Element& c = m_c.elements()[static_cast<std::size_t>(ex.element)];
            const int want = m_frame.cellSlot[static_cast<std::size_t>(
                (matrixOf(c) * m_d.rows() + c.row) * m_d.cols() + c.col)];
            const auto slots = lit(x);
            ObservedElement& o = m_observed->c[form][static_cast<std::size_t>(ex.element)];
            if (slots.size() == 1) {
                const Element& d = m_d.elements()[static_cast<std::size_t>(slots[0].first)];
                o.matrix = d.matrix;
                o.row = d.row;
                o.col = d.col;
            }
            if (slots.size() == 1 && slots[0].first == want && slots[0].second == 1.0)
                continue;
            bool explained = !slots.empty();
            for (const auto& [s, v] : slots)
                explained = explained && (s == want || m_dBlamedSlots.count(s)) && v == 1.0;
            if (explained && m_dBlamedSlots.count(want))
                continue;
            std::string seen;
            if (slots.empty())
                seen = "no D slot changed";
            for (std::size_t i = 0; i < slots.size() && i < 4; ++i) {
                const Element& d = m_d.elements()[static_cast<std::size_t>(slots[i].first)];
                seen += (i ? ", " : "") + m_frame.slotName(slots[i].first) + " (row " +
                        std::to_string(d.row) + ", col " + std::to_string(d.col) +
                        (slots[i].second != 1.0 ? ", value " + number(slots[i].second) : "") + ")";
            }
            m_verdicts.add(Operand::C, m_c, ex.element, label,
                           "D slot " + m_frame.slotName(want) + " (row " + std::to_string(c.row) + ", col " +
                               std::to_string(c.col) + ")",
                           seen);
        }
    }

    const ProbePlan& m_plan;
    const Instruction& m_in;
    const FragmentLayout& m_a;
    const FragmentLayout& m_b;
    const FragmentLayout& m_c;
    const FragmentLayout& m_d;
    Frame m_frame;
    std::span<const std::uint32_t> m_raw;
    std::unique_ptr<detail::KModel> m_k;
    bool m_sparse = false;
    Collector m_verdicts;
    std::set<std::pair<std::string, int>> m_dBlamed;
    std::set<int> m_dBlamedSlots;
    ObservedMapping* m_observed = nullptr;
};

} // namespace

Interpretation interpretProbe(const ProbePlan& plan, std::span<const std::uint32_t> rawD) {
    if (!plan.instruction)
        throw std::invalid_argument("interpretProbe: the plan has no instruction");
    return Interpreter(plan, rawD).run();
}

} // namespace lanemap::gpu
