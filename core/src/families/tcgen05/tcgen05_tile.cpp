// A tile of tcgen05.mma atoms over the CTAs of a cluster (lanemap/tile_ctas.hpp, docs/tiles.md): CuTe's
// make_tiled_mma with an SM100 atom, whose "threads" are CTAs. One rule places every element of A, B and D
// (and a sparse atom's metadata); the placements, `where` and `what --cta` read it.
#include "lanemap/tile_ctas.hpp"

#include "lanemap/diagram_tmem.hpp"
#include "lanemap/tmem.hpp"
#include "model/tile_rules.hpp"

#include <algorithm>

namespace lanemap::tile {

namespace {

// The atom's shape at the instance's N (a tile instance's n is the tile's: its facts keep the atom's).
tmem::MmaShape atomShapeOf(const Instruction& in) {
    tmem::MmaShape shape = *tmem::mmaOf(in);
    shape.n = in.tile ? in.tile->atomShape[N] : in.n;
    return shape;
}

// The ISA's metadata figure of a sparse atom where lanemap transcribed it (lanemap/tcgen05_tmem_tables.hpp);
// nullptr elsewhere (M = 64, cta_group::2 M = 128): the tile then places no metadata and says why.
const tcgen05::MetadataLayoutRecord* metadataOf(const tmem::MmaShape& shape, std::string* why = nullptr) {
    const tcgen05::MetadataLayoutRecord* rec =
        tcgen05::metadataLayoutOf(shape.kind, shape.m, shape.ctaGroup, why);
    if (rec && !rec->place && why)
        *why = "PTX ISA " + std::string(rec->figure) + ": " + std::string(rec->finding);
    return rec && rec->place ? rec : nullptr;
}

// The rule, set up once per instance: the facts, the inverse permutations and each CTA's part of A and B.
struct Rule {
    TileFacts f;
    TileLayout t;
    tmem::MmaShape shape;
    int g = 1;     // the atom's CTAs
    int restK = 1; // the atom's K steps per CTA
    std::array<std::vector<int>, 3> inverse;
    std::optional<smem::SharedOperand> a, b;
    // A sparse atom: A is the compressed M x K/2 (nonZero of each group of K kept), its metadata in Tensor
    // Memory where the ISA's figure is transcribed (meta), each K step's columns after the previous one's.
    tcgen05::SparseGranularity sparse{1, 1, 0};
    const tcgen05::MetadataLayoutRecord* meta = nullptr;
    int metaColumns = 0;

    explicit Rule(const Instruction& in) : f(*in.tile), t(*in.params.tile), shape(atomShapeOf(in)) {
        g = shape.ctaGroup;
        restK = f.extent[K] / (f.atomShape[K] * f.atomsPerMode[K]);
        if (shape.sparse) {
            sparse = tcgen05::sparseGranularity(shape.kind);
            meta = metadataOf(shape);
            for (int m = 0; meta && m < shape.m / g; ++m)
                for (int group = 0; group < tcgen05::metadataGroupsPerRow(shape.kind); ++group)
                    metaColumns = std::max(metaColumns, meta->place(m, group).column + 1);
        }
        for (int m = 0; m < 3; ++m)
            if (const std::optional<CuteLayout>& p = t.permutation[m]) {
                inverse[m].assign(static_cast<std::size_t>(p->size()), 0);
                for (int i = 0; i < p->size(); ++i)
                    inverse[m][static_cast<std::size_t>((*p)(i))] = i;
            }
        a = ctaPart(in, Operand::A);
        b = ctaPart(in, Operand::B);
    }
    int unpermuted(Mode m, int i) const {
        return inverse[m].empty() ? i : inverse[m][static_cast<std::size_t>(i)];
    }
    SmemByte byteOf(const smem::SharedOperand& part, int row, int col, int cta) const {
        const smem::Coord at = part.toLayout(row, col);
        const smem::Placement p = part.layout.placement(at.mn, at.k);
        return SmemByte{p.address, p.bit, part.layout.elementBits(), cta};
    }

    std::vector<CtaHolding> holders(Operand o, int row, int col) const {
        std::vector<CtaHolding> out;
        const int AM = f.atomShape[M], AN = f.atomShape[N], AK = f.atomShape[K];
        const int WM = f.atomsPerMode[M], WN = f.atomsPerMode[N], WK = f.atomsPerMode[K];
        const auto kOf = [&](int k, int& ak, int& wk, int& rk) {
            const int uk = unpermuted(K, k);
            ak = uk % AK;
            wk = (uk / AK) % WK;
            rk = uk / (AK * WK);
        };
        if (o == Operand::A) {
            // A sparse A's column is a stored (compressed) one: K/2 of them, in K order.
            const int AKs = AK * sparse.nonZero / sparse.group;
            if (row < 0 || row >= f.extent[M] || col < 0 ||
                col >= f.extent[K] * sparse.nonZero / sparse.group || !a)
                return out;
            const int um = unpermuted(M, row);
            const int am = um % AM, wm = (um / AM) % WM;
            int ak = 0, wk = 0, rk = 0;
            if (shape.sparse) {
                ak = col % AKs;
                wk = (col / AKs) % WK;
                rk = col / (AKs * WK);
            } else {
                kOf(col, ak, wk, rk);
            }
            const int part = AM / g, v = am / part, lr = am % part, lc = ak + AKs * rk;
            for (int wn = 0; wn < WN; ++wn) {
                const AtomCopy w{wm, wn, wk};
                const int cta = ctaThread(f, t, v, w);
                out.push_back({o, cta, v, w, lr + part * lc, lr, lc, byteOf(*a, lr, lc, cta)});
            }
        } else if (o == Operand::Metadata) {
            // Group `col` of the tile's K (K elements group*col ..): the atom's figure in each CTA that holds
            // the row of A, K steps in the next columns (CuTe's tmem_e_frg tiles the atom so).
            const int groupsPerAtom = AK / sparse.group;
            if (!meta || row < 0 || row >= f.extent[M] || col < 0 || col >= f.extent[K] / sparse.group)
                return out;
            const int um = unpermuted(M, row);
            const int am = um % AM, wm = (um / AM) % WM;
            int ak = 0, wk = 0, rk = 0;
            kOf(col * sparse.group, ak, wk, rk);
            const int part = AM / g, v = am / part, lr = am % part, group = ak / sparse.group;
            const tcgen05::TmemPlace p = meta->place(lr, group);
            for (int wn = 0; wn < WN; ++wn) {
                const AtomCopy w{wm, wn, wk};
                const int cta = ctaThread(f, t, v, w);
                out.push_back({o, cta, v, w, lr + part * (group + groupsPerAtom * rk), lr,
                               group + groupsPerAtom * rk,
                               TmemCell{cta, p.lane, p.column + metaColumns * rk, p.lowBit, p.bits}});
            }
        } else if (o == Operand::B) {
            if (row < 0 || row >= f.extent[K] || col < 0 || col >= f.extent[N] || !b)
                return out;
            const int un = unpermuted(N, col);
            const int an = un % AN, wn = (un / AN) % WN;
            int ak = 0, wk = 0, rk = 0;
            kOf(row, ak, wk, rk);
            const int part = AN / g, v = an / part, lc = an % part, lr = ak + AK * rk;
            for (int wm = 0; wm < WM; ++wm) {
                const AtomCopy w{wm, wn, wk};
                const int cta = ctaThread(f, t, v, w);
                out.push_back(
                    {o, cta, v, w, lc + part * ak + part * AK * rk, lr, lc, byteOf(*b, lr, lc, cta)});
            }
        } else if (o == Operand::D) {
            if (row < 0 || row >= f.extent[M] || col < 0 || col >= f.extent[N])
                return out;
            const int um = unpermuted(M, row), un = unpermuted(N, col);
            const int am = um % AM, wm = (um / AM) % WM, an = un % AN, wn = (un / AN) % WN;
            const tmem::Placement p = tmem::placeD(shape, am, an);
            const int part = AM / g, lr = am % part;
            for (int wk = 0; wk < WK; ++wk) {
                const AtomCopy w{wm, wn, wk};
                const int cta = ctaThread(f, t, p.cta, w);
                out.push_back(
                    {o, cta, p.cta, w, lr + part * an, lr, an, TmemCell{cta, p.lane, p.column, p.bit, 32}});
            }
        }
        std::sort(out.begin(), out.end(),
                  [](const CtaHolding& x, const CtaHolding& y) { return x.cta < y.cta; });
        return out;
    }
};

std::string modeName(int m) {
    return kModeNames[m];
}

} // namespace

bool overCtas(const Instruction& in) {
    return in.tile && in.params.tile && tmem::mmaOf(in) != nullptr;
}

std::string validateOverCtas(const tmem::MmaShape& shape, const TileLayout& tile) {
    const std::string spec = tmem::specOf(shape, true);
    for (int m = 0; m < 3; ++m)
        if (tile.atoms.shape[m] < 1)
            return "--atom-layout: mode " + modeName(m) + " has no atoms";
    const int copies = tile.atoms.size();
    if (static_cast<long long>(copies) * shape.ctaGroup > kMaxClusterCtas)
        return "--atom-layout " + tile.atomLayoutText() + " asks for " + std::to_string(copies) +
               " atoms x " + std::to_string(shape.ctaGroup) + " CTA" + (shape.ctaGroup == 1 ? "" : "s") +
               " = " + std::to_string(copies * shape.ctaGroup) + " CTAs; a cluster has at most " +
               std::to_string(kMaxClusterCtas) +
               " (sm_100 with the non-portable cluster size; 8 portable), so " + spec + " takes at most " +
               std::to_string(kMaxClusterCtas / shape.ctaGroup) + " atoms";
    if (std::string why = checkNumbering(tile); !why.empty())
        return why;
    const std::array<int, 3> atomShape{shape.m, shape.n, tmem::kOf(shape.kind, shape.sparse)};
    for (int m = 0; m < 3; ++m) {
        const int core = atomShape[m] * tile.atoms.shape[m];
        if (core > kMaxExtent)
            return "the tile's " + modeName(m) + " is " + std::to_string(core) + " (" +
                   std::to_string(atomShape[m]) + " of the atom x " + std::to_string(tile.atoms.shape[m]) +
                   " atoms); lanemap draws at most " + std::to_string(kMaxExtent) + " along a mode";
        const std::optional<CuteLayout>& p = tile.permutation[m];
        if (!p)
            continue;
        if (std::string why = checkPermutation(spec, static_cast<Mode>(m), *p, atomShape[m],
                                               tile.atoms.shape[m], shape.sparse);
            !why.empty())
            return why;
        // A CTA keeps one accumulator of its atom in Tensor Memory: a larger M or N would run the atom again
        // in each CTA at Tensor Memory columns CuTe's fragment allocation chooses, which lanemap does not
        // place.
        if (m != K && p->size() != core)
            return "--permutation " + modeName(m) + " " + p->cute() + " covers " + std::to_string(p->size()) +
                   " elements; a tile of " + spec + " is " + std::to_string(core) + " along " + modeName(m) +
                   " (" + std::to_string(atomShape[m]) + " of the atom x " +
                   std::to_string(tile.atoms.shape[m]) +
                   " atoms): each CTA keeps one accumulator in Tensor Memory, so " + modeName(m) +
                   " is a reordering of _" + std::to_string(core) + " (more along " + modeName(m) +
                   " is more atoms, --atom-layout); K may be a multiple (K steps)";
    }
    return {};
}

std::optional<smem::SharedOperand> ctaPart(const Instruction& in, Operand operand) {
    if (!in.family || !in.family->sharedOperand || !tmem::mmaOf(in))
        return std::nullopt;
    const tmem::MmaShape shape = atomShapeOf(in);
    const int k = tmem::kOf(shape.kind, shape.sparse);
    const int kExtent = in.tile ? in.tile->extent[K] / in.tile->atomsPerMode[K] : k;
    const bool a = operand == Operand::A;
    const int rows = a ? shape.m / shape.ctaGroup : kExtent;
    const int cols =
        a ? (shape.sparse ? kExtent / 2 : kExtent) : shape.n / shape.ctaGroup; // sparse A: K/2 kept
    Placement part;
    std::string error;
    if (!in.family->sharedOperand(in, operand, in.params.smem.value_or(smem::Choice{}), rows, cols, part,
                                  error) ||
        !part.shared())
        return std::nullopt;
    return *part.shared();
}

const Placement* placementOf(const Instruction& in, Operand operand) {
    const bool tensor = operand == Operand::D || operand == Operand::Metadata;
    return in.placement(tensor ? Space::TensorMemory : Space::SharedMemory, operand);
}

std::optional<tcgen05::SparseGranularity> sparsityOf(const Instruction& in) {
    if (!overCtas(in) || !atomShapeOf(in).sparse)
        return std::nullopt;
    return tcgen05::sparseGranularity(atomShapeOf(in).kind);
}

std::optional<std::pair<int, int>> keptRange(const Instruction& in, int col) {
    const std::optional<tcgen05::SparseGranularity> g = sparsityOf(in);
    if (!g)
        return std::nullopt;
    const int first = col / g->nonZero * g->group;
    return std::pair{first, first + g->group - 1};
}

std::string metadataNote(const Instruction& in) {
    if (!overCtas(in) || !atomShapeOf(in).sparse)
        return {};
    std::string why;
    if (metadataOf(atomShapeOf(in), &why))
        return {};
    return "the sparse metadata is not placed: " + why;
}

std::vector<CtaHolding> ctaHolders(const Instruction& in, Operand operand, int row, int col) {
    if (!overCtas(in))
        return {};
    return Rule(in).holders(operand, row, col);
}

void applyOverCtas(Instruction& in) {
    const TileLayout& t = *in.params.tile;
    const tmem::MmaShape shape = atomShapeOf(in);
    TileFacts f;
    f.atomShape = {shape.m, shape.n, tmem::kOf(shape.kind, shape.sparse)};
    f.atomsPerMode = {t.atoms.shape[0], t.atoms.shape[1], t.atoms.shape[2]};
    f.atomThreads = shape.ctaGroup; // the atom's "threads" are its CTAs, as CuTe's ThrID says
    for (int m = 0; m < 3; ++m)
        f.extent[m] = t.permutation[m] ? t.permutation[m]->size() : f.atomShape[m] * f.atomsPerMode[m];
    f.threads = shape.ctaGroup * t.atoms.size();
    f.atomLayout = t.atomLayoutText();
    f.permutation = t.permutationText();
    f.atomSpec = tmem::specOf(shape, true); // the entry's spec names no N; the atom's does
    in.tile = std::make_shared<const TileFacts>(std::move(f));
    const Rule rule(in);
    const TileFacts& facts = *in.tile;

    std::vector<Placement> placements;
    const auto place = [&](Operand o, Space space, ElementType type, int rows, int cols, Source source) {
        Placement::Cells cells(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) {
                for (const CtaHolding& h : rule.holders(o, r, c))
                    cells.add(Holding{h.at, source});
                cells.next();
            }
        Placement p = Placement::table(o, space, type, rows, cols, std::move(cells));
        p.setClusterCtas(facts.threads);
        placements.push_back(std::move(p));
    };
    const int M_ = facts.extent[M], N_ = facts.extent[N], K_ = facts.extent[K];
    place(Operand::D, Space::TensorMemory, in.dtype, M_, N_, Source::Figure);
    place(Operand::A, Space::SharedMemory, in.atype, M_, K_ * rule.sparse.nonZero / rule.sparse.group,
          Source::Doc);
    place(Operand::B, Space::SharedMemory, in.btype, K_, N_, Source::Doc);
    if (rule.meta)
        place(Operand::Metadata, Space::TensorMemory, ElementType::U4, M_, K_ / rule.sparse.group,
              Source::Figure);
    in.placements = std::move(placements);
    in.m = M_;
    in.n = N_;
    in.k = K_;
    in.scope = Scope::Cta;
    in.hardware = nullptr; // nothing ran tcgen05: no recorded run confirms the atom or the tile
}

} // namespace lanemap::tile
