// Prints the thread-value layouts of CUTLASS's MMA atoms (MMA_Traits<Atom>::ALayout, BLayout, CLayout) as
// cute::print writes them, one per line with the atom and operand they belong to, and the ThrID of the atoms
// whose threads are not lanes (Volta): the input of `lanemap-cli conform` (docs/layouts-in.md#cutlass). Host
// code only: nothing here runs on a GPU.
//
// Build (CUTLASS's include folder and CUDA's; see build.sh):
//   nvcc -std=c++17 -I$CUTLASS/include -I/usr/local/cuda/include dump_cutlass_layouts.cu -o
//   dump_cutlass_layouts
//   ./dump_cutlass_layouts > cutlass-layouts.txt
//
// An atom is named as lanemap's --format cute names it (template arguments dropped): GMMA atoms are
// instantiated K-major for A and B, which leaves ALayout and CLayout unchanged; their B (and SS A) live in
// shared memory and are not printed.

#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm75.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm89.hpp>
#include <cute/atom/mma_traits_sm90.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/mma_traits_sm90_gmma_sparse.hpp>
#include <cutlass/version.h>

#include <cstdio>

using namespace cute;

template <class Atom> void registers(const char* name, bool withB) {
    using Traits = MMA_Traits<Atom>;
    std::printf("%s:A ", name);
    print(typename Traits::ALayout{});
    std::printf("\n");
    if (withB) {
        std::printf("%s:B ", name);
        print(typename Traits::BLayout{});
        std::printf("\n");
    }
    std::printf("%s:C ", name);
    print(typename Traits::CLayout{});
    std::printf("\n");
}

// A warp-level atom: A, B and C in registers.
#define WARP(atom) registers<atom>(#atom, true)
// A Volta atom: its ThrID first (CuTe's 8 threads are the lanes of one quad-pair), then A, B and C.
#define QUADPAIR(atom)                                                                                       \
    do {                                                                                                     \
        std::printf("%s:ThrID ", #atom);                                                                     \
        print(typename MMA_Traits<atom>::ThrID{});                                                           \
        std::printf("\n");                                                                                   \
        registers<atom>(#atom, true);                                                                        \
    } while (0)
// A warpgroup atom with A in registers (RS): A and C; majors where the atom takes them.
#define GMMA(atom) registers<SM90::GMMA::atom>("SM90::GMMA::" #atom, false)
#define GMMA_KK(atom) registers<SM90::GMMA::atom<GMMA::Major::K, GMMA::Major::K>>("SM90::GMMA::" #atom, false)
#define GMMA_T(atom) registers<SM90::GMMA::atom<>>("SM90::GMMA::" #atom, false)
#define SPARSE_KK(atom)                                                                                      \
    registers<SM90::GMMA::SPARSE::atom<GMMA::Major::K, GMMA::Major::K>>("SM90::GMMA::SPARSE::" #atom, false)

int main() {
    std::printf(
        "# CUTLASS %d.%d.%d MMA_Traits layouts, printed by tools/cutlass_layouts/dump_cutlass_layouts.cu\n",
        CUTLASS_MAJOR, CUTLASS_MINOR, CUTLASS_PATCH);
    // Volta: quad-pair atoms (ThrID maps CuTe's 8 threads onto lanes).
    QUADPAIR(SM70_8x8x4_F32F16F16F32_TN);
    QUADPAIR(SM70_8x8x4_F16F16F16F16_TN);
    // Turing
    WARP(SM75_16x8x8_F32F16F16F32_TN);
    WARP(SM75_8x8x16_S32S8S8S32_TN);
    // Ampere
    WARP(SM80_16x8x8_F32F16F16F32_TN);
    WARP(SM80_16x8x16_F32F16F16F32_TN);
    WARP(SM80_16x8x16_F16F16F16F16_TN);
    WARP(SM80_16x8x8_F32BF16BF16F32_TN);
    WARP(SM80_16x8x16_F32BF16BF16F32_TN);
    WARP(SM80_16x8x4_F32TF32TF32F32_TN);
    WARP(SM80_16x8x8_F32TF32TF32F32_TN);
    WARP(SM80_8x8x4_F64F64F64F64_TN);
    WARP(SM80_8x8x16_S32S8S8S32_TN);
    WARP(SM80_16x8x16_S32S8S8S32_TN);
    WARP(SM80_16x8x32_S32S8S8S32_TN);
    WARP(SM80_8x8x32_S32S4S4S32_TN);
    WARP(SM80_16x8x32_S32S4S4S32_TN);
    WARP(SM80_16x8x64_S32S4S4S32_TN);
    WARP(SM80_8x8x128_S32U1U1S32_TN_XORPOPC);
    WARP(SM80_16x8x128_S32U1U1S32_TN_XORPOPC);
    WARP(SM80_16x8x256_S32U1U1S32_TN_XORPOPC);
    // Ada fp8
    WARP(SM89_16x8x32_F32E4M3E4M3F32_TN);
    WARP(SM89_16x8x32_F32E5M2E4M3F32_TN);
    // Hopper f64
    WARP(SM90_16x8x4_F64F64F64F64_TN);
    WARP(SM90_16x8x8_F64F64F64F64_TN);
    WARP(SM90_16x8x16_F64F64F64F64_TN);
    // Hopper wgmma, A in registers
    GMMA_KK(MMA_64x8x16_F32F16F16_RS);
    GMMA_KK(MMA_64x16x16_F32F16F16_RS);
    GMMA_KK(MMA_64x64x16_F32F16F16_RS);
    GMMA_KK(MMA_64x256x16_F32F16F16_RS);
    GMMA_KK(MMA_64x128x16_F16F16F16_RS);
    GMMA_KK(MMA_64x64x16_F32BF16BF16_RS);
    GMMA_T(MMA_64x64x8_F32TF32TF32_RS_TN);
    GMMA(MMA_64x64x32_S32S8S8_RS_TN);
    GMMA_T(MMA_64x64x32_F32E4M3E4M3_RS_TN);
    GMMA_T(MMA_64x256x32_F16E5M2E5M2_RS_TN);
    // Hopper sparse wgmma, A in registers
    SPARSE_KK(GMMA_64x64x32_F32F16F16_RS);
    return 0;
}
