// The tcgen05.mma probe's kernel inputs (gpu/src/methods/tensor_memory/mma.hpp), checked without a GPU: the
// shared-memory images read back through core's descriptor decoder and smem model give exactly the coded
// element at every address, for every catalog mma entry (dense, sparse, block-scaled, .ws, cta_group::2, A
// from shared memory and from Tensor Memory); the instruction descriptor decodes to the entry's shape; a
// simulated tensor core reading the images through the descriptors passes, and one that reads B transposed or
// swaps LBO and SBO fails naming the cell.
#include "lanemap/catalog.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/tcgen05_desc.hpp"

#include "methods/tensor_memory/mma.hpp"
#include "methods/tensor_memory/tensor_memory.hpp"

#include "catalog_entry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace test_tcgen05_mma_images {

using namespace lanemap;
using lanemap::test::catalogEntry;
using namespace lanemap::gpu;

namespace {

std::uint32_t bitsAt(std::span<const std::uint32_t> words, std::uint32_t byteAddress, int bit, int bits) {
    const std::uint32_t shift = (byteAddress % 4) * 8 + static_cast<std::uint32_t>(bit);
    const std::uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1u;
    return words[byteAddress / 4] >> shift & mask;
}

// The layout the descriptor describes, rebuilt from its decoded fields by the smem model.
smem::SmemLayout layoutFrom(std::uint64_t descriptor, int bits, int rows, int cols) {
    const tcgen05::DecodedSmemDescriptor d = tcgen05::decodeSmemDescriptor(descriptor);
    EXPECT_TRUE(d.violations.empty()) << d.violations.front().field << ": " << d.violations.front().rule;
    const smem::SmemLayout layout = smem::SmemLayout::make(bits, rows, cols, smem::Major::K,
                                                           d.descriptor.swizzle, d.descriptor.startAddress);
    EXPECT_EQ(layout.leadingByteOffset(), d.descriptor.leadingByteOffset);
    EXPECT_EQ(layout.strideByteOffset(), d.descriptor.strideByteOffset);
    return layout;
}

// Every byte of the image region the layout covers: an element's first byte holds exactly `want(mn, k)`, a
// byte no element uses is 0. Returns the elements checked.
template <typename Want>
int checkImage(std::span<const std::uint32_t> shared, const smem::SmemLayout& layout, Want want,
               const std::string& what) {
    const int bits = layout.elementBits();
    int checked = 0;
    for (std::uint32_t address = layout.startAddress();
         address < layout.startAddress() + layout.footprintBytes(); ++address)
        for (int bit = 0; bit < 8; bit += std::min(bits, 8)) {
            const std::optional<smem::Coord> c = layout.elementAt(address, bit);
            if (!c) {
                EXPECT_EQ(bitsAt(shared, address, bit, std::min(bits, 8)), 0u) << what << " byte " << address;
                continue;
            }
            const smem::Placement p = layout.placement(c->mn, c->k);
            if (p.address != address || p.bit != bit)
                continue; // a later byte of a wider element
            ++checked;
            if (bitsAt(shared, address, bit, bits) != want(c->mn, c->k)) {
                ADD_FAILURE() << what << " element (" << c->mn << "," << c->k << ") at byte " << address
                              << " bit " << bit << " holds " << bitsAt(shared, address, bit, bits)
                              << ", want " << want(c->mn, c->k);
                return -1;
            }
        }
    return checked;
}

} // namespace

TEST(Tcgen05MmaImages, EverySharedMemoryImageReadsBackThroughTheDecodedDescriptorAsTheCodedOperands) {
    std::set<std::string> families;
    int probed = 0;
    std::vector<std::string> notProbed;
    for (const Variant* v : Catalog::instance().variants()) {
        if (!tmem::mmaOf(*v))
            continue;
        const tc::Plan plan = tc::planProbe(Catalog::instance().instruction(*v));
        if (!plan.mmaSetup) {
            notProbed.push_back(v->spec + ": " + plan.notProbed);
            continue;
        }
        ++probed;
        // D fits below the columns the images fill.
        EXPECT_LE(plan.columns, tc::kFillColumn) << v->spec;
        const tc::MmaSetup& setup = *plan.mmaSetup;
        const tmem::MmaShape& s = *plan.mma;
        const int bits = tc::elementBits(setup.aType);
        const std::size_t perCta = setup.wordsPerCta();
        ASSERT_EQ(plan.inputs.size(),
                  perCta * plan.experiments.size() * static_cast<std::size_t>(s.ctaGroup));
        // The first rows experiment with A in shared memory, and the first with A in Tensor Memory.
        for (const std::size_t xi : {std::size_t{0}, static_cast<std::size_t>(plan.firstTensorMemoryA)}) {
            const tc::Experiment& x = plan.experiments[xi];
            for (int cta = 0; cta < s.ctaGroup; ++cta) {
                const std::span<const std::uint32_t> image =
                    std::span<const std::uint32_t>(plan.inputs)
                        .subspan((xi * s.ctaGroup + cta) * perCta, perCta);
                const std::span<const std::uint32_t> shared = image.first(setup.sharedWords);
                const std::string what = v->spec + ", " + x.label + ", CTA " + std::to_string(cta);
                const bool aShared = x.aSource == tc::ASource::SharedMemory;
                const smem::SmemLayout a = layoutFrom(setup.descriptorA, bits, setup.rowsA, setup.storedK);
                EXPECT_EQ(checkImage(
                              shared, a,
                              [&](int r, int j) {
                                  return aShared
                                             ? tc::encodeElement(setup.aType,
                                                                 tc::operandValue(plan, x, Operand::A,
                                                                                  cta * setup.rowsA + r, j))
                                             : 0u;
                              },
                              what + ", A"),
                          setup.rowsA * setup.storedK);
                const smem::SmemLayout b = layoutFrom(setup.descriptorB, bits, setup.rowsB, setup.k);
                EXPECT_EQ(checkImage(
                              shared, b,
                              [&](int r, int k) {
                                  for (int j = 0; j < setup.storedK; ++j)
                                      if (tc::logicalK(setup, j) == k)
                                          return tc::encodeElement(
                                              setup.bType, tc::operandValue(plan, x, Operand::B,
                                                                            cta * setup.rowsB + r, j));
                                  return 0u; // a logical K the metadata does not select
                              },
                              what + ", B"),
                          setup.rowsB * setup.k);
                // A in Tensor Memory: every element where the engine's A layout puts it, nothing elsewhere.
                const auto cell = [&](int lane, int column) {
                    return image[static_cast<std::size_t>(setup.sharedWords) +
                                 static_cast<std::size_t>((column - tc::kFillColumn) * tmem::kLanes + lane)];
                };
                std::vector<std::uint32_t> wantA(static_cast<std::size_t>(tc::kRegionColumns * tmem::kLanes),
                                                 0u);
                if (!aShared)
                    for (int r = 0; r < setup.rowsA; ++r)
                        for (int j = 0; j < setup.storedK; ++j) {
                            const int m = cta * setup.rowsA + r;
                            const tmem::Placement p = tmem::placeA(s, m, j, bits);
                            ASSERT_EQ(p.cta, cta) << what;
                            wantA[static_cast<std::size_t>(p.column * tmem::kLanes + p.lane)] |=
                                tc::encodeElement(setup.aType, tc::operandValue(plan, x, Operand::A, m, j))
                                << p.bit;
                        }
                for (int c = 0; c < tc::kRegionColumns; ++c)
                    for (int lane = 0; lane < tmem::kLanes; ++lane) {
                        ASSERT_EQ(cell(lane, tc::kAColumn + c),
                                  wantA[static_cast<std::size_t>(c * tmem::kLanes + lane)])
                            << what << ", A in Tensor Memory lane " << lane << " column " << c;
                        // Metadata: the first half of every group; scale factors: 1.0 in every byte.
                        ASSERT_EQ(cell(lane, tc::kMetadataColumn + c), s.sparse ? 0x44444444u : 0u) << what;
                        const std::uint32_t scale = cell(lane, tc::kScaleAColumn + c);
                        ASSERT_EQ(cell(lane, tc::kScaleBColumn + c), scale) << what;
                        if (tcgen05::isBlockScaled(s.kind))
                            for (int byte = 0; byte < 4; ++byte)
                                ASSERT_EQ(
                                    setup.instr.scaleType == tcgen05::ScaleType::UE8M0
                                        ? (scale >> (8 * byte) & 0xffu) // 2^(e - 127)
                                        : tc::decodeElement(tcgen05::Type::E4M3, scale >> (8 * byte) & 0xffu),
                                    setup.instr.scaleType == tcgen05::ScaleType::UE8M0 ? 127u : 1.0)
                                    << what;
                        else
                            ASSERT_EQ(scale, 0u) << what;
                    }
            }
        }
        // The instruction descriptor is core's encoding of the entry's shape.
        const tcgen05::DecodedInstrDescriptor d =
            tcgen05::decodeInstrDescriptor(setup.idesc, s.kind, tcgen05::Context{s.ctaGroup, s.ws});
        EXPECT_TRUE(d.violations.empty()) << v->spec << ": " << d.violations.front().rule;
        EXPECT_EQ(d.descriptor.m, s.m) << v->spec;
        EXPECT_EQ(d.descriptor.n, s.n) << v->spec;
        EXPECT_EQ(d.descriptor.sparse, s.sparse) << v->spec;
        EXPECT_EQ(d.descriptor.majorA, smem::Major::K) << v->spec;
        EXPECT_EQ(d.descriptor.majorB, smem::Major::K) << v->spec;
        families.insert(std::string(s.sparse ? "sparse" : "dense") +
                        (tcgen05::isBlockScaled(s.kind) ? " block-scaled" : "") + (s.ws ? " ws" : "") +
                        " cta_group::" + std::to_string(s.ctaGroup));
    }
    // The catalog's shapes are the ones the instruction-descriptor encoder accepts: every entry has images.
    EXPECT_EQ(probed, 83);
    EXPECT_TRUE(notProbed.empty()) << notProbed.front();
    // Every family of forms was checked.
    for (const char* f :
         {"dense cta_group::1", "sparse cta_group::1", "dense block-scaled cta_group::1",
          "sparse block-scaled cta_group::1", "dense ws cta_group::1", "sparse ws cta_group::1",
          "dense cta_group::2", "sparse cta_group::2", "dense block-scaled cta_group::2"})
        EXPECT_TRUE(families.count(f)) << f;
}

TEST(Tcgen05MmaImages, ElementEncodingsAreTheExactPowersOfTwo) {
    using tcgen05::Type;
    for (const Type t : {Type::F16, Type::BF16, Type::TF32, Type::E4M3, Type::E5M2, Type::E2M1, Type::U8})
        for (int p = 0; p <= (t == Type::E2M1 ? 2 : 7); ++p)
            EXPECT_EQ(tc::decodeElement(t, tc::encodeElement(t, 1 << p)), 1 << p)
                << tcgen05::toString(t) << " 2^" << p;
    EXPECT_EQ(tc::encodeElement(Type::F16, 1), 0x3c00u);
    EXPECT_EQ(tc::encodeElement(Type::E4M3, 1), 0x38u);
    EXPECT_EQ(tc::encodeElement(Type::E2M1, 4), 0x6u);
    EXPECT_THROW(tc::encodeElement(Type::E2M1, 8), std::invalid_argument);
    EXPECT_THROW(tc::encodeElement(Type::F16, 3), std::invalid_argument);
}

// The simulated tensor core reads the images through the decoded descriptors: the plan passes on it for
// every family, with A from shared memory and from Tensor Memory.
TEST(Tcgen05MmaImages, TheImagesRoundTripThroughASimulatedTensorCore) {
    for (const char* spec :
         {"tcgen05.mma.cta_group::1.kind::f16.m128", "tcgen05.mma.sp.cta_group::1.kind::i8.m128",
          "tcgen05.mma.sp.cta_group::1.kind::tf32.m128", "tcgen05.mma.cta_group::1.kind::mxf4nvf4.m128",
          "tcgen05.mma.sp.cta_group::1.kind::mxf4.m128", "tcgen05.mma.cta_group::2.kind::mxf8f6f4.m256",
          "tcgen05.mma.ws.cta_group::1.kind::f8f6f4.m64", "tcgen05.mma.cta_group::1.kind::f16.m64.lane16"}) {
        const tc::Plan plan = tc::planProbe(catalogEntry(spec));
        ASSERT_TRUE(plan.mmaSetup) << spec << ": " << plan.notProbed;
        const ProbeResult r = tc::interpret(plan, tc::simulateMma(plan)).result;
        EXPECT_EQ(r.verdict, Verdict::Pass) << spec;
        EXPECT_EQ(r.cellsMismatched, 0) << spec;
    }
}

// A device that reads B as MN-major (the transpose bit ignored): D[m][n] is no longer m (rows) or n
// (columns), and the mismatch names the Tensor Memory cell and the element.
TEST(Tcgen05MmaImages, ADeviceThatReadsBTransposedFailsNamingTheCell) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128"));
    tc::MmaQuirks quirks;
    quirks.bAsMnMajor = true;
    const ProbeResult r = tc::interpret(plan, tc::simulateMma(plan, quirks)).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    ASSERT_FALSE(r.mismatches.empty());
    const ProbeMismatch& m = r.mismatches.front();
    EXPECT_NE(m.expected.find("lane " + std::to_string(m.row) + " column " + std::to_string(m.col) +
                              " holds D(" + std::to_string(m.row) + "," + std::to_string(m.col) + ")"),
              std::string::npos)
        << m.expected;
    EXPECT_NE(m.experiment.find("A from shared memory"), std::string::npos);
}

// A device that reads the descriptors' LBO as SBO and back: A's and B's core matrices come from the wrong
// places.
TEST(Tcgen05MmaImages, ADeviceThatSwapsLeadingAndStrideOffsetsFails) {
    const tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.mma.sp.cta_group::1.kind::f16.m128"));
    tc::MmaQuirks quirks;
    quirks.leadingStrideSwapped = true;
    const ProbeResult r = tc::interpret(plan, tc::simulateMma(plan, quirks)).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    ASSERT_FALSE(r.mismatches.empty());
    EXPECT_NE(r.mismatches.front().expected.find("holds D("), std::string::npos);
}

// Two rows of A swapped in Tensor Memory only: the experiments with A in shared memory pass, those with A
// in Tensor Memory fail naming the rows.
TEST(Tcgen05MmaImages, AnAInTensorMemoryMisplacedFailsOnlyTheTensorMemoryExperiments) {
    tc::Plan plan = tc::planProbe(catalogEntry("tcgen05.mma.cta_group::1.kind::f16.m128"));
    const tc::MmaSetup& setup = *plan.mmaSetup;
    const std::size_t perCta = setup.wordsPerCta();
    for (std::size_t xi = static_cast<std::size_t>(plan.firstTensorMemoryA); xi < plan.experiments.size();
         ++xi)
        for (int c = 0; c < tc::kRegionColumns; ++c) {
            const std::size_t at =
                xi * perCta + static_cast<std::size_t>(setup.sharedWords) +
                static_cast<std::size_t>((tc::kAColumn - tc::kFillColumn + c) * tmem::kLanes);
            std::swap(plan.inputs[at + 9], plan.inputs[at + 10]); // lanes 9 and 10: rows 9 and 10 (layout D)
        }
    const ProbeResult r = tc::interpret(plan, tc::simulateMma(plan)).result;
    EXPECT_EQ(r.verdict, Verdict::Fail);
    ASSERT_FALSE(r.mismatches.empty());
    for (const ProbeMismatch& m : r.mismatches) {
        EXPECT_NE(m.experiment.find("A from Tensor Memory"), std::string::npos) << m.experiment;
        EXPECT_TRUE(m.row == 9 || m.row == 10) << m.expected;
    }
    EXPECT_EQ(r.cellsMismatched, 2 * plan.mma->n); // rows 9 and 10, every column
}

// .ws.sp: Table 39 allows N = 64 or 128, and the catalog (which asks the same rules) shows 128, so the probe
// runs the entry's own shape.
TEST(Tcgen05MmaImages, WsSparseIsProbedAtTheCatalogsN) {
    const Instruction& in = catalogEntry("tcgen05.mma.ws.sp.cta_group::1.kind::f16.m64");
    ASSERT_EQ(tmem::mmaOf(in)->n, 128);
    const tc::Plan plan = tc::planProbe(in);
    ASSERT_TRUE(plan.mmaSetup) << plan.notProbed;
    EXPECT_EQ(plan.mma, tmem::mmaOf(in));
    const ProbeResult r = tc::interpret(plan, tc::simulateMma(plan)).result;
    EXPECT_EQ(r.verdict, Verdict::Pass);
}

} // namespace test_tcgen05_mma_images
