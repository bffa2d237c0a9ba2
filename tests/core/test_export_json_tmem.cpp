// The "tensor_memory" member of a tcgen05.mma JSON document (docs/reference/tcgen05.md#json): every element
// of D where the data-path layout puts it, in both forms, and the compact form round-trips like the other
// element lists.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_json.hpp"
#include "lanemap/tmem.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace test_export_json_tmem {

using namespace lanemap;
using nlohmann::ordered_json;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

} // namespace

// A compact column's value for element i (docs/reference/json.md#compact-form).
long long columnValue(const ordered_json& c, std::size_t i) {
    if (c.is_array())
        return c[i].get<long long>();
    if (c.is_object())
        return c.contains("major") ? static_cast<long long>(i) / c["major"].get<long long>()
                                   : static_cast<long long>(i) % c["minor"].get<long long>();
    return c.get<long long>();
}

// Every tcgen05.mma entry, at its N: one element per D[m][n], each at placeD's CTA, lane and column (read
// from the compact form, which TheCompactFormRoundTrips ties to the full one: parsing every full document
// would cost the test suite half a minute).
TEST(JsonTensorMemory, EveryMmaEntryPlacesEveryElementOfD) {
    int entries = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!tmem::mmaOf(*v))
            continue;
        ++entries;
        const ordered_json doc = ordered_json::parse(toCompactJson(Catalog::instance().instruction(*v)));
        ASSERT_TRUE(doc.contains("tensor_memory")) << v->spec;
        ASSERT_EQ(doc["tensor_memory"].size(), 1u) << v->spec;
        const ordered_json& d = doc["tensor_memory"][0];
        const tmem::MmaShape& s = *tmem::mmaOf(*v);
        EXPECT_EQ(d["operand"], "D");
        EXPECT_EQ(d["layout"], std::string(tmem::toString(tmem::layoutOf(s).layout))) << v->spec;
        EXPECT_EQ(d["cta_group"], s.ctaGroup);
        EXPECT_EQ(d["lane_alignment"], s.laneAlignment);
        const std::size_t count = d["elements"]["count"];
        ASSERT_EQ(count, static_cast<std::size_t>(s.m * s.n)) << v->spec;
        const ordered_json& c = d["elements"]["columns"];
        int columns = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const int m = static_cast<int>(columnValue(c["row"], i)),
                      n = static_cast<int>(columnValue(c["col"], i));
            ASSERT_EQ(m * s.n + n, static_cast<int>(i)) << v->spec; // row by row
            const tmem::Placement p = tmem::placeD(s, m, n);
            ASSERT_EQ(columnValue(c["cta"], i), p.cta) << v->spec << " D(" << m << "," << n << ")";
            ASSERT_EQ(columnValue(c["lane"], i), p.lane) << v->spec << " D(" << m << "," << n << ")";
            ASSERT_EQ(columnValue(c["column"], i), p.column) << v->spec << " D(" << m << "," << n << ")";
            columns = std::max(columns, p.column + 1);
        }
        EXPECT_EQ(d["columns"], columns) << v->spec;
    }
    EXPECT_EQ(entries, 83);
    // Other families have none.
    EXPECT_FALSE(ordered_json::parse(toJson(get("tcgen05.ld.16x256b.x8"))).contains("tensor_memory"));
    EXPECT_FALSE(ordered_json::parse(toJson(get("mma.m16n8k16.f16"))).contains("tensor_memory"));
}

// Layout F with lane alignment 16: D(0,0) in lane 16, D(16,0) in lane 48 (the next subpartition's upper
// half).
TEST(JsonTensorMemory, TheHalfDatapathLayoutShowsItsLaneAlignment) {
    const ordered_json doc =
        ordered_json::parse(toJson(get("tcgen05.mma.cta_group::1.kind::f16.m64.lane16")));
    const ordered_json& elements = doc["tensor_memory"][0]["elements"];
    const int n = doc["tensor_memory"][0]["cols"];
    EXPECT_EQ(elements[0]["lane"], 16);
    EXPECT_EQ(elements[static_cast<std::size_t>(16 * n)]["lane"], 48);
}

// The compact form writes the element list as columns, and both converters give back the other form, for the
// largest entry (cta_group::2, M = 256, N = 256: 65536 elements) and for a layout of each organisation.
TEST(JsonTensorMemory, TheCompactFormRoundTrips) {
    for (const char* spec :
         {"tcgen05.mma.cta_group::2.kind::f16.m256", "tcgen05.mma.cta_group::2.kind::f16.m128",
          "tcgen05.mma.ws.cta_group::1.kind::f16.m64", "tcgen05.mma.ws.cta_group::1.kind::f16.m32",
          "tcgen05.mma.cta_group::1.kind::f16.m64.lane16", "tcgen05.mma.cta_group::1.kind::f16.m128"}) {
        const Instruction& in = get(spec);
        const std::string full = toJson(in), compact = toCompactJson(in);
        std::string error;
        EXPECT_EQ(expandJson(compact, error), ordered_json::parse(full).dump(1) + "\n") << spec << error;
        EXPECT_EQ(compactJson(full, error), ordered_json::parse(compact).dump(1) + "\n") << spec << error;
        EXPECT_LT(compact.size() * 5, full.size()) << spec;
    }
    // Layout D: lane = m and column = n, so the columns are the loop indices.
    const ordered_json c = ordered_json::parse(toCompactJson(get("tcgen05.mma.cta_group::1.kind::f16.m128")));
    const ordered_json& columns = c["tensor_memory"][0]["elements"]["columns"];
    EXPECT_EQ(columns["lane"], (ordered_json{{"major", 256}}));
    EXPECT_EQ(columns["column"], (ordered_json{{"minor", 256}}));
    EXPECT_EQ(columns["cta"], 0);
}

} // namespace test_export_json_tmem
