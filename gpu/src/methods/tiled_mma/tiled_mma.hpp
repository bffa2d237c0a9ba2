#pragma once
// The tiled-mma probe method (docs/tiles.md#proof): one CTA runs a tile of mma.m16n8k16 .f16 atoms (f32
// accumulators) as a CuTe kernel does — each warp runs the atom at its place in the atom layout, once per
// rest position, with the permutations applied to the global indices of A, B and D — and every register is
// read back. Two launches: one with A and B holding tags (each element its index), read from the registers as
// loaded, checks which thread holds which element of A and B; one with small integers, the mma run, checks
// that each D register holds the sum lanemap's A, B and D placements predict (so the hardware's mma agrees
// with them). The tile is an instance (Params::tile); the method has no family of its own: a tile's atom is
// an mma. CUDA-free.
#include "lanemap/banks.hpp"
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/tile.hpp"
#include "methods/method_row.hpp"
#include "methods/tiled_mma/tile_kernel.hpp"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu::tiledmma {

// The atom the kernel runs.
inline constexpr const char* kAtomPtx = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32";

// How the kernel fills A's and B's registers: element by element from global memory, or by the tiled copy —
// A and B staged in shared memory (row-major M x K and K x N) and loaded by ldmatrix.x4 (A) and
// ldmatrix.x2.trans (B), so the run proves the copy lands every element in the register the tile wants.
// SharedLoad: A and B staged K-major (A row-major M x K, B col-major K x N), each thread loading the elements
// its own fragment holds by ld.shared.b32/.v2.b32/.v4.b32 (the plain tiled copy, CuTe's UniversalCopy), the
// widest lanemap's tiled copy says works for each operand (tiled_copy::analyze).
enum class Copy : std::uint8_t { Direct, Ldmatrix, SharedLoad };
// The ld.shared copy's loads: bytes per load for A and for B (0: the widest lanemap says works), and the
// staging of both K-major tiles: the pad after each line and a swizzle — a CuTe Swizzle<B,M,S> on 16-bit
// element offsets or a mode (32B, 64B, 128B) on byte addresses, as `banks --smem` takes them — applied to
// the offset from the start of shared memory (A's tile at 0, B's at regionA()). A test gives a width lanemap
// refuses to see the run fail.
struct SharedLoadCopy {
    int bytesA = 0, bytesB = 0;
    int padBytes = 0;
    std::optional<banks::CuteSwizzle> swizzle;
    smem::Swizzle mode = smem::Swizzle::None;
};
// The placement lanemap's tiled copy analyses for `operand` of `tile` staged as `loads` says (A row-major, B
// col-major: K-major both; B starting where the kernel puts it).
banks::Placement stagingOf(const Instruction& tile, Operand operand, const SharedLoadCopy& loads);
// The widest ld.shared (16, 8 or 4 bytes) lanemap's tiled copy says loads `operand` of `tile` from its
// K-major staging; 0 with `why` when none does.
int widestLoad(const Instruction& tile, Operand operand, const SharedLoadCopy& loads, std::string& why);

struct Plan {
    const Instruction* instruction = nullptr; // the tile instance (its caller keeps it alive)
    KernelTile kernel;
    SharedLoadCopy loads;                        // the ld.shared copy's widths and staging, as asked
    std::vector<int> table;                      // warp coordinates, then the permutations the kernel applies
    std::vector<std::uint16_t> tagsA, tagsB;     // f16 bits: A[m][k] = m K + k, B[k][n] = k N + n
    std::vector<std::uint16_t> valuesA, valuesB; // f16 bits of small integers
    std::size_t outWords() const {
        return 2 * static_cast<std::size_t>(kernel.threads) * static_cast<std::size_t>(kernel.words());
    }
};

// "" when the kernel runs `tile` (an instance with params.tile of mma.m16n8k16.f16) with `copy`, else why not
// (the ldmatrix copy: a permutation of K or N that breaks the runs of 8 a 16-byte row holds, a tile beyond
// shared memory).
std::string unsupportedTile(const Instruction& tile, Copy copy = Copy::Direct,
                            const SharedLoadCopy& loads = {});
// The plan of `tile`. `kernelTile`, when given, is what the kernel is told instead of the tile's own atom
// layout and permutations (a test's deliberately wrong permutation); the expectation stays the tile's.
Plan planProbe(const Instruction& tile, const tile::TileLayout* kernelTile = nullptr,
               Copy copy = Copy::Direct, SharedLoadCopy loads = {});
// What a device that agrees with lanemap writes.
std::vector<std::uint32_t> simulate(const Plan& plan);
// The kernel's own rule run on the CPU, the warp's mma done by the fragments' formula: what the GPU writes
// when the hardware computes as the ISA says (tests check interpret() against it without a GPU).
std::vector<std::uint32_t> emulate(const Plan& plan);
Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw);

class TiledMmaProbe final : public PlannedProbe {
  public:
    explicit TiledMmaProbe(const Instruction& tile) : m_plan(planProbe(tile)) {}
    TiledMmaProbe(const Instruction& tile, const tile::TileLayout& kernelTile, Copy copy = Copy::Direct,
                  SharedLoadCopy loads = {})
        : m_plan(planProbe(tile, &kernelTile, copy, std::move(loads))) {}
    TiledMmaProbe(const Instruction& tile, Copy copy, SharedLoadCopy loads = {})
        : m_plan(planProbe(tile, nullptr, copy, loads)) {}
    static std::vector<ProbeForm> forms(const Instruction& instruction) { return firstFormOf(instruction); }
    const Plan& plan() const { return m_plan; }
    const Instruction& instruction() const override { return *m_plan.instruction; }
    int experiments() const override { return 2; }
    std::size_t outWords() const override { return m_plan.outWords(); }
    std::vector<std::uint32_t> simulate() const override { return tiledmma::simulate(m_plan); }
    Interpretation interpret(std::span<const std::uint32_t> raw) const override {
        return tiledmma::interpret(m_plan, raw);
    }

    // The kernel binding (tiled_mma_cuda.cpp, CUDA builds): method_row.hpp.
    static std::string cannotRun(const Variant& variant, const DeviceInfo& device);
    PreparedLaunch prepareLaunch(const Variant& variant, const DeviceInfo& device) const;

  private:
    Plan m_plan;
};

} // namespace lanemap::gpu::tiledmma
