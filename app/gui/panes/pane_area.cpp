#include "pane_area.hpp"

#include "compare.hpp"
#include "compare_page.hpp"
#include "diagram_painter.hpp"
#include "registers_pane.hpp"
#include "shared_memory_pane.hpp"
#include "tensor_memory_pane.hpp"
#include "view_state.hpp"

#include "lanemap/diagram_pair.hpp"

#include <QResizeEvent>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <functional>

namespace lanemap::gui {

PaneArea::PaneArea(ViewState* state, const ProbeController* probe, QWidget* parent)
    : QStackedWidget(parent), m_state(state), m_context{state, &m_cache, probe} {
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter->setObjectName(QStringLiteral("panes"));
    m_splitter->setChildrenCollapsible(false);
    m_first = new QSplitter(Qt::Vertical, m_splitter);
    m_second = new QSplitter(Qt::Vertical, m_splitter);
    m_first->setChildrenCollapsible(false);
    m_second->setChildrenCollapsible(false);
    addWidget(m_splitter);
    m_compare = new ComparePage(m_context, this);
    addWidget(m_compare);
    connect(m_compare, &ComparePage::tabPressed, this, &PaneArea::onTab);
    connect(m_compare, &ComparePage::painted, this, &PaneArea::painted);
    connect(m_compare, &ComparePage::hovered, this, &PaneArea::hovered);
    m_bandTimer = new QTimer(this);
    m_bandTimer->setSingleShot(true);
    m_bandTimer->setInterval(120);
    connect(m_bandTimer, &QTimer::timeout, this, &PaneArea::updateBands);
    connect(state, &ViewState::instanceChanged, this, &PaneArea::showInstance);
    connect(state, &ViewState::diagramOptionsChanged, this, &PaneArea::refresh);
    connect(state, &ViewState::compareChanged, this, &PaneArea::showCompare);
    connect(state, &ViewState::compareOperandChanged, this, [this] {
        if (m_state->compareInstance())
            showCompare();
    });
}

PaneArea::~PaneArea() = default;

std::vector<PaneKey> PaneArea::planFor(const std::shared_ptr<const Instruction>& instance,
                                       const Pane::Context& context) {
    std::vector<PaneKey> keys;
    auto add = [&keys](const PaneKey& key) {
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
            keys.push_back(key);
    };
    for (const Placement& p : instance->placements)
        switch (p.space()) {
        case Space::Registers:
            // A register fragment: the register panes, planned once for all of them. A placement composed
            // from another space (a tcgen05.ld of Tensor Memory) is drawn with the one it composes.
            if (p.fragment() && std::none_of(keys.begin(), keys.end(),
                                             [](const PaneKey& k) { return k.space == Space::Registers; }))
                for (const PaneKey& key : RegistersPane::keysFor(instance, context))
                    add(key);
            break;
        case Space::SharedMemory:
            add({Space::SharedMemory, {}, DiagramPart::Whole});
            break;
        case Space::TensorMemory:
            add({Space::TensorMemory, {}, DiagramPart::Whole});
            // Its A and B are read from the shared memory of each CTA of its group, through descriptors.
            if (ctaParts(*instance, Operand::B))
                add({Space::SharedMemory, {}, DiagramPart::Whole});
            break;
        case Space::Global:
            break; // no pane draws global memory yet
        }
    return keys;
}

Pane* PaneArea::makePane(const PaneKey& key) {
    Pane* pane = nullptr;
    switch (key.space) {
    case Space::Registers:
        pane = new RegistersPane(key.operands, key.part, m_context);
        break;
    case Space::SharedMemory:
        pane = new SharedMemoryPane(m_context);
        break;
    case Space::TensorMemory:
        pane = new TensorMemoryPane(m_context);
        break;
    case Space::Global:
        return nullptr;
    }
    connect(pane, &Pane::paramsChanged, this, &PaneArea::paramsChanged);
    connect(pane, &Pane::message, this, &PaneArea::message);
    connect(pane, &Pane::hovered, this, &PaneArea::hovered);
    DiagramView* view = pane->view();
    connect(view, &DiagramView::painted, this, [this, view](double ms) { emit painted(view, ms); });
    connect(view, &DiagramView::tabPressed, this, [this, view](bool backward) { onTab(view, backward); });
    // A fitted pane resized (a splitter dragged): the bands that show its grid best may differ now.
    connect(view, &DiagramView::zoomChanged, this, [this, view] {
        if (view->fitting())
            m_bandTimer->start();
    });
    return pane;
}

void PaneArea::showInstance(const std::shared_ptr<const Instruction>& instance, bool newVariant) {
    // Panes that show the same as before are kept, with their zoom and scroll.
    std::vector<Pane*> old = std::move(m_panes);
    m_panes.clear();
    for (const PaneKey& key : planFor(instance, m_context)) {
        Pane* pane = nullptr;
        for (Pane*& o : old)
            if (o && o->key() == key)
                pane = std::exchange(o, nullptr);
        if (!pane)
            pane = makePane(key);
        if (!pane)
            continue;
        pane->show(instance);
        m_panes.push_back(pane);
    }
    for (Pane* o : old)
        if (o) {
            // Out of the splitter now (deleteLater alone leaves it visible until the event loop runs again).
            o->hide();
            o->setParent(nullptr);
            o->deleteLater();
        }
    arrange();
    if (!m_panes.empty())
        emit legendChanged(m_panes.front()->view()->sharedDiagram());
    applyVerdicts();
    // A newly opened instruction starts fitted, from the top-left corner where the headers are; other
    // parameters of the same one keep each pane's zoom.
    if (newVariant)
        for (Pane* pane : m_panes) {
            pane->view()->fit(DiagramView::FitMode::Readable);
            pane->view()->horizontalScrollBar()->setValue(0);
            pane->view()->verticalScrollBar()->setValue(0);
        }
    updateBands();
    m_bandTimer->start(); // again once the splitters have settled
    showCompare();
}

void PaneArea::refresh() {
    if (!m_state->instance())
        return;
    for (Pane* pane : m_panes)
        pane->refresh();
    if (!m_panes.empty())
        emit legendChanged(m_panes.front()->view()->sharedDiagram());
    applyVerdicts();
    updateBands();
    m_bandTimer->start();
    if (m_state->compareInstance())
        m_compare->rebuild();
}

void PaneArea::showCompare() {
    const std::shared_ptr<const Instruction>& mine = m_state->instance();
    const std::shared_ptr<const Instruction>& other = m_state->compareInstance();
    if (mine && other && !comparedOperand(*mine, *other, m_state->compareOperand()) &&
        !sharedMemoryFeed(m_state->selection(), m_state->compare(), m_state->compareOperand())) {
        // A TMA box and its reader compare in shared memory (docs/tma.md#feeds). The instance shown now (Back
        // onto a tcgen05.mma) has no operand the partner has: compare ends, and says why, rather than
        // comparing nothing.
        const QString why = noOperandInCommon(*mine, *other);
        m_state->setCompare({}, nullptr); // back here, compare off
        emit message(tr("Compare ended: %1").arg(why), 10000);
        return;
    }
    const bool on = mine && other;
    setCurrentWidget(on ? static_cast<QWidget*>(m_compare) : m_splitter);
    m_compare->rebuild(); // laid out on the page shown: both sides fitted to one zoom
}

namespace {
// What a pane adds around its picture (title bar, frame, margins), in pixels: enough to compare layouts.
constexpr double kChromeWidth = 24, kChromeHeight = 44;

// The zoom at which every picture shows whole in `area`: the first group in a column beside the second,
// which is a column too or (oneRow) a row. Sizes are the pictures' at zoom 1.
double wholeZoom(const std::vector<QSizeF>& first, const std::vector<QSizeF>& second, QSizeF area,
                 bool oneRow) {
    double firstW = 0, firstH = 0, secondW = 0, secondH = 0;
    for (const QSizeF& s : first) {
        firstW = std::max(firstW, s.width());
        firstH += s.height();
    }
    for (const QSizeF& s : second) {
        secondW = oneRow ? secondW + s.width() : std::max(secondW, s.width());
        secondH = oneRow ? std::max(secondH, s.height()) : secondH + s.height();
    }
    const double n1 = static_cast<double>(first.size()), n2 = static_cast<double>(second.size());
    const double columns = (first.empty() ? 0 : 1) + (oneRow ? n2 : second.empty() ? 0 : 1);
    const double width = (area.width() - columns * kChromeWidth) / std::max(1.0, firstW + secondW);
    const double height =
        std::min((area.height() - n1 * kChromeHeight) / std::max(1.0, firstH),
                 (area.height() - (oneRow ? 1 : n2) * kChromeHeight) / std::max(1.0, secondH));
    return std::min(width, height);
}
} // namespace

PaneArea::Shape PaneArea::shape() const {
    // The shape of D = A·B + C: A (and metadata) in one group, B and C/D in the other. Side by side (A left,
    // B over C/D) unless A is much wider than tall (large K): then A on top and B, C/D below it.
    Shape shape;
    for (const Pane* pane : m_panes)
        if (pane->key() == PaneKey{Space::Registers, Operand::A, DiagramPart::Whole})
            shape.aSize = pane->naturalSize();
    shape.rows = shape.aSize.width() > 2.6 * shape.aSize.height();
    // The wide panes (the metadata registers, 32 bits a line) go to the group that has the width: under a
    // wide A (rows) the row of B and C/D; side by side, the wider column.
    if (!shape.rows) {
        double extent[2] = {0, 0};
        for (const Pane* pane : m_panes)
            if (pane->group() != Pane::Group::Wide) {
                double& e = extent[pane->group() == Pane::Group::A ? 0 : 1];
                e = std::max(e, pane->splitSize(shape.aSize).width());
            }
        shape.widesFirst = extent[0] >= extent[1];
    }
    // B and C/D beside A in one row where that shows every picture whole and readable, which B over C/D
    // does not (a 16x8 B and C/D stacked beside a 16x16 A cut at row 10 of 16 in a 1280-wide window with
    // the catalog closed). Not before the area is laid out: its first resize arranges again.
    if (!shape.rows && width() >= 200 && height() >= 200) {
        std::vector<QSizeF> first, second;
        double readable = 0;
        for (const Pane* pane : m_panes) {
            (shape.inFirst(pane) ? first : second).push_back(pane->splitSize(shape.aSize));
            if (const Diagram* d = pane->view()->diagram())
                readable = std::max(readable, readableZoom(*d));
        }
        const QSizeF area(width(), height());
        const double stacked = wholeZoom(first, second, area, false);
        const double oneRow = wholeZoom(first, second, area, true);
        shape.oneRow = second.size() >= 2 && stacked < readable && oneRow >= readable;
    }
    return shape;
}

void PaneArea::arrange() {
    const Shape plan = shape();
    const bool rows = plan.rows;
    const QSizeF aSize = plan.aSize;
    const auto inFirst = [&plan](const Pane* p) { return plan.inFirst(p); };
    m_oneRow = plan.oneRow;
    const bool secondAcross = rows || m_oneRow; // B and C/D side by side
    m_splitter->setOrientation(rows ? Qt::Vertical : Qt::Horizontal);
    m_first->setOrientation(rows ? Qt::Horizontal : Qt::Vertical);
    m_second->setOrientation(secondAcross ? Qt::Horizontal : Qt::Vertical);
    int firstCount = 0, secondCount = 0;
    for (Pane* pane : m_panes) {
        const bool first = inFirst(pane);
        (first ? m_first : m_second)->insertWidget(first ? firstCount++ : secondCount++, pane);
    }
    // One pane (the quad-pair products) takes the whole width: an empty group would keep its share.
    m_first->setVisible(firstCount > 0);
    m_second->setVisible(secondCount > 0);
    // Split sizes follow the pictures' natural sizes, so a 16x8 B does not get as much room as a 64x256 D.
    QList<int> firstSizes, secondSizes;
    double firstExtent = 0, secondExtent = 0; // along the main splitter
    for (const Pane* pane : m_panes) {
        const QSizeF s = pane->splitSize(aSize);
        const bool first = inFirst(pane);
        const bool across = first ? rows : secondAcross;
        (first ? firstSizes : secondSizes)
            << std::max(120, static_cast<int>(across ? s.width() : s.height()));
        double& extent = first ? firstExtent : secondExtent;
        const double along = rows ? s.height() : s.width();
        extent = !first && m_oneRow ? extent + along : std::max(extent, along);
    }
    m_first->setSizes(firstSizes);
    m_second->setSizes(secondSizes);
    // A wide A on top gets half the height: enough to read its labels while B and C/D scroll below.
    const double share =
        rows ? 0.5 : std::clamp(firstExtent / std::max(1.0, firstExtent + secondExtent), 0.25, 0.7);
    const int total = std::max(600, rows ? m_splitter->height() : m_splitter->width());
    m_splitter->setSizes({static_cast<int>(total * share), total - static_cast<int>(total * share)});
    // Stretch factors keep that share when the window is resized (or first shown).
    m_splitter->setStretchFactor(0, static_cast<int>(std::lround(share * 100)));
    m_splitter->setStretchFactor(1, 100 - static_cast<int>(std::lround(share * 100)));
}

void PaneArea::updateBands() {
    bool changed = false;
    for (Pane* pane : m_panes)
        changed = pane->updateBands(m_bands) || changed;
    if (changed)
        applyVerdicts(); // marks index the cells of the picture shown
}

void PaneArea::setWrapBands(bool on) {
    m_bands = on;
    updateBands();
}

void PaneArea::setMarksShown(bool on) {
    m_marks = on;
    applyVerdicts();
}

void PaneArea::applyVerdicts() {
    for (Pane* pane : m_panes)
        pane->applyVerdict(m_marks);
}

Pane* PaneArea::pane(const QString& label) const {
    for (Pane* pane : m_panes)
        if (pane->label() == label)
            return pane;
    return nullptr;
}

std::vector<DiagramView*> PaneArea::views() const {
    std::vector<DiagramView*> out;
    for (const Pane* pane : m_panes)
        out.push_back(pane->view());
    for (DiagramView* view : m_compare->views())
        out.push_back(view);
    return out;
}

void PaneArea::zoomBy(double factor) {
    for (DiagramView* v : views())
        v->zoomBy(factor);
}

void PaneArea::restoreZoom(double zoom) {
    for (Pane* pane : m_panes) {
        pane->view()->setZoom(zoom);
        pane->view()->horizontalScrollBar()->setValue(0);
        pane->view()->verticalScrollBar()->setValue(0);
    }
}

void PaneArea::fit(DiagramView::FitMode mode) {
    for (DiagramView* v : views())
        v->fit(mode);
    updateBands(); // the bands that show a long grid largest at this pane size
}

void PaneArea::onTab(DiagramView* view, bool backward) {
    std::vector<DiagramView*> shown;
    for (DiagramView* v : views())
        if (v->isVisible())
            shown.push_back(v);
    if (shown.empty())
        return;
    const auto it = std::find(shown.begin(), shown.end(), view);
    std::ptrdiff_t i = it == shown.end() ? 0 : it - shown.begin();
    const auto n = static_cast<std::ptrdiff_t>(shown.size());
    i = ((i + (backward ? -1 : 1)) % n + n) % n;
    shown[static_cast<std::size_t>(i)]->setFocus(backward ? Qt::BacktabFocusReason : Qt::TabFocusReason);
}

Diagram PaneArea::exportDiagram() const {
    const std::shared_ptr<const Instruction>& in = m_state->instance();
    if (!in)
        return {};
    Diagram d = buildDiagram(*in, m_state->diagramOptions({}, *in));
    for (const Pane* pane : m_panes)
        pane->addToExport(d);
    return d;
}

bool PaneArea::comparing() const {
    return m_state->instance() && m_state->compareInstance() && currentWidget() == m_compare;
}

QImage PaneArea::picture() const {
    if (!m_state->instance())
        return {};
    PaintOptions o;
    o.colors = viewColors(m_state->theme());
    o.labels = m_state->showLabels();
    if (comparing())
        if (QImage image = m_compare->picture(o, 2.0); !image.isNull())
            return image;
    const Diagram d = exportDiagram();
    // 2 px per unit: sharp in documents and on high-DPI screens; very large diagrams get 1.
    return renderDiagram(d, o, nullptr, d.width * d.height > 4.0e6 ? 1.0 : 2.0);
}

void PaneArea::resizeEvent(QResizeEvent* event) {
    QStackedWidget::resizeEvent(event);
    // A size that changes which arrangement shows the pictures whole (the first show, a maximized window).
    if (!m_panes.empty() && isVisible() && shape().oneRow != m_oneRow) {
        arrange();
        for (Pane* pane : m_panes)
            pane->view()->fit(DiagramView::FitMode::Readable);
    }
    m_bandTimer->start(); // the bands that show a grid largest depend on its pane's size
}

} // namespace lanemap::gui
