// Reading the wgmma probe's raw D registers back into cells.
//
// Every AIdent/BIdent run set (the runs of one setup, pattern and selector group, one per code bit) gives,
// per D slot, one observation: which A cell (or B element) reached the slot, and which the engine expected
// there. A disagreement implicates the D slot, the cell seen, the cell expected and the selector of the
// slot's column (AIdent) or row (BIdent). Verdicts are reached frame first (judge()): D slots by majority
// over every run set, then A, then B, then A in shared memory, each step leaving out what the steps before
// found wrong, so a single wrong table names its own cells and not its neighbours'. The metadata runs are
// read as the mma.sp probe reads them.
#include "lanemap/gpu/wgmma.hpp"

#include "wgmma_detail.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <queue>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace lanemap::gpu::wg {

namespace {

using detail::ACells;
using detail::Geometry;
using detail::Position;

// --- D slots, read fast: 0, 1 or neither
// ---------------------------------------------------------------------
class DReader {
  public:
    DReader(const FragmentLayout& d, const Plan& plan) {
        for (const Element& e : d.elements()) {
            const int p = plan.classPosition(e);
            m_word.push_back(static_cast<std::uint32_t>(p / 16) * kThreads + e.thread);
            m_shift.push_back(static_cast<std::uint8_t>(2 * (p % 16)));
        }
        // Slots in the order the kernel wrote them ([packed word][thread]): whole-block scans read memory in
        // sequence.
        m_memoryOrder.resize(m_word.size());
        for (std::size_t q = 0; q < m_word.size(); ++q) m_memoryOrder[q] = static_cast<std::uint32_t>(q);
        std::sort(m_memoryOrder.begin(), m_memoryOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
            return m_word[a] != m_word[b] ? m_word[a] < m_word[b] : m_shift[a] < m_shift[b];
        });
    }
    // fn(position, slot, value) for every slot in memory order; value is 0, 1, or -1 for anything else. Position is
    // the slot's place in memoryOrder(): per-slot tables kept in that order are read in sequence too.
    template <class Fn> void forEach(std::span<const std::uint32_t> block, Fn&& fn) const {
        for (std::size_t i = 0; i < m_memoryOrder.size(); ++i) {
            const std::uint32_t q = m_memoryOrder[i];
            fn(i, static_cast<int>(q), classify((block[m_word[q]] >> m_shift[q]) & 3u));
        }
    }
    const std::vector<std::uint32_t>& memoryOrder() const { return m_memoryOrder; }
    int slots() const { return static_cast<int>(m_word.size()); }

  private:
    static int classify(std::uint32_t cls) { return cls == 0 ? 0 : cls == 1 ? 1 : -1; }
    std::vector<std::uint32_t> m_word;
    std::vector<std::uint8_t> m_shift;
    std::vector<std::uint32_t> m_memoryOrder;
};

// --- entities
// ---------------------------------------------------------------------------------------------------
enum class EntityType : std::uint8_t {
    DSlot = 0,
    BCell = 1,
    ARegister = 2,
    AShared = 3
}; // tie order: D, B, A
using EntityId = std::uint64_t;
constexpr EntityId kNoEntity = ~EntityId{0};
EntityId entity(EntityType t, int scope, int index) {
    return (static_cast<EntityId>(t) << 56) |
           (static_cast<EntityId>(static_cast<std::uint32_t>(scope)) << 32) |
           static_cast<std::uint32_t>(index);
}
EntityType typeOf(EntityId id) {
    return static_cast<EntityType>(id >> 56);
}
int scopeOf(EntityId id) {
    return static_cast<int>((id >> 32) & 0xFFFFFF);
}
int indexOf(EntityId id) {
    return static_cast<int>(id & 0xFFFFFFFFu);
}

constexpr int kNothing = -1; // code 0: no cell reached the slot
constexpr int kOdd = -2;     // values other than 0 and 1, or a code that names no cell

struct Observation {
    Kind kind;
    std::uint16_t setup;
    std::int8_t pattern;
    std::int16_t group;
    int slot;
    int seen;     // cell code - 1, kNothing or kOdd
    int expected; // cell, or kNothing
    std::array<EntityId, 4> entities{kNoEntity, kNoEntity, kNoEntity, kNoEntity};
};

template <typename T>
T majorityOf(const std::map<T, int>& votes, int* count = nullptr, int* total = nullptr) {
    T best{};
    int n = -1, sum = 0;
    for (const auto& [key, c] : votes) {
        sum += c;
        if (c > n) {
            best = key;
            n = c;
        }
    }
    if (count)
        *count = n;
    if (total)
        *total = sum;
    return best;
}

class Interpreter {
  public:
    Interpreter(const Plan& plan, std::span<const std::uint32_t> raw)
        : m_plan(plan), m_in(*plan.instruction), m_d(*m_in.operand(Operand::D)), m_a(*m_in.operand(Operand::A)), m_g(m_in),
          m_reader(m_d, plan), m_raw(raw) {
        if (raw.size() != plan.outWords())
            throw std::invalid_argument("raw D has " + std::to_string(raw.size()) +
                                        " words; the plan expects " + std::to_string(plan.outWords()));
        for (std::size_t s = 0; s < plan.setups.size(); ++s)
            m_cells.emplace_back(m_in, m_g, plan.setups[s], plan.forms[plan.setups[s].form].selector);
        if (m_g.sparse) // readKs' only lookup per slot: (row, col % 8), in memory order
            for (const std::uint32_t q : m_reader.memoryOrder()) {
                const Element& d = dSlot(static_cast<int>(q));
                m_codeBitInOrder.push_back(
                    static_cast<std::uint16_t>(d.row * detail::kKCodeColumns + d.col % detail::kKCodeColumns));
            }
    }

    Interpretation run() {
        Interpretation out;
        const std::size_t forms = m_plan.forms.size();
        out.observed.a.assign(forms, std::vector<ObservedElement>(m_a.elements().size()));
        out.observed.b.assign(forms, std::vector<ObservedElement>(static_cast<std::size_t>(m_g.bCells())));
        if (m_g.sparse)
            out.observed.metadata.assign(forms, std::vector<ObservedField>(m_a.elements().size()));
        m_observed = &out.observed;
        for (std::uint16_t f = 0; f < forms; ++f)
            interpretForm(f);

        ProbeResult& r = out.result;
        r.spec = m_in.spec;
        r.experiments = static_cast<int>(m_plan.experiments.size());
        r.cellsChecked = cellsChecked();
        r.cellsMismatched = static_cast<int>(m_bad.size());
        r.mismatches = std::move(m_mismatches);
        r.verdict = r.cellsMismatched == 0 ? Verdict::Pass : Verdict::Fail;
        r.findings = findings(r);
        return out;
    }

  private:
    std::span<const std::uint32_t> block(std::size_t x) const {
        const std::size_t per = m_plan.outWordsPerExperiment();
        return m_raw.subspan(x * per, per);
    }
    const Element& dSlot(int s) const { return m_d.elements()[static_cast<std::size_t>(s)]; }

    // --- observations
    // ----------------------------------------------------------------------------------------
    struct RunSet {
        Kind kind;
        std::uint16_t setup;
        std::int8_t pattern;
        std::int16_t group;
        std::vector<std::pair<int, std::size_t>> runs; // (bit, experiment)
        std::vector<int> seen;                         // per D slot: the cell it showed, kNothing or kOdd
    };

    std::vector<RunSet> runSets(std::uint16_t form) const {
        std::map<std::tuple<int, int, int, int>, RunSet> sets;
        for (std::size_t x = 0; x < m_plan.experiments.size(); ++x) {
            const Experiment& e = m_plan.experiments[x];
            if (m_plan.setups[e.setup].form != form || (e.kind != Kind::AIdent && e.kind != Kind::BIdent))
                continue;
            RunSet& rs = sets[{static_cast<int>(e.kind), e.setup, e.pattern, e.group}];
            rs.kind = e.kind;
            rs.setup = e.setup;
            rs.pattern = e.pattern;
            rs.group = e.group;
            rs.runs.emplace_back(e.bit, x);
        }
        std::vector<RunSet> out;
        for (auto& [key, rs] : sets)
            out.push_back(std::move(rs));
        // Each slot's code, spelled over the runs of the set.
        const int nSlots = m_reader.slots();
        for (RunSet& rs : out) {
            const int cellCount = rs.kind == Kind::AIdent ? m_cells[rs.setup].count() : m_g.bCells();
            std::vector<std::uint32_t> code(static_cast<std::size_t>(nSlots), 0u);
            std::vector<bool> odd(static_cast<std::size_t>(nSlots), false);
            for (const auto& [bit, x] : rs.runs) {
                const std::uint32_t one = 1u << bit;
                m_reader.forEach(block(x), [&](std::size_t, int q, int v) {
                    if (v == 1)
                        code[static_cast<std::size_t>(q)] |= one;
                    else if (v < 0)
                        odd[static_cast<std::size_t>(q)] = true;
                });
            }
            rs.seen.resize(static_cast<std::size_t>(nSlots));
            for (int q = 0; q < nSlots; ++q) {
                const std::uint32_t c = code[static_cast<std::size_t>(q)];
                rs.seen[static_cast<std::size_t>(q)] =
                    odd[static_cast<std::size_t>(q)] || static_cast<int>(c) > cellCount
                        ? kOdd
                        : static_cast<int>(c) - 1;
            }
        }
        return out;
    }

    EntityId aEntity(const Setup& s, std::uint16_t setupIndex, int cell) const {
        if (cell < 0)
            return kNoEntity;
        return s.a == ASource::SharedMemory ? entity(EntityType::AShared, setupIndex, cell)
                                            : entity(EntityType::ARegister, s.form, cell);
    }
    EntityId bEntity(const Setup& s, int cell) const {
        return cell < 0 ? kNoEntity : entity(EntityType::BCell, s.bConfig, cell);
    }

    // The engine's expectation at slot q: the A cell (AIdent) or B cell (BIdent) the selector puts there.
    int expectedAt(const RunSet& rs, int q) const {
        const Element& d = dSlot(q);
        if (rs.kind == Kind::AIdent)
            return m_cells[rs.setup].cellAt(d.row, m_g.selectB(rs.group, d.col), rs.pattern);
        return m_g.selectA(rs.group, rs.pattern, d.row) * m_g.n + d.col;
    }
    Observation observation(std::uint16_t form, const RunSet& rs, int q) const {
        const Setup& s = m_plan.setups[rs.setup];
        const Element& d = dSlot(q);
        Observation o{rs.kind,          rs.setup, rs.pattern,
                      rs.group,         q,        rs.seen[static_cast<std::size_t>(q)],
                      expectedAt(rs, q)};
        if (rs.kind == Kind::AIdent) {
            const int k = m_g.selectB(rs.group, d.col);
            o.entities = {entity(EntityType::DSlot, form, q), aEntity(s, rs.setup, o.seen),
                          aEntity(s, rs.setup, o.expected), bEntity(s, k * m_g.n + d.col)};
        } else {
            const int k = m_g.selectA(rs.group, rs.pattern, d.row);
            o.entities = {entity(EntityType::DSlot, form, q), bEntity(s, o.seen), bEntity(s, o.expected),
                          aEntity(s, rs.setup, m_cells[rs.setup].cellAt(d.row, k, rs.pattern))};
        }
        return o;
    }

    // The observed mapping: where the base setup saw each A register element and B element.
    void record(std::uint16_t form, const RunSet& rs) {
        const Setup& s = m_plan.setups[rs.setup];
        if (s.a != ASource::Registers || rs.pattern != 0 || rs.setup != firstSetup(form))
            return;
        for (int q = 0; q < m_reader.slots(); ++q) {
            const int seen = rs.seen[static_cast<std::size_t>(q)];
            if (seen < 0 || seen != expectedAt(rs, q))
                continue;
            const Element& d = dSlot(q);
            if (rs.kind == Kind::AIdent) {
                ObservedElement& e = m_observed->a[form][static_cast<std::size_t>(seen)];
                if (e.row < 0)
                    e = {-1, d.row, m_g.selectB(rs.group, d.col)};
            } else {
                ObservedElement& e = m_observed->b[form][static_cast<std::size_t>(seen)];
                if (e.row < 0)
                    e = {-1, m_g.selectA(rs.group, rs.pattern, d.row), d.col};
            }
        }
    }
    std::uint16_t firstSetup(std::uint16_t form) const {
        for (std::uint16_t s = 0; s < m_plan.setups.size(); ++s)
            if (m_plan.setups[s].form == form)
                return s;
        return 0;
    }

    // --- verdicts
    // ---------------------------------------------------------------------------------------------- In
    // order, each step trusting only what the steps before it settled:
    //  1. D slots, the frame of everything: a slot is wrong when most run sets show it a row other than its
    //  own
    //     (AIdent: the seen A cell's row) or a column other than its own (BIdent: the seen B element's
    //     column). Wrong A cells or B layouts disturb only the few run sets that use them.
    //  2. The form's base setup, AIdent: a B selector is wrong when most of its column disagrees; every other
    //     disagreement moves both the A cell seen and the A cell expected there.
    //  3. BIdent of every setup with A in registers, leaving out the rows that wrong A cells disturb: each
    //     disagreement moves the B element seen and the one expected.
    //  4. AIdent of A in shared memory, leaving out the columns that wrong B elements disturb.
    void judge(std::uint16_t form) {
        std::vector<RunSet> sets = runSets(form);
        const int nSlots = m_reader.slots();
        for (const RunSet& rs : sets)
            record(form, rs);
        std::map<EntityId, std::vector<Observation>> evidence;
        auto isBad = [&](const RunSet& rs, int q) {
            return rs.seen[static_cast<std::size_t>(q)] != expectedAt(rs, q);
        };

        // 1. D slots.
        std::vector<int> rowBad(static_cast<std::size_t>(nSlots)), rowGood(rowBad), colBad(rowBad),
            colGood(rowBad);
        for (const RunSet& rs : sets)
            for (int q = 0; q < nSlots; ++q) {
                const Element& d = dSlot(q);
                const int seen = rs.seen[static_cast<std::size_t>(q)];
                const bool expected = expectedAt(rs, q) >= 0;
                bool good;
                if (rs.kind == Kind::AIdent)
                    good = seen >= 0 ? m_cells[rs.setup].at(seen, rs.pattern).row == d.row
                                     : seen == kNothing && !expected;
                else
                    good = seen >= 0 && seen % m_g.n == d.col;
                std::vector<int>& tally =
                    rs.kind == Kind::AIdent ? (good ? rowGood : rowBad) : (good ? colGood : colBad);
                ++tally[static_cast<std::size_t>(q)];
            }
        std::vector<bool> slotBlamed(static_cast<std::size_t>(nSlots), false);
        for (int q = 0; q < nSlots; ++q) {
            const std::size_t i = static_cast<std::size_t>(q);
            if (rowBad[i] <= rowGood[i] && colBad[i] <= colGood[i])
                continue;
            slotBlamed[i] = true;
            auto& ev = evidence[entity(EntityType::DSlot, form, q)];
            for (const RunSet& rs : sets)
                if (isBad(rs, q))
                    ev.push_back(observation(form, rs, q));
        }

        // 2. The base setup's A cells and B selectors.
        const std::uint16_t base = firstSetup(form);
        const Setup& bs = m_plan.setups[base];
        std::set<int> blamedA;
        std::set<int> disturbedRows;
        for (const RunSet& rs : sets) {
            if (rs.setup != base || rs.kind != Kind::AIdent)
                continue;
            std::vector<int> bad(static_cast<std::size_t>(m_g.n)), total(bad);
            for (int q = 0; q < nSlots; ++q) {
                if (slotBlamed[static_cast<std::size_t>(q)])
                    continue;
                ++total[dSlot(q).col];
                bad[dSlot(q).col] += isBad(rs, q);
            }
            for (int q = 0; q < nSlots; ++q) {
                if (slotBlamed[static_cast<std::size_t>(q)] || !isBad(rs, q))
                    continue;
                const Observation o = observation(form, rs, q);
                const int col = dSlot(q).col;
                if (2 * bad[static_cast<std::size_t>(col)] > total[static_cast<std::size_t>(col)]) {
                    evidence[o.entities[3]].push_back(o); // the column's B selector
                    continue;
                }
                for (int c : {o.seen, o.expected})
                    if (c >= 0) {
                        evidence[aEntity(bs, base, c)].push_back(o);
                        blamedA.insert(c);
                    }
                disturbedRows.insert(dSlot(q).row);
            }
        }
        for (int c : blamedA)
            for (int p = 0; p < m_g.patterns; ++p)
                disturbedRows.insert(m_cells[base].at(c, p).row);

        // 3. B elements, from every setup with A in registers (its selectors are the cells of step 2).
        std::map<int, std::set<int>> disturbedColumns; // B config -> columns where a wrong B element shows up
        std::set<EntityId> blamedB;
        for (const RunSet& rs : sets) {
            const Setup& s = m_plan.setups[rs.setup];
            if (rs.kind != Kind::BIdent)
                continue;
            for (int q = 0; q < nSlots; ++q) {
                if (slotBlamed[static_cast<std::size_t>(q)] || disturbedRows.count(dSlot(q).row) ||
                    !isBad(rs, q))
                    continue;
                const Observation o = observation(form, rs, q);
                for (int c : {o.seen, o.expected})
                    if (c >= 0) {
                        evidence[bEntity(s, c)].push_back(o);
                        blamedB.insert(bEntity(s, c));
                        disturbedColumns[s.bConfig].insert(c % m_g.n);
                    }
                disturbedColumns[s.bConfig].insert(dSlot(q).col);
            }
        }
        for (const auto& [id, ev] : evidence)
            if (typeOf(id) == EntityType::BCell) {
                blamedB.insert(id);
                disturbedColumns[scopeOf(id)].insert(indexOf(id) % m_g.n);
            }

        // 4. A in shared memory, leaving out the columns wrong B elements reach or select.
        for (const RunSet& rs : sets) {
            const Setup& s = m_plan.setups[rs.setup];
            if (rs.kind != Kind::AIdent || s.a != ASource::SharedMemory)
                continue;
            const std::set<int>& skip = disturbedColumns[s.bConfig];
            for (int q = 0; q < nSlots; ++q) {
                const Element& d = dSlot(q);
                if (slotBlamed[static_cast<std::size_t>(q)] || skip.count(d.col) || !isBad(rs, q))
                    continue;
                if (blamedB.count(bEntity(s, m_g.selectB(rs.group, d.col) * m_g.n + d.col)))
                    continue;
                const Observation o = observation(form, rs, q);
                for (int c : {o.seen, o.expected})
                    if (c >= 0)
                        evidence[aEntity(s, rs.setup, c)].push_back(o);
            }
        }
        for (const auto& [id, ev] : evidence)
            report(id, ev);
    }

    std::string dName(int q) const {
        const Element& d = dSlot(q);
        return "T" + std::to_string(d.thread) + ":d" + std::to_string(d.index);
    }
    std::string cellText(const Observation& o, int cell) const {
        if (cell == kNothing)
            return "nothing";
        if (cell == kOdd)
            return "values other than 0 and 1";
        if (o.kind == Kind::BIdent)
            return "B(k " + std::to_string(cell / m_g.n) + ", n " + std::to_string(cell % m_g.n) + ")";
        const ACells& c = m_cells[o.setup];
        const Position p = c.at(cell, o.pattern);
        return c.name(cell) + " (row " + std::to_string(p.row) + ", k " + std::to_string(p.k) + ")";
    }
    std::string label(const char* what, const Observation& o) const {
        std::string s = what;
        s += " [" + m_plan.setups[o.setup].label;
        if (m_g.sparse)
            s += o.pattern ? ", metadata 0b1110" : ", metadata 0b0100";
        return s + "]";
    }

    void report(EntityId id, const std::vector<Observation>& bad) {
        if (bad.empty())
            return;
        const Observation& first = bad[0];
        ProbeMismatch m;
        const int index = indexOf(id);
        std::map<std::string, int> seenText;
        auto summary = [&](const std::string& fallback) {
            int n = 0, all = 0;
            if (seenText.empty())
                return fallback;
            const std::string best = majorityOf(seenText, &n, &all);
            return best + " (" + std::to_string(n) + " of " + std::to_string(all) + " observations)";
        };
        switch (typeOf(id)) {
        case EntityType::DSlot: {
            const Element& d = dSlot(index);
            m.operand = Operand::D;
            m.row = d.row;
            m.col = d.col;
            m.thread = d.thread;
            m.index = d.index;
            bool rowWrong = false;
            for (const Observation& o : bad) {
                if (o.seen < 0) {
                    ++seenText["shows " + cellText(o, o.seen) + " where the engine expects " +
                               cellText(o, o.expected)];
                    continue;
                }
                if (o.kind == Kind::AIdent) {
                    const Position p = m_cells[o.setup].at(o.seen, o.pattern);
                    rowWrong = rowWrong || p.row != d.row;
                    ++seenText["row " + std::to_string(p.row) + " (shows " + cellText(o, o.seen) + ")"];
                } else {
                    ++seenText["column " + std::to_string(o.seen % m_g.n) + " (shows " + cellText(o, o.seen) +
                               ")"];
                }
            }
            m.experiment = label(rowWrong ? "rows of A vs D" : "columns of B vs D", first);
            m.expected = "row " + std::to_string(d.row) + ", column " + std::to_string(d.col);
            m.observed = summary("");
            break;
        }
        case EntityType::ARegister:
        case EntityType::AShared: {
            const Setup& s = m_plan.setups[first.setup];
            const ACells& cells = m_cells[first.setup];
            const Position want = cells.at(index, first.pattern);
            m.operand = Operand::A;
            if (typeOf(id) == EntityType::ARegister) {
                const Element& e = m_a.elements()[static_cast<std::size_t>(index)];
                m.row = e.row;
                m.col = e.col;
                m.thread = e.thread;
                m.index = e.index;
            } else {
                m.row = index / m_g.storedK;
                m.col = index % m_g.storedK;
            }
            bool rowWrong = false;
            for (const Observation& o : bad) {
                const Element& d = dSlot(o.slot);
                if (o.kind == Kind::AIdent && o.seen == index) {
                    const int k = m_g.selectB(o.group, d.col);
                    rowWrong = rowWrong || d.row != cells.at(index, o.pattern).row;
                    ++seenText["row " + std::to_string(d.row) + ", k " + std::to_string(k)];
                } else if (o.kind == Kind::AIdent) {
                    ++seenText["not at its place: D " + dName(o.slot) + " (row " + std::to_string(d.row) +
                               ", k " + std::to_string(m_g.selectB(o.group, d.col)) + ") shows " +
                               cellText(o, o.seen)];
                } else {
                    ++seenText["as the row-" + std::to_string(d.row) + " selector, D " + dName(o.slot) +
                               " shows " + cellText(o, o.seen) + " instead of " + cellText(o, o.expected)];
                }
            }
            (void)s;
            m.experiment = label(rowWrong ? "rows of A vs D" : "k of A vs k of B", first);
            m.expected = "row " + std::to_string(want.row) + ", k " + std::to_string(want.k);
            m.observed = summary("");
            break;
        }
        case EntityType::BCell: {
            const int k = index / m_g.n, n = index % m_g.n;
            m.operand = Operand::B;
            m.row = k;
            m.col = n;
            bool columnWrong = false;
            for (const Observation& o : bad) {
                const Element& d = dSlot(o.slot);
                if (o.kind == Kind::BIdent && o.seen == index) {
                    columnWrong = columnWrong || d.col != n;
                    ++seenText["k " + std::to_string(m_g.selectA(o.group, o.pattern, d.row)) + ", column " +
                               std::to_string(d.col)];
                } else if (o.kind == Kind::BIdent) {
                    ++seenText["not at its place: D " + dName(o.slot) + " shows " + cellText(o, o.seen)];
                } else {
                    ++seenText["as column " + std::to_string(n) + "'s selector of k " + std::to_string(k) +
                               ", D " + dName(o.slot) + " shows " + cellText(o, o.seen) + " instead of " +
                               cellText(o, o.expected)];
                }
            }
            m.experiment = label(columnWrong ? "columns of B vs D" : "k of B vs k of A", first);
            m.expected =
                "k " + std::to_string(k) + ", column " + std::to_string(n) + " in " +
                detail::layoutName(m_plan.setups[first.setup].major, m_plan.setups[first.setup].swizzle, 'n');
            m.observed = summary("");
            break;
        }
        }
        m_blamed.insert(id);
        m_bad.insert(cellKey(id));
        m_mismatches.push_back(std::move(m));
    }

    // A wrong cell counts once however many forms saw it: D and A registers by element, B and A in shared
    // memory by layout and element, metadata by selector and field.
    static int layoutKey(const Setup& s) {
        return static_cast<int>(s.major) * 4 + static_cast<int>(s.swizzle);
    }
    std::tuple<int, int, int> cellKey(EntityId id) const {
        switch (typeOf(id)) {
        case EntityType::DSlot:
            return {0, 0, indexOf(id)};
        case EntityType::ARegister:
            return {2, 0, indexOf(id)};
        case EntityType::AShared:
            return {3, layoutKey(m_plan.setups[static_cast<std::size_t>(scopeOf(id))]), indexOf(id)};
        case EntityType::BCell:
            for (const Setup& s : m_plan.setups)
                if (s.bConfig == scopeOf(id))
                    return {1, layoutKey(s), indexOf(id)};
        }
        return {9, 0, indexOf(id)};
    }
    int cellsChecked() const {
        int n = static_cast<int>(m_d.elements().size() + m_a.elements().size());
        std::set<int> bLayouts, aLayouts;
        for (const Setup& s : m_plan.setups) {
            if (bLayouts.insert(layoutKey(s)).second)
                n += m_g.bCells();
            if (s.a == ASource::SharedMemory && aLayouts.insert(layoutKey(s)).second)
                n += m_g.m * m_g.storedK;
        }
        return n + m_fieldsChecked;
    }

    // --- metadata (wgmma.sp)
    // ----------------------------------------------------------------------------------- Per row of D, the
    // k its element multiplied in a metadata run: the row spells k+1 across columns (bit n % 8); -1 when it
    // spells nothing, -2 when the row is inconsistent or holds values other than 0 and 1. One pass over the
    // block in memory order for every row at once.
    std::vector<int> readKs(std::span<const std::uint32_t> b) const {
        constexpr int kCols = detail::kKCodeColumns;
        std::vector<std::int8_t> bits(static_cast<std::size_t>(m_g.m) * kCols, -1);
        std::vector<std::uint8_t> inconsistent(static_cast<std::size_t>(m_g.m), 0);
        m_reader.forEach(b, [&](std::size_t i, int, int v) {
            const std::uint16_t at = m_codeBitInOrder[i];
            std::int8_t& bit = bits[at];
            if (v < 0 || (bit >= 0 && bit != v))
                inconsistent[at / kCols] = 1;
            bit = static_cast<std::int8_t>(v);
        });
        std::vector<int> k(static_cast<std::size_t>(m_g.m));
        for (std::size_t row = 0; row < k.size(); ++row) {
            int code = 0;
            for (int i = 0; i < kCols; ++i)
                if (bits[row * kCols + static_cast<std::size_t>(i)] > 0)
                    code |= 1 << i;
            k[row] = inconsistent[row] ? -2 : code - 1;
        }
        return k;
    }

    void checkMetadata(std::uint16_t form) {
        const std::uint16_t si = firstSetup(form);
        const Setup& s = m_plan.setups[si];
        const ACells& cells = m_cells[si];
        const sparse::Codec codec = detail::codecFor(m_in, m_plan.forms[form].selector);
        const auto& fields = codec.fields();
        const std::vector<std::uint8_t> values = detail::probeValues(*m_g.rule);
        bool any = false;
        std::vector<std::vector<int>> rowCells(static_cast<std::size_t>(m_g.m));
        for (int c = 0; c < cells.count(); ++c)
            rowCells[static_cast<std::size_t>(cells.at(c, 0).row)].push_back(c);
        for (auto& r : rowCells)
            std::sort(r.begin(), r.end(), [&](int x, int y) { return cells.at(x, 0).k < cells.at(y, 0).k; });
        std::set<int> badRows; // rows whose D slots or whose element's own placement is already wrong
        for (EntityId id : m_blamed)
            if (typeOf(id) == EntityType::DSlot && scopeOf(id) == form)
                badRows.insert(dSlot(indexOf(id)).row);

        struct Locate {
            int id = 0;
            std::string odd;
        };
        std::map<int, Locate> locate;                          // cell -> nibble id read
        std::map<int, std::vector<std::string>> valueFailures; // field -> texts
        for (std::size_t x = 0; x < m_plan.experiments.size(); ++x) {
            const Experiment& e = m_plan.experiments[x];
            if (e.setup != si || (e.kind != Kind::MetaLocate && e.kind != Kind::MetaValue))
                continue;
            any = true;
            const std::vector<int> kOfRow = readKs(block(x));
            std::vector<std::uint32_t> md;
            std::vector<sparse::Placement> placed;
            if (e.kind == Kind::MetaValue) {
                md.assign(kThreads, detail::kPatternWord[0]);
                for (int row = 0; row < m_g.m; ++row) {
                    const auto& r = rowCells[static_cast<std::size_t>(row)];
                    if (static_cast<int>(r.size()) > e.group)
                        sparse::Codec::setField(md,
                                                fields[static_cast<std::size_t>(
                                                    cells.fieldOf(r[static_cast<std::size_t>(e.group)]))],
                                                values[static_cast<std::size_t>(e.value)]);
                }
                std::string error;
                if (!codec.place(md, placed, error))
                    throw std::logic_error("probe: " + error);
            }
            for (int row = 0; row < m_g.m; ++row) {
                const auto& r = rowCells[static_cast<std::size_t>(row)];
                if (static_cast<int>(r.size()) <= e.group || badRows.count(row))
                    continue;
                const int c = r[static_cast<std::size_t>(e.group)];
                if (m_blamed.count(entity(EntityType::ARegister, form, c)))
                    continue;
                const int k = kOfRow[static_cast<std::size_t>(row)];
                if (e.kind == Kind::MetaLocate) {
                    Locate& l = locate[c];
                    const int k0 = cells.at(c, 0).k, k1 = cells.at(c, 1).k;
                    if (k == k1 && k1 != k0)
                        l.id |= 1 << e.bit;
                    else if (k != k0 && l.odd.empty())
                        l.odd = k == -2 ? "D row " + std::to_string(row) + " does not spell one k"
                                        : "multiplied k " + std::to_string(k) +
                                              ", neither its 0b0100 column (k " + std::to_string(k0) +
                                              ") nor its 0b1110 column (k " + std::to_string(k1) + ")";
                    continue;
                }
                const int want = placed[static_cast<std::size_t>(c)].col;
                if (k != want)
                    valueFailures[cells.fieldOf(c)].push_back(
                        "value " + sparse::binary(values[static_cast<std::size_t>(e.value)]) + ": " +
                        cells.name(c) + " should multiply k " + std::to_string(want) + ", multiplied " +
                        (k == -1   ? std::string("nothing")
                         : k == -2 ? "(D row inconsistent)"
                                   : "k " + std::to_string(k)));
            }
        }
        if (!any)
            return;
        for (const MetadataSelector& sel : m_in.metadata->selectors)
            if (sel.value == m_plan.forms[form].selector)
                m_fieldsChecked += static_cast<int>(sel.fields.size());

        auto fieldName = [](const MetadataField& f) {
            return "lane " + std::to_string(f.thread) + " bits [" + std::to_string(f.bitHi) + ":" +
                   std::to_string(f.bitLo) + "]";
        };
        auto summary = [](const std::vector<std::string>& texts) {
            std::string out = texts[0];
            if (texts.size() > 1)
                out += "; " + texts[1];
            if (texts.size() > 2)
                out += " (and " + std::to_string(texts.size() - 2) + " more)";
            return out;
        };
        std::map<int, std::vector<std::string>> locateFailures;
        for (const auto& [c, l] : locate) {
            const int field = cells.fieldOf(c);
            const MetadataField& f = fields[static_cast<std::size_t>(field)];
            if (!l.odd.empty()) {
                locateFailures[field].push_back(cells.name(c) + " " + l.odd);
                continue;
            }
            ObservedField& o = m_observed->metadata[form][static_cast<std::size_t>(c)];
            o.thread = l.id / 8;
            o.nibble = l.id % 8;
            if (l.id != f.thread * 8 + f.bitLo / 4)
                locateFailures[field].push_back(
                    cells.name(c) + "'s indices were read from lane " + std::to_string(l.id / 8) + " bits [" +
                    std::to_string(4 * (l.id % 8) + 3) + ":" + std::to_string(4 * (l.id % 8)) + "]");
        }
        const std::string setupLabel = " [" + s.label + "]";
        auto add = [&](int field, const std::string& experiment, const std::string& expected,
                       const std::string& observed) {
            const MetadataField& f = fields[static_cast<std::size_t>(field)];
            ProbeMismatch m;
            m.operand = Operand::Metadata;
            m.row = f.row;
            m.col = f.colFirst;
            m.thread = f.thread;
            m.experiment = experiment + setupLabel;
            m.expected = expected;
            m.observed = observed;
            m_bad.insert({4, m_plan.forms[form].selector, field});
            m_mismatches.push_back(std::move(m));
        };
        for (const auto& [field, texts] : locateFailures) {
            const MetadataField& f = fields[static_cast<std::size_t>(field)];
            add(field, "metadata location",
                "row " + std::to_string(f.row) + " cols " + std::to_string(f.colFirst) + ".." +
                    std::to_string(f.colLast) + " indexed by " + fieldName(f),
                summary(texts));
        }
        for (const auto& [field, texts] : valueFailures)
            add(field, "metadata value",
                "every valid value of " + fieldName(fields[static_cast<std::size_t>(field)]) +
                    " places its elements as the storage rule says",
                summary(texts));
    }

    void interpretForm(std::uint16_t form) {
        judge(form);
        if (m_g.sparse)
            checkMetadata(form);
    }

    // --- findings
    // ----------------------------------------------------------------------------------------------
    std::vector<std::string> findings(const ProbeResult& r) const {
        std::vector<std::string> out;
        std::map<Operand, int> perOperand;
        for (const ProbeMismatch& m : r.mismatches)
            ++perOperand[m.operand];
        {
            std::ostringstream s;
            if (r.cellsMismatched == 0)
                s << "all " << r.cellsChecked << " cells of A, B and D"
                  << (m_g.sparse ? " and the metadata" : "") << " agree with lanemap in every one of the "
                  << m_plan.setups.size() << " operand arrangements (" << m_plan.forms.size()
                  << " instruction form" << (m_plan.forms.size() > 1 ? "s" : "") << ")";
            else {
                s << r.cellsMismatched << " of " << r.cellsChecked << " cells disagree with lanemap:";
                for (const auto& [op, n] : perOperand)
                    s << ' ' << op << ' ' << n;
            }
            out.push_back(s.str());
        }
        // Which shared-memory layouts the hardware read as lanemap::smem places them.
        std::map<std::string, int> wrongB, wrongA;
        for (EntityId id : m_blamed) {
            if (typeOf(id) == EntityType::BCell)
                for (const Setup& s : m_plan.setups)
                    if (s.bConfig == scopeOf(id)) {
                        ++wrongB[detail::layoutName(s.major, s.swizzle, 'n')];
                        break;
                    }
            if (typeOf(id) == EntityType::AShared) {
                const Setup& s = m_plan.setups[static_cast<std::size_t>(scopeOf(id))];
                ++wrongA[detail::layoutName(s.major, s.swizzle, 'm')];
            }
        }
        std::vector<std::string> bOk, bBad, aOk, aBad;
        std::set<std::string> seenB, seenA;
        for (const Setup& s : m_plan.setups) {
            if (s.form != 0)
                continue;
            const std::string bn = detail::layoutName(s.major, s.swizzle, 'n');
            if (seenB.insert(bn).second)
                (wrongB.count(bn) ? bBad : bOk).push_back(bn);
            if (s.a == ASource::SharedMemory) {
                const std::string an = detail::layoutName(s.major, s.swizzle, 'm');
                if (seenA.insert(an).second)
                    (wrongA.count(an) ? aBad : aOk).push_back(an);
            }
        }
        auto join = [](const std::vector<std::string>& v) {
            std::string s;
            for (const std::string& x : v)
                s += (s.empty() ? "" : ", ") + x;
            return s;
        };
        if (!bOk.empty())
            out.push_back(
                "B (" + std::to_string(m_g.k) + " x " + std::to_string(m_g.n) +
                ") placed in shared memory by lanemap::smem and described by its descriptor: the hardware "
                "read every element where lanemap puts it in " +
                join(bOk));
        for (const std::string& b : bBad)
            out.push_back(
                "B in " + b + ": " + std::to_string(wrongB.at(b)) +
                " elements were read elsewhere than lanemap::smem places them (see the mismatches)");
        // K-major swizzled tiles whose K is wider than one swizzled row: lanemap::smem places the next atom
        // along K LBO bytes on, an inference (the ISA says LBO is unused there); say what the hardware did
        // with it.
        std::set<std::string> spans;
        for (const Setup& s : m_plan.setups) {
            if (s.form != 0)
                continue;
            std::vector<std::pair<const smem::SmemLayout*, char>> tiles{{&s.bLayout, 'n'}};
            if (s.aLayout)
                tiles.emplace_back(&*s.aLayout, 'm');
            for (const auto& [l, mn] : tiles) {
                if (l->major() != smem::Major::K || l->swizzle() == smem::Swizzle::None ||
                    !l->usesLeadingByteOffset())
                    continue;
                const std::string name =
                    std::string(mn == 'n' ? "B " : "A ") + detail::layoutName(l->major(), l->swizzle(), mn);
                const bool wrong =
                    (mn == 'n' ? wrongB : wrongA).count(detail::layoutName(l->major(), l->swizzle(), mn)) > 0;
                if (!spans.insert(name).second)
                    continue;
                const int rowBytes = l->cols() * l->elementBits() / 8;
                const bool adjacent =
                    l->leadingByteOffset() ==
                    128u * static_cast<std::uint32_t>(smem::swizzleBytes(l->swizzle()) / 16);
                out.push_back(name + ": a row of K (" + std::to_string(rowBytes) + " bytes) spans " +
                              std::to_string(rowBytes / smem::swizzleBytes(l->swizzle())) +
                              " swizzle atoms, which lanemap::smem places LBO = " +
                              std::to_string(l->leadingByteOffset()) +
                              " bytes apart (inferred: the ISA calls LBO unused for swizzled K-major) — " +
                              (wrong ? "the hardware disagrees (see the mismatches)"
                               : adjacent
                                   ? "the hardware read them there; at this N LBO equals one atom, so this "
                                     "run cannot tell LBO from adjacent atoms"
                                   : "the hardware read them there: the inference is confirmed"));
            }
        }
        if (!aOk.empty())
            out.push_back(std::string("A (") + (m_g.sparse ? "64 x K/2, compressed" : "64 x K") +
                          ") in shared memory: the hardware read every element where lanemap puts it in " +
                          join(aOk));
        for (const std::string& a : aBad)
            out.push_back(
                "A in shared memory, " + a + ": " + std::to_string(wrongA.at(a)) +
                " elements were read elsewhere than lanemap::smem places them (see the mismatches)");
        if (m_g.sparse)
            for (std::size_t f = 0; f < m_plan.forms.size(); ++f) {
                const Form& form = m_plan.forms[f];
                if (form.atype != toString(m_in.atype) || form.btype != toString(m_in.btype))
                    continue;
                int n = 0, total = 0;
                const sparse::Codec codec = detail::codecFor(m_in, form.selector);
                const ACells& cells = m_cells[firstSetup(static_cast<std::uint16_t>(f))];
                for (int c = 0; c < cells.count(); ++c) {
                    ++total;
                    const ObservedField& o = m_observed->metadata[f][static_cast<std::size_t>(c)];
                    const MetadataField& mf = codec.fields()[static_cast<std::size_t>(cells.fieldOf(c))];
                    n += o.thread == mf.thread && o.nibble == mf.bitLo / 4;
                }
                out.push_back("metadata, selector " + std::to_string(form.selector) + ": " +
                              (n == total ? "confirmed" : "disagrees") + ": the hardware reads " +
                              std::to_string(n) + " of " + std::to_string(total) +
                              " A elements' indices from the lane and bits lanemap draws");
            }
        const bool clean = r.cellsMismatched == 0;
        if (clean) {
            for (const Operand name : {Operand::A, Operand::D}) {
                const FragmentLayout& op = *m_in.operand(name);
                int figure = 0, inferred = 0;
                for (const Element& e : op.elements()) {
                    figure += e.source == Source::Figure;
                    inferred += e.source == Source::Inferred;
                }
                if (figure || inferred)
                    out.push_back(std::string(toString(name)) + " placements lanemap marks " +
                                  (inferred ? "inferred" : "figure-only") + ": the hardware agrees in all " +
                                  std::to_string(op.elements().size()) + " cells");
            }
            if (m_d.elementsPerRegister() > 1)
                out.push_back("D sub-register positions: d(2r) in bits [15:0] and d(2r+1) in bits [31:16] of "
                              "register r "
                              "(confirmed: B's columns anchor D's element order)");
        }
        for (const Erratum& e : m_in.errata)
            out.push_back(
                std::string(e.id) + (clean ? " confirmed: " : " unresolved: ") + std::string(e.summary) +
                (clean ? " — the instruction runs on this device and agrees with lanemap in every cell"
                       : " — the hardware disagrees with lanemap (see the mismatches)"));
        out.push_back(
            "what this proves: rows of A and columns of B against D, and the k pairing of A with B, "
            "anchored to memory order: D's columns are B's n and k is the position along a row of shared "
            "memory (as the canonical layouts order it), and with A in shared memory D's rows are A's m; "
            "a relabeling made at once in A's registers and in every shared-memory layout would stay "
            "invisible");
        return out;
    }

    const Plan& m_plan;
    const Instruction& m_in;
    const FragmentLayout& m_d;
    const FragmentLayout& m_a;
    Geometry m_g;
    DReader m_reader;
    std::vector<std::uint16_t> m_codeBitInOrder; // readKs: row * 8 + col % 8 per D slot, in memory order
    std::span<const std::uint32_t> m_raw;
    std::vector<ACells> m_cells; // per setup
    std::set<EntityId> m_blamed;
    std::set<std::tuple<int, int, int>> m_bad; // distinct wrong cells: (operand, layout or selector, index)
    int m_fieldsChecked = 0;
    std::vector<ProbeMismatch> m_mismatches;
    ObservedMapping* m_observed = nullptr;
};

} // namespace

Interpretation interpretProbe(const Plan& plan, std::span<const std::uint32_t> rawD) {
    if (!plan.instruction)
        throw std::invalid_argument("wg::interpretProbe: the plan has no instruction");
    return Interpreter(plan, rawD).run();
}

} // namespace lanemap::gpu::wg
