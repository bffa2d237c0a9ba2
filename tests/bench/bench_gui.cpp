// GUI benchmarks (docs/performance.md), painted offscreen at 1920x1080 on the largest diagram
// (wgmma m64n256 D).
#ifdef LANEMAP_BENCH_GUI
#include "cell_info.hpp"
#include "diagram_painter.hpp"
#include "diagram_view.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/tile.hpp"

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

// Hover on a 256x256x64 tile of m16n8k16 atoms over 2x2 warps (docs/tiles.md; budget <= 2 ms): Arg 0, what a
// hover asks of the model — the cell under the pointer (Diagram::cellAt), its tooltip, the hovered thread's
// cells in every pane (cellsOfThread) and the Cell dock's description with what that thread holds; Arg 1, the
// hover frame of the shown 1920x1080 C/D view (the old and new thread's cells repainted from the tile cache).
static void BM_TileHover(benchmark::State& state) {
    const Instruction& atom = *Catalog::instance().instruction("mma.m16n8k16.f16");
    std::string error;
    const std::optional<tile::TileLayout> t = tile::parseTileLayout("(2,2,1)", "_256,_256,_64", error);
    if (!t) {
        state.SkipWithError(error.c_str());
        return;
    }
    auto in = std::make_shared<Instruction>(atom);
    in->params.tile = *t;
    placeOperands(*in);
    const auto whole = std::make_shared<const Diagram>(buildDiagram(*in));
    const std::size_t cells = whole->cells.size();
    if (state.range(0) == 0) {
        std::size_t i = 0, lit = 0;
        for (auto _ : state) {
            // A cell far along, so the lookups do not stay in one cache line.
            const DiagramCell& target = whole->cells[i];
            i = (i + 7919) % cells;
            const int hit =
                whole->cellAt(target.rect.x + target.rect.w / 2, target.rect.y + target.rect.h / 2);
            const DiagramCell& c = whole->cells[static_cast<std::size_t>(hit)];
            std::string tip = whole->tooltip(c);
            lit = whole->cellsOfThread(c.thread).size();
            const gui::CellInfo info = gui::describeRegisterCell(*in, *whole, hit, true, 0);
            benchmark::DoNotOptimize(tip.data());
            benchmark::DoNotOptimize(info.valid);
        }
        state.counters["cells"] = static_cast<double>(cells);
        state.counters["lit"] = static_cast<double>(lit);
        return;
    }
    DiagramOptions cd;
    cd.operands = kAccumulator;
    gui::DiagramView view;
    view.resize(kWidth, kHeight);
    view.setDiagram(std::make_shared<const Diagram>(buildDiagram(*in, cd)));
    view.setZoom(readable(*view.diagram()).zoom);
    view.show();
    for (int k = 0; k < 50; ++k)
        QCoreApplication::processEvents();
    int thread = 0;
    for (auto _ : state) {
        view.setHighlightThread(thread);
        thread = (thread + 37) % in->threads;
        view.viewport()->repaint();
    }
}
BENCHMARK(BM_TileHover)->Name("BM_TileHover/256x256x64/model")->Arg(0)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TileHover)->Name("BM_TileHover/256x256x64/frame")->Arg(1)->Unit(benchmark::kMillisecond);

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
