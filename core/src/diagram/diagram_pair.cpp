// A tcgen05.mma's A and B per CTA in shared memory (lanemap/diagram_pair.hpp).
#include "lanemap/diagram_pair.hpp"

#include "lanemap/tmem.hpp"

namespace lanemap {

std::string CtaParts::partOf(int cta) const {
    const std::string name(toString(part.operand));
    if (ctas == 1)
        return "all of " + name;
    const bool a = part.operand == Operand::A;
    const int count = a ? part.rows : part.cols;
    return std::string(a ? "rows " : "columns ") + std::to_string(cta * count) + ".." +
           std::to_string(cta * count + count - 1) + " of " + name + " (cta_group::" + std::to_string(ctas) +
           ")";
}

std::optional<CtaParts> ctaParts(const Instruction& in, Operand operand) {
    const tmem::MmaShape* mma = tmem::mmaOf(in);
    if (!mma || !in.family || !in.family->sharedOperand || (operand != Operand::A && operand != Operand::B))
        return std::nullopt;
    if (in.placement(Space::TensorMemory, operand)) // A in Tensor Memory (--st): not read from shared memory
        return std::nullopt;
    Placement part;
    std::string error;
    if (!in.family->sharedOperand(in, operand, in.params.smem.value_or(smem::Choice{}), 0, 0, part, error) ||
        !part.shared())
        return std::nullopt;
    return CtaParts{*part.shared(), mma->ctaGroup};
}

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
