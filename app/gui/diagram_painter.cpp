#include "diagram_painter.hpp"

#include "lanemap/diagram.hpp"

#include <QFontDatabase>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>

namespace lanemap::gui {

namespace {

QString qs(const std::string& s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QRectF rectOf(const RectF& r) {
    return {r.x, r.y, r.w, r.h};
}

// Unit -> painter coordinates.
struct Map {
    double zoom;
    QPointF origin;
    QPointF point(double x, double y) const { return {(x - origin.x()) * zoom, (y - origin.y()) * zoom}; }
    QRectF rect(const RectF& r) const {
        return {(r.x - origin.x()) * zoom, (r.y - origin.y()) * zoom, r.w * zoom, r.h * zoom};
    }
    // Pixel-aligned, so neighbouring cells share edges exactly and 1-px separators stay crisp.
    QRect snapped(const RectF& r) const {
        const int x0 = static_cast<int>(std::lround((r.x - origin.x()) * zoom));
        const int y0 = static_cast<int>(std::lround((r.y - origin.y()) * zoom));
        const int x1 = static_cast<int>(std::lround((r.x + r.w - origin.x()) * zoom));
        const int y1 = static_cast<int>(std::lround((r.y + r.h - origin.y()) * zoom));
        return {x0, y0, std::max(1, x1 - x0), std::max(1, y1 - y0)};
    }
};

// Fonts by (pixel size, bold, monospace) with their metrics, built once per thread: a tile render must not
// pay for font matching.
struct FontEntry {
    QFont font;
    double advance = 0; // monospace advance per character
    double ascent = 0, descent = 0;
};

class Fonts {
  public:
    const FontEntry& entry(double unitSize, double zoom, bool bold, bool mono) {
        const int px = std::max(1, static_cast<int>(std::lround(unitSize * zoom)));
        const int key = px * 4 + (bold ? 2 : 0) + (mono ? 1 : 0);
        for (const auto& [k, e] : m_fonts)
            if (k == key)
                return e;
        QFont f = mono ? monoFont() : QFont();
        if (!mono)
            f.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("Liberation Sans"),
                           QStringLiteral("sans-serif")});
        f.setPixelSize(px);
        f.setBold(bold);
        f.setHintingPreference(QFont::PreferNoHinting);
        const QFontMetricsF fm(f);
        FontEntry e{f, fm.horizontalAdvance(QLatin1Char('0')), fm.ascent(), fm.descent()};
        m_fonts.emplace_back(key, e);
        return m_fonts.back().second;
    }
    QFont font(double unitSize, double zoom, bool bold, bool mono) {
        return entry(unitSize, zoom, bold, mono).font;
    }

    static Fonts& instance() {
        thread_local Fonts fonts;
        return fonts;
    }

  private:
    static QFont monoFont() {
        QFont f(QStringLiteral("DejaVu Sans Mono"));
        f.setStyleHint(QFont::Monospace);
        if (!QFontInfo(f).fixedPitch())
            f = QFontDatabase::systemFont(QFontDatabase::FixedFont);
        return f;
    }
    std::deque<std::pair<int, FontEntry>> m_fonts; // deque: entries stay put while new sizes are added
};

QColor cellFill(const DiagramCell& c, const ViewColors& colors) {
    return c.dimmed ? colors.dimFill : QColor(c.fill.r, c.fill.g, c.fill.b);
}
QColor cellText(const DiagramCell& c, const ViewColors& colors) {
    return c.dimmed ? colors.dimText : QColor(c.text.r, c.text.g, c.text.b);
}

// The label that fits: the full "T13:a5", else the thread "T13", else nothing.
QString fittingLabel(const Diagram& d, const DiagramCell& c, double widthPx, double charPx) {
    const double room = widthPx - 3;
    const std::string label = d.label(c);
    if (static_cast<double>(label.size()) * charPx <= room)
        return qs(label);
    const std::size_t colon = label.find(':');
    if (colon != std::string::npos && static_cast<double>(colon) * charPx <= room)
        return qs(label.substr(0, colon));
    return {};
}

// Centered monospace text without a text layout pass: width = characters x advance. This is what keeps a
// tile of a few hundred labels in the low milliseconds.
void drawCentered(QPainter& p, const FontEntry& f, const QRectF& r, const QString& text) {
    const double w = static_cast<double>(text.size()) * f.advance;
    const double x = r.center().x() - w / 2;
    const double y = r.center().y() + (f.ascent - f.descent) / 2;
    p.drawText(QPointF(x, y), text);
}

void drawCell(QPainter& p, const Diagram& d, const Map& m, const DiagramCell& c, const PaintOptions& o,
              Fonts& fonts, bool labels, const QColor* fillOverride = nullptr) {
    const QRect r = m.snapped(c.rect);
    const QColor fill = fillOverride ? *fillOverride : cellFill(c, o.colors);
    if (r.width() >= 4 && r.height() >= 4) {
        // A 1-px background-colored gap between cells, as the SVG's white cell outline; the grid frame (a
        // DiagramLine) is drawn over the cells afterwards.
        p.fillRect(r, o.colors.background);
        p.fillRect(r.adjusted(1, 1, 0, 0), fill);
    } else {
        p.fillRect(r, fill);
    }
    if (!labels || !d.drawsLabel(c)) // the panel draws no label here (DiagramPanel::labels)
        return;
    const FontEntry& f = fonts.entry(d.metrics.cellFont, m.zoom, false, true);
    const QString text = fittingLabel(d, c, r.width(), f.advance);
    if (text.isEmpty())
        return;
    p.setFont(f.font);
    p.setPen(cellText(c, o.colors));
    drawCentered(p, f, QRectF(r).adjusted(1, 1, 0, 0), text);
}

void drawMarks(QPainter& p, const Map& m, const DiagramCell& c, std::size_t index, const CellMarks* marks,
               const ViewColors& colors) {
    if (!marks)
        return;
    const QRect r = m.snapped(c.rect);
    if (index < marks->diff.size() && marks->diff[index]) {
        // A thin outline and a corner flag: readable even when most cells differ, visible when cells are
        // tiny.
        if (r.width() >= 8 && r.height() >= 8) {
            p.setPen(QPen(colors.diff, 1));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRectF(r).adjusted(1.5, 1.5, -0.5, -0.5));
        }
        const double t = std::max(3.0, std::min(r.width(), r.height()) * 0.42);
        const QPointF tri[3] = {QPointF(r.right() + 1 - t, r.top()), QPointF(r.right() + 1, r.top()),
                                QPointF(r.right() + 1, r.top() + t)};
        p.setPen(Qt::NoPen);
        p.setBrush(colors.diff);
        p.drawPolygon(tri, 3);
    }
    if (index < marks->verdict.size() && marks->verdict[index] == CellMarks::Mismatch) {
        // Only disagreement is marked (agreement is said once per pane): a frame along the cell's edge, so
        // the label in the middle stays readable at every zoom. Outside the lane filter the frame is faded
        // like the cell.
        QColor color = colors.mismatch;
        if (c.dimmed)
            color.setAlphaF(0.45f);
        const double w = r.width() >= 8 && r.height() >= 8 ? 2.0 : 1.0;
        p.setPen(QPen(color, w, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(r).adjusted(w / 2 + 0.5, w / 2 + 0.5, -w / 2 + 0.5, -w / 2 + 0.5));
    }
}

bool chromeText(TextRole role) {
    return role == TextRole::Title || role == TextRole::Caption;
}

bool panelHeading(TextRole role) {
    return role == TextRole::PanelTitle || role == TextRole::PanelSubtitle;
}

void drawText(QPainter& p, const Map& m, const DiagramText& t, const ViewColors& colors, Fonts& fonts) {
    const QFont f = fonts.font(t.size, m.zoom, t.bold, t.monospace);
    p.setFont(f);
    p.setPen(themed(t.color, colors));
    const QString s = qs(t.text);
    QPointF at = m.point(t.pos.x, t.pos.y);
    if (t.anchor != TextAnchor::Start) {
        const double w = QFontMetricsF(f).horizontalAdvance(s);
        at.rx() -= t.anchor == TextAnchor::Middle ? w / 2 : w;
    }
    p.drawText(at, s);
}

// Bounding box of a text in units (approximate; used to skip texts outside the exposed area).
RectF textBox(const DiagramText& t) {
    const double w = static_cast<double>(t.text.size()) * t.size * 0.62;
    const double x = t.anchor == TextAnchor::Start    ? t.pos.x
                     : t.anchor == TextAnchor::Middle ? t.pos.x - w / 2
                                                      : t.pos.x - w;
    return {x, t.pos.y - t.size, w, t.size * 1.35};
}

// A metadata register as the PTX bit figures draw it: the 32-bit box with a light tick per bit, the fields
// filled and outlined with their labels, short ticks over the fields at the bit boundaries.
void drawRegister(QPainter& p, const Diagram& d, const Map& m, const BitFieldDiagram& bd,
                  const PaintOptions& o, Fonts& fonts, bool labels) {
    const QRectF box = m.rect(bd.rect);
    const double bitW = bd.bitWidth * m.zoom;
    p.fillRect(box, o.colors.bitBox);
    const double tick = std::max(2.0, box.height() * 0.18);
    QColor light = o.colors.muted;
    light.setAlpha(110);
    p.setPen(QPen(light, 1));
    for (int b = 1; b < bd.bits; ++b) {
        const double x = std::round(box.left() + b * bitW) + 0.5;
        p.drawLine(QPointF(x, box.top()), QPointF(x, box.top() + tick));
        p.drawLine(QPointF(x, box.bottom() - tick), QPointF(x, box.bottom()));
    }
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const BitField& f : bd.fields) {
        const QRectF r = m.rect(f.rect);
        p.fillRect(r, QColor(f.fill.r, f.fill.g, f.fill.b));
        QColor dark(f.text.r, f.text.g, f.text.b);
        dark.setAlpha(90);
        p.setPen(QPen(dark, 1));
        for (int b = 1; b <= f.bitHi - f.bitLo; ++b) {
            const double x = std::round(r.left() + b * bitW) + 0.5;
            p.drawLine(QPointF(x, r.top()), QPointF(x, r.top() + tick));
            p.drawLine(QPointF(x, r.bottom() - tick), QPointF(x, r.bottom()));
        }
        p.setPen(QPen(o.colors.ink, std::max(1.0, 1.5 * std::min(m.zoom, 1.0))));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
        if (!labels)
            continue;
        p.setFont(fonts.font(d.metrics.cellFont, m.zoom, false, true));
        p.setPen(QColor(f.text.r, f.text.g, f.text.b));
        const QString text = f.label2.empty() ? qs(f.label) : qs(f.label) + QLatin1Char('\n') + qs(f.label2);
        p.drawText(r, Qt::AlignCenter, text);
    }
    p.setPen(QPen(o.colors.ink, 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(box);
    p.setRenderHint(QPainter::Antialiasing, false);
}

} // namespace

QRectF contentRect(const Diagram& d, const PaintOptions& o, double margin) {
    QRectF r;
    auto add = [&](const RectF& u) { r = r.isNull() ? rectOf(u) : r.united(rectOf(u)); };
    const bool registers = o.part == DiagramPart::Registers && !d.bitFields.empty();
    if (registers) {
        // The registers and their heading: the texts laid out below every grid.
        double gridsBottom = 0;
        for (const DiagramPanel& panel : d.panels)
            gridsBottom = std::max(gridsBottom, panel.bounds.bottom());
        for (const DiagramText& t : d.texts)
            if (!chromeText(t.role) && t.role != TextRole::Legend && t.pos.y - t.size > gridsBottom)
                add(textBox(t));
    } else {
        for (const DiagramPanel& panel : d.panels) {
            RectF b = panel.bounds;
            if (!o.panelHeadings) {
                // From the column headers down: the title and subtitle lines above them are not drawn.
                double top = panel.gridRect().y;
                for (const DiagramText& t : d.texts)
                    if (t.role == TextRole::Header && t.pos.x >= b.x && t.pos.x <= b.right() &&
                        t.pos.y >= b.y && t.pos.y <= top)
                        top = std::min(top, t.pos.y - t.size);
                b.h -= top - b.y;
                b.y = top;
            }
            // Row notes ("warp 2") sit right of the grid.
            for (const std::string& note : panel.rowNotes)
                if (!note.empty()) {
                    b.w = std::max(b.w, panel.gridRect().right() + 60 - b.x);
                    break;
                }
            add(b);
        }
    }
    if (o.part != DiagramPart::Grids)
        for (const BitFieldDiagram& bd : d.bitFields)
            add({bd.titlePos.x, bd.rect.y - 40, bd.rect.right() - bd.titlePos.x, bd.rect.h + 40});
    if (!registers) {
        if (o.legends)
            for (const Legend& l : d.legends)
                add(l.bounds);
        if (o.chrome)
            for (const DiagramText& t : d.texts)
                if (chromeText(t.role))
                    add(textBox(t));
    }
    if (r.isNull())
        r = QRectF(0, 0, d.width, d.height);
    return r.adjusted(-margin, -margin, margin, margin);
}

namespace {
constexpr double kLabelPx = 6.5; // smallest cell-label font drawn (pixels): below it, colour alone
}

bool labelsVisible(const Diagram& d, double zoom) {
    return d.metrics.cellFont * zoom >= kLabelPx;
}

double readableZoom(const Diagram& d) {
    return kLabelPx / std::max(1.0, d.metrics.cellFont) * (1 + 1e-9); // rounding never drops the labels
}

QRectF cellRect(const Diagram& d, const PaintOptions& o, int cell) {
    if (cell < 0 || static_cast<std::size_t>(cell) >= d.cells.size())
        return {};
    const Map m{o.zoom, o.origin};
    return QRectF(m.snapped(d.cells[static_cast<std::size_t>(cell)].rect));
}

void paintStatic(QPainter& p, const Diagram& d, const PaintOptions& o, const CellMarks* marks,
                 const QRectF& exposed) {
    const Map m{o.zoom, o.origin};
    Fonts& fonts = Fonts::instance();
    const bool labels = o.labels && labelsVisible(d, o.zoom);
    // Exposed area in units, to skip whole panels and cells cheaply.
    const RectF ex{exposed.x() / o.zoom + o.origin.x(), exposed.y() / o.zoom + o.origin.y(),
                   exposed.width() / o.zoom, exposed.height() / o.zoom};
    auto hit = [&](const RectF& r) {
        return r.x < ex.x + ex.w && r.x + r.w > ex.x && r.y < ex.y + ex.h && r.y + r.h > ex.y;
    };
    p.setRenderHint(QPainter::TextAntialiasing, true);

    for (const DiagramText& t : d.texts) {
        if (chromeText(t.role) && !o.chrome)
            continue;
        if (panelHeading(t.role) && !o.panelHeadings)
            continue;
        if (t.role == TextRole::Legend && !o.legends)
            continue;
        if (!hit(textBox(t)))
            continue;
        drawText(p, m, t, o.colors, fonts);
    }

    for (const DiagramPanel& panel : d.panels) {
        if (!hit(panel.gridRect()))
            continue;
        // Visible rows and columns by grid arithmetic; then only the cells starting in or covering them.
        const int r0 = std::max(0, static_cast<int>(std::floor((ex.y - panel.origin.y) / panel.cellHeight)));
        const int r1 = std::min(
            panel.rows - 1, static_cast<int>(std::floor((ex.y + ex.h - panel.origin.y) / panel.cellHeight)));
        const int c0 = std::max(0, static_cast<int>(std::floor((ex.x - panel.origin.x) / panel.cellWidth)));
        const int c1 = std::min(
            panel.cols - 1, static_cast<int>(std::floor((ex.x + ex.w - panel.origin.x) / panel.cellWidth)));
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c)
                for (std::uint32_t idx : panel.cellsAtGrid(r, c)) {
                    const DiagramCell& cell = d.cells[idx];
                    // A cell spanning several columns (a sparse chunk) is drawn once, at its first visible
                    // column.
                    const int firstCol =
                        std::max(c0, static_cast<int>(std::floor(
                                         (cell.rect.x - panel.origin.x) / panel.cellWidth + 1e-9)));
                    if (c != firstCol)
                        continue;
                    drawCell(p, d, m, cell, o, fonts, labels);
                    drawMarks(p, m, cell, idx, marks, o.colors);
                }
    }

    for (const DiagramLine& line : d.lines) {
        const RectF box{std::min(line.from.x, line.to.x) - 2, std::min(line.from.y, line.to.y) - 2,
                        std::fabs(line.to.x - line.from.x) + 4, std::fabs(line.to.y - line.from.y) + 4};
        if (!hit(box))
            continue;
        QPen pen(themed(line.color, o.colors), std::max(1.0, std::round(line.width * std::min(o.zoom, 1.5))));
        pen.setCapStyle(Qt::SquareCap);
        p.setPen(pen);
        const QPointF a = m.point(line.from.x, line.from.y), b = m.point(line.to.x, line.to.y);
        p.drawLine(QPointF(std::round(a.x()), std::round(a.y())),
                   QPointF(std::round(b.x()), std::round(b.y())));
    }

    for (const BitFieldDiagram& bd : d.bitFields) {
        if (!hit({bd.titlePos.x, bd.rect.y, bd.rect.right() - bd.titlePos.x, bd.rect.h}))
            continue;
        p.setFont(fonts.font(d.metrics.cellFont + 1, o.zoom, true, true));
        p.setPen(o.colors.ink);
        p.drawText(m.point(bd.titlePos.x, bd.titlePos.y), qs(bd.title));
        drawRegister(p, d, m, bd, o, fonts, labels);
    }

    if (o.legends)
        for (const Legend& l : d.legends) {
            if (!hit(l.bounds))
                continue;
            const QFont title = fonts.font(d.metrics.noteFont, o.zoom, true, false);
            p.setFont(title);
            p.setPen(o.colors.ink);
            p.drawText(m.point(l.titlePos.x, l.titlePos.y), qs(l.title));
            const QFont entry = fonts.font(d.metrics.noteFont, o.zoom, false, false);
            p.setFont(entry);
            for (const LegendEntry& e : l.entries) {
                const QRect r = m.snapped(e.swatch);
                p.fillRect(r, o.colors.gridLine);
                p.fillRect(r.adjusted(1, 1, -1, -1), themed(e.fill, o.colors));
                p.setPen(o.colors.ink);
                p.drawText(m.point(e.textPos.x, e.textPos.y), qs(e.text));
            }
        }
}

int partnerCell(const Diagram& d, int cell) {
    return cell >= 0 && static_cast<std::size_t>(cell) < d.partner.size()
               ? d.partner[static_cast<std::size_t>(cell)]
               : -1;
}

int paintOverlay(QPainter& p, const Diagram& d, const PaintOptions& o, const Highlight& h,
                 const QRectF& exposed, bool shadeDone) {
    if (!h.active())
        return 0;
    const Map m{o.zoom, o.origin};
    Fonts& fonts = Fonts::instance();
    const bool labels = o.labels && labelsVisible(d, o.zoom);
    int lit = 0;
    const bool anyLane = h.thread >= 0 || h.pinned >= 0;
    if (anyLane && !shadeDone) {
        // Shade every grid and bit register, then repaint the lit lanes' cells on top at full strength.
        for (const DiagramPanel& panel : d.panels) {
            const QRectF g = m.rect(panel.gridRect());
            if (g.intersects(exposed))
                p.fillRect(g.intersected(exposed), o.colors.shade);
        }
        for (const BitFieldDiagram& bd : d.bitFields) {
            const QRectF g = m.rect(bd.rect);
            if (g.intersects(exposed))
                p.fillRect(g.intersected(exposed), o.colors.shade);
        }
    }
    if (anyLane) {
        auto light = [&](int thread, const QColor& outline) {
            if (thread < 0)
                return;
            for (std::uint32_t idx : d.cellsOfThread(thread)) {
                const DiagramCell& c = d.cells[idx];
                ++lit;
                const QRect r = m.snapped(c.rect);
                if (!QRectF(r).intersects(exposed))
                    continue;
                drawCell(p, d, m, c, o, fonts, labels);
                const int w = r.width() >= 12 && r.height() >= 12 ? 2 : 1;
                p.setPen(QPen(outline, w));
                p.setBrush(Qt::NoBrush);
                p.drawRect(QRectF(r).adjusted(w / 2.0, w / 2.0, -w / 2.0, -w / 2.0));
            }
            for (const BitFieldDiagram& bd : d.bitFields) {
                if (bd.thread != thread)
                    continue;
                const QRect r = m.snapped(bd.rect);
                if (!QRectF(r).adjusted(-4, -4, 4, 4).intersects(exposed))
                    continue;
                drawRegister(p, d, m, bd, o, fonts, labels);
                p.setPen(QPen(outline, 2));
                p.setBrush(Qt::NoBrush);
                p.drawRect(QRectF(r).adjusted(-1, -1, 1, 1));
            }
        };
        light(h.pinned, o.colors.pinned);
        if (h.thread != h.pinned)
            light(h.thread, o.colors.highlight);
    }
    auto outlineCell = [&](int cell, const QColor& color, int width) {
        if (cell < 0 || static_cast<std::size_t>(cell) >= d.cells.size())
            return;
        const QRect r = m.snapped(d.cells[static_cast<std::size_t>(cell)].rect);
        if (!QRectF(r).adjusted(-4, -4, 4, 4).intersects(exposed))
            return;
        p.setPen(QPen(color, width));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(r).adjusted(-width / 2.0 + 1, -width / 2.0 + 1, width / 2.0, width / 2.0));
    };
    outlineCell(h.cursorCell, o.colors.cursor, 3);
    if (h.hoverCell != h.cursorCell)
        outlineCell(h.hoverCell, o.colors.cursor, 2);
    // A composed view: the cell holding the same element in the other panel (Tensor Memory <-> register).
    // Thicker than the lit thread's other cells and in the pin colour, so it stands out in its row.
    const int partner = partnerCell(d, h.hoverCell >= 0 ? h.hoverCell : h.cursorCell);
    outlineCell(partner, o.colors.pinned, 4);
    outlineCell(partner, o.colors.cursor, 2);
    return lit;
}

QImage renderDiagram(const Diagram& d, const PaintOptions& options, const CellMarks* marks, double scale) {
    PaintOptions o = options;
    o.zoom = scale;
    const QRectF content = contentRect(d, o);
    o.origin = content.topLeft();
    const QSize size(static_cast<int>(std::ceil(content.width() * scale)),
                     static_cast<int>(std::ceil(content.height() * scale)));
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(o.colors.background);
    QPainter p(&image);
    paintStatic(p, d, o, marks, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

} // namespace lanemap::gui
