// lanemap-cli on tcgen05: list, show and export of the ld/st shapes and the mma forms, the composed
// "who holds D[m][n]" view, and bad input (exit 2, naming what is valid).
#include "cli_run.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export_gzip.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace test_cli_tcgen05 {

using lanemap::test::runCli;

namespace {

TEST(CliTcgen05, ListsTheThreeFamilies) {
    const auto ld = runCli({"list", "--family", "tcgen05.ld"});
    ASSERT_EQ(ld.code, 0) << ld.err;
    EXPECT_NE(ld.out.find("tcgen05.ld.16x256b.x32\tsm_100"), std::string::npos);
    EXPECT_EQ(ld.out.find("tcgen05.ld.16x256b.x64"), std::string::npos); // past the 128-register limit
    const auto mma = runCli({"list", "--family", "tcgen05.mma"});
    ASSERT_EQ(mma.code, 0) << mma.err;
    EXPECT_NE(mma.out.find("tcgen05.mma.ws.cta_group::1.kind::f16.m32"), std::string::npos);
    EXPECT_NE(mma.out.find("tcgen05.mma.cta_group::1.kind::f16.m64.lane16"), std::string::npos);
}

TEST(CliTcgen05, ShowsAnLdShapeAsRegistersOverLanesAndColumns) {
    const auto r = runCli({"show", "tcgen05.ld.sync.aligned.16x64b.x1.b32"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("not confirmed on hardware"), std::string::npos);
    // Lane 8 (the ninth row) holds threads 1 and 3 (Figure 184).
    EXPECT_NE(r.out.find("  8 T1:d0  T3:d0"), std::string::npos) << r.out;
}

TEST(CliTcgen05, ComposedViewNamesWarpThreadAndRegister) {
    const auto r = runCli({"show", "tcgen05.mma.cta_group::1.kind::f16.m128n16", "--ld", "16x256b.x2"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("data-path layout D"), std::string::npos);
    // D[127][0]: lane 127 = the upper half of warp 3, lane offset 15 = thread 28 register 2 (Figure 186).
    EXPECT_NE(r.out.find("   0 w0 T0 r0  w0 T0 r1  w0 T1 r0"), std::string::npos) << r.out.substr(0, 1200);
    EXPECT_NE(r.out.find(" 127 w3 T28 r2"), std::string::npos);
}

TEST(CliTcgen05, ExportsTheComposedViewAsJson) {
    const auto r = runCli({"export", "tcgen05.mma.cta_group::2.kind::f16.m256n32", "--ld", "32x32b.x16",
                           "--format", "json", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["layout"]["name"], "A");
    EXPECT_EQ(j["source"], "figure");
    ASSERT_EQ(j["elements"].size(), 256u);
    // D[200][20]: CTA 1, lane 72 = warp 2 thread 8, column 20 = the second access (columns 16-31),
    // register 4.
    const auto e = j["elements"][200][20];
    EXPECT_EQ(e, nlohmann::json::parse("[1, 72, 20, 0, 2, 8, 4, 0, 64, 16]"));
}

// The SVG is the picture the GUI's Tensor Memory pane shows: D in Tensor Memory beside the registers.
TEST(CliTcgen05, ExportsTheComposedViewAsTheGuisPicture) {
    const auto r = runCli({"export", "tcgen05.mma.cta_group::1.kind::f16.m128n64", "--ld", "32x32b.x32",
                           "--format", "svg", "-o", "-"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("D in Tensor Memory  128 lanes \u00d7 64 columns"), std::string::npos);
    EXPECT_NE(r.out.find("Registers after tcgen05.ld.sync.aligned.32x32b.x32.b32"), std::string::npos);
    EXPECT_NE(r.out.find("D(37,40) \u00b7 CTA 0 lane 37 column 40 \u00b7 held by warp 1 lane 5 r8[31..0]"),
              std::string::npos);
    EXPECT_NE(r.out.find("not confirmed on hardware"), std::string::npos);
    const auto st = runCli({"export", "tcgen05.mma.cta_group::1.kind::f16.m128n64", "--st", "32x32b.x8",
                            "--format", "svg", "-o", "-"});
    ASSERT_EQ(st.code, 0) << st.err;
    EXPECT_NE(st.out.find("Registers before tcgen05.st.sync.aligned.32x32b.x8.b32"), std::string::npos);
    EXPECT_NE(st.out.find("A in Tensor Memory"), std::string::npos);
}

TEST(CliTcgen05, BadInputIsAUsageErrorNamingWhatIsValid) {
    const auto num = runCli({"show", "tcgen05.ld.16x128b.x128"});
    EXPECT_EQ(num.code, 2);
    EXPECT_NE(num.err.find(".x64"), std::string::npos) << num.err;
    const auto n = runCli({"show", "tcgen05.mma.cta_group::1.kind::f16.m128n12"});
    EXPECT_EQ(n.code, 2);
    EXPECT_NE(n.err.find("valid N: 8..256 in steps of 8"), std::string::npos) << n.err;
    const auto ld = runCli({"show", "tcgen05.mma.cta_group::1.kind::f16.m128n16", "--ld", "16x100b.x1"});
    EXPECT_EQ(ld.code, 2);
    EXPECT_NE(ld.err.find(".16x256b"), std::string::npos) << ld.err;
    const auto other = runCli({"show", "mma.m16n8k16.f16", "--ld", "16x256b.x1"});
    EXPECT_EQ(other.code, 2);
    EXPECT_NE(other.err.find("not a tcgen05.mma spec"), std::string::npos);
    const auto format =
        runCli({"export", "tcgen05.mma.cta_group::1.kind::f16.m128", "--format", "cute", "-o", "-"});
    EXPECT_EQ(format.code, 2);
    EXPECT_NE(format.err.find("txt, json or svg"), std::string::npos);
    const auto stB = runCli({"show", "tcgen05.mma.cta_group::2.kind::f16.m128n32", "--st", "32x32b.x4"});
    EXPECT_EQ(stB.code, 2);
    EXPECT_NE(stB.err.find("layouts A, D and F only"), std::string::npos);
}

// The options of register and shared-memory views are refused by name, not ignored: the view would show D
// whatever --operand B or --lanes 0-3 asked for.
TEST(CliTcgen05, OptionsAViewDoesNotTakeAreRefusedByName) {
    const std::string spec = "tcgen05.mma.cta_group::1.kind::f16.m128n64";
    for (const std::vector<std::string>& option :
         std::vector<std::vector<std::string>>{{"--operand", "B"},
                                               {"--lanes", "0-3"},
                                               {"--color", "register"},
                                               {"--selector", "1"},
                                               {"--major", "MN"},
                                               {"--swizzle", "64B"},
                                               {"--compact"}}) {
        std::vector<std::string> args{"export", spec, "--format", option[0] == "--compact" ? "json" : "svg",
                                      "-o",     "-"};
        args.insert(args.end(), option.begin(), option.end());
        const auto r = runCli(args);
        EXPECT_EQ(r.code, 2) << option[0];
        EXPECT_NE(r.err.find(", not " + option[0] + "\n"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("--palette and --gzip"), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << option[0];
    }
    const auto show = runCli({"show", spec, "--operand", "A"});
    EXPECT_EQ(show.code, 2);
    EXPECT_NE(show.err.find("(A with --st)"), std::string::npos) << show.err;
    EXPECT_NE(show.err.find(", not --operand\n"), std::string::npos) << show.err;
    const auto two = runCli({"export", spec, "--format", "svg", "-o", "-", "--operand", "B", "--lanes", "1"});
    EXPECT_EQ(two.code, 2);
    EXPECT_NE(two.err.find(", not --operand or --lanes\n"), std::string::npos) << two.err;
}

// --palette and --gzip, which a view takes, are honoured (they were ignored).
TEST(CliTcgen05, ExportHonoursPaletteAndGzip) {
    const std::vector<std::string> args{
        "export", "tcgen05.mma.cta_group::1.kind::f16.m128n64", "--format", "svg", "-o", "-"};
    const auto plain = runCli(args);
    ASSERT_EQ(plain.code, 0) << plain.err;
    auto withOption = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = args;
        a.insert(a.end(), extra.begin(), extra.end());
        return runCli(a);
    };
    // Lane 0's colour: the default palette's, or the colour-blind one's.
    auto fill = [](lanemap::Palette palette) {
        const lanemap::Rgb c = lanemap::paletteColor(palette, lanemap::ColorBy::Lane, 0);
        char hex[8];
        std::snprintf(hex, sizeof hex, "%02x%02x%02x", c.r, c.g, c.b);
        return ".k0{fill:#" + std::string(hex) + "}";
    };
    const auto colorblind = withOption({"--palette", "colorblind"});
    ASSERT_EQ(colorblind.code, 0) << colorblind.err;
    EXPECT_NE(plain.out.find(fill(lanemap::Palette::Default)), std::string::npos);
    EXPECT_NE(colorblind.out.find(fill(lanemap::Palette::ColorBlind)), std::string::npos);
    EXPECT_EQ(colorblind.out.find(fill(lanemap::Palette::Default)), std::string::npos);
    const auto gzip = withOption({"--gzip"});
    ASSERT_EQ(gzip.code, 0) << gzip.err;
    std::string unpacked, error;
    ASSERT_TRUE(lanemap::gunzipBytes(gzip.out, unpacked, error)) << error;
    EXPECT_EQ(unpacked, plain.out);
}

} // namespace

} // namespace test_cli_tcgen05
