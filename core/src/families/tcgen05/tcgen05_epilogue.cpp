// The tcgen05.ld a composed view opens with: CUTLASS's SM100 epilogue choice per data-path layout, as a table
// (lanemap/diagram_tmem.hpp). CUTLASS picks the load from the data paths one warp's subpartition holds: its
// epilogue tile has min(CTA rows, 32 x warps along M) rows, so 4x1 warps over 128 rows (layouts A, D) and 2x2
// warps over 64 rows (B, and C: its 2-CTA M = 128 tiling does not look at sparsity) give 32 data paths a
// warp, and 4x1 warps over 64 rows (F) give 16. Its default tile (no source C) is 4096 / rows columns wide.
#include "lanemap/diagram_tmem.hpp"

#include <algorithm>
#include <stdexcept>

namespace lanemap {

const std::vector<EpilogueLoad>& epilogueLoads() {
    using tmem::Layout;
    using tmem::Shape;
    static const std::vector<EpilogueLoad> loads{
        {Layout::A, 32, Shape::S32x32b, 32, true, "4x1 warps over 128 rows a CTA: SM100_TMEM_LOAD_32dp32b"},
        {Layout::B, 32, Shape::S32x32b, 32, true, "2x2 warps over 64 rows a CTA: SM100_TMEM_LOAD_32dp32b"},
        {Layout::C, 32, Shape::S32x32b, 32, true,
         "2x2 warps over 64 rows a CTA (CUTLASS tiles every 2-CTA M = 128 MMA so): SM100_TMEM_LOAD_32dp32b"},
        {Layout::D, 32, Shape::S32x32b, 32, true, "4x1 warps over 128 rows: SM100_TMEM_LOAD_32dp32b"},
        {Layout::E, 32, Shape::S32x32b, 32, false,
         "CUTLASS's SM100 builders issue no .ws MMA; lanemap's choice: every subpartition holds 32 lanes of "
         "D"},
        {Layout::F, 16, Shape::S16x128b, 64, true,
         "4x1 warps over 64 rows, 16 a warp: SM100_TMEM_LOAD_16dp128b (f32 accumulator stored as f32, "
         "N-major; a 16-bit or M-major D takes 16dp256b)"},
        {Layout::G, 32, Shape::S32x32b, 32, false,
         "CUTLASS's SM100 builders issue no .ws MMA; lanemap's choice: every subpartition holds 32 lanes of "
         "D"},
    };
    return loads;
}

const EpilogueLoad& epilogueLoadOf(tmem::Layout layout) {
    const auto& loads = epilogueLoads();
    const auto it =
        std::find_if(loads.begin(), loads.end(), [&](const EpilogueLoad& l) { return l.layout == layout; });
    if (it == loads.end())
        throw std::invalid_argument("no epilogue load for layout " + std::string(tmem::toString(layout)));
    return *it;
}

tmem::Access defaultAccess(const tmem::MmaShape& shape, tmem::Op op) {
    // Columns of the operand: D one per N column (the layout's slabs fold N: the widest column used + 1),
    // A its K elements packed 32 / bits a column.
    int columns = 1;
    tmem::Shape s = tmem::Shape::S32x32b;
    int limit = 32;
    if (op == tmem::Op::Ld) {
        for (int n = 0; n < shape.n; ++n)
            columns = std::max(columns, tmem::placeD(shape, 0, n).column + 1);
        const EpilogueLoad& load = epilogueLoadOf(tmem::layoutOf(shape).layout);
        s = load.shape;
        limit = load.columns;
    } else
        columns = std::max(1, tmem::kOf(shape.kind, shape.sparse) / (shape.sparse ? 2 : 1) *
                                  tmem::aElementBits(shape.kind) / 32);
    const int perRepetition = tmem::recordOf(s).bitsPerLane / 32;
    int num = 1;
    while (num * perRepetition < std::min(columns, limit))
        num *= 2;
    return {op, s, num, false};
}

} // namespace lanemap
