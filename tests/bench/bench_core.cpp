// Core benchmarks. Budgets are goals, measured here and recorded in docs/performance.md.
#include "lanemap/banks.hpp"
#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/family.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/tile.hpp"

#include <benchmark/benchmark.h>

using namespace lanemap;

// Build every layout of the catalog: all operands, inverse maps (budget < 5 ms).
static void BM_BuildCatalog(benchmark::State& state) {
    const Catalog& catalog = Catalog::instance();
    std::size_t elements = 0;
    for (auto _ : state) {
        elements = 0;
        // From scratch, as the catalog does it: every distinct layout is built once per pass and shared by
        // the variants that have it (all instructions stay alive during the pass, like the catalog's).
        FragmentLayout::clearBuildCache();
        std::vector<Instruction> built;
        built.reserve(catalog.size());
        for (const Variant* v : catalog.variants()) {
            built.push_back(catalog.buildUncached(*v));
            for (const FragmentLayout& op : built.back().operands)
                elements += op.elements().size();
        }
        benchmark::DoNotOptimize(built.data());
    }
    state.counters["variants"] = static_cast<double>(catalog.size());
    state.counters["elements"] = static_cast<double>(elements);
}
BENCHMARK(BM_BuildCatalog)->Unit(benchmark::kMillisecond);

// The same, one family at a time (the argument is its index in families()): where BM_BuildCatalog's time
// goes.
static void BM_BuildFamily(benchmark::State& state) {
    const Catalog& catalog = Catalog::instance();
    const Family* family = families()[static_cast<std::size_t>(state.range(0))];
    std::vector<const Variant*> variants;
    for (const Variant* v : catalog.variants())
        if (v->family == family)
            variants.push_back(v);
    for (auto _ : state) {
        FragmentLayout::clearBuildCache();
        std::vector<Instruction> built;
        built.reserve(variants.size());
        for (const Variant* v : variants)
            built.push_back(catalog.buildUncached(*v));
        benchmark::DoNotOptimize(built.data());
    }
    state.SetLabel(std::string(family->name));
    state.counters["variants"] = static_cast<double>(variants.size());
}
BENCHMARK(BM_BuildFamily)
    ->DenseRange(0, static_cast<int>(families().size()) - 1)
    ->Unit(benchmark::kMillisecond);

// JSON of every variant (not budgeted; tracks the export path).
static void BM_JsonCatalog(benchmark::State& state) {
    const Catalog& catalog = Catalog::instance();
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = 0;
        for (const Variant* v : catalog.variants())
            bytes += toJson(catalog.instruction(*v)).size();
    }
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_JsonCatalog)->Unit(benchmark::kMillisecond);

namespace {
DiagramOptions only(Operand operand) {
    DiagramOptions o;
    o.operands = operand;
    return o;
}
} // namespace

// SVG of the largest diagram: wgmma m64n256 D, 16 384 cells (budget < 20 ms, < 2 MB).
static void BM_SvgLargest(benchmark::State& state) {
    const Instruction& in = *Catalog::instance().instruction("wgmma.m64n256k16.f16");
    std::size_t bytes = 0;
    for (auto _ : state) {
        const Diagram d = buildDiagram(in, only(Operand::D));
        bytes = toSvg(d).size();
    }
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SvgLargest)->Name("BM_SvgLargest/64x256")->Unit(benchmark::kMillisecond);

// SVG of every diagram in the catalog, all operands (budget < 2 s on one core).
static void BM_SvgCatalog(benchmark::State& state) {
    const Catalog& catalog = Catalog::instance();
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = 0;
        for (const Variant* v : catalog.variants())
            bytes += toSvg(buildDiagram(catalog.instruction(*v))).size();
    }
    state.counters["variants"] = static_cast<double>(catalog.size());
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SvgCatalog)->Unit(benchmark::kMillisecond)->Iterations(1);

// SVG of the SM80 16x8x16 atom, the size CuTe's print_svg is quoted for in docs/performance.md.
static void BM_SvgSmall(benchmark::State& state) {
    const Instruction& in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    std::size_t bytes = 0;
    for (auto _ : state)
        bytes = toSvg(buildDiagram(in)).size();
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SvgSmall)->Name("BM_SvgSmall/m16n8k16")->Unit(benchmark::kMillisecond);

// SVG of the wgmma 64x256x16 atom with every register operand (A and D), as CuTe draws its atom.
static void BM_SvgAtom(benchmark::State& state) {
    const Instruction& in = *Catalog::instance().instruction("wgmma.m64n256k16.f16");
    std::size_t bytes = 0;
    for (auto _ : state)
        bytes = toSvg(buildDiagram(in)).size();
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SvgAtom)->Name("BM_SvgAtom/m64n256k16")->Unit(benchmark::kMillisecond);

// SVG of the largest Tensor Memory figure: D of a CTA pair, 256 lanes x 256 columns (65,536 cells, each a
// label only: its tooltip comes from the script's Tensor Memory rule). Bytes, and gzip's view is the
// script's.
static void BM_SvgTensorMemory(benchmark::State& state) {
    const Instruction& in = *Catalog::instance().instruction("tcgen05.mma.cta_group::2.kind::f16.m256");
    std::size_t bytes = 0;
    for (auto _ : state)
        bytes = toSvg(buildDiagram(in)).size();
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SvgTensorMemory)->Name("BM_SvgTensorMemory/m256")->Unit(benchmark::kMillisecond);

// Bank analysis of one ldmatrix.x4 tile under every candidate swizzle and padding: the `banks --search`
// (budget < 5 ms).
static void BM_BankSearch(benchmark::State& state) {
    const Variant& v = *Catalog::instance().variant("ldmatrix.m8n8.x4.b16");
    banks::Placement base;
    base.pitchBytes = 128;
    std::size_t candidates = 0;
    for (auto _ : state) {
        const std::vector<banks::SearchResult> found = banks::search(v, base);
        candidates = found.size();
        benchmark::DoNotOptimize(found.data());
    }
    state.counters["candidates"] = static_cast<double>(candidates);
}
BENCHMARK(BM_BankSearch)->Unit(benchmark::kMillisecond);

// Every code and table export (cuda, cute, triton, csv, md, tex) of every variant (budget:
// docs/performance.md).
static void BM_ExportFormatsCatalog(benchmark::State& state) {
    const Catalog& catalog = Catalog::instance();
    const auto format = static_cast<ExportFormat>(state.range(0));
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = 0;
        for (const Variant* v : catalog.variants()) {
            std::string document, error;
            exportInstruction(catalog.instruction(*v), format, {}, document, error);
            bytes += document.size();
        }
    }
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_ExportFormatsCatalog)
    ->ArgName("format")
    ->Arg(static_cast<int>(ExportFormat::Cuda))
    ->Arg(static_cast<int>(ExportFormat::Cute))
    ->Arg(static_cast<int>(ExportFormat::Triton))
    ->Arg(static_cast<int>(ExportFormat::Csv))
    ->Arg(static_cast<int>(ExportFormat::Markdown))
    ->Arg(static_cast<int>(ExportFormat::Latex))
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

// A 256x256x64 tile of m16n8k16 atoms over 2x2 warps (docs/tiles.md): its placements composed from the atom's
// and its Diagram (budget <= 20 ms together). 196 608 element slots: C and D once, A and B twice
// (replicated).
static void BM_Tile256(benchmark::State& state) {
    const Instruction& atom = *Catalog::instance().instruction("mma.m16n8k16.f16");
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout("(2,2,1)", "_256,_256,_64", error);
    if (!t) {
        state.SkipWithError(error.c_str());
        return;
    }
    std::size_t cells = 0;
    for (auto _ : state) {
        Instruction in = atom; // what instantiate() copies, without its cache
        in.params.tile = *t;
        placeOperands(in);
        const Diagram d = buildDiagram(in);
        cells = d.cells.size();
        benchmark::DoNotOptimize(d.cells.data());
    }
    state.counters["cells"] = static_cast<double>(cells);
}
BENCHMARK(BM_Tile256)->Name("BM_Tile256/m16n8k16x(2,2,1)")->Unit(benchmark::kMillisecond);
