// The tcgen05.mma probe kernel (kernels.hpp, docs/probe.md "The mma kernel"), one
// instantiation per tcgen05.mma PTX string of the catalog (kernels_forms_mma.inc), sm_100a code only,
// so ptxas checks every string with both sources of A. The host builds every image and descriptor
// (mma.hpp); the kernel copies, issues and reads back.
#include "kernels.hpp"
#include "kernels_device.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <string_view>

namespace lanemap::gpu::tckernels {

namespace {

#include "kernels_forms_mma.inc"

// Tensor Memory columns (mma.hpp: kAllocColumns ...; tests/gpu/test_tcgen05_mma_images.cpp checks
// that the two agree through MmaArgs).
constexpr std::uint32_t kSentinel = 0xffffffffu;

using detail::readColumns;
using detail::sharedAddress;
using detail::storeCell;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
__device__ __forceinline__ void fencedBarrier(bool cluster) {
    asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory");
    if (cluster)
        asm volatile("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;" ::
                         : "memory");
    else
        __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
}
#endif

// One block of 128 threads per experiment and CTA (a 2-CTA cluster per experiment for cta_group::2).
template <typename Form>
__global__ void __launch_bounds__(128)
    mmaProbe(const std::uint32_t* in, std::uint32_t* out, MmaArgs args, int* compiled) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    constexpr int kCtas = Form::ctaGroup;
    constexpr bool kPair = kCtas == 2;
    extern __shared__ __align__(1024) std::uint32_t shared[];
    __shared__ std::uint32_t tmemBase;
    __shared__ __align__(8) std::uint64_t mbarrier;
    const int warp = static_cast<int>(threadIdx.x / 32), lane = static_cast<int>(threadIdx.x % 32);
    std::uint32_t rank = 0;
    if constexpr (kPair)
        asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    const int experiment = static_cast<int>(blockIdx.x) / kCtas;
    const std::uint32_t* image =
        in + (static_cast<std::size_t>(experiment) * kCtas + rank) * args.wordsPerCta;
    if (threadIdx.x == 0)
        *compiled = 1;
    // Shared memory: A and B, written by the generic proxy and read by the tensor core's async proxy.
    for (int i = static_cast<int>(threadIdx.x); i < args.sharedWords; i += 128)
        shared[i] = image[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (warp == 0) {
        if constexpr (kPair) {
            asm volatile("tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
                             sharedAddress(&tmemBase)),
                         "r"(args.allocColumns)
                         : "memory");
            asm volatile("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;" ::: "memory");
        } else {
            asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(
                             sharedAddress(&tmemBase)),
                         "r"(args.allocColumns)
                         : "memory");
            asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
        }
    }
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sharedAddress(&mbarrier)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    fencedBarrier(kPair);
    const std::uint32_t tmem = tmemBase;
    // Each warp fills its 32-lane subpartition: the sentinel where D goes, then the filled columns (A from
    // Tensor Memory, metadata, scale factors) from the image.
    const std::uint32_t rows = tmem + (static_cast<std::uint32_t>(32 * warp) << 16);
    for (int c = 0; c < args.columns; ++c)
        storeCell(rows, c, kSentinel);
    const std::uint32_t* fill = image + args.sharedWords;
    for (int c = 0; c < args.fillColumns; ++c)
        storeCell(rows, args.fillColumn + c, fill[c * 128 + 32 * warp + lane]);
    asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
    fencedBarrier(kPair);
    // One thread issues the mma (the even CTA of a pair, for both), then commits it to the mbarrier (of both
    // CTAs of a pair).
    if (threadIdx.x == 0 && rank == 0) {
        const std::uint64_t base = sharedAddress(shared) >> 4; // the descriptors' start is relative to it
        const std::uint64_t a = args.descriptorA + base, b = args.descriptorB + base;
        const std::uint32_t meta = tmem + static_cast<std::uint32_t>(args.metadataColumn);
        const std::uint32_t scaleA = tmem + static_cast<std::uint32_t>(args.scaleAColumn);
        const std::uint32_t scaleB = tmem + static_cast<std::uint32_t>(args.scaleBColumn);
        const std::uint32_t d = tmem + (static_cast<std::uint32_t>(args.lane) << 16);
        if (experiment >= args.firstTensorMemoryA)
            Form::runTensorA(d, d + static_cast<std::uint32_t>(args.aColumn), b, args.idesc, meta, scaleA,
                             scaleB);
        else
            Form::run(d, a, b, args.idesc, meta, scaleA, scaleB);
        if constexpr (kPair)
            asm volatile(
                "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 "
                "[%0], %1;" ::"r"(sharedAddress(&mbarrier)),
                "h"(static_cast<unsigned short>(3))
                : "memory");
        else
            asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                             sharedAddress(&mbarrier))
                         : "memory");
    }
    // Bounded wait: a tensor core that never signals traps (a launch error the binding reports) rather than
    // hanging the probe.
    std::uint32_t done = 0;
    for (long spin = 0; !done; ++spin) {
        asm volatile(
            "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 %0, 1, "
            "0, p;\n}"
            : "=r"(done)
            : "r"(sharedAddress(&mbarrier))
            : "memory");
        if (spin > (1l << 24))
            __trap();
    }
    asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory");
    readColumns(out + (static_cast<std::size_t>(experiment) * kCtas + rank) * 128 *
                          static_cast<std::size_t>(args.columns),
                rows, args.columns, warp, lane);
    fencedBarrier(kPair);
    if (warp == 0) {
        if constexpr (kPair)
            asm volatile("tcgen05.dealloc.cta_group::2.sync.aligned.b32 %0, %1;" ::"r"(tmem),
                         "r"(args.allocColumns)
                         : "memory");
        else
            asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem),
                         "r"(args.allocColumns)
                         : "memory");
    }
    if constexpr (kPair) // neither CTA leaves while its peer may still address its shared memory
        asm volatile("barrier.cluster.arrive.release.aligned;\n barrier.cluster.wait.acquire.aligned;" ::
                         : "memory");
#else
    (void)in, (void)out, (void)args, (void)compiled;
#endif
}

template <typename Form>
int launchMma(const std::uint32_t* in, std::uint32_t* out, const MmaArgs& args, int* compiled) {
    const std::size_t sharedBytes = static_cast<std::size_t>(args.sharedWords) * 4;
    cudaError_t err = cudaFuncSetAttribute(mmaProbe<Form>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(sharedBytes));
    if (err != cudaSuccess)
        return static_cast<int>(err);
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(args.experiments * Form::ctaGroup));
    config.blockDim = dim3(128);
    config.dynamicSmemBytes = sharedBytes;
    cudaLaunchAttribute cluster[1];
    cluster[0].id = cudaLaunchAttributeClusterDimension;
    cluster[0].val.clusterDim.x = static_cast<unsigned>(Form::ctaGroup);
    cluster[0].val.clusterDim.y = 1;
    cluster[0].val.clusterDim.z = 1;
    config.attrs = cluster;
    config.numAttrs = 1;
    err = cudaLaunchKernelEx(&config, mmaProbe<Form>, in, out, args, compiled);
    if (err != cudaSuccess)
        return static_cast<int>(err);
    return static_cast<int>(cudaGetLastError());
}

#define LANEMAP_TCGEN05_MMA_ENTRY(F) MmaEntry{F::ptx, F::ctaGroup, &launchMma<F>},
constexpr MmaEntry kMmaEntries[] = {LANEMAP_TCGEN05_MMA_FORMS_CTA1(LANEMAP_TCGEN05_MMA_ENTRY)
                                        LANEMAP_TCGEN05_MMA_FORMS_CTA2(LANEMAP_TCGEN05_MMA_ENTRY)};
#undef LANEMAP_TCGEN05_MMA_ENTRY

constexpr const char* kMmaForms[] = {
#include "kernels_forms_mma_list.inc"
};

} // namespace

std::span<const MmaEntry> entriesMma() {
    return kMmaEntries;
}

const MmaEntry* findMma(std::string_view ptx) {
    for (const MmaEntry& e : kMmaEntries)
        if (ptx == e.ptx)
            return &e;
    return nullptr;
}

std::span<const char* const> mmaForms() {
    return kMmaForms;
}

} // namespace lanemap::gpu::tckernels
