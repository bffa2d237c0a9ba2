#include "pane.hpp"

#include "diagram_view.hpp"
#include "gui_text.hpp"
#include "probe_controller.hpp"
#include "provenance.hpp"
#include "theme.hpp"
#include "view_state.hpp"

#include "lanemap/diagram_bands.hpp"

#include <QScrollBar>
#include <QStyle>

#include <algorithm>

namespace lanemap::gui {

namespace {

// Panels that name their rows and columns (Tensor Memory, registers after a tcgen05.ld, the tcgen05.ld/st
// fragments): the pane title reads the Diagram's words, as the SVG does. Full and compact.
std::optional<std::pair<QString, QString>> axisTitles(const QString& name, const Diagram& d) {
    QStringList full, compact;
    for (const DiagramPanel& p : d.panels) {
        if (p.rowAxis.empty())
            return std::nullopt;
        const QString what =
            d.panels.size() > 1
                ? QString::fromStdString(p.name) +
                      (p.kind == PanelKind::TensorMemoryRegisters ? QObject::tr(" registers") : QString())
                : QString();
        full << QObject::tr("%1rows %2 = %3, columns %4 = %5")
                    .arg(what.isEmpty() ? QString() : what + QStringLiteral(": "))
                    .arg(QString::fromStdString(p.rowAxis))
                    .arg(p.rows)
                    .arg(QString::fromStdString(p.colAxis))
                    .arg(p.cols);
        compact << QStringLiteral("%1 %2×%3").arg(what).arg(p.rows).arg(p.cols).trimmed();
    }
    if (full.isEmpty())
        return std::nullopt;
    return std::pair{QStringLiteral("<b>%1</b> &nbsp;").arg(name) +
                         full.join(QStringLiteral(" &nbsp;·&nbsp; ")),
                     QStringLiteral("<b>%1</b> &nbsp;").arg(name) + compact.join(QStringLiteral(" · "))};
}

// How much of a diagram a pane shows at its readable fit: cells on screen, then the zoom (DiagramView's
// FitMode::Readable, computed for a candidate diagram before it is shown).
struct BandScore {
    double cells = 0, zoom = 0;
};
// `c`: the content rectangle (units) of `d` as drawn with `bandColumns` columns per band (0: unwrapped).
BandScore bandScore(const Diagram& d, const QRectF& c, const DiagramView& view, QSize vp) {
    if (c.width() <= 0 || c.height() <= 0 || vp.width() <= 0 || vp.height() <= 0)
        return {};
    const double bar = view.style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, &view) + 1;
    const double zoom = DiagramView::fitZoomFor(d, c, vp, bar, view.fitMode());
    if (view.fitMode() == DiagramView::FitMode::All) // every cell on screen: the larger, the better
        return {static_cast<double>(d.cells.size()), zoom};
    const double across = vp.width() / (c.width() * zoom), down = vp.height() / (c.height() * zoom);
    const double shown = std::min(1.0, across) * std::min(1.0, down);
    // A pane that scrolls one way reads better than one that scrolls both ways (labels readable in either).
    const double oneWay = across >= 1.0 || down >= 1.0 ? 1.0 : 0.75;
    return {shown * static_cast<double>(d.cells.size()) * oneWay, zoom};
}

// What contentRect would say of wrapColumns(d, width), from the bands' geometry alone.
QRectF wrappedContent(const Diagram& d, int width) {
    const RectF b = wrappedBounds(d, width);
    QRectF r(b.x, b.y, b.w, b.h);
    const DiagramPanel& p = d.panels.front();
    if (std::any_of(p.rowNotes.begin(), p.rowNotes.end(), [](const std::string& n) { return !n.empty(); }))
        r.setRight(std::max(r.right(), p.origin.x + std::min(width, p.cols) * p.cellWidth + 60));
    return r.adjusted(-12, -12, 12, 12); // contentRect's margin
}

} // namespace

Pane::Pane(const PaneKey& key, Lights lights, const Context& context, QWidget* parent)
    : PaneFrame(new DiagramView, parent), m_context(context), m_key(key), m_lights(lights) {
    DiagramView* v = view();
    if (lights == Lights::Lanes) {
        v->setViewState(m_context.state);
        connect(v, &DiagramView::cellClicked, this, &Pane::onClick);
    } else {
        // Its own hover groups: it follows the theme and the labels, not the lanes.
        v->setColors(viewColors(state().theme()));
        v->setShowLabels(state().showLabels());
        connect(m_context.state, &ViewState::showLabelsChanged, v, &DiagramView::setShowLabels);
        connect(m_context.state, &ViewState::themeChanged, v,
                [v](Theme theme) { v->setColors(viewColors(theme)); });
    }
    connect(v, &DiagramView::cellHovered, this, &Pane::onHover);
    connect(v, &DiagramView::cursorMoved, this, [this](int cell) {
        if (cell >= 0)
            onHover(cell);
    });
}

void Pane::show(std::shared_ptr<const Instruction> instance) {
    m_instance = std::move(instance);
    refresh();
}

void Pane::refresh() {
    if (m_instance)
        rebuild();
}

void Pane::setPicture(std::shared_ptr<const Diagram> picture) {
    m_unwrapped = picture;
    m_bandColumns = 0;
    if (!picture)
        return;
    // A register pane's one panel: the header says its title and subtitle too, and the grid starts at its
    // column headers (m16n8k16's B and C/D then fit a 1280x720 window whole).
    const bool headed = headerNamesPanel() && picture->panels.size() == 1;
    const auto axes = axisTitles(label(), *picture);
    const DiagramPanel& panel = picture->panels.front();
    setTitle(axes ? axes->first : heading(), axes ? axes->second : compactHeading(),
             headed ? QString::fromStdString(panel.title + "\n" + panel.subtitle) : QString());
    view()->setPanelHeadings(!headed);
    view()->setDiagram(std::move(picture));
}

void Pane::refuse(const QString& why) {
    updateTools(); // back to what is shown
    emit message(why, 8000);
}

QSizeF Pane::naturalSize() const {
    const DiagramView* v = view();
    if (!v->diagram())
        return {1, 1};
    const QRectF r = contentRect(*v->diagram(), v->paintOptions());
    return {r.width(), r.height()};
}

void Pane::hoverCell(int cell) {
    onHover(cell);
}

void Pane::onHover(int cell) {
    emit hovered();
    const Diagram* d = view()->diagram();
    if (cell < 0 || !d || static_cast<std::size_t>(cell) >= d->cells.size()) {
        if (m_lights == Lights::Lanes)
            state().setHoveredLane(-1);
        else
            view()->setHighlightThread(-1);
        state().setHoverText(QString());
        // The keyboard cursor's cell, if any, is described again.
        if (m_lights == Lights::Lanes && view()->cursorCell() >= 0)
            state().setCell(describe(view()->cursorCell()));
        return;
    }
    const DiagramCell& c = d->cells[static_cast<std::size_t>(cell)];
    if (m_lights == Lights::Lanes) {
        state().setHoveredLane(c.thread);
    } else {
        // A chunk lights in both of the pane's panels; a register pane's lane no longer describes what is
        // under the mouse.
        view()->setHighlightThread(c.thread);
        state().setHoveredLane(-1);
    }
    state().setCell(describe(cell));
    state().setHoverText(qs(d->tooltip(c)));
}

void Pane::onClick(int cell) {
    const Diagram* d = view()->diagram();
    if (cell < 0 || !d) {
        state().setPinnedLane(-1);
        return;
    }
    const int thread = d->cells[static_cast<std::size_t>(cell)].thread;
    state().setPinnedLane(thread == state().pinnedLane() ? -1 : thread);
    state().setCell(describe(cell));
}

void Pane::applyVerdict(bool marksShown) {
    const Diagram* d = view()->diagram();
    if (!d || !m_instance)
        return;
    const ProbeReport* report = nullptr;
    const ProbeResult* result = m_context.probe && !m_instance->tile
                                    ? m_context.probe->resultFor(m_instance->spec, &report)
                                    : nullptr;
    CellMarks marks;
    int mismatched = 0;
    if (result) {
        // Only disagreement is marked in the grid; agreement is said once, in the badge.
        const std::vector<std::uint8_t> cells = mismatchedCells(*d, *result, mismatched);
        if (marksShown && mismatched > 0) {
            marks.verdict.assign(d->cells.size(), CellMarks::NoVerdict);
            for (std::size_t i = 0; i < cells.size(); ++i)
                if (cells[i])
                    marks.verdict[i] = CellMarks::Mismatch;
        }
    }
    view()->setMarks(std::move(marks));
    if (!result || !report)
        setBadge(QString(), true);
    else if (mismatched == 0)
        setBadge(tr("✓ confirmed on hardware"), true, describeReport(*report, *result), QStringLiteral("✓"));
    else
        setBadge(tr("✗ %n cell(s) placed differently", nullptr, mismatched), false,
                 describeReport(*report, *result), QStringLiteral("✗ %1").arg(mismatched));
}

bool Pane::updateBands(bool on) {
    DiagramView* v = view();
    if (!m_unwrapped || !wrapsBands())
        return false;
    if (!v->fitting() && (on || m_bandColumns == 0))
        return false; // the user's own zoom stays as it is, on the grid it was chosen on
    const Diagram& full = *m_unwrapped;
    int best = 0;
    std::shared_ptr<const Diagram> bestDiagram = m_unwrapped;
    if (on && canWrapColumns(full) && full.panels.front().cols >= 32) {
        const QSize vp = v->maximumViewportSize();
        if (vp.width() < 80 || vp.height() < 80)
            return false;
        const int cols = full.panels.front().cols;
        BandScore top = bandScore(full, contentRect(full, v->paintOptions()), *v, vp);
        for (const int bands : {2, 3, 4, 6, 8, 12, 16}) {
            const int width = (cols + bands - 1) / bands;
            if (width < 8)
                continue;
            const BandScore s = bandScore(full, wrappedContent(full, width), *v, vp);
            // Bands only where they show clearly more (or the same, larger).
            if (s.cells > top.cells * 1.1 || (s.cells >= top.cells * 0.99 && s.zoom > top.zoom * 1.1)) {
                top = s;
                best = width;
            }
        }
        if (best > 0 && best != m_bandColumns)
            bestDiagram = std::make_shared<const Diagram>(wrapColumns(full, best));
    }
    if (best == m_bandColumns)
        return false;
    m_bandColumns = best;
    const bool fitting = v->fitting();
    v->setDiagram(bestDiagram);
    if (fitting) {
        v->fit(v->fitMode());
        v->horizontalScrollBar()->setValue(0);
        v->verticalScrollBar()->setValue(0);
    }
    return true;
}

} // namespace lanemap::gui
