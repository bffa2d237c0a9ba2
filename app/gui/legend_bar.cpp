#include "legend_bar.hpp"

#include "lanemap/diagram.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace lanemap::gui {

namespace {
constexpr int kSwatch = 22;
constexpr int kGap = 3;
constexpr int kPad = 6;
} // namespace

LegendBar::LegendBar(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void LegendBar::setDiagram(std::shared_ptr<const Diagram> diagram) {
    m_diagram = std::move(diagram);
    m_entries.clear();
    m_title.clear();
    m_byLane = m_diagram && m_diagram->colorBy == ColorBy::Lane;
    if (m_diagram && !m_diagram->legends.empty()) {
        const Legend& legend = m_diagram->legends.front();
        m_title = QString::fromStdString(legend.title);
        for (const LegendEntry& e : legend.entries) {
            Entry entry;
            entry.fill = QColor(e.fill.r, e.fill.g, e.fill.b);
            const bool dim = e.key == 0xFFFFFFFFu; // "outside the lane filter"
            entry.key = dim ? -1 : static_cast<int>(e.key);
            // Colored by thread, a key is a warp's lane 0: the swatch names the warp.
            entry.number = dim                                     ? QStringLiteral("–")
                           : m_diagram->colorBy == ColorBy::Thread ? QStringLiteral("w%1").arg(e.key / 32)
                                                                   : QString::number(e.key);
            entry.tooltip = QString::fromStdString(e.text);
            m_entries.push_back(entry);
        }
    }
    setFixedHeight(heightForWidth(std::max(width(), 400)));
    update();
}

void LegendBar::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const int h = heightForWidth(width());
    if (h != height())
        setFixedHeight(h);
}

void LegendBar::setColors(const ViewColors& colors) {
    m_colors = colors;
    update();
}

int LegendBar::titleWidth() const {
    return titleWidth(width());
}

int LegendBar::titleWidth(int width) const {
    const int full = std::min(fontMetrics().horizontalAdvance(m_title) + 12, std::max(160, width / 2));
    // One row of swatches where the title can give way to it (down to 140 px, elided): a second row of 32
    // lanes took the height a laptop's panes need.
    const int room = width - 2 * kPad - static_cast<int>(m_entries.size()) * (swatchSize(width) + kGap);
    return std::clamp(room, std::min(full, 140), full);
}

int LegendBar::swatchSize(int width) const {
    // 22 px, or down to 18 where that keeps the swatches (and the title, cut to 140 px) on one row.
    const int n = std::max<int>(1, static_cast<int>(m_entries.size()));
    const int fit = (width - 2 * kPad - 140) / n - kGap;
    return std::clamp(fit, 18, kSwatch);
}

QRect LegendBar::swatchRect(int index, int width) const {
    const int x0 = kPad + titleWidth(width);
    const int size = swatchSize(width);
    const int perRow = std::max(1, (width - x0 - kPad) / (size + kGap));
    return {x0 + (index % perRow) * (size + kGap), kPad + (index / perRow) * (size + kGap), size, size};
}

int LegendBar::heightForWidth(int width) const {
    if (m_entries.empty())
        return 0;
    return swatchRect(static_cast<int>(m_entries.size()) - 1, width).bottom() + kPad + 1;
}

QSize LegendBar::sizeHint() const {
    return {600, heightForWidth(std::max(width(), 600))};
}
QSize LegendBar::minimumSizeHint() const {
    return {200, m_entries.empty() ? 0 : kSwatch + 2 * kPad};
}

void LegendBar::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), m_colors.background);
    if (m_entries.empty())
        return;
    p.setPen(m_colors.muted);
    QFont f = font();
    p.setFont(f);
    p.drawText(QRect(kPad, kPad, titleWidth() - 8, swatchSize(width())), Qt::AlignVCenter | Qt::AlignLeft,
               fontMetrics().elidedText(m_title, Qt::ElideRight, titleWidth() - 8));
    QFont small = f;
    small.setPixelSize(10);
    p.setFont(small);
    for (int i = 0; i < static_cast<int>(m_entries.size()); ++i) {
        const Entry& e = m_entries[static_cast<std::size_t>(i)];
        const QRect r = swatchRect(i, width());
        p.fillRect(r, i == m_hover ? m_colors.highlight : m_colors.gridLine);
        p.fillRect(r.adjusted(1, 1, -1, -1), e.fill);
        const Rgb fill{static_cast<std::uint8_t>(e.fill.red()), static_cast<std::uint8_t>(e.fill.green()),
                       static_cast<std::uint8_t>(e.fill.blue())};
        const Rgb ink = labelColorOn(fill);
        p.setPen(QColor(ink.r, ink.g, ink.b));
        p.drawText(r, Qt::AlignCenter, e.number);
    }
}

void LegendBar::mouseMoveEvent(QMouseEvent* event) {
    int hit = -1;
    for (int i = 0; i < static_cast<int>(m_entries.size()); ++i)
        if (swatchRect(i, width()).contains(event->position().toPoint()))
            hit = i;
    if (hit != m_hover) {
        m_hover = hit;
        update();
        if (hit >= 0)
            QToolTip::showText(event->globalPosition().toPoint(),
                               m_entries[static_cast<std::size_t>(hit)].tooltip, this);
        if (m_byLane)
            emit laneHovered(hit >= 0 ? m_entries[static_cast<std::size_t>(hit)].key : -1);
    }
}

void LegendBar::mousePressEvent(QMouseEvent* event) {
    if (!m_byLane || event->button() != Qt::LeftButton)
        return;
    for (int i = 0; i < static_cast<int>(m_entries.size()); ++i)
        if (swatchRect(i, width()).contains(event->position().toPoint()) &&
            m_entries[static_cast<std::size_t>(i)].key >= 0)
            emit laneClicked(m_entries[static_cast<std::size_t>(i)].key);
}

void LegendBar::leaveEvent(QEvent*) {
    if (m_hover >= 0) {
        m_hover = -1;
        update();
        if (m_byLane)
            emit laneHovered(-1);
    }
}

} // namespace lanemap::gui
