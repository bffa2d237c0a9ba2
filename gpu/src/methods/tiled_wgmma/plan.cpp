// The tiled-wgmma method's host half (tiled_wgmma.hpp): the plan, lanemap's expectation, the kernel's rule on
// the CPU and the interpretation. CUDA-free.
#include "methods/tiled_wgmma/tiled_wgmma.hpp"
#include "shared/tile_values.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/gpu/wgmma.hpp"
#include "lanemap/smem.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <sstream>

namespace lanemap::gpu::tiledwgmma {

namespace {

using tilevalues::floatOfHalf;
using tilevalues::halfOf;
using tilevalues::valueA;
using tilevalues::valueB;

// The two forms the plan runs, in the order of the raw segments.
constexpr int kForms = 2; // 0: RS (A from registers), 1: SS (A from shared memory)
constexpr const char* kFormNames[kForms] = {"RS", "SS"};

std::size_t segment(const Plan& p, int form, int run) {
    return static_cast<std::size_t>(2 * form + run) * p.segmentWords();
}
std::size_t word(const Plan& p, int form, int run, int thread, int index) {
    return segment(p, form, run) +
           static_cast<std::size_t>(thread) * static_cast<std::size_t>(p.kernel.words()) +
           static_cast<std::size_t>(index);
}
std::size_t imageAt(const Plan& p, int form, int run) {
    return segment(p, form, run) +
           static_cast<std::size_t>(p.kernel.threads) * static_cast<std::size_t>(p.kernel.words());
}
// The 16-bit element at byte `address` of a segment's image.
std::uint16_t halfAt(std::span<const std::uint32_t> raw, std::size_t image, std::uint32_t address) {
    const std::uint32_t w = raw[image + address / 4];
    return static_cast<std::uint16_t>((address & 2) ? w >> 16 : w & 0xFFFFu);
}
void setHalf(std::vector<std::uint32_t>& raw, std::size_t image, std::uint32_t address, std::uint16_t h) {
    std::uint32_t& w = raw[image + address / 4];
    w = (address & 2) ? (w & 0xFFFFu) | (static_cast<std::uint32_t>(h) << 16) : (w & 0xFFFF0000u) | h;
}

const smem::Choice kChoice{smem::Major::K, smem::Swizzle::None};

// The shared-memory operand (A: M x K, B: K x N of the tile) in lanemap::smem's layout of the whole tile.
std::optional<smem::SharedOperand> sharedOf(const Instruction& tile, Operand o, std::string& error) {
    const Variant* atom = Catalog::instance().variant(tile.spec);
    if (!atom) {
        error = "no catalog atom " + tile.spec;
        return std::nullopt;
    }
    const tile::TileFacts& f = *tile.tile;
    return o == Operand::A ? smem::operandOver(*atom, o, kChoice, f.extent[0], f.extent[2], error)
                           : smem::operandOver(*atom, o, kChoice, f.extent[2], f.extent[1], error);
}

// What lanemap's tile says a warpgroup reads from shared memory: for each atom copy of the tile's own layout
// and each rest position, every element of the atom's A (SS) or B block, with the CTA's warpgroup that reads
// it, the tile element (row, col) and the byte where lanemap::smem's tile layout puts the block's element.
struct Read {
    int warpgroup = 0, row = 0, col = 0;
    std::uint32_t address = 0;
};
void forEachRead(const Plan& p, Operand o, const std::function<void(const Read&)>& visit) {
    const Instruction& in = *p.instruction;
    const tile::TileFacts& f = *in.tile;
    const tile::TileLayout& t = *in.params.tile;
    const KernelTile& k = p.kernel;
    std::string error;
    const std::optional<smem::SharedOperand> op = sharedOf(in, o, error);
    if (!op)
        return;
    const bool a = o == Operand::A;
    // A: M x K (rests M, K); B: K x N (rests N, K).
    const tile::Mode outer = a ? tile::M : tile::N;
    const int outerAtom = a ? kAtomM : k.atomN;
    const int outerAtoms = a ? k.atomsM : k.atomsN;
    const int outerRest = a ? k.restM : k.restN;
    for (int wk = 0; wk < k.atomsK; ++wk)
        for (int wn = 0; wn < k.atomsN; ++wn)
            for (int wm = 0; wm < k.atomsM; ++wm) {
                const int g = tile::ctaThread(f, t, 0, {wm, wn, wk}) / kWarpgroup;
                const int wo = a ? wm : wn;
                for (int rk = 0; rk < k.restK; ++rk)
                    for (int ro = 0; ro < outerRest; ++ro)
                        for (int ao = 0; ao < outerAtom; ++ao)
                            for (int ak = 0; ak < kAtomK; ++ak) {
                                Read r;
                                r.warpgroup = g;
                                const int to = tile::tileCoordinate(f, t, outer, ao, wo, ro);
                                const int tk = tile::tileCoordinate(f, t, tile::K, ak, wk, rk);
                                r.row = a ? to : tk;
                                r.col = a ? tk : to;
                                const int mn = ao + outerAtom * (wo + outerAtoms * ro);
                                const int kk = ak + kAtomK * (wk + k.atomsK * rk);
                                r.address =
                                    (a ? 0u : static_cast<std::uint32_t>(k.bAt)) + op->layout.address(mn, kk);
                                visit(r);
                            }
            }
}

// Which k of each row of A and each column of B a warpgroup holds or reads (lanemap's tile): a D register of
// warpgroup g at (m, n) holds the sum over the k both have.
struct Holdings {
    int m = 0, n = 0, k = 0;
    std::vector<char> rowK, colK; // [warpgroup][m][k], [warpgroup][n][k]
    explicit Holdings(const Plan& p) : m(p.kernel.m), n(p.kernel.n), k(p.kernel.k) {
        const int groups = p.kernel.threads / kWarpgroup;
        rowK.assign(static_cast<std::size_t>(groups) * m * k, 0);
        colK.assign(static_cast<std::size_t>(groups) * n * k, 0);
        for (const Element& e : p.instruction->operand(Operand::A)->elements())
            rowK[(static_cast<std::size_t>(e.thread / kWarpgroup) * m + e.row) * k + e.col] = 1;
        forEachRead(p, Operand::B, [&](const Read& r) {
            colK[(static_cast<std::size_t>(r.warpgroup) * n + r.col) * k + r.row] = 1;
        });
    }
    std::uint32_t sum(int g, int row, int col) const {
        float s = 0;
        for (int kk = 0; kk < k; ++kk)
            if (rowK[(static_cast<std::size_t>(g) * m + row) * k + kk] &&
                colK[(static_cast<std::size_t>(g) * n + col) * k + kk])
                s += static_cast<float>(valueA(row, kk) * valueB(kk, col));
        return std::bit_cast<std::uint32_t>(s);
    }
};

} // namespace

std::string atomPtx(int n) {
    return "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32.f16.f16";
}

std::string unsupportedTile(const Instruction& tile) {
    if (!tile.tile || !tile.params.tile)
        return tile.spec + " is not a tile (give --atom-layout and --permutation)";
    const tile::TileFacts& f = *tile.tile;
    const int atomN = f.atomShape[1];
    const bool built = std::find(std::begin(kAtomNs), std::end(kAtomNs), atomN) != std::end(kAtomNs);
    if (tile.ptx != atomPtx(atomN) || !built) {
        std::string ns;
        for (int n : kAtomNs)
            ns += (ns.empty() ? "" : ", ") + std::to_string(n);
        return "the tiled-wgmma kernel runs tiles of wgmma.m64nNk16.f16 with f32 accumulators (" +
               atomPtx(atomN) + ", N one of " + ns + "); " + tile.spec + " is not one (docs/tiles.md#proof)";
    }
    if (f.threads > maxThreads(atomN))
        return "the tiled-wgmma kernel of N " + std::to_string(atomN) + " runs at most " +
               std::to_string(maxThreads(atomN) / kWarpgroup) + " warpgroups (its " +
               std::to_string(atomN / 2) +
               " accumulators need that many registers per thread); this tile has " +
               std::to_string(f.threads / kWarpgroup);
    const int restM = f.extent[0] / (kAtomM * f.atomsPerMode[0]);
    const int restN = f.extent[1] / (atomN * f.atomsPerMode[1]);
    if (restM * restN * atomN / 2 > kMaxAccumulators)
        return "the kernel keeps at most " + std::to_string(kMaxAccumulators) +
               " accumulators per thread; this tile has " + std::to_string(restM * restN * atomN / 2) +
               " (give more warpgroups along M or N, or a smaller tile)";
    if (static_cast<long>(f.extent[0]) * f.extent[2] > 65536 ||
        static_cast<long>(f.extent[2]) * f.extent[1] > 65536)
        return "the tags of A and B are 16-bit element indices: the tile's M x K and K x N must be at most "
               "65536";
    std::string error;
    const std::optional<smem::SharedOperand> a = sharedOf(tile, Operand::A, error);
    const std::optional<smem::SharedOperand> b = a ? sharedOf(tile, Operand::B, error) : std::nullopt;
    if (!b)
        return "the tile's A and B in shared memory: " + error;
    const long bytes = (static_cast<long>(a->layout.footprintBytes()) + 1023) / 1024 * 1024 +
                       static_cast<long>(b->layout.footprintBytes());
    if (bytes + 1024 > 227L * 1024)
        return "the kernel stages A and B in shared memory: " + std::to_string(bytes) +
               " bytes (and 1024 to align them), beyond the 232448 one CTA can have";
    return "";
}

Plan planProbe(const Instruction& tile, const tile::TileLayout* kernelTile) {
    Plan p;
    p.instruction = &tile;
    p.unsupported = unsupportedTile(tile);
    if (!p.unsupported.empty())
        return p; // the device's binding refuses it (prepareLaunch), with the reason
    const tile::TileFacts& f = *tile.tile;
    const tile::TileLayout& t = kernelTile ? *kernelTile : *tile.params.tile;
    KernelTile& k = p.kernel;
    k.m = f.extent[0];
    k.n = f.extent[1];
    k.k = f.extent[2];
    k.atomN = f.atomShape[1];
    k.atomsM = f.atomsPerMode[0];
    k.atomsN = f.atomsPerMode[1];
    k.atomsK = f.atomsPerMode[2];
    k.restM = k.m / (kAtomM * k.atomsM);
    k.restN = k.n / (k.atomN * k.atomsN);
    k.restK = k.k / (kAtomK * k.atomsK);
    k.threads = f.threads;
    k.perA = 8 * k.restM * k.restK;
    k.perD = k.atomN / 2 * k.restM * k.restN;
    std::string error;
    const smem::SharedOperand a = *sharedOf(tile, Operand::A, error);
    const smem::SharedOperand b = *sharedOf(tile, Operand::B, error);
    k.aBytes = static_cast<int>(a.layout.footprintBytes());
    k.bAt = (k.aBytes + 1023) / 1024 * 1024;
    k.bBytes = (static_cast<int>(b.layout.footprintBytes()) + 15) / 16 * 16;
    // Warpgroup g runs the atom at (wm, wn, wk) where the atom layout numbers it g (CuTe's right inverse).
    const int atoms[3] = {k.atomsM, k.atomsN, k.atomsK}, extents[3] = {k.m, k.n, k.k};
    p.table = tilevalues::placesAndPermutations(t, k.threads / kWarpgroup, atoms, extents);
    // Where lanemap::smem puts each element of the tile's A and B (tile indices, before the permutation).
    for (int m = 0; m < k.m; ++m)
        for (int kk = 0; kk < k.k; ++kk)
            p.table.push_back(static_cast<int>(a.layout.address(m, kk)));
    for (int n = 0; n < k.n; ++n)
        for (int kk = 0; kk < k.k; ++kk)
            p.table.push_back(k.bAt + static_cast<int>(b.layout.address(n, kk)));
    // One descriptor per atom block, as the wgmma probe builds them: the layout's LBO and SBO, the start at
    // the block's first element (CuTe's descriptor iterator adds the unswizzled offset).
    auto descriptorAt = [](const smem::SmemLayout& l, int mn, int kk, int at) {
        smem::MatrixDescriptor d = l.descriptor();
        d.startAddress = static_cast<std::uint32_t>(at) + l.placement(mn, kk).linear;
        return smem::encodeDescriptor(d);
    };
    for (int bm = 0; bm < k.blocksM(); ++bm)
        for (int bk = 0; bk < k.blocksK(); ++bk)
            p.descriptors.push_back(descriptorAt(a.layout, bm * kAtomM, bk * kAtomK, 0));
    for (int bn = 0; bn < k.blocksN(); ++bn)
        for (int bk = 0; bk < k.blocksK(); ++bk)
            p.descriptors.push_back(descriptorAt(b.layout, bn * k.atomN, bk * kAtomK, k.bAt));
    for (int m = 0; m < k.m; ++m)
        for (int kk = 0; kk < k.k; ++kk) {
            p.tagsA.push_back(static_cast<std::uint16_t>(m * k.k + kk));
            p.valuesA.push_back(halfOf(valueA(m, kk)));
        }
    for (int kk = 0; kk < k.k; ++kk)
        for (int n = 0; n < k.n; ++n) {
            p.tagsB.push_back(static_cast<std::uint16_t>(kk * k.n + n));
            p.valuesB.push_back(halfOf(valueB(kk, n)));
        }
    return p;
}

std::vector<std::uint32_t> simulate(const Plan& p) {
    const KernelTile& k = p.kernel;
    std::vector<std::uint32_t> raw(p.outWords(), 0u);
    if (!p.unsupported.empty())
        return raw;
    const Instruction& in = *p.instruction;
    const Holdings h(p);
    for (int form = 0; form < kForms; ++form)
        for (int run = 0; run < 2; ++run) {
            const std::vector<std::uint16_t>& A = run ? p.valuesA : p.tagsA;
            const std::vector<std::uint16_t>& B = run ? p.valuesB : p.tagsB;
            if (form == 0)
                for (const Element& e : in.operand(Operand::A)->elements())
                    raw[word(p, form, run, e.thread, e.index)] =
                        A[static_cast<std::size_t>(e.row * k.k + e.col)];
            else
                forEachRead(p, Operand::A, [&](const Read& r) {
                    setHalf(raw, imageAt(p, form, run), r.address,
                            A[static_cast<std::size_t>(r.row * k.k + r.col)]);
                });
            forEachRead(p, Operand::B, [&](const Read& r) {
                setHalf(raw, imageAt(p, form, run), r.address,
                        B[static_cast<std::size_t>(r.row * k.n + r.col)]);
            });
            if (run)
                for (const Element& e : in.operand(Operand::D)->elements())
                    raw[word(p, form, run, e.thread, k.perA + e.index)] =
                        h.sum(e.thread / kWarpgroup, e.row, e.col);
        }
    return raw;
}

std::vector<std::uint32_t> emulate(const Plan& p) {
    const KernelTile& k = p.kernel;
    std::vector<std::uint32_t> raw(p.outWords(), 0u);
    if (!p.unsupported.empty())
        return raw;
    const int groups = k.threads / kWarpgroup;
    const int* pM = p.table.data() + 3 * groups;
    const int* pN = pM + k.m;
    const int* pK = pN + k.n;
    const int* addressA = p.table.data() + k.tableAddressesA();
    const int* addressB = p.table.data() + k.tableAddressesB();
    const int W = k.atomN / 2;
    for (int form = 0; form < kForms; ++form)
        for (int run = 0; run < 2; ++run) {
            const std::vector<std::uint16_t>& A = run ? p.valuesA : p.tagsA;
            const std::vector<std::uint16_t>& B = run ? p.valuesB : p.tagsB;
            // The CTA stages B (and A for SS) at lanemap::smem's addresses, the permutations applied to the
            // global indices; the image is copied back.
            const std::size_t image = imageAt(p, form, run);
            for (int n = 0; n < k.n; ++n)
                for (int kk = 0; kk < k.k; ++kk)
                    setHalf(raw, image, static_cast<std::uint32_t>(addressB[n * k.k + kk]),
                            B[static_cast<std::size_t>(pK[kk] * k.n + pN[n])]);
            if (form == 1)
                for (int m = 0; m < k.m; ++m)
                    for (int kk = 0; kk < k.k; ++kk)
                        setHalf(raw, image, static_cast<std::uint32_t>(addressA[m * k.k + kk]),
                                A[static_cast<std::size_t>(pM[m] * k.k + pK[kk])]);
            // A read outside the image (a descriptor that points past it) finds zeros, as the kernel's
            // cleared shared memory beyond its image would be read by no other data.
            auto read = [&](std::uint64_t descriptor, int mn, int kk) {
                const wg::HardwareAddress at = wg::descriptorAddress(descriptor, smem::Major::K, 16, mn, kk);
                if (at.byte + 2 > static_cast<std::uint32_t>(k.imageBytes()))
                    return 0.0f;
                return floatOfHalf(halfAt(raw, image, at.byte));
            };
            for (int g = 0; g < groups; ++g) {
                const int wm = p.table[static_cast<std::size_t>(3 * g)],
                          wn = p.table[static_cast<std::size_t>(3 * g + 1)],
                          wk = p.table[static_cast<std::size_t>(3 * g + 2)];
                std::vector<float> acc(static_cast<std::size_t>(kWarpgroup * k.perD), 0.0f);
                for (int rk = 0; rk < k.restK; ++rk)
                    for (int rm = 0; rm < k.restM; ++rm)
                        for (int rn = 0; rn < k.restN; ++rn) {
                            const int bm = wm + k.atomsM * rm, bn = wn + k.atomsN * rn,
                                      bk = wk + k.atomsK * rk;
                            std::vector<float> a(kAtomM * kAtomK),
                                b(static_cast<std::size_t>(kAtomK * k.atomN));
                            if (form == 0)
                                for (int v = 0; v < kWarpgroup; ++v)
                                    for (int i = 0; i < 8; ++i) {
                                        int r = 0, c = 0;
                                        atomA(v, i, r, c);
                                        const std::uint16_t h = A[static_cast<std::size_t>(
                                            pM[r + kAtomM * bm] * k.k + pK[c + kAtomK * bk])];
                                        if (rn == 0)
                                            raw[word(p, form, run, kWarpgroup * g + v,
                                                     i + 8 * (rm + k.restM * rk))] = h;
                                        a[static_cast<std::size_t>(r * kAtomK + c)] = floatOfHalf(h);
                                    }
                            else
                                for (int r = 0; r < kAtomM; ++r)
                                    for (int c = 0; c < kAtomK; ++c)
                                        a[static_cast<std::size_t>(r * kAtomK + c)] = read(
                                            p.descriptors[static_cast<std::size_t>(bm * k.blocksK() + bk)], r,
                                            c);
                            const std::uint64_t descB = p.descriptors[static_cast<std::size_t>(
                                k.blocksM() * k.blocksK() + bn * k.blocksK() + bk)];
                            for (int kk = 0; kk < kAtomK; ++kk)
                                for (int n = 0; n < k.atomN; ++n)
                                    b[static_cast<std::size_t>(kk * k.atomN + n)] = read(descB, n, kk);
                            if (!run)
                                continue;
                            for (int v = 0; v < kWarpgroup; ++v)
                                for (int i = 0; i < W; ++i) {
                                    int r = 0, c = 0;
                                    atomD(v, i, r, c);
                                    float s = 0;
                                    for (int kk = 0; kk < kAtomK; ++kk)
                                        s += a[static_cast<std::size_t>(r * kAtomK + kk)] *
                                             b[static_cast<std::size_t>(kk * k.atomN + c)];
                                    acc[static_cast<std::size_t>(v * k.perD + W * (rm + k.restM * rn) + i)] +=
                                        s;
                                }
                        }
                for (int v = 0; v < kWarpgroup; ++v)
                    for (int i = 0; i < k.perD; ++i)
                        raw[word(p, form, run, kWarpgroup * g + v, k.perA + i)] =
                            std::bit_cast<std::uint32_t>(acc[static_cast<std::size_t>(v * k.perD + i)]);
            }
        }
    return raw;
}

Interpretation interpret(const Plan& p, std::span<const std::uint32_t> raw) {
    Interpretation out;
    ProbeResult& r = out.result;
    const Instruction& in = *p.instruction;
    r.spec = tile::nameOf(in);
    r.experiments = 4;
    if (!p.unsupported.empty()) {
        r.verdict = Verdict::Unsupported;
        r.reason = p.unsupported;
        return out;
    }
    if (raw.size() < p.outWords()) {
        r.verdict = Verdict::Fail;
        r.reason =
            "the device wrote " + std::to_string(raw.size()) + " words, not " + std::to_string(p.outWords());
        return out;
    }
    const KernelTile& k = p.kernel;
    const Holdings holdings(p);
    constexpr std::size_t kKept = 64;
    auto tagName = [&](Operand o, std::uint32_t tag) {
        const std::uint32_t cols = static_cast<std::uint32_t>(o == Operand::A ? k.k : k.n);
        return std::string(o == Operand::A ? "A[" : "B[") + std::to_string(tag / cols) + "][" +
               std::to_string(tag % cols) + "]";
    };
    auto mismatch = [&](Operand o, int row, int col, int thread, int index, std::string experiment,
                        std::string expected, std::string observed) {
        ++r.cellsMismatched;
        if (r.mismatches.size() >= kKept)
            return;
        ProbeMismatch m;
        m.operand = o;
        m.row = row;
        m.col = col;
        m.thread = thread;
        m.index = index;
        m.experiment = std::move(experiment);
        m.expected = std::move(expected);
        m.observed = std::move(observed);
        r.mismatches.push_back(std::move(m));
    };
    for (int form = 0; form < kForms; ++form) {
        const std::string name = kFormNames[form];
        if (form == 0)
            for (const Element& e : in.operand(Operand::A)->elements()) {
                ++r.cellsChecked;
                const std::uint32_t got = raw[word(p, form, 0, e.thread, e.index)] & 0xFFFFu;
                const std::uint32_t want = p.tagsA[static_cast<std::size_t>(e.row * k.k + e.col)];
                if (got != want)
                    mismatch(Operand::A, e.row, e.col, e.thread, e.index,
                             name + ": A registers as loaded (tags)", tagName(Operand::A, want),
                             tagName(Operand::A, got));
            }
        for (Operand o : {Operand::A, Operand::B}) {
            if (o == Operand::A && form == 0)
                continue;
            const std::size_t image = imageAt(p, form, 0);
            forEachRead(p, o, [&](const Read& read) {
                ++r.cellsChecked;
                const std::uint32_t got = halfAt(raw, image, read.address);
                const std::uint32_t want = o == Operand::A
                                               ? p.tagsA[static_cast<std::size_t>(read.row * k.k + read.col)]
                                               : p.tagsB[static_cast<std::size_t>(read.row * k.n + read.col)];
                if (got != want)
                    mismatch(o, read.row, read.col, kWarpgroup * read.warpgroup, -1,
                             name + ": " + std::string(toString(o)) + " in shared memory where warpgroup " +
                                 std::to_string(read.warpgroup) + "'s descriptor reads it (byte " +
                                 std::to_string(read.address) + ", tags)",
                             tagName(o, want), tagName(o, got));
            });
        }
        for (const Element& e : in.operand(Operand::D)->elements()) {
            ++r.cellsChecked;
            const std::uint32_t got = raw[word(p, form, 1, e.thread, k.perA + e.index)];
            const std::uint32_t want = holdings.sum(e.thread / kWarpgroup, e.row, e.col);
            if (got != want)
                mismatch(Operand::D, e.row, e.col, e.thread, e.index,
                         name + ": D registers after the tile's wgmma",
                         std::to_string(std::bit_cast<float>(want)),
                         std::to_string(std::bit_cast<float>(got)));
        }
    }
    r.verdict = r.cellsMismatched ? Verdict::Fail : Verdict::Pass;
    std::ostringstream f;
    f << "one CTA of " << k.threads << " threads ran " << k.threads / kWarpgroup << " warpgroups x "
      << k.restM * k.restN * k.restK << " m64n" << k.atomN << "k16 atoms each (" << k.m << "x" << k.n << "x"
      << k.k
      << "), in the RS form (A from registers) and the SS form (A from shared memory); A and B staged "
         "K-major without swizzle in lanemap::smem's layout of the whole tile, each atom reading its block "
         "through a descriptor; every A register (RS), every element each warpgroup's descriptors read and "
         "every "
         "D register checked";
    r.findings.push_back(f.str());
    return out;
}

} // namespace lanemap::gpu::tiledwgmma
