// CUDA C++ header export (docs/reference/exports.md#cuda-header). Closed forms come from an affine fit over
// F2 (bit_layout.hpp); where the fit fails the function reads a string-literal table, which is constexpr and
// legal in device code alike, so every layout exports.

#include "export/export_cuda_detail.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/placement.hpp"
#include "model/bit_layout.hpp"

#include <array>
#include <cctype>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

namespace lanemap {

namespace cudagen {

int Packing::totalBits() const {
    int b = 0;
    for (const Field& f : fields)
        b += f.bits;
    return b;
}

std::pair<std::string, int> Packing::source(int b) const {
    for (const Field& f : fields) {
        if (b < f.bits)
            return {f.name, b};
        b -= f.bits;
    }
    return {"?", 0};
}

std::string Packing::indexExpression(const std::vector<int>& extents) const {
    std::string e;
    for (std::size_t k = fields.size(); k-- > 0;) {
        e = e.empty() ? fields[k].name
                      : "(" + e + ") * " + std::to_string(extents[k]) + " + " + fields[k].name;
    }
    return e;
}

namespace {

std::string affineExpression(const bits::Affine& a, const Packing& p) {
    std::string e = std::to_string(a.constant);
    bool any = a.constant != 0;
    if (!any)
        e.clear();
    for (std::size_t b = 0; b < a.bases.size(); ++b) {
        if (!a.bases[b])
            continue;
        const auto [name, bit] = p.source(static_cast<int>(b));
        std::string term =
            "(((" + name + " >> " + std::to_string(bit) + ") & 1) * " + std::to_string(a.bases[b]) + ")";
        e = e.empty() ? term : e + " ^ " + term;
    }
    return e.empty() ? "0" : e;
}

// A table as a string literal: two bytes per entry (high, low) so values up to 65535 fit.
std::string tableLiteral(const std::vector<int>& values) {
    static const char* hex = "0123456789abcdef";
    std::string s = "\"";
    int column = 0;
    for (const int v : values) {
        if (v < 0 || v > 0xffff)
            throw std::logic_error("CUDA header table: value " + std::to_string(v) + " outside 0..65535");
        for (const int byte : {(v >> 8) & 0xff, v & 0xff}) {
            s += "\\x";
            s += hex[byte >> 4];
            s += hex[byte & 15];
        }
        if (++column % 32 == 0)
            s += "\"\n        \"";
    }
    return s + "\"";
}

} // namespace

std::string emitFunction(const std::string& name, const std::vector<std::string>& signature, const Packing& p,
                         const std::vector<int>& extents, const std::function<bool(const Args&)>& valid,
                         const std::function<int(const Args&)>& f, bool& closedForm) {
    auto inExtents = [&](const Args& args) {
        for (std::size_t k = 0; k < args.size() && k < extents.size(); ++k)
            if (args[k] >= extents[k])
                return false;
        return true;
    };
    std::string params;
    for (const std::string& arg : signature)
        (params += params.empty() ? "" : ", ") += "int " + arg;
    std::ostringstream s;
    s << "LANEMAP_HD constexpr int " << name << "(" << params << ") {\n";
    // Evaluate once over the packed domain, then fit.
    const std::size_t size = std::size_t{1} << p.totalBits();
    std::vector<int> packed(size, 0);
    std::vector<bool> defined(size, false);
    // x's fields, counted as x counts (field 0 the lowest bits) instead of unpacked from every x.
    Args args{};
    for (std::size_t x = 0; x < size; ++x) {
        if (inExtents(args) && valid(args)) {
            packed[x] = f(args);
            defined[x] = true;
        }
        for (std::size_t k = 0; k < p.fields.size() && ++args[k] == 1 << p.fields[k].bits; ++k)
            args[k] = 0;
    }
    const std::optional<bits::Affine> fit = bits::fitAffine(packed, defined);
    closedForm = fit.has_value();
    if (fit) {
        const std::string expression = affineExpression(*fit, p);
        for (const std::string& arg : signature) // arguments the closed form does not read
            if (expression.find("(" + arg + " >>") == std::string::npos)
                s << "    (void)" << arg << ";\n";
        s << "    return " << expression << ";\n}\n";
        return s.str();
    }
    std::vector<int> values;
    args = Args{};
    // Row-major with the last field outermost: walk fields from the highest.
    std::function<void(std::size_t)> rowMajor = [&](std::size_t k) {
        if (k == extents.size()) {
            values.push_back(valid(args) ? f(args) : 0);
            return;
        }
        const std::size_t field = extents.size() - 1 - k;
        for (int v = 0; v < extents[field]; ++v) {
            args[field] = v;
            rowMajor(k + 1);
        }
    };
    rowMajor(0);
    const std::string index = p.indexExpression(extents);
    s << "    // No affine form over the bits of the arguments: a table.\n";
    s << "    return (static_cast<unsigned char>(" << tableLiteral(values) << "[2 * (" << index
      << ")]) << 8) |\n           static_cast<unsigned char>(" << tableLiteral(values) << "[2 * (" << index
      << ") + 1]);\n}\n";
    return s.str();
}

} // namespace cudagen

namespace {

using cudagen::Args;
using cudagen::emitFunction;
using cudagen::Packing;

std::string cType(const FragmentLayout& op) {
    return std::string(cudaRegisterType(op));
}

const char* constraint(const FragmentLayout& op) {
    const std::string t = cType(op);
    return t == "double" ? "d" : t == "float" ? "f" : "r";
}

bool isBlockScaled(const Instruction& in) {
    return in.forms.front().scaleVec != ScaleVec::None;
}

// The operand list "{%0, %1}" for `count` registers from %first.
std::string regList(int first, int count) {
    std::string s = "{";
    for (int k = 0; k < count; ++k)
        s += (k ? ", %" : "%") + std::to_string(first + k);
    return s + "}";
}

// The mma / mma.sp wrapper (wgmma: cudagen::wgmmaWrappers).
std::string ptxWrapper(const Instruction& in) {
    std::ostringstream s;
    const FragmentLayout* a = in.operand(Operand::A);
    const FragmentLayout* b = in.operand(Operand::B);
    const FragmentLayout* c = in.operand(Operand::C);
    const FragmentLayout* d = in.operand(Operand::D);
    if (!d)
        return "// No D operand: no wrapper.\n";
    if (isBlockScaled(in))
        return "// No inline-PTX wrapper: block-scaled forms take scale-factor operands ({scale, byte-id, "
               "thread-id} per matrix)\n// whose layout lanemap does not model; the fragment functions above "
               "still hold.\n";
    const bool sparse = in.metadata != nullptr;
    std::string params, outputs, inputs, operands;
    int next = 0;
    auto add = [&](const FragmentLayout& op, const std::string& name, bool output) {
        (params += params.empty() ? "" : ", ") += std::string(output ? "" : "const ") + cType(op) + " (&" +
                                                  name + ")[" + std::to_string(op.registers()) + "]";
        for (int k = 0; k < op.registers(); ++k) {
            std::string& list = output ? outputs : inputs;
            (list += list.empty() ? "" : ", ") += std::string("\"") + (output ? "=" : "") + constraint(op) +
                                                  "\"(" + name + "[" + std::to_string(k) + "])";
        }
        (operands += operands.empty() ? "" : ", ") += regList(next, op.registers());
        next += op.registers();
    };
    add(*d, "d", true);
    if (a)
        add(*a, "a", false);
    if (b)
        add(*b, "b", false);
    if (c)
        add(*c, "c", false);
    if (sparse) {
        // Sparse metadata and the sparsity selector (an immediate, the wrapper's template argument).
        params += ", uint32_t e";
        inputs += ", \"r\"(e), \"n\"(Selector)";
        operands += ", %" + std::to_string(next) + ", %" + std::to_string(next + 1);
        next += 2;
    }
    s << "#if defined(__CUDACC__)\n";
    if (sparse)
        s << "template <int Selector = 0>\n";
    s << "__device__ inline void mma(" << params << ") {\n";
    s << "    asm volatile(\"{\\n" << in.ptx << " " << operands << ";\\n}\\n\"\n";
    s << "                 : " << outputs << "\n                 : " << inputs << ");\n}\n#endif\n";
    return s.str();
}

std::string operandBlock(const FragmentLayout& op) {
    std::ostringstream s;
    const int threads = op.threads(), elements = op.elementsPerThread();
    s << "namespace " << op.name() << " {\n";
    s << "inline constexpr int kRows = " << op.rows() << ", kCols = " << op.cols()
      << ", kThreads = " << threads << ", kElements = " << elements << ", kRegisters = " << op.registers()
      << ";\n";
    s << "inline constexpr int kElementsPerRegister = " << op.elementsPerRegister()
      << ", kElementBits = " << op.elementBits() << ", kRegisterBits = " << op.registerBits() << ";\n";
    if (op.matrices() > 1)
        s << "inline constexpr int kProducts = " << op.matrices()
          << "; // independent products (quad-pairs): product(lane, i) says which\n";
    Packing p{{{"i", bits::bitsFor(elements)}, {"lane", bits::bitsFor(threads)}}};
    const std::vector<int> extents{elements, threads};
    const std::vector<std::string> laneI{"lane", "i"};
    auto all = [](const Args&) { return true; };
    auto el = [&](const Args& v) -> const Element& { return op.element(v[1], v[0]); };
    bool one = true; // closed form found (not reported: the header says so where it is a table)
    s << "// (lane, i) -> element i of lane `lane` (the PTX a0, a1, ...; lane = thread 0.." << threads - 1
      << ")\n";
    s << emitFunction(
        "row", laneI, p, extents, all, [&](const Args& v) { return int(el(v).row); }, one);
    s << emitFunction(
        "col", laneI, p, extents, all, [&](const Args& v) { return int(el(v).col); }, one);
    if (op.chunked()) {
        s << "// Sparse A: element i covers columns col..col_last (one chunk); the metadata picks the "
             "column.\n";
        s << emitFunction(
            "col_last", laneI, p, extents, all, [&](const Args& v) { return int(el(v).colLast); }, one);
    }
    if (op.matrices() > 1)
        s << emitFunction(
            "product", laneI, p, extents, all, [&](const Args& v) { return int(el(v).matrix); }, one);
    s << emitFunction(
        "reg", laneI, p, extents, all, [&](const Args& v) { return int(el(v).reg); }, one);
    s << emitFunction(
        "bit", laneI, p, extents, all, [&](const Args& v) { return int(el(v).bit); }, one);

    // Inverse: closed form where every cell has one owner and the inverse is affine; else a search.
    bool bijective = !op.chunked();
    for (int m = 0; m < op.matrices() && bijective; ++m)
        for (int r = 0; r < op.rows() && bijective; ++r)
            for (int c = 0; c < op.cols() && bijective; ++c)
                bijective = op.owners(r, c, m).size() == 1;
    const bool products = op.matrices() > 1;
    std::string params = products ? "int r, int c, int m" : "int r, int c";
    std::string call = products ? "r, c, m" : "r, c";
    if (bijective) {
        Packing q{{{"c", bits::bitsFor(op.cols())}, {"r", bits::bitsFor(op.rows())}}};
        std::vector<int> qExtents{op.cols(), op.rows()};
        if (products) {
            q.fields.push_back({"m", bits::bitsFor(op.matrices())});
            qExtents.push_back(op.matrices());
        }
        const std::vector<std::string> ownerArgs =
            products ? std::vector<std::string>{"r", "c", "m"} : std::vector<std::string>{"r", "c"};
        auto owner = [&](const Args& v) -> const Element& {
            return op.owners(v[1], v[0], products ? v[2] : 0)[0];
        };
        s << "// Inverse: who holds (row r, column c" << (products ? ", product m" : "") << ").\n";
        s << emitFunction(
            "owner_lane", ownerArgs, q, qExtents, all, [&](const Args& v) { return int(owner(v).thread); },
            one);
        s << emitFunction(
            "owner_index", ownerArgs, q, qExtents, all, [&](const Args& v) { return int(owner(v).index); },
            one);
        s << "LANEMAP_HD constexpr Owner owner(" << params << ") {\n    return Owner{owner_lane(" << call
          << "), owner_index(" << call << ")};\n}\n";
    } else {
        s << "// Inverse: not one owner per cell (" << (op.chunked() ? "sparse chunks" : "shared cells")
          << "): owner() returns the first holder, owner_count() how many there are.\n";
        const std::string hit = std::string("row(l, i) == r && ") +
                                (op.chunked() ? "col(l, i) <= c && c <= col_last(l, i)" : "col(l, i) == c") +
                                (products ? " && product(l, i) == m" : "");
        s << "LANEMAP_HD constexpr Owner owner(" << params << ") {\n"
          << "    for (int l = 0; l < kThreads; ++l)\n        for (int i = 0; i < kElements; ++i)\n"
          << "            if (" << hit
          << ")\n                return Owner{l, i};\n    return Owner{-1, -1};\n}\n";
        s << "LANEMAP_HD constexpr int owner_count(" << params << ") {\n    int n = 0;\n"
          << "    for (int l = 0; l < kThreads; ++l)\n        for (int i = 0; i < kElements; ++i)\n"
          << "            n += (" << hit << ") ? 1 : 0;\n    return n;\n}\n";
    }
    s << "} // namespace " << op.name() << "\n\n";
    return s.str();
}

std::string metadataBlock(const Instruction& in) {
    const MetadataLayout& md = *in.metadata;
    std::ostringstream s;
    s << "// Sparse metadata (" << md.granularity
      << "): the field of row r, chunk k = c / kChunkCols sits in\n"
      << "// bits [field_bit + kFieldBits - 1 : field_bit] of the metadata register e of lane field_lane, "
         "for the\n"
      << "// sparsity selector the namespace names.\n";
    s << "namespace metadata {\ninline constexpr int kChunkCols = " << md.chunkCols
      << ", kFieldBits = " << md.fieldBits << ", kIndexBits = " << md.indexBits << ";\n";
    const FragmentLayout* a = in.operand(Operand::A);
    const int rows = a ? a->rows() : 0, chunks = a ? a->cols() / md.chunkCols : 0;
    for (const MetadataSelector& sel : md.selectors) {
        std::map<std::pair<int, int>, const MetadataField*> at;
        for (const MetadataField& f : sel.fields)
            at[{f.row, f.colFirst / md.chunkCols}] = &f;
        Packing p{{{"k", bits::bitsFor(chunks)}, {"r", bits::bitsFor(rows)}}};
        const std::vector<int> extents{chunks, rows};
        auto valid = [&](const Args& v) { return at.count({v[1], v[0]}) > 0; };
        bool one = true;
        const std::vector<std::string> rowChunk{"r", "k"};
        s << "namespace selector" << sel.value << " {\n";
        s << emitFunction(
            "field_lane", rowChunk, p, extents, valid,
            [&](const Args& v) {
                return at.at({v[1], v[0]})->thread;
            },
            one);
        s << emitFunction(
            "field_bit", rowChunk, p, extents, valid,
            [&](const Args& v) {
                return at.at({v[1], v[0]})->bitLo;
            },
            one);
        s << "} // namespace selector" << sel.value << "\n";
    }
    s << "} // namespace metadata\n\n";
    return s.str();
}

} // namespace

std::string_view cudaRegisterType(const FragmentLayout& op) {
    if (op.registerBits() == 64)
        return "double";
    if (op.elementsPerRegister() == 1 && op.elementType() == ElementType::F32 && op.operand() != Operand::A &&
        op.operand() != Operand::B)
        return "float";
    return "uint32_t";
}

std::string cudaNamespace(const Instruction& in, const smem::Choice& choice) {
    std::string s;
    for (const char c : in.spec)
        s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    const smem::Choice standard;
    if (smem::hasSharedMemoryOperands(in) &&
        (choice.major != standard.major || choice.swizzle != standard.swizzle))
        for (const std::string_view part : {smem::toString(choice.major), smem::toString(choice.swizzle)}) {
            s += '_';
            for (const char c : part)
                s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    return s;
}

std::string toCudaHeader(const Instruction& in, const smem::Choice& choice) {
    std::ostringstream s;
    const std::string ns = cudaNamespace(in, choice);
    if (in.operands.empty()) {
        // No register fragment (a tcgen05.mma, a TMA box): nothing to write as functions of a lane; the
        // header names the spaces each operand is placed in and where to see them.
        std::string where;
        for (const Operand operand : kOperands) {
            std::vector<std::string_view> spaces;
            for (const Space space : kSpaces)
                if (in.placement(space, operand))
                    spaces.push_back(toString(space));
            if (spaces.empty())
                continue;
            (where += where.empty() ? "" : "; ") += std::string(toString(operand)) + " in ";
            for (std::size_t i = 0; i < spaces.size(); ++i)
                (where += i == 0 ? "" : i + 1 == spaces.size() ? " and " : ", ") += spaces[i];
        }
        s << "// " << in.spec << ": generated by lanemap (lanemap-cli export " << in.spec
          << " --format cuda).\n// PTX: " << in.ptx << "\n"
          << "// No register holds an operand of this instruction"
          << (where.empty() ? "" : " (" + where + ")")
          << ":\n// there is no fragment to write as functions of a lane. Where every element sits:\n"
          << "// lanemap-cli export " << in.spec << " --format txt (or json, svg).\n"
          << "#pragma once\n\nnamespace lanemap_gen {\nnamespace " << ns << " {\n"
          << "inline constexpr int kM = " << in.m << ", kN = " << in.n << ", kK = " << in.k
          << ", kThreads = " << in.threads << ", kMinSm = " << in.minSm << ";\n"
          << "} // namespace " << ns << "\n} // namespace lanemap_gen\n";
        return s.str();
    }
    const FragmentLayout* a = in.operand(Operand::A);
    s << "// " << in.spec << ": fragment layout as constexpr functions, generated by lanemap\n"
      << "// (lanemap-cli export " << in.spec << " --format cuda). PTX: " << in.ptx << "\n"
      << "// "
      << (in.scope == Scope::Warpgroup ? "Warpgroup of 128 threads: `lane` is the thread 0..127."
                                       : "One warp: `lane` is %laneid.")
      << " Element i of a lane sits in register reg(lane, i) at bits [bit + element bits - 1 : "
         "bit].\n//\n"
      << "// Usage (load A from a row-major matrix in global memory, then run the instruction):\n"
      << "//   namespace L = lanemap_gen::" << ns << ";\n";
    if (a)
        s << "//   for (int i = 0; i < L::A::kElements; ++i)\n"
          << "//       a_elems[i] = gA[L::A::row(lane, i) * lda + L::A::col(lane, i)];   // pack into "
             "L::A::reg(lane, i)\n"
          << "//   auto [l, i] = L::A::owner(3, 11);   // who holds A[3][11]\n";
    const bool wgmma = smem::hasSharedMemoryOperands(in);
    if (wgmma)
        s << "// Shared memory: " << toString(choice.major) << "-major, " << toString(choice.swizzle)
          << " swizzle (lanemap-cli export " << in.spec
          << " --format cuda --major K|MN --swizzle none|32B|64B|128B for another)\n"
          << "//   __shared__ alignas(L::B::kSmemAlignment) unsigned char sB[L::B::kSmemBytes];\n"
          << "//   sB[L::B::smem_offset(k, n)] ...   // element B[k][n] (write it byte by byte for its "
             "type)\n"
          << "//   lanemap_gen::warpgroup::fence_proxy_async(); __syncthreads();\n"
          << "//   const std::uint64_t b_desc = "
             "L::B::smem_descriptor(static_cast<std::uint32_t>(__cvta_generic_to_shared(sB)));\n"
          << "//   lanemap_gen::warpgroup::fence();\n"
          << "//   L::mma" << (in.metadata ? "<0>(d, a, b_desc, e, 1)" : "(d, a, b_desc, 1)")
          << ";   // D += A x B; A from registers (or an A descriptor: L::A::smem_*)\n"
          << "//   lanemap_gen::warpgroup::commit_group(); lanemap_gen::warpgroup::wait_group<0>();\n"
          << "//   lanemap_gen::warpgroup::fence_operands(d);\n";
    else
        s << "//   L::mma(d, a, ...);   // operand lists as in the PTX: see mma() below\n";
    s << "#pragma once\n\n#ifndef LANEMAP_GEN_COMMON\n#define LANEMAP_GEN_COMMON\n"
      << "#if defined(__CUDACC__)\n#define LANEMAP_HD __host__ __device__\n#else\n#define "
         "LANEMAP_HD\n#endif\n"
      << "#include <cstdint>\nnamespace lanemap_gen {\nstruct Owner {\n    int lane;  // -1: nobody\n    "
         "int "
         "index; // element i\n};\n} // namespace lanemap_gen\n#endif\n\n";
    if (wgmma)
        s << cudagen::warpgroupCommon();
    s << "namespace lanemap_gen {\nnamespace " << ns << " {\n";
    s << "inline constexpr int kM = " << in.m << ", kN = " << in.n << ", kK = " << in.k
      << ", kThreads = " << in.threads << ", kMinSm = " << in.minSm << ";\n\n";
    for (const FragmentLayout& op : in.operands)
        s << operandBlock(op);
    if (wgmma)
        s << cudagen::sharedMemoryBlock(in, choice);
    if (in.metadata)
        s << metadataBlock(in);
    s << (wgmma ? cudagen::wgmmaWrappers(in, choice) : ptxWrapper(in));
    s << "} // namespace " << ns << "\n} // namespace lanemap_gen\n";
    return s.str();
}

} // namespace lanemap
