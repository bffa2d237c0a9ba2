// The wgmma probe's host side without a GPU: images -> CPU warpgroup (simulate) -> interpretation. A
// simulator that uses the engine's own layouts must give a clean pass; one that uses a deliberately permuted
// D or A table, or that misreads a swizzle, plays a GPU that disagrees, and the probe must name exactly the
// cells that moved.
#include "lanemap/catalog.hpp"
#include "lanemap/gpu/wgmma.hpp"
#include "lanemap/smem.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

namespace test_wgmma_probe {

using namespace lanemap;
using namespace lanemap::gpu;

namespace {

const Instruction& instr(const std::string& spec) {
    const Instruction* in = Catalog::instance().instruction(spec);
    if (!in)
        throw std::runtime_error("unknown spec " + spec);
    return *in;
}

bool hasFinding(const ProbeResult& r, const std::string& text) {
    return std::any_of(r.findings.begin(), r.findings.end(),
                       [&](const std::string& f) { return f.find(text) != std::string::npos; });
}

std::string firstMismatch(const ProbeResult& r) {
    if (r.mismatches.empty())
        return "";
    const ProbeMismatch& m = r.mismatches[0];
    return std::string(toString(m.operand)) + " (" + std::to_string(m.row) + "," + std::to_string(m.col) +
           ") " + m.experiment + ": expected " + m.expected + ", observed " + m.observed;
}

// (operand, thread, index, row, col) of every mismatch.
using Cell = std::tuple<Operand, int, int, int, int>;
std::set<Cell> named(const ProbeResult& r) {
    std::set<Cell> out;
    for (const ProbeMismatch& m : r.mismatches)
        out.insert({m.operand, m.thread, m.index, m.row, m.col});
    return out;
}

// The cells one set has and the other lacks, for failure messages.
std::string difference(const std::set<Cell>& got, const std::set<Cell>& want) {
    std::string s;
    auto name = [](const Cell& c) {
        return std::string(toString(std::get<0>(c))) + "(" + std::to_string(std::get<3>(c)) + "," +
               std::to_string(std::get<4>(c)) + ") ";
    };
    for (const Cell& c : got)
        if (!want.count(c))
            s += "extra " + name(c);
    for (const Cell& c : want)
        if (!got.count(c))
            s += "missing " + name(c);
    return s.substr(0, 600);
}

void swapCells(std::vector<Element>& els, std::size_t x, std::size_t y) {
    std::swap(els[x].row, els[y].row);
    std::swap(els[x].col, els[y].col);
    std::swap(els[x].colLast, els[y].colLast);
}

// --- the simulated hardware's descriptor decoding against lanemap::smem
// ------------------------------------------

// Two independent implementations of PTX 9.1 §9.7.15.5.1.2: lanemap::smem (address function + descriptor
// encoding) and the simulator's direct evaluation of the canonical layouts from the encoded descriptor. Every
// element of every canonical tile the probe uses must land on the same byte and bit.
TEST(WgmmaProbeHost, DescriptorAddressingAgreesWithTheSharedMemoryLayouts) {
    struct Tile {
        int bits, mn, k;
        bool mnMajor;
    };
    const Tile tiles[] = {{16, 8, 16, true},  {16, 256, 16, true},  {16, 64, 32, true}, {16, 24, 16, true},
                          {32, 8, 8, false},  {32, 200, 16, false}, {8, 16, 32, false}, {8, 64, 64, false},
                          {1, 8, 256, false}, {1, 48, 256, false},  {16, 64, 16, true}, {16, 64, 16, false}};
    int checked = 0;
    for (const Tile& t : tiles)
        for (smem::Major major : {smem::Major::K, smem::Major::MN}) {
            if (major == smem::Major::MN && !t.mnMajor)
                continue;
            for (smem::Swizzle sw :
                 {smem::Swizzle::None, smem::Swizzle::B32, smem::Swizzle::B64, smem::Swizzle::B128})
                for (std::uint32_t start : {0u, 2048u}) {
                    const smem::SmemLayout l = smem::SmemLayout::make(t.bits, t.mn, t.k, major, sw, start);
                    for (int mn = 0; mn < t.mn; ++mn)
                        for (int k = 0; k < t.k; ++k) {
                            const smem::Placement p = l.placement(mn, k);
                            const wg::HardwareAddress h =
                                wg::descriptorAddress(l.encodedDescriptor(), major, t.bits, mn, k);
                            ASSERT_EQ(h.byte, p.address)
                                << t.bits << "-bit " << t.mn << "x" << t.k << " " << smem::toString(major)
                                << "-major " << smem::toString(sw) << " element (" << mn << ", " << k << ")";
                            ASSERT_EQ(h.bit, p.bit);
                            ++checked;
                        }
                }
        }
    EXPECT_GT(checked, 100000);
}

// --- plans
// --------------------------------------------------------------------------------------------------------

TEST(WgmmaProbeHost, PlansEveryOperandArrangementWithLayoutsFromTheEngine) {
    const Instruction& in = instr("wgmma.m64n24k16.f16");
    const wg::Plan plan = wg::planProbe(in);
    ASSERT_EQ(plan.forms.size(), 1u);
    EXPECT_EQ(plan.forms[0].ptx, "wgmma.mma_async.sync.aligned.m64n24k16.f32.f16.f16");
    EXPECT_EQ(plan.dWords, 12);
    // A in registers and A and B in shared memory, each with B K-major and N-major, no swizzle, 32B, 64B,
    // 128B.
    ASSERT_EQ(plan.setups.size(), 16u);
    EXPECT_EQ(plan.setups[0].label, "A in registers, B K-major none");
    std::set<std::tuple<int, int, int>> arrangements;
    for (const wg::Setup& s : plan.setups) {
        arrangements.insert({static_cast<int>(s.a), static_cast<int>(s.major), static_cast<int>(s.swizzle)});
        // B's layout and descriptor are lanemap::smem's, for the K x N tile.
        const smem::SmemLayout b = smem::SmemLayout::make(16, 24, 16, s.major, s.swizzle);
        EXPECT_EQ(s.bLayout.encodedDescriptor(), b.encodedDescriptor()) << s.label;
        EXPECT_EQ(s.aAt % 1024, 0u) << s.label;
        EXPECT_EQ(s.aLayout.has_value(), s.a == wg::ASource::SharedMemory) << s.label;
        EXPECT_EQ(s.transB(), s.major == smem::Major::MN ? 1 : 0);
    }
    EXPECT_EQ(arrangements.size(), 16u);
    // Every experiment's descriptors are the setup's; images lie inside the pool.
    for (std::size_t x = 0; x < plan.experiments.size(); ++x) {
        const wg::Setup& s = plan.setups[plan.experiments[x].setup];
        const wg::Inputs& i = plan.inputs[x];
        EXPECT_EQ(i.descB, s.bLayout.encodedDescriptor());
        EXPECT_EQ(i.bBytes % 16, 0u);
        EXPECT_LE(i.bOffset + i.bBytes, plan.pool.size());
        if (s.a == wg::ASource::SharedMemory) {
            EXPECT_EQ(i.descA, s.aLayout->encodedDescriptor());
            EXPECT_EQ(i.aAt, s.aAt);
            EXPECT_EQ(i.aRegs, wg::kNone);
        } else {
            EXPECT_NE(i.aRegs, wg::kNone);
            EXPECT_EQ(i.aBytes, 0u);
        }
    }
    // The base setup's first A-code run: A cell c carries bit 0 of c + 1, so T0:a0 (cell 0) holds 1.0 in the
    // low half of register 0 and T0:a1 (cell 1, code 2) holds 0.
    ASSERT_EQ(plan.experiments[0].kind, wg::Kind::AIdent);
    EXPECT_EQ(plan.words[plan.inputs[0].aRegs + 0], 0x00003C00u);
    // B there is column selector group 0 (N >= K): B(k, n) = 1 iff k == n % 16; element (k 0, n 0) is 1.0 at
    // the address lanemap::smem gives it.
    const std::uint32_t at = plan.setups[0].bLayout.address(0, 0);
    EXPECT_EQ(plan.pool[plan.inputs[0].bOffset + at], 0x00);
    EXPECT_EQ(plan.pool[plan.inputs[0].bOffset + at + 1], 0x3C);
    EXPECT_EQ(plan.smemBytes % 16, 0u);
}

TEST(WgmmaProbeHost, SparseFormsRunEverySelectorAndMixedTypesRunAsAliases) {
    const wg::Plan f16 = wg::planProbe(instr("wgmma.sp.m64n8k32.f16"));
    ASSERT_EQ(f16.forms.size(), 2u);
    EXPECT_EQ(f16.forms[0].selector, 0);
    EXPECT_EQ(f16.forms[1].selector, 1);
    const wg::Plan e4m3 = wg::planProbe(instr("wgmma.m64n8k32.e4m3"));
    ASSERT_EQ(e4m3.forms.size(), 2u);
    EXPECT_EQ(e4m3.forms[1].ptx, "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2");
    EXPECT_EQ(e4m3.forms[1].btype(), ElementType::E5M2);
    // 8-bit and tf32 read shared memory K-major only: 4 swizzles x (registers, shared) + the alias.
    EXPECT_EQ(e4m3.setups.size(), 9u);
    const auto meta = std::count_if(f16.experiments.begin(), f16.experiments.end(),
                                    [](const wg::Experiment& x) { return x.kind == wg::Kind::MetaLocate; });
    // Per selector: 16 compressed columns x 10 bits of the nibble ids of 128 threads.
    EXPECT_EQ(meta, 2 * 16 * 10);
}

// --- simulated hardware
// -------------------------------------------------------------------------------------------

Interpretation runSimulated(const wg::Plan& plan, const wg::SimReference& ref) {
    return wg::interpretProbe(plan, wg::simulate(plan, ref));
}

// A representative set: every type, accumulator and sparsity, small and large N, integer N steps.
class Representative : public ::testing::TestWithParam<std::string> {};

TEST_P(Representative, PassesAgainstItsOwnLayoutsAndObservesTheEnginesMapping) {
    const Instruction& in = instr(GetParam());
    const wg::Plan plan = wg::planProbe(in);
    const Interpretation got = runSimulated(plan, wg::referenceOf(in));
    const ProbeResult& r = got.result;
    EXPECT_EQ(r.verdict, Verdict::Pass) << firstMismatch(r);
    EXPECT_EQ(r.cellsMismatched, 0);
    EXPECT_TRUE(hasFinding(r, "agree with lanemap")) << r.findings[0];
    EXPECT_TRUE(
        hasFinding(r, "the hardware read every element where lanemap puts it in K-major none, K-major 32B, "
                      "K-major 64B, K-major 128B"));
    // Every A register element was seen where the engine puts it (under metadata 0b0100 for wgmma.sp).
    const FragmentLayout& a = *in.operand(Operand::A);
    for (std::size_t e = 0; e < a.elements().size(); ++e) {
        ASSERT_EQ(got.observed.a[0][e].row, a.elements()[e].row) << "element " << e;
        ASSERT_GE(got.observed.a[0][e].col, a.elements()[e].col) << "element " << e;
        ASSERT_LE(got.observed.a[0][e].col, a.elements()[e].colLast) << "element " << e;
    }
    if (in.metadata) {
        EXPECT_TRUE(hasFinding(r, "metadata, selector 0: confirmed")) << r.findings.back();
    }
    // Cells checked: D, A in registers per form, B per layout, A in shared memory per layout (+ metadata
    // fields).
    EXPECT_GT(r.cellsChecked,
              static_cast<int>(in.operand(Operand::D)->elements().size() + a.elements().size()));
}

INSTANTIATE_TEST_SUITE_P(WgmmaProbeHost, Representative,
                         ::testing::Values("wgmma.m64n8k16.f16", "wgmma.m64n256k16.f16",
                                           "wgmma.m64n24k16.f16.f16", "wgmma.m64n16k16.bf16",
                                           "wgmma.m64n8k8.tf32", "wgmma.m64n40k8.tf32",
                                           "wgmma.m64n32k32.e4m3", "wgmma.m64n8k32.e5m2.f16",
                                           "wgmma.m64n48k32.s8", "wgmma.m64n8k32.u8", "wgmma.m64n8k256.b1",
                                           "wgmma.m64n80k256.b1", "wgmma.sp.m64n8k32.f16",
                                           "wgmma.sp.m64n40k32.bf16", "wgmma.sp.m64n24k32.f16.f16",
                                           "wgmma.sp.m64n8k16.tf32", "wgmma.sp.m64n16k64.e4m3",
                                           "wgmma.sp.m64n8k64.s8", "wgmma.sp.m64n256k64.u8"),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                             std::string s = param.param;
                             std::replace(s.begin(), s.end(), '.', '_');
                             return s;
                         });

TEST(WgmmaProbeHost, APermutedDTableNamesExactlyTheSwappedDSlots) {
    for (const char* spec : {"wgmma.m64n16k16.f16", "wgmma.m64n8k256.b1", "wgmma.sp.m64n8k32.f16"}) {
        const Instruction& in = instr(spec);
        const wg::Plan plan = wg::planProbe(in);
        wg::SimReference ref = wg::referenceOf(in);
        // T5:d1 (row 1, col 3) and T70:d2 (row 41, col 4): a different row and column.
        const auto per = static_cast<std::size_t>(in.operand(Operand::D)->elementsPerThread());
        const std::size_t x = 5 * per + 1, y = 70 * per + 2;
        swapCells(ref.d, x, y);
        const ProbeResult r = runSimulated(plan, ref).result;
        EXPECT_EQ(r.verdict, Verdict::Fail) << spec;
        const Element& dx = in.operand(Operand::D)->elements()[x];
        const Element& dy = in.operand(Operand::D)->elements()[y];
        const std::set<Cell> want{{Operand::D, dx.thread, dx.index, dx.row, dx.col},
                                  {Operand::D, dy.thread, dy.index, dy.row, dy.col}};
        EXPECT_EQ(named(r), want) << spec << ": " << firstMismatch(r);
        EXPECT_EQ(r.cellsMismatched, 2) << spec;
    }
}

TEST(WgmmaProbeHost, APermutedARegisterTableNamesExactlyTheSwappedElements) {
    for (const char* spec :
         {"wgmma.m64n32k16.f16", "wgmma.m64n8k8.tf32", "wgmma.m64n8k256.b1", "wgmma.m64n16k32.s8"}) {
        const Instruction& in = instr(spec);
        const wg::Plan plan = wg::planProbe(in);
        wg::SimReference ref = wg::referenceOf(in);
        const FragmentLayout& a = *in.operand(Operand::A);
        // T9's first element and T100's last: different warps, rows and k.
        const std::size_t x = 9 * static_cast<std::size_t>(a.elementsPerThread()),
                          y = 101 * static_cast<std::size_t>(a.elementsPerThread()) - 1;
        swapCells(ref.a, x, y);
        const ProbeResult r = runSimulated(plan, ref).result;
        const Element& ex = a.elements()[x];
        const Element& ey = a.elements()[y];
        const std::set<Cell> want{{Operand::A, ex.thread, ex.index, ex.row, ex.col},
                                  {Operand::A, ey.thread, ey.index, ey.row, ey.col}};
        EXPECT_EQ(named(r), want) << spec << ": " << firstMismatch(r);
        EXPECT_TRUE(
            std::all_of(r.mismatches.begin(), r.mismatches.end(),
                        [](const ProbeMismatch& m) { return m.experiment.rfind("rows of A vs D", 0) == 0; }))
            << spec << ": " << firstMismatch(r);
    }
}

// The hardware reads the 128B swizzle as 64B (what a wrong 128B formula in lanemap::smem would look like on
// real hardware), for B or for A: exactly the elements the misread moves are named, in the 128B layouts only
// — those read from another address than lanemap::smem's, and those read for another element's place (with
// 128B strides the 64B reading is not one-to-one: two places can read one element).
std::set<Cell> movedBy128As64(const wg::Plan& plan, bool b) {
    const Instruction& in = *plan.instruction;
    std::set<Cell> out;
    for (const wg::Setup& s : plan.setups) {
        if (s.swizzle != smem::Swizzle::B128)
            continue;
        if (b) {
            for (int k = 0; k < in.k; ++k)
                for (int n = 0; n < in.n; ++n) {
                    const wg::HardwareAddress h =
                        wg::descriptorAddress(s.bLayout.encodedDescriptor(), s.major, s.bLayout.elementBits(),
                                              n, k, smem::Swizzle::B64);
                    const smem::Placement p = s.bLayout.placement(n, k);
                    if (h.byte != p.address || h.bit != p.bit)
                        out.insert({Operand::B, -1, -1, k, n});
                    // The element the hardware reads for (k, n) instead shows up at a wrong place too.
                    if (const auto c = s.bLayout.elementAt(h.byte, h.bit); c && (c->mn != n || c->k != k))
                        out.insert({Operand::B, -1, -1, c->k, c->mn});
                }
        } else if (s.aLayout) {
            for (int m = 0; m < s.aLayout->rows(); ++m)
                for (int k = 0; k < s.aLayout->cols(); ++k) {
                    const wg::HardwareAddress h =
                        wg::descriptorAddress(s.aLayout->encodedDescriptor(), s.major,
                                              s.aLayout->elementBits(), m, k, smem::Swizzle::B64);
                    const smem::Placement p = s.aLayout->placement(m, k);
                    if (h.byte != p.address || h.bit != p.bit)
                        out.insert({Operand::A, -1, -1, m, k});
                    if (const auto c = s.aLayout->elementAt(h.byte, h.bit); c && (c->mn != m || c->k != k))
                        out.insert({Operand::A, -1, -1, c->mn, c->k});
                }
        }
    }
    return out;
}

TEST(WgmmaProbeHost, AMisreadSwizzleOfBNamesExactlyTheBElementsItMoves) {
    for (const char* spec :
         {"wgmma.m64n64k16.f16", "wgmma.m64n16k32.e4m3", "wgmma.m64n8k8.tf32", "wgmma.sp.m64n32k32.bf16"}) {
        const Instruction& in = instr(spec);
        const wg::Plan plan = wg::planProbe(in);
        wg::SimReference ref = wg::referenceOf(in);
        ref.bSwizzleAs[smem::Swizzle::B128] = smem::Swizzle::B64;
        const ProbeResult r = runSimulated(plan, ref).result;
        const std::set<Cell> want = movedBy128As64(plan, true);
        ASSERT_FALSE(want.empty()) << spec;
        EXPECT_TRUE(named(r) == want)
            << spec << ": " << difference(named(r), want) << "; " << firstMismatch(r);
        for (const ProbeMismatch& m : r.mismatches)
            EXPECT_NE(m.experiment.find("128B"), std::string::npos) << spec << ": " << m.experiment;
        EXPECT_TRUE(hasFinding(r, "lanemap puts it in K-major none, K-major 32B, K-major 64B")) << spec;
        EXPECT_TRUE(hasFinding(r, "B in K-major 128B: ")) << spec;
    }
}

TEST(WgmmaProbeHost, AMisreadSwizzleOfAInSharedMemoryNamesExactlyTheAElementsItMoves) {
    for (const char* spec : {"wgmma.m64n64k16.bf16", "wgmma.m64n8k32.u8", "wgmma.sp.m64n16k16.tf32"}) {
        const Instruction& in = instr(spec);
        const wg::Plan plan = wg::planProbe(in);
        wg::SimReference ref = wg::referenceOf(in);
        ref.aSwizzleAs[smem::Swizzle::B128] = smem::Swizzle::B64;
        const ProbeResult r = runSimulated(plan, ref).result;
        const std::set<Cell> want = movedBy128As64(plan, false);
        ASSERT_FALSE(want.empty()) << spec;
        EXPECT_TRUE(named(r) == want)
            << spec << ": " << difference(named(r), want) << "; " << firstMismatch(r);
        EXPECT_TRUE(hasFinding(r, "A in shared memory, K-major 128B: ")) << spec;
    }
}

TEST(WgmmaProbeHost, AMovedMetadataFieldIsNamed) {
    const Instruction& in = instr("wgmma.sp.m64n8k32.f16");
    const wg::Plan plan = wg::planProbe(in);
    wg::SimReference ref = wg::referenceOf(in);
    // The simulated hardware reads row 0's first chunk (selector 0) from lane 1 bits [3:0] instead of lane
    // 0's.
    MetadataSelector& sel = ref.metadata->selectors[0];
    auto find = [&](int thread, int bitLo) {
        return std::find_if(sel.fields.begin(), sel.fields.end(),
                            [&](const MetadataField& f) { return f.thread == thread && f.bitLo == bitLo; });
    };
    auto f0 = find(0, 0), f1 = find(1, 0);
    ASSERT_NE(f0, sel.fields.end());
    ASSERT_NE(f1, sel.fields.end());
    std::swap(f0->row, f1->row);
    std::swap(f0->colFirst, f1->colFirst);
    std::swap(f0->colLast, f1->colLast);
    const ProbeResult r = runSimulated(plan, ref).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    std::set<std::pair<int, int>> fields;
    for (const ProbeMismatch& m : r.mismatches)
        if (m.operand == Operand::Metadata)
            fields.insert({m.thread, m.row});
    // The engine's fields of the two chunks: lane 0 and lane 1, both of row 0.
    EXPECT_EQ(fields, (std::set<std::pair<int, int>>{{0, 0}, {1, 0}})) << firstMismatch(r);
    EXPECT_TRUE(hasFinding(r, "metadata, selector 0: disagrees"));
}

} // namespace

} // namespace test_wgmma_probe
