#pragma once
// The tagged-tile probe method (ldmatrix / stmatrix / movmatrix, docs/probe.md "Matrix moves"): every element
// (16-bit, 8-bit, packed 6- or 4-bit) carries a tag naming where it came from. ldmatrix: the tile in shared
// memory is tagged (matrix, row, element) and placed at the engine's addresses (rows scrambled, unused
// threads pointing at a poison row); the registers come back. stmatrix: the registers are tagged (lane,
// register, slot) and the shared memory comes back. movmatrix: the source registers are tagged (lane, half).
// The expected output is what the engine's data map and address map predict, so every cell of both maps is
// checked. CUDA-free.
#include "lanemap/gpu/pipeline.hpp"
#include "methods/method_row.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace lanemap::gpu::tagged {

// Words per experiment: in = [shared-memory image][address per lane][4 registers x 32 lanes];
// out = registers ([register][lane], ld/mov) or the shared-memory image (st).
inline constexpr std::size_t kImageWords = 256; // 1 KiB: 64 chunks of 16 bytes
inline constexpr std::size_t kInWords = kImageWords + 32 + 4 * 32;
inline constexpr std::size_t kOutWords = kImageWords;

struct Experiment {
    std::string label;
    std::vector<int> chunkOfRow; // per (matrix * rows + row): the 16-byte chunk holding it
    int poisonChunk = -1;        // where the threads that supply no row point
    int digit = 0;               // which digit of the element keys the tags carry (tagged.cpp)
};

struct Plan {
    const Instruction* instruction = nullptr;
    std::vector<Experiment> experiments;
    std::vector<std::uint32_t> inputs; // experiments x kInWords
    std::size_t outWords() const { return kOutWords * experiments.size(); }
};

// Every matrix move is planned (.b16, .b8 and the packed 6/4-bit sources alike: a tag is as wide as the
// element, and a key longer than one tag takes one experiment per digit); the caller checks supported().
bool supported(const Variant& variant);
Plan planProbe(const Instruction& instruction);
std::vector<std::uint32_t> simulate(const Plan& plan);
Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw);

// The method's plan (its row is in method_rows.hpp).
class TaggedProbe final : public PlannedProbe {
  public:
    explicit TaggedProbe(const Instruction& instruction) : m_plan(planProbe(instruction)) {}
    static std::vector<ProbeForm> forms(const Instruction& instruction) { return firstFormOf(instruction); }
    const Plan& plan() const { return m_plan; }
    const Instruction& instruction() const override { return *m_plan.instruction; }
    int experiments() const override { return static_cast<int>(m_plan.experiments.size()); }
    std::size_t outWords() const override { return m_plan.outWords(); }
    std::vector<std::uint32_t> simulate() const override { return tagged::simulate(m_plan); }
    Interpretation interpret(std::span<const std::uint32_t> raw) const override {
        return tagged::interpret(m_plan, raw);
    }

    // The kernel binding (tagged_cuda.cpp, CUDA builds): method_row.hpp.
    static std::string cannotRun(const Variant& variant, const DeviceInfo& device);
    PreparedLaunch prepareLaunch(const Variant& variant, const DeviceInfo& device) const;

  private:
    Plan m_plan;
};

} // namespace lanemap::gpu::tagged
