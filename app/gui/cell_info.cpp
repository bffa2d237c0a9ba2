#include "cell_info.hpp"

#include "lanemap/model.hpp"

namespace lanemap::gui {

namespace {

QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

void fillInstruction(CellInfo& info, const Instruction& in) {
    info.spec = QString::fromStdString(in.spec);
    info.warpgroup = in.scope == Scope::Warpgroup;
    info.section = QString::fromStdString(in.section);
    info.anchor = QString::fromStdString(in.anchor);
    for (const Erratum& e : in.errata)
        info.errata << QStringLiteral("%1 (%2): %3").arg(qs(e.id), qs(e.status), qs(e.summary));
}

QString threadText(const CellInfo& info, const OwnerInfo& o) {
    QString s = QStringLiteral("lane %1").arg(o.lane);
    if (info.warpgroup) s = QStringLiteral("thread %1 (warp %2, lane %3)").arg(o.thread).arg(o.warp).arg(o.lane);
    return s;
}

} // namespace

QString manualUrl(const QString& anchor) {
    return QStringLiteral("https://docs.nvidia.com/cuda/parallel-thread-execution/#%1").arg(anchor);
}

CellInfo describeCell(const Instruction& in, const FragmentLayout& op, int matrix, int row, int col) {
    CellInfo info;
    if (row < 0 || col < 0 || row >= op.rows() || col >= op.cols()) return info;
    if (matrix < 0 && op.matrices() > 1) return info;
    const int m = op.matrices() > 1 ? matrix : 0;
    if (m >= op.matrices()) return info;
    fillInstruction(info, in);
    info.valid = true;
    info.operand = QString::fromStdString(op.name());
    info.matrix = op.matrices() > 1 ? matrix : -1;
    info.row = row;
    info.col = col;
    info.rows = op.rows();
    info.cols = op.cols();
    info.elementType = QString::fromStdString(op.elementType());
    info.registerBits = op.registerBits();
    const QChar letter = info.operand.isEmpty() ? QLatin1Char('x') : info.operand.at(0).toLower();
    for (std::uint32_t idx : op.owners(row, col, m)) {
        const Element& e = op.elements()[idx];
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

CellInfo describeMetadataField(const Instruction& in, int selector, const MetadataField& f) {
    CellInfo info;
    fillInstruction(info, in);
    info.valid = true;
    info.operand = QStringLiteral("metadata");
    info.selector = selector;
    info.row = f.row;
    info.col = f.colFirst;
    info.fieldColFirst = f.colFirst;
    info.fieldColLast = f.colLast;
    info.elementType = QStringLiteral("b32");
    if (in.metadata) info.granularity = QString::fromStdString(in.metadata->granularity);
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
    if (!valid) return {};
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
                     .arg(col);
    if (owners.empty()) lines << QStringLiteral("  no owner");
    for (const OwnerInfo& o : owners) {
        QString line = QStringLiteral("  %1 (groupID %2, threadID_in_group %3): ")
                           .arg(threadText(*this, o))
                           .arg(o.groupID)
                           .arg(o.threadInGroup);
        if (operand == QLatin1String("metadata"))
            line += QStringLiteral("metadata register e, bits %1..%2").arg(o.bitHi).arg(o.bitLo);
        else
            line += QStringLiteral("%1, register %2, bits %3..%4").arg(o.element).arg(o.reg).arg(o.bitHi).arg(o.bitLo);
        if (o.colLast != o.colFirst) line += QStringLiteral(", chunk cols %1..%2").arg(o.colFirst).arg(o.colLast);
        line += QStringLiteral(" [%1]").arg(o.source);
        lines << line;
    }
    lines << QStringLiteral("  PTX ISA 9.1 §%1 (%2)").arg(section, manualUrl(anchor));
    for (const QString& e : errata) lines << QStringLiteral("  erratum %1").arg(e);
    if (!probe.isEmpty()) lines << QStringLiteral("  probe: %1").arg(probe);
    return lines.join(QLatin1Char('\n'));
}

QString CellInfo::toHtml() const {
    if (!valid) return {};
    auto esc = [](const QString& s) { return s.toHtmlEscaped(); };
    QString h;
    const bool meta = operand == QLatin1String("metadata");
    if (meta)
        h += QStringLiteral("<h3>metadata &middot; selector %1</h3><p>row <b>%2</b>, cols <b>%3..%4</b> &nbsp;(%5)</p>")
                 .arg(selector)
                 .arg(row)
                 .arg(fieldColFirst)
                 .arg(fieldColLast)
                 .arg(esc(granularity));
    else {
        h += QStringLiteral("<h3>%1 &middot; row %2, col %3</h3>").arg(esc(operand)).arg(row).arg(col);
        h += QStringLiteral("<p>%1%2&times;%3 .%4, %5-bit registers</p>")
                 .arg(matrix >= 0 ? QStringLiteral("product %1 &middot; ").arg(matrix) : QString())
                 .arg(rows)
                 .arg(cols)
                 .arg(esc(elementType))
                 .arg(registerBits);
    }
    if (owners.empty()) h += QStringLiteral("<p><i>no owner</i></p>");
    h += QStringLiteral("<table cellspacing='0' cellpadding='2'>");
    auto row2 = [&](const QString& k, const QString& v) {
        h += QStringLiteral("<tr><td style='padding-right:10px'>%1</td><td><b>%2</b></td></tr>").arg(k, v);
    };
    for (std::size_t i = 0; i < owners.size(); ++i) {
        const OwnerInfo& o = owners[i];
        if (i) h += QStringLiteral("<tr><td colspan='2'><hr/></td></tr>");
        if (warpgroup) {
            row2(QStringLiteral("thread"), QString::number(o.thread));
            row2(QStringLiteral("warp"), QString::number(o.warp));
        }
        row2(QStringLiteral("lane"), QString::number(o.lane));
        row2(QStringLiteral("groupID / tid_in_group"), QStringLiteral("%1 / %2").arg(o.groupID).arg(o.threadInGroup));
        if (meta) {
            row2(QStringLiteral("register"), QStringLiteral("e (metadata)"));
        } else {
            row2(QStringLiteral("element"), o.element);
            row2(QStringLiteral("register"), QString::number(o.reg));
        }
        row2(QStringLiteral("bits"), QStringLiteral("%1&ndash;%2").arg(o.bitLo).arg(o.bitHi));
        if (o.colLast != o.colFirst)
            row2(QStringLiteral("chunk"), QStringLiteral("cols %1..%2").arg(o.colFirst).arg(o.colLast));
        row2(QStringLiteral("source"), o.source);
    }
    row2(QStringLiteral("row / col"), QStringLiteral("%1 / %2").arg(row).arg(col));
    h += QStringLiteral("</table>");
    h += QStringLiteral("<p>PTX ISA 9.1 <a href='%1'>&sect;%2</a></p>").arg(manualUrl(anchor), esc(section));
    if (!probe.isEmpty()) h += QStringLiteral("<p>probe: %1</p>").arg(esc(probe));
    if (!errata.isEmpty()) {
        h += QStringLiteral("<p><b>errata</b></p><ul>");
        for (const QString& e : errata) h += QStringLiteral("<li>%1</li>").arg(esc(e));
        h += QStringLiteral("</ul>");
    }
    return h;
}

} // namespace lanemap::gui
