// CuTe's side of the comparison (tools/cute_bench/README.md):
//   cute-figure write NAME FILE|-     print_svg of one atom into FILE (fopen, no sync) or to stdout
//   cute-figure time NAME REPS TRIALS print_svg REPS times per trial into /dev/null; one JSON line on stderr
#include "figures.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    if (argc == 4 && !std::strcmp(argv[1], "write")) {
        if (std::strcmp(argv[3], "-") && !std::freopen(argv[3], "w", stdout))
            return std::perror(argv[3]), 1;
        if (!figures::draw(argv[2]))
            return std::fprintf(stderr, "unknown figure %s\n", argv[2]), 2;
        return std::fclose(stdout) == 0 ? 0 : 1;
    }
    if (argc == 5 && !std::strcmp(argv[1], "time")) {
        const int reps = std::atoi(argv[3]), trials = std::atoi(argv[4]);
        if (!std::freopen("/dev/null", "w", stdout))
            return std::perror("/dev/null"), 1;
        if (!figures::draw(argv[2]))
            return std::fprintf(stderr, "unknown figure %s\n", argv[2]), 2;
        std::fprintf(stderr, "{\"tool\":\"cute\",\"figure\":\"%s\",\"ms\":[", argv[2]);
        for (int t = 0; t < trials; ++t) {
            const auto t0 = std::chrono::steady_clock::now();
            for (int r = 0; r < reps; ++r)
                figures::draw(argv[2]);
            std::fflush(stdout);
            const std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - t0;
            std::fprintf(stderr, "%s%.4f", t ? "," : "", ms.count() / reps);
        }
        std::fprintf(stderr, "]}\n");
        return 0;
    }
    std::fprintf(stderr, "usage: cute-figure write NAME FILE|- | time NAME REPS TRIALS\n");
    return 2;
}
