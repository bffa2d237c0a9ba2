// cp.async.bulk.tensor .multicast::cluster on the GPU (docs/tma.md#multicast): a cluster launched with
// cudaLaunchKernelEx, each CTA's shared memory read back and compared byte by byte with what lanemap's
// placement says that CTA holds. Skips, saying why, without CUDA or a GPU of sm_90 or later.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include "methods/tma_box/tma_box.hpp"
#ifdef LANEMAP_HAVE_CUDA
#include "methods/tma_box/run_box.hpp"
#endif

#include <gtest/gtest.h>

namespace test_tma_multicast_gpu {

using namespace lanemap;

TEST(TmaMulticastGpu, EveryCtaHoldsWhatItsPlacementSays) {
    if (!gpu::builtWithCuda())
        GTEST_SKIP() << "built without CUDA (nvcc was not found at configure time): no kernels";
    const gpu::Availability a = gpu::discover();
    if (!a.available)
        GTEST_SKIP() << "no GPU: " << a.reason;
    if (a.device.sm < 90)
        GTEST_SKIP() << a.device.name << " is sm_" << a.device.sm << ": clusters and TMA need sm_90";
#ifdef LANEMAP_HAVE_CUDA
    for (const char* spec : {
             // PTX: CTAs 0 and 2 of 4 receive the box; 1 and 3 nothing.
             "cp.async.bulk.tensor.2d type=f16 tensor=128x64 box=8x64 swizzle=128B origin=8,0 "
             "cta-mask=0b0101 "
             "cluster=4",
             // CUTLASS's split: 4 CTAs each load a quarter of a 128-row tile, all receive all.
             "cp.async.bulk.tensor.2d type=f16 tensor=256x64 box=32x64 swizzle=128B origin=64,0 cta-mask=0xf "
             "multicast=split",
             // A split over two CTAs of a 4-CTA cluster, across the tensor's bottom edge (fill).
             "cp.async.bulk.tensor.2d type=f16 tensor=100x64 box=32x32 swizzle=64B origin=64,32 "
             "cta-mask=0b1010 "
             "multicast=split",
         }) {
        const ParsedSpec parsed = parseSpec(spec, Catalog::instance());
        ASSERT_TRUE(parsed) << parsed.error;
        const Selection selection = selectionOf(parsed);
        ASSERT_EQ(validate(selection), "") << spec;
        const std::shared_ptr<const Instruction> in = instantiate(selection);
        const tma::TensorMap map = tma::mapOf(*in);
        std::vector<std::uint8_t> tensor(static_cast<std::size_t>(gpu::tmabox::tensorBytes(map)));
        for (std::size_t b = 0; b < tensor.size(); ++b)
            tensor[b] = gpu::tmabox::tensorByte(static_cast<std::int64_t>(b));
        const gpu::tmabox::ClusterRun run = gpu::tmabox::runMulticast(map, tensor);
        ASSERT_EQ(run.error, "") << spec;
        ASSERT_EQ(run.images.size(), static_cast<std::size_t>(map.clusterCtas())) << spec;
        const std::vector<std::vector<std::uint8_t>> expected =
            gpu::tmabox::clusterImages(*in, run.images.front().size());
        for (std::size_t cta = 0; cta < expected.size(); ++cta) {
            std::size_t differ = 0, first = 0;
            for (std::size_t b = 0; b < expected[cta].size(); ++b)
                if (expected[cta][b] != run.images[cta][b] && differ++ == 0)
                    first = b;
            EXPECT_EQ(differ, 0u) << spec << ": CTA " << cta << ", first at byte " << first;
        }
    }
#endif
}

} // namespace test_tma_multicast_gpu
