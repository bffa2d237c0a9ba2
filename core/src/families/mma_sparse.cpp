// Sparse warp-level mma.sp / mma.sp::ordered_metadata: PTX 9.1 §9.7.14.6 as data.
#include "mma_fragments.hpp"

namespace lanemap {

void registerSparseMma(Catalog&) {}

} // namespace lanemap
