// A tcgen05.mma's A and B per CTA in shared memory (lanemap/diagram_pair.hpp).
#include "lanemap/diagram_pair.hpp"

namespace lanemap {

bool appendCtaSharedMemory(Diagram& d, const Instruction& in, Operand operand, SharedMemoryDiagramOptions o) {
    const std::optional<CtaParts> parts = ctaParts(in, operand);
    if (!parts)
        return false;
    d.cells.reserve(d.cells.size() +
                    static_cast<std::size_t>(parts->ctas) * sharedMemoryCellCount(parts->part, o));
    for (int cta = 0; cta < parts->ctas; ++cta) {
        o.cta = cta;
        o.part = parts->partOf(cta);
        appendSharedMemory(d, parts->part, o);
    }
    return true;
}

} // namespace lanemap
