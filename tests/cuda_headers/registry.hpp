#pragma once
// The generated headers' functions, one row per operand of every variant (registry.cpp is generated).
#include <cstdint>
#include <vector>

namespace lanemap_gen {
struct Owner;
}

struct GeneratedOperand {
    const char* spec;
    char operand;
    int (*row)(int, int);
    int (*col)(int, int);
    int (*colLast)(int, int); // sparse A only
    int (*product)(int, int); // quad-pair operands only
    int (*reg)(int, int);
    int (*bit)(int, int);
    lanemap_gen::Owner (*owner)(int, int, int);
};

struct GeneratedMetadata {
    const char* spec;
    int selector;
    int (*fieldLane)(int, int); // (row, chunk)
    int (*fieldBit)(int, int);
};

// wgmma: A (the SS form) and B in shared memory: every variant's default layout (K-major, 128B swizzle) and
// every other layout of a few variants.
struct GeneratedSharedOperand {
    const char* spec;
    char operand;
    const char* major;   // "K", "MN"
    const char* swizzle; // "none", "32B", "64B", "128B"
    int rows, cols;      // kSmemRows, kSmemCols: the operand's orientation (A: M x K or M x K/2, B: K x N)
    std::uint32_t bytes, alignment;
    int (*offset)(int, int); // smem_offset(row, col)
    int (*bit)(int, int);    // smem_bit(row, col)
    std::uint64_t (*descriptor)(std::uint32_t);
};

const std::vector<GeneratedOperand>& generatedOperands();
const std::vector<GeneratedSharedOperand>& generatedSharedOperands();
// lanemap_gen::warpgroup::matrix_descriptor
std::uint64_t generatedMatrixDescriptor(std::uint32_t start, std::uint32_t lbo, std::uint32_t sbo,
                                        int swizzleMode, int baseOffset);
const std::vector<GeneratedMetadata>& generatedMetadata();
