// lanemap-cli probe --family tcgen05: the three tcgen05 families are probe families; without a GPU the run
// says so as for every other family (exit 3), a bad family name exits 2 naming tcgen05 among the valid ones.
#include "cli_run.hpp"

#include "lanemap/gpu/probe.hpp"

#include <gtest/gtest.h>

namespace test_cli_tcgen05_probe {

using lanemap::test::runCli;

TEST(CliTcgen05Probe, ProbeTakesTheTcgen05Families) {
    const auto bad = runCli({"probe", "--all", "--family", "tcgen05.mmaa"});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(
        bad.err.find("wmma, tcgen05.ld, tcgen05.st, tcgen05.mma, cp.async.bulk.tensor, or tcgen05 for its "
                     "three (or a comma-separated list"),
        std::string::npos)
        << bad.err;
    if (lanemap::gpu::discover().available)
        GTEST_SKIP() << "a GPU is present: its tcgen05 run is recorded under docs/probe-runs";
    for (const char* family : {"tcgen05", "tcgen05.ld,tcgen05.mma"}) {
        const auto r = runCli({"probe", "--all", "--family", family});
        EXPECT_EQ(r.code, 3) << family << ": " << r.err;
        EXPECT_NE(r.err.find("GPU unavailable: "), std::string::npos) << r.err;
    }
}

} // namespace test_cli_tcgen05_probe
