// The tagged-tile kernels of the sm_100a matrix moves (ldmatrix .m16n16 .b8 / .b8x16, .m8n16 .b8x16,
// stmatrix .m16n8 .b8): the same kernel as kernels.cu (one warp, one experiment after another),
// built for sm_100a only (gpu/CMakeLists.txt, LANEMAP_SM100A_PROBES): these forms exist on no other target
// this nvcc builds code for, and on the H100 the probe says they need sm_100a without launching anything.
#include "kernels.hpp"
#include "kernels_body.cuh"

#include <cuda_runtime.h>

namespace lanemap::gpu::movekernels {

namespace {

// One asm per form and register count: registers r[0..n), the row address each lane supplies.
#define LANEMAP_LD1(ptx) asm volatile(ptx " {%0}, [%1];" : "=r"(r[0]) : "r"(address))
#define LANEMAP_LD2(ptx) asm volatile(ptx " {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(address))
#define LANEMAP_LD4(ptx)                                                                                     \
    asm volatile(ptx " {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(address))
#define LANEMAP_ST1(ptx) asm volatile(ptx " [%0], {%1};" ::"r"(address), "r"(r[0]) : "memory")
#define LANEMAP_ST2(ptx) asm volatile(ptx " [%0], {%1,%2};" ::"r"(address), "r"(r[0]), "r"(r[1]) : "memory")
#define LANEMAP_ST4(ptx)                                                                                     \
    asm volatile(ptx " [%0], {%1,%2,%3,%4};" ::"r"(address), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])      \
                 : "memory")

enum class Form {
    LdM16n16X1B8,
    LdM16n16X2B8,
    LdM16n16X1B6,
    LdM16n16X2B6,
    LdM16n16X1B4,
    LdM16n16X2B4,
    LdM8n16X1B6,
    LdM8n16X2B6,
    LdM8n16X4B6,
    LdM8n16X1B4,
    LdM8n16X2B4,
    LdM8n16X4B4,
    StM16n8X1,
    StM16n8X2,
    StM16n8X4,
};

__host__ __device__ constexpr bool isStore(Form f) {
    return f == Form::StM16n8X1 || f == Form::StM16n8X2 || f == Form::StM16n8X4;
}

template <Form f> __device__ bool moveOnce(std::uint32_t address, std::uint32_t (&r)[4]) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)
    // clang-format off
    if constexpr (f == Form::LdM16n16X1B8) LANEMAP_LD2("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8");
    if constexpr (f == Form::LdM16n16X2B8) LANEMAP_LD4("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8");
    if constexpr (f == Form::LdM16n16X1B6) LANEMAP_LD2("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b6x16_p32");
    if constexpr (f == Form::LdM16n16X2B6) LANEMAP_LD4("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8x16.b6x16_p32");
    if constexpr (f == Form::LdM16n16X1B4) LANEMAP_LD2("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b4x16_p64");
    if constexpr (f == Form::LdM16n16X2B4) LANEMAP_LD4("ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8x16.b4x16_p64");
    if constexpr (f == Form::LdM8n16X1B6) LANEMAP_LD1("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32");
    if constexpr (f == Form::LdM8n16X2B6) LANEMAP_LD2("ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32");
    if constexpr (f == Form::LdM8n16X4B6) LANEMAP_LD4("ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32");
    if constexpr (f == Form::LdM8n16X1B4) LANEMAP_LD1("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b4x16_p64");
    if constexpr (f == Form::LdM8n16X2B4) LANEMAP_LD2("ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b4x16_p64");
    if constexpr (f == Form::LdM8n16X4B4) LANEMAP_LD4("ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64");
    if constexpr (f == Form::StM16n8X1) LANEMAP_ST1("stmatrix.sync.aligned.m16n8.x1.trans.shared.b8");
    if constexpr (f == Form::StM16n8X2) LANEMAP_ST2("stmatrix.sync.aligned.m16n8.x2.trans.shared.b8");
    if constexpr (f == Form::StM16n8X4) LANEMAP_ST4("stmatrix.sync.aligned.m16n8.x4.trans.shared.b8");
    // clang-format on
    return true;
#else
    (void)address;
    (void)r;
    return false;
#endif
}

template <Form f>
__global__ void moveKernel(const std::uint32_t* in, std::uint32_t* out, int experiments, int* compiled) {
    runMoves<isStore(f)>(in, out, experiments, compiled,
                         [](std::uint32_t address, std::uint32_t(&r)[4]) { return moveOnce<f>(address, r); });
}

template <Form f> int launch(const std::uint32_t* in, std::uint32_t* out, int experiments, int* compiled) {
    moveKernel<f><<<1, 32>>>(in, out, experiments, compiled);
    return static_cast<int>(cudaGetLastError());
}

constexpr int kSm100 = 1000;

const Entry kEntries[] = {
    {"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", kSm100, launch<Form::LdM16n16X1B8>},
    {"ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8", kSm100, launch<Form::LdM16n16X2B8>},
    {"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b6x16_p32", kSm100, launch<Form::LdM16n16X1B6>},
    {"ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8x16.b6x16_p32", kSm100, launch<Form::LdM16n16X2B6>},
    {"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8x16.b4x16_p64", kSm100, launch<Form::LdM16n16X1B4>},
    {"ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8x16.b4x16_p64", kSm100, launch<Form::LdM16n16X2B4>},
    {"ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32", kSm100, launch<Form::LdM8n16X1B6>},
    {"ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32", kSm100, launch<Form::LdM8n16X2B6>},
    {"ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32", kSm100, launch<Form::LdM8n16X4B6>},
    {"ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b4x16_p64", kSm100, launch<Form::LdM8n16X1B4>},
    {"ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b4x16_p64", kSm100, launch<Form::LdM8n16X2B4>},
    {"ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b4x16_p64", kSm100, launch<Form::LdM8n16X4B4>},
    {"stmatrix.sync.aligned.m16n8.x1.trans.shared.b8", kSm100, launch<Form::StM16n8X1>},
    {"stmatrix.sync.aligned.m16n8.x2.trans.shared.b8", kSm100, launch<Form::StM16n8X2>},
    {"stmatrix.sync.aligned.m16n8.x4.trans.shared.b8", kSm100, launch<Form::StM16n8X4>},
};

} // namespace

const Entry* findSm100a(std::string_view ptx) {
    for (const Entry& e : kEntries)
        if (ptx == e.ptx)
            return &e;
    return nullptr;
}

} // namespace lanemap::gpu::movekernels
