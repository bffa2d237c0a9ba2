// The class-coded interpreter's verdicts: which cells the disagreements of the run sets blame.
#include "interpreter.hpp"

namespace lanemap::gpu::wg::detail {

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
void Interpreter::judge(std::uint16_t form) {
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
            if (slotBlamed[static_cast<std::size_t>(q)] || disturbedRows.count(dSlot(q).row) || !isBad(rs, q))
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

void Interpreter::report(EntityId id, const std::vector<Observation>& bad) {
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

std::tuple<int, int, int> Interpreter::cellKey(EntityId id) const {
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

int Interpreter::cellsChecked() const {
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

} // namespace lanemap::gpu::wg::detail
