// One tiled TMA load (run_box.hpp): the kernel and the driver's encoder. The kernel is the instruction the
// family names, cp.async.bulk.tensor.<rank>d.shared::cluster.global.tile.mbarrier::complete_tx::bytes, issued
// by one thread; the mbarrier's transaction count is the box's bytes.
#include "methods/tma_box/run_box.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>

namespace lanemap::gpu::tmabox {

namespace {

template <int Rank>
__global__ void loadBox(const __grid_constant__ CUtensorMap map, int c0, int c1, int c2, int c3, int c4,
                        unsigned boxBytes, unsigned spanBytes, unsigned char* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(1024) unsigned char dynamicSmem[];
    __shared__ __align__(8) unsigned long long barrier;
    // The swizzle acts on address bits up to 9: the box starts 1024-byte aligned.
    unsigned char* box = reinterpret_cast<unsigned char*>(
        (reinterpret_cast<unsigned long long>(dynamicSmem) + 1023ull) & ~1023ull);
    for (unsigned i = threadIdx.x; i < spanBytes; i += blockDim.x)
        box[i] = 0xA5; // what no element overwrote
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
    const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(box));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); // the sentinel before the async proxy writes
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(boxBytes)
                     : "memory");
        const unsigned long long m = reinterpret_cast<unsigned long long>(&map);
        if constexpr (Rank == 1)
            asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                         "[%0], [%1, {%2}], [%3];" ::"r"(dst),
                         "l"(m), "r"(c0), "r"(bar)
                         : "memory");
        else if constexpr (Rank == 2)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                         "[%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
                         "l"(m), "r"(c0), "r"(c1), "r"(bar)
                         : "memory");
        else if constexpr (Rank == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                         "[%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst),
                         "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
                         : "memory");
        else if constexpr (Rank == 4)
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                         "[%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(dst),
                         "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(bar)
                         : "memory");
        else
            asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                         "[%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(dst),
                         "l"(m), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(c4), "r"(bar)
                         : "memory");
    }
    // Bounded: a load that never completes its transaction count is a finding, not a hung GPU.
    unsigned done = 0;
    for (long long tries = 0; !done && tries < (1ll << 24); ++tries)
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(bar)
            : "memory");
    for (unsigned i = threadIdx.x; i < spanBytes; i += blockDim.x)
        out[i] = box[i];
    if (threadIdx.x == 0)
        out[spanBytes] = done ? 1 : 2;
#endif
}

// The multicast form: a cluster of CTAs, each with its own mbarrier; see run_box.hpp runMulticast.
template <int Rank>
__global__ void loadMulticast(const __grid_constant__ CUtensorMap map, int c0, int c1, int c2, int c3, int c4,
                              int outerStep, unsigned footprint, unsigned short mask, int split,
                              unsigned expectBytes, unsigned spanBytes, unsigned char* out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(1024) unsigned char dynamicSmem[];
    __shared__ __align__(8) unsigned long long barrier;
    unsigned char* box = reinterpret_cast<unsigned char*>(
        (reinterpret_cast<unsigned long long>(dynamicSmem) + 1023ull) & ~1023ull);
    for (unsigned i = threadIdx.x; i < spanBytes; i += blockDim.x)
        box[i] = 0xA5;
    unsigned rank = 0;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    const bool receives = (mask >> rank) & 1u;
    const unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&barrier));
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0 && receives)
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(expectBytes)
                     : "memory");
    // Every CTA's mbarrier is armed before any load can complete on it.
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
    const unsigned below = mask & ((1u << rank) - 1u);
    const bool lowest = receives && below == 0;
    if (threadIdx.x == 0 && (split ? receives : lowest)) {
        const int t = split ? __popc(below) : 0;
        int c[5] = {c0, c1, c2, c3, c4};
        c[Rank - 1] += t * outerStep;
        const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(box)) + t * footprint;
        const unsigned long long m = reinterpret_cast<unsigned long long>(&map);
        if constexpr (Rank == 1)
            asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes."
                         "multicast::cluster [%0], [%1, {%2}], [%3], %4;" ::"r"(dst),
                         "l"(m), "r"(c[0]), "r"(bar), "h"(mask)
                         : "memory");
        else if constexpr (Rank == 2)
            asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes."
                         "multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
                         "l"(m), "r"(c[0]), "r"(c[1]), "r"(bar), "h"(mask)
                         : "memory");
        else if constexpr (Rank == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes."
                         "multicast::cluster [%0], [%1, {%2, %3, %4}], [%5], %6;" ::"r"(dst),
                         "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(bar), "h"(mask)
                         : "memory");
        else if constexpr (Rank == 4)
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes."
                         "multicast::cluster [%0], [%1, {%2, %3, %4, %5}], [%6], %7;" ::"r"(dst),
                         "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(bar), "h"(mask)
                         : "memory");
        else
            asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes."
                         "multicast::cluster [%0], [%1, {%2, %3, %4, %5, %6}], [%7], %8;" ::"r"(dst),
                         "l"(m), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar), "h"(mask)
                         : "memory");
    }
    unsigned done = receives ? 0u : 1u;
    for (long long tries = 0; !done && tries < (1ll << 24); ++tries)
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(bar)
            : "memory");
    unsigned char* mine = out + static_cast<unsigned long long>(rank) * (spanBytes + 1);
    for (unsigned i = threadIdx.x; i < spanBytes; i += blockDim.x)
        mine[i] = box[i];
    if (threadIdx.x == 0)
        mine[spanBytes] = done ? 1 : 2;
    // No CTA leaves while another's copies may still write into it.
    asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;" ::
                     : "memory");
#endif
}

CUtensorMapDataType dataType(ElementType t) {
    switch (t) {
    case ElementType::U8:
    case ElementType::S8:
        return CU_TENSOR_MAP_DATA_TYPE_UINT8;
    case ElementType::BF16:
        return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case ElementType::F32:
        return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    case ElementType::TF32:
        return CU_TENSOR_MAP_DATA_TYPE_TFLOAT32;
    case ElementType::S32:
        return CU_TENSOR_MAP_DATA_TYPE_INT32;
    case ElementType::F64:
        return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
    default:
        return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    }
}

CUtensorMapSwizzle swizzleOf(smem::Swizzle s) {
    switch (s) {
    case smem::Swizzle::B32:
        return CU_TENSOR_MAP_SWIZZLE_32B;
    case smem::Swizzle::B64:
        return CU_TENSOR_MAP_SWIZZLE_64B;
    case smem::Swizzle::B128:
        return CU_TENSOR_MAP_SWIZZLE_128B;
    case smem::Swizzle::B128Atom32:
        return CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B;
    default:
        return CU_TENSOR_MAP_SWIZZLE_NONE;
    }
}

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*,
                                 CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                 CUtensorMapFloatOOBfill);

EncodeTiled encoder(std::string& error) {
    static EncodeTiled fn = nullptr;
    if (!fn) {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult q{};
        const cudaError_t e =
            cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
        if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !p) {
            error = std::string("cuTensorMapEncodeTiled not found through the driver entry point: ") +
                    cudaGetErrorName(e);
            return nullptr;
        }
        fn = reinterpret_cast<EncodeTiled>(p);
    }
    return fn;
}

std::string cudaText(cudaError_t e) {
    return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

// cuTensorMapEncodeTiled with the map's parameters; its CUresult.
int encodeInto(EncodeTiled encode, const tma::TensorMap& m, void* dTensor, CUtensorMap& map) {
    cuuint64_t dims[5], strides[4];
    cuuint32_t box[5], estrides[5];
    for (int i = 0; i < m.rank; ++i) {
        dims[i] = static_cast<cuuint64_t>(m.dims[static_cast<std::size_t>(i)]);
        box[i] = static_cast<cuuint32_t>(m.box[static_cast<std::size_t>(i)]);
        estrides[i] = static_cast<cuuint32_t>(m.elementStrides[static_cast<std::size_t>(i)]);
        if (i >= 1)
            strides[i - 1] = static_cast<cuuint64_t>(m.strides[static_cast<std::size_t>(i)]);
    }
    return static_cast<int>(
        encode(&map, dataType(m.type), static_cast<cuuint32_t>(m.rank), dTensor, dims, strides, box, estrides,
               static_cast<CUtensorMapInterleave>(static_cast<int>(m.interleave)), swizzleOf(m.swizzle),
               static_cast<CUtensorMapL2promotion>(static_cast<int>(m.l2)),
               m.oob == tma::OobFill::Nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                          : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

} // namespace

BoxRun runBox(const tma::TensorMap& m, std::span<const std::uint8_t> tensor) {
    BoxRun run;
    EncodeTiled encode = encoder(run.error);
    if (!encode)
        return run;
    void* dTensor = nullptr;
    unsigned char* dOut = nullptr;
    const auto boxBytes = static_cast<unsigned>(m.boxBytes());
    // What is read back: the box's footprint (rows padded to a swizzle's span) and 1 KiB past it, so bytes
    // written beyond lanemap's footprint show too.
    const auto spanBytes = static_cast<unsigned>(m.footprintBytes()) + 1024u;
    auto fail = [&](const char* what, cudaError_t e) {
        run.error = std::string(what) + ": " + cudaText(e);
        if (dTensor)
            cudaFree(dTensor);
        if (dOut)
            cudaFree(dOut);
        return run;
    };
    if (cudaError_t e = cudaMalloc(&dTensor, tensor.size() + 256); e != cudaSuccess)
        return fail("cudaMalloc tensor", e);
    if (cudaError_t e = cudaMemcpy(dTensor, tensor.data(), tensor.size(), cudaMemcpyHostToDevice);
        e != cudaSuccess)
        return fail("cudaMemcpy tensor", e);
    if (cudaError_t e = cudaMalloc(&dOut, spanBytes + 1); e != cudaSuccess)
        return fail("cudaMalloc out", e);
    alignas(64) CUtensorMap map{};
    run.encodeStatus = encodeInto(encode, m, dTensor, map);
    std::memcpy(run.encoded.data(), &map, 128);
    if (run.encodeStatus != 0) {
        run.error =
            "cuTensorMapEncodeTiled refused the map (CUresult " + std::to_string(run.encodeStatus) + ")";
        cudaFree(dTensor);
        cudaFree(dOut);
        return run;
    }
    const int c[5] = {static_cast<int>(m.origin[0]), static_cast<int>(m.origin[1]),
                      static_cast<int>(m.origin[2]), static_cast<int>(m.origin[3]),
                      static_cast<int>(m.origin[4])};
    const std::size_t smemBytes = spanBytes + 1024;
    void (*kernels[5])(CUtensorMap, int, int, int, int, int, unsigned, unsigned,
                       unsigned char*) = {loadBox<1>, loadBox<2>, loadBox<3>, loadBox<4>, loadBox<5>};
    auto kernel = kernels[m.rank - 1];
    if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smemBytes));
        e != cudaSuccess)
        return fail("cudaFuncSetAttribute", e);
    kernel<<<1, 128, smemBytes>>>(map, c[0], c[1], c[2], c[3], c[4], boxBytes, spanBytes, dOut);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        return fail("launch", e);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
        return fail("the load", e); // a trap: the context is lost, the caller's process should end
    run.image.resize(spanBytes + 1);
    if (cudaError_t e = cudaMemcpy(run.image.data(), dOut, spanBytes + 1, cudaMemcpyDeviceToHost);
        e != cudaSuccess)
        return fail("cudaMemcpy out", e);
    const int status = run.image.back();
    run.image.pop_back();
    if (status != 1)
        run.error = status == 2 ? "the mbarrier's transaction count never completed (2^24 waits)"
                                : "the kernel did not run the load (no sm_90 code for this device?)";
    cudaFree(dTensor);
    cudaFree(dOut);
    return run;
}

ClusterRun runMulticast(const tma::TensorMap& m, std::span<const std::uint8_t> tensor) {
    ClusterRun run;
    EncodeTiled encode = encoder(run.error);
    if (!encode)
        return run;
    const int ctas = m.clusterCtas();
    const auto footprint = static_cast<unsigned>(m.footprintBytes());
    const auto spanBytes = footprint * static_cast<unsigned>(m.loads()) + 1024u;
    void* dTensor = nullptr;
    unsigned char* dOut = nullptr;
    auto fail = [&](const char* what, cudaError_t e) {
        run.error = std::string(what) + ": " + cudaText(e);
        if (dTensor)
            cudaFree(dTensor);
        if (dOut)
            cudaFree(dOut);
        return run;
    };
    if (cudaError_t e = cudaMalloc(&dTensor, tensor.size() + 256); e != cudaSuccess)
        return fail("cudaMalloc tensor", e);
    if (cudaError_t e = cudaMemcpy(dTensor, tensor.data(), tensor.size(), cudaMemcpyHostToDevice);
        e != cudaSuccess)
        return fail("cudaMemcpy tensor", e);
    const std::size_t outBytes = static_cast<std::size_t>(ctas) * (spanBytes + 1);
    if (cudaError_t e = cudaMalloc(&dOut, outBytes); e != cudaSuccess)
        return fail("cudaMalloc out", e);
    if (cudaError_t e = cudaMemset(dOut, 0, outBytes); e != cudaSuccess)
        return fail("cudaMemset out", e);
    alignas(64) CUtensorMap map{};
    run.encodeStatus = encodeInto(encode, m, dTensor, map);
    std::memcpy(run.encoded.data(), &map, 128);
    if (run.encodeStatus != 0) {
        run.error =
            "cuTensorMapEncodeTiled refused the map (CUresult " + std::to_string(run.encodeStatus) + ")";
        cudaFree(dTensor);
        cudaFree(dOut);
        return run;
    }
    void (*kernels[5])(CUtensorMap, int, int, int, int, int, int, unsigned, unsigned short, int, unsigned,
                       unsigned, unsigned char*) = {loadMulticast<1>, loadMulticast<2>, loadMulticast<3>,
                                                    loadMulticast<4>, loadMulticast<5>};
    auto kernel = kernels[m.rank - 1];
    const std::size_t smemBytes = spanBytes + 1024;
    if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smemBytes));
        e != cudaSuccess)
        return fail("cudaFuncSetAttribute (shared memory)", e);
    if (ctas > 8)
        if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
            e != cudaSuccess)
            return fail("cudaFuncSetAttribute (a cluster over 8 CTAs)", e);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(ctas), 1, 1);
    config.blockDim = dim3(128, 1, 1);
    config.dynamicSmemBytes = smemBytes;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(ctas);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    const auto expectBytes = static_cast<unsigned>(m.boxBytes() * m.loads());
    const int outer = m.rank - 1;
    if (cudaError_t e = cudaLaunchKernelEx(
            &config, kernel, map, static_cast<int>(m.origin[0]), static_cast<int>(m.origin[1]),
            static_cast<int>(m.origin[2]), static_cast<int>(m.origin[3]), static_cast<int>(m.origin[4]),
            m.box[static_cast<std::size_t>(outer)], footprint, static_cast<unsigned short>(m.ctaMask),
            m.split ? 1 : 0, expectBytes, spanBytes, dOut);
        e != cudaSuccess)
        return fail("cudaLaunchKernelEx (cluster)", e);
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
        return fail("the multicast load", e);
    std::vector<std::uint8_t> all(outBytes);
    if (cudaError_t e = cudaMemcpy(all.data(), dOut, outBytes, cudaMemcpyDeviceToHost); e != cudaSuccess)
        return fail("cudaMemcpy out", e);
    for (int cta = 0; cta < ctas; ++cta) {
        const auto first = all.begin() + static_cast<std::ptrdiff_t>(cta) * (spanBytes + 1);
        run.images.emplace_back(first, first + spanBytes);
        const int status = *(first + spanBytes);
        if (status != 1 && run.error.empty())
            run.error = "CTA " + std::to_string(cta) +
                        (status == 2 ? ": its mbarrier's transaction count never completed (2^24 waits)"
                                     : ": the kernel did not run (no sm_90a code for this device?)");
    }
    cudaFree(dTensor);
    cudaFree(dOut);
    return run;
}

} // namespace lanemap::gpu::tmabox
