// lanemap's side of the in-process comparison (tools/cute_bench/README.md): what `lanemap-cli export SPEC
// --format svg` writes, built REPS times per trial from the instance the CLI draws (the spec parsed and
// instantiated once, as the CLI does) and written to /dev/null; one JSON line on stderr.
//   lanemap-figure SPEC REPS TRIALS
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char** argv) {
    if (argc != 4)
        return std::fprintf(stderr, "usage: lanemap-figure SPEC REPS TRIALS\n"), 2;
    const int reps = std::atoi(argv[2]), trials = std::atoi(argv[3]);
    // The CLI's road (app/cli/cli.cpp, select and cmdExport): a tcgen05.mma's instance draws each CTA's A and
    // B in shared memory under D, which the catalog's bare instruction does not.
    const lanemap::ParsedSpec parsed = lanemap::parseSpec(argv[1], lanemap::Catalog::instance());
    if (!parsed)
        return std::fprintf(stderr, "%s\n", parsed.error.c_str()), 2;
    const std::shared_ptr<const lanemap::Instruction> instruction =
        lanemap::instantiate(lanemap::selectionOf(parsed));
    std::FILE* sink = std::fopen("/dev/null", "w");
    if (!sink)
        return std::perror("/dev/null"), 1;
    std::size_t bytes = 0;
    const auto once = [&] {
        std::string svg, error;
        if (!lanemap::exportInstruction(*instruction, lanemap::ExportFormat::Svg, {}, svg, error)) {
            std::fprintf(stderr, "export failed: %s\n", error.c_str());
            std::exit(1);
        }
        bytes = std::fwrite(svg.data(), 1, svg.size(), sink);
    };
    std::fprintf(stderr, "{\"tool\":\"lanemap\",\"figure\":\"%s\",\"ms\":[", argv[1]);
    for (int t = 0; t < trials; ++t) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < reps; ++r)
            once();
        std::fflush(sink);
        const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - t0;
        std::fprintf(stderr, "%s%.4f", t ? "," : "", ms.count() / reps);
    }
    std::fprintf(stderr, "],\"bytes\":%zu}\n", bytes);
    return std::fclose(sink) == 0 ? 0 : 1;
}
