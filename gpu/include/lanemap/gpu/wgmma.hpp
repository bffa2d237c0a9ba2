#pragma once
// The hardware probe for wgmma and wgmma.sp (docs/probe.md#wgmma-and-wgmmasp), host side, CUDA-free.
//
//   plan:      per experiment, the host builds the A register image of all 128 threads, the shared-memory
//   images of
//              B (and of A for the SS forms) placed with lanemap::smem, their descriptors (lanemap::smem's
//              encoding), and the metadata words. Values are 0 and 1 only.
//   device:    one warpgroup per experiment copies the images into shared memory, runs the one instruction
//              (fenced as the ISA requires) and writes each D element's class: 0, 1 or other (or, in tests,
//              simulate() does). Values are 0 and 1 only, so that is all the host ever needs of D.
//   interpret: only the host reads D back into rows, columns and k, cell by cell.
//
// Experiments (each spelled in binary over a few runs, so a variant needs tens of launches' worth of
// warpgroups, not thousands):
//   AIdent  - every A cell carries its own code, B is a column selector (column n holds a single 1 at k =
//             (g*N + n) mod K): each D slot spells which A cell reached it -> rows of A vs D and k of A vs k
//             of B.
//   BIdent  - every B element carries its own code, A is a row selector (row r holds a single 1): each D slot
//             spells which B element reached it -> columns of B vs D and k of B vs k of A.
//   MetaLocate / MetaValue (wgmma.sp) - which lane and bits hold the indices of each A element's chunk, and
//   every
//             valid index value, as the mma.sp probe does, with one A element per row of the warpgroup at
//             once.
// B sits in shared memory in every canonical layout (K-major; N-major too for .f16/.bf16) with no swizzle and
// the 32B/64B/128B swizzles, so a wrong address function, swizzle or descriptor shows up as wrong columns or
// k.

#include "lanemap/gpu/experiments.hpp"
#include "lanemap/model.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/smem.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lanemap::gpu::wg {

constexpr int kThreads = 128;
constexpr int kARegisters = 4;
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// The class-coded method's forms: canonical types with every sparsity selector, then the mixed-type aliases
// (wgmma.sp: with the first selector).
std::vector<ProbeForm> formsOf(const Instruction& instruction);

enum class ASource : std::uint8_t { Registers, SharedMemory };

// How one form's operands are fed. B always sits in shared memory; with A from shared memory (SS), A uses B's
// major-ness and swizzle. Layouts are lanemap::smem's, made with start addresses relative to a 1024-byte
// aligned base: B at 0, A at aAt.
struct Setup {
    std::uint16_t form = 0;
    ASource a = ASource::Registers;
    smem::Major major = smem::Major::K;
    smem::Swizzle swizzle = smem::Swizzle::B128;
    smem::SmemLayout bLayout; // (mn = n, k) of the K x N tile
    std::optional<smem::SmemLayout>
        aLayout; // SS: (mn = m, k) of the M x K tile (wgmma.sp: M x K/2, compressed)
    std::uint32_t aAt = 0;
    std::uint16_t bConfig = 0; // setups of one form with the same B layout share this index
    std::string label;         // "A in registers, B K-major 128B"

    int transA() const; // imm-trans-a: 1 for M-major A (SS)
    int transB() const; // imm-trans-b: 1 for N-major B
};

enum class Kind : std::uint8_t { AIdent, BIdent, MetaLocate, MetaValue };
std::string_view toString(Kind kind);

struct Experiment {
    Kind kind = Kind::AIdent;
    std::uint16_t setup = 0;
    std::int8_t pattern = 0; // wgmma.sp: metadata base pattern, 0: 0b0100 everywhere, 1: 0b1110; 0 for dense
    std::int16_t group = 0;  // AIdent/BIdent: selector group; metadata runs: compressed column j of each row
    std::int16_t bit = 0;    // which bit of the codes (or of the nibble ids) the run spells
    std::int8_t value = -1;  // MetaValue: index into the valid field values
};

// What one warpgroup reads (offsets: words into `words`, bytes into `pool`).
struct Inputs {
    std::uint64_t descA = 0, descB = 0;
    std::uint32_t aRegs = kNone, meta = kNone;
    std::uint32_t bOffset = 0, bBytes = 0, aOffset = 0, aBytes = 0, aAt = 0;
};

struct Plan {
    const Instruction* instruction = nullptr;
    std::vector<ProbeForm> forms;
    std::vector<Setup> setups;
    std::vector<Experiment> experiments;
    std::vector<Inputs> inputs;       // per experiment
    std::vector<std::uint32_t> words; // A register images ([register][thread]) and metadata images ([thread])
    std::vector<std::uint8_t> pool;   // shared-memory images, each 16-byte aligned
    int dWords = 0;                   // 32-bit D registers per thread
    std::uint32_t smemBytes = 0;      // dynamic shared memory per warpgroup, 1024 of it for aligning the base
    // The device reduces each D element to its class, 2 bits: 0 = zero (0 or dNegZero), 1 = dOne, 2 =
    // anything else. Element p of a thread (register p / (32 / dElementBits)) sits in bits [2(p % 16) + 1 :
    // 2(p % 16)] of packed word p / 16; the experiment's output is [packed word][thread].
    int dElementBits = 32; // 16 for .f16x2 accumulators
    std::uint32_t dOne = 0, dNegZero = 0;

    int packedWords() const { return (dWords * (32 / dElementBits) + 15) / 16; } // per thread
    int classPosition(const Element& d) const {
        return d.reg * (32 / dElementBits) + (d.bit % 32) / dElementBits;
    }
    std::size_t outWordsPerExperiment() const { return static_cast<std::size_t>(packedWords()) * kThreads; }
    std::size_t outWords() const { return outWordsPerExperiment() * experiments.size(); }
};

// Every experiment of every setup of every form.
Plan planProbe(const Instruction& instruction);

// Reads D's classes ([experiment][packed word][thread], as the kernel wrote them) into per-cell verdicts. The
// observed mapping holds, per form, where each A register element was seen (row, k under metadata 0b0100)
// and, for wgmma.sp, which lane and nibble the hardware read its indices from; b[form] holds where each B
// element (k * N + n) was seen in the form's first setup (row = k, col = n).
Interpretation interpretProbe(const Plan& plan, std::span<const std::uint32_t> rawD);

// A CPU warpgroup for tests: executes a plan the way hardware would that used `reference` as its layouts.
struct SimReference {
    std::vector<Element> a, d;              // A in registers and D, by flat element
    std::optional<MetadataLayout> metadata; // wgmma.sp
    // The simulated hardware reads shared memory through the descriptors with its own implementation of the
    // canonical layouts (PTX 9.1 §9.7.15.5.1.2), not lanemap::smem's. A test may make it misread one swizzle
    // mode of the descriptor as another (say 128B as 64B), for B or for A.
    std::map<smem::Swizzle, smem::Swizzle> bSwizzleAs, aSwizzleAs;
};
SimReference referenceOf(const Instruction& instruction);
std::vector<std::uint32_t> simulate(const Plan& plan, const SimReference& reference);

// The simulated hardware's address of element (mn, k) of a tile read through `descriptor` (byte, and bit for
// sub-byte types): PTX 9.1 §9.7.15.5.1.2's canonical layouts evaluated directly, then Swizzle<B,4,3>.
// `swizzle` replaces the descriptor's swizzle mode.
struct HardwareAddress {
    std::uint32_t byte = 0;
    int bit = 0;
};
HardwareAddress descriptorAddress(std::uint64_t descriptor, smem::Major major, int elementBits, int mn, int k,
                                  std::optional<smem::Swizzle> swizzle = std::nullopt);

} // namespace lanemap::gpu::wg
