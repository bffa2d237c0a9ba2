#pragma once
// The generated headers' functions, one row per operand of every variant (registry.cpp is generated).
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

const std::vector<GeneratedOperand>& generatedOperands();
const std::vector<GeneratedMetadata>& generatedMetadata();
