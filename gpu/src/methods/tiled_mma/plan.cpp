// The tiled-mma method's host half (tiled_mma.hpp): the plan, lanemap's expectation, the kernel's rule on the
// CPU and the interpretation. CUDA-free.
#include "methods/tiled_mma/tiled_mma.hpp"
#include "shared/tile_values.hpp"

#include "lanemap/tiled_copy.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

namespace lanemap::gpu::tiledmma {

namespace {

using tilevalues::floatOfHalf;
using tilevalues::halfOf;
using tilevalues::valueA;
using tilevalues::valueB;

std::size_t at(const KernelTile& t, int run, int thread, int word) {
    return (static_cast<std::size_t>(run) * static_cast<std::size_t>(t.threads) +
            static_cast<std::size_t>(thread)) *
               static_cast<std::size_t>(t.words()) +
           static_cast<std::size_t>(word);
}

} // namespace

namespace {

// The ldmatrix copy reads 16-byte rows: along K (A's rows) and N (B's rows) the permutation must map each run
// of 8 tile indices starting at a multiple of 8 onto 8 consecutive global indices, 16-byte aligned.
std::string splitRun(const std::optional<CuteLayout>& p, int extent, const char* mode) {
    if (!p)
        return "";
    for (int i = 0; i < extent; i += 8) {
        const long long first = (*p)(i);
        if (first % 8)
            return std::string("--permutation ") + mode + " " + p->cute() + " maps " + std::to_string(i) +
                   " to " + std::to_string(first) + ", not a 16-byte aligned row start";
        for (int e = 1; e < 8; ++e)
            if ((*p)(i + e) != first + e)
                return std::string("--permutation ") + mode + " " + p->cute() + " splits the run " +
                       std::to_string(i) + ".." + std::to_string(i + 7) + " a 16-byte ldmatrix row holds";
    }
    return "";
}

} // namespace

banks::Placement stagingOf(const Instruction& tile, Operand operand, const SharedLoadCopy& loads) {
    banks::Placement p;
    p.major = operand == Operand::A ? banks::TileMajor::Row : banks::TileMajor::Col; // K-major both
    p.padBytes = loads.padBytes;
    p.cute = loads.swizzle;
    p.mode = loads.mode;
    if (operand == Operand::B && tile.tile) {
        KernelTile k;
        k.m = tile.tile->extent[0];
        k.k = tile.tile->extent[2];
        k.padBytes = loads.padBytes;
        p.start = static_cast<std::uint32_t>(k.regionA());
    }
    return p;
}

int widestLoad(const Instruction& tile, Operand operand, const SharedLoadCopy& loads, std::string& why) {
    const banks::Placement p = stagingOf(tile, operand, loads);
    for (const int bytes : {16, 8, 4})
        if (tiled_copy::analyze(tiled_copy::SharedLoad{bytes}, tile, operand, p, why))
            return bytes;
    return 0;
}

namespace {

// The staging's swizzle as the kernel applies it, on byte offsets: {bits, base, shift}; {0, 0, 0} for none.
std::array<int, 3> byteSwizzle(const SharedLoadCopy& loads) {
    if (loads.swizzle) // CuTe's Swizzle<B,M,S> on 2-byte element offsets: <B,M+1,S> on bytes
        return {loads.swizzle->b, loads.swizzle->m + 1, loads.swizzle->s};
    switch (loads.mode) {
    case smem::Swizzle::B32:
        return {1, 4, 3};
    case smem::Swizzle::B64:
        return {2, 4, 3};
    case smem::Swizzle::B128:
        return {3, 4, 3};
    default:
        return {0, 0, 0};
    }
}

} // namespace

std::string unsupportedTile(const Instruction& tile, Copy copy, const SharedLoadCopy& loads) {
    if (!tile.tile || !tile.params.tile)
        return tile.spec + " is not a tile (give --atom-layout and --permutation)";
    if (tile.ptx != kAtomPtx)
        return "the tiled-mma kernel runs tiles of mma.m16n8k16.f16 (" + std::string(kAtomPtx) + "); " +
               tile.spec + " is not one (wgmma and other atoms: not probed yet, docs/tiles.md#proof)";
    const tile::TileFacts& f = *tile.tile;
    const int restM = f.extent[0] / (kAtomM * f.atomsPerMode[0]);
    const int restN = f.extent[1] / (kAtomN * f.atomsPerMode[1]);
    if (restM * restN * 4 > kMaxAccumulators)
        return "the kernel keeps at most " + std::to_string(kMaxAccumulators / 4) +
               " atoms of accumulators per thread; this tile has " + std::to_string(restM * restN);
    if (static_cast<long>(f.extent[0]) * f.extent[2] > 65536 ||
        static_cast<long>(f.extent[2]) * f.extent[1] > 65536)
        return "the tags of A and B are 16-bit element indices: the tile's M x K and K x N must be at most "
               "65536";
    if (copy == Copy::Ldmatrix) {
        const tile::TileLayout& t = *tile.params.tile;
        for (const std::string& why :
             {splitRun(t.permutation[2], f.extent[2], "K"), splitRun(t.permutation[1], f.extent[1], "N")})
            if (!why.empty())
                return "the ldmatrix copy reads 8 consecutive elements per row: " + why;
        const long bytes = 2L * (static_cast<long>(f.extent[0]) * f.extent[2] +
                                 static_cast<long>(f.extent[2]) * f.extent[1]);
        if (bytes > 227L * 1024)
            return "the ldmatrix copy stages A and B in shared memory: " + std::to_string(bytes) +
                   " bytes, beyond the 232448 one CTA can have";
    }
    if (copy == Copy::SharedLoad) {
        const int restK = f.extent[2] / (kAtomK * f.atomsPerMode[2]);
        if (4 * restM * restK > kMaxFragmentWords || 2 * restN * restK > kMaxFragmentWords)
            return "the ld.shared copy keeps at most " + std::to_string(kMaxFragmentWords) +
                   " registers of A (and of B) per thread; this tile has " +
                   std::to_string(4 * restM * restK) + " and " + std::to_string(2 * restN * restK);
        KernelTile staged; // the kernel's layout of both tiles, pads and 1024-byte alignment included
        staged.copy = 2;
        staged.m = f.extent[0];
        staged.n = f.extent[1];
        staged.k = f.extent[2];
        staged.padBytes = loads.padBytes;
        const long bytes = staged.sharedBytes();
        if (bytes > 227L * 1024)
            return "the ld.shared copy stages A and B in shared memory: " + std::to_string(bytes) +
                   " bytes, beyond the 232448 one CTA can have";
        if (loads.mode == smem::Swizzle::B128Atom32)
            return "the ld.shared copy's staging takes the 32B, 64B and 128B modes or a CuTe swizzle, not " +
                   std::string(smem::toString(loads.mode));
        if (const std::array<int, 3> z = byteSwizzle(loads); z[0] && z[1] + z[0] > 10)
            return "the ld.shared copy's staging swizzles within 1024 bytes; Swizzle<" +
                   std::to_string(loads.swizzle->b) + "," + std::to_string(loads.swizzle->m) + "," +
                   std::to_string(loads.swizzle->s) +
                   "> moves elements across 1024-byte blocks (give B + M "
                   "at most 9)";
        for (const Operand o : {Operand::A, Operand::B}) {
            std::string why;
            if (!widestLoad(tile, o, loads, why))
                return "no ld.shared loads " + std::string(toString(o)) + " from its K-major staging: " + why;
            // A width given (a test's) is a width ld.shared has.
            const int asked = o == Operand::A ? loads.bytesA : loads.bytesB;
            if (asked && asked != 4 && asked != 8 && asked != 16)
                return "an ld.shared loads 4, 8 or 16 bytes, not " + std::to_string(asked);
        }
    }
    return "";
}

Plan planProbe(const Instruction& tile, const tile::TileLayout* kernelTile, Copy copy, SharedLoadCopy loads) {
    Plan p;
    p.instruction = &tile;
    p.kernel.copy = copy == Copy::Ldmatrix ? 1 : copy == Copy::SharedLoad ? 2 : 0;
    p.loads = loads;
    if (!unsupportedTile(tile, copy, loads).empty())
        return p; // the device's binding refuses it (prepareLaunch), with the reason
    const tile::TileFacts& f = *tile.tile;
    const tile::TileLayout& t = kernelTile ? *kernelTile : *tile.params.tile;
    KernelTile& k = p.kernel;
    k.m = f.extent[0];
    k.n = f.extent[1];
    k.k = f.extent[2];
    k.atomsM = f.atomsPerMode[0];
    k.atomsN = f.atomsPerMode[1];
    k.atomsK = f.atomsPerMode[2];
    k.restM = k.m / (kAtomM * k.atomsM);
    k.restN = k.n / (kAtomN * k.atomsN);
    k.restK = k.k / (kAtomK * k.atomsK);
    k.threads = f.threads;
    k.perA = 8 * k.restM * k.restK;
    k.perB = 4 * k.restN * k.restK;
    k.perD = 4 * k.restM * k.restN;
    if (copy == Copy::SharedLoad) {
        std::string why;
        k.padBytes = loads.padBytes;
        const std::array<int, 3> z = byteSwizzle(loads);
        k.swizzleBits = z[0];
        k.swizzleBase = z[1];
        k.swizzleShift = z[2];
        k.loadA = loads.bytesA ? loads.bytesA : widestLoad(tile, Operand::A, loads, why);
        k.loadB = loads.bytesB ? loads.bytesB : widestLoad(tile, Operand::B, loads, why);
        if (!k.loadA || !k.loadB)
            k.loadA = k.loadB = 4; // refused by unsupportedTile with the reason
    }
    // Warp w runs the atom at (wm, wn, wk) where the atom layout numbers it w (CuTe's right inverse).
    const int atoms[3] = {k.atomsM, k.atomsN, k.atomsK}, extents[3] = {k.m, k.n, k.k};
    p.table = tilevalues::placesAndPermutations(t, k.threads / 32, atoms, extents);
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

namespace {

// What lanemap's placements say: which k of each row of A and of each column of B a warp's threads hold. A D
// (or C) register of warp w at (m, n) holds the sum over the k both hold.
struct Holdings {
    int m = 0, n = 0, k = 0;
    std::vector<char> rowK, colK; // [warp][m][k], [warp][n][k]
    Holdings(const Plan& p) : m(p.kernel.m), n(p.kernel.n), k(p.kernel.k) {
        const int warps = p.kernel.threads / 32;
        rowK.assign(static_cast<std::size_t>(warps * m * k), 0);
        colK.assign(static_cast<std::size_t>(warps * n * k), 0);
        for (const Element& e : p.instruction->operand(Operand::A)->elements())
            rowK[(static_cast<std::size_t>(e.thread / 32) * m + e.row) * k + e.col] = 1;
        for (const Element& e : p.instruction->operand(Operand::B)->elements())
            colK[(static_cast<std::size_t>(e.thread / 32) * n + e.col) * k + e.row] = 1;
    }
    std::uint32_t sum(int warp, int row, int col) const {
        float s = 0;
        for (int kk = 0; kk < k; ++kk)
            if (rowK[(static_cast<std::size_t>(warp) * m + row) * k + kk] &&
                colK[(static_cast<std::size_t>(warp) * n + col) * k + kk])
                s += static_cast<float>(valueA(row, kk) * valueB(kk, col));
        return std::bit_cast<std::uint32_t>(s);
    }
};

// The raw words a device that agrees with lanemap writes: run 0 the tags of A and B, run 1 the values and D.
std::vector<std::uint32_t> expected(const Plan& p) {
    const KernelTile& k = p.kernel;
    const Instruction& in = *p.instruction;
    std::vector<std::uint32_t> raw(p.outWords(), 0u);
    for (const Element& e : in.operand(Operand::A)->elements()) {
        raw[at(k, 0, e.thread, e.index)] = p.tagsA[static_cast<std::size_t>(e.row * k.k + e.col)];
        raw[at(k, 1, e.thread, e.index)] = p.valuesA[static_cast<std::size_t>(e.row * k.k + e.col)];
    }
    for (const Element& e : in.operand(Operand::B)->elements()) {
        raw[at(k, 0, e.thread, k.perA + e.index)] = p.tagsB[static_cast<std::size_t>(e.row * k.n + e.col)];
        raw[at(k, 1, e.thread, k.perA + e.index)] = p.valuesB[static_cast<std::size_t>(e.row * k.n + e.col)];
    }
    const Holdings h(p);
    for (const Element& e : in.operand(Operand::D)->elements())
        raw[at(k, 1, e.thread, k.perA + k.perB + e.index)] = h.sum(e.thread / 32, e.row, e.col);
    return raw;
}

} // namespace

std::vector<std::uint32_t> simulate(const Plan& p) {
    return expected(p);
}

std::vector<std::uint32_t> emulate(const Plan& p) {
    const KernelTile& k = p.kernel;
    std::vector<std::uint32_t> raw(p.outWords(), 0u);
    const int warps = k.threads / 32;
    const int* pM = p.table.data() + 3 * warps;
    const int* pN = pM + k.m;
    const int* pK = pN + k.n;
    for (int run = 0; run < 2; ++run) {
        const std::vector<std::uint16_t>& A = run ? p.valuesA : p.tagsA;
        const std::vector<std::uint16_t>& B = run ? p.valuesB : p.tagsB;
        for (int w = 0; w < warps; ++w) {
            const int wm = p.table[static_cast<std::size_t>(3 * w)],
                      wn = p.table[static_cast<std::size_t>(3 * w + 1)],
                      wk = p.table[static_cast<std::size_t>(3 * w + 2)];
            std::vector<float> acc(static_cast<std::size_t>(32 * k.perD), 0.0f);
            // The ld.shared copy: A and B staged K-major as the kernel stages them, and every lane's fragment
            // loaded as the kernel loads it — `bytes` / 4 words from the address of the first element of the
            // first register, little-endian (the lower address in the lower half).
            std::vector<std::vector<std::uint32_t>> fragA(32), fragB(32);
            if (k.copy == 2) {
                std::vector<std::uint8_t> mem(static_cast<std::size_t>(k.sharedBytes()) + 16, 0);
                const auto put = [&](long at, std::uint16_t v) {
                    mem[static_cast<std::size_t>(at)] = static_cast<std::uint8_t>(v & 0xFF);
                    mem[static_cast<std::size_t>(at) + 1] = static_cast<std::uint8_t>(v >> 8);
                };
                for (int i = 0; i < k.m * k.k; ++i)
                    put(k.stagedA(i / k.k, i % k.k), A[static_cast<std::size_t>(i)]);
                for (int i = 0; i < k.k * k.n; ++i)
                    put(k.stagedB(i / k.n, i % k.n), B[static_cast<std::size_t>(i)]);
                const auto load = [&](long at, int bytes, std::vector<std::uint32_t>& out) {
                    // The GPU faults on a misaligned vector load (cudaErrorMisalignedAddress) and ends the
                    // process's context: the twin refuses it, so a plan that would fault is caught here.
                    if (at % bytes != 0)
                        throw std::logic_error("ld.shared of " + std::to_string(bytes) +
                                               " bytes at misaligned offset " + std::to_string(at));
                    for (int word = 0; word < bytes / 4; ++word) {
                        std::uint32_t v = 0;
                        for (int b = 3; b >= 0; --b)
                            v = (v << 8) | mem[static_cast<std::size_t>(at + 4 * word + b)];
                        out.push_back(v);
                    }
                };
                for (int lane = 0; lane < 32; ++lane) {
                    for (int R = 0; R < k.perA / 2; R += k.loadA / 4) {
                        const int q = R % 4, rest = R / 4, rm = rest % k.restM, rk = rest / k.restM;
                        int r = 0, c = 0;
                        atomA(lane, 2 * q, r, c);
                        load(k.stagedA(pM[r + kAtomM * (wm + k.atomsM * rm)],
                                       pK[c + kAtomK * (wk + k.atomsK * rk)]),
                             k.loadA, fragA[static_cast<std::size_t>(lane)]);
                    }
                    for (int R = 0; R < k.perB / 2; R += k.loadB / 4) {
                        const int q = R % 2, rest = R / 2, rn = rest % k.restN, rk = rest / k.restN;
                        int kr = 0, n = 0;
                        atomB(lane, 2 * q, kr, n);
                        load(k.stagedB(pK[kr + kAtomK * (wk + k.atomsK * rk)],
                                       pN[n + kAtomN * (wn + k.atomsN * rn)]),
                             k.loadB, fragB[static_cast<std::size_t>(lane)]);
                    }
                }
            }
            for (int rk = 0; rk < k.restK; ++rk)
                for (int rm = 0; rm < k.restM; ++rm)
                    for (int rn = 0; rn < k.restN; ++rn) {
                        // The warp's registers as the kernel loads them, and the atom's A and B they make.
                        float atomA16[kAtomM][kAtomK] = {}, atomB16[kAtomK][kAtomN] = {};
                        // The tiled copy: the global index of the first element of the row each lane points
                        // ldmatrix at (A: [m, k]; B: [k, n]).
                        int rowA[32][2] = {}, rowB[32][2] = {};
                        for (int lane = 0; lane < 32 && k.copy == 1; ++lane) {
                            int r = 0, c = 0;
                            ldsmRowA(lane, r, c);
                            rowA[lane][0] = pM[r + kAtomM * (wm + k.atomsM * rm)];
                            rowA[lane][1] = pK[c + kAtomK * (wk + k.atomsK * rk)];
                            ldsmRowB(lane, r, c);
                            rowB[lane][0] = pK[r + kAtomK * (wk + k.atomsK * rk)];
                            rowB[lane][1] = pN[c + kAtomN * (wn + k.atomsN * rn)];
                        }
                        for (int lane = 0; lane < 32; ++lane) {
                            const int t = 32 * w + lane;
                            for (int i = 0; i < 8; ++i) {
                                int r = 0, c = 0;
                                atomA(lane, i, r, c);
                                int m = pM[r + kAtomM * (wm + k.atomsM * rm)];
                                int kk = pK[c + kAtomK * (wk + k.atomsK * rk)];
                                if (k.copy == 1) {
                                    // ldmatrix (PTX ISA 9.7.9.6.1): register q of lane t holds elements
                                    // 2 (t % 4) and 2 (t % 4) + 1 of row t / 4 of matrix q, whose row j lane
                                    // 8 q + j points at.
                                    const int q = i >> 1, from = 8 * q + (lane >> 2);
                                    m = rowA[from][0];
                                    kk = rowA[from][1] + 2 * (lane & 3) + (i & 1);
                                }
                                const std::uint16_t h =
                                    k.copy == 2
                                        ? static_cast<std::uint16_t>(
                                              fragA[static_cast<std::size_t>(lane)][static_cast<std::size_t>(
                                                  (i >> 1) + 4 * (rm + k.restM * rk))] >>
                                              (16 * (i & 1)))
                                        : A[static_cast<std::size_t>(m * k.k + kk)];
                                if (rn == 0)
                                    raw[at(k, run, t, i + 8 * (rm + k.restM * rk))] = h;
                                atomA16[r][c] = floatOfHalf(h);
                            }
                            for (int i = 0; i < 4; ++i) {
                                int kr = 0, n = 0;
                                atomB(lane, i, kr, n);
                                int kk = pK[kr + kAtomK * (wk + k.atomsK * rk)];
                                int nn = pN[n + kAtomN * (wn + k.atomsN * rn)];
                                if (k.copy == 1) {
                                    // .trans: register q of lane t holds column t / 4 of memory rows
                                    // 2 (t % 4) and 2 (t % 4) + 1 of matrix q.
                                    const int q = i >> 1, from = 8 * q + 2 * (lane & 3) + (i & 1);
                                    kk = rowB[from][0];
                                    nn = rowB[from][1] + (lane >> 2);
                                }
                                const std::uint16_t h =
                                    k.copy == 2
                                        ? static_cast<std::uint16_t>(
                                              fragB[static_cast<std::size_t>(lane)][static_cast<std::size_t>(
                                                  (i >> 1) + 2 * (rn + k.restN * rk))] >>
                                              (16 * (i & 1)))
                                        : B[static_cast<std::size_t>(kk * k.n + nn)];
                                if (rm == 0)
                                    raw[at(k, run, t, k.perA + i + 4 * (rn + k.restN * rk))] = h;
                                atomB16[kr][n] = floatOfHalf(h);
                            }
                        }
                        if (!run)
                            continue;
                        for (int lane = 0; lane < 32; ++lane)
                            for (int i = 0; i < 4; ++i) {
                                int r = 0, c = 0;
                                atomC(lane, i, r, c);
                                float s = 0;
                                for (int kk = 0; kk < kAtomK; ++kk)
                                    s += atomA16[r][kk] * atomB16[kk][c];
                                acc[static_cast<std::size_t>(lane * k.perD + 4 * (rm + k.restM * rn) + i)] +=
                                    s;
                            }
                    }
            for (int lane = 0; lane < 32; ++lane)
                for (int v = 0; v < k.perD; ++v)
                    raw[at(k, run, 32 * w + lane, k.perA + k.perB + v)] =
                        std::bit_cast<std::uint32_t>(acc[static_cast<std::size_t>(lane * k.perD + v)]);
        }
    }
    return raw;
}

Interpretation interpret(const Plan& p, std::span<const std::uint32_t> raw) {
    Interpretation out;
    ProbeResult& r = out.result;
    const Instruction& in = *p.instruction;
    r.spec = tile::nameOf(in);
    r.experiments = 2;
    if (raw.size() < p.outWords()) {
        r.verdict = Verdict::Fail;
        r.reason =
            "the device wrote " + std::to_string(raw.size()) + " words, not " + std::to_string(p.outWords());
        return out;
    }
    const KernelTile& k = p.kernel;
    const Holdings holdings(p);
    constexpr std::size_t kKept = 64;
    // Each element's expectation from its own placement: A's and B's tags at its (row, col), C's and D's sum.
    auto wanted = [&](Operand o, const Element& e) -> std::uint32_t {
        if (o == Operand::A)
            return p.tagsA[static_cast<std::size_t>(e.row * k.k + e.col)];
        if (o == Operand::B)
            return p.tagsB[static_cast<std::size_t>(e.row * k.n + e.col)];
        return holdings.sum(e.thread / 32, e.row, e.col);
    };
    auto check = [&](const FragmentLayout& op, int run, int offset, bool isFloat, const char* experiment) {
        for (const Element& e : op.elements()) {
            const std::size_t i = at(k, run, e.thread, offset + e.index);
            ++r.cellsChecked;
            const std::uint32_t got = isFloat ? raw[i] : raw[i] & 0xFFFFu;
            const std::uint32_t want = wanted(op.operand(), e);
            if (got == want)
                continue;
            ++r.cellsMismatched;
            if (r.mismatches.size() >= kKept)
                continue;
            ProbeMismatch m;
            m.operand = op.operand();
            m.row = e.row;
            m.col = e.col;
            m.thread = e.thread;
            m.index = e.index;
            m.experiment = experiment;
            if (isFloat) {
                m.expected = std::to_string(std::bit_cast<float>(want));
                m.observed = std::to_string(std::bit_cast<float>(got));
            } else {
                const bool a = op.operand() == Operand::A;
                const int cols = a ? k.k : k.n;
                const auto name = [&](std::uint32_t tag) {
                    return std::string(a ? "A[" : "B[") +
                           std::to_string(tag / static_cast<std::uint32_t>(cols)) + "][" +
                           std::to_string(tag % static_cast<std::uint32_t>(cols)) + "]";
                };
                m.expected = name(want);
                m.observed = name(got);
            }
            r.mismatches.push_back(std::move(m));
        }
    };
    const std::string loadA = "A registers as " + tiled_copy::toString(tiled_copy::SharedLoad{k.loadA}) +
                              " loaded them (tags)",
                      loadB = "B registers as " + tiled_copy::toString(tiled_copy::SharedLoad{k.loadB}) +
                              " loaded them (tags)";
    check(*in.operand(Operand::A), 0, 0, false,
          k.copy == 2   ? loadA.c_str()
          : k.copy == 1 ? "A registers as ldmatrix.x4 loaded them (tags)"
                        : "A registers as loaded (tags)");
    check(*in.operand(Operand::B), 0, k.perA, false,
          k.copy == 2   ? loadB.c_str()
          : k.copy == 1 ? "B registers as ldmatrix.x2.trans loaded them (tags)"
                        : "B registers as loaded (tags)");
    // C and D share the accumulators: the kernel's C is D's registers before the first mma.
    check(*in.operand(Operand::C), 1, k.perA + k.perB, true, "C/D accumulators after the tile's mma");
    check(*in.operand(Operand::D), 1, k.perA + k.perB, true, "D registers after the tile's mma");
    r.verdict = r.cellsMismatched ? Verdict::Fail : Verdict::Pass;
    std::ostringstream f;
    f << "one CTA of " << k.threads << " threads ran " << k.threads / 32 << " warps x "
      << k.restM * k.restN * k.restK << " m16n8k16 atoms each (" << k.m << "x" << k.n << "x" << k.k
      << "); every register of A, B, C/D read back";
    if (k.copy == 1)
        f << "; A and B staged row-major in shared memory and loaded by the tiled copy (ldmatrix.x4 for A, "
             "ldmatrix.x2.trans for B)";
    else if (k.copy == 2)
        f << "; A and B staged K-major in shared memory (pad " << k.padBytes << " B"
          << (p.loads.swizzle
                  ? ", Swizzle<" + std::to_string(p.loads.swizzle->b) + "," +
                        std::to_string(p.loads.swizzle->m) + "," + std::to_string(p.loads.swizzle->s) + ">"
              : p.loads.mode != smem::Swizzle::None
                  ? ", " + std::string(smem::toString(p.loads.mode)) + " swizzle"
                  : std::string())
          << ") and each thread's fragment loaded by the plain tiled copy (" +
                 tiled_copy::toString(tiled_copy::SharedLoad{k.loadA})
          << " for A, " << tiled_copy::toString(tiled_copy::SharedLoad{k.loadB}) << " for B)";
    r.findings.push_back(f.str());
    return out;
}

} // namespace lanemap::gpu::tiledmma
