#include "compare_page.hpp"

#include "compare.hpp"
#include "diagram_cache.hpp"
#include "diagram_view.hpp"
#include "gui_text.hpp"
#include "view_state.hpp"

#include "lanemap/diagram.hpp"

#include <QFontMetrics>
#include <QLabel>
#include <QPainter>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

#include <array>

namespace lanemap::gui {

ComparePage::ComparePage(const Pane::Context& context, QWidget* parent)
    : QWidget(parent), m_context(context) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("compareSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setChildrenCollapsible(false);
    layout->addWidget(m_splitter, 1);
}

DiagramView* ComparePage::view(int side) const {
    return side >= 0 && side < static_cast<int>(m_sides.size()) ? m_sides[static_cast<std::size_t>(side)].view
                                                                : nullptr;
}

std::vector<DiagramView*> ComparePage::views() const {
    std::vector<DiagramView*> out;
    for (const Side& s : m_sides)
        out.push_back(s.view);
    return out;
}

void ComparePage::rebuild() {
    for (const Side& s : m_sides) {
        // The box around the view leaves the splitter now, not when the event loop next runs.
        QWidget* box = s.view->parentWidget();
        box->hide();
        box->setParent(nullptr);
        box->deleteLater();
    }
    m_sides.clear();
    m_differences = 0;
    m_summaryText.clear();
    const ViewState& state = *m_context.state;
    const std::shared_ptr<const Instruction>& mine = state.instance();
    const std::shared_ptr<const Instruction>& other = state.compareInstance();
    if (!mine || !other)
        return;
    // Drawing an operand a side lacks threw and ended the app, at every start when the pair came from the
    // settings: the operand picked where both hold it, else the first both hold.
    const std::optional<Operand> which = comparedOperand(*mine, *other, state.compareOperand());
    if (!which) {
        if (!rebuildFeed())
            m_summary->setText(noOperandInCommon(*mine, *other));
        return;
    }
    const std::shared_ptr<const Instruction> sides[2] = {mine, other};
    int positions = 0;
    for (int side = 0; side < 2; ++side) {
        const Instruction& in = *sides[side];
        DiagramOptions o = state.diagramOptions(*which, in);
        o.selector.reset();
        const auto diagram = m_context.cache->get(sides[side], o);
        const CompareResult result = compareDiagram(*diagram, in, *sides[1 - side]);
        if (side == 0) {
            m_differences = result.differing;
            positions = result.positions;
        }
        auto* box = new QWidget;
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(0, 0, 0, 0);
        auto* head = new QLabel(box);
        head->setObjectName(QStringLiteral("compareTitle%1").arg(side));
        head->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
        head->setText(
            QStringLiteral("<b>%1</b> &nbsp; <span style='color:gray'>%2</span>")
                .arg(QString::fromStdString(in.spec), QString::fromStdString(in.ptx).toHtmlEscaped()));
        head->setWordWrap(true);
        head->setMinimumWidth(1); // a long PTX string wraps instead of widening the window
        bl->addWidget(head);
        auto* view = new DiagramView;
        view->setObjectName(QStringLiteral("pane_compare%1").arg(side));
        view->setAccessibleName(tr("compare%1 operand").arg(side));
        view->setViewState(m_context.state);
        view->setDiagram(diagram);
        CellMarks marks;
        marks.diff = result.marks;
        view->setMarks(std::move(marks));
        connect(view, &DiagramView::cellHovered, this, [this, view](int cell) { onHover(view, cell); });
        connect(view, &DiagramView::cursorMoved, this, [this, view](int cell) {
            if (cell >= 0)
                onHover(view, cell);
        });
        connect(view, &DiagramView::cellClicked, this, [this, view](int cell) {
            ViewState& s = *m_context.state;
            if (cell < 0)
                return s.setPinnedLane(-1);
            const int thread = view->diagram()->cells[static_cast<std::size_t>(cell)].thread;
            s.setPinnedLane(thread == s.pinnedLane() ? -1 : thread);
            s.setCell(describe(view, cell));
        });
        connect(view, &DiagramView::tabPressed, this,
                [this, view](bool backward) { emit tabPressed(view, backward); });
        connect(view, &DiagramView::painted, this, [this, view](double ms) { emit painted(view, ms); });
        bl->addWidget(view, 1);
        m_splitter->addWidget(box);
        m_sides.push_back({view, sides[side]});
    }
    m_summaryText =
        tr("Comparing operand %1: %2 of %3 positions of %4 are held by a different lane or element in %5 "
           "(marked in red on both sides).")
            .arg(qs(toString(*which)))
            .arg(m_differences)
            .arg(positions)
            .arg(QString::fromStdString(mine->spec), QString::fromStdString(other->spec));
    m_summary->setText(
        tr("Comparing operand <b>%1</b>: %2 of %3 positions of %4 are held by a different lane or "
           "element in %5 (marked in red on both sides).")
            .arg(qs(toString(*which)))
            .arg(m_differences)
            .arg(positions)
            .arg(QString::fromStdString(mine->spec), QString::fromStdString(other->spec)));
    alignSides();
}

void ComparePage::alignSides() {
    // One zoom for both sides (the smaller fit), from the top-left: compared cells line up side by side.
    m_splitter->setSizes({1, 1});
    for (QWidget* w = this; w && !w->isWindow(); w = w->parentWidget())
        if (QLayout* l = w->layout())
            l->activate();
    double zoom = 0;
    for (const Side& s : m_sides) {
        s.view->fit();
        zoom = zoom == 0 ? s.view->fitZoom() : std::min(zoom, s.view->fitZoom());
    }
    for (const Side& s : m_sides) {
        s.view->setZoom(zoom);
        s.view->horizontalScrollBar()->setValue(0);
        s.view->verticalScrollBar()->setValue(0);
    }
}

bool ComparePage::rebuildFeed() {
    const ViewState& state = *m_context.state;
    const std::optional<feeds::Answer> feed =
        sharedMemoryFeed(state.selection(), state.compare(), state.compareOperand());
    if (!feed)
        return false;
    const Placement* written = feed->writer->placement(Space::SharedMemory, Operand::D);
    for (const Placement& p : feed->writer->placements)
        if (!written && p.space() == Space::SharedMemory)
            written = &p;
    SharedMemoryDiagramOptions o;
    o.palette = state.palette();
    const auto pictures = std::array{
        std::make_shared<const Diagram>(buildSharedMemoryDiagram(*written, feed->sides.writerGlobal, o)),
        std::make_shared<const Diagram>(buildSharedMemoryDiagram(feed->reader, nullptr, o))};
    const std::array<QString, 2> titles{QString::fromStdString(feed->sides.writer),
                                        QString::fromStdString(feed->sides.reader)};
    for (int side = 0; side < 2; ++side) {
        auto* box = new QWidget;
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(0, 0, 0, 0);
        auto* head = new QLabel(box);
        head->setObjectName(QStringLiteral("compareTitle%1").arg(side));
        head->setTextInteractionFlags(Qt::TextSelectableByMouse);
        head->setText(
            QStringLiteral("<b>%1</b>").arg(titles[static_cast<std::size_t>(side)].toHtmlEscaped()));
        head->setWordWrap(true);
        head->setMinimumWidth(1);
        bl->addWidget(head);
        auto* view = new DiagramView;
        view->setObjectName(QStringLiteral("pane_compare%1").arg(side));
        view->setAccessibleName(tr("compare%1 shared memory").arg(side));
        view->setViewState(m_context.state);
        view->setDiagram(pictures[static_cast<std::size_t>(side)]);
        CellMarks marks;
        marks.diff = feedMarks(*pictures[static_cast<std::size_t>(side)], feed->comparison, side == 0).marks;
        view->setMarks(std::move(marks));
        connect(view, &DiagramView::cellHovered, this, [this, view](int cell) { onHover(view, cell); });
        connect(view, &DiagramView::tabPressed, this,
                [this, view](bool backward) { emit tabPressed(view, backward); });
        connect(view, &DiagramView::painted, this, [this, view](double ms) { emit painted(view, ms); });
        bl->addWidget(view, 1);
        m_splitter->addWidget(box);
        m_sides.push_back({view, nullptr});
    }
    const feeds::Comparison& c = feed->comparison;
    m_differences = c.compared - c.equal;
    // The report's verdict and first difference, as `lanemap-cli feeds --into` prints them.
    const std::string report = feeds::toText(c, feed->sides);
    const std::size_t verdict = report.find("feeds: ");
    m_summaryText =
        tr("Comparing in shared memory what the box writes with what the reader reads: %1")
            .arg(QString::fromStdString(report.substr(verdict == std::string::npos ? 0 : verdict)).trimmed());
    m_summary->setText(m_summaryText.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    alignSides();
    return true;
}

QImage ComparePage::picture(const PaintOptions& options, double scale) const {
    std::vector<QImage> sides;
    for (const Side& s : m_sides)
        if (const Diagram* d = s.view->diagram())
            sides.push_back(renderDiagram(*d, options, &s.view->marks(), scale));
    if (sides.size() != 2)
        return {};
    QFont font = this->font();
    font.setPixelSize(static_cast<int>(13 * scale));
    const int line = QFontMetrics(font).height() * 2;
    const int gap = static_cast<int>(24 * scale);
    QImage out(sides[0].width() + gap + sides[1].width(),
               line + std::max(sides[0].height(), sides[1].height()), QImage::Format_ARGB32_Premultiplied);
    out.fill(options.colors.background);
    QPainter p(&out);
    p.setFont(font);
    p.setPen(options.colors.ink);
    p.drawText(QRect(gap / 2, 0, out.width() - gap, line), Qt::AlignVCenter | Qt::TextWordWrap,
               m_summaryText);
    p.drawImage(0, line, sides[0]);
    p.drawImage(sides[0].width() + gap, line, sides[1]);
    return out;
}

CellInfo ComparePage::describe(const DiagramView* view, int cell) const {
    for (const Side& s : m_sides)
        if (s.view == view && view->diagram())
            return !s.instance ? CellInfo{} // a shared-memory feed: the tooltip names the cell
                               : describeRegisterCell(*s.instance, *view->diagram(), cell, false,
                                                      m_context.state->selector());
    return {};
}

void ComparePage::onHover(DiagramView* view, int cell) {
    emit hovered();
    ViewState& s = *m_context.state;
    const Diagram* d = view->diagram();
    if (cell < 0 || !d) {
        s.setHoveredLane(-1);
        s.setHoverText(QString());
        if (view->cursorCell() >= 0)
            s.setCell(describe(view, view->cursorCell()));
        return;
    }
    const DiagramCell& c = d->cells[static_cast<std::size_t>(cell)];
    s.setHoveredLane(c.thread);
    s.setCell(describe(view, cell));
    s.setHoverText(qs(d->tooltip(c)));
}

} // namespace lanemap::gui
