// PTX qualifier validation: strings that are not real instructions are rejected with the offending qualifier
// named; the mixes the ISA allows are accepted and keep their own PTX spelling.
#include "lanemap/catalog.hpp"
#include "lanemap/spec.hpp"

#include <gtest/gtest.h>

namespace test_ptx_rules {

using namespace lanemap;

namespace {

const Catalog& cat() {
    return Catalog::instance();
}

struct Bad {
    const char* input;
    const char* named; // what the message must name
};

class RejectsImpossible : public ::testing::TestWithParam<Bad> {};

TEST_P(RejectsImpossible, NamingTheQualifier) {
    const ParsedSpec p = parseSpec(GetParam().input, cat());
    EXPECT_FALSE(p) << GetParam().input << " was accepted as " << (p.variant ? p.variant->spec : "");
    EXPECT_NE(p.error.find(GetParam().named), std::string::npos) << p.error;
}

INSTANTIATE_TEST_SUITE_P(
    Issue20, RejectsImpossible,
    ::testing::Values(
        Bad{"mma.sync.aligned.m16n8k16.row.col.f32.f16.s8.f32", "B type '.s8'"},
        Bad{"mma.sync.aligned.m8n8k4.row.col.f64.f64.b1.f64", "B type '.b1'"},
        Bad{"mma.sync.aligned.m16n8k16.row.col.f32.f16.e4m3.f32", "B type '.e4m3'"},
        Bad{"mma.sync.aligned.m16n8k16.row.col.f32.bf16.f16.f32", "B type '.f16'"},
        Bad{"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e2m1.f32", "B type '.e2m1'"}, // needs .kind::f8f6f4
        Bad{"mma.m16n8k16.kind::.f16", ".kind::"},
        Bad{"mma.sync.aligned.m16n8k16.row.col.kind::.f32.f16.f16.f32", ".kind::"},
        Bad{"mma.sync.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "'.sync'"},
        Bad{"mma.aligned.sync.m16n8k16.row.col.f32.f16.f16.f32", "'.aligned'"},
        Bad{"mma.sync.aligned.row.col.m16n8k16.f32.f16.f16.f32", "'.row'"},
        Bad{"mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32", "'.satfinite' does not apply"},
        Bad{"mma.sync.aligned.m16n8k32.row.col.satfinite.satfinite.s32.s8.s8.s32", "twice"},
        Bad{"mma.sync.aligned.m16n8k16.row.col.rn.f32.f16.f16.f32", "'.rn' does not apply"},
        Bad{"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32.popc", "'.popc'"},
        Bad{"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.popc",
            "'.popc' is not valid here (expected '.xor')"},
        Bad{"mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.popc.xor", "'.popc'"},
        Bad{"mma.sync.aligned.m16n8k16.row.col.block_scale.f32.f16.f16.f32", "'.block_scale'"},
        Bad{"mma.f16.m16n8k16", "out of order"}, Bad{"mma.m16n8k16.sp.f16", "out of order"},
        Bad{"mma.m16n8k16.f16.satfinite", "belongs to full PTX strings"}));

struct Mixed {
    const char* input;
    const char* spec;     // the variant whose layout it shares
    ElementType b;        // B as typed
    const char* ptxPiece; // in the PTX string of what was typed
};

class AcceptsMixes : public ::testing::TestWithParam<Mixed> {};

TEST_P(AcceptsMixes, WithTheirOwnSpelling) {
    const ParsedSpec p = parseSpec(GetParam().input, cat());
    ASSERT_TRUE(p) << GetParam().input << ": " << p.error;
    EXPECT_EQ(p.variant->spec, GetParam().spec);
    EXPECT_EQ(p.form.btype, GetParam().b);
    EXPECT_NE(p.ptx.find(GetParam().ptxPiece), std::string::npos) << p.ptx;
    const ParsedSpec again = parseSpec(p.ptx, cat());
    ASSERT_TRUE(again) << p.ptx << ": " << again.error;
    EXPECT_EQ(again.variant, p.variant);
    EXPECT_EQ(again.form, p.form);
}

INSTANTIATE_TEST_SUITE_P(
    Issue20, AcceptsMixes,
    ::testing::Values(Mixed{"mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32", "mma.m16n8k32.s8",
                            ElementType::U8, ".s8.u8."},
                      Mixed{"mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32", "mma.m16n8k32.u4",
                            ElementType::S4, ".u4.s4."},
                      Mixed{"mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e5m2.f32", "mma.m16n8k16.e4m3",
                            ElementType::E5M2, ".e4m3.e5m2."},
                      Mixed{"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e4m3.e2m1.f32",
                            "mma.m16n8k32.kind::f8f6f4.e4m3", ElementType::E2M1, ".e4m3.e2m1."},
                      Mixed{"mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e3m2.f32",
                            "mma.m16n8k32.kind::f8f6f4.e2m1", ElementType::E3M2, ".e2m1.e3m2."},
                      Mixed{"wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.u8", "wgmma.m64n128k32.s8",
                            ElementType::U8, ".s8.u8"},
                      Mixed{"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "mma.m16n8k16.bf16",
                            ElementType::BF16, ".bf16.bf16."},
                      Mixed{"mma.sync.aligned.m8n8k4.row.col.rn.f64.f64.f64.f64", "mma.m8n8k4.f64",
                            ElementType::F64, ".f64.f64."}));

TEST(PtxRules, B1OperationIsPartOfTheForm) {
    const ParsedSpec p = parseSpec("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", cat());
    ASSERT_TRUE(p) << p.error;
    EXPECT_EQ(p.form.b1, B1Op::And);
    EXPECT_NE(p.ptx.find(".and.popc"), std::string::npos) << p.ptx;
}

TEST(PtxRules, EveryCatalogSpellingStillParsesWithItsForm) {
    for (const Variant* v : cat().variants()) {
        for (const Form& f : v->forms) {
            const std::string s = ptxOf(*v, f);
            const ParsedSpec p = parseSpec(s, cat());
            ASSERT_TRUE(p) << s << ": " << p.error;
            // tcgen05.mma: M and N are in the instruction descriptor, not the string (test_spec.cpp).
            EXPECT_EQ(p.variant, tmem::mmaOf(*v) ? p.variant : v) << s;
            EXPECT_EQ(p.variant->ptx, v->ptx) << s;
            EXPECT_EQ(p.form, f) << s;
            EXPECT_EQ(p.ptx, s);
        }
    }
}

} // namespace

} // namespace test_ptx_rules
