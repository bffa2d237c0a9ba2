#include "copy_as.hpp"

#include "lanemap/export.hpp"
#include "lanemap/export_formats.hpp"

namespace lanemap::gui {

namespace {

std::optional<Operand> operandOf(OperandSet operands) {
    if (operands == kAccumulator)
        return Operand::D; // a merged C/D pane copies D
    return operands.single();
}

} // namespace

QString copyAsText(const Instruction& in, OperandSet operands, CopyFormat format) {
    const std::optional<Operand> which = operandOf(operands);
    switch (format) {
    case CopyFormat::Cute: // wgmma's shared-memory tiles as the instance places them
        return QString::fromStdString(toCute(in, in.params.smem.value_or(smem::Choice{}), which));
    case CopyFormat::Triton:
        return QString::fromStdString(toTritonJson(in, which));
    case CopyFormat::Cuda:
        return QString::fromStdString(toCudaHeader(in));
    case CopyFormat::Markdown: {
        if (operands.empty())
            return QString::fromStdString(toMarkdown(in, nullptr)); // every register operand
        const FragmentLayout* op = which ? in.operand(*which) : nullptr;
        return op ? QString::fromStdString(toMarkdown(in, op)) : QString();
    }
    }
    return {};
}

} // namespace lanemap::gui
