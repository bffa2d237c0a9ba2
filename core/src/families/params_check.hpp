#pragma once
// Internal: the parameters a family takes, checked in one place (selection.cpp); each family's row names
// which it takes and checks their values itself.

#include "lanemap/model.hpp"

#include <string>
#include <vector>

namespace lanemap::family {

enum Takes : unsigned {
    TakesNothing = 0,
    TakesSelector = 1u << 0,
    TakesSharedMemory = 1u << 1,
    TakesN = 1u << 2,
    TakesTensorMemory = 1u << 3, // operand, access, block scale
    TakesHalfSplit = 1u << 4,
    TakesTarget = 1u << 5,
    TakesFamilyParams = 1u << 6, // Params::family, of the family's own type
    TakesTile = 1u << 7,         // Params::tile: a tile of the atom (lanemap/tile.hpp)
};

// "" when `params` set nothing the family does not take, else what was given and where it applies.
std::string refuseOthers(const Instruction& entry, const Params& params, unsigned takes);

// The sparsity selector, when given, must be one of the metadata's.
std::string checkSelector(const Instruction& entry, const Params& params);

// Values as a reader takes them in a message: a short list as it is, a longer one as its arithmetic runs
// ("8..32 in steps of 8, 48..256 in steps of 16").
std::string describeValues(const std::vector<int>& values);

// Places every register operand (first, in operand order), replacing the register placements there were: a
// family's instantiate() calls it when its parameters changed the operands.
void placeRegisters(Instruction& instruction);

} // namespace lanemap::family
