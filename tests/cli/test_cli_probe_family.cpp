// lanemap-cli probe --all --family: probing one instruction family (e.g. only wgmma), and its input errors.
#include "cli.hpp"

#include "lanemap/gpu/probe.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace test_cli_probe_family {

namespace {

struct Result {
    int code;
    std::string out, err;
};

Result run(std::vector<std::string> args) {
    std::ostringstream out, err;
    const int code = lanemap::cli::run(args, out, err);
    return {code, out.str(), err.str()};
}

TEST(CliProbeFamily, AnUnknownFamilyOrAFamilyWithoutAllIsAUsageError) {
    const Result unknown = run({"probe", "--all", "--family", "wgmma.dense"});
    EXPECT_EQ(unknown.code, 2);
    EXPECT_NE(unknown.err.find("one of: mma, mma.sp, wgmma, wgmma.sp"), std::string::npos) << unknown.err;
    const Result single = run({"probe", "wgmma.m64n8k16.f16", "--family", "wgmma"});
    EXPECT_EQ(single.code, 2);
    EXPECT_NE(single.err.find("--family goes with --all"), std::string::npos) << single.err;
}

TEST(CliProbeFamily, WithoutAGpuTheWgmmaFamilyExits3AndSaysWhy) {
    if (lanemap::gpu::discover().available)
        GTEST_SKIP() << "a GPU is present: the device tests probe wgmma there";
    const Result r = run({"probe", "--all", "--family", "wgmma.sp"});
    EXPECT_EQ(r.code, 3);
    EXPECT_NE(r.err.find("GPU unavailable: "), std::string::npos) << r.err;
}

TEST(CliProbeFamily, WmmaIsProbedThroughTheDiscoveryMethodWhenNamedAndNeverAsAUsageError) {
    if (lanemap::gpu::discover().available)
        GTEST_SKIP() << "a GPU is present: the device tests probe wmma there";
    // Once refused ("no document states a wmma layout"); now the pipeline's discovery method runs it.
    const Result one = run({"probe", "wmma.m16n16k16.row.col.f16.f32"});
    EXPECT_EQ(one.code, 3) << one.err;
    EXPECT_NE(one.err.find("GPU unavailable: "), std::string::npos) << one.err;
    const Result family = run({"probe", "--all", "--family", "wmma"});
    EXPECT_EQ(family.code, 3) << family.err;
    const Result help = run({"probe", "--help"});
    EXPECT_NE(help.out.find("movmatrix, wmma"), std::string::npos) << help.out;
}

} // namespace

} // namespace test_cli_probe_family
