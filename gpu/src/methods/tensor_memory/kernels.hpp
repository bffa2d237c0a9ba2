#pragma once
// The tensor-memory probe kernels as the host sees them (no CUDA types): one entry per tcgen05.ld /
// tcgen05.st form of the catalog, keyed by its PTX string (kernels_ld.cu, kernels_st.cu;
// sm_100a code only). One block of 128 threads (a warpgroup) per experiment; block x is experiment x, whose
// lane offset is 16 x (the upper 16-lane half in the second experiment of a 16-lane shape). Each block
// allocates Tensor Memory, fills it from `in` through tcgen05.st .32x32b.x1 (ld) or with the sentinel (st),
// runs the form at lane 32 w + offset, column 0 of every warp w, and writes what tensor_memory.hpp describes
// to `out`. The kernels copy words; every placement is computed and read by the host.
#include <cstdint>
#include <span>
#include <string_view>

namespace lanemap::gpu::tckernels {

struct Entry {
    const char* ptx; // the form's PTX string, no operands
    int registers;   // 32-bit registers per thread
    // in: ld: [column][lane] cell words; st: [warp][register][thread] register words. columns: the columns
    // read or filled (tensor_memory.hpp Plan::columns), allocColumns: a power of two from 32 to 512 covering
    // them. *compiled is set to 1 when the code the device ran contains tcgen05. Returns the cudaError_t.
    int (*launch)(const std::uint32_t* in, std::uint32_t* out, int experiments, int columns, int allocColumns,
                  int* compiled);
};

std::span<const Entry> entriesLd(); // kernels_ld.cu
std::span<const Entry> entriesSt(); // kernels_st.cu
const Entry* find(std::string_view ptx);
// The catalog's tcgen05.mma PTX strings the mma kernels hold (kernels_mma.cu; the block-scaled kinds
// with .block_scale added, as ptxas requires).
std::span<const char* const> mmaForms();

// The tcgen05.mma probe kernel's arguments (mma.hpp builds them): `in` is [experiment][cta] of
// wordsPerCta words, the A and B shared-memory image (sharedWords) then Tensor Memory columns fillColumn ..
// fillColumn + fillColumns - 1, [column][lane]. Each CTA allocates allocColumns, fills the D columns
// (0 .. columns - 1) with the sentinel and the filled columns from the image; one thread issues the mma
// (D at column 0, enable-input-d false; A from Tensor Memory at aColumn in experiments from
// firstTensorMemoryA on), commits to an mbarrier and every warp reads D back with tcgen05.ld .32x32b.x1 into
// out, [experiment][cta][column][lane]. The descriptors' start addresses are relative to the image: the
// kernel adds its shared-memory base.
struct MmaArgs {
    int experiments = 0;
    int columns = 0;
    int sharedWords = 0;
    int wordsPerCta = 0;
    int firstTensorMemoryA = 0;
    int allocColumns = 512;
    int fillColumn = 0, fillColumns = 0;
    int aColumn = 0, metadataColumn = 0, scaleAColumn = 0, scaleBColumn = 0;
    int lane = 0; // the lane of the D and A addresses: a half-datapath layout's lane alignment (0 or 16)
    std::uint64_t descriptorA = 0, descriptorB = 0;
    std::uint32_t idesc = 0;
};
struct MmaEntry {
    const char* ptx;
    int ctaGroup; // 2: launched as 2-CTA clusters
    int (*launch)(const std::uint32_t* in, std::uint32_t* out, const MmaArgs& args, int* compiled);
};
std::span<const MmaEntry> entriesMma(); // kernels_mma.cu
const MmaEntry* findMma(std::string_view ptx);

} // namespace lanemap::gpu::tckernels
