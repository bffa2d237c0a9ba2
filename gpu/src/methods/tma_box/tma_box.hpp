#pragma once
// The tma-box probe method (cp.async.bulk.tensor, docs/tma.md#proof): a global tensor whose every byte is
// non-zero and names its offset, real tensor maps (cuTensorMapEncodeTiled), one tiled load per configuration
// into shared memory, and the shared memory read back. The expected image is read from the instance's
// placements alone (the box in shared memory, the same box in global memory, fill where the global placement
// has a hole), so the comparison is byte by byte against what lanemap draws. CUDA-free.
#include "lanemap/gpu/pipeline.hpp"
#include "methods/method_row.hpp"

#include "families/tma/tma.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu::tmabox {

// The byte the global tensor holds at `offset`: never 0, so a fill byte (0) and a loaded byte differ.
inline std::uint8_t tensorByte(std::int64_t offset) {
    return static_cast<std::uint8_t>((static_cast<std::uint64_t>(offset) * 131u + 7u) % 255u + 1u);
}
// Bytes of the global tensor a map describes (its last element's end).
std::int64_t tensorBytes(const tma::TensorMap& map);

inline constexpr std::size_t kMapWords = 32; // the 128-byte CUtensorMap the driver encoded, after each image

struct Config {
    std::string spec; // the spec text that names it (tma::specText)
    tma::TensorMap map;
    std::shared_ptr<const Instruction> instance;
    std::vector<std::uint8_t> expected; // the box's bytes as the placements say
    std::size_t imageWords() const { return (expected.size() + 3) / 4; }
};

struct Plan {
    const Instruction* instruction = nullptr;
    std::vector<Config> configs;
    std::size_t outWords() const;
};

// The catalog of configurations a rank is proven with (element sizes 1, 2, 4; every swizzle; several box
// shapes; boxes crossing the tensor's edges).
std::vector<std::string> catalogSpecs(int rank);
// A configuration from its spec text (it must pass the family's checks).
Config configOf(const std::string& spec);
Plan planProbe(const Instruction& instruction);
// A multicast instance (docs/tma.md#multicast): per CTA of its cluster, the `span` bytes of shared memory
// from the box's base after the loads, as the placements say (SmemByte::cta names the CTA; fill 0; 0xA5 where
// nothing lands). What lanemap-tma-box and the GPU test compare each CTA's read-back with.
std::vector<std::vector<std::uint8_t>> clusterImages(const Instruction& instance, std::size_t span);
std::vector<std::uint32_t> simulate(const Plan& plan);
Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw);

class TmaBoxProbe final : public PlannedProbe {
  public:
    explicit TmaBoxProbe(const Instruction& instruction) : m_plan(planProbe(instruction)) {}
    static std::vector<ProbeForm> forms(const Instruction& instruction) { return firstFormOf(instruction); }
    const Plan& plan() const { return m_plan; }
    const Instruction& instruction() const override { return *m_plan.instruction; }
    int experiments() const override { return static_cast<int>(m_plan.configs.size()); }
    std::size_t outWords() const override { return m_plan.outWords(); }
    std::vector<std::uint32_t> simulate() const override { return tmabox::simulate(m_plan); }
    Interpretation interpret(std::span<const std::uint32_t> raw) const override {
        return tmabox::interpret(m_plan, raw);
    }

    // The kernel binding (tma_box_cuda.cpp, CUDA builds): method_row.hpp.
    static std::string cannotRun(const Variant& variant, const DeviceInfo& device);
    PreparedLaunch prepareLaunch(const Variant& variant, const DeviceInfo& device) const;

  private:
    Plan m_plan;
};

} // namespace lanemap::gpu::tmabox
