// The wgmma kernel table: every type family's entries, found by the variant's canonical PTX string.
#include "kernels.hpp"

#include <string_view>
#include <vector>

namespace lanemap::gpu::wgkernels {

std::span<const Entry> all() {
    static const std::vector<Entry> entries = [] {
        std::vector<Entry> out;
        for (std::span<const Entry> part : {entriesF16(), entriesBf16Tf32(), entriesFp8(), entriesInt(),
                                            entriesSparseF16(), entriesSparseTf32Int(), entriesSparseFp8()})
            out.insert(out.end(), part.begin(), part.end());
        return out;
    }();
    return entries;
}

bool everyN() {
#ifdef LANEMAP_WGMMA_ALL_N
    return true;
#else
    return false;
#endif
}

const Entry* find(std::string_view ptx) {
    for (const Entry& e : all())
        if (ptx == e.ptx)
            return &e;
    return nullptr;
}

} // namespace lanemap::gpu::wgkernels
