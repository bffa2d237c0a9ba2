#pragma once
// The wgmma probe kernel (docs/probe.md#wgmma-and-wgmmasp): ONE kernel template, and per instruction form one
// asm statement. A block is one warpgroup and one experiment: it copies the host's shared-memory images
// (B, and A for the SS forms) into a 1024-byte aligned buffer, loads the A registers and the metadata word,
// fences the generic proxy's stores for the async proxy (fence.proxy.async.shared::cta, then a barrier), runs
//     wgmma.fence; wgmma.mma_async[.sp] (scale-d = false: D = A*B); wgmma.commit_group; wgmma.wait_group 0
// and stores each D element's class (0, 1 or other; 2 bits, see DClass). It never computes a row, a column or
// an element's address: the images come from lanemap::smem, the descriptors from
// lanemap::smem::encodeDescriptor (start addresses relative to the base, to which the kernel adds the base's
// own shared-memory address).
//
// wgmma exists on sm_90a only; these translation units are compiled for that target alone.
#include "kernels.hpp"
#include "kernels_lists.inc"

#include <cuda_runtime.h>

#include <cstdint>

namespace lanemap::gpu::wgkernels {

using std::uint32_t;
using std::uint64_t;

// --- one asm statement per form ----------------------------------------------------------------------------
// Operands: %0..%3 the A registers, %4 the A descriptor, %5 the B descriptor, %6 the metadata, %7 the scale-d
// source (0: D = A*B, so a D register the instruction did not write keeps the host-visible sentinel), then D.
// All are read-write ("+") only so that D's numbers start at 8 whatever the form (kernels_lists.inc).
// clang-format off
#define LM_WG_ASM(W, INSTRUCTION, OPERANDS)                                                                      \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %7, 0;\nwgmma.fence.sync.aligned;\n" INSTRUCTION           \
                 " {" LM_WGD_##W "}, " OPERANDS ";\nwgmma.commit_group.sync.aligned;\n"                          \
                 "wgmma.wait_group.sync.aligned 0;\n}"                                                           \
                 : "+r"(a[0]), "+r"(a[1]), "+r"(a[2]), "+r"(a[3]), "+l"(descA), "+l"(descB), "+r"(e),           \
                   "+r"(zero), LM_WGO_##W                                                                        \
                 :                                                                                               \
                 : "memory")

// Operand tails after D, by A source and type class (PTX 9.1 §9.7.15.5.2, §9.7.15.6.3):
//   .f16/.bf16: scale-d, imm-scale-a, imm-scale-b, [imm-trans-a,] imm-trans-b
//   .tf32/.e4m3/.e5m2: scale-d, imm-scale-a, imm-scale-b        .s8/.u8/.b1: scale-d
// wgmma.sp adds the metadata register and the selector immediate after the B descriptor.
#define LM_WG_RS "{%0,%1,%2,%3}, %5"
#define LM_WG_SS "%4, %5"
#define LM_WG_SP(SEL) ", %6, " #SEL
#define LM_WG_T16_RS(TB) ", p, 1, 1, " #TB
#define LM_WG_T16_SS(TA, TB) ", p, 1, 1, " #TA ", " #TB
#define LM_WG_TF ", p, 1, 1"
#define LM_WG_TI ", p"

// A form: a struct with the host-visible description and the device-side asm.
#define LM_WG_FORM(NAME, W, PTX, ASHARED, TA, TB, SEL, OPERANDS)                                                \
    struct NAME {                                                                                              \
        static constexpr Form kForm{PTX, ASHARED, TA, TB, SEL};                                                \
        __device__ static void run(uint32_t (&a)[kARegisters], uint64_t& descA, uint64_t& descB, uint32_t& e,   \
                                   uint32_t& zero, uint32_t (&d)[W]) {                                         \
            LM_WG_ASM(W, PTX, OPERANDS);                                                                       \
        }                                                                                                      \
    };
// clang-format on

// Every valid N of a type, with its D register counts (f32/s32: N/2; f16x2: N/4): X(N, W32, W16).
// The floating types take N = 8..256 step 8; integer and b1 take 8, 16, 24, then 32..256 step 16.
// Without LANEMAP_WGMMA_ALL_N a representative subset is built (8, 16, 24, 64, 128, 256; see
// gpu/CMakeLists.txt).
// clang-format off
#ifdef LANEMAP_WGMMA_ALL_N
#define LM_WG_FLOAT_N(X) \
    X(8, 4, 2) X(16, 8, 4) X(24, 12, 6) X(32, 16, 8) X(40, 20, 10) X(48, 24, 12) X(56, 28, 14) X(64, 32, 16) \
    X(72, 36, 18) X(80, 40, 20) X(88, 44, 22) X(96, 48, 24) X(104, 52, 26) X(112, 56, 28) X(120, 60, 30) \
    X(128, 64, 32) X(136, 68, 34) X(144, 72, 36) X(152, 76, 38) X(160, 80, 40) X(168, 84, 42) X(176, 88, 44) \
    X(184, 92, 46) X(192, 96, 48) X(200, 100, 50) X(208, 104, 52) X(216, 108, 54) X(224, 112, 56) \
    X(232, 116, 58) X(240, 120, 60) X(248, 124, 62) X(256, 128, 64)
#define LM_WG_INT_N(X) \
    X(8, 4, 2) X(16, 8, 4) X(24, 12, 6) X(32, 16, 8) X(48, 24, 12) X(64, 32, 16) X(80, 40, 20) X(96, 48, 24) \
    X(112, 56, 28) X(128, 64, 32) X(144, 72, 36) X(160, 80, 40) X(176, 88, 44) X(192, 96, 48) \
    X(208, 104, 52) X(224, 112, 56) X(240, 120, 60) X(256, 128, 64)
#else
#define LM_WG_FLOAT_N(X) X(8, 4, 2) X(16, 8, 4) X(24, 12, 6) X(64, 32, 16) X(128, 64, 32) X(256, 128, 64)
#define LM_WG_INT_N(X) X(8, 4, 2) X(16, 8, 4) X(24, 12, 6) X(64, 32, 16) X(128, 64, 32) X(256, 128, 64)
#endif
// clang-format on

// The forms of one variant; the block's experiment picks one (block-uniform, so .aligned holds).
template <int W, class... F> struct Forms {
    static constexpr int kWords = W;
    static constexpr Form kForms[] = {F::kForm...};

    __device__ static void run(uint32_t mode, uint32_t (&a)[kARegisters], uint64_t& descA, uint64_t& descB,
                               uint32_t& e, uint32_t& zero, uint32_t (&d)[W]) {
        uint32_t i = 0;
        ((mode == i++ ? F::run(a, descA, descB, e, zero, d) : void()), ...);
    }
};

constexpr uint32_t kSentinel = 0xFFFFFFFFu; // never a 0/1 count: a D register the instruction did not write

// An element's class (DClass): 0 = zero or the type's -0, 1 = the type's 1, 2 = anything else.
__device__ __forceinline__ uint32_t classOf(uint32_t v, const DClass& c) {
    return (v == 0u || v == c.negZero) ? 0u : v == c.one ? 1u : 2u;
}

template <class V>
__global__ void __launch_bounds__(kThreads, 1)
    wgmmaProbeKernel(const Experiment* __restrict__ experiments, const uint32_t* __restrict__ words,
                     const uint4* __restrict__ pool, uint32_t* __restrict__ out, DClass dClass,
                     int* compiled) {
    extern __shared__ uint4 dynamicSmem[]; // 1024 bytes more than the images need, to align the base
    constexpr int W = V::kWords;
    const Experiment x = experiments[blockIdx.x];
    const int tid = static_cast<int>(threadIdx.x);

    const uint32_t raw = static_cast<uint32_t>(__cvta_generic_to_shared(dynamicSmem));
    const uint32_t pad = (1024u - (raw & 1023u)) & 1023u; // the 128B swizzle repeats every 1024 bytes
    uint4* base = dynamicSmem + pad / 16;
    for (uint32_t i = static_cast<uint32_t>(tid); i < x.bBytes / 16; i += kThreads)
        base[i] = pool[x.bOffset / 16 + i];
    for (uint32_t i = static_cast<uint32_t>(tid); i < x.aBytes / 16; i += kThreads)
        base[x.aAt / 16 + i] = pool[x.aOffset / 16 + i];

    uint32_t a[kARegisters];
#pragma unroll
    for (int i = 0; i < kARegisters; ++i)
        a[i] = x.aRegs == kNone ? 0u : words[x.aRegs + i * kThreads + tid];
    uint32_t e = x.meta == kNone ? 0u : words[x.meta + tid];
    uint32_t zero = 0;
    uint32_t d[W];
#pragma unroll
    for (int i = 0; i < W; ++i)
        d[i] = kSentinel;

    // Shared memory written by ordinary stores and read by wgmma (the async proxy): fence in every writing
    // thread, then the barrier.
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();

    // The descriptors carry start addresses relative to the base: add the base's own encoded address
    // (matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4, bits 13-0; the sum stays below 2^14 units).
    const uint64_t encodedBase = ((raw + pad) & 0x3FFFFu) >> 4;
    uint64_t descA = x.descA + encodedBase;
    uint64_t descB = x.descB + encodedBase;
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    V::run(x.mode, a, descA, descB, e, zero, d);
    if (blockIdx.x == 0 && tid == 0)
        *compiled = 1;
#endif
    // Each element's class, 16 per packed word, in register order (the host's plan computes the same count).
    // Every index is a compile-time constant (straight-line code, as cheap to build as storing the
    // registers).
    if (dClass.bits == 32) {
        uint32_t* o = out + static_cast<size_t>(blockIdx.x) * ((W + 15) / 16) * kThreads + tid;
#pragma unroll
        for (int w = 0; w < (W + 15) / 16; ++w) {
            uint32_t word = 0;
#pragma unroll
            for (int j = 0; j < 16; ++j)
                if (w * 16 + j < W)
                    word |= classOf(d[w * 16 + j], dClass) << (2 * j);
            o[w * kThreads] = word;
        }
    } else { // .f16x2: two elements per register, eight registers per packed word
        uint32_t* o = out + static_cast<size_t>(blockIdx.x) * ((2 * W + 15) / 16) * kThreads + tid;
#pragma unroll
        for (int w = 0; w < (2 * W + 15) / 16; ++w) {
            uint32_t word = 0;
#pragma unroll
            for (int j = 0; j < 8; ++j)
                if (w * 8 + j < W)
                    word |=
                        (classOf(d[w * 8 + j] & 0xFFFFu, dClass) | classOf(d[w * 8 + j] >> 16, dClass) << 2)
                        << (4 * j);
            o[w * kThreads] = word;
        }
    }
}

template <class V>
int launchWgmma(const Experiment* xs, const uint32_t* words, const void* pool, uint32_t* out, int count,
                int smemBytes, DClass dClass, int* compiled) {
    if (smemBytes > 48 * 1024) {
        const cudaError_t err =
            cudaFuncSetAttribute(wgmmaProbeKernel<V>, cudaFuncAttributeMaxDynamicSharedMemorySize, smemBytes);
        if (err != cudaSuccess)
            return static_cast<int>(err);
    }
    wgmmaProbeKernel<V><<<count, kThreads, static_cast<size_t>(smemBytes)>>>(
        xs, words, static_cast<const uint4*>(pool), out, dClass, compiled);
    return static_cast<int>(cudaGetLastError());
}

template <class V> constexpr Entry wgEntry(int n) {
    return {V::kForms[0].ptx, n, V::kWords, std::span<const Form>(V::kForms), &launchWgmma<V>};
}

// --- the forms of each kind of variant
// -----------------------------------------------------------------------
// clang-format off
// .f16/.bf16: A from registers with B K-major and N-major (imm-trans-b), A and B from shared memory both
// K-major or both M/N-major.
#define LM_WG_DENSE16(NAME, W, PTX)                                                                                  \
    LM_WG_FORM(NAME##_rs0, W, PTX, false, 0, 0, -1, LM_WG_RS LM_WG_T16_RS(0))                                       \
    LM_WG_FORM(NAME##_rs1, W, PTX, false, 0, 1, -1, LM_WG_RS LM_WG_T16_RS(1))                                       \
    LM_WG_FORM(NAME##_ss00, W, PTX, true, 0, 0, -1, LM_WG_SS LM_WG_T16_SS(0, 0))                                    \
    LM_WG_FORM(NAME##_ss11, W, PTX, true, 1, 1, -1, LM_WG_SS LM_WG_T16_SS(1, 1))                                    \
    using NAME = Forms<W, NAME##_rs0, NAME##_rs1, NAME##_ss00, NAME##_ss11>;

// K-major only, no alias (.tf32; .b1 with TAIL LM_WG_TI).
#define LM_WG_DENSE_K(NAME, W, PTX, TAIL)                                                                            \
    LM_WG_FORM(NAME##_rs, W, PTX, false, 0, 0, -1, LM_WG_RS TAIL)                                                   \
    LM_WG_FORM(NAME##_ss, W, PTX, true, 0, 0, -1, LM_WG_SS TAIL)                                                    \
    using NAME = Forms<W, NAME##_rs, NAME##_ss>;

// K-major with a mixed-type alias (e4m3 x e5m2, s8 x u8), run with A from registers.
#define LM_WG_DENSE_K_ALIAS(NAME, W, PTX, ALIAS, TAIL)                                                               \
    LM_WG_FORM(NAME##_rs, W, PTX, false, 0, 0, -1, LM_WG_RS TAIL)                                                   \
    LM_WG_FORM(NAME##_ss, W, PTX, true, 0, 0, -1, LM_WG_SS TAIL)                                                    \
    LM_WG_FORM(NAME##_alias, W, ALIAS, false, 0, 0, -1, LM_WG_RS TAIL)                                              \
    using NAME = Forms<W, NAME##_rs, NAME##_ss, NAME##_alias>;

// wgmma.sp .f16/.bf16: selector 0 in every operand arrangement, selector 1 with A from registers.
#define LM_WG_SPARSE16(NAME, W, PTX)                                                                                 \
    LM_WG_FORM(NAME##_rs0, W, PTX, false, 0, 0, 0, LM_WG_RS LM_WG_SP(0) LM_WG_T16_RS(0))                            \
    LM_WG_FORM(NAME##_rs1, W, PTX, false, 0, 1, 0, LM_WG_RS LM_WG_SP(0) LM_WG_T16_RS(1))                            \
    LM_WG_FORM(NAME##_ss00, W, PTX, true, 0, 0, 0, LM_WG_SS LM_WG_SP(0) LM_WG_T16_SS(0, 0))                         \
    LM_WG_FORM(NAME##_ss11, W, PTX, true, 1, 1, 0, LM_WG_SS LM_WG_SP(0) LM_WG_T16_SS(1, 1))                         \
    LM_WG_FORM(NAME##_sel1, W, PTX, false, 0, 0, 1, LM_WG_RS LM_WG_SP(1) LM_WG_T16_RS(0))                           \
    using NAME = Forms<W, NAME##_rs0, NAME##_rs1, NAME##_ss00, NAME##_ss11, NAME##_sel1>;

// wgmma.sp .tf32: two selectors, K-major.
#define LM_WG_SPARSE_TF32(NAME, W, PTX)                                                                              \
    LM_WG_FORM(NAME##_rs, W, PTX, false, 0, 0, 0, LM_WG_RS LM_WG_SP(0) LM_WG_TF)                                    \
    LM_WG_FORM(NAME##_ss, W, PTX, true, 0, 0, 0, LM_WG_SS LM_WG_SP(0) LM_WG_TF)                                     \
    LM_WG_FORM(NAME##_sel1, W, PTX, false, 0, 0, 1, LM_WG_RS LM_WG_SP(1) LM_WG_TF)                                  \
    using NAME = Forms<W, NAME##_rs, NAME##_ss, NAME##_sel1>;

// wgmma.sp 8-bit: selector 0 only, with a mixed-type alias.
#define LM_WG_SPARSE8(NAME, W, PTX, ALIAS, TAIL)                                                                     \
    LM_WG_FORM(NAME##_rs, W, PTX, false, 0, 0, 0, LM_WG_RS LM_WG_SP(0) TAIL)                                        \
    LM_WG_FORM(NAME##_ss, W, PTX, true, 0, 0, 0, LM_WG_SS LM_WG_SP(0) TAIL)                                         \
    LM_WG_FORM(NAME##_alias, W, ALIAS, false, 0, 0, 0, LM_WG_RS LM_WG_SP(0) TAIL)                                   \
    using NAME = Forms<W, NAME##_rs, NAME##_ss, NAME##_alias>;

#define LM_WG_PTX(SP, N, K, TYPES) "wgmma.mma_async" SP ".sync.aligned.m64n" #N "k" #K "." TYPES
// clang-format on

} // namespace lanemap::gpu::wgkernels
