#pragma once
// The wgmma probe kernels as the host sees them (no CUDA types): one entry per probed wgmma / wgmma.sp
// variant, keyed by the variant's canonical PTX string, listing the instruction forms (modes) its kernel can
// run.
//
// One warpgroup (one block of 128 threads) runs one experiment. The host hands it shared-memory images that
// it built with lanemap::smem (the kernel copies bytes, it never computes an address), descriptors encoded by
// lanemap::smem::encodeDescriptor with start addresses relative to a 1024-byte aligned base (the kernel adds
// that base), the A register image, the metadata words and the mode. The kernel reduces each D element to its
// class (DClass: 0, 1 or anything else, 2 bits) and writes those: the host never reads more than that, and
// the raw registers were ~10 GB per probe of the catalog, copied back through one bus.
#include <cstdint>
#include <span>
#include <string_view>

namespace lanemap::gpu::wgkernels {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;
constexpr int kThreads = 128;  // one warpgroup
constexpr int kARegisters = 4; // every wgmma A-in-registers form takes four 32-bit registers

// One experiment, as the kernel reads it. Offsets are in 32-bit words (`words`) or bytes (`pool`, 16-byte
// units).
struct Experiment {
    std::uint64_t descA = 0;     // A descriptor (SS forms), start address relative to the shared-memory base
    std::uint64_t descB = 0;     // B descriptor, likewise
    std::uint32_t aRegs = kNone; // word offset of the A register image, [register][thread]; kNone: zeros
    std::uint32_t meta = kNone;  // word offset of the metadata image, [thread]; kNone: zeros
    std::uint32_t bOffset = 0;   // byte offset of B's shared-memory image in the pool
    std::uint32_t bBytes = 0;    // its size (a multiple of 16), copied to the base
    std::uint32_t aOffset = 0;   // byte offset of A's shared-memory image (SS forms)
    std::uint32_t aBytes = 0;    // its size; 0 for A in registers
    std::uint32_t aAt = 0;       // where A's image goes, bytes from the base (a multiple of 1024)
    std::uint32_t mode = 0;      // index into Entry::forms
};

// One instruction form a kernel runs: the PTX instruction and how its operands are fed.
struct Form {
    const char* ptx; // full instruction string, no operands
    bool aShared;    // A from shared memory (descriptor) instead of registers
    int transA;      // imm-trans-a (SS 16-bit forms), else 0
    int transB;      // imm-trans-b (16-bit forms), else 0
    int selector;    // wgmma.sp sparsity selector immediate; -1 for dense
};

// How the kernel classifies a D element (all three from the host's plan): the element is `bits` wide (16 for
// .f16x2 accumulators, else 32); `one` is the type's encoding of 1; `negZero` a second encoding of 0 (f32 and
// f16 have -0; 0 for s32). Class 0 = zero, 1 = one, 2 = any other value (or a register wgmma did not write).
struct DClass {
    std::uint32_t one = 0;
    std::uint32_t negZero = 0;
    int bits = 32;
};

struct Entry {
    const char* ptx; // canonical PTX of the variant
    int n;           // N of the shape
    int dWords;      // 32-bit D registers per thread
    std::span<const Form> forms;
    // Runs `experiments` warpgroups. out = [experiment][packed word][thread]: element p of a thread (register
    // p / (32 / bits), from bit (p % (32 / bits)) * bits) has its class in bits [2(p % 16) + 1 : 2(p % 16)]
    // of packed word p / 16. smemBytes is the dynamic shared memory per block (the largest aAt + aBytes or
    // bBytes, plus 1024 for aligning the base). *compiled is set to 1 when the code the device ran contains
    // the instructions. Returns the cudaError_t of the launch.
    int (*launch)(const Experiment* experiments, const std::uint32_t* words, const void* pool,
                  std::uint32_t* out, int count, int smemBytes, DClass dClass, int* compiled);
};

std::span<const Entry> all();
// Whether this build has every valid N (LANEMAP_WGMMA_ALL_N) or the representative subset.
bool everyN();
const Entry* find(std::string_view ptx);

// Per translation unit (compiled in parallel): the entries of one type family.
std::span<const Entry> entriesF16();
std::span<const Entry> entriesBf16Tf32();
std::span<const Entry> entriesFp8();
std::span<const Entry> entriesInt();
std::span<const Entry> entriesSparseF16();
std::span<const Entry> entriesSparseTf32Int();
std::span<const Entry> entriesSparseFp8();

} // namespace lanemap::gpu::wgkernels
