// Warpgroup-level wgmma.mma_async and wgmma.mma_async.sp: PTX 9.1 §9.7.15 as data.
#include "mma_fragments.hpp"

namespace lanemap {

void registerWgmma(Catalog&) {}

} // namespace lanemap
