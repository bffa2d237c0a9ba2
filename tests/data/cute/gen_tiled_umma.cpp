// Writes tiled_umma.json: what CuTe's make_tiled_mma says each CTA of a tile of tcgen05.mma atoms holds, for
// the cases tests/core/test_tile_tcgen05.cpp compares lanemap's tiles with. Host only: it evaluates layouts
// (CuTe's SM100 MMA traits, whose "threads" are CTAs: ThrID = Layout<_1> for the 1SM atoms, Layout<_2> for
// the 2x1SM ones) and runs no MMA.
//
// Build and run (CUTLASS's include/ folder and the CUDA toolkit's headers; CuTe needs no GPU for this):
//   g++ -std=c++17 -O1 -I$CUTLASS/include -I/usr/local/cuda/include -I/usr/local/cuda/include/cccl \
//       tests/data/cute/gen_tiled_umma.cpp -o gen_tiled_umma && ./gen_tiled_umma >
//       tests/data/cute/tiled_umma.json
//
// For a sparse atom, "E" lists where CuTe's tmem_e_frg puts each metadata group of one CTA's rows.
//
// For every operand the document lists, per thread (CTA) index of the tiled MMA (0 .. size(thr)-1) and value
// index (0 .. size(val)-1), get_layout{A,B,C}_TV()(thread, value): the column-major index of the element in
// the tile's (M,K), (N,K) or (M,N) — for A, m + M*k.
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/tensor.hpp>

#include <cstdio>

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

// A sparse atom's metadata in one CTA's Tensor Memory, as CuTe's UMMA::tmem_e_frg<half_t> places the CTA's
// 128 rows x K (the atom's K times the K steps): per row, per group of 4 K elements, [lane, column, low bit].
// The tensor's addresses count single bits (a 32-bit column holds 32 of sparse_elem<8, uint8_t>'s elements):
// address = ((lane << 16) | column) << 5 | bit.
template <int KSteps> void printMetadata() {
    auto e = UMMA::tmem_e_frg<half_t>::make(make_shape(make_shape(_128{}, _32{}), _1{}, Int<KSteps>{}));
    auto layout = e.layout();
    std::printf("   \"E\": [");
    for (int m = 0; m < 128; ++m) {
        std::printf("%s[", m ? ",\n    " : "\n    ");
        for (int g = 0; g < 8 * KSteps; ++g) {
            const int k = 4 * g;
            const unsigned a = unsigned(layout(make_coord(make_coord(m, k % 32), 0, k / 32)));
            std::printf("%s[%u,%u,%u]", g ? "," : "", a >> 21, (a >> 5) & 0xffff, a & 31);
        }
        std::printf("]");
    }
    std::printf("\n   ],\n");
}

template <class Tiled>
void emit(const char* spec, const char* atomLayout, const char* permutation, const Tiled& tiled,
          void (*metadata)() = nullptr) {
    std::printf("%s  {\n", firstCase ? "" : ",\n");
    firstCase = false;
    std::printf("   \"spec\": \"%s\",\n   \"atom_layout\": \"%s\",\n   \"permutation\": \"%s\",\n", spec,
                atomLayout, permutation);
    std::printf("   \"tile\": [%d, %d, %d],\n", int(tile_size<0>(tiled)), int(tile_size<1>(tiled)),
                int(tile_size<2>(tiled)));
    std::printf("   \"threads\": %d,\n", int(size(tiled)));
    if (metadata)
        metadata();
    printOperand("A", tiled.get_layoutA_TV(), false);
    printOperand("B", tiled.get_layoutB_TV(), false);
    printOperand("C", tiled.get_layoutC_TV(), true);
    std::printf("  }");
}

} // namespace

int main() {
    std::printf("{\n \"generator\": \"tests/data/cute/gen_tiled_umma.cpp\",\n \"cases\": [\n");
    using K = UMMA::Major;
    using Sm1 = SM100_MMA_F16BF16_SS<half_t, half_t, float, 64, 8, K::K, K::K>;
    using Sm2 = SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 128, 32, K::K, K::K>;
    using Sm2m256 = SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 16, K::K, K::K>;
    const char* one = "tcgen05.mma.cta_group::1.kind::f16.m64n8";
    const char* two = "tcgen05.mma.cta_group::2.kind::f16.m128n32";
    const char* two256 = "tcgen05.mma.cta_group::2.kind::f16.m256n16";
    emit(one, "(2,1,1)", "", make_tiled_mma(Sm1{}, Layout<Shape<_2, _1, _1>>{}));
    emit(one, "(2,2,1):(2,1,0)", "(_32,_2,_2):(_1,_64,_32),_,_32",
         make_tiled_mma(Sm1{}, Layout<Shape<_2, _2, _1>, Stride<_2, _1, _0>>{},
                        Tile<Layout<Shape<_32, _2, _2>, Stride<_1, _64, _32>>, Underscore, _32>{}));
    emit(one, "(1,1,2)", "", make_tiled_mma(Sm1{}, Layout<Shape<_1, _1, _2>>{}));
    emit(two, "(1,1,1)", "", make_tiled_mma(Sm2{}, Layout<Shape<_1, _1, _1>>{}));
    emit(two, "(2,1,1)", "_,(_8,_2,_2):(_1,_16,_8),_",
         make_tiled_mma(Sm2{}, Layout<Shape<_2, _1, _1>>{},
                        Tile<Underscore, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>, Underscore>{}));
    emit(two256, "(1,2,1)", "_,_,_32",
         make_tiled_mma(Sm2m256{}, Layout<Shape<_1, _2, _1>>{}, Tile<Underscore, Underscore, _32>{}));
    // Sparse atoms: A's layout counts the logical K (CuTe's ValTypeA is sparse_elem<2, half_t>), so CuTe
    // names the CTA of every logical element of A; its metadata fragment is checked in one CTA.
    using Sp1 = SM100_MMA_F16BF16_SS_SPARSE<half_t, half_t, float, 128, 64, K::K, K::K>;
    using Sp2 = SM100_MMA_F16BF16_2x1SM_SS_SPARSE<half_t, half_t, float, 256, 32, K::K, K::K>;
    emit("tcgen05.mma.sp.cta_group::1.kind::f16.m128n64", "(2,2,1)", "",
         make_tiled_mma(Sp1{}, Layout<Shape<_2, _2, _1>>{}), printMetadata<1>);
    emit("tcgen05.mma.sp.cta_group::2.kind::f16.m256n32", "(1,2,1)", "_,_,_64",
         make_tiled_mma(Sp2{}, Layout<Shape<_1, _2, _1>>{}, Tile<Underscore, Underscore, _64>{}),
         printMetadata<2>);
    std::printf("\n ]\n}\n");
    return 0;
}
