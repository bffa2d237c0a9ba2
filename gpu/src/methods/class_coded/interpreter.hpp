#pragma once
// The class-coded (wgmma / wgmma.sp) interpreter, shared by the files that implement its jobs.
#include "lanemap/gpu/wgmma.hpp"

#include "detail.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace lanemap::gpu::wg::detail {

// D slots, read fast: 0, 1 or neither.
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
        for (std::size_t q = 0; q < m_word.size(); ++q)
            m_memoryOrder[q] = static_cast<std::uint32_t>(q);
        std::sort(m_memoryOrder.begin(), m_memoryOrder.end(), [&](std::uint32_t a, std::uint32_t b) {
            return m_word[a] != m_word[b] ? m_word[a] < m_word[b] : m_shift[a] < m_shift[b];
        });
    }
    // fn(position, slot, value) for every slot in memory order; value is 0, 1, or -1 for anything else.
    // Position is the slot's place in memoryOrder(): per-slot tables kept in that order are read in sequence
    // too.
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

// What a disagreement can implicate: a D slot, a B element (per B layout), an A register element (per form)
// or an A cell in shared memory (per setup).
enum class EntityType : std::uint8_t {
    DSlot = 0,
    BCell = 1,
    ARegister = 2,
    AShared = 3
}; // tie order: D, B, A
using EntityId = std::uint64_t;
constexpr EntityId kNoEntity = ~EntityId{0};
inline EntityId entity(EntityType t, int scope, int index) {
    return (static_cast<EntityId>(t) << 56) |
           (static_cast<EntityId>(static_cast<std::uint32_t>(scope)) << 32) |
           static_cast<std::uint32_t>(index);
}
inline EntityType typeOf(EntityId id) {
    return static_cast<EntityType>(id >> 56);
}
inline int scopeOf(EntityId id) {
    return static_cast<int>((id >> 32) & 0xFFFFFF);
}
inline int indexOf(EntityId id) {
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
inline T majorityOf(const std::map<T, int>& votes, int* count = nullptr, int* total = nullptr) {
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

// The class-coded method's interpreter. Its jobs live in their own files: decoding the runs
// (interpret.cpp), blaming cells (blame.cpp), the metadata check (metadata.cpp) and the
// findings (findings.cpp).
class Interpreter {
  public:
    Interpreter(const Plan& plan, std::span<const std::uint32_t> raw)
        : m_plan(plan), m_in(*plan.instruction), m_d(*m_in.operand(Operand::D)),
          m_a(*m_in.operand(Operand::A)), m_g(m_in), m_reader(m_d, plan), m_raw(raw) {
        if (raw.size() != plan.outWords())
            throw std::invalid_argument("raw D has " + std::to_string(raw.size()) +
                                        " words; the plan expects " + std::to_string(plan.outWords()));
        for (std::size_t s = 0; s < plan.setups.size(); ++s)
            m_cells.emplace_back(m_in, m_g, plan.setups[s], plan.forms[plan.setups[s].form].selector);
        if (m_g.sparse) // readKs' only lookup per slot: (row, col % 8), in memory order
            for (const std::uint32_t q : m_reader.memoryOrder()) {
                const Element& d = dSlot(static_cast<int>(q));
                m_codeBitInOrder.push_back(static_cast<std::uint16_t>(d.row * detail::kKCodeColumns +
                                                                      d.col % detail::kKCodeColumns));
            }
    }

    Interpretation run();

  private:
    std::span<const std::uint32_t> block(std::size_t x) const {
        const std::size_t per = m_plan.outWordsPerExperiment();
        return m_raw.subspan(x * per, per);
    }
    const Element& dSlot(int s) const { return m_d.elements()[static_cast<std::size_t>(s)]; }

    struct RunSet {
        Kind kind;
        std::uint16_t setup;
        std::int8_t pattern;
        std::int16_t group;
        std::vector<std::pair<int, std::size_t>> runs; // (bit, experiment)
        std::vector<int> seen;                         // per D slot: the cell it showed, kNothing or kOdd
    };

    std::vector<RunSet> runSets(std::uint16_t form) const;

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
    Observation observation(std::uint16_t form, const RunSet& rs, int q) const;

    void record(std::uint16_t form, const RunSet& rs);
    std::uint16_t firstSetup(std::uint16_t form) const {
        for (std::uint16_t s = 0; s < m_plan.setups.size(); ++s)
            if (m_plan.setups[s].form == form)
                return s;
        return 0;
    }

    void judge(std::uint16_t form);

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

    void report(EntityId id, const std::vector<Observation>& bad);

    // A wrong cell counts once however many forms saw it: D and A registers by element, B and A in shared
    // memory by layout and element, metadata by selector and field.
    static int layoutKey(const Setup& s) {
        return static_cast<int>(s.major) * 4 + static_cast<int>(s.swizzle);
    }
    std::tuple<int, int, int> cellKey(EntityId id) const;
    int cellsChecked() const;

    std::vector<int> readKs(std::span<const std::uint32_t> b) const;

    void checkMetadata(std::uint16_t form);

    void interpretForm(std::uint16_t form) {
        judge(form);
        if (m_g.sparse)
            checkMetadata(form);
    }

    std::vector<std::string> findings(const ProbeResult& r) const;

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

} // namespace lanemap::gpu::wg::detail
