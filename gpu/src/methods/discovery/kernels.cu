// wmma discovery kernels: load an index-tagged matrix through wmma::load_matrix_sync and dump every fragment
// word of every lane; fill a fragment from words and wmma::store_matrix_sync it; fill A, B, C from words, run
// wmma::mma_sync (bmma_sync for .b1) and dump D. One template per action, one table row per fragment form.

#include "kernels.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

namespace lanemap::gpu::wmmak {

namespace {
namespace w = nvcuda::wmma;
namespace wx = nvcuda::wmma::experimental;
using ET = ElementType;

template <class Frag> __host__ __device__ constexpr int wordsOf() {
    return static_cast<int>(sizeof(Frag::x) / 4);
}

template <class Frag> __device__ void dump(const Frag& f, std::uint32_t* out) {
    constexpr int W = wordsOf<Frag>();
    std::uint32_t raw[W];
    memcpy(raw, &f.x[0], sizeof raw);
    for (int i = 0; i < W; ++i)
        out[threadIdx.x * W + i] = raw[i];
}

template <class Frag> __device__ void fill(Frag& f, const std::uint32_t* in) {
    constexpr int W = wordsOf<Frag>();
    std::uint32_t raw[W];
    for (int i = 0; i < W; ++i)
        raw[i] = in[threadIdx.x * W + i];
    memcpy(&f.x[0], raw, sizeof raw);
}

template <class Frag, class Mem> __global__ void loadAB(const void* m, unsigned ldm, std::uint32_t* out) {
    Frag f;
    w::load_matrix_sync(f, static_cast<const Mem*>(m), ldm);
    dump(f, out);
}

template <class Frag, class Mem>
__global__ void loadC(const void* m, unsigned ldm, w::layout_t l, std::uint32_t* out) {
    Frag f;
    w::load_matrix_sync(f, static_cast<const Mem*>(m), ldm, l);
    dump(f, out);
}

template <class Frag, class Mem>
__global__ void storeD(const std::uint32_t* in, void* m, unsigned ldm, w::layout_t l) {
    Frag f;
    fill(f, in);
    w::store_matrix_sync(static_cast<Mem*>(m), f, ldm, l);
}

template <class FA, class FB, class FC, bool Bits>
__global__ void mmaKernel(const std::uint32_t* a, const std::uint32_t* b, const std::uint32_t* c,
                          std::uint32_t* d) {
    FA fa;
    FB fb;
    FC fc, fd;
    fill(fa, a);
    fill(fb, b);
    fill(fc, c);
    if constexpr (Bits)
        w::bmma_sync(fd, fa, fb, fc, wx::bmmaBitOpAND, wx::bmmaAccumulateOpPOPC);
    else
        w::mma_sync(fd, fa, fb, fc);
    dump(fd, d);
}

struct LoadRow {
    Operand op;
    int m, n, k;
    ET type;
    Major layout;
    void (*launch)(const void*, unsigned, Major, std::uint32_t*);
    int words;
};

template <class Use, int M, int N, int K, class T, class L, class Mem>
void launchAB(const void* m, unsigned ldm, Major, std::uint32_t* out) {
    loadAB<w::fragment<Use, M, N, K, T, L>, Mem><<<1, 32>>>(m, ldm, out);
}
template <int M, int N, int K, class T, class Mem>
void launchC(const void* m, unsigned ldm, Major l, std::uint32_t* out) {
    loadC<w::fragment<w::accumulator, M, N, K, T>, Mem>
        <<<1, 32>>>(m, ldm, l == Major::Row ? w::mem_row_major : w::mem_col_major, out);
}
template <int M, int N, int K, class T, class Mem>
void launchStore(const std::uint32_t* in, void* m, unsigned ldm, Major l) {
    storeD<w::fragment<w::accumulator, M, N, K, T>, Mem>
        <<<1, 32>>>(in, m, ldm, l == Major::Row ? w::mem_row_major : w::mem_col_major);
}

#define LANEMAP_AB1(OP, USE, M, N, K, T, ET_, MEM, L, LE)                                                    \
    {OP,                                                                                                     \
     M,                                                                                                      \
     N,                                                                                                      \
     K,                                                                                                      \
     ET_,                                                                                                    \
     LE,                                                                                                     \
     &launchAB<w::USE, M, N, K, T, w::L, MEM>,                                                               \
     wordsOf<w::fragment<w::USE, M, N, K, T, w::L>>()},
#define LANEMAP_AB(M, N, K, T, ET_, MEM)                                                                     \
    LANEMAP_AB1(Operand::A, matrix_a, M, N, K, T, ET_, MEM, row_major, Major::Row)                           \
    LANEMAP_AB1(Operand::A, matrix_a, M, N, K, T, ET_, MEM, col_major, Major::Col)                           \
    LANEMAP_AB1(Operand::B, matrix_b, M, N, K, T, ET_, MEM, row_major, Major::Row)                           \
    LANEMAP_AB1(Operand::B, matrix_b, M, N, K, T, ET_, MEM, col_major, Major::Col)
#define LANEMAP_AB3(T, ET_, MEM)                                                                             \
    LANEMAP_AB(16, 16, 16, T, ET_, MEM) LANEMAP_AB(32, 8, 16, T, ET_, MEM) LANEMAP_AB(8, 32, 16, T, ET_, MEM)
#define LANEMAP_C1(M, N, K, T, ET_, MEM, LE)                                                                 \
    {Operand::C,                                                                                             \
     M,                                                                                                      \
     N,                                                                                                      \
     K,                                                                                                      \
     ET_,                                                                                                    \
     LE,                                                                                                     \
     &launchC<M, N, K, T, MEM>,                                                                              \
     wordsOf<w::fragment<w::accumulator, M, N, K, T>>()},
#define LANEMAP_C(M, N, K, T, ET_, MEM)                                                                      \
    LANEMAP_C1(M, N, K, T, ET_, MEM, Major::Row) LANEMAP_C1(M, N, K, T, ET_, MEM, Major::Col)
#define LANEMAP_C3(T, ET_, MEM)                                                                              \
    LANEMAP_C(16, 16, 16, T, ET_, MEM) LANEMAP_C(32, 8, 16, T, ET_, MEM) LANEMAP_C(8, 32, 16, T, ET_, MEM)

const LoadRow kLoads[] = {
    LANEMAP_AB3(half, ET::F16, half) LANEMAP_AB3(__nv_bfloat16, ET::BF16, __nv_bfloat16) LANEMAP_AB3(
        signed char, ET::S8, signed char) LANEMAP_AB3(unsigned char, ET::U8, unsigned char)
        LANEMAP_AB(16, 16, 8, w::precision::tf32, ET::TF32, float) LANEMAP_AB(
            8, 8, 4, double, ET::F64, double) LANEMAP_AB1(Operand::A, matrix_a, 8, 8, 32, wx::precision::s4,
                                                          ET::S4, void, row_major, Major::Row)
            LANEMAP_AB1(Operand::B, matrix_b, 8, 8, 32, wx::precision::s4, ET::S4, void, col_major,
                        Major::Col) LANEMAP_AB1(Operand::A, matrix_a, 8,
                                                8, 32, wx::precision::u4, ET::U4, void, row_major, Major::Row)
                LANEMAP_AB1(Operand::B, matrix_b, 8, 8, 32, wx::precision::u4, ET::U4, void, col_major,
                            Major::Col) LANEMAP_AB1(Operand::A, matrix_a, 8, 8, 128, wx::precision::b1,
                                                    ET::B1, void, row_major, Major::Row)
                    LANEMAP_AB1(Operand::B, matrix_b, 8, 8, 128, wx::precision::b1, ET::B1, void, col_major,
                                Major::Col) LANEMAP_C3(float, ET::F32, float) LANEMAP_C3(half, ET::F16, half)
                        LANEMAP_C3(int, ET::S32, int) LANEMAP_C(16, 16, 8, float, ET::F32, float)
                            LANEMAP_C(8, 8, 4, double, ET::F64, double) LANEMAP_C(8, 8, 32, int, ET::S32, int)
                                LANEMAP_C(8, 8, 128, int, ET::S32, int)};

struct StoreRow {
    int m, n, k;
    ET type;
    void (*launch)(const std::uint32_t*, void*, unsigned, Major);
    int words;
};
#define LANEMAP_S(M, N, K, T, ET_)                                                                           \
    {M, N, K, ET_, &launchStore<M, N, K, T, T>, wordsOf<w::fragment<w::accumulator, M, N, K, T>>()},
#define LANEMAP_S3(T, ET_)                                                                                   \
    LANEMAP_S(16, 16, 16, T, ET_) LANEMAP_S(32, 8, 16, T, ET_) LANEMAP_S(8, 32, 16, T, ET_)
const StoreRow kStores[] = {LANEMAP_S3(float, ET::F32) LANEMAP_S3(half, ET::F16) LANEMAP_S3(int, ET::S32)
                                LANEMAP_S(16, 16, 8, float, ET::F32) LANEMAP_S(8, 8, 4, double, ET::F64)
                                    LANEMAP_S(8, 8, 32, int, ET::S32) LANEMAP_S(8, 8, 128, int, ET::S32)};

struct MmaRow {
    int m, n, k;
    ET a, c;
    Major al, bl;
    void (*launch)(const std::uint32_t*, const std::uint32_t*, const std::uint32_t*, std::uint32_t*);
    int words;
};
template <int M, int N, int K, class TA, class LA, class LB, class TC, bool Bits>
void launchMma(const std::uint32_t* a, const std::uint32_t* b, const std::uint32_t* c, std::uint32_t* d) {
    mmaKernel<w::fragment<w::matrix_a, M, N, K, TA, LA>, w::fragment<w::matrix_b, M, N, K, TA, LB>,
              w::fragment<w::accumulator, M, N, K, TC>, Bits><<<1, 32>>>(a, b, c, d);
}
#define LANEMAP_M1(M, N, K, TA, ETA, TC, ETC, LA, LAE, LB, LBE, BITS)                                        \
    {M,                                                                                                      \
     N,                                                                                                      \
     K,                                                                                                      \
     ETA,                                                                                                    \
     ETC,                                                                                                    \
     LAE,                                                                                                    \
     LBE,                                                                                                    \
     &launchMma<M, N, K, TA, w::LA, w::LB, TC, BITS>,                                                        \
     wordsOf<w::fragment<w::accumulator, M, N, K, TC>>()},
#define LANEMAP_M(M, N, K, TA, ETA, TC, ETC)                                                                 \
    LANEMAP_M1(M, N, K, TA, ETA, TC, ETC, row_major, Major::Row, row_major, Major::Row, false)               \
    LANEMAP_M1(M, N, K, TA, ETA, TC, ETC, row_major, Major::Row, col_major, Major::Col, false)               \
    LANEMAP_M1(M, N, K, TA, ETA, TC, ETC, col_major, Major::Col, row_major, Major::Row, false)               \
    LANEMAP_M1(M, N, K, TA, ETA, TC, ETC, col_major, Major::Col, col_major, Major::Col, false)
#define LANEMAP_M3(TA, ETA, TC, ETC)                                                                         \
    LANEMAP_M(16, 16, 16, TA, ETA, TC, ETC)                                                                  \
    LANEMAP_M(32, 8, 16, TA, ETA, TC, ETC) LANEMAP_M(8, 32, 16, TA, ETA, TC, ETC)
const MmaRow kMmas[] = {
    LANEMAP_M3(half, ET::F16, float, ET::F32) LANEMAP_M3(half, ET::F16, half, ET::F16)
        LANEMAP_M3(__nv_bfloat16, ET::BF16, float, ET::F32) LANEMAP_M3(signed char, ET::S8, int, ET::S32)
            LANEMAP_M3(unsigned char, ET::U8, int, ET::S32)
                LANEMAP_M(16, 16, 8, w::precision::tf32, ET::TF32, float, ET::F32)
                    LANEMAP_M(8, 8, 4, double, ET::F64, double, ET::F64)
                        LANEMAP_M1(8, 8, 32, wx::precision::s4, ET::S4, int, ET::S32, row_major, Major::Row,
                                   col_major, Major::Col, false)
                            LANEMAP_M1(8, 8, 32, wx::precision::u4, ET::U4, int, ET::S32, row_major,
                                       Major::Row, col_major, Major::Col, false)
                                LANEMAP_M1(8, 8, 128, wx::precision::b1, ET::B1, int, ET::S32, row_major,
                                           Major::Row, col_major, Major::Col, true)};
} // namespace

int binaryVersion() {
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(
            &attr, loadAB<w::fragment<w::matrix_a, 16, 16, 16, half, w::row_major>, half>) != cudaSuccess)
        return -1;
    return attr.binaryVersion;
}

Launch load(const wmma::FragmentForm& f, const void* matrix, unsigned ldm, std::uint32_t* out, int* words) {
    for (const LoadRow& r : kLoads)
        if (r.op == f.operand && r.m == f.m && r.n == f.n && r.k == f.k && r.type == f.type &&
            r.layout == f.layout) {
            *words = r.words;
            r.launch(matrix, ldm, f.layout, out);
            return Launch::Launched;
        }
    return Launch::NoKernel;
}

Launch store(const wmma::FragmentForm& f, const std::uint32_t* in, void* matrix, unsigned ldm, int* words) {
    for (const StoreRow& r : kStores)
        if (r.m == f.m && r.n == f.n && r.k == f.k && r.type == f.type) {
            *words = r.words;
            r.launch(in, matrix, ldm, f.layout);
            return Launch::Launched;
        }
    return Launch::NoKernel;
}

Launch mma(const Variant& v, const std::uint32_t* a, const std::uint32_t* b, const std::uint32_t* c,
           std::uint32_t* d, int* words) {
    for (const MmaRow& r : kMmas)
        if (r.m == v.m && r.n == v.n && r.k == v.k && r.a == v.atype && r.c == v.ctype && r.al == v.alayout &&
            r.bl == v.blayout) {
            *words = r.words;
            r.launch(a, b, c, d);
            return Launch::Launched;
        }
    return Launch::NoKernel;
}

} // namespace lanemap::gpu::wmmak
