// Writes the CUDA header of every catalog variant (lanemap::toCudaHeader) into OUTDIR, plus
//  - all_headers.hpp: includes them all,
//  - registry.cpp: a table of every operand's functions (wgmma: also A's and B's shared-memory functions and
//    the descriptor encoder), for the host test against the engine and core's shared-memory model,
//  - all_headers.cu: a kernel that calls every operand's functions, for the nvcc compile check.
#include "lanemap/catalog.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/write.hpp"
#include "non_affine.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>

namespace {

// One row of generatedSharedOperands() per shared-memory operand (A, B) of the header of `in` for `choice`.
void registerShared(std::ostringstream& shared, const lanemap::Instruction& in,
                    const lanemap::smem::Choice& choice) {
    const std::string ns = lanemap::cudaNamespace(in, choice);
    for (const char operand : {'A', 'B'}) {
        const std::string q = "lanemap_gen::" + ns + "::" + operand + "::";
        shared << "        {\"" << in.spec << "\", '" << operand << "', \""
               << lanemap::smem::toString(choice.major) << "\", \"" << lanemap::smem::toString(choice.swizzle)
               << "\", " << q << "kSmemRows, " << q << "kSmemCols, " << q << "kSmemBytes, " << q
               << "kSmemAlignment, &" << q << "smem_offset, &" << q << "smem_bit, &" << q
               << "smem_descriptor},\n";
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: lanemap-gen-cuda-headers OUTDIR\n";
        return 2;
    }
    namespace fs = std::filesystem;
    const fs::path dir = argv[1];
    std::error_code ec;
    fs::create_directories(dir / "headers", ec);
    std::ostringstream all, registry, kernel;
    registry
        << "#include \"all_headers.hpp\"\n#include \"registry.hpp\"\n\nconst std::vector<GeneratedOperand>& "
           "generatedOperands() {\n    static const std::vector<GeneratedOperand> list{\n";
    std::ostringstream meta, shared;
    kernel << "#include \"all_headers.hpp\"\n\n__global__ void touchEveryHeader(int* out) {\n    const int "
              "lane = "
              "threadIdx.x;\n    int acc = 0;\n";
    // Every catalog variant, and one layout that needs the table fallback.
    std::vector<const lanemap::Instruction*> instructions;
    for (const lanemap::Variant* v : lanemap::Catalog::instance().variants())
        instructions.push_back(&lanemap::Catalog::instance().instruction(*v));
    const lanemap::Instruction nonAffine = lanemap::test::nonAffineInstruction();
    instructions.push_back(&nonAffine);
    for (const lanemap::Instruction* instruction : instructions) {
        const lanemap::Instruction& in = *instruction;
        const std::string ns = lanemap::cudaNamespace(in);
        if (const std::string failure =
                lanemap::writeFile((dir / "headers" / (ns + ".cuh")).string(), lanemap::toCudaHeader(in));
            !failure.empty()) {
            std::cerr << failure << '\n';
            return 1;
        }
        all << "#include \"headers/" << ns << ".cuh\"\n";
        for (const lanemap::FragmentLayout& op : in.operands) {
            const std::string q = "lanemap_gen::" + ns + "::" + std::string(op.name()) + "::";
            const bool products = op.matrices() > 1;
            registry << "        {\"" << in.spec << "\", '" << op.name() << "', &" << q << "row, &" << q
                     << "col, " << (op.chunked() ? "&" + q + "col_last" : std::string("nullptr")) << ", "
                     << (products ? "&" + q + "product" : std::string("nullptr")) << ", &" << q << "reg, &"
                     << q << "bit, [](int r, int c, int m) { return " << q << "owner(r, c"
                     << (products ? ", m" : "") << "); }},\n";
            kernel << "    acc += " << q << "row(lane, 0) + " << q << "col(lane, 0) + " << q << "owner(0, 0"
                   << (products ? ", 0" : "") << ").lane;\n";
        }
        if (lanemap::smem::hasSharedMemoryOperands(in))
            registerShared(shared, in, {});
        if (in.metadata)
            for (const lanemap::MetadataSelector& s : in.metadata->selectors) {
                const std::string q =
                    "lanemap_gen::" + ns + "::metadata::selector" + std::to_string(s.value) + "::";
                meta << "        {\"" << in.spec << "\", " << s.value << ", &" << q << "field_lane, &" << q
                     << "field_bit},\n";
            }
    }
    // Every other shared-memory layout of a few variants (16-bit types in both major-nesses, tf32, 8-bit and
    // b1 K-major; dense and sparse; N a power of two or not), each in its own namespace.
    using lanemap::smem::Major;
    using lanemap::smem::Swizzle;
    for (const char* spec : {"wgmma.m64n24k16.f16", "wgmma.m64n256k16.bf16", "wgmma.sp.m64n40k32.f16",
                             "wgmma.m64n64k8.tf32", "wgmma.sp.m64n48k64.e4m3", "wgmma.m64n24k256.b1"}) {
        const lanemap::Instruction& in = *lanemap::Catalog::instance().instruction(spec);
        const bool sixteen = in.atype == lanemap::ElementType::F16 || in.atype == lanemap::ElementType::BF16;
        for (const Major major : {Major::K, Major::MN})
            for (const Swizzle swizzle : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128}) {
                const lanemap::smem::Choice choice{major, swizzle};
                if ((major == Major::MN && !sixteen) || (major == Major::K && swizzle == Swizzle::B128))
                    continue; // no such layout; the default one is above
                const std::string ns = lanemap::cudaNamespace(in, choice);
                if (const std::string failure = lanemap::writeFile((dir / "headers" / (ns + ".cuh")).string(),
                                                                   lanemap::toCudaHeader(in, choice));
                    !failure.empty()) {
                    std::cerr << failure << '\n';
                    return 1;
                }
                all << "#include \"headers/" << ns << ".cuh\"\n";
                registerShared(shared, in, choice);
            }
    }
    registry
        << "    };\n    return list;\n}\n\nconst std::vector<GeneratedMetadata>& generatedMetadata() {\n"
           "    static const std::vector<GeneratedMetadata> list{\n"
        << meta.str()
        << "    };\n    return list;\n}\n\nconst std::vector<GeneratedSharedOperand>& "
           "generatedSharedOperands() {\n    static const std::vector<GeneratedSharedOperand> list{\n"
        << shared.str()
        << "    };\n    return list;\n}\n\nstd::uint64_t generatedMatrixDescriptor("
           "std::uint32_t start, std::uint32_t lbo, std::uint32_t sbo, int swizzle_mode, int base_offset) "
           "{\n    return lanemap_gen::warpgroup::matrix_descriptor(start, lbo, sbo, swizzle_mode, "
           "base_offset);\n}\n";
    kernel << "    out[lane] = acc;\n}\n";
    for (const auto& [name, text] :
         {std::pair<const char*, std::string>{"all_headers.hpp", "#pragma once\n" + all.str()},
          {"registry.cpp", registry.str()},
          {"all_headers.cu", kernel.str()}})
        if (const std::string failure = lanemap::writeFile((dir / name).string(), text); !failure.empty()) {
            std::cerr << failure << '\n';
            return 1;
        }
    return 0;
}
