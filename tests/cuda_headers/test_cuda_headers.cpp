// The generated CUDA headers (lanemap-cli export --format cuda), compiled as plain C++ for every variant and
// evaluated against the engine for every cell: row/col/reg/bit of every (lane, i), the inverse owner(), and
// the metadata field location of every sparse selector, and for wgmma the shared-memory byte (and bit) of
// every element of A and B and their matrix descriptors against core's shared-memory model
// (lanemap/smem.hpp).
#include "non_affine.hpp"
#include "registry.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/smem.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

namespace lanemap_gen {
struct Owner {
    int lane;
    int index;
};
} // namespace lanemap_gen

namespace {

using lanemap::Catalog;

TEST(CudaHeaders, EveryRegisterOperandOfEveryVariantIsGenerated) {
    std::size_t operands = lanemap::test::nonAffineInstruction().operands.size();
    for (const lanemap::Variant* v : Catalog::instance().variants())
        operands += Catalog::instance().instruction(*v).operands.size();
    EXPECT_EQ(generatedOperands().size(), operands);
}

TEST(CudaHeaders, FunctionsMatchTheEngineForEveryCell) {
    std::size_t cells = 0;
    const lanemap::Instruction nonAffine = lanemap::test::nonAffineInstruction();
    for (const GeneratedOperand& g : generatedOperands()) {
        const lanemap::Instruction* in = Catalog::instance().instruction(g.spec);
        if (std::string(g.spec) == lanemap::test::kNonAffineSpec)
            in = &nonAffine; // the table fallback
        ASSERT_NE(in, nullptr) << g.spec;
        const lanemap::FragmentLayout* op = nullptr;
        for (const lanemap::FragmentLayout& candidate : in->operands)
            if (candidate.name()[0] == g.operand)
                op = &candidate;
        ASSERT_NE(op, nullptr) << g.spec << ' ' << g.operand;
        int failures = 0;
        for (const lanemap::Element& e : op->elements()) {
            const int lane = e.thread, i = e.index;
            const bool ok = g.row(lane, i) == e.row && g.col(lane, i) == e.col && g.reg(lane, i) == e.reg &&
                            g.bit(lane, i) == e.bit && (!g.colLast || g.colLast(lane, i) == e.colLast) &&
                            (!g.product || g.product(lane, i) == e.matrix);
            if (!ok && failures++ < 3)
                ADD_FAILURE() << g.spec << ' ' << g.operand << " lane " << lane << " i " << i
                              << ": header says (" << g.row(lane, i) << ", " << g.col(lane, i) << ") reg "
                              << g.reg(lane, i) << " bit " << g.bit(lane, i) << ", engine (" << e.row << ", "
                              << e.col << ") reg " << e.reg << " bit " << int(e.bit);
            ++cells;
        }
        // owner(): the first holder of every cell (the only one where the operand is a bijection).
        for (int m = 0; m < op->matrices(); ++m)
            for (int r = 0; r < op->rows(); ++r)
                for (int c = 0; c < op->cols(); ++c) {
                    const auto owners = op->owners(r, c, m);
                    const lanemap_gen::Owner o = g.owner(r, c, m);
                    bool holds = false;
                    for (const lanemap::Element& e : owners)
                        holds = holds || (e.thread == o.lane && e.index == o.index);
                    if (!holds && failures++ < 3)
                        ADD_FAILURE() << g.spec << ' ' << g.operand << " owner(" << r << ", " << c << ", "
                                      << m << ") = {" << o.lane << ", " << o.index << "} holds no such cell";
                }
        EXPECT_EQ(failures, 0) << g.spec << ' ' << g.operand;
    }
    EXPECT_GT(cells, 1000000u) << "every element of every operand of the catalog";
}

TEST(CudaHeaders, MetadataFieldLocationMatchesEveryField) {
    std::size_t fields = 0;
    std::set<std::string> sparse;
    for (const GeneratedMetadata& g : generatedMetadata()) {
        const lanemap::Instruction* in = Catalog::instance().instruction(g.spec);
        ASSERT_TRUE(in && in->metadata) << g.spec;
        sparse.insert(g.spec);
        for (const lanemap::MetadataSelector& s : in->metadata->selectors) {
            if (s.value != g.selector)
                continue;
            for (const lanemap::MetadataField& f : s.fields) {
                const int chunk = f.colFirst / in->metadata->chunkCols;
                EXPECT_EQ(g.fieldLane(f.row, chunk), f.thread)
                    << g.spec << " selector " << s.value << " row " << f.row;
                EXPECT_EQ(g.fieldBit(f.row, chunk), f.bitLo)
                    << g.spec << " selector " << s.value << " row " << f.row;
                ++fields;
            }
        }
    }
    std::size_t expected = 0;
    for (const lanemap::Variant* v : Catalog::instance().variants())
        expected += Catalog::instance().instruction(*v).metadata ? 1 : 0; // a metadata operand
    EXPECT_EQ(sparse.size(), expected) << "every sparse variant has its metadata functions";
    EXPECT_GT(fields, 0u);
}

TEST(CudaHeaders, SharedMemoryOffsetsAndDescriptorsMatchTheModelForEveryCell) {
    // Every wgmma variant's A (SS form) and B, in the default layout and (a few variants) in every other: the
    // header's smem_offset/smem_bit for every element equal the byte and bit core's model places it at (the
    // layout the probe confirmed on the H100), and the descriptor of a buffer at several aligned bases equals
    // the model's encoded descriptor.
    std::map<std::string, std::set<char>> covered;
    std::set<std::string> choices;
    std::size_t cells = 0;
    for (const GeneratedSharedOperand& g : generatedSharedOperands()) {
        const lanemap::Instruction* in = Catalog::instance().instruction(g.spec);
        ASSERT_NE(in, nullptr) << g.spec;
        const lanemap::smem::Choice choice{*lanemap::smem::parseMajor(g.major),
                                           *lanemap::smem::parseSwizzle(g.swizzle)};
        const lanemap::smem::Choice standard;
        if (choice.major == standard.major && choice.swizzle == standard.swizzle)
            covered[g.spec].insert(g.operand);
        choices.insert(std::string(g.major) + " " + g.swizzle);
        std::string error;
        const std::vector<lanemap::smem::SharedOperand> ops = lanemap::smem::operands(*in, choice, error);
        ASSERT_EQ(ops.size(), 2u) << g.spec << ": " << error;
        const lanemap::smem::SharedOperand& op = ops[g.operand == 'A' ? 0 : 1];
        const lanemap::smem::SmemLayout& l = op.layout;
        EXPECT_EQ(g.rows, op.rows) << g.spec << ' ' << g.operand;
        EXPECT_EQ(g.cols, op.cols) << g.spec << ' ' << g.operand;
        EXPECT_EQ(g.bytes, l.footprintBytes()) << g.spec << ' ' << g.operand;
        EXPECT_EQ(g.alignment, static_cast<std::uint32_t>(lanemap::smem::repeatBytes(l.swizzle())));
        int failures = 0;
        for (int r = 0; r < op.rows; ++r)
            for (int c = 0; c < op.cols; ++c) {
                const lanemap::smem::Coord at = op.toLayout(r, c);
                const lanemap::smem::Placement p = l.placement(at.mn, at.k);
                const bool ok = g.offset(r, c) == static_cast<int>(p.address) && g.bit(r, c) == p.bit;
                if (!ok && failures++ < 3)
                    ADD_FAILURE() << g.spec << ' ' << g.operand << ' ' << g.major << ' ' << g.swizzle << " ("
                                  << r << ", " << c << "): header byte " << g.offset(r, c) << " bit "
                                  << g.bit(r, c) << ", model byte " << p.address << " bit " << p.bit;
                ++cells;
            }
        EXPECT_EQ(failures, 0) << g.spec << ' ' << g.operand;
        for (const std::uint32_t base : {0u, g.alignment, 5 * g.alignment, 0x30000u}) {
            const lanemap::smem::SmemLayout placed = lanemap::smem::SmemLayout::make(
                l.elementBits(), l.rows(), l.cols(), l.major(), l.swizzle(), base);
            EXPECT_EQ(g.descriptor(base), placed.encodedDescriptor())
                << g.spec << ' ' << g.operand << " base " << base << ": header "
                << lanemap::smem::hex(g.descriptor(base)) << ", model "
                << lanemap::smem::describe(placed.descriptor());
        }
    }
    std::size_t wgmma = 0;
    for (const lanemap::Variant* v : Catalog::instance().variants())
        if (lanemap::smem::hasSharedMemoryOperands(*v)) {
            ++wgmma;
            EXPECT_EQ(covered[v->spec], (std::set<char>{'A', 'B'})) << v->spec;
        }
    EXPECT_EQ(covered.size(), wgmma) << "every wgmma and wgmma.sp variant";
    EXPECT_EQ(choices.size(), 8u) << "both major-nesses and every swizzle";
    EXPECT_GT(wgmma, 600u);
    EXPECT_GT(cells, 1000000u);
}

TEST(CudaHeaders, DescriptorEncoderMatchesTheModelInEveryField) {
    // lanemap_gen::warpgroup::matrix_descriptor against smem::encodeDescriptor, field by field and together.
    using lanemap::smem::Swizzle;
    for (const Swizzle swizzle : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128})
        for (const std::uint32_t start : {0u, 16u, 0x400u, 0x3FFF0u})
            for (const std::uint32_t lbo : {16u, 128u, 0x2000u})
                for (const std::uint32_t sbo : {16u, 1024u, 0x3FFF0u})
                    for (const int base : {0, 3, 7}) {
                        const lanemap::smem::MatrixDescriptor d{start, lbo, sbo, base, swizzle};
                        EXPECT_EQ(generatedMatrixDescriptor(
                                      start, lbo, sbo, lanemap::smem::descriptorSwizzleCode(swizzle), base),
                                  lanemap::smem::encodeDescriptor(d))
                            << lanemap::smem::describe(d);
                    }
}

// The constant after `name = ` in a header's text (the test binary compiles the default-layout headers only).
std::string constantOf(const std::string& header, const std::string& name) {
    const std::size_t at = header.find(name + " = ");
    if (at == std::string::npos)
        return "";
    const std::size_t begin = at + name.size() + 3;
    return header.substr(begin, header.find_first_of(",;", begin) - begin);
}

TEST(CudaHeaders, MajorAndSwizzleOptionsChooseTheSharedMemoryLayout) {
    // export --format cuda --major/--swizzle: the header's descriptor constants and trans immediates follow
    // the choice (the model's), its first comment names it; MN-major of a non-16-bit type is refused.
    using lanemap::smem::Major;
    using lanemap::smem::Swizzle;
    const lanemap::Instruction& in = *Catalog::instance().instruction("wgmma.m64n64k16.f16");
    for (const Major major : {Major::K, Major::MN})
        for (const Swizzle swizzle : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128}) {
            lanemap::Params params;
            params.smem = lanemap::smem::Choice{major, swizzle};
            std::string header, error;
            ASSERT_TRUE(lanemap::exportInstruction(
                *lanemap::instantiate({Catalog::instance().variant(in.spec), params}),
                lanemap::ExportFormat::Cuda, {}, header, error))
                << error;
            std::string modelError;
            const auto ops = lanemap::smem::operands(in, {major, swizzle}, modelError);
            ASSERT_EQ(ops.size(), 2u) << modelError;
            const lanemap::smem::SmemLayout& b = ops[1].layout;
            const std::string label = std::string(lanemap::smem::toString(major)) + "-major, " +
                                      std::string(lanemap::smem::toString(swizzle)) + " swizzle";
            EXPECT_NE(header.find("// Shared memory: " + label), std::string::npos) << label;
            const std::size_t bBlock = header.find("namespace B {");
            ASSERT_NE(bBlock, std::string::npos);
            const std::string block = header.substr(bBlock);
            EXPECT_EQ(constantOf(block, "kLeadingByteOffset"), std::to_string(b.leadingByteOffset()))
                << label;
            EXPECT_EQ(constantOf(block, "kStrideByteOffset"), std::to_string(b.strideByteOffset())) << label;
            EXPECT_EQ(constantOf(block, "kSwizzleMode"),
                      std::to_string(lanemap::smem::descriptorSwizzleCode(swizzle)))
                << label;
            EXPECT_EQ(constantOf(block, "kSmemBytes"), std::to_string(b.footprintBytes())) << label;
            // imm-trans-b (A from registers), then imm-trans-a and imm-trans-b (A from shared memory).
            const std::string t = major == Major::MN ? "1" : "0";
            EXPECT_NE(header.find("}, %36, p, 1, 1, " + t + ";"), std::string::npos) << label;
            EXPECT_NE(header.find("}, %32, %33, p, 1, 1, " + t + ", " + t + ";"), std::string::npos) << label;
        }
    lanemap::Params mn;
    mn.smem = lanemap::smem::Choice{Major::MN, Swizzle::B128};
    const std::string error = lanemap::validate({Catalog::instance().variant("wgmma.m64n64k32.e4m3"), mn});
    EXPECT_NE(error.find("MN-major"), std::string::npos) << error;
    EXPECT_THROW(lanemap::toCudaHeader(*Catalog::instance().instruction("wgmma.m64n64k8.tf32"), {Major::MN}),
                 std::invalid_argument);
}

} // namespace
