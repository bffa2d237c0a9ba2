// The compact JSON form (docs/reference/json.md#compact-form) and gzip: every variant round-trips between the
// two forms, the columns say what the full elements say, the catalog is at least 5x smaller, and readers get
// a message for documents of the wrong form.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_gzip.hpp"
#include "lanemap/export_json.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace test_export_json_compact {

using namespace lanemap;
using nlohmann::ordered_json;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

// compact -> full: expandJson writes nlohmann's layout (one-space indent), so the full document is compared
// as the same value in that layout.
void expectExpands(const std::string& spec, const std::string& full, const std::string& compact) {
    std::string error;
    const std::string expanded = expandJson(compact, error);
    ASSERT_TRUE(error.empty()) << spec << ": " << error;
    EXPECT_TRUE(expanded == ordered_json::parse(full).dump(1) + "\n") << spec << ": compact -> full differs";
}
// full -> compact: the reader's converter gives what the writer writes.
void expectCompacts(const std::string& spec, const std::string& full, const std::string& compact) {
    std::string error;
    const std::string compacted = compactJson(full, error);
    ASSERT_TRUE(error.empty()) << spec << ": " << error;
    EXPECT_TRUE(compacted == ordered_json::parse(compact).dump(1) + "\n")
        << spec << ": full -> compact differs";
}
void expectRoundTrip(const std::string& spec, const std::string& full, const std::string& compact) {
    expectExpands(spec, full, compact);
    expectCompacts(spec, full, compact);
}

// Every variant up to 1 MB of full JSON (440 of 813: every mma, mma.sp, wmma, matrix move and the smaller
// wgmma shapes) round-trips both ways; the larger wgmma shapes have the same column kinds at a larger count,
// and the largest of them round-trip below (parsing all 850 MB of the catalog would cost minutes of test
// time). The size goal is measured over every variant.
TEST(JsonCompact, EveryVariantRoundTripsAndTheCatalogIsFiveTimesSmaller) {
    std::size_t full = 0, compact = 0, variants = 0, checked = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        const Instruction& in = Catalog::instance().instruction(*v);
        const std::string f = toJson(in), c = toCompactJson(in);
        full += f.size();
        compact += c.size();
        ++variants;
        if (f.size() < 1000000) {
            expectRoundTrip(v->spec, f, c);
            ++checked;
        }
        if (::testing::Test::HasFailure())
            return;
    }
    EXPECT_EQ(variants, Catalog::instance().variants().size());
    EXPECT_GT(checked, variants / 2);
    EXPECT_GE(full, 5 * compact) << "full " << full << " bytes, compact " << compact;
}

// The largest documents both ways: the widest D of each family, and B of .b1 in shared memory (65536 one-bit
// elements).
TEST(JsonCompact, LargestVariantsRoundTrip) {
    for (const char* spec : {"wgmma.m64n256k16.f16", "wgmma.m64n256k256.b1", "wgmma.sp.m64n256k32.f16",
                             "wgmma.m64n256k32.e4m3"}) {
        const Instruction& in = get(spec);
        expectRoundTrip(spec, toJson(in), toCompactJson(in));
    }
}

// Shared memory in the other layouts: MN-major without swizzle has no `linear` column; .b1 keeps `bit`.
TEST(JsonCompact, SharedMemoryLayoutsRoundTrip) {
    for (const char* spec : {"wgmma.m64n8k16.f16", "wgmma.m64n8k256.b1", "wgmma.m64n8k32.e4m3"})
        for (smem::Major major : {smem::Major::K, smem::Major::MN})
            for (smem::Swizzle swizzle :
                 {smem::Swizzle::None, smem::Swizzle::B32, smem::Swizzle::B64, smem::Swizzle::B128}) {
                const Instruction& in = get(spec);
                const smem::Choice choice{major, swizzle};
                std::string error;
                if (smem::operands(in, choice, error).empty())
                    continue; // a layout the variant cannot use (error says why): exported by nobody
                expectRoundTrip(spec, toJson(in, choice), toCompactJson(in, choice));
            }
}

TEST(JsonCompact, ColumnsOfM16n8k16) {
    const ordered_json doc = ordered_json::parse(toCompactJson(get("mma.m16n8k16.f16")));
    EXPECT_EQ(doc.begin().key(), "form");
    EXPECT_EQ(doc["form"], "compact");
    EXPECT_EQ(doc["spec"], "mma.m16n8k16.f16");
    const ordered_json& a = doc["operands"][0];
    EXPECT_EQ(a["name"], "A");
    EXPECT_EQ(a["registers"], 4);
    const ordered_json& e = a["elements"];
    EXPECT_EQ(e["count"], 256);
    const ordered_json& c = e["columns"];
    std::vector<std::string> keys;
    for (const auto& [k, v] : c.items())
        keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"thread", "index", "register", "bit", "row", "col", "source"}));
    // 32 threads x 8 elements, listed thread by thread: the loop bounds stand for 256 numbers each.
    EXPECT_EQ(c["thread"], (ordered_json{{"major", 8}}));
    EXPECT_EQ(c["index"], (ordered_json{{"minor", 8}}));
    EXPECT_EQ(c["source"], "doc");
    // Lane 13's a5, the element the full form's test reads: register 2, bits 16..31, row 3, col 11.
    const std::size_t i = 13 * 8 + 5;
    EXPECT_EQ(c["register"][i], 2);
    EXPECT_EQ(c["bit"][i], 16);
    EXPECT_EQ(c["row"][i], 3);
    EXPECT_EQ(c["col"][i], 11);
}

TEST(JsonCompact, ExportOptionChoosesTheFormAndOnlyForJson) {
    const Instruction& in = get("mma.m16n8k16.f16");
    ExportOptions o;
    o.compact = true;
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(in, ExportFormat::Json, o, doc, error)) << error;
    EXPECT_EQ(doc, toCompactJson(in));
    EXPECT_FALSE(exportInstruction(in, ExportFormat::Svg, o, doc, error));
    EXPECT_NE(error.find("--compact is a form of the json document"), std::string::npos) << error;
}

TEST(JsonCompact, ConvertersRefuseTheWrongFormWithAMessage) {
    const Instruction& in = get("mma.m16n8k16.f16");
    std::string error;
    EXPECT_TRUE(expandJson(toJson(in), error).empty());
    EXPECT_NE(error.find("not a compact document"), std::string::npos) << error;
    error.clear();
    EXPECT_TRUE(compactJson(toCompactJson(in), error).empty());
    EXPECT_NE(error.find("already \"form\": \"compact\""), std::string::npos) << error;
    error.clear();
    EXPECT_TRUE(expandJson("[1, 2", error).empty());
    EXPECT_NE(error.find("not a lanemap JSON document"), std::string::npos) << error;
    // A column one value short is named, with what a column may be.
    ordered_json bad = ordered_json::parse(toCompactJson(in));
    bad["operands"][0]["elements"]["columns"]["row"].erase(0); // a list: rows 0, 0, 8, 8, ...
    error.clear();
    EXPECT_TRUE(expandJson(bad.dump(), error).empty());
    EXPECT_NE(error.find("column \"row\""), std::string::npos) << error;
    EXPECT_NE(error.find("a column is a list of"), std::string::npos) << error;
}

TEST(Gzip, RoundTripsDeterministicallyAndRefusesOtherData) {
    const std::string doc = toJson(get("mma.m16n8k16.f16"));
    const std::string z = gzipBytes(doc);
    ASSERT_GE(z.size(), 18u);
    EXPECT_EQ(static_cast<unsigned char>(z[0]), 0x1f); // gzip magic: any gunzip reads it
    EXPECT_EQ(static_cast<unsigned char>(z[1]), 0x8b);
    EXPECT_LT(z.size() * 5, doc.size());
    EXPECT_EQ(z, gzipBytes(doc)) << "same document, same bytes";
    std::string back, error;
    ASSERT_TRUE(gunzipBytes(z, back, error)) << error;
    EXPECT_EQ(back, doc);
    EXPECT_FALSE(gunzipBytes(doc, back, error));
    EXPECT_NE(error.find("not gzip data"), std::string::npos) << error;
    EXPECT_FALSE(gunzipBytes(z.substr(0, z.size() / 2), back, error)) << "a file cut short";
    ASSERT_TRUE(gunzipBytes(gzipBytes(""), back, error)) << error;
    EXPECT_EQ(back, "");
}

} // namespace

} // namespace test_export_json_compact
