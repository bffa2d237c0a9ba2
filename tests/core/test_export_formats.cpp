// CuTe, Triton and table exports, evaluated independently and compared with the engine for every cell of
// every variant: a small Shape:Stride evaluator for CuTe strings (and Swizzle o layout for wgmma shared
// memory), XOR of the JSON bases for Triton.
#include "lanemap/catalog.hpp"
#include "lanemap/export.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/smem.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>
#include <string>
#include <vector>

namespace test_export_formats {

namespace {

using lanemap::Catalog;
using lanemap::FragmentLayout;
using lanemap::Instruction;
using lanemap::Operand;

// --- a minimal CuTe layout evaluator: "(shape):(stride)" with nested tuples, colexicographic coordinates --
struct Node {
    long value = 0;
    std::vector<Node> children; // empty: a leaf
};

Node parseTuple(const std::string& s, std::size_t& pos) {
    Node n;
    if (s[pos] == '(') {
        ++pos;
        while (true) {
            n.children.push_back(parseTuple(s, pos));
            if (s[pos] == ',') {
                ++pos;
                continue;
            }
            EXPECT_EQ(s[pos], ')') << s;
            ++pos;
            break;
        }
        return n;
    }
    std::size_t end = pos;
    while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '-'))
        ++end;
    n.value = std::stol(s.substr(pos, end - pos));
    pos = end;
    return n;
}

void flatten(const Node& shape, const Node& stride, std::vector<std::pair<long, long>>& modes) {
    if (shape.children.empty()) {
        modes.emplace_back(shape.value, stride.value);
        return;
    }
    ASSERT_EQ(shape.children.size(), stride.children.size());
    for (std::size_t k = 0; k < shape.children.size(); ++k)
        flatten(shape.children[k], stride.children[k], modes);
}

struct CuteLayout {
    std::vector<std::vector<std::pair<long, long>>> top; // top-level modes, each flattened
    long operator()(std::vector<long> coords) const {
        long v = 0;
        for (std::size_t m = 0; m < top.size(); ++m) {
            long x = coords[m];
            for (const auto& [size, stride] : top[m]) {
                v += (x % size) * stride;
                x /= size;
            }
        }
        return v;
    }
};

CuteLayout parseLayout(const std::string& text) {
    const std::size_t colon = text.find("):(");
    std::size_t p = 0, q = colon + 2;
    const Node shape = parseTuple(text, p), stride = parseTuple(text, q);
    CuteLayout l;
    for (std::size_t k = 0; k < shape.children.size(); ++k) {
        l.top.emplace_back();
        flatten(shape.children[k], stride.children[k], l.top.back());
    }
    return l;
}

TEST(CuteEvaluator, ReadsCutlassNotation) {
    // CUTLASS SM80_16x8x16 ALayout: thread 5 (t=1, g=1), value 3 -> (m=9, k=3) -> 9 + 16*3 = 57.
    const CuteLayout l = parseLayout("((4,8),(2,2,2)):((32,1),(16,8,128))");
    EXPECT_EQ(l({5, 3}), 9 + 16 * 3);
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

TEST(CuteExport, Mma16816AMatchesCutlass) {
    const Instruction& in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    const std::string doc = lanemap::toCute(in, {});
    EXPECT_NE(doc.find("A: (T32,V8) -> (M16,K16)\n  ((4,8),(2,2,2)):((32,1),(16,8,128))"), std::string::npos)
        << doc;
    EXPECT_NE(doc.find("atom: SM80_16x8x16_F32F16F16F32_TN"), std::string::npos) << doc;
}

TEST(CuteExport, EveryLayoutEvaluatesToTheEngineForEveryCell) {
    std::size_t layouts = 0, statements = 0, cells = 0;
    for (const lanemap::Variant* v : Catalog::instance().variants()) {
        const Instruction& in = Catalog::instance().instruction(*v);
        const std::vector<std::string> doc = lines(lanemap::toCute(in, {}));
        for (const FragmentLayout& op : in.operands) {
            const std::string head = std::string(op.name()) + ": (T";
            std::size_t k = 0;
            while (k < doc.size() && doc[k].rfind(head, 0) != 0)
                ++k;
            ASSERT_LT(k + 1, doc.size()) << v->spec << ' ' << op.name();
            const std::string& body = doc[k + 1];
            if (body.rfind("  not expressible", 0) == 0) {
                ++statements;
                EXPECT_TRUE(op.chunked()) << v->spec << ' ' << op.name() << ": " << body;
                continue;
            }
            const CuteLayout layout = parseLayout(body.substr(2));
            const long first = op.operand() == Operand::B ? op.cols() : op.rows();
            const long second = op.operand() == Operand::B ? op.rows() : op.cols();
            int failures = 0;
            for (const lanemap::Element& e : op.elements()) {
                const long a = op.operand() == Operand::B ? e.col : e.row;
                const long b = op.operand() == Operand::B ? e.row : e.col;
                const long expected = a + first * b + first * second * std::max(0, int(e.matrix));
                if (layout({e.thread, e.index}) != expected && failures++ < 3)
                    ADD_FAILURE() << v->spec << ' ' << op.name() << " T" << e.thread << " V" << e.index
                                  << ": " << layout({e.thread, e.index}) << " != " << expected;
                ++cells;
            }
            ++layouts;
        }
    }
    EXPECT_GT(layouts, 1000u);
    EXPECT_GT(cells, 1000000u);
    RecordProperty("statements", static_cast<int>(statements));
}

TEST(CuteExport, SharedMemorySwizzleLayoutsMatchTheEngine) {
    using lanemap::smem::Major;
    using lanemap::smem::Swizzle;
    std::size_t checked = 0;
    for (const char* spec : {
             "wgmma.m64n64k16.f16", "wgmma.m64n256k32.e4m3", "wgmma.m64n32k8.tf32", "wgmma.m64n16k32.s8",
             "wgmma.sp.m64n64k32.f16",
             "wgmma.m64n64k256.b1" // sub-byte elements: offsets in bits
         }) {
        const Instruction* in = Catalog::instance().instruction(spec);
        ASSERT_NE(in, nullptr) << spec;
        for (const Major major : {Major::K, Major::MN})
            for (const Swizzle swizzle : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128}) {
                std::string error;
                const auto shared = lanemap::smem::operands(*in, {major, swizzle}, error);
                if (shared.empty())
                    continue; // MN-major exists for f16/bf16 only
                const std::vector<std::string> doc = lines(lanemap::toCute(*in, {major, swizzle}));
                for (const lanemap::smem::SharedOperand& so : shared) {
                    const std::string head =
                        std::string(so.operand == Operand::A ? "A" : "B") + " in shared memory";
                    std::size_t k = 0;
                    while (k < doc.size() && doc[k].rfind(head, 0) != 0)
                        ++k;
                    ASSERT_LT(k + 2, doc.size()) << spec;
                    const std::string& body = doc[k + 2];
                    ASSERT_EQ(body.rfind("  Swizzle<", 0), 0u) << spec << ": " << body;
                    const int b = body[10] - '0';
                    const std::size_t o = body.rfind(" o ");
                    const std::size_t bitsAt = body.find("smem_ptr[") + 9;
                    const int bits = std::stoi(body.substr(bitsAt));
                    const CuteLayout layout = parseLayout(body.substr(o + 3));
                    const lanemap::smem::SmemLayout& l = so.layout;
                    for (int mn = 0; mn < l.rows(); ++mn)
                        for (int kk = 0; kk < l.cols(); ++kk) {
                            const long bit = layout({mn, kk}) * bits;
                            const std::uint32_t byte = static_cast<std::uint32_t>(bit / 8);
                            const std::uint32_t swizzled = byte ^ ((byte >> 3) & (((1u << b) - 1u) << 4));
                            ASSERT_EQ(swizzled, l.address(mn, kk))
                                << spec << ' ' << body << " (" << mn << "," << kk << ")";
                            ++checked;
                        }
                }
            }
    }
    EXPECT_GT(checked, 10000u);
}

TEST(CuteExport, AtomNamesFollowCutlass) {
    // Names as cute/arch/mma_sm*.hpp spells them; none where CUTLASS has no such atom.
    const auto atom = [](const char* spec) {
        return lanemap::cutlassAtom(*Catalog::instance().instruction(spec));
    };
    EXPECT_EQ(atom("mma.m16n8k16.bf16"), "SM80_16x8x16_F32BF16BF16F32_TN");
    EXPECT_EQ(atom("mma.m8n8k4.row.col.f16"), "SM70_8x8x4_F32F16F16F32_TN");
    EXPECT_EQ(atom("mma.m8n8k4.row.col.f16.f16.f32"), "") << "CUTLASS has no f16-C, f32-D Volta atom";
    EXPECT_EQ(atom("mma.m16n8k4.f64"), "SM90::MMA_16x8x4_F64F64F64F64_TN");
    EXPECT_EQ(atom("wgmma.m64n64k16.f16"), "SM90::GMMA::MMA_64x64x16_F32F16F16_RS");
    EXPECT_EQ(atom("wgmma.m64n64k32.e4m3"), "SM90::GMMA::MMA_64x64x32_F32E4M3E4M3_RS_TN");
    EXPECT_EQ(atom("wgmma.m64n64k256.b1"), "");
    EXPECT_EQ(atom("mma.sp.m16n8k32.f16"), "");
}

TEST(CuteExport, SparseAIsNotExpressibleAndSaysWhy) {
    const std::string doc = lanemap::toCute(*Catalog::instance().instruction("mma.sp.m16n8k32.f16"), {});
    EXPECT_NE(doc.find("A: (T32,V8) -> (M16,K32)\n  not expressible as one CuTe layout, because"),
              std::string::npos)
        << doc;
}

// --- Triton: XOR of the bases of the set bits of (register, lane, warp) ---------------------------------

TEST(TritonExport, BasesEvaluateToTheEngineForEveryCell) {
    std::size_t linear = 0, statements = 0, cells = 0;
    for (const lanemap::Variant* v : Catalog::instance().variants()) {
        const Instruction& in = Catalog::instance().instruction(*v);
        const nlohmann::json doc = nlohmann::json::parse(lanemap::toTritonJson(in));
        ASSERT_EQ(doc["operands"].size(), in.operands.size()) << v->spec;
        for (std::size_t k = 0; k < in.operands.size(); ++k) {
            const FragmentLayout& op = in.operands[k];
            const nlohmann::json& o = doc["operands"][k];
            ASSERT_EQ(o["operand"], std::string(op.name()));
            if (!o["linear"].get<bool>()) {
                ++statements;
                EXPECT_FALSE(o["reason"].get<std::string>().empty());
                // Only what LinearLayout cannot hold: metadata-chosen columns, quad-pair products, sizes that
                // are not powers of two (wgmma N = 24, 40, ...).
                auto pow2 = [](int n) { return (n & (n - 1)) == 0; };
                EXPECT_TRUE(op.chunked() || op.matrices() > 1 || !pow2(op.elementsPerThread()) ||
                            !pow2(op.cols()))
                    << v->spec << ' ' << op.name() << ": " << o["reason"];
                continue;
            }
            ++linear;
            const auto& reg = o["bases"]["register"];
            const auto& lane = o["bases"]["lane"];
            const auto& warp = o["bases"]["warp"];
            EXPECT_EQ(1 << reg.size(), op.elementsPerThread()) << v->spec;
            int failures = 0;
            for (const lanemap::Element& e : op.elements()) {
                int row = 0, col = 0;
                auto apply = [&](const nlohmann::json& bases, int x) {
                    for (std::size_t b = 0; b < bases.size(); ++b)
                        if ((x >> b) & 1) {
                            row ^= bases[b][0].get<int>();
                            col ^= bases[b][1].get<int>();
                        }
                };
                apply(reg, e.index);
                apply(lane, e.thread % 32);
                apply(warp, e.thread / 32);
                if ((row != e.row || col != e.col) && failures++ < 3)
                    ADD_FAILURE() << v->spec << ' ' << op.name() << " T" << e.thread << " r" << e.index;
                ++cells;
            }
        }
    }
    EXPECT_GT(linear, 700u);
    EXPECT_GT(statements, 0u) << "sparse A is not linear and must say so";
    EXPECT_GT(cells, 1000000u);
}

// --- tables ---------------------------------------------------------------------------------------------

TEST(TableExport, CsvHasOneLinePerElementAndMatchesTheEngine) {
    const Instruction& in = *Catalog::instance().instruction("mma.m16n8k8.tf32");
    const std::vector<std::string> rows = lines(lanemap::toCsv(in, in.operand(Operand::A)));
    ASSERT_EQ(rows.size(), 1u + 32u * 4u);
    EXPECT_EQ(rows[0],
              "spec,operand,thread,lane,warp,element,register,bit_lo,bit_hi,row,col,col_last,product");
    // a2 of lane 0 is A[0][4] (PTX figure: row groupID, col threadID_in_group + 4).
    EXPECT_EQ(rows[3], "mma.m16n8k8.tf32,A,0,0,0,2,2,0,31,0,4,4,-1");
}

TEST(TableExport, MarkdownGridNamesEveryHolder) {
    const Instruction& in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    const std::string md = lanemap::toMarkdown(in, in.operand(Operand::C));
    EXPECT_NE(md.find("| **0** | T0:c0 | T0:c1 | T1:c0 | T1:c1 |"), std::string::npos) << md.substr(0, 600);
}

TEST(TableExport, LatexSplitsTheLargestTileIntoSmallPictures) {
    const Instruction& in = *Catalog::instance().instruction("wgmma.m64n256k16.f16");
    const std::string tex = lanemap::toLatex(in, in.operand(Operand::D));
    std::size_t pictures = 0, nodes = 0, at = 0;
    while ((at = tex.find("\\begin{tikzpicture}", at)) != std::string::npos) {
        ++pictures;
        ++at;
    }
    at = 0;
    while ((at = tex.find("\\node", at)) != std::string::npos) {
        ++nodes;
        ++at;
    }
    EXPECT_EQ(pictures, (64u / 32u) * (256u / 16u));
    EXPECT_LE(nodes / pictures, 600u) << "each picture stays small enough for TeX's memory";
    EXPECT_NE(tex.find("\\end{document}"), std::string::npos);
    EXPECT_EQ(tex.find("\\foreach"), std::string::npos);
}

TEST(ExportFormats, EveryNewFormatExportsEveryVariantOrSaysWhy) {
    for (const char* name : {"cuda", "cute", "triton", "csv", "md", "tex"}) {
        const auto format = lanemap::parseExportFormat(name);
        ASSERT_TRUE(format) << name;
        for (const char* spec : {"mma.m8n8k4.row.col.f16", "mma.sp.m16n8k32.f16", "wgmma.sp.m64n8k32.f16",
                                 "mma.m16n8k64.kind::mxf4.block_scale.e2m1"}) {
            const Instruction* in = Catalog::instance().instruction(spec);
            if (!in)
                continue;
            std::string doc, error;
            EXPECT_TRUE(lanemap::exportInstruction(*in, *format, {}, doc, error))
                << name << ' ' << spec << ": " << error;
            EXPECT_FALSE(doc.empty());
        }
    }
    std::string doc, error;
    lanemap::ExportOptions operand;
    operand.operands = Operand::A;
    EXPECT_FALSE(lanemap::exportInstruction(*Catalog::instance().instruction("mma.m16n8k16.f16"),
                                            lanemap::ExportFormat::Cuda, operand, doc, error));
    EXPECT_NE(error.find("every register operand"), std::string::npos) << error;
}

TEST(CudaExport, AnInstructionWithNoRegisterOperandSaysWhereItsOperandsAre) {
    // A TMA box and a tcgen05.mma hold nothing in registers: the header names the spaces and where to look,
    // instead of lane and register functions and a usage that calls an mma() it does not define.
    const std::pair<const char*, const char*> cases[] = {
        {"cp.async.bulk.tensor.2d", "(D in shared memory and global memory)"},
        {"tcgen05.mma.cta_group::1.kind::f16.m128", "(D in Tensor Memory)"},
    };
    for (const auto& [spec, where] : cases) {
        const Instruction* in = Catalog::instance().instruction(spec);
        ASSERT_NE(in, nullptr) << spec;
        ASSERT_TRUE(in->operands.empty()) << spec;
        std::string doc, error;
        ASSERT_TRUE(lanemap::exportInstruction(*in, lanemap::ExportFormat::Cuda, {}, doc, error)) << error;
        EXPECT_NE(doc.find(std::string("No register holds an operand of this instruction ") + where),
                  std::string::npos)
            << doc;
        EXPECT_NE(doc.find(std::string("lanemap-cli export ") + spec + " --format txt"), std::string::npos);
        EXPECT_EQ(doc.find("Element i of a lane"), std::string::npos) << doc;
        EXPECT_EQ(doc.find("L::mma("), std::string::npos) << doc;
        EXPECT_NE(doc.find("kMinSm = "), std::string::npos);
    }
}

TEST(CudaExport, NonAffineLayoutsFallBackToTables) {
    // C rows rotated by one, (row + 1) mod 16: no XOR form exists; the header must say so and read a table
    // (the table's values are checked cell by cell by lanemap-cuda-header-tests).
    Instruction in = *Catalog::instance().instruction("mma.m16n8k16.f16");
    in.operands[2] = FragmentLayout::build(
        Operand::C, lanemap::ElementType::F32, 32, 32, {16, 8, 1, 4, 32, 1},
        [](const lanemap::Lane& l, int i, int) {
            return lanemap::Cell{(l.groupID + 8 * (i >> 1) + 1) % 16, 2 * l.threadID_in_group + (i & 1)};
        },
        8, lanemap::Source::Doc);
    const std::string header = lanemap::toCudaHeader(in);
    const std::size_t c = header.find("namespace C {");
    ASSERT_NE(c, std::string::npos);
    const std::string block = header.substr(c, header.find("} // namespace C") - c);
    EXPECT_NE(block.find("constexpr int row(int lane, int i) {\n    // No affine form"), std::string::npos)
        << block;
    EXPECT_NE(block.find("constexpr int owner_lane(int r, int c) {\n    // No affine form"),
              std::string::npos);
    EXPECT_NE(block.find("return (((i >> 0) & 1) * 1)"), std::string::npos) << "col stays a closed form";
}

} // namespace

} // namespace test_export_formats
