#pragma once
// The "tensor_memory" member of a tcgen05.mma document (docs/reference/tcgen05.md#json): where the data-path
// layout puts every element of D, in the full form or, compact, as columns. Internal.
#include "lanemap/model.hpp"

#include <string>

namespace lanemap::detail {

// Appends `,\n "tensor_memory": [...]` for a tcgen05.mma instruction; nothing for any other.
void appendTensorMemory(std::string& out, const Instruction& instruction, bool compact);

} // namespace lanemap::detail
