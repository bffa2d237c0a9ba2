// The probe's host work (docs/performance.md: every variant the device supports in < 3 s, CUDA start-up
// included): planning the register and shared-memory images and interpreting raw D, measured on the CPU with
// the simulator's D standing in for the GPU's. On the H100 the wgmma.sp family is where the probe's time
// goes.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/wgmma.hpp"
#include "lanemap/probe_report.hpp"

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

// Reading a probe report (the app at start, `list --family wmma` for discovery reports): a hostile 0.9 MB
// file of one 80,000-key object against a real report's shape at the same size. Before the reader's limits
// (core/src/io/json_limits.hpp) the hostile file took 9 s, quadratic in the keys; now both are one linear pass.
namespace {
void reportParse(benchmark::State& state, bool hostile) {
    std::string text;
    if (hostile) {
        text = "{";
        for (int i = 0; i < 80'000; ++i)
            text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
        text += "}";
    } else {
        ProbeReport r;
        r.device = {"NVIDIA H100 80GB HBM3", 90, "580.159.04", "13.0"};
        for (int i = 0; text.size() < 870'000; ++i) {
            ProbeResult result;
            result.spec = "mma.m16n8k16.f16";
            result.verdict = Verdict::Pass;
            result.cellsChecked = 512;
            r.results.push_back(result);
            if (i % 512 == 0)
                text = toJson(r);
        }
    }
    std::size_t rejected = 0;
    for (auto _ : state) {
        ProbeReport r;
        std::string error;
        rejected += !parseProbeReport(text, r, error);
    }
    if ((rejected != 0) != hostile)
        state.SkipWithError("the hostile file was read, or the real one refused");
    if (!hostile) // the hostile file is refused at its 65th key: it has no throughput to speak of
        state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
} // namespace

BENCHMARK_CAPTURE(reportParse, hostile, true)
    ->Name("BM_ReportParse/hostile-80000-keys")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(reportParse, real, false)->Name("BM_ReportParse/real-shape")->Unit(benchmark::kMillisecond);
