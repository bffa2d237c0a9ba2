// The tensor-memory method's kernel binding (tcgen05.ld / tcgen05.st / tcgen05.mma, sm_100a;
// tensor_memory.hpp): the capability check every GPU answers first, then the launch on an sm_100a device. The
// GPU device (probe_cuda.cpp) serializes and times the launch and turns CUDA errors into results.
#include "device_cuda.hpp"
#include "mma.hpp"
#include "tensor_memory.hpp"

#ifdef LANEMAP_TCGEN05_PROBES
#include "kernels.hpp"

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"
#endif

#include <string>

namespace lanemap::gpu {

#ifdef LANEMAP_TCGEN05_PROBES
namespace tckernels {
const Entry* find(std::string_view ptx) {
    for (const std::span<const Entry> entries : {entriesLd(), entriesSt()})
        for (const Entry& e : entries)
            if (ptx == e.ptx)
                return &e;
    return nullptr;
}
} // namespace tckernels
#endif

namespace {

#ifdef LANEMAP_TCGEN05_PROBES
// tcgen05.mma: the plan's images and descriptors (mma.hpp) to the kernel.
PreparedLaunch prepareMma(const Variant& v, const tc::Plan& plan) {
    PreparedLaunch p;
    const tckernels::MmaEntry* entry = tckernels::findMma(v.ptx);
    if (!entry || entry->ctaGroup != plan.mma->ctaGroup) {
        p.unsupported = "this build has no tcgen05.mma probe kernel for " + v.ptx;
        return p;
    }
    if (!plan.mmaSetup) {
        p.unsupported = "not probed: core's instruction-descriptor encoder rejects this catalog shape, so "
                        "the kernel has no idesc for it; " +
                        plan.notProbed;
        return p;
    }
    const tc::MmaSetup& setup = *plan.mmaSetup;
    tckernels::MmaArgs args;
    args.experiments = static_cast<int>(plan.experiments.size());
    args.columns = plan.columns;
    args.sharedWords = setup.sharedWords;
    args.wordsPerCta = static_cast<int>(setup.wordsPerCta());
    args.firstTensorMemoryA = plan.firstTensorMemoryA;
    args.allocColumns = tc::kAllocColumns;
    args.fillColumn = tc::kFillColumn;
    args.fillColumns = tc::kFillColumns;
    args.aColumn = tc::kAColumn;
    args.metadataColumn = tc::kMetadataColumn;
    args.scaleAColumn = tc::kScaleAColumn;
    args.scaleBColumn = tc::kScaleBColumn;
    args.lane = plan.mma->laneAlignment; // placeD / placeA count the alignment in their lanes
    args.descriptorA = setup.descriptorA;
    args.descriptorB = setup.descriptorB;
    args.idesc = setup.idesc;
    p.builtFor = "the tcgen05 kernels are built for sm_100a only";
    p.notCompiled = "the code this device loaded was built without tcgen05 (it needs sm_100a code)";
    p.launch = [&plan, entry, args](std::vector<std::uint32_t>& raw) {
        static cuda::DeviceArena arenaIn, arenaOut, arenaFlag;
        const std::uint32_t* dIn = cuda::upload(arenaIn, plan.inputs, "tcgen05.mma images");
        return cuda::launchAndFetch(raw, arenaOut, arenaFlag, [&](std::uint32_t* dOut, int* dCompiled) {
            return entry->launch(dIn, dOut, args, dCompiled);
        });
    };
    return p;
}
#endif

} // namespace

std::string tc::TensorMemoryProbe::cannotRun(const Variant& v, const DeviceInfo& device) {
    if (std::string why = tc::unsupportedOn(v, device); !why.empty())
        return why;
    // sm_100a code runs on compute capability 10.0 alone.
    if (device.sm != 100)
        return "this build has tcgen05 probe kernels for sm_100a only; this device is sm_" +
               std::to_string(device.sm);
#ifdef LANEMAP_TCGEN05_PROBES
    if (tmem::mmaOf(v))
        return tckernels::findMma(v.ptx) ? "" : "this build has no tcgen05.mma probe kernel for " + v.ptx;
    if (!tckernels::find(v.ptx))
        return "this build has no probe kernel for " + v.ptx;
    return "";
#else
    return "this build has no tcgen05 probe kernels: they need nvcc 12.8 or later";
#endif
}

PreparedLaunch tc::TensorMemoryProbe::prepareLaunch(const Variant& v, const DeviceInfo&) const {
    PreparedLaunch p;
#ifdef LANEMAP_TCGEN05_PROBES
    const tc::Plan& plan = m_plan;
    if (plan.mma)
        return prepareMma(v, plan);
    const tckernels::Entry* entry = tckernels::find(v.ptx);
    if (!entry || !plan.access || entry->registers != tmem::registersOf(*plan.access)) {
        p.unsupported = "probe kernel registers differ from the catalog's; rebuild lanemap";
        return p;
    }
    int alloc = 32;
    while (alloc < plan.columns)
        alloc *= 2;
    p.builtFor = "the tcgen05 kernels are built for sm_100a only";
    p.notCompiled = "the code this device loaded was built without tcgen05 (it needs sm_100a code)";
    p.launch = [&plan, entry, alloc](std::vector<std::uint32_t>& raw) {
        // Device buffers kept between variants (guarded by the GPU lock the caller holds).
        static cuda::DeviceArena arenaIn, arenaOut, arenaFlag;
        const std::uint32_t* dIn = cuda::upload(arenaIn, plan.inputs, "cell and register words");
        const int experiments = static_cast<int>(plan.experiments.size());
        return cuda::launchAndFetch(raw, arenaOut, arenaFlag, [&](std::uint32_t* dOut, int* dCompiled) {
            return entry->launch(dIn, dOut, experiments, plan.columns, alloc, dCompiled);
        });
    };
#else
    p.unsupported = "this build has no tcgen05 probe kernels for " + v.ptx;
#endif
    return p;
}

} // namespace lanemap::gpu
