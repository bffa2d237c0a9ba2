// Writes the GPU product check's kernels into OUTDIR: the CUDA header of every variant in scope
// (lanemap::toCudaHeader, as `lanemap-cli export --format cuda` writes it), and two translation units whose
// kernels use only those headers' functions:
//  - products_mma.cu: mma / mma.sp / wmma, one kernel per variant and sparsity selector
//  (product_kernels.cuh);
//  - products_wgmma.cu: wgmma / wgmma.sp, one kernel per variant and selector, launched with A from
//    registers and with A from shared memory (product_kernels_wgmma.cuh).
#include "lanemap/catalog.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/sparse.hpp"
#include "lanemap/write.hpp"
#include "product_controls.hpp"
#include "product_scope.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

namespace {

std::string operandAdapter(const lanemap::FragmentLayout& op) {
    const std::string name(op.name());
    const std::string qualified = "L::" + name;
    std::ostringstream s;
    s << "LANEMAP_PRODUCT_OPERAND(Op" << name << ", " << qualified << ", " << lanemap::cudaRegisterType(op)
      << ", " << (op.matrices() > 1 ? qualified + "::product(lane, i)" : std::string("0")) << ");\n";
    return s.str();
}

bool writeHeader(const std::filesystem::path& dir, const lanemap::Instruction& in) {
    const std::string failure = lanemap::writeFile(
        (dir / "headers" / (lanemap::cudaNamespace(in) + ".cuh")).string(), lanemap::toCudaHeader(in));
    if (!failure.empty())
        std::cerr << failure << '\n';
    return failure.empty();
}

const lanemap::sparse::StorageRule* storageRule(const lanemap::Instruction& in) {
    const lanemap::sparse::StorageRule* rule = lanemap::sparse::ruleFor(in.metadata->granularity);
    if (!rule)
        std::cerr << in.spec << ": no storage rule for " << in.metadata->granularity << '\n';
    return rule;
}

// The header of `in` into DIR/headers, its kernels into `cu`, its cases into `table`; false on a failure.
bool emit(const std::filesystem::path& dir, const lanemap::Instruction& in, bool control,
          std::ostringstream& cu, std::ostringstream& table) {
    const char* controlField = control ? ", true" : "";
    const std::string ns = lanemap::cudaNamespace(in);
    if (!writeHeader(dir, in))
        return false;
    cu << "#include \"headers/" << ns << ".cuh\"\nnamespace pc_" << ns
       << " {\nnamespace L = lanemap_gen::" << ns << ";\n";
    for (const lanemap::FragmentLayout& op : in.operands)
        cu << operandAdapter(op);
    const bool sparse = in.metadata != nullptr;
    const lanemap::sparse::StorageRule* rule = sparse ? storageRule(in) : nullptr;
    if (sparse && !rule)
        return false;
    if (sparse)
        cu << "template <int Selector, class Md>\n";
    cu << "__global__ void kernel(lanemap::product::Buffers buf) {\n    const int lane = threadIdx.x;\n"
       << "    OpA::T a[OpA::kRegisters];\n";
    if (sparse)
        cu << "    lanemap::product::loadSparse<OpA, " << rule->kept
           << ", L::metadata::kChunkCols>(a, buf.a, buf.keptCols, lane);\n";
    else
        cu << "    lanemap::product::load<OpA>(a, buf.a, lane);\n";
    cu << "    OpB::T b[OpB::kRegisters];\n    lanemap::product::load<OpB>(b, buf.b, lane);\n"
       << "    OpC::T c[OpC::kRegisters];\n    lanemap::product::load<OpC>(c, buf.c, lane);\n"
       << "    OpD::T d[OpD::kRegisters];\n";
    if (sparse)
        cu << "    const std::uint32_t e = lanemap::product::metadata<Md, OpA::kRows, OpA::kCols / "
              "L::metadata::kChunkCols>(buf.fields, lane);\n    L::mma<Selector>(d, a, b, c, e);\n";
    else
        cu << "    L::mma(d, a, b, c);\n";
    cu << "    lanemap::product::store<OpD>(d, buf.d, lane);\n}\n";
    if (sparse) {
        for (const lanemap::MetadataSelector& s : in.metadata->selectors) {
            const std::string n = std::to_string(s.value);
            cu << "LANEMAP_PRODUCT_METADATA(Md" << n << ", L::metadata::selector" << n << ");\n"
               << "void launch" << n << "(const lanemap::product::Buffers& b) {\n    kernel<" << n << ", Md"
               << n << "><<<1, L::kThreads>>>(b);\n}\n";
            table << "        {\"" << in.spec << "\", " << n << ", " << rule->kept << ", &pc_" << ns
                  << "::launch" << n << controlField << "},\n";
        }
    } else {
        cu << "void launch(const lanemap::product::Buffers& b) {\n    kernel<<<1, "
              "L::kThreads>>>(b);\n}\n";
        table << "        {\"" << in.spec << "\", -1, 0, &pc_" << ns << "::launch" << controlField << "},\n";
    }
    cu << "} // namespace pc_" << ns << "\n\n";
    return true;
}

// wgmma / wgmma.sp: the header of `in`, one kernel per selector (runWgmma with the header's A, D, shared
// A and B, metadata and mma() wrappers), launched with A from registers and, unless `control`, with A from
// shared memory (the control's rotation is in A's registers only).
bool emitWgmma(const std::filesystem::path& dir, const lanemap::Instruction& in, bool control,
               std::ostringstream& includes, std::ostringstream& cu, std::ostringstream& table) {
    const std::string ns = lanemap::cudaNamespace(in);
    if (!writeHeader(dir, in))
        return false;
    const bool sparse = in.metadata != nullptr;
    const lanemap::sparse::StorageRule* rule = sparse ? storageRule(in) : nullptr;
    if (sparse && !rule)
        return false;
    includes << "#include \"headers/" << ns << ".cuh\"\n";
    cu << "namespace pw_" << ns << " {\nnamespace L = lanemap_gen::" << ns << ";\n"
       << operandAdapter(*in.operand(lanemap::Operand::A)) << operandAdapter(*in.operand(lanemap::Operand::D))
       << "LANEMAP_PRODUCT_SHARED(SA, L::A);\nLANEMAP_PRODUCT_SHARED(SB, L::B);\n";
    const std::string selector = sparse ? "<Selector>" : "";
    const std::string e = sparse ? "e, " : "";
    if (sparse)
        cu << "template <int Selector>\n";
    cu << "struct Mma {\n"
       << "    __device__ static void registers(OpD::T (&d)[OpD::kRegisters], const OpA::T "
          "(&a)[OpA::kRegisters], "
          "std::uint64_t b, std::uint32_t e) {\n"
       << "        (void)e;\n        L::mma" << selector << "(d, a, b, " << e << "1);\n    }\n"
       << "    __device__ static void shared(OpD::T (&d)[OpD::kRegisters], std::uint64_t a, std::uint64_t b, "
          "std::uint32_t e) {\n"
       << "        (void)e;\n        L::mma" << selector << "(d, a, b, " << e << "1);\n    }\n};\n";
    std::vector<int> selectors;
    if (sparse)
        for (const lanemap::MetadataSelector& sel : in.metadata->selectors)
            selectors.push_back(sel.value);
    else
        selectors.push_back(-1);
    for (const int sel : selectors) {
        const std::string n = sel < 0 ? "" : std::to_string(sel);
        const std::string mma = sparse ? "Mma<" + n + ">" : "Mma";
        const std::string md = sparse ? "Md" + n : "lanemap::product::NoMetadata";
        if (sparse)
            cu << "LANEMAP_PRODUCT_METADATA(Md" << n << ", L::metadata::selector" << n << ");\n";
        cu << "__global__ void __launch_bounds__(128, 1) kernel" << n
           << "(lanemap::product::Buffers buf, int aShared) {\n"
           << "    lanemap::product::runWgmma<OpA, OpD, SA, SB, " << mma << ", " << md << ", "
           << (sparse ? std::to_string(rule->kept) + ", L::metadata::kChunkCols" : std::string("0, 1"))
           << ">(buf, aShared);\n}\n";
        for (const bool aShared : {false, true}) {
            if (control && aShared)
                continue;
            const std::string launch = "launch" + n + (aShared ? "_ss" : "_rs");
            cu << "void " << launch << "(const lanemap::product::Buffers& b) {\n    kernel" << n
               << "<<<1, 128>>>(b, " << (aShared ? 1 : 0) << ");\n}\n";
            table << "        {\"" << in.spec << "\", " << sel << ", " << (sparse ? rule->kept : 0)
                  << ", &pw_" << ns << "::" << launch << ", " << (control ? "true" : "false") << ", "
                  << (aShared ? "true" : "false") << "},\n";
        }
    }
    cu << "} // namespace pw_" << ns << "\n\n";
    return true;
}

} // namespace

int main(int argc, char** argv) {
    const bool allN = argc == 3 && std::string(argv[2]) == "--all-n";
    if (argc != 2 && !allN) {
        std::cerr << "usage: lanemap-gen-product-kernels OUTDIR [--all-n]\n";
        return 2;
    }
    namespace fs = std::filesystem;
    const fs::path dir = argv[1];
    std::error_code ec;
    fs::create_directories(dir / "headers", ec);
    std::ostringstream cu, table, wgmmaIncludes, wgmma, wgmmaTable;
    cu << "// Generated by lanemap-gen-product-kernels: do not edit.\n#include \"product_kernels.cuh\"\n\n";
    for (const lanemap::Variant* v : lanemap::Catalog::instance().variants()) {
        const lanemap::Instruction& in = lanemap::Catalog::instance().instruction(*v);
        if (lanemap::product::inScope(*v) && !emit(dir, in, false, cu, table))
            return 1;
        if (lanemap::product::inWgmmaScope(*v, allN) &&
            !emitWgmma(dir, in, false, wgmmaIncludes, wgmma, wgmmaTable))
            return 1;
    }
    // The negative controls: a wrong layout's header must fail the check.
    if (!emit(dir, lanemap::test::nonAffineInstruction(), true, cu, table) ||
        !emitWgmma(dir, lanemap::test::wgmmaControlInstruction(), true, wgmmaIncludes, wgmma, wgmmaTable))
        return 1;
    cu << "const std::vector<lanemap::product::Case>& lanemap::product::mmaCases() {\n"
       << "    static const std::vector<Case> list{\n"
       << table.str() << "    };\n    return list;\n}\n";
    wgmma << "const std::vector<lanemap::product::Case>& lanemap::product::wgmmaCases() {\n"
          << "    static const std::vector<Case> list{\n"
          << wgmmaTable.str() << "    };\n    return list;\n}\n";
    // The headers first: the helpers (product_kernels_wgmma.cuh) call their lanemap_gen::warpgroup functions.
    const std::string wgmmaUnit = "// Generated by lanemap-gen-product-kernels: do not edit.\n" +
                                  wgmmaIncludes.str() + "#include \"product_kernels_wgmma.cuh\"\n\n" +
                                  wgmma.str();
    for (const auto& [name, text] :
         {std::pair<const char*, std::string>{"products_mma.cu", cu.str()}, {"products_wgmma.cu", wgmmaUnit}})
        if (const std::string failure = lanemap::writeFile((dir / name).string(), text); !failure.empty()) {
            std::cerr << failure << '\n';
            return 1;
        }
    return 0;
}
