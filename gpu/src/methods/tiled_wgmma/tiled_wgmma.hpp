#pragma once
// The tiled-wgmma probe method (docs/tiles.md#proof): one CTA of 128 x W threads runs a tile of
// wgmma.m64nNk16.f32.f16.f16 atoms as a CuTe kernel does — each warpgroup runs the atom at its place in the
// atom layout, once per rest position along M, N and K — in both forms: RS (A from registers) and SS (A from
// shared memory). A (SS) and B sit in shared memory as one canonical K-major tile each (lanemap::smem's
// layout of the whole tile, no swizzle), staged by the kernel with the permutations applied to the global
// indices, and each atom reads its block through a descriptor built as the single-instruction wgmma probe
// builds them (smem::encodeDescriptor). Per form two launches: tags (A's registers as loaded and the staged
// shared memory read back: every element a warpgroup's descriptor reads must be the one lanemap's tile names
// there), then small integers and the wgmma (each D register must hold the sum lanemap's A, B and D
// placements predict). The tile is an instance (Params::tile); the method has no family of its own.
// CUDA-free.
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/tile.hpp"
#include "methods/method_row.hpp"
#include "methods/tiled_wgmma/tile_kernel.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu::tiledwgmma {

// The atom's PTX without N ("wgmma.mma_async.sync.aligned.m64n" N "k16.f32.f16.f16").
std::string atomPtx(int n);

struct Plan {
    const Instruction* instruction = nullptr; // the tile instance (its caller keeps it alive)
    std::string unsupported;                  // unsupportedTile(): non-empty, the plan is empty
    KernelTile kernel;                        // aShared is set per form by the launch
    std::vector<int> table;                   // see KernelTile
    std::vector<std::uint64_t> descriptors;   // A's blocks, then B's (start relative to the image's base)
    std::vector<std::uint16_t> tagsA, tagsB;  // f16 bits: A[m][k] = m K + k, B[k][n] = k N + n
    std::vector<std::uint16_t> valuesA, valuesB;
    // Per form (RS, SS) and run (tags, values): every thread's words, then the shared-memory image.
    std::size_t segmentWords() const {
        return static_cast<std::size_t>(kernel.threads) * static_cast<std::size_t>(kernel.words()) +
               static_cast<std::size_t>(kernel.imageWords());
    }
    std::size_t outWords() const { return 4 * segmentWords(); }
};

// "" when the kernel runs `tile` (an instance with params.tile of a wgmma .m64nNk16 .f16 atom with f32
// accumulators and N one of kAtomNs), else why not.
std::string unsupportedTile(const Instruction& tile);
// The plan of `tile`. `kernelTile`, when given, is what the kernel is told instead of the tile's own atom
// layout and permutations (a test's deliberately wrong one); the expectation stays the tile's.
Plan planProbe(const Instruction& tile, const tile::TileLayout* kernelTile = nullptr);
// What a device that agrees with lanemap writes.
std::vector<std::uint32_t> simulate(const Plan& plan);
// The kernel's own rule on the CPU: staging by the kernel's table, A and B read through the descriptors by
// the class-coded method's own evaluation of the canonical layouts (not lanemap::smem), the warpgroup's
// product computed from the fragments' formulas.
std::vector<std::uint32_t> emulate(const Plan& plan);
Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw);

class TiledWgmmaProbe final : public PlannedProbe {
  public:
    explicit TiledWgmmaProbe(const Instruction& tile) : m_plan(planProbe(tile)) {}
    TiledWgmmaProbe(const Instruction& tile, const tile::TileLayout& kernelTile)
        : m_plan(planProbe(tile, &kernelTile)) {}
    static std::vector<ProbeForm> forms(const Instruction& instruction) { return firstFormOf(instruction); }
    const Plan& plan() const { return m_plan; }
    const Instruction& instruction() const override { return *m_plan.instruction; }
    int experiments() const override { return 4; }
    std::size_t outWords() const override { return m_plan.outWords(); }
    std::vector<std::uint32_t> simulate() const override { return tiledwgmma::simulate(m_plan); }
    Interpretation interpret(std::span<const std::uint32_t> raw) const override {
        return tiledwgmma::interpret(m_plan, raw);
    }

    // The kernel binding (tiled_wgmma_cuda.cpp, CUDA builds): method_row.hpp.
    static std::string cannotRun(const Variant& variant, const DeviceInfo& device);
    PreparedLaunch prepareLaunch(const Variant& variant, const DeviceInfo& device) const;

  private:
    Plan m_plan;
};

} // namespace lanemap::gpu::tiledwgmma
