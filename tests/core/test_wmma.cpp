// wmma: the table, the spellings, the decoder against synthetic register dumps (replication, scrambled and
// inconsistent dumps), the discovery report (round trip, one rejection per reason) and the catalog entries
// that come from the recorded H100 report.

#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/wmma.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <set>

namespace test_wmma {

using namespace lanemap;
using namespace lanemap::wmma;

namespace {

FragmentForm form(const char* key) {
    const auto f = formOfKey(key);
    EXPECT_TRUE(f.has_value()) << key;
    return f.value_or(FragmentForm{});
}

// A synthetic fragment: element i of lane l sits at `place(l, i)`.
template <class Place> DiscoveredFragment synthetic(const FragmentForm& f, Place place) {
    DiscoveredFragment d;
    d.form = f;
    for (int lane = 0; lane < 32; ++lane)
        for (int i = 0; i < f.elementsPerLane(); ++i)
            d.cells.push_back(place(lane, i));
    return d;
}

// What a GPU with fragment `d` dumps for every run of tagRuns: each slot holds its cell's tag plane.
std::vector<std::vector<std::uint32_t>> dumpsOf(const DiscoveredFragment& d) {
    std::vector<std::vector<std::uint32_t>> dumps;
    const FragmentForm& f = d.form;
    const int n = f.rows() * f.cols();
    const ElementType mem = f.type == ElementType::TF32 ? ElementType::F32 : f.type;
    for (const TagRun& run : tagRuns(f)) {
        std::vector<std::uint32_t> words(static_cast<std::size_t>(32 * f.words), 0);
        for (int lane = 0; lane < 32; ++lane)
            for (int i = 0; i < f.elementsPerLane(); ++i) {
                const Cell c = d.cell(lane, i);
                const long long index = c.row * f.cols() + c.col;
                const long long tag = run.complement ? n - 1 - index : index;
                const int p = planeBits(f.type);
                const long long plane = (tag >> (run.plane * p)) & ((1LL << p) - 1);
                setElementBits(f,
                               std::span(words).subspan(static_cast<std::size_t>(lane * f.words),
                                                        static_cast<std::size_t>(f.words)),
                               i, *encodeValue(mem, plane));
            }
        dumps.push_back(std::move(words));
    }
    return dumps;
}

// sm_80-style f16 A: x[i] and x[i+8] hold the same element (the mma.m16n8k16 A fragment twice).
DiscoveredFragment heldTwice() {
    return synthetic(form("m16n16k16.a.row.f16"), [](int lane, int i) {
        const int j = i % 8, g = lane >> 2, t = lane % 4;
        return Cell{g + 8 * ((j >> 1) & 1), 2 * t + (j & 1) + 8 * (j >> 2), -1, -1};
    });
}

} // namespace

TEST(WmmaTable, EveryFormOfTheIsaIsListedWithItsRegisterCount) {
    // 3 shapes x {f16, bf16, s8, u8} x {A, B} x {row, col} + tf32 + f64 + s4/u4/b1 (row A, col B), and the
    // accumulators in both load layouts.
    EXPECT_EQ(fragmentForms().size(), 88u);
    EXPECT_EQ(form("m16n16k16.a.row.f16").words, 8);
    EXPECT_EQ(form("m32n8k16.b.col.bf16").words, 2);
    EXPECT_EQ(form("m8n32k16.a.row.s8").words, 1);
    EXPECT_EQ(form("m8n8k4.c.row.f64").words, 4); // 2 .f64 registers
    EXPECT_EQ(form("m8n8k128.a.row.b1").elementsPerLane(), 32);
    EXPECT_FALSE(formOfKey("m8n8k32.a.col.s4")) << "sub-byte wmma takes only .row A";
    EXPECT_EQ(form("m16n16k16.a.row.f16").ptxLoad(), "wmma.load.a.sync.aligned.row.m16n16k16.f16");
    EXPECT_EQ(form("m16n16k16.a.row.f16").cudaName(),
              "wmma::fragment<matrix_a, 16, 16, 16, half, row_major>");
}

TEST(WmmaSpec, ShortPtxAndCudaSpellingsCanonicalize) {
    const Catalog& c = Catalog::instance();
    auto spec = [&](const char* text) {
        const ParsedSpec p = parseSpec(text, c);
        return p ? p.variant->spec : "error: " + p.error;
    };
    EXPECT_EQ(spec("wmma.m16n16k16.row.col.f16.f32"), "wmma.m16n16k16.row.col.f16.f32");
    EXPECT_EQ(spec("wmma.m16n16k16.f16"), "wmma.m16n16k16.row.col.f16.f32");
    EXPECT_EQ(spec("wmma.mma.sync.aligned.col.row.m32n8k16.f16.f16"), "wmma.m32n8k16.col.row.f16.f16");
    EXPECT_EQ(spec("wmma.mma.sync.aligned.row.col.m16n16k16.f32.bf16.bf16.f32"),
              "wmma.m16n16k16.row.col.bf16.f32");
    EXPECT_EQ(spec("wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32;"),
              "wmma.m8n8k128.row.col.b1.s32");
    EXPECT_EQ(spec("wmma.load.b.sync.aligned.row.m8n32k16.global.s8"), "wmma.m8n32k16.row.row.s8.s32");
    EXPECT_EQ(spec("wmma.store.d.sync.aligned.col.m8n8k4.f64"), "wmma.m8n8k4.row.col.f64.f64");
    EXPECT_EQ(spec("wmma::fragment<matrix_a, 16, 16, 16, half, row_major>"),
              "wmma.m16n16k16.row.col.f16.f32");
    EXPECT_EQ(
        spec("nvcuda::wmma::fragment<nvcuda::wmma::matrix_b,16,16,8,wmma::precision::tf32,wmma::col_major>"),
        "wmma.m16n16k8.row.col.tf32.f32");
    EXPECT_EQ(spec("wmma::fragment<accumulator, 16, 16, 16, half>"), "wmma.m16n16k16.row.col.f16.f16");
    EXPECT_EQ(spec("wmma::fragment<matrix_a, 8, 8, 32, experimental::precision::u4, row_major>"),
              "wmma.m8n8k32.row.col.u4.s32");
    // The typed b1 operation is kept as the form.
    const ParsedSpec andForm = parseSpec("wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32", c);
    ASSERT_TRUE(andForm);
    EXPECT_EQ(andForm.ptx, "wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32");
}

TEST(WmmaSpec, InvalidSpellingsSayWhatIsValid) {
    const Catalog& c = Catalog::instance();
    EXPECT_NE(parseSpec("wmma.m8n8k32.col.col.s4", c).error.find("only .row.col"), std::string::npos);
    EXPECT_NE(parseSpec("wmma.m16n16k16.row.col.tf32", c).error.find("valid: m16n16k16 .f16"),
              std::string::npos);
    EXPECT_NE(parseSpec("wmma::fragment<matrix_c, 16, 16, 16, half>", c)
                  .error.find("matrix_a, matrix_b or accumulator"),
              std::string::npos);
    EXPECT_NE(parseSpec("wmma.mma.sync.aligned.row.col.m16n16k16.f32.s8.u8.s32", c).error.find("one type"),
              std::string::npos);
    EXPECT_FALSE(parseSpec("wmma::fragment<matrix_a, 16, x, 16, half, row_major>", c));
}

TEST(WmmaDecoder, ReadsAFragmentThatHoldsEachElementTwice) {
    const DiscoveredFragment truth = heldTwice();
    DiscoveredFragment out;
    std::string error;
    const auto dumps = dumpsOf(truth);
    ASSERT_TRUE(decodeFragment(truth.form, dumps, out, error)) << error;
    ASSERT_EQ(out.cells.size(), truth.cells.size());
    for (std::size_t i = 0; i < out.cells.size(); ++i) {
        EXPECT_EQ(out.cells[i].row, truth.cells[i].row);
        EXPECT_EQ(out.cells[i].col, truth.cells[i].col);
    }
    EXPECT_EQ(out.numElements(), 16);
    EXPECT_EQ(out.uniqueCells(), 256);
    EXPECT_EQ(out.maxHolders(), 2);
}

TEST(WmmaDecoder, ReadsLaneReplicationAndEveryElementType) {
    // Replication across lanes (sm_70 style: lanes l and l+16 hold the same elements) where the fragment has
    // room for it, and a bijection for every other element type: f16, bf16, tf32, f64, u8, s4, b1.
    struct Case {
        const char* key;
        bool replicated;
    };
    for (const Case c : {Case{"m32n8k16.b.row.f16", true}, Case{"m8n32k16.a.col.f16", true},
                         Case{"m16n16k16.a.col.bf16", false}, Case{"m8n8k128.a.row.b1", false},
                         Case{"m8n8k32.b.col.s4", false}, Case{"m8n8k4.c.row.f64", false},
                         Case{"m16n16k8.a.row.tf32", false}, Case{"m8n32k16.a.row.u8", false}}) {
        const FragmentForm f = form(c.key);
        const int n = f.rows() * f.cols(), per = f.elementsPerLane();
        const DiscoveredFragment truth = synthetic(f, [&](int lane, int i) {
            const int index = ((c.replicated ? lane % 16 : lane) * per + i) % n;
            return Cell{index / f.cols(), index % f.cols(), -1, -1};
        });
        DiscoveredFragment out;
        std::string error;
        const auto dumps = dumpsOf(truth);
        ASSERT_TRUE(decodeFragment(f, dumps, out, error)) << c.key << ": " << error;
        for (int lane : {0, 17, 31}) {
            EXPECT_EQ(out.cell(lane, per - 1).row, truth.cell(lane, per - 1).row) << c.key;
            EXPECT_EQ(out.cell(lane, per - 1).col, truth.cell(lane, per - 1).col) << c.key;
        }
        EXPECT_EQ(out.uniqueCells(), n) << c.key;
        EXPECT_EQ(out.maxHolders() >= 2, c.replicated) << c.key;
    }
}

TEST(WmmaDecoder, RejectsAScrambledDump) {
    const DiscoveredFragment truth = heldTwice();
    auto dumps = dumpsOf(truth);
    dumps[0][37] = 0x7E007E00u; // two f16 NaNs: no tag
    DiscoveredFragment out;
    std::string error;
    EXPECT_FALSE(decodeFragment(truth.form, dumps, out, error));
    EXPECT_NE(error.find("scrambled"), std::string::npos) << error;
    EXPECT_NE(error.find("lane 4"), std::string::npos) << error;
}

TEST(WmmaDecoder, RejectsRunsThatDisagree) {
    const DiscoveredFragment truth = heldTwice();
    auto dumps = dumpsOf(truth);
    std::swap(dumps[0][0], dumps[0][8]); // the index run moved, the complement run did not
    DiscoveredFragment out;
    std::string error;
    EXPECT_FALSE(decodeFragment(truth.form, dumps, out, error));
    EXPECT_NE(error.find("inconsistent"), std::string::npos) << error;
}

TEST(WmmaDecoder, RejectsThePaddingAndAnIncompleteFragment) {
    const FragmentForm f = form("m16n16k16.c.row.f32");
    DiscoveredFragment truth = synthetic(f, [&](int lane, int i) {
        const int index = lane * 8 + i;
        return Cell{index / 16, index % 16, -1, -1};
    });
    auto dumps = dumpsOf(truth);
    dumps[0][3] =
        static_cast<std::uint32_t>(*encodeValue(ElementType::F32, 256)); // the padding's tag: ldm was ignored
    DiscoveredFragment out;
    std::string error;
    EXPECT_FALSE(decodeFragment(f, dumps, out, error));
    EXPECT_NE(error.find("padding"), std::string::npos) << error;

    truth.cells[5] = truth.cells[4]; // one cell twice, another never
    dumps = dumpsOf(truth);
    EXPECT_FALSE(decodeFragment(f, dumps, out, error));
    EXPECT_NE(error.find("incomplete"), std::string::npos) << error;
}

TEST(WmmaDecoder, RejectsADumpOfTheWrongSize) {
    const DiscoveredFragment truth = heldTwice();
    auto dumps = dumpsOf(truth);
    dumps[1].pop_back();
    DiscoveredFragment out;
    std::string error;
    EXPECT_FALSE(decodeFragment(truth.form, dumps, out, error));
    EXPECT_NE(error.find("expected 32 lanes"), std::string::npos) << error;
}

TEST(WmmaTagging, TaggedMatricesHoldEveryIndexAndPadTheLeadingDimension) {
    const FragmentForm f = form("m16n16k16.a.col.bf16"); // 8-bit planes: two runs per tag order
    ASSERT_EQ(tagRuns(f).size(), 4u);
    const auto low = taggedMatrix(f, {false, 0});
    const int ldm = leadingDimension(f);
    EXPECT_EQ(ldm, 16 + 8);
    // Column-major: (row 3, col 2) is element 2 * ldm + 3; its tag 3 * 16 + 2 = 50 has low plane 50.
    const std::size_t at = static_cast<std::size_t>(2 * ldm + 3) * 2;
    const std::uint64_t bits = low[at] | (low[at + 1] << 8);
    EXPECT_EQ(decodeValue(ElementType::BF16, bits), 50);
}

namespace {
DiscoveryReport sampleReport() {
    DiscoveryReport r;
    r.device = {"Test GPU", 90, "1.0", "13.0"};
    r.sassTarget = "sm_90";
    r.date = "2026-11-24T00:00:00Z";
    r.lanemapVersion = "0.1.0";
    r.fragments.push_back(heldTwice());
    r.checks.push_back({"wmma.m16n16k16.row.col.f16.f32", Verdict::Pass, Verdict::Pass, ""});
    return r;
}

std::string rejection(const std::function<void(nlohmann::ordered_json&)>& corrupt) {
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(toJson(sampleReport()));
    corrupt(doc);
    DiscoveryReport r;
    std::string error;
    EXPECT_FALSE(parseDiscoveryReport(doc.dump(), r, error));
    return error;
}
} // namespace

TEST(WmmaReport, RoundTripsThroughJson) {
    const DiscoveryReport r = sampleReport();
    DiscoveryReport back;
    std::string error;
    ASSERT_TRUE(parseDiscoveryReport(toJson(r), back, error)) << error;
    EXPECT_EQ(toJson(back), toJson(r));
    ASSERT_EQ(back.fragments.size(), 1u);
    EXPECT_EQ(back.fragments[0].maxHolders(), 2);
    EXPECT_EQ(back.check("wmma.m16n16k16.row.col.f16.f32")->mma, Verdict::Pass);
}

TEST(WmmaReport, RejectsEachMalformedOrInconsistentReport) {
    DiscoveryReport r;
    std::string error;
    EXPECT_FALSE(parseDiscoveryReport("{\"format\": ", r, error));
    EXPECT_NE(error.find("not JSON"), std::string::npos);
    EXPECT_NE(
        rejection([](auto& d) { d["format"] = "lanemap-probe/1"; }).find("not a lanemap discovery report"),
        std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["device"].erase("driver"); }).find("\"driver\""), std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["sass_target"] = "hopper"; }).find("sass_target"), std::string::npos);
    EXPECT_NE(rejection([](auto& d) {
                  d["fragments"][0]["fragment"] = "m16n16k16.a.row.f8";
              }).find("unknown fragment"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["fragments"].push_back(d["fragments"][0]); }).find("given twice"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["fragments"][0]["num_elements"] = 8; }).find("contradict the ISA"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["fragments"][0]["lanes"].erase(31); }).find("32 lanes"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["fragments"][0]["lanes"][3].erase(0); }).find("lane 3 must list 16"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) {
                  d["fragments"][0]["lanes"][2][1] = {16, 0};
              }).find("inside the 16 x 16"),
              std::string::npos);
    // Every copy of (0,0) moved to (0,1): a cell nobody holds.
    EXPECT_NE(rejection([](auto& d) {
                  d["fragments"][0]["lanes"][0][0] = {0, 1};
                  d["fragments"][0]["lanes"][0][8] = {0, 1};
              }).find("inconsistent report"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["fragments"][0]["max_holders"] = 1; }).find("contradict the lanes"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["checks"].push_back(d["checks"][0]); }).find("checked twice"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["checks"][0]["mma"] = "maybe"; }).find("pass, fail or unsupported"),
              std::string::npos);
    EXPECT_NE(rejection([](auto& d) { d["checks"][0]["spec"] = "mma.m16n8k16.f16"; }).find("wmma variant"),
              std::string::npos);
}

TEST(WmmaCatalog, EveryVariantIsListedAndTheRecordedReportGivesItsLayouts) {
    const Catalog& c = Catalog::instance();
    int wmmaVariants = 0;
    for (const Variant* v : c.variants())
        if (v->family->name == "wmma") {
            ++wmmaVariants;
            const Instruction& in = c.instruction(*v);
            ASSERT_EQ(in.operands.size(), 4u) << v->spec << ": the H100 report has every fragment";
            for (const FragmentLayout& op : in.operands) {
                EXPECT_EQ(op.uniqueCells(), op.rows() * op.cols()) << v->spec;
                for (const Element& e : op.elements())
                    ASSERT_EQ(in.sourceOf(e.source), Source::Discovered) << v->spec;
            }
            // Each operand is its own fragment of the report, named and typed as the variant says (the
            // tables are shared between the variants and operands that have one fragment: C and D).
            const std::array<Operand, 4> named = {Operand::A, Operand::B, Operand::C, Operand::D};
            for (std::size_t i = 0; i < named.size(); ++i) {
                const FragmentLayout& op = in.operands[i];
                ASSERT_EQ(op.operand(), named[i]) << v->spec;
                const std::optional<FragmentForm> form = formOf(*v, named[i]);
                ASSERT_TRUE(form && in.discovery) << v->spec;
                const DiscoveredFragment* d = in.discovery->report.fragment(*form);
                ASSERT_TRUE(d) << v->spec;
                EXPECT_EQ(op.elementType(), form->type) << v->spec << " " << op.name();
                ASSERT_EQ(op.elements().size(), d->cells.size()) << v->spec << " " << op.name();
                for (std::size_t k = 0; k < d->cells.size(); ++k)
                    ASSERT_TRUE(op.elements()[k].row == d->cells[k].row &&
                                op.elements()[k].col == d->cells[k].col)
                        << v->spec << " " << op.name() << " element " << k;
            }
            ASSERT_FALSE(in.notes.empty());
            EXPECT_NE(in.notes[0].find("unspecified"), std::string::npos) << v->spec;
            EXPECT_NE(in.notes[1].find("SASS sm_90"), std::string::npos) << v->spec;
            EXPECT_NE(in.notes[1].find("other targets may differ"), std::string::npos) << v->spec;
        }
    EXPECT_EQ(wmmaVariants, 71);
    EXPECT_EQ(discoveredTargets(), std::vector<std::string>{"sm_90"});
    EXPECT_TRUE(recordedFor("sm_90"));
    EXPECT_FALSE(recordedFor("sm_80"));
}

// Building a wmma fragment writes the discovery's notes into the instruction; the variant `list` and search
// read keeps the one it registered with (the two share it until the build writes).
TEST(WmmaCatalog, ABuildsNotesAreTheInstructionsNotTheVariants) {
    const Variant* v = Catalog::instance().variant("wmma.m16n16k16.row.col.f16.f32");
    ASSERT_TRUE(v);
    const Instruction& built = Catalog::instance().instruction(*v);
    ASSERT_GE(built.notes.size(), 2u);
    EXPECT_NE(built.notes[1].find("SASS sm_90"), std::string::npos);
    ASSERT_EQ(v->notes.size(), 1u);
    EXPECT_NE(v->notes[0].find("unspecified"), std::string::npos);
    EXPECT_EQ(instructionFor(*v, "sm_120").notes.size(), 2u); // unspecified, not discovered
    EXPECT_EQ(v->notes.size(), 1u);
}

TEST(WmmaCatalog, WithoutAReportTheVariantSaysItIsNotDiscovered) {
    const Variant* v = Catalog::instance().variant("wmma.m16n16k16.row.col.f16.f32");
    ASSERT_TRUE(v);
    const Instruction in = instructionFor(*v, "sm_120");
    EXPECT_TRUE(in.operands.empty());
    bool said = false;
    for (const std::string& n : in.notes)
        said = said || n.find(kNotDiscovered) != std::string::npos;
    EXPECT_TRUE(said);
    std::string text, error;
    ASSERT_TRUE(exportInstruction(in, ExportFormat::Text, {}, text, error)) << error;
    EXPECT_NE(text.find("run lanemap-cli discover"), std::string::npos);
}

TEST(WmmaCatalog, TheH100F16FragmentsAreMmaFragmentsHeldTwice) {
    const Instruction& in = *Catalog::instance().instruction("wmma.m16n16k16.row.col.f16.f32");
    const FragmentLayout& a = *in.operand(Operand::A);
    EXPECT_EQ(a.elementsPerThread(), 16);
    EXPECT_EQ(a.maxOwners(), 2);
    EXPECT_EQ(a.owners(0, 0).size(), 2u) << "a cell held twice lists both holders";
    const std::vector<MmaRelation> relations = mmaRelations(in);
    ASSERT_EQ(relations.size(), 3u);
    EXPECT_EQ(relations[0].mmaSpec, "mma.m16n8k16.f16");
    EXPECT_EQ(relations[0].tiles.size(), 1u);
    EXPECT_EQ(relations[2].operand, Operand::D);
    EXPECT_EQ(describe(relations[2]).substr(0, 40), "D = 2 x mma.m16n8k16.f16 D fragments sid");
}

TEST(WmmaExport, JsonCarriesMultiplicityObservationAndRelation) {
    const Instruction& in = *Catalog::instance().instruction("wmma.m16n16k16.row.col.f16.f32");
    std::string json, error;
    ASSERT_TRUE(exportInstruction(in, ExportFormat::Json, {}, json, error)) << error;
    const auto doc = nlohmann::json::parse(json);
    EXPECT_EQ(doc["family"], "wmma");
    EXPECT_EQ(doc["wmma"]["layout_source"], "discovered on hardware");
    EXPECT_EQ(doc["wmma"]["observed"]["sass_target"], "sm_90");
    EXPECT_EQ(doc["wmma"]["observed"]["other_targets"], "may differ");
    EXPECT_EQ(doc["wmma"]["multiplicity"][0]["num_elements"], 16);
    EXPECT_EQ(doc["wmma"]["multiplicity"][0]["unique_cells"], 256);
    EXPECT_EQ(doc["wmma"]["multiplicity"][0]["max_holders"], 2);
    EXPECT_EQ(doc["wmma"]["mma_relations"][0]["mma"], "mma.m16n8k16.f16");
    EXPECT_EQ(doc["operands"][0]["elements"][0]["source"], "discovered");
}

} // namespace test_wmma
