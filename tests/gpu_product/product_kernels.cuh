#pragma once
// Device helpers of the generated product kernels. Each operand of a generated header is wrapped in a struct
// (LANEMAP_PRODUCT_OPERAND) so that one template loads or stores every operand of every variant, always
// through the header's own row/col/reg/bit (and product, for quad-pair forms) functions.

#include "product_case.hpp"

#include <cstdint>

namespace lanemap::product {

template <class T> __device__ inline T fromBits(std::uint64_t r);
template <> __device__ inline std::uint32_t fromBits<std::uint32_t>(std::uint64_t r) {
    return static_cast<std::uint32_t>(r);
}
template <> __device__ inline float fromBits<float>(std::uint64_t r) {
    return __uint_as_float(static_cast<unsigned>(r));
}
template <> __device__ inline double fromBits<double>(std::uint64_t r) {
    return __longlong_as_double(static_cast<long long>(r));
}
__device__ inline std::uint64_t toBits(std::uint32_t x) {
    return x;
}
__device__ inline std::uint64_t toBits(float x) {
    return __float_as_uint(x);
}
__device__ inline std::uint64_t toBits(double x) {
    return static_cast<std::uint64_t>(__double_as_longlong(x));
}

template <class Op> __device__ constexpr std::uint64_t mask() {
    return Op::kElementBits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << Op::kElementBits) - 1;
}

// Element i of `lane` read from the operand's matrix in global memory at the header's (product, row, col).
template <class Op>
__device__ void load(typename Op::T (&regs)[Op::kRegisters], const std::uint64_t* g, int lane) {
    std::uint64_t raw[Op::kRegisters] = {};
    for (int i = 0; i < Op::kElements; ++i) {
        const int cell = (Op::product(lane, i) * Op::kRows + Op::row(lane, i)) * Op::kCols + Op::col(lane, i);
        raw[Op::reg(lane, i)] |= (g[cell] & mask<Op>()) << Op::bit(lane, i);
    }
    for (int k = 0; k < Op::kRegisters; ++k)
        regs[k] = fromBits<typename Op::T>(raw[k]);
}

// Sparse A: element i covers the chunk [col, col_last]; the elements of a lane that share a row and a column
// range fill its chunks in index order, `Kept` per chunk (PTX "elements (low to high)"), and the slot picks
// which kept column of the chunk the element carries.
template <class Op, int Kept, int ChunkCols>
__device__ void loadSparse(typename Op::T (&regs)[Op::kRegisters], const std::uint64_t* g,
                           const int* keptCols, int lane) {
    std::uint64_t raw[Op::kRegisters] = {};
    constexpr int chunks = Op::kCols / ChunkCols;
    for (int i = 0; i < Op::kElements; ++i) {
        const int r = Op::row(lane, i), c = Op::col(lane, i);
        int k = 0;
        for (int j = 0; j < i; ++j)
            k += (Op::row(lane, j) == r && Op::col(lane, j) == c) ? 1 : 0;
        const int chunk = (c + (k / Kept) * ChunkCols) / ChunkCols;
        const int column = keptCols[(r * chunks + chunk) * Kept + k % Kept];
        raw[Op::reg(lane, i)] |= (g[r * Op::kCols + column] & mask<Op>()) << Op::bit(lane, i);
    }
    for (int k = 0; k < Op::kRegisters; ++k)
        regs[k] = fromBits<typename Op::T>(raw[k]);
}

// The metadata register e of `lane`: every field the header places in this lane, at its bit.
template <class Md, int Rows, int Chunks>
__device__ std::uint32_t metadata(const std::uint32_t* fields, int lane) {
    std::uint32_t e = 0;
    for (int r = 0; r < Rows; ++r)
        for (int k = 0; k < Chunks; ++k)
            if (Md::field_lane(r, k) == lane)
                e |= fields[r * Chunks + k] << Md::field_bit(r, k);
    return e;
}

template <class Op>
__device__ void store(const typename Op::T (&regs)[Op::kRegisters], std::uint64_t* g, int lane) {
    for (int i = 0; i < Op::kElements; ++i) {
        const int cell = (Op::product(lane, i) * Op::kRows + Op::row(lane, i)) * Op::kCols + Op::col(lane, i);
        g[cell] = (toBits(regs[Op::reg(lane, i)]) >> Op::bit(lane, i)) & mask<Op>();
    }
}

} // namespace lanemap::product

// Adapts the namespace NS (one operand of a generated header) to a struct; PRODUCT is the header's product()
// call for quad-pair forms, 0 otherwise.
#define LANEMAP_PRODUCT_OPERAND(NAME, NS, TYPE, PRODUCT)                                                     \
    struct NAME {                                                                                            \
        using T = TYPE;                                                                                      \
        static constexpr int kRows = NS::kRows, kCols = NS::kCols, kElements = NS::kElements,                \
                             kRegisters = NS::kRegisters, kElementBits = NS::kElementBits;                   \
        __device__ static int row(int lane, int i) { return NS::row(lane, i); }                              \
        __device__ static int col(int lane, int i) { return NS::col(lane, i); }                              \
        __device__ static int reg(int lane, int i) { return NS::reg(lane, i); }                              \
        __device__ static int bit(int lane, int i) { return NS::bit(lane, i); }                              \
        __device__ static int product(int lane, int i) {                                                     \
            (void)lane;                                                                                      \
            (void)i;                                                                                         \
            return PRODUCT;                                                                                  \
        }                                                                                                    \
    }

#define LANEMAP_PRODUCT_METADATA(NAME, NS)                                                                   \
    struct NAME {                                                                                            \
        __device__ static int field_lane(int r, int k) { return NS::field_lane(r, k); }                      \
        __device__ static int field_bit(int r, int k) { return NS::field_bit(r, k); }                        \
    }
