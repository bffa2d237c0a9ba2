#pragma once
// Pieces of the wgmma probe shared by the planner and the interpreter (not by the simulator, which reads the
// images its own way): the A cells of a setup, the selectors, the codes.
#include "lanemap/gpu/wgmma.hpp"
#include "lanemap/sparse.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lanemap::gpu::wg::detail {

// wgmma.sp base patterns: every nibble of every thread 0b0100 (P0: each chunk keeps its first positions) or
// 0b1110 (P1: its last). With every nibble alike, where the hardware reads metadata does not matter.
constexpr std::uint32_t kPatternWord[2] = {0x44444444u, 0xEEEEEEEEu};
constexpr int kLocateBits = 10;  // bits of a nibble id: 128 threads x 8 nibbles
constexpr int kKCodeColumns = 8; // metadata runs: B(k, n) = bit (n % 8) of (k + 1)

struct Position {
    int row = -1;
    int k = -1;
};

// The numbers every experiment of a variant shares.
struct Geometry {
    int m = 64, k = 0, n = 0;
    int storedK = 0; // columns of A as stored: K, or K/2 compressed (wgmma.sp)
    bool sparse = false;
    int patterns = 1; // base metadata patterns run (2 for wgmma.sp)
    const sparse::StorageRule* rule = nullptr;
    std::vector<int> selectable[2]; // per pattern: the logical k an A row selector can pick, ascending

    explicit Geometry(const Instruction& in);
    int aGroups() const { return (k + n - 1) / n; } // AIdent: B column n selects k = (g*N + n) mod K
    int bGroups() const; // BIdent: A row r selects selectable[P][(r + 64 g) mod size]
    int selectB(int group, int column) const { return (group * n + column) % k; }
    int selectA(int group, int pattern, int row) const;
    int bCells() const { return k * n; }
};

// The A operand of one setup as the probe addresses it: cells are the register elements (flat index), or the
// stored cells (m * storedK + j) of the shared-memory tile; where the engine puts each under base pattern P,
// and back.
class ACells {
  public:
    // `selector`: the form's sparsity selector (wgmma.sp), which decides the metadata fields.
    ACells(const Instruction& in, const Geometry& g, const Setup& setup, int selector);

    int count() const { return m_count; }
    bool shared() const { return m_shared; }
    Position at(int cell, int pattern) const {
        return m_at[static_cast<std::size_t>(pattern)][static_cast<std::size_t>(cell)];
    }
    int cellAt(int row, int k, int pattern) const {
        return m_cellAt[static_cast<std::size_t>(pattern)][static_cast<std::size_t>(row * m_k + k)];
    }
    std::string name(int cell) const; // "T5:a3" or "A[3][7]" (stored column)
    // wgmma.sp registers: the engine's metadata field (index into the codec's fields) of each cell under P0.
    int fieldOf(int cell) const { return m_field.empty() ? -1 : m_field[static_cast<std::size_t>(cell)]; }

  private:
    const Instruction& m_in;
    bool m_shared = false;
    int m_count = 0, m_k = 0, m_storedK = 0;
    std::vector<Position> m_at[2];
    std::vector<int> m_cellAt[2];
    std::vector<int> m_field;
};

// The codec of a form's selector (the engine's metadata fields); throws naming the problem.
sparse::Codec codecFor(const Instruction& in, int selector);
// Valid field values the probe uses: increasing index pairs (docs/probe.md), the tf32 pair for 1:2.
std::vector<std::uint8_t> probeValues(const sparse::StorageRule& rule);

// "K-major 128B", "N-major none"
std::string layoutName(smem::Major major, smem::Swizzle swizzle, char mn);

} // namespace lanemap::gpu::wg::detail
