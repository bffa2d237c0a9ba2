// The CLI as a user runs it: one whole process per iteration (start-up, catalog, the command, exit), the
// figure compared with CuTe's print_svg program in docs/performance.md. Wall time; stdout goes to /dev/null.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace {

#ifdef LANEMAP_CLI_PATH
// One run of lanemap-cli with `args`; false (and the reason in `error`) when it could not run or failed.
// `cpuSeconds` grows by the child's user + system time (what a loaded box does not inflate as much as wall).
bool runCli(const std::vector<std::string>& args, std::string& error, double& cpuSeconds) {
    std::vector<std::string> argv{LANEMAP_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (std::string& a : argv)
        raw.push_back(a.data());
    raw.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, raw[0], &actions, nullptr, raw.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        error = std::string("cannot start ") + raw[0] + ": " + std::strerror(rc);
        return false;
    }
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0)
        if (errno != EINTR) {
            error = std::string("wait4: ") + std::strerror(errno);
            return false;
        }
    cpuSeconds += static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        error = "lanemap-cli " + args.front() + " failed (status " + std::to_string(status) + ")";
        return false;
    }
    return true;
}

void BM_CliProcess(benchmark::State& state, std::vector<std::string> args) {
    std::string error;
    double cpuSeconds = 0;
    for (auto _ : state)
        if (!runCli(args, error, cpuSeconds)) {
            state.SkipWithError(error.c_str());
            return;
        }
    // The child's CPU time per run, in ms (wall time is the benchmark's own figure).
    state.counters["cpu_ms"] = benchmark::Counter(cpuSeconds * 1e3, benchmark::Counter::kAvgIterations);
}

double minimum(const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

#define LANEMAP_PROCESS_BENCH(name, ...)                                                                     \
    BENCHMARK_CAPTURE(BM_CliProcess, name, std::vector<std::string>{__VA_ARGS__})                            \
        ->Unit(benchmark::kMillisecond)                                                                      \
        ->UseRealTime()                                                                                      \
        ->ComputeStatistics("min", minimum)

LANEMAP_PROCESS_BENCH(version, "--version");
LANEMAP_PROCESS_BENCH(list, "list");
LANEMAP_PROCESS_BENCH(show_m16n8k16, "show", "mma.m16n8k16.f16");
LANEMAP_PROCESS_BENCH(svg_m16n8k16, "export", "mma.m16n8k16.f16", "--format", "svg", "-o", "-");
LANEMAP_PROCESS_BENCH(svg_m64n256k16, "export", "wgmma.m64n256k16.f16", "--format", "svg", "-o", "-");
LANEMAP_PROCESS_BENCH(svg_tcgen05_m256, "export", "tcgen05.mma.cta_group::2.kind::f16.m256", "--format",
                      "svg", "-o", "-"); // the largest catalog SVG
LANEMAP_PROCESS_BENCH(svg_m16n8k16_file, "export", "mma.m16n8k16.f16", "--format", "svg", "-o",
                      "/tmp/lanemap-bench-process.svg"); // as the CuTe comparison writes it
LANEMAP_PROCESS_BENCH(show_ldmatrix, "show", "ldmatrix.m8n8.x4.b16");
LANEMAP_PROCESS_BENCH(show_m64n256k16, "show", "wgmma.m64n256k16.f16");
LANEMAP_PROCESS_BENCH(ptx_lookup, "show", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
#endif

} // namespace
