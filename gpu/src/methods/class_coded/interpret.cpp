// Reading the wgmma probe's raw D registers back into cells.
//
// Every AIdent/BIdent run set (the runs of one setup, pattern and selector group, one per code bit) gives,
// per D slot, one observation: which A cell (or B element) reached the slot, and which the engine expected
// there. A disagreement implicates the D slot, the cell seen, the cell expected and the selector of the
// slot's column (AIdent) or row (BIdent). Verdicts are reached frame first (judge()): D slots by majority
// over every run set, then A, then B, then A in shared memory, each step leaving out what the steps before
// found wrong, so a single wrong table names its own cells and not its neighbours'. The metadata runs are
// read as the mma.sp probe reads them.
#include "interpreter.hpp"

namespace lanemap::gpu::wg::detail {

Interpretation Interpreter::run() {
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

std::vector<Interpreter::RunSet> Interpreter::runSets(std::uint16_t form) const {
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
                odd[static_cast<std::size_t>(q)] || static_cast<int>(c) > cellCount ? kOdd
                                                                                    : static_cast<int>(c) - 1;
        }
    }
    return out;
}

Observation Interpreter::observation(std::uint16_t form, const RunSet& rs, int q) const {
    const Setup& s = m_plan.setups[rs.setup];
    const Element& d = dSlot(q);
    Observation o{rs.kind,          rs.setup, rs.pattern, rs.group, q, rs.seen[static_cast<std::size_t>(q)],
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
void Interpreter::record(std::uint16_t form, const RunSet& rs) {
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

} // namespace lanemap::gpu::wg::detail

namespace lanemap::gpu::wg {

Interpretation interpretProbe(const Plan& plan, std::span<const std::uint32_t> rawD) {
    if (!plan.instruction)
        throw std::invalid_argument("wg::interpretProbe: the plan has no instruction");
    return detail::Interpreter(plan, rawD).run();
}

} // namespace lanemap::gpu::wg
