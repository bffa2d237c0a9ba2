// Sparse mma.sp layouts (PTX 9.1 §9.7.14.6, docs/reference/ptx-facts.md#sparse-mma and #sparse-metadata):
// every row S1-S13 in both metadata forms where PTX has them, compressed A covering its tile, metadata fields
// covering every chunk exactly once for every selector (and every candidate reading), where metadata comes
// from, and named cells worked by hand from the ISA text and the table of
// docs/reference/ptx-facts.md#sparse-metadata. Lane 13 is groupID 3, threadID_in_group 1; lane 22 is 5, 2;
// lane 31 is 7, 3.
#include "lanemap/catalog.hpp"
#include "lanemap/sparse.hpp"

#include "sparse_unresolved.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace test_sparse_layouts {

using namespace lanemap;

namespace {

const Instruction& get(const std::string& spec) {
    const Instruction* in = Catalog::instance().instruction(spec);
    if (!in)
        throw std::runtime_error("not in catalog: " + spec);
    return *in;
}

std::vector<std::string> sparseSpecs() {
    std::vector<std::string> specs;
    for (const Variant* v : Catalog::instance().variants())
        if (v->family->name == "mma.sp")
            specs.push_back(v->spec);
    return specs;
}

std::string testName(const ::testing::TestParamInfo<std::string>& param) {
    std::string name;
    for (char c : param.param)
        name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name;
}

// --- the catalog rows
// ----------------------------------------------------------------------------------------

TEST(SparseCatalog, HasEveryRowOfSection23InBothForms) {
    // Rows S1-S7, S10, S11 exist as mma.sp and as ::ordered_metadata; one spec per (shape, A type,
    // accumulator).
    const char* both[] = {
        "m16n8k16.f16",  "m16n8k16.f16.f16", "m16n8k16.bf16", // S1
        "m16n8k32.f16",  "m16n8k32.f16.f16", "m16n8k32.bf16", // S2
        "m16n8k8.tf32",                                       // S3
        "m16n8k16.tf32",                                      // S4
        "m16n8k32.s8",   "m16n8k32.u8",                       // S5
        "m16n8k64.s8",   "m16n8k64.u8",                       // S6
        "m16n8k64.e4m3", "m16n8k64.e5m2",                     // S7
        "m16n8k64.s4",   "m16n8k64.u4",                       // S10
        "m16n8k128.s4",  "m16n8k128.u4",                      // S11
    };
    const Catalog& c = Catalog::instance();
    for (const char* s : both) {
        const Variant* plain = c.variant(std::string("mma.sp.") + s);
        const Variant* ordered = c.variant(std::string("mma.sp::ordered_metadata.") + s);
        ASSERT_NE(plain, nullptr) << s;
        ASSERT_NE(ordered, nullptr) << s;
        EXPECT_FALSE(plain->ordered);
        EXPECT_TRUE(ordered->ordered);
        EXPECT_EQ(plain->family->name, "mma.sp");
        EXPECT_EQ(ordered->family->name, "mma.sp");
        EXPECT_EQ(plain->minSm, ordered->minSm);
    }
    // S8, S9, S12, S13 exist only as ::ordered_metadata (sm_120).
    const char* orderedOnly[] = {
        "m16n8k64.e4m3.f16",
        "m16n8k64.e5m2.f16", // S8
        "m16n8k64.kind::f8f6f4.e4m3",
        "m16n8k64.kind::f8f6f4.e2m1.f16", // S9
        "m16n8k64.kind::f8f6f4.e3m2",
        "m16n8k64.kind::f8f6f4.e2m3.f16", //
        "m16n8k64.kind::mxf8f6f4.e4m3",
        "m16n8k64.kind::mxf8f6f4.e2m1", // S12
        "m16n8k128.kind::mxf4.e2m1",
        "m16n8k128.kind::mxf4nvf4.e2m1", // S13
    };
    for (const char* s : orderedOnly) {
        EXPECT_EQ(c.variant(std::string("mma.sp.") + s), nullptr) << s;
        const Variant* v = c.variant(std::string("mma.sp::ordered_metadata.") + s);
        ASSERT_NE(v, nullptr) << s;
        EXPECT_EQ(v->minSm, 120) << s;
    }
    int sparse = 0;
    for (const Variant* v : c.variants())
        sparse += v->family->name == "mma.sp";
    // 18 specs in both forms, S8 2, S9 10, S12 5, S13 2.
    EXPECT_EQ(sparse, 2 * 18 + 2 + 10 + 5 + 2);
}

TEST(SparseCatalog, MinimumSmAndErrata) {
    const Catalog& c = Catalog::instance();
    EXPECT_EQ(c.variant("mma.sp.m16n8k16.f16")->minSm, 80);
    EXPECT_EQ(c.variant("mma.sp.m16n8k64.e4m3")->minSm, 89);
    EXPECT_EQ(c.variant("mma.sp::ordered_metadata.m16n8k64.e4m3.f16")->minSm, 120);
    auto hasErratum = [&](const char* spec, const char* id) {
        for (const Erratum& e : c.variant(spec)->errata)
            if (e.id == id)
                return true;
        return false;
    };
    EXPECT_TRUE(hasErratum("mma.sp.m16n8k16.tf32", "E8"));
    EXPECT_TRUE(hasErratum("mma.sp.m16n8k32.bf16", "E9"));
    EXPECT_TRUE(hasErratum("mma.sp::ordered_metadata.m16n8k64.e5m2.f16", "E10"));
    EXPECT_FALSE(hasErratum("mma.sp.m16n8k16.f16", "E9"));
}

// --- every variant
// -------------------------------------------------------------------------------------------

class EverySparseLayout : public ::testing::TestWithParam<std::string> {};

TEST_P(EverySparseLayout, CompressedACoversItsTileWithHalfTheElements) {
    const Instruction& in = get(GetParam());
    const FragmentLayout& a = *in.operand(Operand::A);
    ASSERT_TRUE(a.chunked());
    EXPECT_EQ(a.rows(), in.m);
    EXPECT_EQ(a.cols(), in.k);
    EXPECT_EQ(a.elements().size(), static_cast<std::size_t>(in.m * in.k / 2)) << "50% structured sparsity";
    // Every cell is owned by the elements of one thread whose range [firstcol..lastcol] holds it: exactly
    // half as many as the range is wide (the kept elements of that range).
    for (int r = 0; r < a.rows(); ++r)
        for (int c = 0; c < a.cols(); ++c) {
            const auto owners = a.owners(r, c);
            ASSERT_FALSE(owners.empty()) << "(" << r << "," << c << ")";
            const Element& first = owners[0];
            const int width = first.colLast - first.col + 1;
            EXPECT_EQ(owners.size(), static_cast<std::size_t>(width / 2)) << "(" << r << "," << c << ")";
            for (const Element& e : owners) {
                EXPECT_EQ(e.thread, first.thread);
                EXPECT_EQ(e.row, r);
                EXPECT_EQ(e.col, first.col);
                EXPECT_EQ(e.colLast, first.colLast);
                EXPECT_EQ(e.source, Source::Doc) << "the A formulas are ISA text";
            }
        }
}

TEST_P(EverySparseLayout, MetadataFieldsCoverEveryChunkOncePerSelector) {
    const Instruction& in = get(GetParam());
    ASSERT_TRUE(in.metadata);
    const MetadataLayout& md = *in.metadata;
    const sparse::StorageRule* rule = sparse::ruleFor(md.granularity);
    ASSERT_NE(rule, nullptr) << md.granularity;
    EXPECT_EQ(rule, sparse::ruleForContainerBits(in.operand(Operand::A)->containerBits()));
    EXPECT_EQ(md.chunkCols, rule->chunkCols);
    EXPECT_EQ(md.indexBits, rule->indexBits);
    EXPECT_EQ(md.validValues, sparse::validFieldValues(rule->pattern, in.ordered));

    std::vector<std::pair<std::string, const std::vector<MetadataSelector>*>> readings{
        {"primary", &md.selectors}};
    for (const MetadataCandidate& c : md.candidates)
        readings.emplace_back(c.name, &c.selectors);
    for (const auto& [name, selectors] : readings) {
        ASSERT_FALSE(selectors->empty());
        for (const MetadataSelector& sel : *selectors) {
            SCOPED_TRACE(name + " selector " + std::to_string(sel.value));
            std::map<std::pair<int, int>, int> chunks;
            std::map<int, std::uint32_t> bitsUsed;
            for (const MetadataField& f : sel.fields) {
                EXPECT_EQ(f.bitHi - f.bitLo + 1, md.fieldBits);
                EXPECT_GE(f.bitLo, 0);
                EXPECT_LE(f.bitHi, 31);
                EXPECT_EQ(f.colLast - f.colFirst + 1, md.chunkCols);
                EXPECT_EQ(f.colFirst % md.chunkCols, 0);
                // Metadata for rows g and g+8 comes from quad g.
                EXPECT_EQ(Lane::of(f.thread).groupID, f.row % 8) << "lane " << f.thread << " row " << f.row;
                const std::uint32_t bits = ((1u << md.fieldBits) - 1u) << f.bitLo;
                EXPECT_EQ(bitsUsed[f.thread] & bits, 0u) << "lane " << f.thread << " bits overlap";
                bitsUsed[f.thread] |= bits;
                ++chunks[{f.row, f.colFirst}];
            }
            EXPECT_EQ(chunks.size(), static_cast<std::size_t>(in.m * in.k / md.chunkCols));
            for (const auto& [chunk, count] : chunks)
                EXPECT_EQ(count, 1) << "row " << chunk.first << " cols from " << chunk.second;
            // Every supplying lane fills its whole 32-bit register.
            for (const auto& [lane, used] : bitsUsed)
                EXPECT_EQ(used, 0xFFFFFFFFu) << "lane " << lane;
        }
    }
}

TEST_P(EverySparseLayout, SelectorsPickTheLanesSection41Names) {
    const Instruction& in = get(GetParam());
    const MetadataLayout& md = *in.metadata;
    std::vector<int> values;
    for (const MetadataSelector& s : md.selectors)
        values.push_back(s.value);
    // One lane per quad (m16n8k16 f16/bf16, m16n8k8 tf32), a pair (m16n8k32 f16/bf16/s8/u8, m16n8k16 tf32,
    // m16n8k64 s4/u4), all four lanes with selector 0 (k64 8-bit, k128 4-bit).
    const bool oneLane = (in.k == 16 && in.atype != ElementType::TF32) || (in.k == 8);
    const bool allFour = (in.k == 64 && in.operand(Operand::A)->containerBits() == 8) || in.k == 128;
    const std::vector<int> expected =
        oneLane ? std::vector<int>{0, 1, 2, 3} : (allFour ? std::vector<int>{0} : std::vector<int>{0, 1});
    EXPECT_EQ(values, expected);
    for (const MetadataSelector& s : md.selectors) {
        std::set<int> inQuad;
        for (const MetadataField& f : s.fields)
            inQuad.insert(Lane::of(f.thread).threadID_in_group);
        const std::set<int> want =
            oneLane ? std::set<int>{s.value}
                    : (allFour ? std::set<int>{0, 1, 2, 3} : std::set<int>{2 * s.value, 2 * s.value + 1});
        EXPECT_EQ(inQuad, want) << "selector " << s.value;
    }
}

TEST_P(EverySparseLayout, BCAndDAreDenseShapes) {
    const Instruction& in = get(GetParam());
    ASSERT_EQ(in.operands.size(), 4u);
    EXPECT_EQ(in.operand(Operand::B)->rows(), in.k);
    EXPECT_EQ(in.operand(Operand::B)->cols(), in.n);
    EXPECT_EQ(in.operand(Operand::D)->rows(), in.m);
    EXPECT_EQ(in.operand(Operand::D)->elementType(), in.dtype);
    EXPECT_FALSE(in.operand(Operand::B)->chunked());
}

INSTANTIATE_TEST_SUITE_P(Catalog, EverySparseLayout, ::testing::ValuesIn(sparseSpecs()), testName);

// --- where the placements come from ------------------------------------------------------------------------

// What a user is shown: the table's source, or hardware where a recorded run confirmed it (the evidence
// overlay).
Source fieldSource(const char* spec) {
    return get(spec).sourceOf(get(spec).metadata->selectors.front().fields.front().source);
}
Source elementSource(const char* spec, const char* op) {
    return get(spec).sourceOf(get(spec).operand(*parseOperand(op))->elements().front().source);
}

TEST(SparseSources, FiguresInferencesAndTextAreMarked) {
    // The ISA figure -> figure, CUTLASS -> cutlass, inference -> inferred (docs/reference/ptx-facts.md); what
    // the H100 probe confirmed (resources/probe/h100-mma*.json, through the evidence overlay) -> hardware.
    // sm_120-only forms keep their document source.
    EXPECT_EQ(fieldSource("mma.sp.m16n8k16.f16"), Source::Hardware);
    EXPECT_EQ(fieldSource("mma.sp.m16n8k32.bf16"), Source::Hardware);
    EXPECT_EQ(fieldSource("mma.sp.m16n8k16.tf32"), Source::Hardware);
    EXPECT_EQ(fieldSource("mma.sp.m16n8k8.tf32"), Source::Hardware);
    EXPECT_EQ(fieldSource("mma.sp.m16n8k64.s8"), Source::Hardware);
    EXPECT_EQ(fieldSource("mma.sp::ordered_metadata.m16n8k64.kind::f8f6f4.e2m1"), Source::Cutlass);
    EXPECT_EQ(fieldSource("mma.sp::ordered_metadata.m16n8k64.e4m3.f16"), Source::Cutlass);
    EXPECT_EQ(fieldSource("mma.sp.m16n8k128.u4"), Source::Hardware);
    EXPECT_EQ(fieldSource("mma.sp::ordered_metadata.m16n8k128.kind::mxf4.e2m1"), Source::Cutlass);
    EXPECT_EQ(fieldSource("mma.sp.m16n8k32.s8"), Source::Hardware);
    EXPECT_EQ(fieldSource("mma.sp.m16n8k64.u4"), Source::Hardware);
    EXPECT_EQ(elementSource("mma.sp.m16n8k16.f16", "B"), Source::Doc);
    EXPECT_EQ(elementSource("mma.sp.m16n8k32.f16", "B"), Source::Hardware);
    EXPECT_EQ(elementSource("mma.sp.m16n8k16.tf32", "B"), Source::Hardware);
    EXPECT_EQ(elementSource("mma.sp.m16n8k64.e4m3", "B"), Source::Hardware);
    EXPECT_EQ(elementSource("mma.sp::ordered_metadata.m16n8k64.kind::f8f6f4.e3m2", "B"), Source::Cutlass);
    EXPECT_EQ(elementSource("mma.sp.m16n8k128.s4", "B"), Source::Hardware);
    EXPECT_EQ(elementSource("mma.sp::ordered_metadata.m16n8k128.kind::mxf4.e2m1", "B"), Source::Cutlass);
    EXPECT_EQ(elementSource("mma.sp.m16n8k64.s4", "B"), Source::Doc);
}

TEST(SparseSources, MappingsTheHardwareResolvedOfferNoCandidatesAndNameTheRefutedReading) {
    for (const char* spec : {"mma.sp.m16n8k32.s8", "mma.sp::ordered_metadata.m16n8k32.u8",
                             "mma.sp.m16n8k64.s4", "mma.sp::ordered_metadata.m16n8k64.u4"}) {
        const MetadataLayout& md = *get(spec).metadata;
        EXPECT_TRUE(md.candidates.empty()) << spec;
        EXPECT_TRUE(md.candidate.empty()) << spec;
        for (const MetadataSelector& s : md.selectors)
            for (const MetadataField& f : s.fields)
                EXPECT_EQ(get(spec).sourceOf(f.source), Source::Hardware) << spec;
        bool resolved = false;
        for (const std::string& n : md.notes)
            resolved = resolved || (n.find("RESOLVED on hardware: 'rows-per-lane'") != std::string::npos &&
                                    n.find("refuted: 'k-halves-per-lane'") != std::string::npos);
        EXPECT_TRUE(resolved) << spec;
        for (const std::string& n : md.notes)
            EXPECT_EQ(n.find("UNRESOLVED"), std::string::npos) << spec << ": " << n;
    }
    for (const char* spec : {"mma.sp.m16n8k16.f16", "mma.sp.m16n8k64.s8", "mma.sp.m16n8k128.s4"}) {
        EXPECT_TRUE(get(spec).metadata->candidates.empty()) << spec;
        EXPECT_TRUE(get(spec).metadata->candidate.empty()) << spec;
    }
}

// --- named cells from the ISA text and the table of docs/reference/ptx-facts.md#sparse-metadata ------------

struct ASpot {
    const char* spec;
    const char* operand;
    int thread, index;
    int row, colFirst, colLast;
    int reg, bit;
};

// clang-format off
const ASpot kElementSpots[] = {
    // §9.7.14.6.2.1 Fig. 118: row g (a0,a1) / g+8 (a2,a3); firstcol = t*4
    {"mma.sp.m16n8k16.f16",  "A", 13, 2, 11,  4,   7, 1,  0},
    {"mma.sp.m16n8k16.bf16", "A", 31, 1,  7, 12,  15, 0, 16},
    // §9.7.14.6.2.2 Fig. 120: row g for i in {0,1,4,5}; firstcol t*4 (+16 for i >= 4)
    {"mma.sp.m16n8k32.f16",  "A", 22, 5,  5, 24,  27, 2, 16},
    {"mma.sp.m16n8k32.f16",  "A", 22, 6, 13, 24,  27, 3,  0},
    {"mma.sp.m16n8k32.f16",  "B", 22, 5, 21,  5,   5, 2, 16}, // Fig. 121 [INF]: 2t + (i&1) + 8(i>>1)
    // §9.7.14.6.2.3 Fig. 123: row g (a0,a2) / g+8 (a1,a3); firstcol t*2 (+8 for a2,a3)
    {"mma.sp.m16n8k16.tf32", "A", 13, 1, 11,  2,   3, 1,  0},
    {"mma.sp.m16n8k16.tf32", "A", 13, 2,  3, 10,  11, 2,  0},
    {"mma.sp.m16n8k16.tf32", "B", 22, 3, 14,  5,   5, 3,  0}, // Fig. 124 [INF]: t + 4i
    // §9.7.14.6.2.4 Fig. 126: row g (a0) / g+8 (a1); firstcol t*2
    {"mma.sp.m16n8k8.tf32",  "A", 31, 1, 15,  6,   7, 1,  0},
    {"mma.sp.m16n8k8.tf32",  "B", 22, 1,  6,  5,   5, 1,  0}, // dense Fig. 75
    // §9.7.14.6.2.5 Fig. 128: row g for i < 4; firstcol t*8, 8 wide
    {"mma.sp.m16n8k32.s8",   "A", 13, 6, 11,  8,  15, 1, 16},
    {"mma.sp.m16n8k32.u8",   "B", 22, 5, 25,  5,   5, 1,  8}, // dense Fig. 90/91
    // §9.7.14.6.2.6 Figs. 130/131: row g for i in [0,4) or [8,12); firstcol t*8 (+32 for i >= 8)
    {"mma.sp.m16n8k64.s8",   "A", 22, 13, 13, 48,  55, 3,  8},
    {"mma.sp::ordered_metadata.m16n8k64.kind::f8f6f4.e2m1", "A", 22, 13, 13, 48, 55, 3, 10}, // middle 4 bits
    {"mma.sp.m16n8k64.e4m3", "B", 13, 9, 37,  3,   3, 2,  8}, // Figs. 132-135 [CUTLASS]: 4t + (i&3) + 16(i>>2)
    // §9.7.14.6.2.7 Fig. 138: row g for i < 8; firstcol t*16, 16 wide
    {"mma.sp.m16n8k64.s4",   "A", 22, 9, 13, 32,  47, 1,  4},
    // §9.7.14.6.2.8 Figs. 140/141: row g for i in [0,8) or [16,24); firstcol t*16 (+64 for i >= 16)
    {"mma.sp.m16n8k128.u4",  "A", 31, 30, 15, 112, 127, 3, 24},
    {"mma.sp::ordered_metadata.m16n8k128.kind::mxf4nvf4.e2m1", "A", 13, 17, 3, 80, 95, 2, 4},
    {"mma.sp.m16n8k128.s4",  "B", 13, 17, 73, 3,   3, 2,  4}, // Figs. 142-145 [CUTLASS]: 8t + (i&7) + 32(i>>3)
    // C/D as dense m16n8
    {"mma.sp.m16n8k16.f16.f16", "D", 13, 3, 11, 3, 3, 1, 16},
    {"mma.sp.m16n8k64.s8",   "C", 22, 2, 13,  4,   4, 2,  0},
};

struct MetaSpot {
    const char* spec;
    const char* candidate; // "" = primary
    int selector;
    int thread, bitHi;
    int row, colFirst, colLast;
};

const MetaSpot kMetadataSpots[] = {
    // Fig. 119 [EMP]: lane 4g+F; bits [4j+3:4j] row g chunk j, bits [16+4j+3:16+4j] row g+8
    {"mma.sp.m16n8k16.f16", "", 0,  0,  3,  0,  0,  3},
    {"mma.sp.m16n8k16.f16", "", 0,  0, 19,  8,  0,  3},
    {"mma.sp::ordered_metadata.m16n8k16.bf16", "", 1, 13, 31, 11, 12, 15},
    {"mma.sp.m16n8k16.f16.f16", "", 3, 31, 11, 7, 8, 11},
    // Fig. 122 [CUTLASS]: lanes 4g+2F (cols 0-15), 4g+2F+1 (cols 16-31); [15:0] row g, [31:16] row g+8
    {"mma.sp.m16n8k32.f16", "", 1,  7, 23,  9, 20, 23},
    {"mma.sp.m16n8k32.bf16", "", 0, 0, 15,  0, 12, 15},
    // Fig. 125 [CUTLASS]: lanes 4g+2F (cols 0-7), 4g+2F+1 (cols 8-15), 2-column chunks
    {"mma.sp.m16n8k16.tf32", "", 0,  1, 11,  0, 12, 13},
    {"mma.sp.m16n8k16.tf32", "", 1, 26, 31, 14,  6,  7},
    // Fig. 127 [INF]: lane 4g+F, 2-column chunks
    {"mma.sp.m16n8k8.tf32", "", 2,  6, 31,  9,  6,  7},
    // Figs. 136/137 [CUTLASS]: lane bit 0 -> row g+8, lane bit 1 -> cols 32-63
    {"mma.sp.m16n8k64.s8", "", 0,  3,  7,  8, 36, 39},
    {"mma.sp::ordered_metadata.m16n8k64.kind::mxf8f6f4.e3m2", "", 0, 22, 31, 5, 60, 63},
    // Figs. 146/147: lane bit 0 -> row g+8, lane bit 1 -> cols 64-127, 8-column chunks
    {"mma.sp.m16n8k128.s4", "", 0, 30, 11,  7, 80, 87},
    {"mma.sp::ordered_metadata.m16n8k128.kind::mxf4.e2m1", "", 0, 13, 31, 11, 56, 63},
    // Fig. 129, resolved on hardware ('rows-per-lane'); the open copy's two readings put lane 6's top field on
    // different chunks
    {"mma.sp.m16n8k32.s8", "rows-per-lane", 1, 6, 31, 1, 28, 31},
    {"mma.sp.m16n8k32.s8", "k-halves-per-lane", 1, 6, 31, 9, 12, 15},
    // Fig. 139, resolved likewise, 8-column chunks
    {"mma.sp.m16n8k64.u4", "rows-per-lane", 0, 1, 15, 8, 24, 31},
    {"mma.sp.m16n8k64.u4", "k-halves-per-lane", 0, 1, 15, 0, 56, 63},
};
// clang-format on

TEST(SparseSpots, ElementsFromTheIsaText) {
    for (const ASpot& s : kElementSpots) {
        SCOPED_TRACE(std::string(s.spec) + " " + s.operand + " T" + std::to_string(s.thread) + " i" +
                     std::to_string(s.index));
        const FragmentLayout& op = *get(s.spec).operand(*parseOperand(s.operand));
        const Element& e = op.element(s.thread, s.index);
        EXPECT_EQ(e.row, s.row);
        EXPECT_EQ(e.col, s.colFirst);
        EXPECT_EQ(e.colLast, s.colLast);
        EXPECT_EQ(e.reg, s.reg);
        EXPECT_EQ(e.bit, s.bit);
    }
}

TEST(SparseSpots, MetadataCellsFromTheFigures) {
    for (const MetaSpot& s : kMetadataSpots) {
        SCOPED_TRACE(std::string(s.spec) + " '" + s.candidate + "' F=" + std::to_string(s.selector) + " T" +
                     std::to_string(s.thread) + " [" + std::to_string(s.bitHi) + "..]");
        // Candidate spots read an open copy of the (now resolved) mapping: tests/core/sparse_unresolved.hpp.
        const MetadataLayout& md =
            *(*s.candidate ? lanemap::testing::unresolvedSparse(s.spec) : get(s.spec)).metadata;
        const std::vector<MetadataSelector>* selectors = &md.selectors;
        for (const MetadataCandidate& c : md.candidates)
            if (c.name == s.candidate)
                selectors = &c.selectors;
        if (*s.candidate) {
            ASSERT_NE(selectors, &md.selectors) << "candidate missing";
        }
        const MetadataField* found = nullptr;
        for (const MetadataSelector& sel : *selectors)
            if (sel.value == s.selector)
                for (const MetadataField& f : sel.fields)
                    if (f.thread == s.thread && f.bitHi == s.bitHi)
                        found = &f;
        ASSERT_NE(found, nullptr);
        EXPECT_EQ(found->bitLo, s.bitHi - 3);
        EXPECT_EQ(found->row, s.row);
        EXPECT_EQ(found->colFirst, s.colFirst);
        EXPECT_EQ(found->colLast, s.colLast);
    }
}

TEST(SparseSpots, LanesOutsideTheSelectorSupplyNothing) {
    // m16n8k16 with selector 2: only lanes 2, 6, ..., 30.
    const MetadataLayout& md = *get("mma.sp.m16n8k16.f16").metadata;
    for (const MetadataField& f : md.selectors[2].fields)
        EXPECT_EQ(f.thread % 4, 2);
    EXPECT_EQ(md.selectors[2].fields.size(), 64u);
}

} // namespace

} // namespace test_sparse_layouts
