// The CTA parts of an operand, from its family's row (lanemap/cta_parts.hpp).
#include "lanemap/cta_parts.hpp"

#include "lanemap/family.hpp"

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
    if (!in.family || !in.family->ctaParts || (operand != Operand::A && operand != Operand::B))
        return std::nullopt;
    return in.family->ctaParts(in, operand);
}

} // namespace lanemap
