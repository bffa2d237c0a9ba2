// Triton's shared-memory encodings read back (lanemap/layout_in.hpp,
// docs/layouts-in.md#triton-shared-encodings): #ttg.nvmma_shared, #ttg.swizzled_shared and #ttg.shared_linear
// laid over a tensor as Triton's LinearLayoutConversions.cpp lays them, compared byte for byte with wgmma's
// and tcgen05.mma's shared-memory operands, identified among them, and checked line by line by conform.
#include "lanemap/catalog.hpp"
#include "lanemap/layout_in.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace test_layout_in_shared {

namespace {

using namespace lanemap;
using namespace lanemap::layout_in;

SharedLayout sharedOk(std::string_view text, SharedReadOptions options = {}) {
    std::variant<SharedLayout, ReadError> r = readShared(text, options);
    if (const ReadError* e = std::get_if<ReadError>(&r))
        ADD_FAILURE() << "cannot read " << text << ": " << e->describe();
    return std::holds_alternative<SharedLayout>(r) ? std::get<SharedLayout>(r) : SharedLayout{};
}

ReadError sharedFails(std::string_view text, SharedReadOptions options = {}) {
    std::variant<SharedLayout, ReadError> r = readShared(text, options);
    EXPECT_TRUE(std::holds_alternative<ReadError>(r)) << text << " was read";
    return std::holds_alternative<ReadError>(r) ? std::get<ReadError>(r) : ReadError{};
}

SharedReadOptions over(int dim0, int dim1, int bits = 0) {
    SharedReadOptions o;
    o.extent = Extent{dim0, dim1, 1};
    o.elementBits = bits;
    return o;
}

const Instruction& instruction(std::string_view spec) {
    const Instruction* in = Catalog::instance().instruction(spec);
    EXPECT_NE(in, nullptr) << spec;
    return *in;
}

// Element [d0, d1]'s element offset (before the element size).
long offsetOf(const SharedLayout& l, int d0, int d1) {
    return l.offsets[static_cast<std::size_t>(d0) * static_cast<std::size_t>(l.cols) +
                     static_cast<std::size_t>(d1)];
}

constexpr std::string_view kNvmma128 =
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>";

} // namespace

TEST(LayoutInShared, NvmmaSharedIsTritonsOffsetsDerivedByHand) {
    // Derived by hand from Triton's nvmmaSharedToLinearLayout / getCoreMatrixLinearLayout for 128B, 16-bit,
    // not transposed, over [64, 64]: vec = 128/16 = 8, perPhase = 128/128 = 1, maxPhase = 128/16 = 8, a core
    // matrix of 8 rows x 8*128/16 = 64 columns. Offset bases: 1..32 -> [0, 1..32]; 64 -> [1, 8*(1%8)] =
    // [1, 8]; 128 -> [2, 16]; 256 -> [4, 32]; then the rows past 8 (dim0 first): 512 -> [8, 0], 1024 ->
    // [16, 0], 2048 -> [32, 0]. So [1, 0] = [1, 8] ^ [0, 8] is offset 64 + 8 = 72; [3, 5] = [1, 8] ^ [2, 16]
    // ^ [0, 29] (29 = 24 ^ 5) is offset 64 + 128 + 29 = 221; [9, 0] = [8, 0] ^ [1, 8] ^ [0, 8] is 584.
    const SharedLayout l = sharedOk(kNvmma128, over(64, 64));
    EXPECT_EQ(l.notation, SharedNotation::TritonNvmma);
    EXPECT_TRUE(l.tensorDims);
    EXPECT_EQ(l.elementBits, 16);
    ASSERT_EQ(l.bases.size(), 12u);
    EXPECT_EQ(l.bases[6], (Coord{1, 8, 0}));
    EXPECT_EQ(l.bases[9], (Coord{8, 0, 0}));
    EXPECT_EQ(offsetOf(l, 1, 0), 72);
    EXPECT_EQ(offsetOf(l, 3, 5), 221);
    EXPECT_EQ(offsetOf(l, 9, 0), 584);
    EXPECT_EQ(l.address(3, 5), 442u); // bytes: 2 per element
    EXPECT_EQ(l.canonical.rfind("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                                "elementBitWidth = 16}> over 64x64 = #ttg.shared_linear<{offset = [[0, 1], ",
                                0),
              0u)
        << l.canonical;
    EXPECT_EQ(impliedMajor(l, Operand::A), smem::Major::K);
    EXPECT_EQ(impliedMajor(l, Operand::B), smem::Major::MN);
}

TEST(LayoutInShared, SwizzledSharedIsTritonsOffsetsDerivedByHand) {
    // Derived by hand from Triton's swizzledSharedToLinearLayout for vec 4, perPhase 2, maxPhase 4, order
    // [1, 0] over [8, 16]: columns 1, 2, 4, 8 at offsets 1..8; row 1 -> [1, 4*((1/2)%4)] = [1, 0] (offset
    // 16), row 2 -> [2, 4] (32), row 4 -> [4, 8] (64). So [2, 0] is 32 + 4 = 36; [5, 3] = [4, 8] ^ [1, 0] ^
    // [0, 11] is 64 + 16 + 11 = 91; [6, 1]: 64 + 32 + 13 = 109 — Triton's row * 16 + (col ^ 4 * phase).
    constexpr std::string_view kText =
        "#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>";
    const SharedLayout l = sharedOk(kText, over(8, 16, 16));
    EXPECT_EQ(l.notation, SharedNotation::TritonSwizzled);
    EXPECT_EQ(offsetOf(l, 2, 0), 36);
    EXPECT_EQ(offsetOf(l, 5, 3), 91);
    EXPECT_EQ(offsetOf(l, 6, 1), 109);
    EXPECT_FALSE(l.swizzle); // vec 4 of 16-bit elements is no 16-byte chunk: no wgmma swizzle
    // order [0, 1]: the columns run along dim0.
    const SharedLayout t = sharedOk(
        "#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [0, 1]}>", over(16, 8, 16));
    EXPECT_EQ(offsetOf(t, 0, 2), 36);
    EXPECT_EQ(offsetOf(t, 3, 5), 91);
    // The element size is not in the text: without one it does not read, and says how to give it.
    const ReadError e = sharedFails(kText, over(8, 16));
    EXPECT_NE(e.message.find("--element-bits"), std::string::npos) << e.message;
}

TEST(LayoutInShared, NvmmaSharedEqualsWgmmasOperandsByteForByte) {
    const Instruction& wgmma = instruction("wgmma.m64n64k16.f16");
    std::string error;
    // A, K-major, 128B over [64, 64] (four k-steps of the instruction).
    const SharedLayout a = sharedOk(kNvmma128, over(64, 64));
    std::optional<smem::SharedOperand> op =
        coveringOperand(a, wgmma, Operand::A, smem::Choice{smem::Major::K, smem::Swizzle::B128}, error);
    ASSERT_TRUE(op) << error;
    EXPECT_TRUE(compareShared(a, *op).equal());
    // The instruction's own 64 x 16 A: Triton lays 32B over it (16 elements of 2 bytes); equal to K-major
    // 32B.
    const SharedLayout a16 =
        sharedOk("#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16}>",
                 over(64, 16));
    op = coveringOperand(a16, wgmma, Operand::A, smem::Choice{smem::Major::K, smem::Swizzle::B32}, error);
    ASSERT_TRUE(op) << error;
    EXPECT_TRUE(compareShared(a16, *op).equal());
    // 128B over 64 x 16 is refused as Triton refuses it: the row is narrower than the swizzle.
    const ReadError narrow = sharedFails(kNvmma128, over(64, 16));
    EXPECT_NE(narrow.message.find("fewer than the 128-byte swizzle's 64"), std::string::npos)
        << narrow.message;
    // B [K, N], transposed (K contiguous): wgmma's K-major B; not transposed: N-major.
    const SharedLayout bK =
        sharedOk("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>",
                 over(64, 64));
    EXPECT_EQ(impliedMajor(bK, Operand::B), smem::Major::K);
    EXPECT_EQ(offsetOf(bK, 0, 1), 72); // the transpose of A's [1, 0]
    op = coveringOperand(bK, wgmma, Operand::B, smem::Choice{smem::Major::K, smem::Swizzle::B128}, error);
    ASSERT_TRUE(op) << error;
    EXPECT_TRUE(compareShared(bK, *op).equal());
    const SharedLayout bN = sharedOk(kNvmma128, over(64, 64));
    op = coveringOperand(bN, wgmma, Operand::B, smem::Choice{smem::Major::MN, smem::Swizzle::B128}, error);
    ASSERT_TRUE(op) << error;
    EXPECT_TRUE(compareShared(bN, *op).equal());
    // 64B against lanemap's 128B: the first element at another byte is [2, 0] (row 2: 64B XORs chunk 1 in,
    // 128B chunk 2).
    const SharedLayout a64 =
        sharedOk("#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>",
                 over(64, 64));
    op = coveringOperand(a64, wgmma, Operand::A, smem::Choice{smem::Major::K, smem::Swizzle::B128}, error);
    ASSERT_TRUE(op) << error;
    const SharedComparison c = compareShared(a64, *op);
    EXPECT_FALSE(c.equal());
    ASSERT_FALSE(c.first.empty());
    EXPECT_EQ(c.first[0].mn, 0);
    EXPECT_EQ(c.first[0].k, 32); // row 0's second 64-byte half: 64B puts it in the next 64B-atom column
    EXPECT_EQ(describeSharedCell(a64, Operand::A, 0, 32), "(m 0, k 32) = Triton [0, 32] (offset 2048)");
    // bestChoice finds the choice that is equal.
    const std::optional<SharedMatch> best = bestChoice(a64, wgmma, Operand::A, error);
    ASSERT_TRUE(best) << error;
    EXPECT_TRUE(best->comparison.equal());
    EXPECT_EQ(best->choice, (smem::Choice{smem::Major::K, smem::Swizzle::B64}));
}

TEST(LayoutInShared, IdentifyNamesWgmmaAndTcgen05Operands) {
    // A K-major 128B A of 16-bit elements: wgmma's A, and tcgen05.mma's (kind::f16) A and B, K-major 128B.
    const SharedIdentification id = identifyShared(sharedOk(kNvmma128, over(64, 64)));
    ASSERT_FALSE(id.equal.empty());
    bool wgmmaA = false, tcgen05 = false;
    for (const SharedGroup& g : id.equal) {
        EXPECT_EQ(g.differing, 0);
        EXPECT_FALSE(g.instructions.empty());
        if (g.family == "wgmma" && g.operand == Operand::A) {
            wgmmaA = true;
            EXPECT_EQ(g.choice, (smem::Choice{smem::Major::K, smem::Swizzle::B128}));
        }
        tcgen05 = tcgen05 || g.family.rfind("tcgen05", 0) == 0;
    }
    EXPECT_TRUE(wgmmaA);
    EXPECT_TRUE(tcgen05);
    // CuTe's GMMA atom: wgmma's A and B, K-major 128B.
    std::variant<SharedLayout, ReadError> cute =
        readShared("Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)");
    ASSERT_TRUE(std::holds_alternative<SharedLayout>(cute));
    const SharedIdentification cid = identifyShared(std::get<SharedLayout>(cute));
    bool a = false, b = false;
    for (const SharedGroup& g : cid.equal)
        if (g.family == "wgmma" && g.choice == smem::Choice{smem::Major::K, smem::Swizzle::B128})
            (g.operand == Operand::A ? a : b) = true;
    EXPECT_TRUE(a);
    EXPECT_TRUE(b);
    // A swizzle no descriptor has (vec 4 of 16-bit elements) equals none: the nearest are named.
    const SharedIdentification none = identifyShared(sharedOk(
        "#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>", over(64, 64, 16)));
    EXPECT_TRUE(none.equal.empty());
    ASSERT_FALSE(none.nearest.empty());
    EXPECT_GT(none.nearest.front().differing, 0);
}

TEST(LayoutInShared, PaddedSharedIsItsLinearComponentThenThePadding) {
    // Derived by hand from Triton's PaddedSharedEncodingAttr (and Gluon's PaddedSharedLayout docstring): the
    // linear component of {order = [1, 0], shape = [2, 4]} is row-major, element [r, c] at r * 4 + c; then
    // 1 element of padding after every 2 and 2 after every 4: [e0, e1, p0, e2, e3, p1, p2, p3, e4, ...], so
    // [0, 2] (e2) is at 3 and [1, 0] (e4) at 4 + 2 + 2 = 8.
    SharedReadOptions bits16;
    bits16.elementBits = 16;
    const SharedLayout l =
        sharedOk("#ttg.padded_shared<[2:+1, 4:+2] {order = [1, 0], shape = [2, 4]}>", bits16);
    EXPECT_EQ(l.notation, SharedNotation::TritonPadded);
    EXPECT_EQ(l.rows, 2);
    EXPECT_EQ(l.cols, 4);
    EXPECT_EQ(offsetOf(l, 0, 2), 3);
    EXPECT_EQ(offsetOf(l, 0, 3), 4);
    EXPECT_EQ(offsetOf(l, 1, 0), 8);
    EXPECT_EQ(l.address(1, 0), 16u);
    // The linear form: its bases, then the padding; [8:+4] over an 8-wide row puts each row 12 apart.
    const SharedLayout b = sharedOk(
        "#ttg.padded_shared<[8:+4] {offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], block = []}>", bits16);
    EXPECT_EQ(b.rows, 4);
    EXPECT_EQ(offsetOf(b, 1, 0), 12);
    EXPECT_EQ(offsetOf(b, 3, 5), 3 * 12 + 5);
}

TEST(LayoutInShared, ReadsWhatTritonPrints) {
    // The CTA fields of one CTA, fp4Padded = false, rank = 2, an alias line, a memdesc type.
    const SharedLayout cta =
        sharedOk("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                 "elementBitWidth = 16, fp4Padded = false, CTAsPerCGA = [1, 1], CTASplitNum "
                 "= [1, 1], CTAOrder = [1, 0], rank = 2}>",
                 over(64, 64));
    EXPECT_EQ(offsetOf(cta, 1, 0), 72);
    const SharedLayout aliased =
        sharedOk("#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                 "warpsPerCTA = [4, 1], order = [1, 0]}>\n#shared = " +
                     std::string(kNvmma128) + "\n#smem = #ttg.shared_memory\n",
                 over(64, 64));
    EXPECT_EQ(offsetOf(aliased, 1, 0), 72);
    const SharedLayout desc = sharedOk("#shared = " + std::string(kNvmma128) +
                                       "\n!ttg.memdesc<64x64xf16, #shared, #smem, mutable>");
    EXPECT_EQ(desc.rows, 64);
    EXPECT_EQ(offsetOf(desc, 3, 5), 221);
    const SharedLayout swizzledDesc =
        sharedOk("!ttg.memdesc<8x16xbf16, #ttg.swizzled_shared<{vec = 4, perPhase = 2, "
                 "maxPhase = 4, order = [1, 0]}>, #ttg.shared_memory>");
    EXPECT_EQ(swizzledDesc.elementBits, 16);
    EXPECT_EQ(offsetOf(swizzledDesc, 6, 1), 109);
    // The linear form Triton's to_linear_layout gives: its bases are the very offsets.
    SharedReadOptions bits16;
    bits16.elementBits = 16;
    const SharedLayout linear =
        sharedOk("#ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 4], "
                 "[4, 0]], block = []}, alignment = 16>",
                 bits16);
    EXPECT_EQ(linear.rows, 8);
    EXPECT_EQ(linear.cols, 8);
    EXPECT_EQ(linear.notation, SharedNotation::TritonLinear);
    EXPECT_EQ(offsetOf(linear, 2, 0), 16 + 4);
    // fp4Padded: each 16 bytes hold 8 packed bytes and 8 of padding; [0, 8] is at byte 16.
    const SharedLayout padded = sharedOk("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                                         "elementBitWidth = 8, fp4Padded = true}>",
                                         over(8, 64));
    EXPECT_EQ(offsetOf(padded, 0, 7), 7);
    EXPECT_EQ(offsetOf(padded, 0, 8), 16);
    // A thread-value reader refuses it by name.
    std::variant<Layout, ReadError> tv = read(kNvmma128);
    ASSERT_TRUE(std::holds_alternative<ReadError>(tv));
    EXPECT_NE(std::get<ReadError>(tv).message.find("shared-memory encoding"), std::string::npos);
    // ... but an IR dump whose shared alias comes before a dot_op is the dot_op.
    EXPECT_FALSE(
        isSharedLayout("#shared = " + std::string(kNvmma128) +
                       "\n#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor "
                       "= 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 2}>"));
}

TEST(LayoutInShared, BadInputNamesThePositionAndWhatWasExpected) {
    ReadError e =
        sharedFails("#ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>",
                    over(64, 64));
    EXPECT_EQ(e.column, 41);
    EXPECT_NE(e.message.find("swizzlingByteWidth is 0, 32, 64 or 128"), std::string::npos) << e.message;
    e = sharedFails("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = maybe, elementBitWidth = 16}>",
                    over(64, 64));
    EXPECT_EQ(e.column, 59);
    EXPECT_NE(e.message.find("expected true or false after transposed ="), std::string::npos) << e.message;
    e = sharedFails("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, "
                    "CTAsPerCGA = [2, 1]}>",
                    over(64, 64));
    EXPECT_NE(e.message.find("names several CTAs"), std::string::npos) << e.message;
    e = sharedFails("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8}>", over(64, 64, 16));
    EXPECT_NE(e.message.find("#ttg.swizzled_shared needs order"), std::string::npos) << e.message;
    e = sharedFails("#ttg.padded_shared<[32:+3] {order = [1, 0], shape = [64, 64]}>", over(64, 64, 16));
    EXPECT_EQ(e.column, 25);
    EXPECT_NE(e.message.find("expected the padding, a power of two"), std::string::npos) << e.message;
    e = sharedFails("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>", over(32, 64, 16));
    EXPECT_NE(e.message.find("the encoding's shape is 64x64; --shape says 32x64"), std::string::npos)
        << e.message;
    e = sharedFails(kNvmma128); // no shape
    EXPECT_NE(e.message.find("--shape"), std::string::npos) << e.message;
    e = sharedFails(kNvmma128, over(64, 48));
    EXPECT_NE(e.message.find("powers of two"), std::string::npos) << e.message;
    e = sharedFails("!ttg.memdesc<64x64xq7, " + std::string(kNvmma128) + ", #smem>");
    EXPECT_EQ(e.column, 20);
    EXPECT_NE(e.message.find("expected the element type"), std::string::npos) << e.message;
    e = sharedFails("!ttg.memdesc<64x64xf32, " + std::string(kNvmma128) + ", #smem>");
    EXPECT_NE(e.message.find("the memdesc's elements are 32-bit"), std::string::npos) << e.message;
    e = sharedFails("#shared2", over(64, 64));
    EXPECT_NE(e.message.find("expected a shared-memory layout"), std::string::npos) << e.message;
}

TEST(LayoutInShared, ConformChecksSharedLinesByteForByte) {
    // A small file in the format tools/triton_layouts/dump_triton_layouts.py writes: Triton's linear form of
    // each shared encoding, then the encoding itself in its memdesc type; and a CuTe GMMA atom.
    const std::string file =
        "# hand-written, as the dumper prints them\n"
        "wgmma.m64n64k16.f16:A !ttg.memdesc<64x64xf16, " +
        std::string(kNvmma128) +
        ", #ttg.shared_memory>\n"
        "wgmma.m64n64k16.f16:A !ttg.memdesc<64x16xf16, "
        "#ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = "
        "false, elementBitWidth = 16}>, #ttg.shared_memory>\n"
        "wgmma.m64n64k16.f16:B Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)\n"
        "wgmma.m64n64k16.f16:B !ttg.memdesc<16x64xf16, #ttg.swizzled_shared<{vec = 4, "
        "perPhase = 1, maxPhase = 8, "
        "order = [1, 0]}>, #ttg.shared_memory>\n"
        "mma.m16n8k16.f16:A !ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 8, "
        "perPhase = 1, maxPhase = 2, "
        "order = [1, 0]}>, #ttg.shared_memory>\n"
        "wgmma.m64n64k16.f16:A !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = "
        "128, transposed = true, elementBitWidth = 16}>, #ttg.shared_memory>\n";
    std::string error;
    const std::optional<std::vector<ConformLine>> lines = conform(file, error);
    ASSERT_TRUE(lines) << error;
    ASSERT_EQ(lines->size(), 6u);
    EXPECT_EQ((*lines)[5].verdict, Conformance::Equal) << (*lines)[5].detail; // M-major A
    EXPECT_EQ((*lines)[0].verdict, Conformance::Equal) << (*lines)[0].detail;
    EXPECT_EQ((*lines)[1].verdict, Conformance::Equal) << (*lines)[1].detail;
    EXPECT_EQ((*lines)[2].verdict, Conformance::Equal) << (*lines)[2].detail;
    EXPECT_EQ((*lines)[3].verdict, Conformance::Differs);
    EXPECT_NE((*lines)[3].detail.find("differs in shared memory"), std::string::npos) << (*lines)[3].detail;
    EXPECT_NE((*lines)[3].detail.find("Triton ["), std::string::npos) << (*lines)[3].detail;
    EXPECT_EQ((*lines)[4].verdict, Conformance::Unknown); // mma reads A from registers
    const std::string matrix = conformMatrix(*lines);
    EXPECT_NE(matrix.find("6 layouts: 4 equal, 1 differ, 0 not linear, 1 unknown"), std::string::npos)
        << matrix;
    // A claim with more than two lines is counted in its cell; two are listed.
    const std::string row = matrix.substr(matrix.find("\nwgmma.m64n64k16.f16 "), 80);
    EXPECT_EQ(row.find("3 equal "), 22u) << matrix;
    EXPECT_NE(row.find("equal/differs"), std::string::npos) << matrix;
    // A line that does not read names its line and column.
    ASSERT_FALSE(conform("wgmma.m64n64k16.f16:A #ttg.nvmma_shared<{swizzlingByteWidth = 12}>\n", error));
    EXPECT_EQ(error.rfind("line 1, column 63: swizzlingByteWidth is 0, 32, 64 or 128", 0), 0u) << error;
}

TEST(LayoutInShared, TritonSharedEncodingsConvertAsTritonDid) {
    // The dumper prints, for each shared encoding, Triton's own linear layout of it (a #ttg.shared_linear in
    // its memdesc type) and then the encoding: lanemap's conversion of the encoding must place every element
    // at the offset Triton's does. Runs over the recorded output of a run with Triton itself.
    std::ifstream in(std::string(LANEMAP_SOURCE_DIR) + "/resources/conform/triton-3.6.0.txt");
    ASSERT_TRUE(in) << "resources/conform/triton-3.6.0.txt";
    std::string previous, previousClaim;
    int pairs = 0;
    for (std::string line; std::getline(in, line);) {
        const std::size_t space = line.find(' ');
        if (line.empty() || line[0] == '#' || space == std::string::npos) {
            previous.clear();
            continue;
        }
        const std::string claim = line.substr(0, space), text = line.substr(space + 1);
        if (text.find("!ttg.memdesc<") == 0 && text.find("#ttg.shared_linear<") == std::string::npos &&
            claim == previousClaim && previous.find("#ttg.shared_linear<") != std::string::npos) {
            const SharedLayout triton = sharedOk(previous), lanemap = sharedOk(text);
            EXPECT_EQ(lanemap.rows, triton.rows) << line;
            EXPECT_EQ(lanemap.offsets, triton.offsets) << line << "\n  Triton: " << previous;
            ++pairs;
        }
        previous = text;
        previousClaim = claim;
    }
    if (pairs == 0)
        GTEST_SKIP() << "the recorded Triton 3.6.0 output has no shared-memory lines yet (a rerun of "
                        "tools/triton_layouts/dump_triton_layouts.py on a machine with Triton prints them)";
}

} // namespace test_layout_in_shared
