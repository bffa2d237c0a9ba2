// The class-coded method's geometry and A cells, shared by its planner and its interpreter.
#include "lanemap/gpu/wgmma.hpp"

#include "detail.hpp"

#include "lanemap/sparse.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <tuple>

namespace lanemap::gpu::wg {

namespace detail {

Geometry::Geometry(const Instruction& in) {
    const FragmentLayout& a = *in.operand(Operand::A);
    k = in.k;
    n = in.n;
    m = a.rows();
    sparse = (in.metadata != nullptr);
    storedK = sparse ? k / 2 : k;
    patterns = sparse ? 2 : 1;
    if (sparse) {
        rule = sparse::ruleFor(in.metadata->granularity);
        if (!rule)
            throw std::logic_error("probe: unknown sparsity '" + std::string(in.metadata->granularity) + "'");
        for (int p = 0; p < 2; ++p) {
            const std::vector<int> kept = sparse::decodeField(rule->pattern, kPatternWord[p] & 0xFu);
            for (int col = 0; col < k; ++col)
                if (std::find(kept.begin(), kept.end(), col % rule->chunkCols) != kept.end())
                    selectable[p].push_back(col);
        }
    } else {
        for (int col = 0; col < k; ++col)
            selectable[0].push_back(col);
    }
}

int Geometry::bGroups() const {
    const int size = static_cast<int>(selectable[0].size());
    return (size + m - 1) / m;
}

int Geometry::selectA(int group, int pattern, int row) const {
    const std::vector<int>& s = selectable[pattern];
    return s[static_cast<std::size_t>((row + m * group) % static_cast<int>(s.size()))];
}

sparse::Codec codecFor(const Instruction& in, int selector) {
    std::string error;
    std::optional<sparse::Codec> codec = sparse::Codec::make(in, selector, error);
    if (!codec)
        throw std::logic_error("probe: " + error);
    return std::move(*codec);
}

std::vector<std::uint8_t> probeValues(const sparse::StorageRule& rule) {
    return sparse::validFieldValues(rule.pattern, /*ordered=*/true);
}

std::string layoutName(smem::Major major, smem::Swizzle swizzle, char mn) {
    std::string s = major == smem::Major::K ? "K" : std::string(1, static_cast<char>(mn - 'a' + 'A'));
    return s + "-major " + std::string(smem::toString(swizzle));
}

ACells::ACells(const Instruction& in, const Geometry& g, const Setup& setup, int selector)
    : m_in(in), m_shared(setup.a == ASource::SharedMemory), m_k(g.k), m_storedK(g.storedK) {
    const FragmentLayout& a = *in.operand(Operand::A);
    m_count = m_shared ? g.m * g.storedK : static_cast<int>(a.elements().size());
    for (int p = 0; p < g.patterns; ++p) {
        m_at[p].assign(static_cast<std::size_t>(m_count), Position{});
        m_cellAt[p].assign(static_cast<std::size_t>(g.m * g.k), -1);
    }
    if (m_shared) {
        for (int p = 0; p < g.patterns; ++p) {
            // Compressed M x K/2 (sparse): stored column j is slot j % kept of chunk j / kept.
            const std::vector<int> kept =
                g.sparse ? sparse::decodeField(g.rule->pattern, kPatternWord[p] & 0xFu) : std::vector<int>{};
            for (int c = 0; c < m_count; ++c) {
                const int row = c / g.storedK, j = c % g.storedK;
                int col = j;
                if (g.sparse)
                    col = (j / g.rule->kept) * g.rule->chunkCols +
                          kept[static_cast<std::size_t>(j % g.rule->kept)];
                m_at[p][static_cast<std::size_t>(c)] = {row, col};
                m_cellAt[p][static_cast<std::size_t>(row * g.k + col)] = c;
            }
        }
        return;
    }
    if (!g.sparse) {
        for (int c = 0; c < m_count; ++c) {
            const Element& e = a.elements()[static_cast<std::size_t>(c)];
            m_at[0][static_cast<std::size_t>(c)] = {e.row, e.col};
            m_cellAt[0][static_cast<std::size_t>(e.row * g.k + e.col)] = c;
        }
        return;
    }
    const sparse::Codec codec = codecFor(in, selector);
    // Field index by (thread, nibble): one lookup per element instead of a scan of every field.
    const auto& fields = codec.fields();
    std::vector<int> fieldAt(static_cast<std::size_t>(kThreads) * 32, -1);
    for (std::size_t f = 0; f < fields.size(); ++f)
        fieldAt[static_cast<std::size_t>(fields[f].thread) * 32 + static_cast<std::size_t>(fields[f].bitLo)] =
            static_cast<int>(f);
    for (int p = 0; p < 2; ++p) {
        std::vector<sparse::Placement> placed;
        std::string error;
        if (!codec.place(std::vector<std::uint32_t>(kThreads, kPatternWord[p]), placed, error))
            throw std::logic_error("probe: " + error);
        for (int c = 0; c < m_count; ++c) {
            const sparse::Placement& pl = placed[static_cast<std::size_t>(c)];
            m_at[p][static_cast<std::size_t>(c)] = {pl.row, pl.col};
            m_cellAt[p][static_cast<std::size_t>(pl.row * g.k + pl.col)] = c;
            if (p == 0) {
                if (m_field.empty())
                    m_field.assign(static_cast<std::size_t>(m_count), -1);
                if (pl.field.thread >= 0 && pl.field.thread < kThreads && pl.field.bitLo >= 0 &&
                    pl.field.bitLo < 32)
                    m_field[static_cast<std::size_t>(c)] =
                        fieldAt[static_cast<std::size_t>(pl.field.thread) * 32 +
                                static_cast<std::size_t>(pl.field.bitLo)];
            }
        }
    }
}

std::string ACells::name(int cell) const {
    if (m_shared)
        return "A[" + std::to_string(cell / m_storedK) + "][" + std::to_string(cell % m_storedK) + "]";
    const Element& e = m_in.operand(Operand::A)->elements()[static_cast<std::size_t>(cell)];
    return "T" + std::to_string(e.thread) + ":a" + std::to_string(e.index);
}

} // namespace detail

} // namespace lanemap::gpu::wg
