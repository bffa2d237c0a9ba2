// How a discovered wmma fragment relates to the documented mma.sync fragments: computed by comparing
// placements cell by cell, never written by hand.

#include "lanemap/catalog.hpp"
#include "lanemap/wmma.hpp"

#include "families/atom/atom.hpp"

#include <cstdlib>
#include <optional>
#include <string>

namespace lanemap::wmma {

namespace {
// For every mma element j, the first wmma element that holds, in every lane, the cell mma puts j at (shifted
// by the tile's origin); nullopt when some j has none.
std::optional<std::vector<int>> tileMatch(const FragmentLayout& w, const FragmentLayout& mma, int row0,
                                          int col0) {
    std::vector<int> found;
    const int perW = w.elementsPerThread(), perM = mma.elementsPerThread();
    for (int j = 0; j < perM; ++j) {
        int hit = -1;
        for (int i = 0; i < perW && hit < 0; ++i) {
            bool all = true;
            for (int lane = 0; lane < 32 && all; ++lane) {
                const Element& e = w.element(lane, i);
                const Element& m = mma.element(lane, j);
                all = e.row == m.row + row0 && e.col == m.col + col0;
            }
            if (all)
                hit = i;
        }
        if (hit < 0)
            return std::nullopt;
        found.push_back(hit);
    }
    return found;
}
} // namespace

std::vector<MmaRelation> mmaRelations(const Instruction& in) {
    std::vector<MmaRelation> out;
    if (!in.family->discovered)
        return out;
    const Catalog& catalog = Catalog::instance();
    for (const FragmentLayout& w : in.operands) {
        if (w.operand() == Operand::C)
            continue; // C and D share one fragment: D speaks for both
        std::optional<MmaRelation> best;
        for (const Variant* v : catalog.variants()) {
            if (v->family != &family::kMma || v->atype != in.atype || v->ctype != in.ctype ||
                v->kind != Kind::None ||
                (v->m == 8 && v->n == 8 && v->k == 4 && v->atype == ElementType::F16))
                continue;
            const FragmentLayout* m = catalog.instruction(*v).operand(w.operand());
            if (!m || m->matrices() != 1 || w.rows() % m->rows() || w.cols() % m->cols())
                continue;
            MmaRelation rel{v->spec, w.operand(), {}};
            bool all = true;
            for (int r0 = 0; r0 < w.rows() && all; r0 += m->rows())
                for (int c0 = 0; c0 < w.cols() && all; c0 += m->cols()) {
                    const auto match = tileMatch(w, *m, r0, c0);
                    all = match.has_value();
                    if (all)
                        rel.tiles.push_back({r0, c0, *match});
                }
            // The mma shape with the largest tiles tells the story (m16n8k16 rather than 2 x m16n8k8).
            // Among equals, the mma of the same K (the product wmma runs), then catalog order.
            const auto kGap = [&](const MmaRelation& r) {
                const Variant* mv = catalog.variant(r.mmaSpec);
                return mv ? std::abs(mv->k - in.k) : 0;
            };
            if (all && (!best || rel.tiles.size() < best->tiles.size() ||
                        (rel.tiles.size() == best->tiles.size() && kGap(rel) < kGap(*best))))
                best = std::move(rel);
        }
        if (best)
            out.push_back(std::move(*best));
    }
    return out;
}

std::string describe(const MmaRelation& rel) {
    const Variant* v = Catalog::instance().variant(rel.mmaSpec);
    const int rows = v ? (rel.operand == Operand::B ? v->k : v->m) : 0;
    const int cols = v ? (rel.operand == Operand::A ? v->k : v->n) : 0;
    std::string s = std::string(toString(rel.operand)) + " = " + std::to_string(rel.tiles.size()) + " x " +
                    rel.mmaSpec + " " + std::string(toString(rel.operand)) + " fragment" +
                    (rel.tiles.size() == 1 ? "" : "s side by side") + ":";
    for (std::size_t t = 0; t < rel.tiles.size(); ++t) {
        const MmaTile& tile = rel.tiles[t];
        s += (t ? "; " : " ") + std::string("rows ") + std::to_string(tile.row0) + "-" +
             std::to_string(tile.row0 + rows - 1) + " cols " + std::to_string(tile.col0) + "-" +
             std::to_string(tile.col0 + cols - 1) + " = x[";
        for (std::size_t j = 0; j < tile.elements.size(); ++j)
            s += (j ? "," : "") + std::to_string(tile.elements[j]);
        s += "]";
    }
    return s;
}

} // namespace lanemap::wmma
