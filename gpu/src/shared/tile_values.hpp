#pragma once
// What the tile probes (tiled-mma, tiled-wgmma) load and compare: small integers exact in f16, the operand
// values as functions of the global indices, and a mode's permutation as a table.

#include "lanemap/tile.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace lanemap::gpu::tilevalues {

// The f16 bits of a small integer (|v| <= 2048: exact).
inline std::uint16_t halfOf(int v) {
    if (v == 0)
        return 0;
    const int sign = v < 0 ? 0x8000 : 0;
    int a = v < 0 ? -v : v;
    int e = 0;
    while ((a >> (e + 1)) != 0)
        ++e;
    const int mantissa = ((a - (1 << e)) << 10) >> e;
    return static_cast<std::uint16_t>(sign | ((e + 15) << 10) | mantissa);
}
inline float floatOfHalf(std::uint16_t h) {
    const int e = (h >> 10) & 31, m = h & 1023;
    const float v = e == 0 ? std::ldexp(static_cast<float>(m), -24)
                           : std::ldexp(1.0f + static_cast<float>(m) / 1024.0f, e - 15);
    return (h & 0x8000) ? -v : v;
}
// Global A[m][k] and B[k][n]: small, mixed in sign, and different for neighbouring indices, so a misplaced
// element changes the product.
inline int valueA(int m, int k) {
    return (m * 37 + k * 11) % 17 - 8;
}
inline int valueB(int k, int n) {
    return (k * 13 + n * 29) % 15 - 7;
}

// The global index of tile index i along a mode: the permutation the kernel is told, or i.
inline std::vector<int> permutationOf(const std::optional<CuteLayout>& p, int extent) {
    std::vector<int> v(static_cast<std::size_t>(extent));
    for (int i = 0; i < extent; ++i)
        v[static_cast<std::size_t>(i)] = p ? static_cast<int>((*p)(i)) : i;
    return v;
}

// The head of a tile kernel's table: for each unit u that runs atoms (a warp, or a warpgroup), its place
// (wm, wn, wk) in the atom layout, where the layout numbers it u (CuTe's right inverse); then the M, N and K
// permutations, `extents` long each.
inline std::vector<int> placesAndPermutations(const tile::TileLayout& t, int units, const int atoms[3],
                                              const int extents[3]) {
    std::vector<int> table(static_cast<std::size_t>(3 * units), 0);
    for (int wk = 0; wk < atoms[2]; ++wk)
        for (int wn = 0; wn < atoms[1]; ++wn)
            for (int wm = 0; wm < atoms[0]; ++wm) {
                const int u = static_cast<int>(t.atoms(wm + atoms[0] * (wn + atoms[1] * wk)));
                table[static_cast<std::size_t>(3 * u)] = wm;
                table[static_cast<std::size_t>(3 * u + 1)] = wn;
                table[static_cast<std::size_t>(3 * u + 2)] = wk;
            }
    for (int mode = 0; mode < 3; ++mode) {
        const std::vector<int> perm =
            permutationOf(t.permutation[static_cast<std::size_t>(mode)], extents[mode]);
        table.insert(table.end(), perm.begin(), perm.end());
    }
    return table;
}

} // namespace lanemap::gpu::tilevalues
