// Catalog-wide invariants of the atom records, over every variant with no family filter: metadata summaries
// agree with the storage rule of the A operand, sparse wgmma has exactly the warp-level figure per warp,
// forms render the variant's own PTX, notes and errata are attached once, and the evidence overlay (not the
// tables) says what the hardware confirmed.
#include "lanemap/catalog.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/export.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/sparse.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

namespace test_atoms {

using namespace lanemap;

namespace {

const Catalog& cat() {
    return Catalog::instance();
}

TEST(EveryAtom, MetadataSummariesFollowTheStorageRuleOfA) {
    int sparse = 0;
    for (const Variant* v : cat().variants()) {
        const Instruction& in = cat().instruction(*v);
        if (!in.metadata)
            continue;
        ++sparse;
        SCOPED_TRACE(in.spec);
        const sparse::StorageRule* rule =
            sparse::ruleForContainerBits(in.operand(Operand::A)->containerBits());
        ASSERT_NE(rule, nullptr);
        const MetadataLayout& md = *in.metadata;
        EXPECT_EQ(md.granularity, rule->granularity);
        EXPECT_EQ(md.chunkCols, rule->chunkCols);
        EXPECT_EQ(md.fieldBits, rule->fieldBits);
        EXPECT_EQ(md.indexBits, rule->indexBits);
        EXPECT_EQ(md.validValues, sparse::validFieldValues(rule->pattern, in.ordered));
        EXPECT_FALSE(md.validValues.empty());
        for (const MetadataSelector& s : md.selectors)
            for (const MetadataField& f : s.fields) {
                EXPECT_EQ(f.colLast - f.colFirst + 1, md.chunkCols);
                EXPECT_EQ(f.bitHi - f.bitLo + 1, md.fieldBits);
            }
    }
    EXPECT_EQ(sparse, 55 + 292); // every mma.sp and wgmma.sp variant
}

// The issue that started the atom records: wgmma.sp exported "chunk_cols": 4 and "valid_values": [] for tf32.
TEST(EveryAtom, SparseWgmmaExportsTheSameMetadataSummaryAsItsWarpLevelTwin) {
    const auto summary = [](const std::string& spec) {
        std::string doc, error;
        EXPECT_TRUE(exportInstruction(*cat().instruction(spec), ExportFormat::Json, {}, doc, error)) << error;
        const nlohmann::json j = nlohmann::json::parse(doc);
        for (const nlohmann::json& op : j["operands"])
            if (op["name"] == "metadata")
                return std::tuple(op["granularity"], op["index_bits"], op["chunk_cols"], op["valid_values"]);
        ADD_FAILURE() << spec << " has no metadata operand";
        return std::tuple(nlohmann::json{}, nlohmann::json{}, nlohmann::json{}, nlohmann::json{});
    };
    const auto tf32 = summary("wgmma.sp.m64n8k16.tf32");
    EXPECT_EQ(std::get<2>(tf32), 2);
    EXPECT_EQ(std::get<3>(tf32), nlohmann::json::array({4, 14}));
    EXPECT_EQ(tf32, summary("mma.sp.m16n8k16.tf32"));
    EXPECT_EQ(summary("wgmma.sp.m64n128k32.bf16"), summary("mma.sp.m16n8k32.bf16"));
    EXPECT_EQ(summary("wgmma.sp.m64n256k64.e4m3"), summary("mma.sp.m16n8k64.e4m3"));
    EXPECT_EQ(summary("wgmma.sp.m64n8k64.u8"), summary("mma.sp.m16n8k64.u8"));
}

TEST(EveryAtom, SparseWgmmaMetadataIsTheWarpFigurePerWarp) {
    const std::map<std::pair<ElementType, int>, std::string> twin{
        {{ElementType::F16, 32}, "mma.sp.m16n8k32.f16"},   {{ElementType::BF16, 32}, "mma.sp.m16n8k32.bf16"},
        {{ElementType::TF32, 16}, "mma.sp.m16n8k16.tf32"}, {{ElementType::E4M3, 64}, "mma.sp.m16n8k64.e4m3"},
        {{ElementType::E5M2, 64}, "mma.sp.m16n8k64.e5m2"}, {{ElementType::S8, 64}, "mma.sp.m16n8k64.s8"},
        {{ElementType::U8, 64}, "mma.sp.m16n8k64.u8"}};
    int checked = 0;
    for (const Variant* v : cat().variants()) {
        if (v->family->name != "wgmma.sp")
            continue;
        const Instruction& in = cat().instruction(*v);
        const Instruction& warp = *cat().instruction(twin.at({in.atype, in.k}));
        ASSERT_EQ(in.metadata->selectors.size(), warp.metadata->selectors.size()) << in.spec;
        for (std::size_t s = 0; s < in.metadata->selectors.size(); ++s) {
            const auto& mine = in.metadata->selectors[s].fields;
            const auto& theirs = warp.metadata->selectors[s].fields;
            ASSERT_EQ(mine.size(), 4 * theirs.size()) << in.spec;
            for (std::size_t i = 0; i < mine.size(); ++i) {
                const MetadataField& f = mine[i];
                const MetadataField& t = theirs[i % theirs.size()];
                const int warpOf = static_cast<int>(i / theirs.size());
                ASSERT_TRUE(f.thread == t.thread + 32 * warpOf && f.row == t.row + 16 * warpOf &&
                            f.colFirst == t.colFirst && f.bitLo == t.bitLo)
                    << in.spec << " field " << i;
            }
        }
        ++checked;
    }
    EXPECT_EQ(checked, 292);
}

TEST(EveryAtom, FormsRenderTheVariantsPtxAndAreDistinct) {
    for (const Variant* v : cat().variants()) {
        ASSERT_FALSE(v->forms.empty()) << v->spec;
        EXPECT_EQ(ptxOf(*v, v->forms.front()), v->ptx);
        std::set<std::string> ptx;
        for (const Form& f : v->forms) {
            EXPECT_TRUE(ptx.insert(ptxOf(*v, f)).second) << v->spec << ": form rendered twice";
            EXPECT_TRUE(sameMixGroup(f.atype, f.btype)) << v->spec;
            EXPECT_EQ(f.atype, v->atype) << v->spec;
        }
    }
    // Mixed types and the other b1 operation are forms of one variant, not variants.
    const Variant* s8 = cat().variant("mma.m16n8k16.s8");
    ASSERT_NE(s8, nullptr);
    ASSERT_EQ(s8->forms.size(), 2u);
    EXPECT_EQ(ptxOf(*s8, s8->forms[1]), "mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32");
    const Variant* b1 = cat().variant("mma.m16n8k128.b1");
    ASSERT_EQ(b1->forms.size(), 2u);
    EXPECT_EQ(b1->forms[0].b1, B1Op::Xor);
    EXPECT_EQ(ptxOf(*b1, b1->forms[1]), "mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.and.popc");
}

TEST(EveryAtom, NotesAndErrataAreAttachedOnceAndOnlyWhereTheyApply) {
    std::map<std::string_view, int> errata;
    for (const Variant* v : cat().variants()) {
        std::set<std::string> notes(v->notes.begin(), v->notes.end());
        EXPECT_EQ(notes.size(), v->notes.size()) << v->spec << ": a note written twice";
        std::set<std::string_view> ids;
        for (const Erratum& e : v->errata) {
            EXPECT_TRUE(ids.insert(e.id).second) << v->spec;
            ++errata[e.id];
        }
    }
    EXPECT_EQ(errata["E1"], 1); // mma.m16n8k256.b1 only
    EXPECT_EQ(errata["E2"], 1);
    EXPECT_EQ(errata["E13"], 4); // wgmma .s8/.u8 m64n240k32 and m64n256k32
    for (const char* id : {"E3", "E4", "E8", "E9", "E10", "E11", "E14"})
        EXPECT_GT(errata[id], 0) << id;
}

// --- the evidence overlay
// -------------------------------------------------------------------------------------

ProbeReport reportOf(const std::string& date, const std::string& spec, Verdict verdict) {
    ProbeReport r;
    r.device = {"Test GPU", 90, "1.0", "13.0"};
    r.date = date;
    ProbeResult res;
    res.spec = spec;
    res.verdict = verdict;
    r.results.push_back(res);
    return r;
}

TEST(EvidenceOverlay, APassOutranksFailAndUnsupportedAndTheLaterPassWins) {
    EvidenceOverlay o;
    o.add(reportOf("2026-01-02T00:00:00Z", "mma.m16n8k16.f16", Verdict::Pass), "resources/probe/old.json");
    o.add(reportOf("2026-01-03T00:00:00Z", "mma.m16n8k16.f16", Verdict::Fail), "resources/probe/broken.json");
    o.add(reportOf("2026-01-04T00:00:00Z", "mma.m16n8k16.f16", Verdict::Unsupported),
          "resources/probe/other.json");
    ASSERT_NE(o.find("mma.m16n8k16.f16"), nullptr);
    EXPECT_EQ(o.find("mma.m16n8k16.f16")->verdict, Verdict::Pass);
    EXPECT_EQ(o.find("mma.m16n8k16.f16")->run->report, "resources/probe/old.json");
    o.add(reportOf("2026-01-05T00:00:00Z", "mma.m16n8k16.f16", Verdict::Pass), "resources/probe/new.json");
    EXPECT_EQ(o.find("mma.m16n8k16.f16")->run->report, "resources/probe/new.json");
    EXPECT_EQ(o.find("mma.m16n8k8.f16"), nullptr);
}

TEST(EvidenceOverlay, OnlyAPassingRunTurnsFigureAndInferredPlacementsIntoHardware) {
    Instruction in = *cat().instruction("wgmma.m64n8k16.f16");
    const Source table = in.operand(Operand::D)->elements().front().source;
    EXPECT_EQ(table, Source::Figure) << "the table states the document, never the hardware";
    EvidenceOverlay o;
    o.add(reportOf("2026-01-02T00:00:00Z", in.spec, Verdict::Fail), "resources/probe/x.json");
    in.hardware = o.find(in.spec);
    EXPECT_EQ(in.sourceOf(table), Source::Figure);
    o.add(reportOf("2026-01-03T00:00:00Z", in.spec, Verdict::Pass), "resources/probe/y.json");
    in.hardware = o.find(in.spec);
    EXPECT_EQ(in.sourceOf(table), Source::Hardware);
    EXPECT_EQ(in.sourceOf(Source::Doc), Source::Doc) << "a text formula stays a text formula";
    in.hardware = nullptr;
    EXPECT_EQ(in.sourceOf(table), Source::Figure);
}

TEST(EvidenceOverlay, TheRecordedRunsCoverEveryVariantTheH100RunsAndNoTableSaysHardware) {
    int passed = 0;
    for (const Variant* v : cat().variants()) {
        const Instruction& in = cat().instruction(*v);
        for (const FragmentLayout& op : in.operands)
            for (const Element& e : op.elements())
                ASSERT_NE(e.source, Source::Hardware) << in.spec;
        if (in.metadata) {
            for (const MetadataSelector& s : in.metadata->selectors)
                for (const MetadataField& f : s.fields)
                    ASSERT_NE(f.source, Source::Hardware) << in.spec;
        }
        if (v->family->name == "wmma")
            continue; // its evidence is the discovery report (wmma.hpp), not a probe report
        if (tmem::accessOf(*v) || tmem::mmaOf(*v)) {
            // tcgen05 needs sm_100a and the probe has no tcgen05 method yet: no recorded run may claim it.
            EXPECT_EQ(EvidenceOverlay::recorded().find(v->spec), nullptr) << v->spec;
            continue;
        }
        const HardwareEvidence* h = EvidenceOverlay::recorded().find(v->spec);
        ASSERT_NE(h, nullptr) << v->spec << " is in no recorded report";
        EXPECT_EQ(in.hardware, h);
        if (h->verdict == Verdict::Pass) {
            ++passed;
            // The H100 reports, and the tma-box run on an H200 (resources/probe/h200-tma.json).
            EXPECT_TRUE(h->run->device.name == "NVIDIA H100 80GB HBM3" ||
                        h->run->device.name == "NVIDIA H200")
                << h->run->device.name;
            EXPECT_EQ(h->run->report.rfind("resources/probe/", 0), 0u);
        }
    }
    // + the .b16 ldmatrix, stmatrix and movmatrix, + cp.async.bulk.tensor.1d to .5d
    EXPECT_EQ(passed, 83 + 310 + 292 + 13 + 5);
}

} // namespace

namespace {
// Options a format cannot honour are refused with a message that names them, never silently ignored.
TEST(ExportOptions, WhatAFormatCannotHonourIsRefused) {
    const Instruction& wg = *cat().instruction("wgmma.m64n64k16.f16");
    const Instruction& mma = *cat().instruction("mma.m16n8k16.f16");
    std::string doc, error;
    ExportOptions a;
    a.operands = Operand::A;
    EXPECT_FALSE(exportInstruction(mma, ExportFormat::Json, a, doc, error));
    EXPECT_NE(error.find("--operand"), std::string::npos) << error;
    EXPECT_TRUE(exportInstruction(mma, ExportFormat::Svg, a, doc, error)) << error;

    // A shared-memory layout for a warp-level instruction has nothing to describe.
    Params swizzle;
    swizzle.smem = smem::Choice{smem::Major::K, smem::Swizzle::B64};
    error = validate({cat().variant(mma.spec), swizzle});
    EXPECT_NE(error.find("--major, --swizzle"), std::string::npos) << error;
    // The CUDA header places wgmma's shared-memory operands for the chosen layout; Triton has none to place.
    const std::shared_ptr<const Instruction> wg64 = instantiate({cat().variant(wg.spec), swizzle});
    EXPECT_TRUE(exportInstruction(*wg64, ExportFormat::Cuda, {}, doc, error)) << error;
    EXPECT_NE(doc.find("64B swizzle"), std::string::npos);
    EXPECT_FALSE(exportInstruction(*wg64, ExportFormat::Triton, {}, doc, error));
    EXPECT_NE(error.find("--major/--swizzle"), std::string::npos) << error;
}

// The SVG draws wgmma's shared-memory B as the app's pane does: under the registers for the whole
// instruction, alone for --operand B, with the chosen swizzle (it refused all three before).
TEST(ExportOptions, WgmmaSvgCarriesTheSharedMemoryOperand) {
    const Instruction& wg = *cat().instruction("wgmma.m64n64k16.f16");
    std::string whole, onlyB, onlyB64, error;
    ASSERT_TRUE(exportInstruction(wg, ExportFormat::Svg, {}, whole, error)) << error;
    EXPECT_NE(whole.find("B in shared memory"), std::string::npos);
    EXPECT_NE(whole.find("0x"), std::string::npos) << "byte addresses are drawn";

    ExportOptions b;
    b.operands = Operand::B;
    ASSERT_TRUE(exportInstruction(wg, ExportFormat::Svg, b, onlyB, error)) << error;
    EXPECT_LT(onlyB.size(), whole.size()) << "B alone is smaller than the whole instruction";
    Params b64;
    b64.smem = smem::Choice{smem::Major::K, smem::Swizzle::B64};
    ASSERT_TRUE(
        exportInstruction(*instantiate({cat().variant(wg.spec), b64}), ExportFormat::Svg, b, onlyB64, error))
        << error;
    EXPECT_NE(onlyB64, onlyB) << "the swizzle changes the addresses drawn";
}
} // namespace

} // namespace test_atoms
