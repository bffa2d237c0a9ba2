#pragma once
// A tile of MMA atoms, as CuTe's make_tiled_mma(atom, atom_layout, permutation) spreads one instruction over
// the warps (wgmma: warpgroups) of a CTA (docs/tiles.md). A tile is a parameter of an atom's selection
// (Params::tile), and its instance is a composition of the atom's placements: every register operand of the
// atom becomes one of the tile, whose threads are the CTA's. Nothing downstream learns a new dialect: the
// tile's operands are register fragments like the atom's (lanemap/fragment.hpp), placed in Space::Registers.
// A tcgen05.mma atom, whose D is in Tensor Memory, is tiled over the CTAs of a cluster instead
// (lanemap/tile_ctas.hpp): the same notation and facts, CTAs for threads.
//
// The semantics are CuTe's (checked against CuTe itself by tests/core/test_tile.cpp):
//   thread  t = v + T * w, where v is the atom's thread (T threads: 32, or 128 for wgmma) and w = L(wm, wn,
//           wk) the atom layout L evaluated at the atom's position over M, N and K;
//   C       thread t, value (i, (rm, rn)) holds C[pM(am + AM * (wm + WM * rm))][pN(an + AN * (wn + WN *
//   rn))],
//           where (am, an) is the atom's C element i of thread v, AM x AN the atom's shape, WM x WN the atom
//           layout's and pM, pN the permutations; A (M x K) and B (K x N) alike with K for N (A) or M (B);
//   value   the atom's element index first, then rm, then rn (colexicographic, CuTe's (FrgV,(RestM,RestN)));
//   register the atom's register + (registers per atom) x (rm + RM * rn): the order of CuTe's fragment.
// Threads that differ only in wn hold the same A (wm: the same B; wk: the same C): replicated elements, each
// holder listed.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lanemap {

struct Instruction;

// A CuTe layout as CuTe writes it: a shape, optionally ':' and a stride of the same nesting, whose integers
// may carry CuTe's static '_' ("_32", "(_8,_2,_2):(_1,_16,_8)", "(2,2,1):(2,1,0)"). Kept flattened: the modes
// of a nested shape in colexicographic order evaluate the same. Without a stride, the compact column-major
// one (CuTe's default, LayoutLeft).
struct CuteLayout {
    std::vector<int> shape, stride;

    int size() const;
    // The layout's value at the colexicographic index `index` (0 .. size()-1).
    long long operator()(long long index) const;
    // "(_8,_2,_2):(_1,_16,_8)"; a one-mode identity "_32".
    std::string cute() const;
    friend bool operator==(const CuteLayout&, const CuteLayout&) = default;
};

// Reads one CuTe layout; nullopt with `error` naming what is wrong and what is valid.
std::optional<CuteLayout> parseCuteLayout(std::string_view text, std::string& error);

namespace tile {

// The modes of a tile, in CuTe's order.
enum Mode : int { M = 0, N = 1, K = 2 };
inline constexpr const char* kModeNames[3] = {"M", "N", "K"};
// A CTA has at most 1024 threads.
inline constexpr int kMaxCtaThreads = 1024;
// The largest extent of a tile mode lanemap draws and exports.
inline constexpr int kMaxExtent = 1024;

// The tile's parameters: the atom layout over (M, N, K), and per mode an optional permutation (CuTe's Tile:
// nullopt is '_', no permutation).
struct TileLayout {
    CuteLayout atoms;                                     // three modes: the atoms along M, N and K
    std::array<std::optional<CuteLayout>, 3> permutation; // per mode; its size is the tile's extent there

    // As CuTe writes them: "(2,2,1)" (with its stride where one was given), "_32,(_8,_2,_2):(_1,_16,_8),_".
    std::string atomLayoutText() const;
    std::string permutationText() const;
    friend bool operator==(const TileLayout&, const TileLayout&) = default;
};

// Reads --atom-layout and --permutation (the latter may be empty: no permutation). nullopt with `error`
// naming what is wrong and what is valid.
std::optional<TileLayout> parseTileLayout(std::string_view atomLayout, std::string_view permutation,
                                          std::string& error);

// What a tile of `atom` (a built instruction with its register operands, one product) is: "" when it fits,
// else what is wrong and what is valid (the CTA's 1024 threads, a permutation that is no bijection onto its
// mode, an extent that is no multiple of the atom's, ...).
std::string validate(const Instruction& atom, const TileLayout& tile);

// The facts of a built tile (Instruction::tile), for the views that name them.
struct TileFacts {
    std::array<int, 3> atomShape{};      // the atom's M, N, K
    std::array<int, 3> atomsPerMode{};   // the atom layout's shape: warps (warpgroups) along M, N, K
    std::array<int, 3> extent{};         // the tile's M, N, K
    int atomThreads = 32;                // 32 (a warp) or 128 (a warpgroup); tcgen05.mma: 1 or 2 CTAs
    int threads = 0;                     // the CTA's threads; tcgen05.mma: the cluster's CTAs
    std::string atomLayout, permutation; // as CuTe writes them
    std::string cutlassAtom; // CUTLASS's name of the atom ("SM80_16x8x16_F32F16F16F32_TN"); "": none
    // The atom's spec where the instance's is not it (a tcgen05.mma entry stands for every N: its atom's
    // spec names the N, "tcgen05.mma.cta_group::2.kind::f16.m128n32"), set by the family that tiles it; "":
    // the instance's spec.
    std::string atomSpec;
};

// The name views give an instance: its spec, and for a tile "mma.m16n8k16.f16 tile 32x32x16 (atom layout
// (2,2,1), permutation _32,(_8,_2,_2):(_1,_16,_8),_16)".
std::string nameOf(const Instruction& instruction);
// One line of what the tile is made of: "4 warps (2 along M, 2 along N, 1 along K), 128 threads, each running
// the 16x8x16 atom 2 times".
std::string factLine(const TileFacts& facts);

// Applies instruction.params.tile (validated) to an instance whose atom operands are placed: every register
// operand becomes the tile's, its threads the CTA's, its shape the tile's extents, its scope Scope::Cta; the
// placements are the tile's register placements (wgmma's shared-memory A and B of one atom and the sparse
// metadata are not tiled: docs/tiles.md).
void apply(Instruction& instruction);

// The tile's element of atom thread v and atom element (row, col) for atom copy (wm, wn, wk) and rest (r0,
// r1): exposed for the probe, which writes the tile's global indices from the same rule.
struct AtomCopy {
    int wm = 0, wn = 0, wk = 0;
};
// The CTA thread of atom thread `v` in atom copy `w` (the atom layout evaluated at w).
int ctaThread(const TileFacts& facts, const TileLayout& tile, int v, const AtomCopy& w);
// The tile's coordinate along `mode` of the atom's coordinate `a` in atom copy index `w` (along that mode)
// and rest `r`: the permutation of a + atom * (w + atoms * r).
int tileCoordinate(const TileFacts& facts, const TileLayout& tile, Mode mode, int a, int w, int r);

} // namespace tile
} // namespace lanemap
