#pragma once
// The GPU product check (docs/reference/exports.md#gpu-product-check): one case per Hopper-runnable mma /
// mma.sp / wmma variant and sparsity selector, and per wgmma / wgmma.sp variant in scope, selector and A
// source. The kernels (generated into products_mma.cu and products_wgmma.cu) load A, B, C from matrices in
// global memory with the generated CUDA header's row/col/reg/bit functions (wgmma: B, and A for the SS form,
// into shared memory at its smem_offset/smem_bit, described by its smem_descriptor), place sparse metadata
// with the header's field_lane/field_bit, run the header's inline-PTX mma() wrapper and store D with the same
// functions. No CUDA types here: the runner (product_check.cpp) and the tests include it.

#include <cstdint>
#include <vector>

namespace lanemap::product {

// Device pointers, every matrix stacked by product (quad-pair products of m8n8k4), then row-major.
struct Buffers {
    const std::uint64_t* a = nullptr; // logical M x K (sparse: zeros where the pattern keeps nothing)
    const std::uint64_t* b = nullptr; // K x N
    const std::uint64_t* c = nullptr; // M x N
    std::uint64_t* d = nullptr;       // M x N, written by the kernel
    // Sparse only: the logical columns each (row, chunk) keeps, `kept` per chunk in storage order, and the
    // metadata field value of each (row, chunk).
    const int* keptCols = nullptr;
    const std::uint32_t* fields = nullptr;
};

struct Case {
    const char* spec;
    int selector; // -1: dense
    int kept;     // sparse: elements kept per chunk
    // Launches the case's kernel on one block of the instruction's threads (no synchronisation).
    void (*launch)(const Buffers& buffers);
    // A negative control: the header of a deliberately wrong layout (C's rows rotated, controlInstruction()),
    // which must not reproduce the product, so a check that cannot fail is noticed.
    bool control = false;
    // wgmma: A read from shared memory through the header's A descriptor (the SS form) instead of registers.
    bool aShared = false;
};

// The cases of the generated kernels: mma / mma.sp / wmma (products_mma.cu, in every CUDA build) and wgmma /
// wgmma.sp (products_wgmma.cu, linked only into lanemap-product-check: it is built only on request).
const std::vector<Case>& mmaCases();
const std::vector<Case>& wgmmaCases();

} // namespace lanemap::product
