// GUI benchmarks (docs/performance.md), painted offscreen at 1920x1080 on the largest diagram
// (wgmma m64n256 D).
#ifdef LANEMAP_BENCH_GUI
#include "diagram_painter.hpp"
#include "diagram_view.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"

#include <QCoreApplication>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

using namespace lanemap;

namespace {
constexpr int kWidth = 1920, kHeight = 1080;

const Instruction& largest() {
    return *Catalog::instance().instruction("wgmma.m64n256k16.f16");
}

DiagramOptions onlyD() {
    DiagramOptions o;
    o.operands = Operand::D;
    return o;
}

// Zoom at which cell labels are still drawn: the expensive case.
gui::PaintOptions readable(const Diagram& d) {
    gui::PaintOptions p;
    p.zoom = 1.0;
    while (!gui::labelsVisible(d, p.zoom))
        p.zoom *= 1.25;
    return p;
}
} // namespace

// A whole 1920x1080 frame painted from the model, no cache: what a cache miss costs.
static void BM_PaintFull(benchmark::State& state) {
    const Diagram d = buildDiagram(largest(), onlyD());
    const gui::PaintOptions options = readable(d);
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        image.fill(Qt::white);
        QPainter painter(&image);
        gui::paintStatic(painter, d, options, nullptr, QRectF(0, 0, kWidth, kHeight));
    }
}
BENCHMARK(BM_PaintFull)->Name("BM_PaintFull/64x256")->Unit(benchmark::kMillisecond);

// A hover frame in the real (shown, offscreen) widget at 1920x1080: the hovered lane changes, the widget
// invalidates the old and new lane's cells and repaints them from its cached tiles plus the overlay
// (budget < 4 ms). The second variant blits the whole viewport, as a scroll frame does.
static void BM_HoverFrame(benchmark::State& state) {
    gui::DiagramView view;
    view.resize(kWidth, kHeight);
    view.setDiagram(std::make_shared<const Diagram>(buildDiagram(largest(), onlyD())));
    view.setZoom(readable(*view.diagram()).zoom);
    view.show();
    for (int i = 0; i < 50; ++i)
        QCoreApplication::processEvents(); // first frame + idle-time tile warm-up
    const bool wholeViewport = state.range(0) == 1;
    QImage frame(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
    int thread = 0;
    for (auto _ : state) {
        view.setHighlightThread(thread);
        thread = (thread + 1) % 128;
        if (wholeViewport)
            view.viewport()->render(&frame);
        else
            view.viewport()->repaint(); // synchronous paint of what the hover invalidated
    }
}
BENCHMARK(BM_HoverFrame)->Name("BM_HoverFrame/64x256")->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HoverFrame)->Name("BM_HoverFrame/64x256/full-viewport")->Arg(1)->Unit(benchmark::kMillisecond);

// Selecting an instruction: build its Diagram and paint the first 1920x1080 frame (budget < 50 ms).
static void BM_FirstPaint(benchmark::State& state) {
    QImage frame(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        gui::DiagramView view;
        view.resize(kWidth, kHeight);
        view.setDiagram(std::make_shared<const Diagram>(buildDiagram(largest())));
        view.viewport()->render(&frame);
    }
}
BENCHMARK(BM_FirstPaint)->Name("BM_FirstPaint/m64n256k16")->Unit(benchmark::kMillisecond);
#endif
