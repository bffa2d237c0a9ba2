// The probe's host work (docs/performance.md: every variant the device supports in < 3 s, CUDA start-up
// included): planning the register and shared-memory images and interpreting raw D, measured on the CPU with
// the simulator's D standing in for the GPU's. On the H100 the wgmma.sp family is where the probe's time
// goes.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/wgmma.hpp"

#include <benchmark/benchmark.h>

using namespace lanemap;

namespace {
void probeHost(benchmark::State& state, const char* spec) {
    const Instruction& in = *Catalog::instance().instruction(spec);
    const gpu::wg::Plan once = gpu::wg::planProbe(in);
    const std::vector<std::uint32_t> rawD = gpu::wg::simulate(once, gpu::wg::referenceOf(in));
    std::size_t experiments = 0;
    for (auto _ : state) {
        const gpu::wg::Plan plan = gpu::wg::planProbe(in);
        const gpu::Interpretation r = gpu::wg::interpretProbe(plan, rawD);
        experiments = plan.experiments.size();
        if (r.result.verdict != Verdict::Pass)
            state.SkipWithError("the simulated probe did not pass");
    }
    state.counters["experiments"] = static_cast<double>(experiments);
}
} // namespace

BENCHMARK_CAPTURE(probeHost, wgmma_sp_n8, "wgmma.sp.m64n8k32.f16")
    ->Name("BM_ProbeHost/wgmma.sp.m64n8k32.f16")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(probeHost, wgmma_sp_n256, "wgmma.sp.m64n256k32.f16")
    ->Name("BM_ProbeHost/wgmma.sp.m64n256k32.f16")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(probeHost, wgmma_sp_e4m3, "wgmma.sp.m64n128k64.e4m3")
    ->Name("BM_ProbeHost/wgmma.sp.m64n128k64.e4m3")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(probeHost, wgmma_n256, "wgmma.m64n256k16.f16")
    ->Name("BM_ProbeHost/wgmma.m64n256k16.f16")
    ->Unit(benchmark::kMillisecond);
