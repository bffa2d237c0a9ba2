#pragma once
// Shared by the CUDA header export's files (export_cuda.cpp: register operands, metadata, the mma wrappers;
// export_cuda_wgmma.cpp: wgmma's shared-memory operands, descriptors and warpgroup wrappers).

#include "lanemap/model.hpp"
#include "lanemap/smem.hpp"

#include <array>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lanemap::cudagen {

// The arguments of one generated function (at most three: lane, i / r, c, m), without allocating.
using Args = std::array<int, 3>;

// How the arguments of a generated function pack into one index: fields low bits first.
struct Packing {
    struct Field {
        std::string name; // C++ argument
        int bits = 0;
    };
    std::vector<Field> fields;
    int totalBits() const;
    // The argument and bit of packed bit b.
    std::pair<std::string, int> source(int b) const;
    // Row-major table index over the fields, highest field first.
    std::string indexExpression(const std::vector<int>& extents) const;
};

// `int name(args)`: the affine closed form over F2 when one fits f on the domain (each argument below its
// extent, and valid), else a string-literal table. `closedForm` says which.
std::string emitFunction(const std::string& name, const std::vector<std::string>& signature, const Packing& p,
                         const std::vector<int>& extents, const std::function<bool(const Args&)>& valid,
                         const std::function<int(const Args&)>& f, bool& closedForm);

// wgmma only: the warpgroup helpers and the descriptor encoder (once per translation unit), the
// shared-memory functions of A and B for `choice`, and the inline-PTX wrappers (A from registers and from
// shared memory).
std::string warpgroupCommon();
std::string sharedMemoryBlock(const Instruction& in, const smem::Choice& choice);
std::string wgmmaWrappers(const Instruction& in, const smem::Choice& choice);

} // namespace lanemap::cudagen
