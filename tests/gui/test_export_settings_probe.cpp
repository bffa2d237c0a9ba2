// What leaves the window (SVG, PNG, screenshots, clipboard), what it remembers (QSettings) and the probe
// area.
#include "gui_test_support.hpp"

#include "app.hpp"
#include "details_panel.hpp"
#include "diagram_painter.hpp"
#include "pane_frame.hpp"
#include "preferences.hpp"
#include "probe_controller.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/export.hpp"
#include "lanemap/gpu/probe.hpp"
#include "lanemap/probe_report.hpp"
#include "lanemap/svg.hpp"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QProcess>
#include <QSignalSpy>
#include <QSvgRenderer>

#include <gtest/gtest.h>

#include <map>
#include <regex>

namespace test_export_settings_probe {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

// An SVG document as Qt SVG draws it, `scale` pixels per unit on white; null when Qt cannot read it.
QImage renderSvg(const std::string& doc, double scale = 1) {
    QSvgRenderer renderer(QByteArray::fromStdString(doc));
    if (!renderer.isValid())
        return {};
    const QRectF box = renderer.viewBoxF();
    QImage image(static_cast<int>(box.width() * scale), static_cast<int>(box.height() * scale),
                 QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.scale(scale, scale);
    renderer.render(&painter, QRectF(0, 0, box.width(), box.height()));
    return image;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

TEST(Export, SvgIsValidAndCarriesEveryLane) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    const QString path = w.dir.filePath(QStringLiteral("out.svg"));
    QString error;
    ASSERT_TRUE(w->exportSvg(path, &error)) << error.toStdString();
    const QByteArray svg = readAll(path);
    ASSERT_FALSE(svg.isEmpty());
    QSvgRenderer renderer(svg);
    EXPECT_TRUE(renderer.isValid());
    EXPECT_GT(renderer.defaultSize().width(), 300);
    EXPECT_TRUE(svg.contains("T13:a5")) << "the cell labels the window shows";
    EXPECT_TRUE(svg.contains("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"));

    // The export follows the view: with a lane filter, lanes outside it are exported grey.
    ASSERT_TRUE(w->setLaneFilter(QStringLiteral("13")));
    ASSERT_TRUE(w->exportSvg(path, &error)) << error.toStdString();
    EXPECT_TRUE(readAll(path).contains("lane filter: 13"));

    // A path that cannot be written is reported with the path, and nothing is left behind.
    const QString bad = w.dir.filePath(QStringLiteral("no/such/folder/out.svg"));
    EXPECT_FALSE(w->exportSvg(bad, &error));
    EXPECT_TRUE(error.contains(bad)) << error.toStdString();
}

// Qt SVG (KDE viewers, QSvgRenderer) draws an exported figure's row headers ending at their point: the Tensor
// Memory row headers ("lane 3 · m 3") end where the grid starts, so the first cell of each row, which has no
// label, is its fill colour alone. (With the anchor in a second class, class="h ae", Qt SVG skipped its rule
// in this style sheet, which has an @media block, and drew each header centred over the first cell.)
TEST(Export, QtSvgDrawsTheRowHeadersLeftOfTheGrid) {
    const Instruction* in = Catalog::instance().instruction("tcgen05.mma.cta_group::1.kind::f16.m128");
    ASSERT_NE(in, nullptr);
    Instruction narrow = *in;
    narrow.n = 16;
    const Diagram d = buildDiagram(narrow);
    constexpr double kScale = 2;
    const QImage image = renderSvg(toSvg(d), kScale);
    ASSERT_FALSE(image.isNull());
    const DiagramPanel& p = d.panels.front();
    ASSERT_EQ(p.labels, CellLabels::None);
    for (int row = 0; row < 12; ++row) {
        const int cell = static_cast<int>(p.gridCells[p.gridOffsets[static_cast<std::size_t>(row * p.cols)]]);
        const DiagramCell& c = d.cells[static_cast<std::size_t>(cell)];
        int other = 0;
        for (double y = c.rect.y + 2; y < c.rect.bottom() - 2; y += 0.5)
            for (double x = c.rect.x + 2; x < c.rect.right() - 2; x += 0.5) {
                const QColor px =
                    image.pixelColor(static_cast<int>(x * kScale), static_cast<int>(y * kScale));
                other += std::abs(px.red() - c.fill.r) + std::abs(px.green() - c.fill.g) +
                             std::abs(px.blue() - c.fill.b) >
                         40;
            }
        EXPECT_EQ(other, 0) << "text over the first cell of row " << row << " ("
                            << p.rowHeaders[static_cast<std::size_t>(row)] << ")";
    }
}

// A fill coloured by a class of its own (a shared-memory chunk, coloured by where it lands) is placed as a
// <use> of a shape in <defs> carrying that class; Qt SVG draws it as it drew the spelled-out <path>: the same
// pixels but for edge antialiasing.
TEST(Export, QtSvgDrawsSharedShapesWithTheirClassColour) {
    std::string svg, error;
    ASSERT_TRUE(exportInstruction(*Catalog::instance().instruction("wgmma.m64n16k16.f16"), ExportFormat::Svg,
                                  {}, svg, error))
        << error;
    // The same document with every <use class="kN" xlink:href="#sM" x y/> spelled out as the path it places.
    std::map<std::string, std::string> shapes; // id -> path data after its "M0 0"
    const std::regex shapeRe(R"re(<path id="(s\d+)" d="M0 0([^"]*)")re");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), shapeRe); it != std::sregex_iterator(); ++it)
        shapes[(*it)[1]] = (*it)[2];
    const std::regex useRe(
        R"re(<use class="(k\d+)" xlink:href="#(s\d+)"(?: x="([^"]*)")?(?: y="([^"]*)")?/>)re");
    std::string spelled;
    std::size_t uses = 0;
    auto last = svg.cbegin();
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), useRe); it != std::sregex_iterator(); ++it) {
        const std::smatch& m = *it;
        spelled.append(last, m[0].first);
        spelled += "<path class=\"" + m[1].str() + "\" d=\"M" + (m[3].matched ? m[3].str() : "0") + ' ' +
                   (m[4].matched ? m[4].str() : "0") + shapes.at(m[2]) + "\"/>";
        last = m[0].second;
        ++uses;
    }
    spelled.append(last, svg.cend());
    ASSERT_GT(uses, 0u) << "B's chunks in shared memory are shared shapes with a colour class";
    const QImage shared = renderSvg(svg), paths = renderSvg(spelled);
    ASSERT_FALSE(shared.isNull());
    ASSERT_EQ(shared.size(), paths.size());
    int worst = 0;
    long differ = 0;
    for (int y = 0; y < shared.height(); ++y)
        for (int x = 0; x < shared.width(); ++x) {
            const QRgb a = shared.pixel(x, y), b = paths.pixel(x, y);
            const int d = std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)),
                                    std::abs(qBlue(a) - qBlue(b))});
            worst = std::max(worst, d);
            differ += d != 0;
        }
    EXPECT_LE(worst, 8) << differ << " pixels differ";
}

// The sparse metadata's register boxes and their bit ticks are one shape each in <defs>, placed by a <use>
// per register (128 of them in a wgmma.sp figure); Qt SVG draws every register's 31 ticks over its fields and
// its frame, as it drew them spelled out.
TEST(Export, QtSvgDrawsEveryRegistersBitTicks) {
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.sp.m16n8k16.f16"));
    ASSERT_FALSE(d.bitFields.empty());
    const std::string svg = toSvg(d);
    EXPECT_NE(svg.find("<use xlink:href=\"#u0\""), std::string::npos) << "ticks placed by a <use>";
    constexpr double kScale = 2;
    const QImage image = renderSvg(svg, kScale);
    ASSERT_FALSE(image.isNull());
    auto dark = [&](double x, double y) {
        const QColor px = image.pixelColor(static_cast<int>(std::lround(x * kScale)),
                                           static_cast<int>(std::lround(y * kScale)));
        return px.red() + px.green() + px.blue() < 3 * 0x70;
    };
    for (const BitFieldDiagram& bd : d.bitFields) {
        int ticks = 0;
        for (int b = 1; b < bd.bits; ++b) {
            const double x = bd.rect.x + b * bd.bitWidth;
            ticks += dark(x, bd.rect.y + 2.5) && dark(x, bd.rect.bottom() - 2.5);
        }
        EXPECT_EQ(ticks, bd.bits - 1) << bd.title;
        EXPECT_FALSE(dark(bd.rect.x + bd.bitWidth / 2, bd.rect.y + 2.5)) << bd.title << ": no tick mid-bit";
    }
}

TEST(Export, PngIsTheDiagramAsPainted) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    const QString path = w.dir.filePath(QStringLiteral("out.png"));
    QString error;
    ASSERT_TRUE(w->exportPng(path, &error)) << error.toStdString();
    QImage image(path);
    ASSERT_FALSE(image.isNull());
    // Rendered at 2 px per unit from the same Diagram the SVG writer gets.
    const Diagram d = w->exportDiagram();
    PaintOptions o;
    const QRectF content = contentRect(d, o);
    EXPECT_EQ(image.width(), static_cast<int>(std::ceil(content.width() * 2)));
    // A cell's center pixel has the cell's fill.
    const DiagramCell& cell = d.cells.front();
    const QPointF center((cell.rect.x + 2 - content.x()) * 2, (cell.rect.y + 2 - content.y()) * 2);
    EXPECT_EQ(image.pixelColor(center.toPoint()), QColor(cell.fill.r, cell.fill.g, cell.fill.b));
}

TEST(Painter, PaintsIntoAnOffscreenImageWithLevelOfDetail) {
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k256.b1"));
    PaintOptions o;
    EXPECT_TRUE(labelsVisible(d, 1.0));
    EXPECT_FALSE(labelsVisible(d, 0.3)) << "labels are dropped when cells are too small to read";
    // Exposed-only painting: a small exposed rectangle paints only the cells in it.
    o.origin = contentRect(d, o).topLeft();
    QImage image(400, 300, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter p(&image);
        paintStatic(p, d, o, nullptr, QRectF(0, 0, 400, 300));
    }
    const QRectF first = cellRect(d, o, 0);
    ASSERT_TRUE(QRectF(0, 0, 400, 300).contains(first.center()));
    const DiagramCell& c = d.cells.front();
    EXPECT_EQ(image.pixelColor(first.topLeft().toPoint() + QPoint(2, 2)),
              QColor(c.fill.r, c.fill.g, c.fill.b));
    // The overlay lights a lane: its cells keep their color, the others are shaded.
    Highlight h;
    h.thread = c.thread;
    QPainter p(&image);
    EXPECT_EQ(paintOverlay(p, d, o, h, QRectF(0, 0, 400, 300)),
              static_cast<int>(d.cellsOfThread(c.thread).size()));
}

TEST(Settings, PreferencesRoundTrip) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("p.ini")), QSettings::IniFormat);
    Preferences p;
    p.theme = Theme::Dark;
    p.themeFollowsSystem = false;
    p.colorBy = ColorBy::ThreadGroup;
    p.palette = Palette::ColorBlind;
    p.zoom = 1.75;
    p.fitToPane = false;
    p.showLabels = false;
    p.spec = QStringLiteral("mma.m16n8k8.tf32");
    p.selector = 1;
    p.laneFilter = QStringLiteral("0-3,13");
    p.pinnedThread = 13;
    p.compareSpec = QStringLiteral("mma.m16n8k8.f16");
    p.geometry = QMainWindow().saveGeometry(); // a real one: implausible geometries are dropped on load
    p.windowState = QByteArray("state");
    savePreferences(settings, p);
    QSettings again(dir.filePath(QStringLiteral("p.ini")), QSettings::IniFormat);
    EXPECT_EQ(loadPreferences(again), p);
    // A corrupt zoom does not make the view unusable.
    again.setValue(QStringLiteral("view/zoom"), -3);
    EXPECT_EQ(loadPreferences(again).zoom, Preferences().zoom);
}

TEST(Settings, TheWindowReopensWhereItWasLeft) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    w->setTheme(Theme::Dark);
    w->viewState()->setColorBy(ColorBy::Register);
    ASSERT_TRUE(w->setLaneFilter(QStringLiteral("0-3,13")));
    w->viewState()->setPinnedLane(13);
    view(*w, Operand::A)->setZoom(1.5);
    w.window->close(); // saves
    w.open(/*restore=*/true);
    EXPECT_EQ(w->currentSpec(), QStringLiteral("mma.m16n8k8.tf32"));
    EXPECT_EQ(w->theme(), Theme::Dark);
    EXPECT_EQ(view(*w, Operand::A)->diagram()->colorBy, ColorBy::Register);
    EXPECT_EQ(w->preferences().laneFilter, QStringLiteral("0-3,13"));
    EXPECT_EQ(w->viewState()->pinnedLane(), 13);
    EXPECT_FALSE(view(*w, Operand::A)->fitting());
    EXPECT_DOUBLE_EQ(view(*w, Operand::A)->zoom(), 1.5);
    w->setTheme(Theme::Light);
}

ProbeReport sampleReport(Verdict verdict) {
    ProbeReport r;
    r.device = {"NVIDIA H100 80GB HBM3", 90, "580.159.04", "13.0"};
    r.date = "2026-11-23T10:00:00Z";
    r.lanemapVersion = "0.1.0";
    ProbeResult res;
    res.spec = "mma.m16n8k16.f16";
    res.verdict = verdict;
    res.experiments = 384;
    res.cellsChecked = 512;
    if (verdict == Verdict::Fail) {
        ProbeMismatch m;
        m.operand = Operand::A;
        m.row = 9;
        m.col = 3;
        m.thread = 5;
        m.index = 3;
        m.experiment = "rows of A vs D";
        m.expected = "row 9";
        m.observed = "row 1";
        res.mismatches.push_back(m);
        res.cellsMismatched = 1;
    }
    r.results.push_back(res);
    return r;
}

// The reports compiled into the app are Qt resources, not files: every one must load, with no "skipped"
// notice at start-up (the core file loader alone refused them all).
TEST(Probe, BuiltInRecordedReportsLoadFromTheAppResources) {
    lanemap::gui::initResources();
    const QDir builtIn(QStringLiteral(":/lanemap/probe"));
    const QStringList names = builtIn.entryList({QStringLiteral("*.json")}, QDir::Files);
    ASSERT_FALSE(names.isEmpty()) << "no recorded reports compiled into the app";
    QStringList errors;
    const auto loaded = loadRecordedReports(QStringLiteral(":/lanemap/probe"), &errors);
    EXPECT_TRUE(errors.isEmpty()) << errors.join(QStringLiteral("; ")).toStdString();
    EXPECT_EQ(loaded.size(), static_cast<std::size_t>(names.size()));
}

TEST(Probe, RecordedReportsShowWhereALayoutWasConfirmed) {
    QTemporaryDir reports;
    {
        QFile f(reports.filePath(QStringLiteral("h100.json")));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(toJson(sampleReport(Verdict::Pass))));
        QFile junk(reports.filePath(QStringLiteral("junk.json")));
        ASSERT_TRUE(junk.open(QIODevice::WriteOnly));
        junk.write("{not json");
    }
    QStringList errors;
    const auto loaded = loadRecordedReports(reports.path(), &errors);
    ASSERT_EQ(loaded.size(), 1u);
    EXPECT_EQ(errors.size(), 1) << "a corrupt report is skipped and named";

    Window w(false, reports.path());
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    const QString status = named(*w, "probeStatus")->text();
    EXPECT_TRUE(status.contains(QStringLiteral("confirmed on NVIDIA H100 80GB HBM3")))
        << status.toStdString();
    EXPECT_TRUE(status.contains(QStringLiteral("580.159.04")));
    EXPECT_TRUE(status.contains(QStringLiteral("2026-11-23")));
    // Agreement is said once in the pane's badge, never painted on every cell.
    EXPECT_TRUE(view(*w, Operand::A)->marks().verdict.empty());
    EXPECT_TRUE(registersPane(*w, Operand::A)->badge()->text().contains(QStringLiteral("confirmed")));
    // Another instruction has no report.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.f16")));
    EXPECT_TRUE(named(*w, "probeStatus")->text().contains(QStringLiteral("not confirmed")));
    EXPECT_TRUE(view(*w, Operand::A)->marks().verdict.empty());
}

TEST(Probe, MismatchesAreCrossedOutCellByCell) {
    QTemporaryDir reports;
    {
        QFile f(reports.filePath(QStringLiteral("fail.json")));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(toJson(sampleReport(Verdict::Fail))));
    }
    Window w(false, reports.path());
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* a = view(*w, Operand::A);
    const auto& verdicts = a->marks().verdict;
    ASSERT_EQ(verdicts.size(), 256u);
    int crossed = 0;
    for (std::uint8_t v : verdicts)
        crossed += v == CellMarks::Mismatch;
    EXPECT_EQ(crossed, 1);
    EXPECT_EQ(verdicts[static_cast<std::size_t>(cellAt(a, 9, 3))], CellMarks::Mismatch);
    EXPECT_TRUE(named(*w, "probeStatus")->text().contains(QStringLiteral("disagrees on 1 of 512")));
    hover(a, cellAt(a, 9, 3));
    EXPECT_TRUE(details(*w)->cell().probe.startsWith(QStringLiteral("✗")));
}

// The merged C/D pane shows C and D together: a cell where the hardware disagrees about C is a mismatch in
// the grid and in the Cell panel alike (they used to map "C/D" differently: ✗ in the grid, ✓ in the panel).
TEST(Probe, AMismatchOfCInTheMergedPaneIsAMismatchEverywhere) {
    ProbeReport report = sampleReport(Verdict::Fail);
    ProbeMismatch& m = report.results.front().mismatches.front();
    m.operand = Operand::C;
    m.row = 2;
    m.col = 5;
    QTemporaryDir reports;
    {
        QFile f(reports.filePath(QStringLiteral("fail.json")));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(toJson(report)));
    }
    Window w(false, reports.path());
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* cd = view(*w, kAccumulator);
    ASSERT_NE(cd, nullptr);
    const int cell = cellAt(cd, 2, 5);
    ASSERT_GE(cell, 0);
    EXPECT_EQ(cd->marks().verdict.at(static_cast<std::size_t>(cell)), CellMarks::Mismatch);
    hover(cd, cell);
    EXPECT_TRUE(details(*w)->cell().probe.startsWith(QStringLiteral("✗")))
        << details(*w)->cell().probe.toStdString();
    // A cell both agree on is confirmed in both places.
    const int other = cellAt(cd, 0, 0);
    hover(cd, other);
    EXPECT_TRUE(details(*w)->cell().probe.startsWith(QStringLiteral("✓")))
        << details(*w)->cell().probe.toStdString();
}

// Issue 14.1: a verdict never covers a label. Agreement is said once per pane (badge) and in a legend line
// naming the report; only disagreeing cells are marked, with a frame on the cell's edge; View → Probe marks.
TEST(Probe, AMismatchMarkLeavesTheLabelUntouchedAndAgreementPaintsNothing) {
    const Diagram d = buildDiagram(*Catalog::instance().instruction("mma.m16n8k16.f16"), [] {
        DiagramOptions o;
        o.operands = Operand::A;
        return o;
    }());
    PaintOptions o;
    o.chrome = false;
    o.legends = false;
    CellMarks none;
    CellMarks confirmed;
    confirmed.verdict.assign(d.cells.size(), CellMarks::Confirmed);
    CellMarks mismatch;
    mismatch.verdict.assign(d.cells.size(), CellMarks::NoVerdict);
    mismatch.verdict[0] = CellMarks::Mismatch;
    const QImage plain = renderDiagram(d, o, &none, 2.0);
    EXPECT_EQ(renderDiagram(d, o, &confirmed, 2.0), plain) << "agreement must not be painted on every cell";
    const QImage marked = renderDiagram(d, o, &mismatch, 2.0);
    ASSERT_EQ(marked.size(), plain.size());
    // Cell 0 as rendered at scale 2: its interior (3 px in from the edge, where the label is) is unchanged,
    // and its edge shows the mark.
    PaintOptions at2 = o;
    at2.zoom = 2.0;
    at2.origin = contentRect(d, o).topLeft();
    const QRect cell = cellRect(d, at2, 0).toAlignedRect();
    int interiorChanged = 0, edgeChanged = 0;
    for (int y = cell.top(); y <= cell.bottom(); ++y)
        for (int x = cell.left(); x <= cell.right(); ++x) {
            if (!plain.rect().contains(x, y) || plain.pixel(x, y) == marked.pixel(x, y))
                continue;
            const bool interior = QRect(cell).adjusted(4, 4, -4, -4).contains(x, y);
            (interior ? interiorChanged : edgeChanged)++;
        }
    EXPECT_EQ(interiorChanged, 0) << "the mark must not cover the label";
    EXPECT_GT(edgeChanged, 20) << "the mismatch must be visible";
}

TEST(Probe, ConfirmationIsABadgePerPaneAndALegendLineNamingTheReport) {
    QTemporaryDir reports;
    {
        QFile f(reports.filePath(QStringLiteral("h100.json")));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(toJson(sampleReport(Verdict::Pass))));
    }
    Window w(false, reports.path());
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    for (Pane* frame : panes(*w)) {
        const QString name = frame->label();
        ASSERT_NE(frame, nullptr) << name.toStdString();
        EXPECT_TRUE(frame->badge()->isVisible()) << name.toStdString();
        // In words, or (a narrow pane) as an icon whose tooltip has the words.
        EXPECT_TRUE(
            (frame->badge()->text() + frame->badge()->toolTip()).contains(QStringLiteral("confirmed")))
            << frame->badge()->text().toStdString();
        EXPECT_TRUE(frame->view()->marks().verdict.empty())
            << "no cell of " << name.toStdString() << " is marked";
    }
    const QString legend = named(*w, "verdictLegend")->text();
    EXPECT_TRUE(named(*w, "verdictLegend")->isVisible());
    EXPECT_TRUE(legend.contains(QStringLiteral("NVIDIA H100 80GB HBM3"))) << legend.toStdString();
    EXPECT_TRUE(legend.contains(QStringLiteral("2026-11-23")));
    EXPECT_TRUE(legend.contains(QStringLiteral("recorded report h100.json, not this machine")))
        << legend.toStdString();
    // No report: no badge, no legend line.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.f16")));
    EXPECT_FALSE(registersPane(*w, Operand::A)->badge()->isVisible());
    EXPECT_FALSE(named(*w, "verdictLegend")->isVisible());
}

TEST(Probe, OnlyDisagreeingCellsAreMarkedAndTheViewToggleHidesThem) {
    QTemporaryDir reports;
    {
        QFile f(reports.filePath(QStringLiteral("fail.json")));
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(toJson(sampleReport(Verdict::Fail))));
    }
    Window w(false, reports.path());
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    DiagramView* a = view(*w, Operand::A);
    EXPECT_TRUE(registersPane(*w, Operand::A)->badge()->text().contains(QStringLiteral("1 cell")));
    const QLabel* bBadge = registersPane(*w, Operand::B)->badge();
    EXPECT_TRUE((bBadge->text() + bBadge->toolTip()).contains(QStringLiteral("confirmed")))
        << "B has no disagreeing cell";
    int marked = 0;
    for (std::uint8_t v : a->marks().verdict)
        marked += v != CellMarks::NoVerdict;
    EXPECT_EQ(marked, 1);
    QAction* toggle = w->findChild<QAction*>(QStringLiteral("actionProbeMarks"));
    ASSERT_NE(toggle, nullptr);
    toggle->setChecked(false);
    EXPECT_TRUE(a->marks().verdict.empty());
    toggle->setChecked(true);
    EXPECT_EQ(a->marks().verdict.at(static_cast<std::size_t>(cellAt(a, 9, 3))), CellMarks::Mismatch);
}

TEST(Probe, WithoutAGpuTheActionSaysWhyAndTheAppStaysUsable) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    const gpu::Availability avail = gpu::discover();
    QSignalSpy finished(w->findChild<ProbeController*>(), &ProbeController::finished);
    w->probeHardware();
    ASSERT_TRUE(finished.wait(60000));
    if (!avail.available) {
        // Issue 14.10: a non-modal notice says why in plain words, with the technical reason in its details;
        // the status area keeps the variant's provenance.
        QMessageBox* notice = named<QMessageBox>(*w, "probeNotice");
        ASSERT_NE(notice, nullptr);
        EXPECT_TRUE(notice->isVisible());
        EXPECT_FALSE(notice->isModal());
        EXPECT_EQ(notice->text(), plainUnavailable(QString::fromStdString(avail.reason)));
        EXPECT_EQ(notice->detailedText(), QString::fromStdString(avail.reason));
        EXPECT_FALSE(named(*w, "probeStatus")->text().contains(QString::fromStdString(avail.reason)));
        EXPECT_TRUE(named(*w, "probeStatus")->text().contains(QStringLiteral("confirmed")))
            << named(*w, "probeStatus")->text().toStdString();
        EXPECT_FALSE(w->findChild<ProbeController*>()->hasLiveReport());
    } else {
        EXPECT_TRUE(w->findChild<ProbeController*>()->hasLiveReport())
            << "a device was found: the probe must report";
    }
    // Still usable.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.tf32")));
    EXPECT_EQ(paneLabels(*w).size(), 3);
}

TEST(Probe, NoDriverIsSaidInPlainWordsNotAsAnUpgradeRequest) {
    // What a machine without any NVIDIA driver reports through the CUDA runtime.
    const QString noDriver =
        plainUnavailable(QStringLiteral("no usable CUDA driver: cudaErrorInsufficientDriver (35): CUDA "
                                        "driver version is insufficient for CUDA runtime version"));
    EXPECT_TRUE(noDriver.startsWith(QStringLiteral("No working NVIDIA GPU driver was found on this machine")))
        << noDriver.toStdString();
    EXPECT_FALSE(noDriver.contains(QStringLiteral("insufficient")));
    EXPECT_TRUE(noDriver.contains(QStringLiteral("works without one")));
    EXPECT_TRUE(plainUnavailable(QStringLiteral("no CUDA device (cudaGetDeviceCount found 0)"))
                    .startsWith(QStringLiteral("No NVIDIA GPU was found")));
    EXPECT_TRUE(plainUnavailable(
                    QStringLiteral("built without CUDA (nvcc was not found when lanemap was configured)"))
                    .contains(QStringLiteral("built without CUDA")));
}

TEST(ScreenshotMode, WritesThePngAndExits) {
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("shot.png"));
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path()); // never the user's settings
    app.setProcessEnvironment(env);
    app.start(
        QStringLiteral(LANEMAP_GUI_BINARY),
        {QStringLiteral("--spec"), QStringLiteral("mma.m16n8k16.f16"), QStringLiteral("--screenshot"), png});
    ASSERT_TRUE(app.waitForFinished(60000));
    EXPECT_EQ(app.exitCode(), 0) << app.readAllStandardError().toStdString();
    QImage image(png);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1600, 1000));

    // A bad spec is a usage error (exit 2) that names the problem; nothing is written.
    const QString bad = dir.filePath(QStringLiteral("bad.png"));
    app.start(
        QStringLiteral(LANEMAP_GUI_BINARY),
        {QStringLiteral("--spec"), QStringLiteral("mma.m16n8k16.tf32"), QStringLiteral("--screenshot"), bad});
    ASSERT_TRUE(app.waitForFinished(60000));
    EXPECT_EQ(app.exitCode(), 2);
    EXPECT_TRUE(app.readAllStandardError().contains("invalid spec"));
    EXPECT_FALSE(QFile::exists(bad));
}

} // namespace

} // namespace test_export_settings_probe
