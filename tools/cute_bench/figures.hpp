// The CuTe atoms lanemap is measured against (tools/cute_bench/README.md), each with the lanemap spec that draws
// the same instruction. Host code only: CuTe's print_svg writes with printf to stdout.
#pragma once

#include <cute/atom/mma_atom.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/tensor.hpp>
#include <cute/util/print_svg.hpp>

#include <cstring>

namespace figures {
using namespace cute;

// mma.sync m16n8k16 f32 += f16 x f16 (lanemap: mma.m16n8k16.f16)
using Sm80 = MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>;
// wgmma m64n8k16 and m64n256k16, f32 += f16 x f16, A and B from shared memory, K-major (wgmma.m64n8k16.f16,
// wgmma.m64n256k16.f16)
using Sm90N8 = MMA_Atom<SM90_64x8x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>;
using Sm90N256 = MMA_Atom<SM90_64x256x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>;
// tcgen05.mma cta_group::2 kind::f16 M=256 N=256 (tcgen05.mma.cta_group::2.kind::f16.m256)
using Sm100Pair = MMA_Atom<SM100_MMA_F16BF16_2x1SM_SS<half_t, half_t, float, 256, 256, UMMA::Major::K, UMMA::Major::K>>;

// Draws figure `name` to stdout; false for a name it does not know.
inline bool draw(const char* name) {
    if (!std::strcmp(name, "m16n8k16"))
        return print_svg(Sm80{}), true;
    if (!std::strcmp(name, "m64n8k16"))
        return print_svg(Sm90N8{}), true;
    if (!std::strcmp(name, "m64n256k16"))
        return print_svg(Sm90N256{}), true;
    if (!std::strcmp(name, "tcgen05-m256"))
        return print_svg(Sm100Pair{}), true;
    return false;
}
} // namespace figures
