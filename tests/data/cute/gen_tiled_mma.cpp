// Writes tiled_mma.json: what CuTe's make_tiled_mma says each thread of a tile holds, for the cases
// tests/core/test_tile.cpp compares lanemap's tiles with. Host only: it evaluates layouts and runs no MMA.
//
// Build and run (CUTLASS's include/ folder and the CUDA toolkit's headers; CuTe needs no GPU for this):
//   g++ -std=c++17 -O1 -I$CUTLASS/include -I/usr/local/cuda/include -I/usr/local/cuda/include/cccl \
//       tests/data/cute/gen_tiled_mma.cpp -o gen_tiled_mma && ./gen_tiled_mma >
//       tests/data/cute/tiled_mma.json
//
// For every operand the document lists, per thread index of the tiled MMA (0 .. size(thr)-1) and value index
// (0 .. size(val)-1), get_layout{A,B,C}_TV()(thread, value): the column-major index of the element in the
// tile's (M,K), (N,K) or (M,N) — for A, m + M*k.
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/tensor.hpp>

#include <cstdio>
#include <string>

using namespace cute;

namespace {

bool firstCase = true;

template <class TV> void printOperand(const char* name, const TV& tv, bool last) {
    std::printf("   \"%s\": [", name);
    const int threads = int(size<0>(tv));
    const int values = int(size<1>(tv));
    for (int t = 0; t < threads; ++t) {
        std::printf("%s[", t ? ",\n    " : "\n    ");
        for (int v = 0; v < values; ++v)
            std::printf("%s%d", v ? "," : "", int(tv(t, v)));
        std::printf("]");
    }
    std::printf("\n   ]%s\n", last ? "" : ",");
}

// One case: the lanemap spec of the atom, the atom layout and permutation as lanemap-cli takes them (CuTe's
// notation), and CuTe's own answer.
template <class Tiled>
void emit(const char* spec, const char* atomLayout, const char* permutation, const Tiled& tiled, bool hasB) {
    std::printf("%s  {\n", firstCase ? "" : ",\n");
    firstCase = false;
    std::printf("   \"spec\": \"%s\",\n   \"atom_layout\": \"%s\",\n   \"permutation\": \"%s\",\n", spec,
                atomLayout, permutation);
    std::printf("   \"tile\": [%d, %d, %d],\n", int(tile_size<0>(tiled)), int(tile_size<1>(tiled)),
                int(tile_size<2>(tiled)));
    std::printf("   \"threads\": %d,\n", int(size(tiled)));
    printOperand("A", tiled.get_layoutA_TV(), false);
    if (hasB)
        printOperand("B", tiled.get_layoutB_TV(), false);
    printOperand("C", tiled.get_layoutC_TV(), true);
    std::printf("  }");
}

} // namespace

int main() {
    std::printf("{\n \"generator\": \"tests/data/cute/gen_tiled_mma.cpp\",\n \"cases\": [\n");
    using Sm80F16 = SM80_16x8x16_F16F16F16F16_TN;
    const char* f16 = "mma.m16n8k16.f16.f16";
    emit(f16, "(2,2,1)", "", make_tiled_mma(Sm80F16{}, Layout<Shape<_2, _2, _1>>{}), true);
    emit(f16, "(2,2,1)", "_32,(_8,_2,_2):(_1,_16,_8),_16",
         make_tiled_mma(Sm80F16{}, Layout<Shape<_2, _2, _1>>{},
                        Tile<_32, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>, _16>{}),
         true);
    emit(f16, "(4,1,1)", "", make_tiled_mma(Sm80F16{}, Layout<Shape<_4, _1, _1>>{}), true);
    emit(f16, "(4,1,1)", "_64,_16,_32",
         make_tiled_mma(Sm80F16{}, Layout<Shape<_4, _1, _1>>{}, Tile<_64, _16, _32>{}), true);
    emit(f16, "(2,2,1):(2,1,0)", "",
         make_tiled_mma(Sm80F16{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _0>>{}), true);
    emit(f16, "(1,2,2)", "", make_tiled_mma(Sm80F16{}, Layout<Shape<_1, _2, _2>>{}), true);
    emit(f16, "(2,1,1)", "(_2,_16):(_16,_1),_",
         make_tiled_mma(Sm80F16{}, Layout<Shape<_2, _1, _1>>{},
                        Tile<Layout<Shape<_2, _16>, Stride<_16, _1>>>{}),
         true);
    emit("mma.m16n8k8.tf32", "(2,2,1)", "_32,_32,_16",
         make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{}),
         true);
    emit("mma.m16n8k32.s8", "(2,2,1)", "",
         make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_2, _2, _1>>{}), true);
    // wgmma with A in registers (the RS form): A and D; B is read from shared memory by the warpgroup.
    emit("wgmma.m64n16k16.f16.f16", "(2,1,1)", "",
         make_tiled_mma(SM90::GMMA::MMA_64x16x16_F16F16F16_RS<GMMA::Major::K, GMMA::Major::K>{},
                        Layout<Shape<_2, _1, _1>>{}),
         false);
    std::printf("\n ]\n}\n");
    return 0;
}
