// lanemap-cli decode: tcgen05 descriptors from a pasted value or named fields, text and JSON, and exit 2 with
// the field named for a value the ISA forbids (docs/reference/tcgen05-descriptors.md).
#include "cli_run.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace test_cli_decode {

namespace {

using lanemap::test::runCli;

TEST(CliDecode, SmemDescriptorTextNamesEveryField) {
    const auto r = runCli({"decode", "--smem-desc", "0x4000404000010040"});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* text :
         {"matrix start address", "1024 bytes", "leading dimension byte offset",
          "stride dimension byte offset", "version", "128-byte swizzling", "valid: no rule broken"})
        EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
}

TEST(CliDecode, SmemDescriptorJsonCarriesTypedFieldsAndBits) {
    const auto r = runCli({"decode", "--smem-desc", "4000404000010040", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["descriptor"], "tcgen05.smem");
    EXPECT_EQ(j["value"], "0x4000404000010040");
    EXPECT_EQ(j["start_address"], 1024);
    EXPECT_EQ(j["stride_byte_offset"], 1024);
    EXPECT_EQ(j["swizzle"], "128B");
    EXPECT_EQ(j["leading_mode"], "relative");
    EXPECT_TRUE(j["valid"].get<bool>());
    EXPECT_EQ(j["fields"].size(), 10u);
    EXPECT_EQ(j["fields"][0]["bits"], nlohmann::json::array({0, 13}));
    EXPECT_TRUE(j["violations"].empty());
}

TEST(CliDecode, AWgmmaDescriptorExitsTwoNamingTheVersionBits) {
    // The same fields without tcgen05's fixed 0b001 at bits 48-46 (and with wgmma's swizzle code).
    const auto r = runCli({"decode", "--smem-desc", "0x4000004000010040"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("version"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("rule broken"), std::string::npos) << r.out; // the decoding is still shown
}

TEST(CliDecode, IdescNeedsAKindAndDecodesPerKind) {
    auto r = runCli({"decode", "--idesc", "0x08400490"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("needs --kind"), std::string::npos) << r.err;
    r = runCli({"decode", "--idesc", "0x08400490", "--kind", "f16"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(".bf16"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("M = 128, N = 256, K = 16"), std::string::npos) << r.out;
    // The same bits as kind::i8: atype code 1 is s8, dtype f32 is not an i8 D type.
    r = runCli({"decode", "--idesc", "0x08400490", "--kind", "kind::i8"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("dtype"), std::string::npos) << r.err;
    r = runCli({"decode", "--idesc", "0x08400490", "--kind", "f64"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("valid: f16, tf32"), std::string::npos) << r.err;
}

TEST(CliDecode, IdescFormChangesTheShapeRules) {
    // M = 256 needs cta_group::2.
    const std::string m256 = "kind=f16,a=f16,b=f16,m=256,n=128";
    EXPECT_EQ(runCli({"decode", "--idesc-from", m256}).code, 0);
    EXPECT_EQ(runCli({"decode", "--idesc-from", m256, "--cta-group", "2"}).code, 0);
    const auto r = runCli({"decode", "--idesc-from", m256, "--cta-group", "1"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("M: 256 is not an M"), std::string::npos) << r.err;
    EXPECT_EQ(runCli({"decode", "--idesc-from", "kind=tf32,m=32,n=64", "--ws"}).code, 0);
    EXPECT_EQ(runCli({"decode", "--idesc-from", "kind=tf32,m=32,n=64", "--no-ws"}).code, 2);
    EXPECT_EQ(runCli({"decode", "--idesc-from", "kind=tf32,m=32,n=64", "--ws", "--no-ws"}).code, 2);
    EXPECT_EQ(runCli({"decode", "--idesc-from", "kind=tf32,m=64,n=64", "--cta-group", "3"}).code, 2);
}

TEST(CliDecode, IdescFromEncodesAndJsonShowsTheValue) {
    const auto r =
        runCli({"decode", "--idesc-from", "kind=mxf8f6f4,a=e4m3,b=e4m3,m=128,n=256,scale=ue8m0", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["value"], "0x08c00000");
    EXPECT_EQ(j["kind"], "mxf8f6f4");
    EXPECT_EQ(j["shape"]["k"], 32);
    EXPECT_TRUE(j["cta_group"].is_null());
}

TEST(CliDecode, BadValuesExitTwoNamingTheFieldAndWhatIsValid) {
    struct Case {
        std::vector<std::string> args;
        const char* says;
    };
    for (const Case& c : {
             Case{{"decode", "--smem-desc", "0xZZ"}, "not a 64-bit hex value"},
             Case{{"decode", "--smem-desc", "0x10000000000000000"}, "not a 64-bit hex value"},
             Case{{"decode", "--idesc", "0x100000000", "--kind", "f16"}, "not a 32-bit hex value"},
             Case{{"decode", "--smem-desc-from", "start=8"}, "matrix start address"},
             Case{{"decode", "--smem-desc-from", "swizzle=96B"}, "valid: none, 128B-32B"},
             Case{{"decode", "--smem-desc-from", "mode=absolute,swizzle=64B"},
                  "leading dimension stride mode"},
             Case{{"decode", "--idesc-from", "kind=f16,a=e4m3"}, "atype"},
             Case{{"decode", "--idesc-from", "kind=mxf4,sf_a=1"}, "valid: 0 or 2"},
             Case{{"decode", "--idesc-from", "kind=i8,negate_a=1"}, "negate A"},
             Case{{"decode", "--idesc-from", "kind=f16,zz=1"}, "unknown key 'zz'"},
             Case{{"decode"}, "exactly one of"},
             Case{{"decode", "--smem-desc", "0", "--kind", "f16"}, "takes none of them"},
         }) {
        const auto r = runCli(c.args);
        EXPECT_EQ(r.code, 2) << c.args.back();
        EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args.back() << ": " << r.err;
    }
}

} // namespace

} // namespace test_cli_decode
