#pragma once
// The tensor-memory probe method (tcgen05.ld / tcgen05.st / tcgen05.mma, docs/probe.md "Tensor Memory"):
// every 32-bit Tensor Memory cell or register the method writes carries a code naming where it was written,
// and the host reads the codes that come back into placements, compared with the engine's (tmem.hpp).
//
//   ld:  one CTA of 128 threads; each warp fills its subpartition through the simplest path (tcgen05.st
//        .32x32b.x1, one column at a time) with the cell's code (lane, column), then reads it back with the
//        shape under test at lane 32 w (+16: the upper half of a 16-lane shape, a second experiment). Out:
//        every register of every thread, [experiment][warp][register][thread].
//   st:  the cells are filled with a sentinel, every thread's registers carry (warp, thread, register[,
//   half])
//        and are written with the shape under test; the cells are read back with tcgen05.ld .32x32b.x1. Out:
//        [experiment][column][lane] over the columns the access spans.
//   mma: A and B coded so that D[m][n] is one digit of m (the "rows" experiments) or of n ("columns"), the
//        cells pre-filled with a sentinel, each experiment once with A in shared memory and once with A in
//        Tensor Memory (mma.hpp has the images); D is read back with tcgen05.ld .32x32b. Out:
//        [experiment][cta][column][lane] over the columns the layout uses. The interpretation turns the
//        digits into (m, n) per cell and compares them with placeD().
//
// No tcgen05 instruction runs on Hopper: on anything but an sm_100a-class GPU every entry is unsupported with
// the capability it needs (unsupportedOn). CUDA-free.
#include "lanemap/gpu/pipeline.hpp"
#include "lanemap/tmem.hpp"
#include "methods/method_row.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lanemap::gpu::tc {

// The code of Tensor Memory cell (lane, column) in the low 16 bits (lane 7 bits, column 9 bits); the high 16
// bits repeat it, inverted, so a word that is not a whole code is seen.
std::uint32_t cellCode(int lane, int column);
// The code of register `reg`, element `half`, of thread `thread` of warp `warp` (15 bits: bit 15 is never
// set).
std::uint32_t registerCode(int warp, int thread, int reg, int half);
inline constexpr std::uint32_t kSentinel = 0xffffffffu; // a cell nothing wrote

enum class Axis : std::uint8_t { Rows, Columns }; // which index of D[m][n] an mma experiment codes
// mma: where A comes from. Every form runs both ways: A through a shared-memory descriptor, and A in Tensor
// Memory at kAColumn (mma.hpp), placed by tmem::placeA; D must be the same.
enum class ASource : std::uint8_t { SharedMemory, TensorMemory };
std::string_view toString(ASource source); // "A from shared memory", "A from Tensor Memory"

struct Experiment {
    std::string label;
    int laneOffset = 0; // ld/st: +16 for the upper half of a 16-lane shape
    Axis axis = Axis::Rows;
    int digit = 0; // mma: which digit of m or n
    ASource aSource = ASource::SharedMemory;
};

struct MmaSetup; // mma.hpp

struct Plan {
    const Instruction* instruction = nullptr;
    const tmem::Access* access = nullptr; // ld / st
    const tmem::MmaShape* mma = nullptr;  // mma: the shape probed (N: the entry's largest the idesc encodes)
    std::vector<Experiment> experiments;
    int columns = 0;   // columns read back (st, mma)
    int digitBits = 8; // mma: bits of m or n one experiment carries (the operand type's exact powers of two)
    // What the kernel is given: ld: the cells' codes, [column][lane]; st: the registers,
    // [warp][register][thread] (unpacked: the code and its inverse; .unpack::16b: two codes), both the same
    // for every experiment; mma: [experiment][cta] of MmaSetup::wordsPerCta() (mmaImages).
    std::vector<std::uint32_t> inputs;
    std::shared_ptr<const MmaSetup> mmaSetup; // mma: descriptors and image layout
    int firstTensorMemoryA = 0;               // mma: experiments from here take A from Tensor Memory
    // mma: why the kernel cannot run this entry (core's instruction-descriptor encoder rejects the shape);
    // the simulator then writes the catalog's layout directly.
    std::string notProbed;
    std::size_t outWordsPerExperiment() const;
    std::size_t outWords() const { return outWordsPerExperiment() * experiments.size(); }
};

// mma: the value of an operand element in one experiment (the future kernel's images; docs/probe.md): the
// coded operand (A for rows, B for columns) holds bit (digit * digitBits + k) of its index at k < digitBits,
// the other holds 2^k there; both are 0 at larger k. D[m][n] is then the digit. Sparse A: k counts A's
// stored (compressed) elements, the metadata selecting the first two of every four.
int operandValue(const Plan& plan, const Experiment& x, Operand operand, int index, int k);

Plan planProbe(const Instruction& instruction);
// What a device that agrees with the engine writes.
std::vector<std::uint32_t> simulate(const Plan& plan);
Interpretation interpret(const Plan& plan, std::span<const std::uint32_t> raw);

// Why `device` cannot run tcgen05 (anything but an sm_100a-class GPU), in words; empty when it can.
std::string unsupportedOn(const Variant& variant, const DeviceInfo& device);

// The method's plan (its row is in method_rows.hpp).
class TensorMemoryProbe final : public PlannedProbe {
  public:
    explicit TensorMemoryProbe(const Instruction& instruction) : m_plan(planProbe(instruction)) {}
    static std::vector<ProbeForm> forms(const Instruction& instruction) { return firstFormOf(instruction); }
    const Plan& plan() const { return m_plan; }
    const Instruction& instruction() const override { return *m_plan.instruction; }
    int experiments() const override { return static_cast<int>(m_plan.experiments.size()); }
    std::size_t outWords() const override { return m_plan.outWords(); }
    std::vector<std::uint32_t> simulate() const override { return tc::simulate(m_plan); }
    Interpretation interpret(std::span<const std::uint32_t> raw) const override {
        return tc::interpret(m_plan, raw);
    }

    // The kernel binding (tensor_memory_cuda.cpp, CUDA builds): method_row.hpp.
    static std::string cannotRun(const Variant& variant, const DeviceInfo& device);
    PreparedLaunch prepareLaunch(const Variant& variant, const DeviceInfo& device) const;

  private:
    Plan m_plan;
};

} // namespace lanemap::gpu::tc
