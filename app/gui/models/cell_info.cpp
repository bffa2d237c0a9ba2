#include "cell_info.hpp"

#include "gui_text.hpp"

#include "lanemap/diagram.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/model.hpp"
#include "lanemap/tile.hpp"

#include <algorithm>
#include <cctype>

namespace lanemap::gui {

void fillInstructionFacts(CellInfo& info, const Instruction& in) {
    info.spec = QString::fromStdString(in.spec);
    info.warpgroup = in.scope != Scope::Warp; // a warpgroup or a tile's CTA: threads with their warp
    info.section = qs(in.section);
    info.anchor = qs(in.anchor);
    for (const Erratum& e : in.errata)
        info.errata
            << QStringLiteral("%1 (%2): %3").arg(qs(e.id), qs(toString(statusOf(in, e))), qs(e.summary));
}

QString pinnedThreadText(const Instruction& in, int thread) {
    const QString unpin = QStringLiteral(" (click it again or press Esc to unpin)");
    if (in.scope == Scope::Warp)
        return QStringLiteral("Pinned lane %1").arg(thread) + unpin;
    QString who = QStringLiteral("Pinned thread %1 (warp %2, lane %3")
                      .arg(thread)
                      .arg(thread / kWarpSize)
                      .arg(thread % kWarpSize);
    if (in.tile && in.tile->atomThreads == kWarpgroupSize)
        who += QStringLiteral(", warpgroup %1").arg(thread / kWarpgroupSize);
    who += QLatin1Char(')');
    QStringList held;
    for (const FragmentLayout& op : in.operands)
        if (thread < op.threads())
            held << (held.isEmpty() ? QStringLiteral("%1 values of %2") : QStringLiteral("%1 of %2"))
                        .arg(op.elementsPerThread())
                        .arg(QString::fromUtf8(op.name().data(), static_cast<int>(op.name().size())));
    if (!held.isEmpty())
        who += QStringLiteral(": ") + held.join(QStringLiteral(", ")) + QStringLiteral(" lit");
    return who + unpin;
}

namespace {

QString threadText(const CellInfo& info, const OwnerInfo& o) {
    QString s = QStringLiteral("lane %1").arg(o.lane);
    if (info.warpgroup)
        s = QStringLiteral("thread %1 (warp %2, lane %3)").arg(o.thread).arg(o.warp).arg(o.lane);
    return s;
}

} // namespace

namespace {

// "a2 a3 → row 9, cols 2–3" for the elements of one register.
QString registerText(const FragmentLayout& op, const std::vector<const Element*>& elems, QChar letter) {
    QStringList names;
    for (const Element* e : elems)
        names << letter + QString::number(e->index);
    bool sameRow = true, sameCol = true, sameMatrix = true, consecutive = true, consecutiveRows = true;
    for (std::size_t i = 1; i < elems.size(); ++i) {
        sameRow = sameRow && elems[i]->row == elems[0]->row;
        sameCol = sameCol && elems[i]->col == elems[0]->col && elems[i]->colLast == elems[0]->colLast;
        sameMatrix = sameMatrix && elems[i]->matrix == elems[0]->matrix;
        consecutive = consecutive && elems[i]->col == elems[i - 1]->colLast + 1;
        consecutiveRows = consecutiveRows && elems[i]->row == elems[i - 1]->row + 1;
    }
    QString where;
    const QString product = elems[0]->matrix >= 0 && op.matrices() > 1
                                ? QStringLiteral("product %1, ").arg(elems[0]->matrix)
                                : QString();
    if (sameRow && sameCol && sameMatrix && elems[0]->col != elems[0]->colLast) {
        // Sparse A: the non-zeros of one chunk.
        where = QStringLiteral("%1row %2, chunk cols %3..%4")
                    .arg(product)
                    .arg(elems[0]->row)
                    .arg(elems[0]->col)
                    .arg(elems[0]->colLast);
    } else if (elems.size() > 1 && sameCol && sameMatrix && consecutiveRows &&
               elems[0]->col == elems[0]->colLast) {
        // B fragments: one column, consecutive k rows.
        where = QStringLiteral("%1rows %2..%3, col %4")
                    .arg(product)
                    .arg(elems.front()->row)
                    .arg(elems.back()->row)
                    .arg(elems[0]->col);
    } else if (sameRow && sameMatrix && consecutive) {
        const int c0 = elems.front()->col, c1 = elems.back()->colLast;
        where = c0 == c1
                    ? QStringLiteral("%1row %2, col %3").arg(product).arg(elems[0]->row).arg(c0)
                    : QStringLiteral("%1row %2, cols %3..%4").arg(product).arg(elems[0]->row).arg(c0).arg(c1);
    } else {
        QStringList cells;
        for (const Element* e : elems)
            cells << (e->col == e->colLast
                          ? QStringLiteral("(%1,%2)").arg(e->row).arg(e->col)
                          : QStringLiteral("(%1,%2..%3)").arg(e->row).arg(e->col).arg(e->colLast));
        where = product + cells.join(QLatin1Char(' '));
    }
    const QString list = names.size() > 4 ? QStringLiteral("%1…%2").arg(names.front(), names.back())
                                          : names.join(QLatin1Char(' '));
    return QStringLiteral("%1 → %2").arg(list, where);
}

} // namespace

void addLaneRegisters(CellInfo& info, const Instruction& in, int thread, bool mergedCD, int selector,
                      int maxRegisters) {
    info.laneThread = thread;
    info.laneRegisters.clear();
    if (thread < 0 || thread >= in.threads)
        return;
    for (const FragmentLayout& op : in.operands) {
        const bool accumulator = kAccumulator.contains(op.operand());
        if (mergedCD && op.operand() == Operand::D)
            continue;
        const QString name = qs(mergedCD && accumulator ? toString(kAccumulator) : std::string(op.name()));
        const QChar letter = op.name().empty()
                                 ? QLatin1Char('x')
                                 : QChar::fromLatin1(static_cast<char>(std::tolower(op.name()[0])));
        const int regs = op.registers();
        for (int r = 0; r < regs; ++r) {
            if (r == maxRegisters) {
                info.laneRegisters << QStringLiteral("%1 … %2 more registers").arg(name).arg(regs - r);
                break;
            }
            std::vector<const Element*> elems;
            for (int i = r * op.elementsPerRegister(); i < (r + 1) * op.elementsPerRegister(); ++i)
                elems.push_back(&op.element(thread, i));
            // The register of the cell being described is marked.
            const bool current = !info.owners.empty() && info.owners.front().thread == thread &&
                                 info.operand == name && info.owners.front().reg == r;
            info.laneRegisters << QStringLiteral("%1%2 r%3: %4")
                                      .arg(current ? QStringLiteral("▸ ") : QStringLiteral("  "), name)
                                      .arg(r)
                                      .arg(registerText(op, elems, letter));
        }
    }
    if (in.metadata)
        for (const MetadataSelector& sel : in.metadata->selectors) {
            if (sel.value != selector)
                continue; // the selector being shown

            bool first = true;
            for (const MetadataField& f : sel.fields) {
                if (f.thread != thread)
                    continue;
                if (first)
                    info.laneRegisters << QStringLiteral("  e (selector %1):").arg(sel.value);
                first = false;
                const bool current = info.operand == QLatin1String("metadata") && !info.owners.empty() &&
                                     info.owners.front().bitLo == f.bitLo;
                info.laneRegisters << QStringLiteral("%1  [%2..%3] → row %4, cols %5..%6")
                                          .arg(current ? QStringLiteral("▸ ") : QStringLiteral("  "))
                                          .arg(f.bitHi)
                                          .arg(f.bitLo)
                                          .arg(f.row)
                                          .arg(f.colFirst)
                                          .arg(f.colLast);
            }
        }
}

QString manualUrl(const QString& anchor) {
    return QStringLiteral("https://docs.nvidia.com/cuda/parallel-thread-execution/#%1").arg(anchor);
}

CellInfo describeCell(const Instruction& in, const FragmentLayout& op, int matrix, int row, int col) {
    CellInfo info;
    if (row < 0 || col < 0 || row >= op.rows() || col >= op.cols())
        return info;
    if (matrix < 0 && op.matrices() > 1)
        return info;
    const int m = op.matrices() > 1 ? matrix : 0;
    if (m >= op.matrices())
        return info;
    fillInstructionFacts(info, in);
    info.valid = true;
    info.operand = qs(op.name());
    info.matrix = op.matrices() > 1 ? matrix : -1;
    info.row = row;
    info.col = col;
    info.rows = op.rows();
    info.cols = op.cols();
    info.elementType = qs(toString(op.elementType()));
    info.registerBits = op.registerBits();
    const QChar letter = info.operand.isEmpty() ? QLatin1Char('x') : info.operand.at(0).toLower();
    for (const Element& e : op.owners(row, col, m)) {
        const Lane lane = Lane::of(e.thread);
        OwnerInfo o;
        o.thread = e.thread;
        o.lane = lane.lane;
        o.warp = lane.warp;
        o.groupID = lane.groupID;
        o.threadInGroup = lane.threadID_in_group;
        o.index = e.index;
        o.element = letter + QString::number(e.index);
        o.reg = e.reg;
        o.bitLo = e.bit;
        o.bitHi = e.bit + op.elementBits() - 1;
        o.colFirst = e.col;
        o.colLast = e.colLast;
        o.source = qs(toString(e.source));
        info.owners.push_back(o);
    }
    return info;
}

CellInfo describeRegisterCell(const Instruction& in, const Diagram& d, int cell, bool mergedCD,
                              int selector) {
    if (cell < 0 || static_cast<std::size_t>(cell) >= d.cells.size())
        return {};
    const DiagramCell& c = d.cells[static_cast<std::size_t>(cell)];
    const DiagramPanel& panel = d.panels[c.panel];
    CellInfo info;
    if (panel.kind == PanelKind::Metadata) {
        if (!in.metadata)
            return {};
        for (const MetadataSelector& s : in.metadata->selectors) {
            if (!d.selector || s.value != *d.selector)
                continue;
            for (const MetadataField& f : s.fields)
                if (f.thread == c.thread && f.bitLo == c.bitLo && f.row == c.row && f.colFirst == c.col)
                    info = describeMetadataField(in, s.value, f);
        }
    } else if (panel.kind == PanelKind::Operand) {
        const FragmentLayout* op = panel.operands.empty() ? nullptr : in.operand(panel.operands.first());
        if (!op)
            return {};
        info = describeCell(in, *op, c.matrix, c.row, c.col);
        info.operand = qs(panel.name);
        if (c.colLast > c.col)
            info.colLast = c.colLast; // the cell stands for every column of its chunk
        // The hovered owner first when several share the position.
        std::stable_partition(info.owners.begin(), info.owners.end(), [&](const OwnerInfo& o) {
            return o.thread == c.thread && o.index == c.element;
        });
    } else {
        return {};
    }
    if (!info.owners.empty())
        addLaneRegisters(info, in, info.owners.front().thread, mergedCD, d.selector.value_or(selector));
    return info;
}

CellInfo describeMetadataField(const Instruction& in, int selector, const MetadataField& f) {
    CellInfo info;
    fillInstructionFacts(info, in);
    info.valid = true;
    info.operand = QStringLiteral("metadata");
    info.selector = selector;
    info.row = f.row;
    info.col = f.colFirst;
    info.fieldColFirst = f.colFirst;
    info.fieldColLast = f.colLast;
    info.elementType = QStringLiteral("b32");
    if (in.metadata)
        info.granularity = qs(in.metadata->granularity);
    const Lane lane = Lane::of(f.thread);
    OwnerInfo o;
    o.thread = f.thread;
    o.lane = lane.lane;
    o.warp = lane.warp;
    o.groupID = lane.groupID;
    o.threadInGroup = lane.threadID_in_group;
    o.element = QStringLiteral("e");
    o.bitLo = f.bitLo;
    o.bitHi = f.bitHi;
    o.colFirst = f.colFirst;
    o.colLast = f.colLast;
    o.source = qs(toString(f.source));
    info.owners.push_back(o);
    return info;
}

QString CellInfo::toPlainText() const {
    if (!valid)
        return {};
    if (!summary.isEmpty()) {
        // A Tensor Memory or shared-memory cell: the hover line, its panel, then the dock's fields.
        QStringList lines{QStringLiteral("%1 %2: %3").arg(spec, operand, summary),
                          QStringLiteral("  ") + panelTitle};
        for (const auto& [name, value] : fields())
            lines << QStringLiteral("  %1: %2").arg(name, value);
        if (!section.isEmpty())
            lines << QStringLiteral("  PTX ISA 9.1 §%1 (%2)").arg(section, manualUrl(anchor));
        return lines.join(QLatin1Char('\n'));
    }
    QStringList lines;
    QString where = matrix >= 0 ? QStringLiteral("product %1, ").arg(matrix) : QString();
    if (operand == QLatin1String("metadata"))
        lines << QStringLiteral("%1 metadata, selector %2: row %3, cols %4..%5 (%6)")
                     .arg(spec)
                     .arg(selector)
                     .arg(row)
                     .arg(fieldColFirst)
                     .arg(fieldColLast)
                     .arg(granularity);
    else
        lines << QStringLiteral("%1 %2 (.%3, %4x%5): %6row %7, col %8")
                     .arg(spec, operand, elementType)
                     .arg(rows)
                     .arg(cols)
                     .arg(where)
                     .arg(row)
                     .arg(colText());
    if (owners.empty())
        lines << QStringLiteral("  no owner");
    for (const OwnerInfo& o : owners) {
        QString line = QStringLiteral("  %1 (groupID %2, threadID_in_group %3): ")
                           .arg(threadText(*this, o))
                           .arg(o.groupID)
                           .arg(o.threadInGroup);
        if (operand == QLatin1String("metadata"))
            line += QStringLiteral("metadata register e, bits [%1..%2]").arg(o.bitHi).arg(o.bitLo);
        else
            line += QStringLiteral("%1, register %2, bits [%3..%4]")
                        .arg(o.element)
                        .arg(o.reg)
                        .arg(o.bitHi)
                        .arg(o.bitLo);
        if (o.colLast != o.colFirst)
            line += QStringLiteral(", chunk cols %1..%2").arg(o.colFirst).arg(o.colLast);
        line += QStringLiteral(" [%1]").arg(o.source);
        lines << line;
    }
    lines << QStringLiteral("  PTX ISA 9.1 §%1 (%2)").arg(section, manualUrl(anchor));
    for (const QString& e : errata)
        lines << QStringLiteral("  erratum %1").arg(e);
    if (!probe.isEmpty())
        lines << QStringLiteral("  probe: %1").arg(probe);
    if (!laneRegisters.isEmpty()) {
        lines << QStringLiteral("  %1 %2 holds:")
                     .arg(warpgroup ? QStringLiteral("thread") : QStringLiteral("lane"))
                     .arg(laneThread);
        for (const QString& l : laneRegisters)
            lines << QStringLiteral("    ") + l;
    }
    return lines.join(QLatin1Char('\n'));
}

QString CellInfo::colText() const {
    return colLast > col ? QStringLiteral("%1..%2").arg(col).arg(colLast) : QString::number(col);
}

QString CellInfo::toHtml() const {
    if (!valid)
        return {};
    auto esc = [](const QString& s) { return s.toHtmlEscaped(); };
    auto fieldRow = [&](QString& h, const QString& k, const QString& v) {
        h += QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td><b>%2</b></td></tr>").arg(k, v);
    };
    if (!summary.isEmpty()) {
        // The fields first (a narrow dock shows the top); the hover line's words under them.
        QString heading = operand;
        if (tensorMemory)
            heading = tensorMemory->element + QStringLiteral(" in Tensor Memory");
        else if (sharedMemory)
            heading = QStringLiteral("shared memory 0x%1").arg(sharedMemory->address, 0, 16);
        QString h =
            QStringLiteral("<h3>%1</h3><p style='color:gray'>%2</p>").arg(esc(heading), esc(panelTitle));
        const std::vector<CellField> list = fields();
        if (!list.empty()) {
            h += QStringLiteral("<table cellspacing='0' cellpadding='2'>");
            for (const auto& [name, value] : list)
                fieldRow(h, esc(name), esc(value));
            h += QStringLiteral("</table>");
        }
        h += QStringLiteral("<p style='color:gray'>%1</p>").arg(esc(summary));
        if (!section.isEmpty())
            h += QStringLiteral("<p>PTX ISA 9.1 <a href='%1'>&sect;%2</a></p>")
                     .arg(manualUrl(anchor), esc(section));
        return h;
    }
    QString h;
    const bool meta = operand == QLatin1String("metadata");
    if (meta)
        h += QStringLiteral(
                 "<h3>metadata &middot; selector %1</h3><p>row <b>%2</b>, cols <b>%3..%4</b> &nbsp;(%5)</p>")
                 .arg(selector)
                 .arg(row)
                 .arg(fieldColFirst)
                 .arg(fieldColLast)
                 .arg(esc(granularity));
    else {
        h += QStringLiteral("<h3>%1 &middot; row %2, col %3</h3>").arg(esc(operand)).arg(row).arg(colText());
        h += QStringLiteral("<p>%1%2&times;%3 .%4, %5-bit registers</p>")
                 .arg(matrix >= 0 ? QStringLiteral("product %1 &middot; ").arg(matrix) : QString())
                 .arg(rows)
                 .arg(cols)
                 .arg(esc(elementType))
                 .arg(registerBits);
    }
    if (owners.empty())
        h += QStringLiteral("<p><i>no owner</i></p>");
    h += QStringLiteral("<table cellspacing='0' cellpadding='2'>");
    auto row2 = [&](const QString& k, const QString& v) { fieldRow(h, k, v); };
    for (std::size_t i = 0; i < owners.size(); ++i) {
        const OwnerInfo& o = owners[i];
        if (i)
            h += QStringLiteral("<tr><td colspan='2'><hr/></td></tr>");
        if (warpgroup) {
            row2(QStringLiteral("thread"), QString::number(o.thread));
            row2(QStringLiteral("warp"), QString::number(o.warp));
        }
        row2(QStringLiteral("lane"), QString::number(o.lane));
        row2(QStringLiteral("groupID / tid_in_group"),
             QStringLiteral("%1 / %2").arg(o.groupID).arg(o.threadInGroup));
        if (meta) {
            row2(QStringLiteral("register"), QStringLiteral("e (metadata)"));
        } else {
            row2(QStringLiteral("element"), o.element);
            row2(QStringLiteral("register"), QString::number(o.reg));
        }
        row2(QStringLiteral("bits"), QStringLiteral("[%1..%2]").arg(o.bitHi).arg(o.bitLo));
        if (o.colLast != o.colFirst)
            row2(QStringLiteral("chunk"), QStringLiteral("cols %1..%2").arg(o.colFirst).arg(o.colLast));
        row2(QStringLiteral("source"), o.source);
    }
    row2(QStringLiteral("row / col"), QStringLiteral("%1 / %2").arg(row).arg(colText()));
    h += QStringLiteral("</table>");
    if (!laneRegisters.isEmpty()) {
        const QString who = warpgroup ? QStringLiteral("Thread %1").arg(laneThread)
                                      : QStringLiteral("Lane %1").arg(laneThread);
        h += QStringLiteral("<p><b>%1 holds</b></p><p style='font-family:monospace; white-space:pre-wrap'>")
                 .arg(who);
        QStringList lines;
        for (QString l : laneRegisters) {
            // A narrow dock wraps a line after its arrow, never inside "row 5, cols 2..3".
            const qsizetype arrow = l.indexOf(QStringLiteral("→ "));
            if (arrow >= 0)
                l = l.left(arrow + 2) + l.mid(arrow + 2).replace(QLatin1Char(' '), QChar(0x00A0));
            lines << (l.startsWith(QStringLiteral("▸")) ? QStringLiteral("<b>%1</b>").arg(esc(l)) : esc(l));
        }
        h += lines.join(QStringLiteral("<br/>")) + QStringLiteral("</p>");
    }
    h += QStringLiteral("<p>PTX ISA 9.1 <a href='%1'>&sect;%2</a></p>").arg(manualUrl(anchor), esc(section));
    if (!probe.isEmpty())
        h += QStringLiteral("<p>probe: %1</p>").arg(esc(probe));
    if (!errata.isEmpty()) {
        h += QStringLiteral("<p><b>errata</b></p><ul>");
        for (const QString& e : errata)
            h += QStringLiteral("<li>%1</li>").arg(esc(e));
        h += QStringLiteral("</ul>");
    }
    return h;
}

} // namespace lanemap::gui
