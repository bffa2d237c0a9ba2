// The wgmma part of the CUDA header export (docs/reference/exports.md#cuda-header): where A (the SS form)
// and B sit in shared memory, their matrix descriptors, the warpgroup fence / commit / wait helpers and the
// inline-PTX wrappers. Every number comes from core's shared-memory model (lanemap/smem.hpp), the one the
// probe places B with and `show --smem` draws: smem_offset() and smem_bit() are that model's placement()
// evaluated for every cell and written as a closed form over F2 (or a table), and the descriptor constants
// are the model's LBO, SBO and swizzle mode.

#include "export/export_cuda_detail.hpp"
#include "lanemap/export_formats.hpp"
#include "model/bit_layout.hpp"

#include <sstream>
#include <stdexcept>
#include <vector>

namespace lanemap::cudagen {

namespace {

std::string registerList(int first, int count) {
    std::string s = "{";
    for (int k = 0; k < count; ++k)
        s += (k ? ", %" : "%") + std::to_string(first + k);
    return s + "}";
}

const char* constraintOf(const FragmentLayout& op) {
    const std::string_view t = cudaRegisterType(op);
    return t == "double" ? "d" : t == "float" ? "f" : "r";
}

std::string operandBlock(const smem::SharedOperand& op, const Instruction& in) {
    const smem::SmemLayout& l = op.layout;
    const smem::MatrixDescriptor atZero = l.descriptor();
    const std::string name(toString(op.operand));
    std::ostringstream s;
    s << "// " << name << " in shared memory"
      << (op.operand == Operand::B
              ? " (K x N"
              : (op.compressed ? " for the SS form (the compressed M x K/2" : " for the SS form (M x K"))
      << " = " << op.rows << " x " << op.cols << ", ." << toString(op.elementType)
      << "): " << toString(l.major()) << "-major, " << toString(l.swizzle()) << " swizzle.\n"
      << "//   layout: " << l.canonicalFormula() << "\n"
      << "//   " << l.swizzleRule() << "\n"
      << "//   descriptor of a buffer at 0: " << smem::describe(atZero) << "\n";
    if (op.compressed && in.metadata)
        s << "// Stored column j holds kept element j % (kChunkCols / 2) of chunk j / (kChunkCols / 2)\n"
             "// (the metadata's field order).\n";
    s << "// Element (row, col) goes to byte base + smem_offset(row, col)"
      << (l.elementBits() < 8 ? ", bits from smem_bit(row, col)," : "")
      << " of a buffer aligned to\n// kSmemAlignment bytes; smem_descriptor(base) describes it (base: its "
         "shared-memory address).\n";
    s << "namespace " << name << " {\n";
    s << "inline constexpr int kSmemRows = " << op.rows << ", kSmemCols = " << op.cols
      << ", kSmemElementBits = " << l.elementBits() << ";\n";
    s << "inline constexpr std::uint32_t kSmemBytes = " << l.footprintBytes()
      << ", kSmemAlignment = " << smem::repeatBytes(l.swizzle()) << ";\n";
    s << "inline constexpr std::uint32_t kLeadingByteOffset = " << atZero.leadingByteOffset
      << ", kStrideByteOffset = " << atZero.strideByteOffset << ";\n";
    s << "inline constexpr int kSwizzleMode = " << smem::descriptorSwizzleCode(l.swizzle())
      << "; // descriptor bits 63-62: 0 none, 1 128B, 2 64B, 3 32B\n";
    const Packing p{{{"col", bits::bitsFor(op.cols)}, {"row", bits::bitsFor(op.rows)}}};
    const std::vector<int> extents{op.cols, op.rows};
    const std::vector<std::string> rowCol{"row", "col"};
    auto all = [](const Args&) { return true; };
    // Both functions read every element's placement: worked out once, row by row.
    std::vector<smem::Placement> placed;
    placed.reserve(static_cast<std::size_t>(op.rows) * static_cast<std::size_t>(op.cols));
    for (int row = 0; row < op.rows; ++row)
        for (int col = 0; col < op.cols; ++col) {
            const smem::Coord c = op.toLayout(row, col);
            placed.push_back(l.placement(c.mn, c.k));
        }
    auto placement = [&](const Args& v) -> const smem::Placement& {
        return placed[static_cast<std::size_t>(v[1]) * static_cast<std::size_t>(op.cols) +
                      static_cast<std::size_t>(v[0])];
    };
    bool closed = true;
    s << emitFunction(
        "smem_offset", rowCol, p, extents, all,
        [&](const Args& v) { return static_cast<int>(placement(v).address); }, closed);
    s << emitFunction(
        "smem_bit", rowCol, p, extents, all, [&](const Args& v) { return placement(v).bit; }, closed);
    s << "LANEMAP_HD constexpr std::uint64_t smem_descriptor(std::uint32_t base) {\n"
      << "    return lanemap_gen::warpgroup::matrix_descriptor(base, kLeadingByteOffset, kStrideByteOffset, "
         "kSwizzleMode);\n}\n";
    s << "} // namespace " << name << "\n\n";
    return s.str();
}

} // namespace

std::string warpgroupCommon() {
    return R"(#ifndef LANEMAP_GEN_WARPGROUP
#define LANEMAP_GEN_WARPGROUP
namespace lanemap_gen {
namespace warpgroup {
// The 64-bit wgmma matrix descriptor: start address, leading and stride byte offsets each encoded as
// (bytes & 0x3FFFF) >> 4 in bits 13-0, 29-16 and 45-32; base offset in bits 51-49 (0 for a buffer aligned
// to its swizzle pattern); swizzle mode in bits 63-62.
LANEMAP_HD constexpr std::uint64_t matrix_descriptor(std::uint32_t start, std::uint32_t lbo, std::uint32_t sbo,
                                                     int swizzle_mode, int base_offset = 0) {
    return static_cast<std::uint64_t>((start & 0x3FFFFu) >> 4) |
           (static_cast<std::uint64_t>((lbo & 0x3FFFFu) >> 4) << 16) |
           (static_cast<std::uint64_t>((sbo & 0x3FFFFu) >> 4) << 32) |
           (static_cast<std::uint64_t>(base_offset & 7) << 49) |
           (static_cast<std::uint64_t>(swizzle_mode & 3) << 62);
}
#if defined(__CUDACC__)
// Shared memory written with ordinary stores is seen by wgmma (the async proxy) only after this fence in
// every writing thread, followed by a barrier (__syncthreads()).
__device__ inline void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}
// wgmma.fence: before the first wgmma, and whenever registers it reads (A, the accumulator) were written.
__device__ inline void fence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ inline void commit_group() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
// Waits until at most N committed groups are pending (N = 0: every wgmma issued so far has finished).
template <int N> __device__ inline void wait_group() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
// Keeps the compiler from moving reads and writes of a register the asynchronous wgmma uses across the
// fence / wait above: apply it to every accumulator register after wait_group (and before fence).
__device__ inline void fence_operand(float& r) {
    asm volatile("" : "+f"(r)::"memory");
}
__device__ inline void fence_operand(std::uint32_t& r) {
    asm volatile("" : "+r"(r)::"memory");
}
template <class T, int N> __device__ inline void fence_operands(T (&r)[N]) {
    for (int i = 0; i < N; ++i)
        fence_operand(r[i]);
}
#endif
} // namespace warpgroup
} // namespace lanemap_gen
#endif

)";
}

std::string sharedMemoryBlock(const Instruction& in, const smem::Choice& choice) {
    std::string error;
    const std::vector<smem::SharedOperand> shared = smem::operands(in, choice, error);
    if (shared.empty())
        throw std::invalid_argument(error);
    std::string s;
    for (const smem::SharedOperand& op : shared) // A (the SS form), then B
        s += operandBlock(op, in);
    return s;
}

std::string wgmmaWrappers(const Instruction& in, const smem::Choice& choice) {
    const FragmentLayout& a = *in.operand(Operand::A);
    const FragmentLayout& d = *in.operand(Operand::D);
    const bool sparse = in.metadata != nullptr;
    const bool floating = traits(in.atype).floating;
    const bool transposable = in.atype == ElementType::F16 || in.atype == ElementType::BF16;
    const int trans = choice.major == smem::Major::MN ? 1 : 0; // imm-trans-a/b: 1 reads M/N-major
    std::ostringstream s;
    s << "#if defined(__CUDACC__)\n";
    s << "// D = A x B + (scale_d ? D : 0), issued asynchronously: call warpgroup::fence() before, then\n"
         "// warpgroup::commit_group() and warpgroup::wait_group<0>() before reading d. B (and A in the "
         "second\n// form) through descriptors of the layout above ("
      << toString(choice.major) << "-major"
      << (transposable ? ", imm-trans = " + std::to_string(trans) : std::string()) << "), no negation"
      << (sparse ? "; e: the metadata register, Selector: the sparsity selector" : "") << ".\n";
    for (const bool aShared : {false, true}) {
        std::string params, outputs, inputs, operands;
        int next = 0;
        params = std::string(cudaRegisterType(d)) + " (&d)[" + std::to_string(d.registers()) + "]";
        for (int k = 0; k < d.registers(); ++k)
            (outputs += k ? ", " : "") +=
                std::string("\"+") + constraintOf(d) + "\"(d[" + std::to_string(k) + "])";
        operands = registerList(next, d.registers());
        next += d.registers();
        auto input = [&](const std::string& param, const std::string& constraint) {
            if (!param.empty())
                (params += ", ") += param;
            (inputs += inputs.empty() ? "" : ", ") += constraint;
        };
        if (aShared) {
            input("std::uint64_t a_descriptor", "\"l\"(a_descriptor)");
            operands += ", %" + std::to_string(next++);
        } else {
            params += ", const " + std::string(cudaRegisterType(a)) + " (&a)[" +
                      std::to_string(a.registers()) + "]";
            for (int k = 0; k < a.registers(); ++k)
                (inputs += inputs.empty() ? "" : ", ") +=
                    std::string("\"") + constraintOf(a) + "\"(a[" + std::to_string(k) + "])";
            operands += ", " + registerList(next, a.registers());
            next += a.registers();
        }
        input("std::uint64_t b_descriptor", "\"l\"(b_descriptor)");
        operands += ", %" + std::to_string(next++);
        if (sparse) {
            input("std::uint32_t e", "\"r\"(e)");
            input("", "\"n\"(Selector)");
            operands += ", %" + std::to_string(next) + ", %" + std::to_string(next + 1);
            next += 2;
        }
        // scale-d reaches the instruction as the predicate p, set from its %N before the instruction.
        input("int scale_d", "\"r\"(scale_d)");
        const std::string predicate = "setp.ne.b32 p, %" + std::to_string(next++) + ", 0;\\n";
        operands += ", p";
        if (floating) {
            operands += ", 1, 1"; // imm-scale-a, imm-scale-b: no negation
            if (transposable)
                operands += (aShared ? ", " + std::to_string(trans) : std::string()) + ", " +
                            std::to_string(trans); // [imm-trans-a,] imm-trans-b
        }
        if (sparse)
            s << "template <int Selector = 0>\n";
        s << "__device__ inline void mma(" << params << ") {\n";
        s << "    asm volatile(\"{\\n.reg .pred p;\\n"
          << predicate << in.ptx << " " << operands << ";\\n}\\n\"\n";
        s << "                 : " << outputs << "\n                 : " << inputs
          << "\n                 : \"memory\");\n}\n";
    }
    s << "#endif\n";
    return s.str();
}

} // namespace lanemap::cudagen
