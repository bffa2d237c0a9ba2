// Spec grammar (docs/reference/spec-grammar.md): every variant round-trips through its short spec and its PTX
// string; invalid input is rejected with a message naming what is wrong and the nearest valid specs.
#include "lanemap/catalog.hpp"
#include "lanemap/spec.hpp"

#include <gtest/gtest.h>

namespace test_spec {

using namespace lanemap;

namespace {

const Catalog& cat() {
    return Catalog::instance();
}

TEST(Spec, EveryVariantRoundTripsThroughSpecAndPtx) {
    for (const Variant* v : cat().variants()) {
        const ParsedSpec bySpec = parseSpec(v->spec, cat());
        ASSERT_TRUE(bySpec) << v->spec << ": " << bySpec.error;
        EXPECT_EQ(bySpec.variant, v) << v->spec;
        const ParsedSpec byPtx = parseSpec(v->ptx, cat());
        ASSERT_TRUE(byPtx) << v->ptx << ": " << byPtx.error;
        if (tmem::mmaOf(*v)) {
            // A tcgen05.mma PTX string names no M or N (they are in the instruction descriptor): it stands
            // for the form with the largest M, which has the same string.
            EXPECT_EQ(byPtx.variant->ptx, v->ptx);
            EXPECT_GE(byPtx.variant->m, v->m) << v->ptx;
            continue;
        }
        EXPECT_EQ(byPtx.variant->spec, v->spec) << v->ptx;
        for (const Form& form : v->forms) {
            const std::string alias = ptxOf(*v, form);
            const ParsedSpec byAlias = parseSpec(alias, cat());
            ASSERT_TRUE(byAlias) << alias << ": " << byAlias.error;
            EXPECT_EQ(byAlias.variant->spec, v->spec) << alias;
        }
    }
}

struct Canon {
    const char* input;
    const char* spec;
};

class Canonicalize : public ::testing::TestWithParam<Canon> {};

TEST_P(Canonicalize, ToTheShortSpec) {
    const ParsedSpec p = parseSpec(GetParam().input, cat());
    ASSERT_TRUE(p) << GetParam().input << ": " << p.error;
    EXPECT_EQ(p.variant->spec, GetParam().spec);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, Canonicalize,
    ::testing::Values(
        Canon{"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "mma.m16n8k16.bf16"},
        Canon{"MMA.SYNC.ALIGNED.M16N8K16.ROW.COL.F16.F16.F16.F16", "mma.m16n8k16.f16.f16"},
        Canon{"  mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f0,%f1,%f2,%f3}, {%r0}, {%r1}, {%f4};",
              "mma.m16n8k8.tf32"},
        Canon{"mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32", "mma.m16n8k16.s8"},
        Canon{"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32", "mma.m16n8k32.u4"},
        Canon{"mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", "mma.m16n8k256.b1"},
        Canon{"mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16", "mma.m8n8k4.col.row.f16.f16.f32"},
        Canon{"mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16", "mma.m8n8k4.row.col.f16.f16"},
        Canon{"mma.sync.aligned.m16n8k8.row.col.rn.f64.f64.f64.f64", "mma.m16n8k8.f64"},
        Canon{"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f16.e2m1.e4m3.f16",
              "mma.m16n8k32.kind::f8f6f4.e2m1.f16"},
        Canon{"mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e4m3.f32", "mma.m16n8k16.e5m2"},
        Canon{"mma.m16n8k16.f16.f32", "mma.m16n8k16.f16"}, Canon{"mma.m8n8k4.f16", "mma.m8n8k4.row.col.f16"},
        Canon{"mma.m16n8k16.row.col.bf16", "mma.m16n8k16.bf16"},
        Canon{"mma.m8n8k128.b1.s32", "mma.m8n8k128.b1"}));

struct Bad {
    const char* input;
    const char* mustMention;
};

class Invalid : public ::testing::TestWithParam<Bad> {};

TEST_P(Invalid, IsRejectedWithAReason) {
    const ParsedSpec p = parseSpec(GetParam().input, cat());
    EXPECT_FALSE(p);
    EXPECT_NE(p.error.find(GetParam().mustMention), std::string::npos) << p.error;
    EXPECT_NE(p.error.find("nearest valid specs"), std::string::npos) << p.error;
    EXPECT_FALSE(p.suggestions.empty());
}

INSTANTIATE_TEST_SUITE_P(Examples, Invalid,
                         ::testing::Values(Bad{"mma.m16n8k16.f8", "unknown component 'f8'"},
                                           Bad{"mma.m16n8k12.f16", "unknown shape 'm16n8k12'"},
                                           Bad{"mma.m16n8k32.f16", "valid types for mma.m16n8k32"},
                                           Bad{"mma.m16n8k16.col.row.f16", "only .row.col"},
                                           Bad{"mma.m16n8k16.f16.f16.f16.f16.f16", "four types"},
                                           Bad{"cuda.m16n8k16.f16", "a spec starts with"},
                                           Bad{"mma.m16n8k16", "no element type"}, Bad{"mma.f16", "no shape"},
                                           Bad{"mma.m16n8k16..f16", "empty component"}));

TEST(Spec, SuggestionsAreNearValidSpecs) {
    const ParsedSpec p = parseSpec("mma.m16n8k16.f1", cat());
    ASSERT_FALSE(p);
    ASSERT_FALSE(p.suggestions.empty());
    EXPECT_EQ(p.suggestions.front(), "mma.m16n8k16.f16");
    for (const std::string& s : p.suggestions)
        EXPECT_NE(cat().variant(s), nullptr) << s;
}

TEST(Spec, EmptyInputNamesAnExample) {
    const ParsedSpec p = parseSpec("   ", cat());
    EXPECT_FALSE(p);
    EXPECT_NE(p.error.find("mma.m16n8k16.f16"), std::string::npos);
}

TEST(Spec, DefaultAccumulators) {
    EXPECT_EQ(defaultCtype("f16"), "f32");
    EXPECT_EQ(defaultCtype("tf32"), "f32");
    EXPECT_EQ(defaultCtype("e4m3"), "f32");
    EXPECT_EQ(defaultCtype("s8"), "s32");
    EXPECT_EQ(defaultCtype("b1"), "s32");
    EXPECT_EQ(defaultCtype("f64"), "f64");
}

} // namespace

} // namespace test_spec
