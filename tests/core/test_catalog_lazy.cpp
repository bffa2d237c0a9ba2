// A lookup of one spec registers only that spec's variant: a one-shot `show` or `export` pays for the one row
// it needs, not for its family's table (95 dense mma variants, 602 wgmma) nor the 1,000-odd of every table.
// What a user sees must not depend on what was registered first.
#include "lanemap/catalog.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/search.hpp"
#include "lanemap/spec.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace lanemap::test_catalog_lazy {
namespace {

std::size_t countOf(std::string_view family) {
    const auto& all = Catalog::instance().variants();
    return static_cast<std::size_t>(
        std::count_if(all.begin(), all.end(), [&](const Variant* v) { return v->family->name == family; }));
}

// Listing, completion and search read the variants' records, never their layouts: building every layout of
// the catalog is what a one-shot command must not pay for.
TEST(LazyCatalog, ListingAndSearchBuildNoLayout) {
    const auto catalog = Catalog::unregistered();
    std::size_t matched = 0;
    const std::vector<std::string> words = searchWords("m16n8k16 bf16");
    for (const Variant* v : catalog->variants())
        matched += matchesSearch(searchText(*v), words) ? 1 : 0;
    EXPECT_GT(matched, 0u);
    ASSERT_FALSE(catalog->variants().empty());
    EXPECT_EQ(catalog->byPtx(normalizePtx(catalog->variants().front()->ptx)), catalog->variants().front());
    EXPECT_EQ(catalog->builtCount(), 0u) << "listing and search built layouts";
    ASSERT_NE(catalog->instruction("mma.m16n8k16.f16"), nullptr);
    EXPECT_EQ(catalog->builtCount(), 1u) << "one lookup builds one variant's layouts";
}

// A pasted PTX string is looked up in its family's table alone: `where mma.sync.aligned.m16n8k16...` took
// 3.3 ms and 540 page faults where the spec took 0.9 ms and 150, indexing every table's PTX strings.
TEST(LazyCatalog, APtxLookupRegistersOnlyItsFamilysTable) {
    const auto catalog = Catalog::unregistered();
    const Variant* v = catalog->byPtx(normalizePtx("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"));
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->spec, "mma.m16n8k16.f16");
    EXPECT_EQ(catalog->registeredSize(), countOf("mma")) << "only the mma table";
    EXPECT_EQ(catalog->builtCount(), 0u);
    const Variant* sp = catalog->byPtx(
        normalizePtx("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32"));
    ASSERT_NE(sp, nullptr);
    EXPECT_EQ(sp->spec, "mma.sp::ordered_metadata.m16n8k32.f16");
    EXPECT_LT(catalog->registeredSize(), Catalog::instance().variants().size() / 2);
    EXPECT_EQ(catalog->byPtx(normalizePtx("nosuch.sync.aligned.m16n8k16")), nullptr);
}

TEST(LazyCatalog, LookingUpOneSpecRegistersOnlyThatVariant) {
    const auto catalog = Catalog::unregistered();
    EXPECT_EQ(catalog->registeredSize(), 0u);
    const Variant* v = catalog->variant("mma.m16n8k16.f16");
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->ptx, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
    EXPECT_EQ(catalog->registeredSize(), 1u);
    EXPECT_EQ(catalog->variant("mma.m16n8k16.f16"), v) << "asked twice, the same variant";
    EXPECT_EQ(catalog->registeredSize(), 1u);

    // mma.sp and its ::ordered_metadata spelling are one table, found by the longest family name.
    ASSERT_NE(catalog->variant("mma.sp::ordered_metadata.m16n8k32.f16"), nullptr);
    EXPECT_EQ(catalog->registeredSize(), 2u);
    ASSERT_NE(catalog->variant("wgmma.m64n256k16.f16"), nullptr);
    EXPECT_EQ(catalog->registeredSize(), 3u);
    // A spec the table does not hold: the whole table answers (and the error path lists its neighbours).
    EXPECT_EQ(catalog->variant("wgmma.m64n8k16.f16.nope"), nullptr);
    EXPECT_EQ(catalog->registeredSize(),
              2u + countOf("wgmma") + countOf("wgmma.sp")) // the m64n256k16 one adopted, not added
        << "mma and mma.sp: one variant each; wgmma: its table";
    EXPECT_EQ(catalog->variant("tcgen05.mma.f16"), nullptr) << "no table: nothing to register";
    EXPECT_EQ(catalog->variant(""), nullptr);
}

TEST(LazyCatalog, AVariantRegisteredAloneIsTheOneItsTableListsLater) {
    const auto catalog = Catalog::unregistered();
    // Built before its table registers: the table keeps that variant (the address a caller holds, its
    // layouts), in its place in catalog order.
    const Variant* alone = catalog->variant("mma.m16n8k8.bf16");
    ASSERT_NE(alone, nullptr);
    const Instruction* built = catalog->instruction("mma.m16n8k8.bf16");
    ASSERT_NE(built, nullptr);
    const auto& all = catalog->variants();
    const auto it = std::find(all.begin(), all.end(), alone);
    ASSERT_NE(it, all.end()) << "the variant handed out before is the one listed";
    EXPECT_EQ(
        std::count_if(all.begin(), all.end(), [](const Variant* x) { return x->spec == "mma.m16n8k8.bf16"; }),
        1);
    EXPECT_EQ(catalog->instruction("mma.m16n8k8.bf16"), built) << "built once";
    EXPECT_EQ(catalog->registeredSize(), Catalog::instance().size());
    EXPECT_EQ((*it)->spec, Catalog::instance().variants()[static_cast<std::size_t>(it - all.begin())]->spec);
}

TEST(LazyCatalog, EveryVariantIsFoundWhicheverFamilyRegistersFirstInTheSameOrder) {
    const auto& all = Catalog::instance().variants();
    const auto catalog = Catalog::unregistered();
    // Last family first: wmma, matrix moves, wgmma... registered out of catalog order.
    std::map<std::string, const Variant*> found;
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        const Variant* v = catalog->variant((*it)->spec);
        ASSERT_NE(v, nullptr) << (*it)->spec;
        found[v->spec] = v;
        EXPECT_EQ(v->ptx, (*it)->ptx);
        EXPECT_EQ(v->family, (*it)->family);
        EXPECT_EQ(v->notes, (*it)->notes) << v->spec;
        EXPECT_EQ(v->errata.size(), (*it)->errata.size()) << v->spec;
        EXPECT_EQ(v->forms.size(), (*it)->forms.size()) << v->spec;
        EXPECT_EQ(v->minSm, (*it)->minSm) << v->spec;
        EXPECT_EQ(v->section, (*it)->section) << v->spec;
    }
    const auto& fresh = catalog->variants();
    ASSERT_EQ(fresh.size(), all.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        EXPECT_EQ(fresh[i]->spec, all[i]->spec) << "catalog order at " << i;
    for (const Variant* v : fresh)
        EXPECT_EQ(found[v->spec], v) << v->spec << ": the variant registered alone is the one listed";
    const Variant* byPtx = catalog->byPtx(normalizePtx("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"));
    ASSERT_NE(byPtx, nullptr);
    EXPECT_EQ(byPtx->spec, "mma.m16n8k16.f16");
}

TEST(LazyCatalog, AnInstructionBuiltFromAFreshCatalogEqualsTheSharedOne) {
    const auto catalog = Catalog::unregistered();
    for (const char* spec : {"wgmma.sp.m64n16k32.f16", "ldmatrix.m8n8.x4.b16", "mma.m8n8k4.row.row.f16"}) {
        const Instruction* fresh = catalog->instruction(spec);
        const Instruction* shared = Catalog::instance().instruction(spec);
        ASSERT_NE(fresh, nullptr) << spec;
        ASSERT_NE(shared, nullptr) << spec;
        EXPECT_EQ(fresh->hardware, shared->hardware) << spec;
        ASSERT_EQ(fresh->operands.size(), shared->operands.size()) << spec;
        for (std::size_t i = 0; i < fresh->operands.size(); ++i)
            EXPECT_EQ(fresh->operands[i].elements().size(), shared->operands[i].elements().size()) << spec;
    }
}

// An entry looks its recorded run up the first time it is built and keeps it: every later build of the
// variant names the same run, and a variant no run confirmed stays without one.
TEST(LazyCatalog, EveryBuildOfAVariantNamesTheRunTheRecordedReportsName) {
    const auto catalog = Catalog::unregistered();
    for (const char* spec : {"mma.m16n8k16.f16", "wgmma.m64n8k16.f16", "tcgen05.ld.32x32b.x2"}) {
        const Variant* v = catalog->variant(spec);
        ASSERT_NE(v, nullptr) << spec;
        const HardwareEvidence* recorded = EvidenceOverlay::recorded().find(spec);
        for (int build = 0; build < 3; ++build)
            EXPECT_EQ(catalog->buildUncached(*v).hardware, recorded) << spec << ", build " << build;
    }
    EXPECT_NE(EvidenceOverlay::recorded().find("mma.m16n8k16.f16"), nullptr) << "confirmed on an H100";
    EXPECT_EQ(EvidenceOverlay::recorded().find("tcgen05.ld.32x32b.x2"), nullptr) << "no Blackwell run";
}

// The built-in evidence is looked up per spec when asked for; it must say what adding every recorded report
// in file-name order says (a pass outranks the rest, then the later date).
TEST(LazyEvidence, EachSpecsBuiltInEvidenceIsWhatTheRecordedReportsSay) {
    std::vector<std::filesystem::path> files;
    for (const auto& e :
         std::filesystem::directory_iterator(std::string(LANEMAP_SOURCE_DIR) + "/resources/probe"))
        if (e.path().extension() == ".json")
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    ASSERT_FALSE(files.empty());
    EvidenceOverlay expected;
    std::set<std::string> specs;
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        ProbeReport report;
        std::string error;
        ASSERT_TRUE(parseProbeReport(text.str(), report, error)) << file << ": " << error;
        for (const ProbeResult& r : report.results)
            specs.insert(r.spec);
        expected.add(report, "resources/probe/" + file.filename().string());
    }
    const EvidenceOverlay& builtIn = EvidenceOverlay::recorded();
    ASSERT_EQ(builtIn.runs().size(), files.size());
    for (const std::string& spec : specs) {
        const HardwareEvidence* want = expected.find(spec);
        const HardwareEvidence* got = builtIn.find(spec);
        ASSERT_NE(got, nullptr) << spec;
        EXPECT_EQ(got->verdict, want->verdict) << spec;
        EXPECT_EQ(got->run->report, want->run->report) << spec;
        EXPECT_EQ(got->run->date, want->run->date) << spec;
        EXPECT_EQ(builtIn.find(spec), got) << "asked twice, the same record";
    }
    EXPECT_EQ(builtIn.find("mma.m16n8k16.f16.nope"), nullptr);
}

} // namespace
} // namespace lanemap::test_catalog_lazy
