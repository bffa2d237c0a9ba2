// The catalog as `export --all` writes it (docs/performance.md, lean exports): SVG with wgmma's B in shared
// memory, JSON in both forms, gzip. Sizes are counters; the time is the writer's, in one process.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_gzip.hpp"
#include "lanemap/export_json.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>

using namespace lanemap;

namespace {

// Every variant through exportInstruction, as `lanemap-cli export --all --format F [--compact] [--gzip]`
// does: total bytes, the largest file, and the total gzipped when `gzip`.
void exportCatalog(benchmark::State& state, ExportFormat format, bool compact, bool gzip) {
    const Catalog& catalog = Catalog::instance();
    ExportOptions options;
    options.compact = compact;
    std::size_t bytes = 0, largest = 0;
    for (auto _ : state) {
        bytes = largest = 0;
        for (const Variant* v : catalog.variants()) {
            std::string document, error;
            if (!exportInstruction(catalog.instruction(*v), format, options, document, error)) {
                state.SkipWithError(error.c_str());
                return;
            }
            if (gzip)
                document = gzipBytes(document);
            bytes += document.size();
            largest = std::max(largest, document.size());
        }
    }
    state.counters["variants"] = static_cast<double>(catalog.size());
    state.counters["bytes"] = static_cast<double>(bytes);
    state.counters["largest"] = static_cast<double>(largest);
}

// The catalog in each form `export --all` writes.
struct CatalogExport {
    const char* name;
    ExportFormat format;
    bool compact;
    bool gzip;
};
constexpr CatalogExport kCatalogExports[] = {
    {"BM_ExportSvgCatalog", ExportFormat::Svg, false, false},
    {"BM_ExportJsonCatalog", ExportFormat::Json, false, false},
    {"BM_ExportJsonCompactCatalog", ExportFormat::Json, true, false},
    {"BM_ExportJsonCompactGzipCatalog", ExportFormat::Json, true, true},
};

const bool kCatalogExportsRegistered = [] {
    for (const CatalogExport& e : kCatalogExports)
        benchmark::RegisterBenchmark(
            e.name, [e](benchmark::State& state) { exportCatalog(state, e.format, e.compact, e.gzip); })
            ->Unit(benchmark::kMillisecond)
            ->Iterations(1);
    return true;
}();

} // namespace

// The wgmma 64x256x16 figure as exported (A, D and B in shared memory): the one compared with CuTe's
// print_svg of the same atom.
static void BM_ExportSvgAtom(benchmark::State& state) {
    const Instruction& in = *Catalog::instance().instruction("wgmma.m64n256k16.f16");
    std::size_t bytes = 0, gzipped = 0;
    for (auto _ : state) {
        std::string document, error;
        exportInstruction(in, ExportFormat::Svg, {}, document, error);
        bytes = document.size();
        benchmark::DoNotOptimize(document.data());
    }
    std::string document, error;
    exportInstruction(in, ExportFormat::Svg, {}, document, error);
    gzipped = gzipBytes(document).size();
    state.counters["bytes"] = static_cast<double>(bytes);
    state.counters["gzip_bytes"] = static_cast<double>(gzipped);
}
BENCHMARK(BM_ExportSvgAtom)->Name("BM_ExportSvgAtom/m64n256k16")->Unit(benchmark::kMillisecond);
