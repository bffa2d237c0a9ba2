// One kernel with every tcgen05 step a Blackwell probe takes -- alloc, one tcgen05.mma (kind::f16, A and B
// from shared-memory descriptors), commit to an mbarrier, tcgen05.ld and tcgen05.st (.32x32b), dealloc and
// relinquish -- built for sm_100a in every CUDA build, so CI proves ptxas accepts these strings
// (docs/reference/tcgen05-descriptors.md#ptxas-acceptance). Nothing launches it yet: lanemap's GPUs are
// Hopper.
#include <cstdint>

// descriptors[0], [1]: the A and B shared-memory descriptors; idesc: the instruction descriptor; out: one
// word per thread, the TMEM lane (32 * warp + lane) of column 0 after the MMA.
__global__ void lanemap_tcgen05_roundtrip(const std::uint64_t* descriptors, std::uint32_t idesc,
                                          std::uint32_t* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000
    __shared__ std::uint32_t tmemBase;
    __shared__ alignas(8) std::uint64_t mbarrier;
    const unsigned warp = threadIdx.x / 32;
    const auto shared = [](const void* p) { return static_cast<std::uint32_t>(__cvta_generic_to_shared(p)); };
    if (warp == 0)
        asm volatile(
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" ::"r"(shared(&tmemBase)));
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared(&mbarrier)));
    asm volatile("tcgen05.fence::before_thread_sync;");
    __syncthreads();
    asm volatile("tcgen05.fence::after_thread_sync;");
    const std::uint32_t tmem = tmemBase;
    if (threadIdx.x == 0) {
        asm volatile("{\n .reg .pred accumulate;\n setp.ne.b32 accumulate, %4, 0;\n"
                     " tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, accumulate;\n}" ::"r"(tmem),
                     "l"(descriptors[0]), "l"(descriptors[1]), "r"(idesc), "r"(0));
        asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
            shared(&mbarrier)));
    }
    std::uint32_t done = 0;
    while (!done)
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n selp.u32 "
                     "%0, 1, 0, p;\n}"
                     : "=r"(done)
                     : "r"(shared(&mbarrier)));
    asm volatile("tcgen05.fence::after_thread_sync;");
    // A warp reaches only its own 32-lane subpartition: TMEM lane 32 * warp in address bits 31-16.
    const std::uint32_t lane = tmem + ((32u * warp) << 16);
    std::uint32_t value = 0;
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];" : "=r"(value) : "r"(lane));
    asm volatile("tcgen05.wait::ld.sync.aligned;");
    out[threadIdx.x] = value;
    asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" ::"r"(lane), "r"(value + 1));
    asm volatile("tcgen05.wait::st.sync.aligned;");
    asm volatile("tcgen05.fence::before_thread_sync;");
    __syncthreads();
    if (warp == 0) {
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;" ::"r"(tmem));
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;");
    }
#else
    (void)descriptors;
    (void)idesc;
    (void)out;
#endif
}
