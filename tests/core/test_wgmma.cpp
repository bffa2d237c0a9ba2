// wgmma and wgmma.sp (PTX 9.1 §9.7.15; docs/reference/ptx-facts.md#wgmma, #sparse-metadata and
// #wgmma-fragments): every shape x type with its valid N, the spec grammar, the per-warp A and D fragments
// against the CUTLASS encodings of the ISA figures, sparse A chunks and metadata for every selector, and the
// JSON/text views with shared memory.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/spec.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace test_wgmma {

using namespace lanemap;
using nlohmann::json;

namespace {

const Catalog& cat() {
    return Catalog::instance();
}
const Instruction& get(const std::string& spec) {
    const Instruction* in = cat().instruction(spec);
    if (!in)
        throw std::runtime_error("not in catalog: " + spec);
    return *in;
}

std::vector<int> floatN() {
    std::vector<int> n;
    for (int i = 8; i <= 256; i += 8)
        n.push_back(i);
    return n;
}
const std::vector<int> kIntegerN{8,   16,  24,  32,  48,  64,  80,  96,  112,
                                 128, 144, 160, 176, 192, 208, 224, 240, 256};

// --- catalog: every shape x type of docs/reference/ptx-facts.md#wgmma with exactly its valid N -------------

struct Row {
    const char* prefix; // spec before N
    int k;
    const char* tail; // spec after k
    bool integer;
};

TEST(WgmmaCatalog, EveryShapeAndTypeHasExactlyItsValidN) {
    const Row rows[] = {
        {"wgmma", 16, "f16", false},         {"wgmma", 16, "f16.f16", false},
        {"wgmma", 16, "bf16", false},        {"wgmma", 8, "tf32", false},
        {"wgmma", 32, "e4m3", false},        {"wgmma", 32, "e4m3.f16", false},
        {"wgmma", 32, "e5m2", false},        {"wgmma", 32, "e5m2.f16", false},
        {"wgmma", 32, "s8", true},           {"wgmma", 32, "u8", true},
        {"wgmma", 256, "b1", true},          {"wgmma.sp", 32, "f16", false},
        {"wgmma.sp", 32, "f16.f16", false},  {"wgmma.sp", 32, "bf16", false},
        {"wgmma.sp", 16, "tf32", false},     {"wgmma.sp", 64, "e4m3", false},
        {"wgmma.sp", 64, "e5m2.f16", false}, {"wgmma.sp", 64, "s8", true},
        {"wgmma.sp", 64, "u8", true},
    };
    for (const Row& r : rows) {
        const std::vector<int> valid = r.integer ? kIntegerN : floatN();
        for (int n = 8; n <= 256; n += 8) {
            const std::string spec = std::string(r.prefix) + ".m64n" + std::to_string(n) + "k" +
                                     std::to_string(r.k) + "." + r.tail;
            const bool expected = std::find(valid.begin(), valid.end(), n) != valid.end();
            EXPECT_EQ(cat().variant(spec) != nullptr, expected) << spec;
        }
    }
    int dense = 0, sparse = 0;
    for (const Variant* v : cat().variants()) {
        dense += v->family->name == "wgmma";
        sparse += v->family->name == "wgmma.sp";
        if (v->family->name == "wgmma" || v->family->name == "wgmma.sp") {
            EXPECT_EQ(v->scope, Scope::Warpgroup);
            EXPECT_EQ(v->threads, 128);
            EXPECT_EQ(v->m, 64);
            EXPECT_EQ(v->minSm, 90);
        }
    }
    // f16 x {f32, f16}, bf16, tf32, e4m3/e5m2 x {f32, f16}: 8 x 32; s8, u8, b1: 3 x 18.
    EXPECT_EQ(dense, 8 * 32 + 3 * 18);
    // f16 x 2, bf16, tf32, e4m3/e5m2 x 2: 8 x 32; s8, u8: 2 x 18.
    EXPECT_EQ(sparse, 8 * 32 + 2 * 18);
    EXPECT_EQ(cat().variant("wgmma.m64n8k16.bf16.f16"), nullptr) << "ptxas rejects bf16 with f16 D";
    EXPECT_EQ(cat().variant("wgmma.m64n8k8.tf32.f16"), nullptr);
    EXPECT_EQ(cat().variant("wgmma.sp.m64n8k256.b1"), nullptr) << "no sparse b1";
}

// --- spec grammar ----------------------------------------------------------------------------------------

struct Canon {
    const char* input;
    const char* spec;
};

class WgmmaSpec : public ::testing::TestWithParam<Canon> {};

TEST_P(WgmmaSpec, Canonicalizes) {
    const ParsedSpec p = parseSpec(GetParam().input, cat());
    ASSERT_TRUE(p) << GetParam().input << ": " << p.error;
    EXPECT_EQ(p.variant->spec, GetParam().spec);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, WgmmaSpec,
    ::testing::Values(
        Canon{"wgmma.m64n128k16.f16", "wgmma.m64n128k16.f16"},
        Canon{"wgmma.m64n128k16.f16.f16", "wgmma.m64n128k16.f16.f16"},
        Canon{"wgmma.m64n128k16.f16.f32", "wgmma.m64n128k16.f16"},
        Canon{"wgmma.m64n256k256.b1", "wgmma.m64n256k256.b1"},
        Canon{"wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16", "wgmma.m64n128k16.bf16"},
        Canon{"wgmma.mma_async.sync.aligned.m64n64k16.f16.f16.f16", "wgmma.m64n64k16.f16.f16"},
        Canon{"wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32", "wgmma.m64n8k8.tf32"},
        Canon{"wgmma.mma_async.sync.aligned.m64n24k32.s32.s8.u8", "wgmma.m64n24k32.s8"},
        Canon{"wgmma.mma_async.sync.aligned.m64n24k32.satfinite.s32.u8.s8", "wgmma.m64n24k32.u8"},
        Canon{"wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8.satfinite", "wgmma.m64n256k32.s8"},
        Canon{"wgmma.mma_async.sync.aligned.m64n200k32.f16.e5m2.e4m3", "wgmma.m64n200k32.e5m2.f16"},
        Canon{"wgmma.mma_async.sync.aligned.m64n256k256.s32.b1.b1.and.popc", "wgmma.m64n256k256.b1"},
        Canon{"wgmma.mma_async.sp.sync.aligned.m64n64k32.f16.f16.f16", "wgmma.sp.m64n64k32.f16.f16"},
        Canon{"wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32", "wgmma.sp.m64n8k16.tf32"},
        Canon{"wgmma.mma_async.sp.sync.aligned.m64n48k64.s32.u8.s8", "wgmma.sp.m64n48k64.u8"},
        Canon{"  wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd0, %rd1, p, 1, "
              "1, 0, 0;",
              "wgmma.m64n8k16.f16"},
        Canon{"wgmma.sp.m64n16k64.e4m3", "wgmma.sp.m64n16k64.e4m3"}));

struct Bad {
    const char* input;
    const char* mustMention;
};

class WgmmaInvalid : public ::testing::TestWithParam<Bad> {};

TEST_P(WgmmaInvalid, IsRejectedWithTheValidChoices) {
    const ParsedSpec p = parseSpec(GetParam().input, cat());
    EXPECT_FALSE(p);
    EXPECT_NE(p.error.find(GetParam().mustMention), std::string::npos) << p.error;
    EXPECT_NE(p.error.find("nearest valid specs"), std::string::npos) << p.error;
}

INSTANTIATE_TEST_SUITE_P(
    Examples, WgmmaInvalid,
    ::testing::Values(
        // n136 exists for fp8 at k32 but not for s8: the message lists the integer N.
        Bad{"wgmma.m64n136k32.s8", "N of m64n136k32 is not valid for wgmma .s8; valid N: 8, 16, 24, 32, 48, "
                                   "64, 80, 96, 112, 128, 144, 160, "
                                   "176, 192, 208, 224, 240, 256"},
        Bad{"wgmma.mma_async.sync.aligned.m64n40k256.s32.b1.b1.and.popc", "valid N: 8, 16, 24, 32, 48,"},
        Bad{"wgmma.m64n12k16.f16", "valid N: 8, 16, 24, 32, 40, 48,"},
        Bad{"wgmma.m64n264k16.f16", "valid N: 8, 16, 24"},
        Bad{"wgmma.sp.m64n136k64.u8", "N of m64n136k64 is not valid for wgmma.sp .u8"},
        Bad{"wgmma.m64n8k16.bf16.f16", "bf16 (accumulator f32)"},
        Bad{"wgmma.m64n8k64.f16", "valid shapes: m64nNk16, m64nNk256, m64nNk32, m64nNk8"},
        Bad{"wgmma.mma_async.sync.aligned.m64n8k16.f32.f16", "three types"}));

// --- D: the mma m16n8 accumulator of warp w, repeated every 8 columns -----------------------------------

TEST(WgmmaD, ThreadZeroHoldsRowsZeroAndEightRepeatedEveryEightColumns) {
    const Instruction& in = get("wgmma.m64n64k16.f16");
    const FragmentLayout& d = *in.operand(Operand::D);
    EXPECT_EQ(d.registers(), 32);
    const std::pair<int, int> expect[] = {{0, 0}, {0, 1}, {8, 0}, {8, 1}, {0, 8}, {0, 9}, {8, 8}, {8, 9}};
    for (int v = 0; v < 8; ++v) {
        EXPECT_EQ(d.element(0, v).row, expect[v].first) << "d" << v;
        EXPECT_EQ(d.element(0, v).col, expect[v].second) << "d" << v;
        EXPECT_EQ(in.sourceOf(d.element(0, v).source), Source::Hardware);
    }
    // Thread 127: warp 3, groupID 7, threadID_in_group 3.
    EXPECT_EQ(d.element(127, 0).row, 55);
    EXPECT_EQ(d.element(127, 0).col, 6);
    EXPECT_EQ(d.element(127, 31).row, 63);
    EXPECT_EQ(d.element(127, 31).col, 63);
}

TEST(WgmmaD, F16AccumulatorsPackTwoPerRegister) {
    const FragmentLayout& d16 = *get("wgmma.m64n256k16.f16.f16").operand(Operand::D);
    EXPECT_EQ(d16.registers(), 64); // N/4 .f16x2
    EXPECT_EQ(d16.elementsPerRegister(), 2);
    EXPECT_EQ(d16.element(5, 3).reg, 1);
    EXPECT_EQ(d16.element(5, 3).bit, 16);
    const FragmentLayout& d32 = *get("wgmma.m64n256k16.f16").operand(Operand::D);
    EXPECT_EQ(d32.registers(), 128); // N/2 .f32
    EXPECT_EQ(d32.element(5, 3).reg, 3);
    EXPECT_EQ(d32.element(5, 3).bit, 0);
    // Same (row, col) whatever the packing.
    for (int thread = 0; thread < 128; thread += 7)
        for (int v = 0; v < 128; v += 5) {
            EXPECT_EQ(d16.element(thread, v).row, d32.element(thread, v).row);
            EXPECT_EQ(d16.element(thread, v).col, d32.element(thread, v).col);
        }
    EXPECT_EQ(get("wgmma.m64n8k32.s8").operand(Operand::D)->registers(), 4);
}

// CUTLASS CLayout_64xN = ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)) over (M64, N), index = m + 64 n.
TEST(WgmmaD, MatchesCutlassCLayoutForEveryN) {
    for (int n : floatN()) {
        const FragmentLayout& d = *get("wgmma.m64n" + std::to_string(n) + "k16.f16").operand(Operand::D);
        for (int tid = 0; tid < 128; ++tid)
            for (int v = 0; v < n / 2; ++v) {
                const int t0 = tid % 4, t1 = (tid / 4) % 8, t2 = tid / 32;
                const int v0 = v % 2, v1 = (v / 2) % 2, v2 = v / 4;
                const int index = 128 * t0 + t1 + 16 * t2 + 64 * v0 + 8 * v1 + 512 * v2;
                ASSERT_EQ(d.element(tid, v).row, index % 64) << n << " " << tid << " " << v;
                ASSERT_EQ(d.element(tid, v).col, index / 64) << n << " " << tid << " " << v;
            }
    }
}

// Every N's D is cut from the N = 256 one (FragmentLayout::leadingRegisters) instead of evaluated again: it
// must be exactly what the formula gives for that N, inverse map included.
Cell formulaD(const Lane& l, int v, int) {
    return {16 * l.warp + l.groupID + 8 * ((v >> 1) & 1), 8 * (v >> 2) + 2 * l.threadID_in_group + (v & 1)};
}

TEST(WgmmaD, EveryNIsTheFormulaEvaluatedForThatN) {
    for (const char* ctype : {"f32", "f16"})
        for (int n : floatN()) {
            const std::string spec = std::string("wgmma.m64n") + std::to_string(n) + "k16.f16" +
                                     (std::string_view(ctype) == "f16" ? ".f16" : "");
            const FragmentLayout& d = *get(spec).operand(Operand::D);
            const int perRegister = std::string_view(ctype) == "f16" ? 2 : 1;
            const FragmentLayout direct = FragmentLayout::build(
                Operand::D, *parseElementType(ctype), perRegister == 2 ? 16 : 32, 128,
                {64, n, 1, n / 2 / perRegister, 32, perRegister}, formulaD, n, Source::Figure);
            ASSERT_EQ(d.registers(), direct.registers()) << spec;
            ASSERT_EQ(d.cols(), n) << spec;
            ASSERT_EQ(d.elements().size(), direct.elements().size()) << spec;
            for (std::size_t i = 0; i < d.elements().size(); ++i) {
                const Element &a = d.elements()[i], &b = direct.elements()[i];
                ASSERT_TRUE(a.thread == b.thread && a.index == b.index && a.reg == b.reg && a.bit == b.bit &&
                            a.row == b.row && a.col == b.col && a.colLast == b.colLast &&
                            a.source == b.source)
                    << spec << " element " << i;
            }
            for (int r = 0; r < 64; ++r)
                for (int c = 0; c < n; ++c) {
                    const auto owners = d.owners(r, c);
                    ASSERT_EQ(owners.size(), 1u) << spec << " (" << r << ", " << c << ")";
                    EXPECT_EQ(owners[0].row, r);
                    ASSERT_EQ(owners[0].col, c) << spec;
                }
            EXPECT_TRUE(d.owners(0, n).empty()) << spec << ": column N is outside the grid";
        }
}

TEST(WgmmaD, ACutThatDoesNotFillItsColumnsIsRefused) {
    const FragmentLayout& d = *get("wgmma.m64n256k16.f16").operand(Operand::D);
    // 8 registers per thread hold columns 0..15; asking for 8 columns must fail, not drop elements.
    EXPECT_THROW(FragmentLayout::leadingRegisters(d, 8, 8), std::logic_error);
    EXPECT_THROW(FragmentLayout::leadingRegisters(d, 129, 256), std::logic_error);
    EXPECT_EQ(FragmentLayout::leadingRegisters(d, 8, 16).owners(15, 15).size(), 1u);
    // A chunked (sparse) layout has no one-owner-per-cell inverse to cut.
    const FragmentLayout& spA = *get("wgmma.sp.m64n8k32.f16").operand(Operand::A);
    EXPECT_THROW(FragmentLayout::leadingRegisters(spA, 2, 16), std::logic_error);
    // The right number of elements in the wrong columns: mma.m16n8k16's A register a0 holds rows 0-7,
    // columns 0-7 and a1 rows 8-15 of them (Fig. 79), so a0 and a1 are columns 0-7 of every row, while a0
    // alone has as many elements as columns 0-3 but reaches column 7.
    const FragmentLayout& a = *get("mma.m16n8k16.f16").operand(Operand::A);
    EXPECT_THROW(FragmentLayout::leadingRegisters(a, 1, 4), std::logic_error);
    const FragmentLayout half = FragmentLayout::leadingRegisters(a, 2, 8);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 8; ++c)
            ASSERT_EQ(half.owners(r, c).front(), a.owners(r, c).front()) << r << ", " << c;
    // A cut of that cut is judged by the elements it reads, the full layout's: a0 alone still reaches
    // column 7.
    EXPECT_THROW(FragmentLayout::leadingRegisters(half, 1, 4), std::logic_error);
}

// A cut of a cut keeps the leading registers of the layout that holds the elements: the m64n64 D cut from
// the m64n128 one, itself cut from the m64n256 one, is the m64n64 D, element for element and cell for cell.
TEST(WgmmaD, ACutOfACutIsTheNarrowerD) {
    const FragmentLayout& d256 = *get("wgmma.m64n256k16.f16").operand(Operand::D);
    const FragmentLayout& d64 = *get("wgmma.m64n64k16.f16").operand(Operand::D);
    const FragmentLayout twice =
        FragmentLayout::leadingRegisters(FragmentLayout::leadingRegisters(d256, 64, 128), 32, 64);
    ASSERT_EQ(twice.elements().size(), d64.elements().size());
    EXPECT_TRUE(std::equal(twice.elements().begin(), twice.elements().end(), d64.elements().begin()));
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 64; ++c)
            ASSERT_EQ(twice.owners(r, c).front(), d64.owners(r, c).front()) << r << ", " << c;
}

// A cut reads the full layout's elements and inverse map where they are (the catalog would otherwise hold
// every N's D again, 8.9 MB, and build an inverse map for each): walking it, indexing it and asking
// element(thread, index) must all give the kept registers of every thread in (thread, index) order, and the
// owner of each cell in the kept columns must be the full layout's.
TEST(WgmmaD, ACutReadsTheFullLayoutInPlace) {
    const FragmentLayout& full = *get("wgmma.m64n256k16.f16").operand(Operand::D);
    for (const int n : {8, 24, 128, 248}) {
        const FragmentLayout cut = FragmentLayout::leadingRegisters(full, n / 2, n);
        const ElementRange elements = cut.elements();
        EXPECT_EQ(elements.storage(), full.elements().storage()) << n << ": the cut copied its elements";
        ASSERT_EQ(elements.size(), static_cast<std::size_t>(128 * n / 2));
        std::size_t k = 0;
        for (const Element& e : elements) {
            const int thread = static_cast<int>(k) / (n / 2), index = static_cast<int>(k) % (n / 2);
            ASSERT_EQ(&e, &full.element(thread, index)) << n << " element " << k;
            ASSERT_EQ(&e, &elements[k]) << n << " element " << k;
            ASSERT_EQ(&e, &cut.element(thread, index)) << n << " element " << k;
            ++k;
        }
        EXPECT_EQ(k, elements.size()) << n << ": the walk stopped early or ran past the last thread";
        EXPECT_EQ(&elements.back(), &full.element(127, n / 2 - 1));
        for (int r = 0; r < 64; ++r)
            for (int c = 0; c < n; ++c) {
                const auto owners = cut.owners(r, c);
                ASSERT_EQ(owners.size(), 1u) << n << " (" << r << ", " << c << ")";
                ASSERT_EQ(&owners[0], &full.owners(r, c)[0]) << n << " (" << r << ", " << c << ")";
                ASSERT_TRUE(owners[0].row == r && owners[0].col == c) << n << " (" << r << ", " << c << ")";
                ASSERT_EQ(cut.ownerSlots(r, c).data(), full.ownerSlots(r, c).data())
                    << n << ": the cut built an inverse map of its own";
                ASSERT_EQ(&cut.element(cut.ownerSlots(r, c)[0]), &owners[0]);
            }
    }
    // A layout of its own is contiguous; an empty range walks nothing.
    EXPECT_TRUE(full.elements().contiguous());
    EXPECT_EQ(std::distance(full.elements().begin(), full.elements().end()), 128 * 128);
    const ElementRange none;
    EXPECT_TRUE(none.begin() == none.end());
}

TEST(WgmmaMetadata, EveryNOfARowSharesOneTable) {
    EXPECT_EQ(get("wgmma.sp.m64n8k32.f16").metadata, get("wgmma.sp.m64n256k32.f16").metadata);
    EXPECT_EQ(get("wgmma.sp.m64n8k32.f16").metadata, get("wgmma.sp.m64n128k32.bf16").metadata);
    EXPECT_NE(get("wgmma.sp.m64n8k32.f16").metadata, get("wgmma.sp.m64n8k16.tf32").metadata);
}

// --- A in registers: per warp the dense mma A fragment, and CUTLASS's ALayout ---------------------------

struct ACase {
    const char* wgmma;
    const char* mma;
};

TEST(WgmmaA, EachWarpHoldsTheMmaAFragmentOfItsSixteenRows) {
    const ACase cases[] = {
        {"wgmma.m64n8k16.f16", "mma.m16n8k16.f16"}, {"wgmma.m64n8k16.bf16", "mma.m16n8k16.bf16"},
        {"wgmma.m64n8k8.tf32", "mma.m16n8k8.tf32"}, {"wgmma.m64n8k32.e4m3", "mma.m16n8k32.e4m3"},
        {"wgmma.m64n8k32.u8", "mma.m16n8k32.u8"},   {"wgmma.m64n8k256.b1", "mma.m16n8k256.b1"}};
    for (const ACase& c : cases) {
        const FragmentLayout& a = *get(c.wgmma).operand(Operand::A);
        const FragmentLayout& ref = *get(c.mma).operand(Operand::A);
        ASSERT_EQ(a.elementsPerThread(), ref.elementsPerThread()) << c.wgmma;
        EXPECT_EQ(a.registers(), 4) << c.wgmma;
        for (int tid = 0; tid < 128; ++tid)
            for (int i = 0; i < a.elementsPerThread(); ++i) {
                const Element& e = a.element(tid, i);
                const Element& r = ref.element(tid % 32, i);
                ASSERT_EQ(e.row, r.row + 16 * (tid / 32)) << c.wgmma << " T" << tid << " a" << i;
                ASSERT_EQ(e.col, r.col) << c.wgmma << " T" << tid << " a" << i;
                ASSERT_EQ(e.bit, r.bit);
            }
    }
    for (const char* spec : {"wgmma.m64n8k256.b1", "wgmma.m64n8k16.f16"}) {
        const Instruction& in = get(spec);
        EXPECT_EQ(in.sourceOf(in.operand(Operand::A)->element(0, 0).source), Source::Hardware) << spec;
    }
}

// A CuTe thread-value layout over (M64, K), index = m + 64 k: thread modes (4,8,4), value modes as given.
struct CuteTV {
    int tStride0; // threadID_in_group stride
    std::vector<int> vShape, vStride;
};

std::pair<int, int> evalTV(const CuteTV& tv, int tid, int v) {
    int index = tv.tStride0 * (tid % 4) + (tid / 4) % 8 + 16 * (tid / 32);
    for (std::size_t i = 0; i < tv.vShape.size(); ++i) {
        index += (v % tv.vShape[i]) * tv.vStride[i];
        v /= tv.vShape[i];
    }
    return {index % 64, index / 64};
}

TEST(WgmmaA, MatchesCutlassALayouts) {
    const std::pair<const char*, CuteTV> cases[] = {
        {"wgmma.m64n16k16.f16", {128, {2, 2, 2}, {64, 8, 512}}}, // ALayout_64x16
        {"wgmma.m64n16k8.tf32", {64, {2, 2}, {8, 256}}},         // ALayout_64x8
        {"wgmma.m64n16k32.s8", {256, {4, 2, 2}, {64, 8, 1024}}}, // ALayout_64x32
    };
    for (const auto& [spec, tv] : cases) {
        const FragmentLayout& a = *get(spec).operand(Operand::A);
        for (int tid = 0; tid < 128; ++tid)
            for (int v = 0; v < a.elementsPerThread(); ++v) {
                const auto [m, k] = evalTV(tv, tid, v);
                ASSERT_EQ(a.element(tid, v).row, m) << spec << " T" << tid << " a" << v;
                ASSERT_EQ(a.element(tid, v).col, k) << spec << " T" << tid << " a" << v;
            }
    }
}

// --- sparse A: chunks, and CUTLASS's logical-K layouts ---------------------------------------------------

TEST(WgmmaSparseA, ChunksMatchCutlassLogicalPositions) {
    // CUTLASS lays sparse A out over the logical (uncompressed) K: ALayout_64x32 for .f16 k32, ALayout_64x16
    // for .tf32 k16, ALayout_64x64 for 8-bit k64. Each thread's logical positions are exactly the union of
    // its chunks, and each register's non-zeros come from one chunk of one row.
    const std::pair<const char*, CuteTV> cases[] = {
        {"wgmma.sp.m64n8k32.f16", {256, {4, 2, 2}, {64, 8, 1024}}},
        {"wgmma.sp.m64n8k16.tf32", {128, {2, 2, 2}, {64, 8, 512}}},
        {"wgmma.sp.m64n8k64.e4m3", {512, {8, 2, 2}, {64, 8, 2048}}},
    };
    for (const auto& [spec, tv] : cases) {
        const FragmentLayout& a = *get(spec).operand(Operand::A);
        ASSERT_TRUE(a.chunked()) << spec;
        const int logical = a.elementsPerThread() * 2; // 50 % sparsity
        for (int tid = 0; tid < 128; ++tid) {
            std::set<std::pair<int, int>> cutlass, ours;
            for (int v = 0; v < logical; ++v)
                cutlass.insert(evalTV(tv, tid, v));
            for (int i = 0; i < a.elementsPerThread(); ++i) {
                const Element& e = a.element(tid, i);
                for (int c = e.col; c <= e.colLast; ++c)
                    ours.insert({e.row, c});
                const Element& first = a.element(tid, e.reg * a.elementsPerRegister());
                EXPECT_EQ(e.row, first.row);
                EXPECT_EQ(e.col, first.col) << "one chunk per register";
            }
            ASSERT_EQ(ours, cutlass) << spec << " T" << tid;
        }
    }
}

TEST(WgmmaSparseA, EveryChunkOfEveryRowHasItsNonZeros) {
    const std::tuple<const char*, int, int> cases[] = {
        {"wgmma.sp.m64n8k32.bf16", 4, 2}, {"wgmma.sp.m64n8k16.tf32", 2, 1}, {"wgmma.sp.m64n8k64.s8", 8, 4}};
    for (const auto& [spec, chunk, nonZeros] : cases) {
        const FragmentLayout& a = *get(spec).operand(Operand::A);
        std::map<std::pair<int, int>, int> count;
        for (const Element& e : a.elements()) {
            ASSERT_EQ(e.colLast - e.col + 1, chunk) << spec;
            ASSERT_EQ(e.col % chunk, 0) << spec;
            ASSERT_EQ(e.row / 16, e.thread / 32) << "warp w holds rows 16w..16w+15";
            ++count[{e.row, e.col}];
        }
        EXPECT_EQ(count.size(), static_cast<std::size_t>(64 * a.cols() / chunk)) << spec;
        for (const auto& [cell, n] : count)
            EXPECT_EQ(n, nonZeros) << spec << " row " << cell.first;
    }
}

// --- metadata: every selector, per warp, against CUTLASS's ELayouts --------------------------------------

struct MetaCase {
    const char* spec;
    int selectors;
    int chunk;
    int bitsPerValue;                 // metadata bits per CUTLASS value
    std::vector<int> tShape, tStride; // lane modes (2,2,8) then warp 4 (stride 16)
    std::vector<int> vShape, vStride;
};

TEST(WgmmaMetadata, CoversEveryChunkOnceForEverySelectorAndMatchesCutlass) {
    const MetaCase cases[] = {
        // ELayout_64x32 = ((2,2,8,4),(16,2)):((1024,0,1,16),(64,8)); lane bit 1 = the selector pair.
        {"wgmma.sp.m64n8k32.f16", 2, 4, 1, {2, 2, 8, 4}, {1024, 0, 1, 16}, {16, 2}, {64, 8}},
        // ELayout_64x16 = ((2,2,8,4),(8,2)):((512,0,1,16),(64,8)); 2 metadata bits per tf32 column.
        {"wgmma.sp.m64n8k16.tf32", 2, 2, 2, {2, 2, 8, 4}, {512, 0, 1, 16}, {8, 2}, {64, 8}},
        // ELayout_64x64 = ((2,2,8,4),32):((8,2048,1,16),64); selector 0 only.
        {"wgmma.sp.m64n8k64.u8", 1, 4, 1, {2, 2, 8, 4}, {8, 2048, 1, 16}, {32}, {64}},
    };
    for (const MetaCase& c : cases) {
        const Instruction& in = get(c.spec);
        ASSERT_TRUE((in.metadata != nullptr)) << c.spec;
        ASSERT_EQ(in.metadata->selectors.size(), static_cast<std::size_t>(c.selectors)) << c.spec;
        for (const MetadataSelector& sel : in.metadata->selectors) {
            std::map<std::pair<int, int>, int> cover;
            std::map<int, std::uint32_t> bitsOfThread;
            for (const MetadataField& f : sel.fields) {
                EXPECT_EQ(in.sourceOf(f.source), Source::Hardware);
                EXPECT_EQ(f.row / 16, f.thread / 32) << "each warp supplies its own 16 rows";
                EXPECT_EQ(f.colLast - f.colFirst + 1, c.chunk);
                const std::uint32_t mask = ((1u << (f.bitHi - f.bitLo + 1)) - 1u) << f.bitLo;
                EXPECT_EQ(bitsOfThread[f.thread] & mask, 0u) << "fields of one thread do not overlap";
                bitsOfThread[f.thread] |= mask;
                ++cover[{f.row, f.colFirst}];
                if (c.selectors == 2) {
                    EXPECT_EQ((f.thread % 4) / 2, sel.value) << "selector F uses lanes 4g+2F, 4g+2F+1";
                }
            }
            EXPECT_EQ(cover.size(), static_cast<std::size_t>(64 * in.k / c.chunk)) << c.spec;
            for (const auto& [cell, n] : cover)
                EXPECT_EQ(n, 1);
            for (const auto& [thread, bits] : bitsOfThread)
                EXPECT_EQ(bits, 0xFFFFFFFFu) << "T" << thread;
            // CUTLASS: thread/value -> (m, k); the field holding that bit covers (m, k).
            for (int tid = 0; tid < 128; ++tid) {
                int index0 = 0, rest = tid;
                for (std::size_t i = 0; i < c.tShape.size(); ++i) {
                    index0 += (rest % c.tShape[i]) * c.tStride[i];
                    rest /= c.tShape[i];
                }
                if (c.selectors == 2 && (tid % 4) / 2 != sel.value)
                    continue;
                int values = 1;
                for (int s : c.vShape)
                    values *= s;
                for (int v = 0; v < values; ++v) {
                    int index = index0, vr = v;
                    for (std::size_t i = 0; i < c.vShape.size(); ++i) {
                        index += (vr % c.vShape[i]) * c.vStride[i];
                        vr /= c.vShape[i];
                    }
                    const int m = index % 64, k = index / 64, bit = v * c.bitsPerValue;
                    bool found = false;
                    for (const MetadataField& f : sel.fields)
                        if (f.thread == tid && f.bitLo <= bit && bit <= f.bitHi) {
                            found = true;
                            EXPECT_EQ(f.row, m) << c.spec << " T" << tid << " bit " << bit;
                            EXPECT_LE(f.colFirst, k);
                            EXPECT_GE(f.colLast, k);
                        }
                    EXPECT_TRUE(found) << c.spec << " T" << tid << " bit " << bit;
                }
            }
        }
    }
}

TEST(WgmmaMetadata, GranularityAndIndexBits) {
    EXPECT_EQ(get("wgmma.sp.m64n8k32.f16").metadata->granularity, "2:4");
    EXPECT_EQ(get("wgmma.sp.m64n8k32.f16").metadata->indexBits, 2);
    EXPECT_EQ(get("wgmma.sp.m64n8k16.tf32").metadata->granularity, "1:2");
    EXPECT_EQ(get("wgmma.sp.m64n8k16.tf32").metadata->indexBits, 4);
    EXPECT_EQ(get("wgmma.sp.m64n8k64.e5m2").metadata->granularity, "2:4");
    EXPECT_EQ(get("wgmma.m64n8k16.f16").metadata, nullptr);
}

// --- errata and notes --------------------------------------------------------------------------------------

TEST(WgmmaErrata, AreAttachedWhereTheManualIsWrong) {
    auto has = [](const Instruction& in, const char* id) {
        for (const Erratum& e : in.errata)
            if (e.id == id)
                return true;
        return false;
    };
    EXPECT_TRUE(has(get("wgmma.sp.m64n8k64.e4m3"), "E11"));
    EXPECT_TRUE(has(get("wgmma.sp.m64n8k64.s8"), "E11"));
    EXPECT_FALSE(has(get("wgmma.sp.m64n8k32.f16"), "E11"));
    EXPECT_TRUE(has(get("wgmma.m64n240k32.s8"), "E13"));
    EXPECT_TRUE(has(get("wgmma.m64n256k32.u8"), "E13"));
    EXPECT_FALSE(has(get("wgmma.m64n224k32.s8"), "E13"));
}

// --- JSON and text --------------------------------------------------------------------------------------

TEST(WgmmaJson, HasWarpgroupOperandsAndTheDefaultSharedMemoryLayouts) {
    const json doc = json::parse(toJson(get("wgmma.m64n64k16.f16")));
    EXPECT_EQ(doc["spec"], "wgmma.m64n64k16.f16");
    EXPECT_EQ(doc["ptx"], "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16");
    EXPECT_EQ(doc["scope"], "warpgroup");
    EXPECT_EQ(doc["threads"], 128);
    EXPECT_EQ(doc["family"], "wgmma");
    ASSERT_EQ(doc["operands"].size(), 2u);
    EXPECT_EQ(doc["operands"][0]["name"], "A");
    EXPECT_EQ(doc["operands"][1]["name"], "D");
    EXPECT_EQ(doc["operands"][1]["elements"].size(), 64u * 64);
    EXPECT_EQ(doc["operands"][1]["elements"][0]["source"], "hardware");
    ASSERT_EQ(doc["shared_memory"].size(), 2u);
    const json& b = doc["shared_memory"][1];
    EXPECT_EQ(b["operand"], "B");
    EXPECT_EQ(b["major"], "K");
    EXPECT_EQ(b["swizzle"], "128B");
    EXPECT_EQ(b["element_bits"], 16);
    EXPECT_EQ(b["rows"], 16);
    EXPECT_EQ(b["cols"], 64);
    EXPECT_EQ(b["lbo"], 16);
    EXPECT_EQ(b["sbo"], 1024);
    EXPECT_EQ(b["descriptor"], "0x4000004000010000");
    ASSERT_EQ(b["elements"].size(), 16u * 64);
    // row = k, col = n: element (k 9, n 5) sits in logical chunk 1 of 128-byte row 5 -> chunk 4.
    const json& e = b["elements"][9 * 64 + 5];
    EXPECT_EQ(e["row"], 9);
    EXPECT_EQ(e["col"], 5);
    EXPECT_EQ(e["address"], 5 * 128 + 4 * 16 + 2);
    EXPECT_EQ(e["linear"], 5 * 128 + 16 + 2);
    EXPECT_EQ(doc["shared_memory"][0]["operand"], "A");
    EXPECT_EQ(doc["shared_memory"][0]["elements"].size(), 64u * 16);
}

TEST(WgmmaJson, SparseDocumentsCarryChunksMetadataAndCompressedSharedA) {
    const json doc = json::parse(toJson(get("wgmma.sp.m64n16k32.f16")));
    EXPECT_EQ(doc["family"], "wgmma.sp");
    const json& a = doc["operands"][0];
    EXPECT_EQ(a["elements"][0]["cols"], (json{0, 3}));
    EXPECT_FALSE(a["elements"][0].contains("col"));
    const json& md = doc["operands"][2];
    EXPECT_EQ(md["name"], "metadata");
    ASSERT_EQ(md["selectors"].size(), 2u);
    EXPECT_EQ(md["selectors"][1]["fields"][0],
              (json{{"thread", 2}, {"bits", {3, 0}}, {"row", 0}, {"cols", {0, 3}}, {"source", "hardware"}}));
    const json& sa = doc["shared_memory"][0];
    EXPECT_EQ(sa["compressed"], true);
    EXPECT_EQ(sa["cols"], 16) << "A in shared memory is the compressed M x K/2 matrix";
    EXPECT_EQ(doc["shared_memory"][1]["rows"], 32);
}

// The instance of `spec` with `params` (lanemap/selection.hpp).
Selection selectionOf(const char* spec, const Params& params) {
    return Selection{Catalog::instance().variant(spec), params};
}

TEST(WgmmaJson, ParametersPickAnotherSharedMemoryLayout) {
    Params params;
    params.smem = smem::Choice{smem::Major::MN, smem::Swizzle::B64};
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(*instantiate(selectionOf("wgmma.m64n64k16.bf16", params)),
                                  ExportFormat::Json, {}, doc, error))
        << error;
    const json j = json::parse(doc);
    EXPECT_EQ(j["shared_memory"][1]["major"], "MN");
    EXPECT_EQ(j["shared_memory"][1]["swizzle"], "64B");
    EXPECT_EQ(j["shared_memory"][1]["lbo"], 512);
    EXPECT_EQ(j["shared_memory"][1]["sbo"], 1024);
    // MN-major exists only for 16-bit types.
    error = validate(selectionOf("wgmma.m64n64k8.tf32", params));
    EXPECT_NE(error.find("MN-major (imm-trans-a/b = 1) exists only for .f16/.bf16"), std::string::npos)
        << error;
    EXPECT_THROW(instantiate(selectionOf("wgmma.m64n64k8.tf32", params)), std::invalid_argument);
    // A shared-memory layout for warp-level mma is an input error.
    Params swizzleOnly;
    swizzleOnly.smem = smem::Choice{smem::Major::K, smem::Swizzle::B32};
    error = validate(selectionOf("mma.m16n8k16.f16", swizzleOnly));
    EXPECT_NE(error.find("apply to wgmma only"), std::string::npos) << error;
    ExportOptions d;
    d.operands = Operand::D;
    EXPECT_FALSE(exportInstruction(*instantiate(selectionOf("wgmma.m64n8k16.f16", swizzleOnly)),
                                   ExportFormat::Text, d, doc, error));
    EXPECT_NE(error.find("lives in registers"), std::string::npos) << error;
}

TEST(WgmmaText, OperandBIsTheSharedMemoryAddressGrid) {
    ExportOptions options;
    options.operands = Operand::B;
    Params params;
    params.smem = smem::Choice{smem::Major::K, smem::Swizzle::B128};
    std::string doc, error;
    ASSERT_TRUE(exportInstruction(*instantiate(selectionOf("wgmma.m64n64k16.f16", params)),
                                  ExportFormat::Text, options, doc, error))
        << error;
    EXPECT_EQ(doc.rfind("B in shared memory (K x N = 16 x 64, .f16, 16 bits): K-major, 128B swizzle\n", 0),
              0u)
        << doc;
    EXPECT_NE(doc.find("byte address bits [6..4] ^= bits [9..7]"), std::string::npos);
    EXPECT_NE(doc.find("descriptor: 0x4000004000010000"), std::string::npos);
    // Row k = 8: n0 at 0x10 (chunk 1), n1 at 0x80 (chunk 1 ^ 1 = 0 of row 1).
    EXPECT_NE(doc.find("\n  8 10   80   130  1a0  250"), std::string::npos) << doc.substr(0, 2000);
    // Memory map: 128-byte row 1 holds n1's k8-15 in chunk 0 (from chunk 1) and k0-7 in chunk 1.
    EXPECT_NE(doc.find("\n     80    1  n1 k8-15 <-c1   n1 k0-7 <-c0    ."), std::string::npos) << doc;
    // The whole instruction lists A, D and B in shared memory; A's shared-memory view needs
    // --major/--swizzle.
    const std::string all = toText(get("wgmma.m64n8k16.f16"));
    EXPECT_NE(all.find("\nA (64x16"), std::string::npos);
    EXPECT_NE(all.find("\nD (64x8"), std::string::npos);
    EXPECT_NE(all.find("\nB in shared memory"), std::string::npos);
    EXPECT_NE(all.find("min sm_90a"), std::string::npos);
    options.operands = Operand::A;
    params.smem->major = smem::Major::MN;
    ASSERT_TRUE(exportInstruction(*instantiate(selectionOf("wgmma.m64n64k16.f16", params)),
                                  ExportFormat::Text, options, doc, error))
        << error;
    EXPECT_EQ(doc.rfind("A in shared memory (M x K = 64 x 16", 0), 0u) << doc.substr(0, 200);
}

// A command builds the D of the one N it names alone; the catalog, building a second N of the atom and type,
// cuts every N from the widest. Both must be the same table, or a figure would change with what was built
// before it.
TEST(Wgmma, DBuiltAloneEqualsItsCutFromTheWidest) {
    int compared = 0;
    for (const Variant* v : cat().variants()) {
        if (v->family->name != "wgmma" && v->family->name != "wgmma.sp")
            continue;
        FragmentLayout::clearBuildCache();
        const Instruction alone = cat().buildUncached(*v); // the first N of its atom and type: built alone
        const Instruction cut = cat().buildUncached(*v);   // the second: cut from the widest
        const FragmentLayout* a = alone.operand(Operand::D);
        const FragmentLayout* c = cut.operand(Operand::D);
        ASSERT_TRUE(a && c) << v->ptx;
        ASSERT_EQ(a->elements().size(), c->elements().size()) << v->ptx;
        for (std::size_t i = 0; i < a->elements().size(); ++i) {
            const Element &x = a->elements()[i], &y = c->elements()[i];
            ASSERT_TRUE(x.thread == y.thread && x.index == y.index && x.reg == y.reg && x.bit == y.bit &&
                        x.row == y.row && x.col == y.col && x.colLast == y.colLast && x.source == y.source)
                << v->ptx << " element " << i;
        }
        for (int row = 0; row < a->rows(); ++row)
            for (int col = 0; col < a->cols(); ++col) {
                const auto owners = a->owners(row, col), cutOwners = c->owners(row, col);
                ASSERT_TRUE(std::equal(owners.begin(), owners.end(), cutOwners.begin(), cutOwners.end()))
                    << v->ptx << " D(" << row << "," << col << ")";
            }
        compared += v->n < 256;
    }
    FragmentLayout::clearBuildCache();
    EXPECT_GT(compared, 500); // every N below the widest, dense and sparse
}

} // namespace

} // namespace test_wgmma
