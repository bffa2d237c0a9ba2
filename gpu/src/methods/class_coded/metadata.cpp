// The class-coded interpreter's metadata check (wgmma.sp): per row of D, the k each metadata run shows; the
// rest is the check both methods share (metadata_check.hpp).
#include "interpreter.hpp"

#include "shared/metadata_check.hpp"

namespace lanemap::gpu::wg::detail {

// --- metadata (wgmma.sp)
// ----------------------------------------------------------------------------------- Per row of D, the
// k its element multiplied in a metadata run: the row spells k+1 across columns (bit n % 8); -1 when it
// spells nothing, -2 when the row is inconsistent or holds values other than 0 and 1. One pass over the
// block in memory order for every row at once.
std::vector<int> Interpreter::readKs(std::span<const std::uint32_t> b) const {
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
        k[row] = inconsistent[row] ? gpu::detail::kInconsistentK : code - 1;
    }
    return k;
}

void Interpreter::checkMetadata(std::uint16_t form) {
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

    std::map<int, gpu::detail::Locate> locate; // cell -> nibble id read
    gpu::detail::FieldFailures valueFailures;
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
                    sparse::Codec::setField(
                        md,
                        fields[static_cast<std::size_t>(cells.fieldOf(r[static_cast<std::size_t>(e.group)]))],
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
                locate[c].add(e.bit, k, cells.at(c, 0).k, cells.at(c, 1).k,
                              "D row " + std::to_string(row) + " does not spell one k");
                continue;
            }
            const int want = placed[static_cast<std::size_t>(c)].col;
            if (k != want)
                valueFailures[cells.fieldOf(c)].push_back(
                    gpu::detail::valueFailure(values[static_cast<std::size_t>(e.value)], cells.name(c), want,
                                              k, "(D row inconsistent)"));
        }
    }
    if (!any)
        return;
    for (const MetadataSelector& sel : m_in.metadata->selectors)
        if (sel.value == m_plan.forms[form].selector)
            m_fieldsChecked += static_cast<int>(sel.fields.size());

    gpu::detail::FieldFailures locateFailures;
    for (const auto& [c, l] : locate) {
        const int field = cells.fieldOf(c);
        const MetadataField& f = fields[static_cast<std::size_t>(field)];
        if (!l.ok()) {
            locateFailures[field].push_back(cells.name(c) + " " + l.odd);
            continue;
        }
        ObservedField& o = m_observed->metadata[form][static_cast<std::size_t>(c)];
        o.thread = l.id / 8;
        o.nibble = l.id % 8;
        if (l.id != f.thread * 8 + f.bitLo / 4)
            locateFailures[field].push_back(cells.name(c) + "'s indices were read from " +
                                            gpu::detail::nibbleName(l.id));
    }
    for (int field : gpu::detail::reportMetadata(fields, locateFailures, valueFailures, " [" + s.label + "]",
                                                 m_mismatches))
        m_bad.insert({4, m_plan.forms[form].selector, field});
}

} // namespace lanemap::gpu::wg::detail
