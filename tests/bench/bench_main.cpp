// lanemap-bench entry point: the GUI benchmarks paint offscreen, so a QApplication exists when Qt is built.
#include <benchmark/benchmark.h>

#include <cstdlib>

#ifdef LANEMAP_BENCH_GUI
#include <QApplication>
#endif

int main(int argc, char** argv) {
#ifdef LANEMAP_BENCH_GUI
    setenv("QT_QPA_PLATFORM", "offscreen", 0);
    QApplication app(argc, argv);
#endif
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
