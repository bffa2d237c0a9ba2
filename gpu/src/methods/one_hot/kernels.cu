// The probe kernels (docs/probe.md): ONE kernel template, and per PTX instruction a wrapper that is just its
// asm statement. The kernel copies the host's register images into registers, runs the instruction once per
// warp (one experiment per warp) and stores the raw D registers. It never computes a row or a column.
#include "kernels.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <tuple>

namespace lanemap::gpu::kernels {

namespace {

using std::uint32_t;
using std::uint8_t;

constexpr int kThreadsPerBlock = 128; // four experiments per block

// f64 fragments travel as pairs of 32-bit words, low word first.
__device__ __forceinline__ double lmF64(const uint32_t* w, int i) {
    return __hiloint2double(static_cast<int>(w[2 * i + 1]), static_cast<int>(w[2 * i]));
}
__device__ __forceinline__ void lmStore(uint32_t* d, int i, double v) {
    d[2 * i] = static_cast<uint32_t>(__double2loint(v));
    d[2 * i + 1] = static_cast<uint32_t>(__double2hiint(v));
}

// --- operand lists, one per register signature D_A_B_C (registers of D, A, B, C) ------------------------
// Each macro is the asm statement of one instruction shape; the PTX string is the only thing a wrapper adds.
// clang-format off
#define LM_ASM_4_2_2_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11};" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
constexpr Words LM_ASM_4_2_2_4_WORDS{2, 2, 4, 4, 0};

#define LM_ASM_8_2_2_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%13,%14,%15};" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
constexpr Words LM_ASM_8_2_2_4_WORDS{2, 2, 4, 8, 0};

#define LM_ASM_8_2_2_8(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%12,%13,%14,%15,%16,%17,%18,%19};" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7]))
constexpr Words LM_ASM_8_2_2_8_WORDS{2, 2, 8, 8, 0};

#define LM_ASM_2_1_1_2(PTX) \
    asm volatile(PTX " {%0,%1}, {%2}, {%3}, {%4,%5};" \
                 : "=r"(d[0]), "=r"(d[1]) \
                 : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1]))
constexpr Words LM_ASM_2_1_1_2_WORDS{1, 1, 2, 2, 0};

#define LM_ASM_4_2_1_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
constexpr Words LM_ASM_4_2_1_4_WORDS{2, 1, 4, 4, 0};

#define LM_ASM_2_2_1_2(PTX) \
    asm volatile(PTX " {%0,%1}, {%2,%3}, {%4}, {%5,%6};" \
                 : "=r"(d[0]), "=r"(d[1]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]))
constexpr Words LM_ASM_2_2_1_2_WORDS{2, 1, 2, 2, 0};

#define LM_ASM_4_4_2_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
constexpr Words LM_ASM_4_4_2_4_WORDS{4, 2, 4, 4, 0};

#define LM_ASM_2_4_2_2(PTX) \
    asm volatile(PTX " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};" \
                 : "=r"(d[0]), "=r"(d[1]) \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]))
constexpr Words LM_ASM_2_4_2_2_WORDS{4, 2, 2, 2, 0};

#define LM_ASMF64_2_1_1_2(PTX) \
    asm volatile(PTX " {%0,%1}, {%2}, {%3}, {%4,%5};" \
                 : "=d"(x[0]), "=d"(x[1]) \
                 : "d"(lmF64(a, 0)), "d"(lmF64(b, 0)), "d"(lmF64(c, 0)), "d"(lmF64(c, 1)))
constexpr Words LM_ASMF64_2_1_1_2_WORDS{2, 2, 4, 4, 0};

#define LM_ASMF64_4_2_1_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" \
                 : "=d"(x[0]), "=d"(x[1]), "=d"(x[2]), "=d"(x[3]) \
                 : "d"(lmF64(a, 0)), "d"(lmF64(a, 1)), "d"(lmF64(b, 0)), "d"(lmF64(c, 0)), "d"(lmF64(c, 1)), "d"(lmF64(c, 2)), "d"(lmF64(c, 3)))
constexpr Words LM_ASMF64_4_2_1_4_WORDS{4, 2, 8, 8, 0};

#define LM_ASMF64_4_4_2_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
                 : "=d"(x[0]), "=d"(x[1]), "=d"(x[2]), "=d"(x[3]) \
                 : "d"(lmF64(a, 0)), "d"(lmF64(a, 1)), "d"(lmF64(a, 2)), "d"(lmF64(a, 3)), "d"(lmF64(b, 0)), "d"(lmF64(b, 1)), "d"(lmF64(c, 0)), "d"(lmF64(c, 1)), "d"(lmF64(c, 2)), "d"(lmF64(c, 3)))
constexpr Words LM_ASMF64_4_4_2_4_WORDS{8, 4, 8, 8, 0};

#define LM_ASMF64_4_8_4_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%17,%18,%19};" \
                 : "=d"(x[0]), "=d"(x[1]), "=d"(x[2]), "=d"(x[3]) \
                 : "d"(lmF64(a, 0)), "d"(lmF64(a, 1)), "d"(lmF64(a, 2)), "d"(lmF64(a, 3)), "d"(lmF64(a, 4)), "d"(lmF64(a, 5)), "d"(lmF64(a, 6)), "d"(lmF64(a, 7)), "d"(lmF64(b, 0)), "d"(lmF64(b, 1)), "d"(lmF64(b, 2)), "d"(lmF64(b, 3)), "d"(lmF64(c, 0)), "d"(lmF64(c, 1)), "d"(lmF64(c, 2)), "d"(lmF64(c, 3)))
constexpr Words LM_ASMF64_4_8_4_4_WORDS{16, 8, 8, 8, 0};


// mma.sp: the same, plus the metadata register e and the sparsity selector F (an immediate).
#define LM_ASMSP_4_2_2_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%9,%10,%11}, %12, %13;" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e), "n"(F))
constexpr Words LM_ASMSP_4_2_2_4_WORDS{2, 2, 4, 4, 1};

#define LM_ASMSP_2_2_2_2(PTX) \
    asm volatile(PTX " {%0,%1}, {%2,%3}, {%4,%5}, {%6,%7}, %8, %9;" \
                 : "=r"(d[0]), "=r"(d[1]) \
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(e), "n"(F))
constexpr Words LM_ASMSP_2_2_2_2_WORDS{2, 2, 2, 2, 1};

#define LM_ASMSP_4_4_4_4(PTX) \
    asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%13,%14,%15}, %16, %17;" \
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(e), "n"(F))
constexpr Words LM_ASMSP_4_4_4_4_WORDS{4, 4, 4, 4, 1};

#define LM_ASMSP_2_4_4_2(PTX) \
    asm volatile(PTX " {%0,%1}, {%2,%3,%4,%5}, {%6,%7,%8,%9}, {%10,%11}, %12, %13;" \
                 : "=r"(d[0]), "=r"(d[1]) \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(c[0]), "r"(c[1]), "r"(e), "n"(F))
constexpr Words LM_ASMSP_2_4_4_2_WORDS{4, 4, 2, 2, 1};

// --- wrappers: one per PTX instruction ----------------------------------------------------------------------
#define LM_WRAP(NAME, ARCH, SIG, PTX_)                                                                          \
    struct NAME {                                                                                              \
        static constexpr const char* kPtx = PTX_;                                                              \
        static constexpr int kSelector = -1;                                                                   \
        static constexpr int kMinArch = ARCH;                                                                  \
        static constexpr Words kWords = SIG##_WORDS;                                                           \
        __device__ static void run(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t,          \
                                   uint32_t* d) {                                                              \
            SIG(PTX_);                                                                                         \
        }                                                                                                      \
    }
#define LM_WRAP64(NAME, ARCH, SIG, PTX_)                                                                        \
    struct NAME {                                                                                              \
        static constexpr const char* kPtx = PTX_;                                                              \
        static constexpr int kSelector = -1;                                                                   \
        static constexpr int kMinArch = ARCH;                                                                  \
        static constexpr Words kWords = SIG##_WORDS;                                                           \
        __device__ static void run(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t,          \
                                   uint32_t* d) {                                                              \
            double x[SIG##_WORDS.d / 2];                                                                       \
            SIG(PTX_);                                                                                         \
            for (int i = 0; i < SIG##_WORDS.d / 2; ++i) lmStore(d, i, x[i]);                                   \
        }                                                                                                      \
    }

#define LM_WRAP_SP(NAME, ARCH, SIG, PTX_)                                                                       \
    template <int F>                                                                                           \
    struct NAME {                                                                                              \
        static constexpr const char* kPtx = PTX_;                                                              \
        static constexpr int kSelector = F;                                                                    \
        static constexpr int kMinArch = ARCH;                                                                  \
        static constexpr Words kWords = SIG##_WORDS;                                                           \
        __device__ static void run(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t e,        \
                                   uint32_t* d) {                                                              \
            SIG(PTX_);                                                                                         \
        }                                                                                                      \
    }

// Dense mma (PTX 9.1 §9.7.14.5): every variant of docs/reference/ptx-facts.md#dense-mma that runs on sm_90a,
// canonical form first, then the forms with the same layout
// (mixed s8/u8 or e4m3/e5m2 operands, b1 .and.popc).
LM_WRAP(M8n8k4RowRowF16F16F16F16, 750, LM_ASM_4_2_2_4, "mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16");
LM_WRAP(M8n8k4RowRowF32F16F16F16, 750, LM_ASM_8_2_2_4, "mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f16");
LM_WRAP(M8n8k4RowRowF32F16F16F32, 750, LM_ASM_8_2_2_8, "mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f32");
LM_WRAP(M8n8k4RowColF16F16F16F16, 750, LM_ASM_4_2_2_4, "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16");
LM_WRAP(M8n8k4RowColF32F16F16F16, 750, LM_ASM_8_2_2_4, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16");
LM_WRAP(M8n8k4RowColF32F16F16F32, 750, LM_ASM_8_2_2_8, "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32");
LM_WRAP(M8n8k4ColRowF16F16F16F16, 750, LM_ASM_4_2_2_4, "mma.sync.aligned.m8n8k4.col.row.f16.f16.f16.f16");
LM_WRAP(M8n8k4ColRowF32F16F16F16, 750, LM_ASM_8_2_2_4, "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16");
LM_WRAP(M8n8k4ColRowF32F16F16F32, 750, LM_ASM_8_2_2_8, "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32");
LM_WRAP(M8n8k4ColColF16F16F16F16, 750, LM_ASM_4_2_2_4, "mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f16");
LM_WRAP(M8n8k4ColColF32F16F16F16, 750, LM_ASM_8_2_2_4, "mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f16");
LM_WRAP(M8n8k4ColColF32F16F16F32, 750, LM_ASM_8_2_2_8, "mma.sync.aligned.m8n8k4.col.col.f32.f16.f16.f32");
LM_WRAP64(M8n8k4F64F64F64F64, 800, LM_ASMF64_2_1_1_2, "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");
LM_WRAP(M8n8k16S32S8S8S32, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32");
LM_WRAP(M8n8k16S32S8U8S32, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32");
LM_WRAP(M8n8k16S32U8U8S32, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k16.row.col.s32.u8.u8.s32");
LM_WRAP(M8n8k16S32U8S8S32, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k16.row.col.s32.u8.s8.s32");
LM_WRAP(M8n8k32S32S4S4S32, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32");
LM_WRAP(M8n8k32S32S4U4S32, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32");
LM_WRAP(M8n8k32S32U4U4S32, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32");
LM_WRAP(M8n8k32S32U4S4S32, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k32.row.col.s32.u4.s4.s32");
LM_WRAP(M8n8k128S32B1B1S32Xor, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc");
LM_WRAP(M8n8k128S32B1B1S32And, 750, LM_ASM_2_1_1_2, "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc");
LM_WRAP(M16n8k4F32Tf32Tf32F32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32");
LM_WRAP64(M16n8k4F64F64F64F64, 900, LM_ASMF64_4_2_1_4, "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64");
LM_WRAP(M16n8k8F32F16F16F32, 750, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
LM_WRAP(M16n8k8F16F16F16F16, 750, LM_ASM_2_2_1_2, "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16");
LM_WRAP(M16n8k8F32Bf16Bf16F32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32");
LM_WRAP(M16n8k8F32Tf32Tf32F32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
LM_WRAP64(M16n8k8F64F64F64F64, 900, LM_ASMF64_4_4_2_4, "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64");
LM_WRAP(M16n8k16F32F16F16F32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
LM_WRAP(M16n8k16F16F16F16F16, 800, LM_ASM_2_4_2_2, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
LM_WRAP(M16n8k16F32Bf16Bf16F32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
LM_WRAP64(M16n8k16F64F64F64F64, 900, LM_ASMF64_4_8_4_4, "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64");
LM_WRAP(M16n8k16S32S8S8S32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32");
LM_WRAP(M16n8k16S32S8U8S32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32");
LM_WRAP(M16n8k16S32U8U8S32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32");
LM_WRAP(M16n8k16S32U8S8S32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32");
LM_WRAP(M16n8k16F32E4m3E4m3F32, 890, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32");
LM_WRAP(M16n8k16F32E4m3E5m2F32, 890, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e5m2.f32");
LM_WRAP(M16n8k16F16E4m3E4m3F16, 890, LM_ASM_2_2_1_2, "mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e4m3.f16");
LM_WRAP(M16n8k16F16E4m3E5m2F16, 890, LM_ASM_2_2_1_2, "mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e5m2.f16");
LM_WRAP(M16n8k16F32E5m2E5m2F32, 890, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e5m2.f32");
LM_WRAP(M16n8k16F32E5m2E4m3F32, 890, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e4m3.f32");
LM_WRAP(M16n8k16F16E5m2E5m2F16, 890, LM_ASM_2_2_1_2, "mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e5m2.f16");
LM_WRAP(M16n8k16F16E5m2E4m3F16, 890, LM_ASM_2_2_1_2, "mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e4m3.f16");
LM_WRAP(M16n8k32S32S8S8S32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
LM_WRAP(M16n8k32S32S8U8S32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32");
LM_WRAP(M16n8k32S32U8U8S32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32");
LM_WRAP(M16n8k32S32U8S8S32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32");
LM_WRAP(M16n8k32S32S4S4S32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32");
LM_WRAP(M16n8k32S32S4U4S32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k32.row.col.s32.s4.u4.s32");
LM_WRAP(M16n8k32S32U4U4S32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32");
LM_WRAP(M16n8k32S32U4S4S32, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k32.row.col.s32.u4.s4.s32");
LM_WRAP(M16n8k32F32E4m3E4m3F32, 890, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
LM_WRAP(M16n8k32F32E4m3E5m2F32, 890, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32");
LM_WRAP(M16n8k32F16E4m3E4m3F16, 890, LM_ASM_2_4_2_2, "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e4m3.f16");
LM_WRAP(M16n8k32F16E4m3E5m2F16, 890, LM_ASM_2_4_2_2, "mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16");
LM_WRAP(M16n8k32F32E5m2E5m2F32, 890, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32");
LM_WRAP(M16n8k32F32E5m2E4m3F32, 890, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32");
LM_WRAP(M16n8k32F16E5m2E5m2F16, 890, LM_ASM_2_4_2_2, "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e5m2.f16");
LM_WRAP(M16n8k32F16E5m2E4m3F16, 890, LM_ASM_2_4_2_2, "mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16");
LM_WRAP(M16n8k64S32S4S4S32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
LM_WRAP(M16n8k64S32S4U4S32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32");
LM_WRAP(M16n8k64S32U4U4S32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32");
LM_WRAP(M16n8k64S32U4S4S32, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32");
LM_WRAP(M16n8k128S32B1B1S32Xor, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc");
LM_WRAP(M16n8k128S32B1B1S32And, 800, LM_ASM_4_2_1_4, "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc");
LM_WRAP(M16n8k256S32B1B1S32Xor, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc");
LM_WRAP(M16n8k256S32B1B1S32And, 800, LM_ASM_4_4_2_4, "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc");


// Sparse mma.sp and mma.sp::ordered_metadata (PTX 9.1 §9.7.14.6): every variant of
// docs/reference/ptx-facts.md#sparse-mma that runs on sm_90a; a form per selector value is instantiated in
// the entry table.
LM_WRAP_SP(SpM16n8k16F32F16F16F32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
LM_WRAP_SP(SpM16n8k16F16F16F16F16, 800, LM_ASMSP_2_2_2_2, "mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
LM_WRAP_SP(SpOrdM16n8k16F32F16F16F32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
LM_WRAP_SP(SpOrdM16n8k16F16F16F16F16, 800, LM_ASMSP_2_2_2_2, "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
LM_WRAP_SP(SpM16n8k16F32Bf16Bf16F32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
LM_WRAP_SP(SpOrdM16n8k16F32Bf16Bf16F32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
LM_WRAP_SP(SpM16n8k32F32F16F16F32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
LM_WRAP_SP(SpM16n8k32F16F16F16F16, 800, LM_ASMSP_2_4_4_2, "mma.sp.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16");
LM_WRAP_SP(SpOrdM16n8k32F32F16F16F32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
LM_WRAP_SP(SpOrdM16n8k32F16F16F16F16, 800, LM_ASMSP_2_4_4_2, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f16.f16.f16.f16");
LM_WRAP_SP(SpM16n8k32F32Bf16Bf16F32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32");
LM_WRAP_SP(SpOrdM16n8k32F32Bf16Bf16F32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32");
LM_WRAP_SP(SpM16n8k16F32Tf32Tf32F32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32");
LM_WRAP_SP(SpOrdM16n8k16F32Tf32Tf32F32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32");
LM_WRAP_SP(SpM16n8k8F32Tf32Tf32F32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
LM_WRAP_SP(SpOrdM16n8k8F32Tf32Tf32F32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
LM_WRAP_SP(SpM16n8k32S32S8S8S32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
LM_WRAP_SP(SpM16n8k32S32S8U8S32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32");
LM_WRAP_SP(SpM16n8k32S32U8U8S32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32");
LM_WRAP_SP(SpM16n8k32S32U8S8S32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32");
LM_WRAP_SP(SpOrdM16n8k32S32S8S8S32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
LM_WRAP_SP(SpOrdM16n8k32S32S8U8S32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32");
LM_WRAP_SP(SpOrdM16n8k32S32U8U8S32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32");
LM_WRAP_SP(SpOrdM16n8k32S32U8S8S32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32");
LM_WRAP_SP(SpM16n8k64S32S8S8S32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32");
LM_WRAP_SP(SpM16n8k64S32S8U8S32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k64.row.col.s32.s8.u8.s32");
LM_WRAP_SP(SpM16n8k64S32U8U8S32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k64.row.col.s32.u8.u8.s32");
LM_WRAP_SP(SpM16n8k64S32U8S8S32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k64.row.col.s32.u8.s8.s32");
LM_WRAP_SP(SpOrdM16n8k64S32S8S8S32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32");
LM_WRAP_SP(SpOrdM16n8k64S32S8U8S32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.u8.s32");
LM_WRAP_SP(SpOrdM16n8k64S32U8U8S32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u8.u8.s32");
LM_WRAP_SP(SpOrdM16n8k64S32U8S8S32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u8.s8.s32");
LM_WRAP_SP(SpM16n8k64F32E4m3E4m3F32, 890, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32");
LM_WRAP_SP(SpM16n8k64F32E4m3E5m2F32, 890, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32");
LM_WRAP_SP(SpM16n8k64F32E5m2E5m2F32, 890, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e5m2.f32");
LM_WRAP_SP(SpM16n8k64F32E5m2E4m3F32, 890, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32");
LM_WRAP_SP(SpOrdM16n8k64F32E4m3E4m3F32, 890, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32");
LM_WRAP_SP(SpOrdM16n8k64F32E4m3E5m2F32, 890, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32");
LM_WRAP_SP(SpOrdM16n8k64F32E5m2E5m2F32, 890, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e5m2.f32");
LM_WRAP_SP(SpOrdM16n8k64F32E5m2E4m3F32, 890, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32");
LM_WRAP_SP(SpM16n8k64S32S4S4S32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
LM_WRAP_SP(SpM16n8k64S32S4U4S32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32");
LM_WRAP_SP(SpM16n8k64S32U4U4S32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32");
LM_WRAP_SP(SpM16n8k64S32U4S4S32, 800, LM_ASMSP_4_2_2_4, "mma.sp.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32");
LM_WRAP_SP(SpOrdM16n8k64S32S4S4S32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32");
LM_WRAP_SP(SpOrdM16n8k64S32S4U4S32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32");
LM_WRAP_SP(SpOrdM16n8k64S32U4U4S32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32");
LM_WRAP_SP(SpOrdM16n8k64S32U4S4S32, 800, LM_ASMSP_4_2_2_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32");
LM_WRAP_SP(SpM16n8k128S32S4S4S32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k128.row.col.s32.s4.s4.s32");
LM_WRAP_SP(SpM16n8k128S32S4U4S32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k128.row.col.s32.s4.u4.s32");
LM_WRAP_SP(SpM16n8k128S32U4U4S32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k128.row.col.s32.u4.u4.s32");
LM_WRAP_SP(SpM16n8k128S32U4S4S32, 800, LM_ASMSP_4_4_4_4, "mma.sp.sync.aligned.m16n8k128.row.col.s32.u4.s4.s32");
LM_WRAP_SP(SpOrdM16n8k128S32S4S4S32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.s4.s32");
LM_WRAP_SP(SpOrdM16n8k128S32S4U4S32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.s4.u4.s32");
LM_WRAP_SP(SpOrdM16n8k128S32U4U4S32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.u4.u4.s32");
LM_WRAP_SP(SpOrdM16n8k128S32U4S4S32, 800, LM_ASMSP_4_4_4_4, "mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.s32.u4.s4.s32");
// clang-format on

// The forms of one variant: the warp's experiment picks one (warp-uniform, so .aligned holds).
template <class... F> struct Forms {
    using First = std::tuple_element_t<0, std::tuple<F...>>;
    static constexpr Words kWords = First::kWords;
    static constexpr int kMinArch = std::max({F::kMinArch...});
    static constexpr FormKernel kForms[] = {{F::kPtx, F::kSelector}...};
    static_assert(((F::kWords.a == kWords.a && F::kWords.b == kWords.b && F::kWords.c == kWords.c &&
                    F::kWords.d == kWords.d && F::kWords.e == kWords.e) &&
                   ...),
                  "every form of a variant has the same registers");

    __device__ static void run(int mode, const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t e,
                               uint32_t* d) {
        int i = 0;
        ((mode == i++ ? F::run(a, b, c, e, d) : void()), ...);
    }
};

// The one kernel: experiment = warp. Images are [experiment][word][lane], so every load is coalesced.
template <class Op>
__global__ void __launch_bounds__(kThreadsPerBlock)
    probeKernel(const uint32_t* __restrict__ in, const uint8_t* __restrict__ modes,
                uint32_t* __restrict__ out, int experiments, int* compiled) {
    constexpr Words w = Op::kWords;
    const int warp = static_cast<int>((blockIdx.x * blockDim.x + threadIdx.x) / 32);
    const int lane = static_cast<int>(threadIdx.x % 32);
    if (warp >= experiments)
        return; // whole warps only: blockDim is a multiple of 32
    const uint32_t* img = in + static_cast<size_t>(warp) * (w.a + w.b + w.c + w.e) * 32 + lane;
    uint32_t a[w.a], b[w.b], c[w.c], d[w.d];
    uint32_t e = 0;
#pragma unroll
    for (int i = 0; i < w.a; ++i)
        a[i] = img[i * 32];
#pragma unroll
    for (int i = 0; i < w.b; ++i)
        b[i] = img[(w.a + i) * 32];
#pragma unroll
    for (int i = 0; i < w.c; ++i)
        c[i] = img[(w.a + w.b + i) * 32];
    if constexpr (w.e > 0)
        e = img[(w.a + w.b + w.c) * 32];
#pragma unroll
    for (int i = 0; i < w.d; ++i)
        d[i] = 0xFFFFFFFFu; // never a valid 0/1 count: an unexecuted form shows
#ifdef __CUDA_ARCH__
    // A portable PTX image (compute_80) leaves out what its target cannot assemble; the host then reports the
    // variant unsupported instead of reading sentinels.
    if constexpr (__CUDA_ARCH__ >= Op::kMinArch) {
        Op::run(modes[warp], a, b, c, e, d);
        if (warp == 0 && lane == 0)
            *compiled = 1;
    }
#endif
    uint32_t* o = out + static_cast<size_t>(warp) * w.d * 32 + lane;
#pragma unroll
    for (int i = 0; i < w.d; ++i)
        o[i * 32] = d[i];
}

template <class Op>
int launch(const uint32_t* in, const uint8_t* modes, uint32_t* out, int experiments, int* compiled) {
    const int blocks = (experiments * 32 + kThreadsPerBlock - 1) / kThreadsPerBlock;
    probeKernel<Op><<<blocks, kThreadsPerBlock>>>(in, modes, out, experiments, compiled);
    return static_cast<int>(cudaGetLastError());
}

template <class Op> constexpr Entry entry() {
    return {Op::kForms[0].ptx, Op::kMinArch, Op::kWords, std::span<const FormKernel>(Op::kForms),
            &launch<Op>};
}

// clang-format off
const Entry kEntries[] = {
    entry<Forms<M8n8k4RowRowF16F16F16F16>>(),
    entry<Forms<M8n8k4RowRowF32F16F16F16>>(),
    entry<Forms<M8n8k4RowRowF32F16F16F32>>(),
    entry<Forms<M8n8k4RowColF16F16F16F16>>(),
    entry<Forms<M8n8k4RowColF32F16F16F16>>(),
    entry<Forms<M8n8k4RowColF32F16F16F32>>(),
    entry<Forms<M8n8k4ColRowF16F16F16F16>>(),
    entry<Forms<M8n8k4ColRowF32F16F16F16>>(),
    entry<Forms<M8n8k4ColRowF32F16F16F32>>(),
    entry<Forms<M8n8k4ColColF16F16F16F16>>(),
    entry<Forms<M8n8k4ColColF32F16F16F16>>(),
    entry<Forms<M8n8k4ColColF32F16F16F32>>(),
    entry<Forms<M8n8k4F64F64F64F64>>(),
    entry<Forms<M8n8k16S32S8S8S32, M8n8k16S32S8U8S32>>(),
    entry<Forms<M8n8k16S32U8U8S32, M8n8k16S32U8S8S32>>(),
    entry<Forms<M8n8k32S32S4S4S32, M8n8k32S32S4U4S32>>(),
    entry<Forms<M8n8k32S32U4U4S32, M8n8k32S32U4S4S32>>(),
    entry<Forms<M8n8k128S32B1B1S32Xor, M8n8k128S32B1B1S32And>>(),
    entry<Forms<M16n8k4F32Tf32Tf32F32>>(),
    entry<Forms<M16n8k4F64F64F64F64>>(),
    entry<Forms<M16n8k8F32F16F16F32>>(),
    entry<Forms<M16n8k8F16F16F16F16>>(),
    entry<Forms<M16n8k8F32Bf16Bf16F32>>(),
    entry<Forms<M16n8k8F32Tf32Tf32F32>>(),
    entry<Forms<M16n8k8F64F64F64F64>>(),
    entry<Forms<M16n8k16F32F16F16F32>>(),
    entry<Forms<M16n8k16F16F16F16F16>>(),
    entry<Forms<M16n8k16F32Bf16Bf16F32>>(),
    entry<Forms<M16n8k16F64F64F64F64>>(),
    entry<Forms<M16n8k16S32S8S8S32, M16n8k16S32S8U8S32>>(),
    entry<Forms<M16n8k16S32U8U8S32, M16n8k16S32U8S8S32>>(),
    entry<Forms<M16n8k16F32E4m3E4m3F32, M16n8k16F32E4m3E5m2F32>>(),
    entry<Forms<M16n8k16F16E4m3E4m3F16, M16n8k16F16E4m3E5m2F16>>(),
    entry<Forms<M16n8k16F32E5m2E5m2F32, M16n8k16F32E5m2E4m3F32>>(),
    entry<Forms<M16n8k16F16E5m2E5m2F16, M16n8k16F16E5m2E4m3F16>>(),
    entry<Forms<M16n8k32S32S8S8S32, M16n8k32S32S8U8S32>>(),
    entry<Forms<M16n8k32S32U8U8S32, M16n8k32S32U8S8S32>>(),
    entry<Forms<M16n8k32S32S4S4S32, M16n8k32S32S4U4S32>>(),
    entry<Forms<M16n8k32S32U4U4S32, M16n8k32S32U4S4S32>>(),
    entry<Forms<M16n8k32F32E4m3E4m3F32, M16n8k32F32E4m3E5m2F32>>(),
    entry<Forms<M16n8k32F16E4m3E4m3F16, M16n8k32F16E4m3E5m2F16>>(),
    entry<Forms<M16n8k32F32E5m2E5m2F32, M16n8k32F32E5m2E4m3F32>>(),
    entry<Forms<M16n8k32F16E5m2E5m2F16, M16n8k32F16E5m2E4m3F16>>(),
    entry<Forms<M16n8k64S32S4S4S32, M16n8k64S32S4U4S32>>(),
    entry<Forms<M16n8k64S32U4U4S32, M16n8k64S32U4S4S32>>(),
    entry<Forms<M16n8k128S32B1B1S32Xor, M16n8k128S32B1B1S32And>>(),
    entry<Forms<M16n8k256S32B1B1S32Xor, M16n8k256S32B1B1S32And>>(),
    entry<Forms<SpM16n8k16F32F16F16F32<0>, SpM16n8k16F32F16F16F32<1>, SpM16n8k16F32F16F16F32<2>, SpM16n8k16F32F16F16F32<3>>>(),
    entry<Forms<SpM16n8k16F16F16F16F16<0>, SpM16n8k16F16F16F16F16<1>, SpM16n8k16F16F16F16F16<2>, SpM16n8k16F16F16F16F16<3>>>(),
    entry<Forms<SpOrdM16n8k16F32F16F16F32<0>, SpOrdM16n8k16F32F16F16F32<1>, SpOrdM16n8k16F32F16F16F32<2>, SpOrdM16n8k16F32F16F16F32<3>>>(),
    entry<Forms<SpOrdM16n8k16F16F16F16F16<0>, SpOrdM16n8k16F16F16F16F16<1>, SpOrdM16n8k16F16F16F16F16<2>, SpOrdM16n8k16F16F16F16F16<3>>>(),
    entry<Forms<SpM16n8k16F32Bf16Bf16F32<0>, SpM16n8k16F32Bf16Bf16F32<1>, SpM16n8k16F32Bf16Bf16F32<2>, SpM16n8k16F32Bf16Bf16F32<3>>>(),
    entry<Forms<SpOrdM16n8k16F32Bf16Bf16F32<0>, SpOrdM16n8k16F32Bf16Bf16F32<1>, SpOrdM16n8k16F32Bf16Bf16F32<2>, SpOrdM16n8k16F32Bf16Bf16F32<3>>>(),
    entry<Forms<SpM16n8k32F32F16F16F32<0>, SpM16n8k32F32F16F16F32<1>>>(),
    entry<Forms<SpM16n8k32F16F16F16F16<0>, SpM16n8k32F16F16F16F16<1>>>(),
    entry<Forms<SpOrdM16n8k32F32F16F16F32<0>, SpOrdM16n8k32F32F16F16F32<1>>>(),
    entry<Forms<SpOrdM16n8k32F16F16F16F16<0>, SpOrdM16n8k32F16F16F16F16<1>>>(),
    entry<Forms<SpM16n8k32F32Bf16Bf16F32<0>, SpM16n8k32F32Bf16Bf16F32<1>>>(),
    entry<Forms<SpOrdM16n8k32F32Bf16Bf16F32<0>, SpOrdM16n8k32F32Bf16Bf16F32<1>>>(),
    entry<Forms<SpM16n8k16F32Tf32Tf32F32<0>, SpM16n8k16F32Tf32Tf32F32<1>>>(),
    entry<Forms<SpOrdM16n8k16F32Tf32Tf32F32<0>, SpOrdM16n8k16F32Tf32Tf32F32<1>>>(),
    entry<Forms<SpM16n8k8F32Tf32Tf32F32<0>, SpM16n8k8F32Tf32Tf32F32<1>, SpM16n8k8F32Tf32Tf32F32<2>, SpM16n8k8F32Tf32Tf32F32<3>>>(),
    entry<Forms<SpOrdM16n8k8F32Tf32Tf32F32<0>, SpOrdM16n8k8F32Tf32Tf32F32<1>, SpOrdM16n8k8F32Tf32Tf32F32<2>, SpOrdM16n8k8F32Tf32Tf32F32<3>>>(),
    entry<Forms<SpM16n8k32S32S8S8S32<0>, SpM16n8k32S32S8S8S32<1>, SpM16n8k32S32S8U8S32<0>, SpM16n8k32S32S8U8S32<1>>>(),
    entry<Forms<SpM16n8k32S32U8U8S32<0>, SpM16n8k32S32U8U8S32<1>, SpM16n8k32S32U8S8S32<0>, SpM16n8k32S32U8S8S32<1>>>(),
    entry<Forms<SpOrdM16n8k32S32S8S8S32<0>, SpOrdM16n8k32S32S8S8S32<1>, SpOrdM16n8k32S32S8U8S32<0>, SpOrdM16n8k32S32S8U8S32<1>>>(),
    entry<Forms<SpOrdM16n8k32S32U8U8S32<0>, SpOrdM16n8k32S32U8U8S32<1>, SpOrdM16n8k32S32U8S8S32<0>, SpOrdM16n8k32S32U8S8S32<1>>>(),
    entry<Forms<SpM16n8k64S32S8S8S32<0>, SpM16n8k64S32S8U8S32<0>>>(),
    entry<Forms<SpM16n8k64S32U8U8S32<0>, SpM16n8k64S32U8S8S32<0>>>(),
    entry<Forms<SpOrdM16n8k64S32S8S8S32<0>, SpOrdM16n8k64S32S8U8S32<0>>>(),
    entry<Forms<SpOrdM16n8k64S32U8U8S32<0>, SpOrdM16n8k64S32U8S8S32<0>>>(),
    entry<Forms<SpM16n8k64F32E4m3E4m3F32<0>, SpM16n8k64F32E4m3E5m2F32<0>>>(),
    entry<Forms<SpM16n8k64F32E5m2E5m2F32<0>, SpM16n8k64F32E5m2E4m3F32<0>>>(),
    entry<Forms<SpOrdM16n8k64F32E4m3E4m3F32<0>, SpOrdM16n8k64F32E4m3E5m2F32<0>>>(),
    entry<Forms<SpOrdM16n8k64F32E5m2E5m2F32<0>, SpOrdM16n8k64F32E5m2E4m3F32<0>>>(),
    entry<Forms<SpM16n8k64S32S4S4S32<0>, SpM16n8k64S32S4S4S32<1>, SpM16n8k64S32S4U4S32<0>, SpM16n8k64S32S4U4S32<1>>>(),
    entry<Forms<SpM16n8k64S32U4U4S32<0>, SpM16n8k64S32U4U4S32<1>, SpM16n8k64S32U4S4S32<0>, SpM16n8k64S32U4S4S32<1>>>(),
    entry<Forms<SpOrdM16n8k64S32S4S4S32<0>, SpOrdM16n8k64S32S4S4S32<1>, SpOrdM16n8k64S32S4U4S32<0>, SpOrdM16n8k64S32S4U4S32<1>>>(),
    entry<Forms<SpOrdM16n8k64S32U4U4S32<0>, SpOrdM16n8k64S32U4U4S32<1>, SpOrdM16n8k64S32U4S4S32<0>, SpOrdM16n8k64S32U4S4S32<1>>>(),
    entry<Forms<SpM16n8k128S32S4S4S32<0>, SpM16n8k128S32S4U4S32<0>>>(),
    entry<Forms<SpM16n8k128S32U4U4S32<0>, SpM16n8k128S32U4S4S32<0>>>(),
    entry<Forms<SpOrdM16n8k128S32S4S4S32<0>, SpOrdM16n8k128S32S4U4S32<0>>>(),
    entry<Forms<SpOrdM16n8k128S32U4U4S32<0>, SpOrdM16n8k128S32U4S4S32<0>>>(),
};
// clang-format on

} // namespace

std::span<const Entry> all() {
    return kEntries;
}

const Entry* find(std::string_view ptx) {
    for (const Entry& e : kEntries)
        if (ptx == e.ptx)
            return &e;
    return nullptr;
}

} // namespace lanemap::gpu::kernels
