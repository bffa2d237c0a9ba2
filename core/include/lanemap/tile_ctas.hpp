#pragma once
// A tile of tcgen05.mma atoms over the CTAs of a cluster (docs/tiles.md#tiles-of-tcgen05mma-atoms). CUTLASS's
// SM100 MMA traits make the atom's "threads" CTAs (ThrID = Layout<_1> for a cta_group::1 atom, Layout<_2> for
// a cta_group::2 one), so make_tiled_mma(atom, atom_layout, permutation) spreads the atom over CTAs as
// lanemap/tile.hpp spreads mma over warps: CTA c = v + G * L(wm, wn, wk), v the atom's CTA of its pair, G the
// atom's CTAs. Every element of A, B and D of the tile has the CTAs that hold it and where: D in that CTA's
// Tensor Memory (the atom's data-path layout), A and B in its shared memory (lanemap::smem's layout of the
// CTA's part, as the descriptors read it). Checked against CuTe by tests/core/test_tile_tcgen05.cpp.

#include "lanemap/model.hpp"
#include "lanemap/tcgen05_tmem_tables.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lanemap::tile {

// The most CTAs a cluster has: 16 on sm_100 with cudaFuncAttributeNonPortableClusterSizeAllowed (8 without:
// the portable size). lanemap enforces the hardware's limit; a kernel above 8 must opt in.
inline constexpr int kMaxClusterCtas = 16;

// One holder of one element of a tile of tcgen05.mma atoms.
struct CtaHolding {
    Operand operand = Operand::D;
    int cta = 0;     // the tile's CTA (CuTe's thread of the tiled MMA): v + G * L(wm, wn, wk)
    int atomCta = 0; // v: the CTA of the atom's pair (0 for cta_group::1)
    AtomCopy copy;   // the atom's place in the atom layout
    int value = 0;   // CuTe's value index: the atom's (column-major over the CTA's part), then the K rest
    int localRow = 0, localCol = 0; // the element in that CTA's part: A (M/G x K), B (K x N/G), D (M/G x N)
    Location at;                    // TmemCell (D, metadata) or SmemByte (A, B), with the CTA
};

// Whether `in` is a tile of tcgen05.mma atoms (its holders are CTAs, not threads).
bool overCtas(const Instruction& in);
// What a tile of the tcgen05.mma atom `shape` is: "" when it fits, else what is wrong and what is valid.
std::string validateOverCtas(const tmem::MmaShape& shape, const TileLayout& tile);
// Applies in.params.tile (validated) to a tcgen05.mma view: its placements become the tile's D in Tensor
// Memory and A and B in shared memory, each holding naming its CTA; m, n, k are the tile's.
void applyOverCtas(Instruction& in);
// Every holder of element (row, col) of A (M x K), B (K x N) or D (M x N) of the tile, in CTA order; empty
// for an element outside the operand. A sparse atom's A is the compressed M x K/2 (stored column j holds a
// kept element of group j / nonZero of the row's K) and its Metadata is M x K/group, group g of row m in the
// Tensor Memory of each CTA that holds row m of A (the ISA's figure; each K step in the next columns).
std::vector<CtaHolding> ctaHolders(const Instruction& in, Operand operand, int row, int col);
// An operand of the tile: D and a sparse atom's metadata in Tensor Memory, A and B in shared memory; nullptr
// where the tile has none.
const Placement* placementOf(const Instruction& in, Operand operand);
// A tile of sparse atoms: its sparsity (nonZero of each group of K kept, metadata bits a group); nullopt for
// a dense atom or an instance that is not a tile over CTAs.
std::optional<tcgen05::SparseGranularity> sparsityOf(const Instruction& in);
// A tile of sparse atoms: the K range of the group whose kept element A's stored column `col` holds; nullopt
// for a dense atom.
std::optional<std::pair<int, int>> keptRange(const Instruction& in, int col);
// Why a tile of a sparse atom places no metadata (the ISA's figure is not transcribed for its M); "" when it
// does or the atom is dense.
std::string metadataNote(const Instruction& in);
// The shared-memory part of one CTA (A: M/G x K, B: K x N/G) as lanemap::smem places it; nullopt elsewhere.
std::optional<smem::SharedOperand> ctaPart(const Instruction& in, Operand operand);

} // namespace lanemap::tile
