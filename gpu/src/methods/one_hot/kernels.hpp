#pragma once
// The probe kernels as the host sees them (no CUDA types): one entry per probed variant, keyed by the
// variant's canonical PTX string, listing the instruction forms its kernel can run (in formsOf order).
#include <cstdint>
#include <span>
#include <string_view>

namespace lanemap::gpu::kernels {

// 32-bit words per lane of A, B, C, D and the metadata register.
struct Words {
    int a, b, c, d, e;
};

struct FormKernel {
    const char* ptx; // the instruction string inside the kernel's asm statement
    int selector;    // mma.sp sparsity selector immediate; -1 for dense
};

struct Entry {
    const char* ptx; // canonical PTX of the variant (its first form)
    int minArch;     // __CUDA_ARCH__ the instructions need, e.g. 800, 890, 900
    Words words;
    std::span<const FormKernel> forms;
    // One warp per experiment: in = [experiment][A,B,C,E words][lane], modes = form per experiment,
    // out = [experiment][D words][lane]; *compiled is set to 1 when the code the device ran contains the
    // instruction (0: the device's image was built without it). Returns the cudaError_t of the launch.
    int (*launch)(const std::uint32_t* in, const std::uint8_t* modes, std::uint32_t* out, int experiments,
                  int* compiled);
};

std::span<const Entry> all();
const Entry* find(std::string_view ptx);

} // namespace lanemap::gpu::kernels
