// lanemap-cli probe --all --family: probing one instruction family (e.g. only wgmma), and its input errors.
#include "cli.hpp"

#include "lanemap/gpu/probe.hpp"

#include <gtest/gtest.h>

#include <sstream>

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

} // namespace
