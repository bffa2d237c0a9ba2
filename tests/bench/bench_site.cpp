// Static site benchmarks (docs/site.md). Budgets: the whole site (every page and the index) in < 10 s; the
// largest page (wgmma m64n256) under 1 MB transferred, i.e. gzip-compressed as a web server sends it.
#include "lanemap/catalog.hpp"
#include "lanemap/site.hpp"

#include <benchmark/benchmark.h>
#include <zlib.h>

using namespace lanemap;

namespace {

std::size_t gzipSize(const std::string& text) {
    z_stream z{};
    // 15 + 16: a gzip stream, as Content-Encoding: gzip sends it; level 6 is the servers' usual default.
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    std::string out(deflateBound(&z, text.size()), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    const std::size_t size = z.total_out;
    deflateEnd(&z);
    return rc == Z_STREAM_END ? size : 0;
}

} // namespace

// Every page and the index, in memory (the CLI adds the file writes): budget < 10 s.
static void BM_SiteWholeCatalog(benchmark::State& state) {
    const Catalog& catalog = Catalog::instance();
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = htmlIndex(catalog.variants()).size();
        for (const Variant* v : catalog.variants())
            bytes += htmlPage(catalog.instruction(*v)).size();
    }
    state.counters["pages"] = static_cast<double>(catalog.size() + 1);
    state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_SiteWholeCatalog)->Unit(benchmark::kMillisecond)->Iterations(1);

// The largest pages: bytes on disk and gzip-compressed (budget < 1 MB compressed).
static void BM_SiteLargestPage(benchmark::State& state, const char* spec) {
    const Instruction& in = *Catalog::instance().instruction(spec);
    std::string page;
    for (auto _ : state) {
        page = htmlPage(in);
        benchmark::DoNotOptimize(page.data());
    }
    state.counters["MB"] = static_cast<double>(page.size()) / 1e6;
    state.counters["gzip_MB"] = static_cast<double>(gzipSize(page)) / 1e6;
}
BENCHMARK_CAPTURE(BM_SiteLargestPage, wgmma_m64n256k16_f16, "wgmma.m64n256k16.f16")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SiteLargestPage, wgmma_sp_m64n256k32_f16, "wgmma.sp.m64n256k32.f16")
    ->Unit(benchmark::kMillisecond);
