// Sparse documents: the JSON of docs/reference/json.md (compressed A "cols", the metadata operand with one
// entry per selector, candidates of unresolved mappings), the metadata text view like the PTX figures, and
// the spec grammar for sparse and block-scaled PTX strings.
#include "lanemap/catalog.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/export.hpp"
#include "lanemap/spec.hpp"

#include "sparse_unresolved.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace test_sparse_export {

using namespace lanemap;
using nlohmann::json;

namespace {

const Instruction& get(const char* spec) {
    return *Catalog::instance().instruction(spec);
}

const json& operand(const json& doc, const char* name) {
    for (const json& op : doc["operands"])
        if (op["name"] == name)
            return op;
    throw std::runtime_error(std::string("no operand ") + name);
}

// --- JSON
// ----------------------------------------------------------------------------------------------------

TEST(SparseJson, CompressedAElementsCarryTheirColumnRange) {
    const json doc = json::parse(toJson(get("mma.sp::ordered_metadata.m16n8k16.f16")));
    EXPECT_EQ(doc["family"], "mma.sp");
    EXPECT_EQ(doc["ordered_metadata"], true);
    EXPECT_EQ(doc["ptx"], "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    const json& a = operand(doc, "A");
    ASSERT_EQ(a["elements"].size(), 128u);
    const json& e = a["elements"][13 * 4 + 2]; // lane 13, a2: row 11, chunk [4..7]
    EXPECT_EQ(e, (json{{"thread", 13},
                       {"index", 2},
                       {"register", 1},
                       {"bit", 0},
                       {"row", 11},
                       {"cols", {4, 7}},
                       {"source", "doc"}}));
    EXPECT_FALSE(e.contains("col"));
    EXPECT_TRUE(operand(doc, "B")["elements"][0].contains("col"));
}

TEST(SparseJson, MetadataOperandHasOneEntryPerSelector) {
    const json doc = json::parse(toJson(get("mma.sp.m16n8k16.f16")));
    EXPECT_EQ(doc["ordered_metadata"], false);
    const json& md = operand(doc, "metadata");
    EXPECT_EQ(md["granularity"], "2:4");
    EXPECT_EQ(md["index_bits"], 2);
    EXPECT_EQ(md["chunk_cols"], 4);
    EXPECT_EQ(md["valid_values"].size(), 12u);
    ASSERT_EQ(md["selectors"].size(), 4u);
    for (int f = 0; f < 4; ++f) {
        const json& sel = md["selectors"][static_cast<std::size_t>(f)];
        EXPECT_EQ(sel["value"], f);
        ASSERT_EQ(sel["fields"].size(), 64u);
        // Fig. 119, confirmed on an H100 (resources/probe/h100-mma.json).
        EXPECT_EQ(
            sel["fields"][0],
            (json{{"thread", f}, {"bits", {3, 0}}, {"row", 0}, {"cols", {0, 3}}, {"source", "hardware"}}));
    }
    EXPECT_FALSE(md.contains("candidates"));
    const json ordered =
        operand(json::parse(toJson(get("mma.sp::ordered_metadata.m16n8k16.f16"))), "metadata");
    EXPECT_EQ(ordered["valid_values"], (json{4, 8, 9, 12, 13, 14}));
}

TEST(SparseJson, ResolvedMappingsListNoCandidates) {
    const json md = operand(json::parse(toJson(get("mma.sp.m16n8k32.s8"))), "metadata");
    EXPECT_FALSE(md.contains("candidates"));
    EXPECT_FALSE(md.contains("candidate"));
    EXPECT_EQ(md["selectors"][0]["fields"][0]["source"], "hardware");
}

TEST(SparseJson, UnresolvedMappingsListEveryCandidate) {
    const json md =
        operand(json::parse(toJson(lanemap::testing::unresolvedSparse("mma.sp.m16n8k32.s8"))), "metadata");
    EXPECT_EQ(md["candidate"], "rows-per-lane");
    ASSERT_EQ(md["candidates"].size(), 2u);
    EXPECT_EQ(md["candidates"][0]["name"], "rows-per-lane");
    EXPECT_EQ(md["candidates"][0]["primary"], true);
    EXPECT_EQ(md["candidates"][1]["name"], "k-halves-per-lane");
    EXPECT_EQ(md["candidates"][1]["primary"], false);
    EXPECT_EQ(md["candidates"][0]["selectors"], md["selectors"]);
    ASSERT_EQ(md["candidates"][1]["selectors"].size(), 2u);
    for (const json& c : md["candidates"])
        for (const json& s : c["selectors"])
            for (const json& f : s["fields"])
                EXPECT_EQ(f["source"], "inferred");
    // Selector 0, lane 0, bits [31..28]: row 0 cols [28..31] under rows-per-lane, row 8 cols [12..15] under
    // k-halves-per-lane.
    const json& rows = md["candidates"][0]["selectors"][0]["fields"][7];
    const json& halves = md["candidates"][1]["selectors"][0]["fields"][7];
    EXPECT_EQ(rows["thread"], 0);
    EXPECT_EQ(halves["thread"], 0);
    EXPECT_EQ(rows["cols"], (json{28, 31}));
    EXPECT_EQ(rows["row"], 0);
    EXPECT_EQ(halves["cols"], (json{12, 15}));
    EXPECT_EQ(halves["row"], 8);
}

TEST(SparseJson, EverySparseDocumentParsesAndIsDeterministic) {
    for (const Variant* v : Catalog::instance().variants()) {
        if (v->family->name != "mma.sp")
            continue;
        const std::string text = toJson(Catalog::instance().instruction(*v));
        const json doc = json::parse(text);
        EXPECT_EQ(doc["spec"], v->spec);
        EXPECT_EQ(doc["operands"].size(), 5u) << v->spec;
        EXPECT_EQ(text, toJson(Catalog::instance().instruction(*v)));
    }
}

// --- text
// ----------------------------------------------------------------------------------------------------

TEST(SparseText, MetadataGridLooksLikeThePtxFigure) {
    const std::string text = metadataTextGrid(get("mma.sp.m16n8k16.f16"), 0);
    EXPECT_NE(text.find("valid field values (plain .sp): 0b0001 0b0010"), std::string::npos) << text;
    EXPECT_NE(text.find("sparsity selector 0\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("sparsity selector 1"), std::string::npos) << "one selector only";
    EXPECT_NE(text.find("lanes supplying metadata: 0 4 8 12 16 20 24 28\n"), std::string::npos) << text;
    // Row 0: T0: [3..0] | T0: [7..4] | ...; row 8: T0: [19..16] ...
    std::istringstream lines(text);
    std::string line;
    std::vector<std::string> rows;
    while (std::getline(lines, line))
        if (line.rfind("  0 ", 0) == 0 || line.rfind("  8 ", 0) == 0)
            rows.push_back(line);
    ASSERT_EQ(rows.size(), 2u) << text;
    EXPECT_EQ(rows[0], "  0 T0: [3..0]    T0: [7..4]    T0: [11..8]   T0: [15..12]");
    EXPECT_EQ(rows[1], "  8 T0: [19..16]  T0: [23..20]  T0: [27..24]  T0: [31..28]");
}

TEST(SparseText, AllFourLanesAndCandidatesAreShown) {
    const std::string k64 = metadataTextGrid(get("mma.sp::ordered_metadata.m16n8k64.e4m3"));
    EXPECT_NE(k64.find("valid field values (::ordered_metadata): 0b0100 0b1000 0b1001 0b1100 0b1101 0b1110"),
              std::string::npos);
    EXPECT_NE(k64.find("lanes supplying metadata: 0 1 2 3 4"), std::string::npos);
    const std::string k32 = metadataTextGrid(lanemap::testing::unresolvedSparse("mma.sp.m16n8k32.u8"), 1);
    EXPECT_NE(k32.find("sparsity selector 1 — candidate 'rows-per-lane' (UNRESOLVED, inferred)"),
              std::string::npos)
        << k32;
    EXPECT_NE(
        k32.find("sparsity selector 1 — alternative candidate 'k-halves-per-lane' (UNRESOLVED, inferred)"),
        std::string::npos)
        << k32;
    EXPECT_EQ(k32.find("sparsity selector 0"), std::string::npos);
}

TEST(SparseText, CompressedAGridListsKeptElementsPerRange) {
    const Instruction& in = get("mma.sp.m16n8k32.s8");
    const std::string grid = toTextGrid(in, *in.operand(Operand::A));
    EXPECT_NE(grid.find("    [0..7]          [8..15]"), std::string::npos) << grid;
    EXPECT_NE(grid.find("  0 T0:a0,a1,a2,a3  T1:a0,a1,a2,a3"), std::string::npos) << grid;
    EXPECT_NE(grid.find(" 15 T28:a4,a5,a6,a7"), std::string::npos) << grid;
}

TEST(SparseText, WholeInstructionHonoursTheSelector) {
    std::string doc, error;
    Params params;
    params.selector = 2;
    ASSERT_TRUE(exportInstruction(*instantiate({Catalog::instance().variant("mma.sp.m16n8k8.tf32"), params}),
                                  ExportFormat::Text, {}, doc, error))
        << error;
    EXPECT_NE(doc.find("sparsity selector 2"), std::string::npos);
    EXPECT_EQ(doc.find("sparsity selector 1"), std::string::npos);
    params.selector = 1;
    error = validate({Catalog::instance().variant("mma.sp.m16n8k64.s8"), params});
    EXPECT_NE(error.find("sparsity selector 1 is not valid for mma.sp.m16n8k64.s8; valid selectors: 0"),
              std::string::npos)
        << error;
}

// --- spec grammar
// --------------------------------------------------------------------------------------------

struct Canon {
    const char* input;
    const char* spec;
};

class SparseCanonicalize : public ::testing::TestWithParam<Canon> {};

TEST_P(SparseCanonicalize, ToTheShortSpec) {
    const ParsedSpec p = parseSpec(GetParam().input, Catalog::instance());
    ASSERT_TRUE(p) << GetParam().input << ": " << p.error;
    EXPECT_EQ(p.variant->spec, GetParam().spec);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, SparseCanonicalize,
    ::testing::Values(
        Canon{"mma.sp.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", "mma.sp.m16n8k16.f16.f16"},
        Canon{"mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%f0,%f1,%f2,%f3}, "
              "{%r0,%r1,%r2,%r3}, {%r4,%r5,%r6,%r7}, {%f4,%f5,%f6,%f7}, %r8, 0x1;",
              "mma.sp::ordered_metadata.m16n8k32.bf16"},
        Canon{"mma.sp.sync.aligned.m16n8k64.row.col.satfinite.s32.u8.s8.s32", "mma.sp.m16n8k64.u8"},
        Canon{"mma.sp.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32", "mma.sp.m16n8k64.e5m2"},
        Canon{"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f16.e4m3.e4m3.f16",
              "mma.sp::ordered_metadata.m16n8k64.e4m3.f16"},
        Canon{"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::f8f6f4.f16.e3m2.e2m1.f16",
              "mma.sp::ordered_metadata.m16n8k64.kind::f8f6f4.e3m2.f16"},
        Canon{
            "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X."
            "f32.e2m1.e2m1.f32.ue8m0",
            "mma.sp::ordered_metadata.m16n8k64.kind::mxf8f6f4.e2m1"},
        Canon{"mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.kind::mxf8f6f4.block_scale.f32.e4m3."
              "e2m3.f32."
              "ue8m0",
              "mma.sp::ordered_metadata.m16n8k64.kind::mxf8f6f4.e4m3"},
        Canon{"mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1."
              "f32.ue8m0",
              "mma.sp::ordered_metadata.m16n8k128.kind::mxf4.e2m1"},
        Canon{"mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::"
              "4X.f32."
              "e2m1.e2m1.f32.ue4m3",
              "mma.sp::ordered_metadata.m16n8k128.kind::mxf4nvf4.e2m1"},
        Canon{"mma.sp::ordered_metadata.sync.aligned.m16n8k128.row.col.kind::mxf4nvf4.block_scale.scale_vec::"
              "2X.f32."
              "e2m1.e2m1.f32.ue8m0",
              "mma.sp::ordered_metadata.m16n8k128.kind::mxf4nvf4.e2m1"},
        Canon{"MMA.SP.M16N8K8.TF32", "mma.sp.m16n8k8.tf32"},
        Canon{"mma.sp.m16n8k128.u4.s32", "mma.sp.m16n8k128.u4"}));

TEST(SparseSpec, FormsThatNeedOrderedMetadataSaySo) {
    const ParsedSpec p = parseSpec("mma.sp.m16n8k64.e4m3.f16", Catalog::instance());
    ASSERT_FALSE(p);
    EXPECT_NE(p.error.find("mma.sp::ordered_metadata.m16n8k64.e4m3.f16 exists: this form needs "
                           "mma.sp::ordered_metadata"),
              std::string::npos)
        << p.error;
    const ParsedSpec q = parseSpec("mma.sp.m16n8k32.e4m3", Catalog::instance());
    ASSERT_FALSE(q);
    EXPECT_NE(q.error.find("valid types for mma.sp.m16n8k32"), std::string::npos) << q.error;
    EXPECT_FALSE(parseSpec("mma.sp.sp.m16n8k16.f16", Catalog::instance()));
}

} // namespace

} // namespace test_sparse_export
