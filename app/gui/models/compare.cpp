#include "compare.hpp"

#include "gui_text.hpp"

#include "lanemap/diagram.hpp"

#include <QObject>
#include <QStringList>

#include <algorithm>

namespace lanemap::gui {

QString operandList(const Instruction& in) {
    QStringList names;
    for (const FragmentLayout& op : in.operands)
        if (inRegisters(in, op.operand()))
            names << qs(op.name());
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

std::optional<feeds::Answer> sharedMemoryFeed(const Selection& shown, const Selection& partner,
                                              Operand operand, QString* error) {
    feeds::Request q;
    q.writer = shown;
    q.reader = partner;
    q.operand = operand == Operand::B ? Operand::B : Operand::A;
    // The reader as the app draws it: its own shared-memory choice, else wgmma's default, K-major 128B.
    const smem::Choice choice = partner.params.smem.value_or(smem::Choice{});
    q.major = choice.major;
    q.swizzle = choice.swizzle;
    std::string why;
    std::optional<feeds::Answer> answer = feeds::ask(q, why);
    if (!answer && error)
        *error = QString::fromStdString(why);
    return answer;
}

QString noOperandInCommon(const Instruction& mine, const Instruction& other) {
    return QObject::tr(
               "%1 and %2 hold no operand in common in registers (%1: %3; %2: %4): nothing to compare.")
        .arg(QString::fromStdString(mine.spec), QString::fromStdString(other.spec), operandList(mine),
             operandList(other));
}

} // namespace lanemap::gui
