// The probe's host side without a GPU: register images -> CPU tensor core (simulate) -> interpretation.
// A simulator that uses the engine's own layout must give a clean pass; one that uses a deliberately permuted
// layout plays a GPU that disagrees, and the probe must name exactly the cells that were permuted.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/experiments.hpp"
#include "lanemap/gpu/simulate.hpp"

#include "../core/sparse_unresolved.hpp"
#include "shared/errata.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

namespace test_interpret {

using namespace lanemap;
using namespace lanemap::gpu;

namespace {

const Instruction& instr(const std::string& spec) {
    const Instruction* in = Catalog::instance().instruction(spec);
    if (!in)
        throw std::runtime_error("unknown spec " + spec);
    return *in;
}

Interpretation runSimulated(const Instruction& in, const SimReference& ref) {
    const ProbePlan plan = planProbe(in);
    return interpretProbe(plan, simulate(plan, ref));
}

// Index of (thread, index) in an operand's element list.
std::size_t flat(const std::vector<Element>& els, int thread, int index) {
    for (std::size_t i = 0; i < els.size(); ++i)
        if (els[i].thread == thread && els[i].index == index)
            return i;
    throw std::runtime_error("no such element");
}

void swapCells(std::vector<Element>& els, std::size_t x, std::size_t y) {
    std::swap(els[x].row, els[y].row);
    std::swap(els[x].col, els[y].col);
    std::swap(els[x].colLast, els[y].colLast);
    std::swap(els[x].matrix, els[y].matrix);
}

using Named = std::tuple<Operand, int, int, std::string>; // operand, thread, index, experiment

std::set<Named> named(const ProbeResult& r) {
    std::set<Named> out;
    for (const ProbeMismatch& m : r.mismatches)
        out.insert({m.operand, m.thread, m.index, m.experiment});
    return out;
}

bool hasFinding(const ProbeResult& r, const std::string& text) {
    return std::any_of(r.findings.begin(), r.findings.end(),
                       [&](const std::string& f) { return f.find(text) != std::string::npos; });
}

TEST(ProbeHost, DecodesEveryAccumulatorType) {
    EXPECT_EQ(decodeValue(ElementType::F16, 0x3C00), 1.0);
    EXPECT_EQ(decodeValue(ElementType::F16, 0x4000), 2.0);
    EXPECT_EQ(decodeValue(ElementType::F32, 0x3F800000), 1.0);
    EXPECT_EQ(decodeValue(ElementType::S32, 0xFFFFFFFF), -1.0);
    EXPECT_EQ(decodeValue(ElementType::F64, 0x3FF0000000000000ull), 1.0);
    EXPECT_THROW(decodeValue(ElementType::E4M3, 0x38), std::invalid_argument);
}

TEST(ProbeHost, FormsAreStructuredAndTheirPtxIsTheCatalogs) {
    const Instruction& in = instr("mma.m16n8k32.s8");
    const std::vector<ProbeForm> forms = formsOf(in);
    ASSERT_EQ(forms.size(), in.forms.size());
    EXPECT_EQ(forms[0].ptx, in.ptx);
    EXPECT_EQ(forms[0].atype(), ElementType::S8);
    for (std::size_t i = 1; i < forms.size(); ++i) {
        EXPECT_EQ(forms[i].ptx, ptxOf(in, in.forms[i]));
        EXPECT_TRUE(sameMixGroup(forms[i].atype(), ElementType::S8));
    }
    EXPECT_NE(forms[1].instruction, forms[0].instruction);
}

TEST(ProbeHost, RegisterImagesPutOneHotValuesWhereTheEngineSays) {
    const Instruction& in = instr("mma.m16n8k16.f16");
    const ProbePlan plan = planProbe(in);
    ASSERT_EQ(plan.forms.size(), 1u);
    EXPECT_EQ(plan.words.a, 4);
    EXPECT_EQ(plan.words.d, 4);
    // The rows experiment of T0:a1: A register 0 of lane 0 holds 1.0 in its high half, B is all ones.
    const auto it = std::find_if(plan.experiments.begin(), plan.experiments.end(), [](const Experiment& x) {
        return x.kind == ExperimentKind::RowsAD && x.element == 1;
    });
    ASSERT_NE(it, plan.experiments.end());
    const std::uint32_t* img = plan.images.data() + static_cast<std::size_t>(it - plan.experiments.begin()) *
                                                        plan.inWordsPerExperiment();
    EXPECT_EQ(img[0 * 32 + 0], 0x3C000000u);
    EXPECT_EQ(img[0 * 32 + 1], 0u);
    EXPECT_EQ(img[4 * 32 + 17], 0x3C003C00u); // B register 0 of lane 17
    EXPECT_EQ(img[6 * 32 + 0], 0u);           // C is zero
    // 128 C + 256 A + 128 B + 256 A x 8 bits of (f+1), f < 128.
    EXPECT_EQ(plan.kBits, 8);
    EXPECT_EQ(plan.experiments.size(), 128u + 256u + 128u + 256u * 8u);
}

// Every mma and mma.sp variant of the catalog (also those no H100 runs: the host side does not care), one
// test each so CTest spreads them over the cores.
class EveryVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryVariant, PassesAgainstItsOwnLayoutAndObservesTheEnginesMapping) {
    const Instruction& in = instr(GetParam());
    const Interpretation got = runSimulated(in, referenceOf(in));
    const ProbeResult& r = got.result;
    EXPECT_EQ(r.verdict, Verdict::Pass)
        << (r.mismatches.empty() ? "" : r.mismatches[0].experiment + ": " + r.mismatches[0].observed);
    EXPECT_EQ(r.cellsMismatched, 0);
    std::size_t cells = in.operand(Operand::A)->elements().size() +
                        in.operand(Operand::B)->elements().size() +
                        in.operand(Operand::C)->elements().size() + in.operand(Operand::D)->elements().size();
    if (in.metadata) {
        for (const MetadataSelector& s : in.metadata->selectors)
            cells += s.fields.size();
    }
    EXPECT_EQ(static_cast<std::size_t>(r.cellsChecked), cells);
    EXPECT_TRUE(hasFinding(r, "agree with lanemap"));
    // The observed mapping is the engine's, element by element (for mma.sp: the column under metadata
    // 0b0100).
    const FragmentLayout& a = *in.operand(Operand::A);
    for (std::size_t f = 0; f < got.observed.a.size(); ++f)
        for (std::size_t e = 0; e < a.elements().size(); ++e) {
            ASSERT_EQ(got.observed.a[f][e].row, a.elements()[e].row) << "form " << f << " element " << e;
            ASSERT_GE(got.observed.a[f][e].col, a.elements()[e].col) << "form " << f << " element " << e;
            ASSERT_LE(got.observed.a[f][e].col, a.elements()[e].colLast) << "form " << f << " element " << e;
        }
    EXPECT_EQ(hasFinding(r, "metadata, selector"), (in.metadata != nullptr));
}

std::vector<std::string> probedSpecs() {
    std::vector<std::string> specs;
    for (const Variant* v : Catalog::instance().variants())
        if (v->family->name == "mma" || v->family->name == "mma.sp")
            specs.push_back(v->spec);
    return specs;
}

std::string testName(const ::testing::TestParamInfo<std::string>& spec) {
    std::string name;
    for (char ch : spec.param)
        name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryVariant, ::testing::ValuesIn(probedSpecs()), testName);

TEST(ProbeHost, SwappedRowsOfANameExactlyThoseTwoCells) {
    const Instruction& in = instr("mma.m16n8k16.f16");
    SimReference hw = referenceOf(in);
    // T0:a0 is (row 0, k 0) and T0:a2 is (row 8, k 0): the simulated GPU swaps their rows.
    swapCells(hw.a, flat(hw.a, 0, 0), flat(hw.a, 0, 2));
    const ProbeResult r = runSimulated(in, hw).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_EQ(r.cellsMismatched, 2);
    const std::set<Named> want{{Operand::A, 0, 0, "rows of A vs D"}, {Operand::A, 0, 2, "rows of A vs D"}};
    EXPECT_EQ(named(r), want);
    for (const ProbeMismatch& m : r.mismatches) {
        if (m.index == 0) {
            EXPECT_EQ(m.expected, "row 0");
            EXPECT_EQ(m.observed, "row 8");
            EXPECT_EQ(m.row, 0);
            EXPECT_EQ(m.col, 0);
        }
    }
    EXPECT_TRUE(hasFinding(r, "2 of 640 cells disagree with lanemap: A 2"));
}

TEST(ProbeHost, SwappedKOfANamesThoseCellsInTheKExperiment) {
    const Instruction& in = instr("mma.m16n8k16.bf16");
    SimReference hw = referenceOf(in);
    // T5:a0 (row 1, k 2) and T5:a1 (row 1, k 3): same row, k exchanged — the sub-register order of a0/a1.
    swapCells(hw.a, flat(hw.a, 5, 0), flat(hw.a, 5, 1));
    const ProbeResult r = runSimulated(in, hw).result;
    const std::set<Named> want{{Operand::A, 5, 0, "k of A vs k of B"},
                               {Operand::A, 5, 1, "k of A vs k of B"}};
    EXPECT_EQ(named(r), want);
    for (const ProbeMismatch& m : r.mismatches)
        if (m.index == 0) {
            EXPECT_EQ(m.expected, "k 2");
            EXPECT_EQ(m.observed, "k 3 (in 8 of 8 columns)");
        }
}

TEST(ProbeHost, SwappedBElementsAreBlamedOnBNotOnTheAElementsTheyMeet) {
    const Instruction& in = instr("mma.m16n8k8.tf32");
    SimReference hw = referenceOf(in);
    // T0:b0 is (k 0, col 0), T0:b1 is (k 4, col 0).
    swapCells(hw.b, flat(hw.b, 0, 0), flat(hw.b, 0, 1));
    const ProbeResult r = runSimulated(in, hw).result;
    const std::set<Named> want{{Operand::B, 0, 0, "k of A vs k of B"},
                               {Operand::B, 0, 1, "k of A vs k of B"}};
    EXPECT_EQ(named(r), want);
    for (const ProbeMismatch& m : r.mismatches)
        if (m.index == 0) {
            EXPECT_EQ(m.expected, "k 0");
            EXPECT_EQ(m.observed, "multiplied by A elements of k 4 (16 of 16)");
        }
}

TEST(ProbeHost, SwappedColumnsOfBAreNamed) {
    const Instruction& in = instr("mma.m16n8k32.s8");
    SimReference hw = referenceOf(in);
    // T0:b0 is (k 0, col 0) and T4:b0 is (k 0, col 1).
    swapCells(hw.b, flat(hw.b, 0, 0), flat(hw.b, 4, 0));
    const ProbeResult r = runSimulated(in, hw).result;
    const std::string form0 = " [.s8]", form1 = " [A .s8 x B .u8]";
    const std::set<Named> want{{Operand::B, 0, 0, "columns of B vs D" + form0},
                               {Operand::B, 4, 0, "columns of B vs D" + form0},
                               {Operand::B, 0, 0, "columns of B vs D" + form1},
                               {Operand::B, 4, 0, "columns of B vs D" + form1}};
    EXPECT_EQ(named(r), want);
    EXPECT_EQ(r.cellsMismatched, 2);
}

TEST(ProbeHost, AWrongDTableIsBlamedOnDAlone) {
    const Instruction& in = instr("mma.m16n8k16.f16");
    SimReference hw = referenceOf(in);
    // The simulated GPU keeps (row 0, col 0) in T0:d2 and (row 8, col 0) in T0:d0.
    swapCells(hw.d, flat(hw.d, 0, 0), flat(hw.d, 0, 2));
    const ProbeResult r = runSimulated(in, hw).result;
    const std::set<Named> want{{Operand::D, 0, 0, "rows of A vs D"}, {Operand::D, 0, 2, "rows of A vs D"}};
    EXPECT_EQ(named(r), want);
    EXPECT_EQ(r.cellsMismatched, 2);
}

TEST(ProbeHost, SwappedHalvesOfAnF16AccumulatorAreNamed) {
    const Instruction& in = instr("mma.m16n8k16.f16.f16");
    SimReference hw = referenceOf(in);
    // c0/c1 of lane 9 share a register: the simulated GPU puts column 2t in the high half.
    swapCells(hw.d, flat(hw.d, 9, 0), flat(hw.d, 9, 1));
    swapCells(hw.c, flat(hw.c, 9, 0), flat(hw.c, 9, 1));
    const ProbeResult r = runSimulated(in, hw).result;
    const std::set<Named> want{{Operand::D, 9, 0, "columns of B vs D"},
                               {Operand::D, 9, 1, "columns of B vs D"}};
    EXPECT_EQ(named(r), want);
    EXPECT_FALSE(hasFinding(r, "D sub-register positions"));
    const ProbeResult clean = runSimulated(in, referenceOf(in)).result;
    EXPECT_TRUE(hasFinding(
        clean, "D sub-register positions: element Di sits in bits [16*(i % 2) + 15 : 16*(i % 2)]"));
}

TEST(ProbeHost, AWrongCTableIsBlamedOnC) {
    const Instruction& in = instr("mma.m16n8k8.f64");
    SimReference hw = referenceOf(in);
    swapCells(hw.c, flat(hw.c, 3, 0), flat(hw.c, 3, 3));
    const ProbeResult r = runSimulated(in, hw).result;
    const std::set<Named> want{{Operand::C, 3, 0, "C vs D"}, {Operand::C, 3, 3, "C vs D"}};
    EXPECT_EQ(named(r), want);
}

TEST(ProbeHost, QuadPairProductsAreToldApart) {
    const Instruction& in = instr("mma.m8n8k4.row.col.f16");
    EXPECT_EQ(runSimulated(in, referenceOf(in)).result.verdict, Verdict::Pass);
    SimReference hw = referenceOf(in);
    // Lane 4 works on product 1, lane 8 on product 2: the simulated GPU exchanges their a0.
    std::swap(hw.a[flat(hw.a, 4, 0)].matrix, hw.a[flat(hw.a, 8, 0)].matrix);
    const ProbeResult r = runSimulated(in, hw).result;
    const std::set<Named> want{{Operand::A, 4, 0, "rows of A vs D"},
                               {Operand::A, 8, 0, "rows of A vs D"},
                               {Operand::A, 4, 0, "k of A vs k of B"},
                               {Operand::A, 8, 0, "k of A vs k of B"}};
    EXPECT_EQ(named(r), want);
    for (const ProbeMismatch& m : r.mismatches)
        if (m.thread == 4 && m.experiment == "rows of A vs D") {
            EXPECT_EQ(m.matrix, 1);
            EXPECT_EQ(m.expected, "product 1 row 0");
            EXPECT_EQ(m.observed, "product 2 row 0");
        }
}

TEST(ProbeHost, B1IsProbedWithXorAndAndAndReadCorrectlyForBoth) {
    const Instruction& in = instr("mma.m8n8k128.b1");
    const ProbePlan plan = planProbe(in);
    ASSERT_EQ(plan.forms.size(), 2u);
    EXPECT_TRUE(plan.forms[0].xorPopc());
    EXPECT_FALSE(plan.forms[1].xorPopc());
    SimReference hw = referenceOf(in);
    swapCells(hw.b, flat(hw.b, 2, 5), flat(hw.b, 2, 6));
    const ProbeResult r = interpretProbe(plan, simulate(plan, hw)).result;
    const std::set<Named> want{{Operand::B, 2, 5, "k of A vs k of B [.xor.popc]"},
                               {Operand::B, 2, 6, "k of A vs k of B [.xor.popc]"},
                               {Operand::B, 2, 5, "k of A vs k of B [.and.popc]"},
                               {Operand::B, 2, 6, "k of A vs k of B [.and.popc]"}};
    EXPECT_EQ(named(r), want);
}

// Every erratum that carries the manual's reading of an operand is settled by the same tally: a simulated GPU
// that uses lanemap's layout confirms it, one that follows the manual's reading refutes it.
TEST(ProbeHost, EveryErratumWithAManualReadingIsConfirmedByLanemapsLayoutAndRefutedByTheManuals) {
    int errata = 0;
    for (const Variant* v : Catalog::instance().variants()) {
        if (v->family->name != "mma" && v->family->name != "mma.sp")
            continue;
        for (const Erratum& e : v->errata) {
            const std::optional<detail::ManualReading> reading = detail::manualReadingOf(e);
            if (!reading)
                continue;
            ++errata;
            const Instruction& in = Catalog::instance().instruction(*v);
            const ProbeResult pass = runSimulated(in, referenceOf(in)).result;
            EXPECT_EQ(pass.verdict, Verdict::Pass) << v->spec;
            EXPECT_TRUE(hasFinding(pass, std::string(e.id) + " confirmed: ")) << v->spec;

            // A GPU that implements the manual's reading of the operand.
            SimReference manual = referenceOf(in);
            std::vector<Element>& els = reading->operand == Operand::A   ? manual.a
                                        : reading->operand == Operand::B ? manual.b
                                                                         : manual.c;
            for (Element& el : els) {
                const Cell c = reading->place(Lane::of(el.thread), el.index, in.n);
                el.row = static_cast<std::uint16_t>(c.row);
                el.col = el.colLast = static_cast<std::uint16_t>(c.col);
            }
            const ProbeResult r = runSimulated(in, manual).result;
            EXPECT_EQ(r.verdict, Verdict::Fail) << v->spec;
            EXPECT_TRUE(hasFinding(r, std::string(e.id) +
                                          " refuted: the hardware follows the manual's literal formula"))
                << v->spec;
        }
    }
    EXPECT_GE(errata, 1); // E1
}

TEST(ProbeHost, E1ConfirmedWhenTheHardwareMasksIAndRefutedWhenItFollowsTheManual) {
    const Instruction& in = instr("mma.m16n8k256.b1");
    const ProbeResult pass = runSimulated(in, referenceOf(in)).result;
    EXPECT_EQ(pass.verdict, Verdict::Pass);
    EXPECT_TRUE(hasFinding(pass,
                           "E1 confirmed: a32..a63 of every lane sit at row groupID+8, k = "
                           "threadID_in_group*32 + (i & 0x1F), as lanemap draws (2048 of 2048 placements); "
                           "the manual's k = threadID_in_group*32 + i matches 0 of them"))
        << pass.findings[0];

    // A GPU that implements the manual's literal text: col = threadID_in_group*32 + i for i < 64.
    SimReference manual = referenceOf(in);
    for (Element& e : manual.a)
        if (e.index >= 32 && e.index < 64)
            e.col = e.colLast = static_cast<std::uint16_t>((e.thread % 4) * 32 + e.index);
    const ProbeResult r = runSimulated(in, manual).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    EXPECT_TRUE(
        hasFinding(r, "E1 refuted: the hardware follows the manual's literal formula for a32..a63 (2048 of "
                      "2048 placements)"));
    // The two readings differ for every a32..a63 of every lane (i & 0x1F != i for i >= 32): all are named,
    // and no other A element. (The manual's text is no bijection, so the all-ones runs also see doubled cells
    // of B.)
    std::set<std::pair<int, int>> cells;
    for (const ProbeMismatch& m : r.mismatches) {
        if (m.operand != Operand::A)
            continue;
        EXPECT_GE(m.index, 32);
        EXPECT_LT(m.index, 64);
        cells.insert({m.thread, m.index});
    }
    EXPECT_EQ(cells.size(), 32u * 32u);

    // Half the lanes masked, half literal: neither reading holds, and the finding shows a placement.
    SimReference mixed = referenceOf(in);
    for (Element& e : mixed.a)
        if (e.index >= 32 && e.index < 64 && e.thread < 16)
            e.col = e.colLast = static_cast<std::uint16_t>((e.thread % 4) * 32 + e.index);
    EXPECT_TRUE(hasFinding(runSimulated(in, mixed).result, "E1 unresolved: a32..a63 match lanemap in"));
}

// --- mma.sp
// ------------------------------------------------------------------------------------------------------

// The hardware settled the catalog's open metadata mappings, so these tests reopen one
// (tests/core/sparse_unresolved.hpp) and let the simulated GPU read either candidate.
SimReference withCandidate(const Instruction& in, const std::string& name) {
    SimReference hw = referenceOf(in);
    for (const MetadataCandidate& c : hw.metadata->candidates)
        if (c.name == name)
            hw.metadata->selectors = c.selectors;
    return hw;
}

std::set<std::tuple<std::string, int, int, int>>
metadataCells(const ProbeResult& r) { // (experiment, lane, row, col)
    std::set<std::tuple<std::string, int, int, int>> out;
    for (const ProbeMismatch& m : r.mismatches) {
        EXPECT_EQ(m.operand, Operand::Metadata) << m.experiment << ": " << m.observed;
        out.insert({m.experiment, m.thread, m.row, m.col});
    }
    return out;
}

TEST(ProbeSparse, UnresolvedMetadataIsDecidedByWhatTheHardwareReads) {
    for (const char* spec : {"mma.sp.m16n8k32.s8", "mma.sp::ordered_metadata.m16n8k64.u4"}) {
        const Instruction& in = lanemap::testing::unresolvedSparse(spec);
        ASSERT_EQ(in.metadata->candidates.size(), 2u) << spec;
        const std::string primary = in.metadata->candidate;
        for (const MetadataCandidate& c : in.metadata->candidates) {
            const ProbeResult r = runSimulated(in, withCandidate(in, c.name)).result;
            EXPECT_TRUE(hasFinding(r, "metadata, selector 0: resolved: the hardware reads candidate '" +
                                          c.name + "'"))
                << spec << " " << c.name;
            EXPECT_TRUE(hasFinding(r, "metadata, selector 1: resolved: the hardware reads candidate '" +
                                          c.name + "'"))
                << spec << " " << c.name;
            if (c.name == primary) {
                EXPECT_EQ(r.verdict, Verdict::Pass) << spec;
                continue;
            }
            // The other reading: only metadata fields are named, A, B, C and D stay clean.
            EXPECT_EQ(r.verdict, Verdict::Fail) << spec;
            for (const ProbeMismatch& m : r.mismatches)
                EXPECT_EQ(m.operand, Operand::Metadata) << spec << " " << m.observed;
        }
    }
}

TEST(ProbeSparse, ObservedMetadataMapIsReportedInTheManualsTerms) {
    const Instruction& in = lanemap::testing::unresolvedSparse("mma.sp.m16n8k32.u8");
    const ProbeResult r = runSimulated(in, withCandidate(in, "k-halves-per-lane")).result;
    EXPECT_TRUE(hasFinding(
        r, "observed: lane 0 bits [15:0] -> row 0 cols 0..15; lane 0 bits [31:16] -> row 8 cols "
           "0..15; lane 1 bits [15:0] -> row 0 cols 16..31; lane 1 bits [31:16] -> row 8 cols 16..31 "
           "(every quad g repeats this at lanes 4g.., rows g and g+8)"));
}

TEST(ProbeSparse, TwoSwappedMetadataFieldsAreNamedAndNothingElse) {
    const Instruction& in = instr("mma.sp::ordered_metadata.m16n8k16.f16");
    SimReference hw = referenceOf(in);
    // Selector 0: the simulated GPU reads row 0 cols 0..3 from lane 0 bits [7:4] and cols 4..7 from bits
    // [3:0].
    auto& fields = hw.metadata->selectors[0].fields;
    std::size_t f0 = 0, f1 = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].thread == 0 && fields[i].bitLo == 0)
            f0 = i;
        if (fields[i].thread == 0 && fields[i].bitLo == 4)
            f1 = i;
    }
    std::swap(fields[f0].bitLo, fields[f1].bitLo);
    std::swap(fields[f0].bitHi, fields[f1].bitHi);
    const ProbeResult r = runSimulated(in, hw).result;
    const std::set<std::tuple<std::string, int, int, int>> want{{"metadata location [selector 0]", 0, 0, 0},
                                                                {"metadata location [selector 0]", 0, 0, 4},
                                                                {"metadata value [selector 0]", 0, 0, 0},
                                                                {"metadata value [selector 0]", 0, 0, 4}};
    EXPECT_EQ(metadataCells(r), want);
    EXPECT_EQ(r.cellsMismatched, 2);
    EXPECT_TRUE(hasFinding(r, "metadata, selector 0: disagrees: the hardware reads 124 of 128"));
    EXPECT_TRUE(hasFinding(r, "metadata, selector 1: confirmed"));
}

TEST(ProbeSparse, ACompressedElementInTheWrongChunkIsBlamedOnA) {
    const Instruction& in = instr("mma.sp.m16n8k32.s8");
    SimReference hw = referenceOf(in);
    // T0:a1 (chunk 0, second kept) and T0:a2 (chunk 1, first kept) trade places in the simulated GPU.
    std::swap(hw.a[flat(hw.a, 0, 1)].index, hw.a[flat(hw.a, 0, 2)].index);
    const ProbeResult r = runSimulated(in, hw).result;
    std::set<std::pair<int, int>> cells;
    for (const ProbeMismatch& m : r.mismatches) {
        EXPECT_EQ(m.operand, Operand::A) << m.experiment;
        EXPECT_EQ(m.experiment.rfind("k of A vs k of B", 0), 0u) << m.experiment;
        cells.insert({m.thread, m.index});
    }
    const std::set<std::pair<int, int>> want{{0, 1}, {0, 2}};
    EXPECT_EQ(cells, want);
}

TEST(ProbeSparse, MetadataExperimentsCoverEveryElementLocationBitAndValidValue) {
    const Instruction& in = instr("mma.sp.m16n8k16.f16"); // plain .sp: 12 valid values, selectors 0..3
    const ProbePlan plan = planProbe(in);
    std::size_t locate = 0, value = 0;
    for (const Experiment& x : plan.experiments) {
        locate += x.kind == ExperimentKind::MetaLocate;
        value += x.kind == ExperimentKind::MetaValue;
    }
    EXPECT_EQ(in.metadata->validValues.size(), 12u);
    EXPECT_EQ(locate, 4u * 128u * 8u);
    EXPECT_EQ(value, 4u * 128u * 12u);
    EXPECT_EQ(plan.forms.size(), 4u);
}

TEST(ProbeHost, RejectsRawDOfTheWrongSize) {
    const Instruction& in = instr("mma.m8n8k16.s8");
    const ProbePlan plan = planProbe(in);
    std::vector<std::uint32_t> raw(plan.outWords() - 1);
    EXPECT_THROW(interpretProbe(plan, raw), std::invalid_argument);
}

} // namespace

} // namespace test_interpret
