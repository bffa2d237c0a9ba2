#include "main_window.hpp"

#include "banks_pane.hpp"
#include "catalog_panel.hpp"
#include "cell_info.hpp"
#include "compare.hpp"
#include "copy_as_menu.hpp"
#include "descriptor_decoder.hpp"
#include "details_panel.hpp"
#include "gui_text.hpp"
#include "help_texts.hpp"
#include "instruction_header.hpp"
#include "legend_bar.hpp"
#include "pane_area.hpp"
#include "paste_layout_pane.hpp"
#include "probe_controller.hpp"
#include "probe_status.hpp"
#include "provenance.hpp"
#include "selections.hpp"
#include "theme.hpp"
#include "tile_picker.hpp"
#include "view_state.hpp"
#include "view_toolbar.hpp"
#include "window_keys.hpp"
#include "wmma_targets.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/write.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <stdexcept>

namespace lanemap::gui {

MainWindow::MainWindow(const Options& options, QWidget* parent) : QMainWindow(parent), m_options(options) {
    setObjectName(QStringLiteral("lanemapMainWindow"));
    setWindowTitle(QStringLiteral("lanemap"));
    setWindowIcon(QIcon(QStringLiteral(":/lanemap/lanemap.svg")));
    (void)systemTheme(); // remember the desktop's palette before the app sets its own
    m_state = new ViewState(this);
    m_probe = new ProbeController(this);
    QStringList reportErrors;
    m_probe->setRecorded(loadRecordedReports(m_options.recordedReports, &reportErrors));
    buildUi();
    buildActions();
    connect(m_probe, &ProbeController::finished, this, [this](bool cancelled) {
        m_actProbe->setEnabled(true);
        if (cancelled)
            statusBar()->showMessage(tr("Probe cancelled"), 5000);
        if (m_probe->hasLiveReport())
            m_area->applyVerdicts();
        updateProvenance();
    });
    if (!reportErrors.isEmpty())
        statusBar()->showMessage(
            tr("Skipped recorded probe reports: %1").arg(reportErrors.join(QStringLiteral("; "))), 10000);

    Preferences prefs;
    if (m_options.settings && m_options.restore)
        prefs = loadPreferences(*m_options.settings);
    applyPreferences(prefs);
    if (!m_state->instance())
        openSpec(Preferences().spec);
}

MainWindow::~MainWindow() = default;

// --- the shell ---------------------------------------------------------------------------------------------

void MainWindow::buildUi() {
    // Docks: the catalog and, under it, the Cell panel (the panes get the window's whole width, which a
    // 1280 px laptop needs); "Shared memory & banks" on the right while a matrix move is shown.
    auto dock = [this](const QString& title, const QString& objectName, QWidget* content,
                       Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(objectName);
        d->setWidget(content);
        d->toggleViewAction()->setText(QString(title).replace(QLatin1Char('&'), QStringLiteral("&&")));
        d->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                       QDockWidget::DockWidgetClosable);
        addDockWidget(area, d);
        m_docks.push_back(d);
        return d;
    };
    m_catalog = new CatalogPanel(m_state, this);
    connect(m_catalog, &CatalogPanel::selectionChosen, this, [this](const Selection& s) { openChosen(s); });
    QDockWidget* catalogDock =
        dock(tr("Catalog"), QStringLiteral("catalogDock"), m_catalog, Qt::LeftDockWidgetArea);
    m_details = new DetailsPanel(this);
    connect(m_state, &ViewState::cellChanged, m_details, &DetailsPanel::setCell);
    QDockWidget* detailsDock =
        dock(tr("Cell"), QStringLiteral("detailsDock"), m_details, Qt::LeftDockWidgetArea);
    splitDockWidget(catalogDock, detailsDock, Qt::Vertical);
    m_banks = dock(tr("Shared memory & banks"), QStringLiteral("banksDock"), new BanksPane(m_state, this),
                   Qt::RightDockWidgetArea);
    resizeDocks({m_banks}, {620}, Qt::Horizontal);
    m_banks->hide();
    // A whole tiled copy is wider than one instruction's chunks (the tile and its phase table side by side):
    // the dock widens once to 45 % of the window when one appears; the user's width is kept after that.
    // After the event loop has shown and sized the window (a command line's tile is set before either).
    connect(static_cast<BanksPane*>(m_banks->widget()), &BanksPane::analysisChanged, this, [this] {
        const bool copy = static_cast<BanksPane*>(m_banks->widget())->tiledCopy().has_value();
        if (copy && !m_banksWidened)
            QTimer::singleShot(0, this, [this] {
                if (const int want = width() * 45 / 100; m_banks->isVisible() && m_banks->width() < want)
                    resizeDocks({m_banks}, {want}, Qt::Horizontal);
            });
        m_banksWidened = copy;
    });
    m_pasteDock = dock(tr("Paste a layout"), QStringLiteral("pasteLayoutDock"),
                       new PasteLayoutPane(m_state, this), Qt::RightDockWidgetArea);
    resizeDocks({m_pasteDock}, {400}, Qt::Horizontal);
    m_pasteDock->hide();

    // Central: the header (spec, facts, legend, verdict line) over the panes (or the compare page).
    auto* central = new QWidget(this);
    auto* vl = new QVBoxLayout(central);
    vl->setContentsMargins(8, 6, 8, 4);
    vl->setSpacing(2);
    m_header = new InstructionHeader(m_state, central);
    vl->addWidget(m_header);
    m_area = new PaneArea(m_state, m_probe, central);
    vl->addWidget(m_area, 1);
    setCentralWidget(central);
    connect(m_area, &PaneArea::legendChanged, m_header->legend(), &LegendBar::setDiagram);
    connect(m_area, &PaneArea::message, statusBar(), &QStatusBar::showMessage);
    connect(m_area, &PaneArea::paramsChanged, this, [this](const Params& params) {
        QString error;
        if (!open(Selection{m_state->selection().variant, params}, &error))
            statusBar()->showMessage(error, 8000);
    });
    connect(m_area, &PaneArea::hovered, this, [this] { m_timing.hovered(); });
    connect(m_area, &PaneArea::painted, this, [this](const QObject* view, double ms) {
        QSet<const QObject*> visible;
        for (const DiagramView* v : m_area->views())
            if (v->isVisible())
                visible.insert(v);
        if (m_timing.painted(view, ms, visible))
            emit firstPaint();
    });
    connect(m_header, &InstructionHeader::nChosen, this, [this](int n) {
        QString error;
        if (!open(atN(m_state->selection(), n), &error))
            statusBar()->showMessage(error, 8000);
    });
    // The tile picker: the same selection with the tile typed; a tile the atom refuses keeps the view and
    // is named under the fields in the CLI's words.
    connect(m_header, &InstructionHeader::tileChosen, this, [this](const std::optional<tile::TileLayout>& t) {
        Selection tiled = m_state->selection();
        tiled.params.tile = t;
        QString error;
        if (tiled == m_state->selection())
            m_header->tilePicker()->showTile(t); // what is shown: its spelling as CuTe writes it
        else if (!open(tiled, &error)) {
            m_header->tilePicker()->setError(error);
            statusBar()->showMessage(error, 10000);
        }
    });
    WmmaTargetPicker* picker = m_header->targetPicker();
    connect(picker, &WmmaTargetPicker::targetChosen, this, [this](const QString& target) {
        Params params = m_state->selection().params;
        params.target = target.toStdString();
        QString error;
        if (!open(Selection{m_state->selection().variant, params}, &error))
            statusBar()->showMessage(error, 8000);
    });
    connect(picker, &WmmaTargetPicker::reportAdded, this, [this](const QString& target) {
        statusBar()->showMessage(tr("Discovery report for %1 added").arg(target), 5000);
    });

    // Status bar: the hover line left; the probe's status and progress right.
    auto* hoverStatus = new QLabel(this);
    hoverStatus->setObjectName(QStringLiteral("hoverStatus"));
    statusBar()->addWidget(hoverStatus, 1);
    connect(m_state, &ViewState::hoverTextChanged, hoverStatus, &QLabel::setText);
    m_probeStatus = new ProbeStatus(m_probe, statusBar());
    connect(m_state, &ViewState::pinnedLaneChanged, this, [this](int lane) {
        if (lane >= 0 && m_state->instance())
            statusBar()->showMessage(pinnedThreadText(*m_state->instance(), lane), 6000);
    });
    // After the panes and the header: what the window itself follows of the instance shown.
    connect(m_state, &ViewState::instanceChanged, this,
            [this](const auto&, bool newVariant) { followInstance(newVariant); });
}

void MainWindow::buildActions() {
    // File
    QMenu* file = menuBar()->addMenu(tr("&File"));
    auto exportAction = [this, file](const QString& text, const QString& suffix, const QString& filter,
                                     bool (MainWindow::*write)(const QString&, QString*) const) {
        return file->addAction(text, this, [this, text, suffix, filter, write] {
            const QString title = QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
            const QString path = QFileDialog::getSaveFileName(
                this, title, exportFolder() + QLatin1Char('/') + currentSpec() + suffix, filter);
            QString error;
            if (!path.isEmpty() && !(this->*write)(path, &error))
                QMessageBox::warning(this, title, error);
            else if (!path.isEmpty()) {
                rememberExportFolder(path);
                // An SVG holds the instance's operands only: said while a comparison is shown.
                const bool without = m_area->comparing() && suffix == QLatin1String(".svg");
                statusBar()->showMessage(
                    without ? tr("Wrote %1: %2 without the comparison (Export PNG or Copy image include it)")
                                  .arg(path, currentSpec())
                            : tr("Wrote %1").arg(path),
                    without ? 10000 : 5000);
            }
        });
    };
    QAction* exportSvgAct =
        exportAction(tr("Export &SVG…"), QStringLiteral(".svg"), tr("SVG (*.svg)"), &MainWindow::exportSvg);
    exportSvgAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* exportPngAct =
        exportAction(tr("Export &PNG…"), QStringLiteral(".png"), tr("PNG (*.png)"), &MainWindow::exportPng);
    exportPngAct->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addAction(tr("Open &discovery report…"), this,
                    [this] { m_header->targetPicker()->openReportDialog(); });
    m_recentMenu = file->addMenu(tr("&Recent instructions"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    // Edit
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Copy cell info"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                    &MainWindow::copyCellInfo);
    edit->addAction(tr("Copy &image"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C), this,
                    &MainWindow::copyImage)
        ->setObjectName(QStringLiteral("actionCopyImage"));
    edit->addAction(tr("&Find instruction"), QKeySequence::Find, m_catalog, &CatalogPanel::focusFilter);
    installCopyAs(*this, *edit, *file, *m_state); // Copy whole atom as CuTe/Triton/..., File > Export as

    // View
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QAction* zoomInAct = view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this, &MainWindow::zoomIn);
    QAction* zoomOutAct = view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, &MainWindow::zoomOut);
    QAction* fitAct =
        view->addAction(tr("&Fit readable"), QKeySequence(Qt::CTRL | Qt::Key_0), this, &MainWindow::fitAll);
    fitAct->setToolTip(tr("Whole diagram where its labels stay readable, else the smallest zoom that keeps "
                          "every label; the pane scrolls"));
    QAction* wholeAct =
        view->addAction(tr("Fit &all"), QKeySequence(Qt::CTRL | Qt::Key_9), this, &MainWindow::fitWhole);
    wholeAct->setToolTip(
        tr("Whole diagram in every pane; colour alone shows the pattern when labels cannot fit"));
    view->addSeparator();
    QMenu* colorMenu = view->addMenu(tr("&Color by"));
    m_colorGroup = new QActionGroup(this);
    for (ColorBy c : {ColorBy::Lane, ColorBy::Register, ColorBy::ThreadGroup, ColorBy::Warp,
                      ColorBy::Warpgroup, ColorBy::Thread}) {
        QAction* a = colorMenu->addAction(qs(toString(c)));
        a->setCheckable(true);
        a->setData(static_cast<int>(c));
        m_colorGroup->addAction(a);
        connect(a, &QAction::triggered, m_state, [this, c] { m_state->setColorBy(c); });
    }
    connect(m_state, &ViewState::colorByChanged, this, [this](ColorBy colorBy) {
        for (QAction* a : m_colorGroup->actions())
            a->setChecked(a->data().toInt() == static_cast<int>(colorBy));
    });
    auto toggle = [this, view](const QString& text, const QString& objectName, bool on, const QString& tip) {
        QAction* a = view->addAction(text);
        a->setObjectName(objectName);
        a->setCheckable(true);
        a->setChecked(on);
        a->setToolTip(tip);
        return a;
    };
    m_actColorBlind = toggle(tr("Color-&blind palette"), QString(), false, QString());
    connect(m_actColorBlind, &QAction::toggled, m_state,
            [this](bool on) { m_state->setPalette(on ? Palette::ColorBlind : Palette::Default); });
    connect(m_state, &ViewState::paletteChanged, this, [this](Palette palette) {
        const QSignalBlocker block(m_actColorBlind);
        m_actColorBlind->setChecked(palette == Palette::ColorBlind);
    });
    m_actLabels = toggle(tr("Cell &labels"), QString(), true, QString());
    connect(m_actLabels, &QAction::toggled, m_state, &ViewState::setShowLabels);
    connect(m_state, &ViewState::showLabelsChanged, this, [this](bool on) {
        const QSignalBlocker block(m_actLabels);
        m_actLabels->setChecked(on);
    });
    m_actMarks = toggle(tr("Probe &marks"), QStringLiteral("actionProbeMarks"), true,
                        tr("Frame the cells where the hardware report disagrees with the layout"));
    connect(m_actMarks, &QAction::toggled, m_area, &PaneArea::setMarksShown);
    m_actBands = toggle(tr("&Wrap long rows into bands"), QStringLiteral("actionWrapBands"), true,
                        tr("Draw a grid much wider than its pane as bands of columns, one under the other, "
                           "each with its column numbers, where that shows it larger"));
    connect(m_actBands, &QAction::toggled, m_area, &PaneArea::setWrapBands);
    QMenu* panels = view->addMenu(tr("&Panels"));
    panels->setObjectName(QStringLiteral("panelsMenu"));
    for (QDockWidget* d : m_docks)
        panels->addAction(d->toggleViewAction());
    m_actDark = toggle(tr("&Dark theme"), QString(), false, QString());
    m_actDark->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_actDark, &QAction::toggled, this,
            [this](bool on) { setTheme(on ? Theme::Dark : Theme::Light); });
    m_actSystemTheme =
        toggle(tr("Follow &system theme"), QStringLiteral("actionSystemTheme"), m_themeFollowsSystem,
               tr("Light or dark as the desktop is; choosing a theme turns this off"));
    connect(m_actSystemTheme, &QAction::toggled, this, &MainWindow::setThemeFollowsSystem);

    // Tools
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    m_actProbe = tools->addAction(tr("&Probe hardware"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this,
                                  &MainWindow::probeHardware);
    m_actProbe->setToolTip(
        tr("Run every variant on the GPU and check each cell against the layout (needs CUDA and a GPU)"));
    tools->addAction(tr("Paste a &layout…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L), this, [this] {
        m_pasteDock->show();
        m_pasteDock->raise();
        m_pasteDock->widget()->findChild<QWidget*>(QStringLiteral("pasteLayoutText"))->setFocus();
    });
    tools->addAction(tr("&Decode descriptor (tcgen05, wgmma)…"), this, [this] {
        // One decoder per window, kept open beside the diagram (non-modal).
        auto* decoder = findChild<DescriptorDecoder*>();
        if (!decoder)
            decoder = new DescriptorDecoder(this);
        decoder->show();
        decoder->activateWindow(); // brings an open one forward
    });

    // Go: a browsing tool's history.
    QMenu* go = menuBar()->addMenu(tr("&Go"));
    m_actBack = go->addAction(tr("&Back"), QKeySequence::Back, this, &MainWindow::goBack);
    m_actBack->setObjectName(QStringLiteral("actionBack"));
    m_actForward = go->addAction(tr("&Forward"), QKeySequence::Forward, this, &MainWindow::goForward);
    m_actForward->setObjectName(QStringLiteral("actionForward"));
    m_actBack->setEnabled(false);
    m_actForward->setEnabled(false);

    // Help
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, [this] {
        auto* box = new QMessageBox(QMessageBox::NoIcon, tr("Keyboard shortcuts"), shortcutsText(*menuBar()),
                                    QMessageBox::Close, this);
        box->setObjectName(QStringLiteral("shortcutsDialog"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
    });
    keys->setObjectName(QStringLiteral("actionShortcuts"));
    help->addAction(tr("Quick &guide"), this,
                    [this] { QMessageBox::information(this, tr("lanemap quick guide"), quickGuideText()); });
    help->addAction(tr("PTX manual section of this instruction"), this, [this] {
        if (const Instruction* in = instruction())
            openLink(this, manualUrl(qs(in->anchor)));
    });
    help->addAction(tr("&About lanemap"), this,
                    [this] { QMessageBox::about(this, tr("About lanemap"), aboutText()); });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    // Toolbar: colour, lanes, selector, zoom, compare; export, probe, theme.
    m_toolbar = new ViewToolBar(m_state, {zoomInAct, zoomOutAct, fitAct, wholeAct}, this);
    addToolBar(m_toolbar);
    connect(m_toolbar, &ViewToolBar::laneFilterEdited, this,
            [this](const QString& text) { setLaneFilter(text); });
    connect(m_toolbar, &ViewToolBar::compareEdited, this, [this](const QString& text) {
        QString error;
        if (!setCompare(text, &error))
            statusBar()->showMessage(error, 10000);
        else
            statusBar()->clearMessage(); // an earlier error no longer applies
    });
    m_toolbar->addAction(exportSvgAct);
    m_toolbar->addAction(exportPngAct);
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_actProbe);
    m_toolbar->addAction(m_actDark);
    installWindowKeys(*this, *view, *m_state, *m_area); // Esc unpins, F6 focuses the panes
}

// --- opening -----------------------------------------------------------------------------------------------

bool MainWindow::openSpec(const QString& text, QString* error, const std::optional<tile::TileLayout>& tile) {
    Selection selection = parseSelection(text, error);
    if (selection && tile)
        selection.params.tile = tile;
    return selection && openChosen(selection, error);
}

bool MainWindow::setTiledCopy(const QString& feeds, const std::optional<tile::TileLayout>& tile,
                              QString* error) {
    auto* banks = static_cast<BanksPane*>(m_banks->widget());
    if (!banks->applies()) {
        if (error)
            *error = tr("--feeds and a tile of the copy apply to an ldmatrix or stmatrix spec (the Shared "
                        "memory & banks pane); %1 moves nothing through shared memory")
                         .arg(currentSpec());
        return false;
    }
    if (!feeds.isEmpty() && !banks->setFeeds(feeds, error))
        return false;
    banks->setTile(tile);
    return true;
}

bool MainWindow::openChosen(const Selection& selection, QString* error) {
    const Selection& shown = m_state->selection();
    if (m_state->instance() && namesSameView(selection, shown))
        return true; // what is open already: its view stays as the user set it
    return open(withViewDefaults(selection, shown.params), error);
}

bool MainWindow::open(const Selection& selection, QString* error) {
    std::shared_ptr<const Instruction> instance;
    try {
        instance = instantiate(selection); // validated by the variant's family
    } catch (const std::invalid_argument& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    m_timing.select();
    m_state->setInstance(selection, std::move(instance));
    return true;
}

void MainWindow::showInstruction(const Instruction& instruction) {
    m_timing.select();
    m_state->setInstance(Selection{}, std::make_shared<const Instruction>(instruction));
}

const Instruction* MainWindow::instruction() const {
    return m_state->instance().get();
}

QString MainWindow::currentSpec() const {
    return instruction() ? QString::fromStdString(instruction()->spec) : QString();
}

void MainWindow::followInstance(bool newVariant) {
    const Instruction& in = *m_state->instance();
    const Selection& selection = m_state->selection();
    QSet<const QObject*> views;
    for (const DiagramView* v : m_area->views())
        views.insert(v);
    m_timing.await(views);
    m_details->clear();
    setWindowTitle(QStringLiteral("%1 — lanemap").arg(specText(in)));
    if (auto* banks = static_cast<BanksPane*>(m_banks->widget())) {
        banks->setVariant(Catalog::instance().variant(in.spec));
        m_banks->setVisible(banks->applies());
    }
    updateProvenance();
    // Back / Forward and Recent: a variant opened is a visit; other parameters of it update the visit.
    if (selection) {
        if (newVariant)
            m_history.visit(selection, specText(in));
        else
            m_history.update(selection, specText(in));
    }
    m_actBack->setEnabled(m_history.canGoBack());
    m_actForward->setEnabled(m_history.canGoForward());
    m_recentMenu->clear();
    for (const History::Entry& entry : m_history.recent())
        m_recentMenu->addAction(entry.label, this, [this, s = entry.selection] { open(s); });
}

void MainWindow::updateProvenance() {
    if (!instruction())
        return;
    const Provenance p = provenanceOf(*instruction(), *m_probe);
    if (!m_probe->running())
        m_header->setVerdictLine(p.verdictLine);
    m_probeStatus->setProvenance(p.status, p.statusToolTip);
}

void MainWindow::goBack() {
    if (const std::optional<Selection> s = m_history.back())
        open(*s);
}

void MainWindow::goForward() {
    if (const std::optional<Selection> s = m_history.forward())
        open(*s);
}

bool MainWindow::setCompare(const QString& spec, QString* error) {
    if (spec.trimmed().isEmpty()) {
        m_state->setCompare({}, nullptr);
        return true;
    }
    const Selection partner = parseSelection(spec, error);
    if (!partner)
        return false;
    try {
        std::shared_ptr<const Instruction> other = instantiate(partner);
        // No register operand in common: a TMA box and the wgmma/tcgen05/ldmatrix operand that reads it
        // compare in shared memory (docs/tma.md#feeds).
        if (instruction() && !comparedOperand(*instruction(), *other, m_state->compareOperand()) &&
            !sharedMemoryFeed(m_state->selection(), partner, m_state->compareOperand())) {
            if (error)
                *error = noOperandInCommon(*instruction(), *other);
            return false;
        }
        m_state->setCompare(partner, std::move(other));
    } catch (const std::invalid_argument& e) {
        if (error)
            *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

bool MainWindow::setLaneFilter(const QString& lanes, QString* error) {
    const QString text = lanes.trimmed();
    std::vector<int> threads;
    if (!text.isEmpty() && text != QLatin1String("all")) {
        std::string message;
        const auto parsed =
            parseLaneList(text.toStdString(), instruction() ? instruction()->threads : 128, message);
        if (!parsed) {
            m_toolbar->setLaneError(QString::fromStdString(message));
            statusBar()->showMessage(QString::fromStdString(message), 8000);
            if (error)
                *error = QString::fromStdString(message);
            return false;
        }
        threads = *parsed;
    }
    m_toolbar->setLaneError(QString());
    m_state->setLanes(text, std::move(threads));
    return true;
}

bool MainWindow::hover(const QString& pane, int row, int col, QString* panes) {
    Pane* p = m_area->pane(pane);
    const Diagram* d = p ? p->view()->diagram() : nullptr;
    int found = -1;
    for (std::size_t i = 0; d && i < d->cells.size() && found < 0; ++i)
        if (d->cells[i].row == row && d->cells[i].col <= col && col <= d->cells[i].colLast)
            found = static_cast<int>(i);
    if (found < 0) {
        if (panes) {
            QStringList labels;
            for (const Pane* each : m_area->panes())
                labels << each->label();
            *panes = labels.join(QStringLiteral(", "));
        }
        return false;
    }
    // Focused, so the cursor (and a composed view's partner cell) is drawn as on hover.
    activateWindow();
    p->view()->setFocus(Qt::OtherFocusReason);
    p->view()->setCursorCell(found);
    p->hoverCell(found);
    return true;
}

// --- view --------------------------------------------------------------------------------------------------

void MainWindow::setTheme(Theme theme) {
    m_themeFollowsSystem = false;
    const QSignalBlocker block(m_actSystemTheme);
    m_actSystemTheme->setChecked(false);
    applyTheme(theme);
}

void MainWindow::setThemeFollowsSystem(bool on) {
    m_themeFollowsSystem = on;
    const QSignalBlocker block(m_actSystemTheme);
    m_actSystemTheme->setChecked(on);
    if (on)
        applyTheme(m_options.systemTheme.value_or(systemTheme()));
}

void MainWindow::applyTheme(Theme theme) {
    m_state->setTheme(theme); // panes, legend and catalog follow
    qApp->setPalette(windowPalette(theme));
    const QSignalBlocker block(m_actDark);
    m_actDark->setChecked(theme == Theme::Dark);
}

Theme MainWindow::theme() const {
    return m_state->theme();
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    // The desktop switched light/dark while the app runs: follow it, unless the user picked a theme.
    if (event->type() == QEvent::ThemeChange && m_themeFollowsSystem && m_state) {
        const Theme desktop = m_options.desktopTheme ? m_options.desktopTheme() : currentDesktopTheme();
        if (desktop != theme())
            applyTheme(desktop);
    }
}

void MainWindow::setWrapBands(bool on) {
    m_actBands->setChecked(on);
}

bool MainWindow::wrapBands() const {
    return m_actBands->isChecked();
}

void MainWindow::zoomIn() {
    m_area->zoomBy(1.25);
}
void MainWindow::zoomOut() {
    m_area->zoomBy(0.8);
}
void MainWindow::fitAll() {
    m_area->fit(DiagramView::FitMode::Readable);
}
void MainWindow::fitWhole() {
    m_area->fit(DiagramView::FitMode::All); // bands make a whole long grid's cells larger
}

void MainWindow::copyCellInfo() {
    m_details->copyToClipboard();
    if (m_details->cell().valid)
        statusBar()->showMessage(tr("Copied the cell's details"), 3000);
}

QString MainWindow::aboutText() const {
    return lanemap::gui::aboutText();
}

// --- settings ----------------------------------------------------------------------------------------------

Preferences MainWindow::preferences() const {
    Preferences p = m_prefs;
    if (instruction())
        p.spec = specText(*instruction());
    p.theme = m_state->theme();
    p.themeFollowsSystem = m_themeFollowsSystem;
    p.colorBy = m_state->colorBy();
    p.palette = m_state->palette();
    p.showLabels = m_state->showLabels();
    p.selector = m_state->selector();
    p.laneFilter = m_state->lanesText();
    p.pinnedThread = m_state->pinnedLane();
    // A pasted layout (spec "layout") is no spec to open again.
    p.compareSpec = m_state->compareInstance() && m_state->compare().variant &&
                            m_state->compareInstance()->spec != "layout"
                        ? specText(*m_state->compareInstance())
                        : QString();
    bool fit = true;
    for (const Pane* pane : m_area->panes()) {
        fit = fit && pane->view()->fitting();
        if (!pane->view()->fitting())
            p.zoom = pane->view()->zoom();
    }
    p.fitToPane = fit;
    p.geometry = saveGeometry();
    p.windowState = saveState();
    return p;
}

void MainWindow::applyPreferences(const Preferences& prefs) {
    m_prefs = prefs;
    if (prefs.themeFollowsSystem)
        setThemeFollowsSystem(true);
    else
        setTheme(prefs.theme);
    m_state->setShowLabels(prefs.showLabels);
    m_state->setColorBy(prefs.colorBy);
    m_state->setPalette(prefs.palette);
    m_state->setSelector(prefs.selector); // before the first instance: taken as it is
    if (!prefs.geometry.isEmpty())
        restoreGeometry(prefs.geometry);
    if (!prefs.windowState.isEmpty())
        restoreState(prefs.windowState);
    // The lane filter and the selector are validated against the instruction they apply to.
    QString error;
    if (!openSpec(prefs.spec, &error)) {
        statusBar()->showMessage(
            tr("Last instruction '%1' is not in this catalog: %2").arg(prefs.spec, error), 8000);
        openSpec(Preferences().spec);
    }
    if (!prefs.laneFilter.isEmpty())
        setLaneFilter(prefs.laneFilter);
    m_state->setSelector(prefs.selector);
    m_state->setPinnedLane(prefs.pinnedThread);
    if (!prefs.compareSpec.isEmpty())
        setCompare(prefs.compareSpec);
    if (!prefs.fitToPane)
        m_area->restoreZoom(prefs.zoom);
}

void MainWindow::savePreferences() {
    if (!m_options.settings)
        return;
    const QString error = lanemap::gui::savePreferences(*m_options.settings, preferences());
    if (error.isEmpty())
        return;
    qWarning("lanemap: %s", qPrintable(error)); // the log: on close the status bar is gone with the window
    statusBar()->showMessage(error, 10000);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_probe->running())
        m_probe->cancel();
    savePreferences();
    QMainWindow::closeEvent(event);
}

QString MainWindow::exportFolder() const {
    const QString folder = m_options.settings
                               ? m_options.settings->value(QStringLiteral("export/folder")).toString()
                               : QString();
    return folder.isEmpty() || !QFileInfo(folder).isDir() ? QDir::currentPath() : folder;
}

void MainWindow::rememberExportFolder(const QString& path) {
    if (m_options.settings)
        m_options.settings->setValue(QStringLiteral("export/folder"), QFileInfo(path).absolutePath());
}

// --- probe and export --------------------------------------------------------------------------------------

void MainWindow::probeHardware() {
    if (m_probe->running())
        return;
    const std::vector<const Variant*>& variants = Catalog::instance().variants();
    m_probeStatus->started(static_cast<int>(variants.size()));
    m_actProbe->setEnabled(false);
    m_probe->start(variants);
}

Diagram MainWindow::exportDiagram() const {
    return m_area->exportDiagram();
}

bool MainWindow::exportSvg(const QString& path, QString* error) const {
    if (!instruction()) {
        if (error)
            *error = tr("no instruction is open");
        return false;
    }
    const std::string failure = writeFile(path.toStdString(), toSvg(exportDiagram()));
    if (!failure.empty() && error)
        *error = QString::fromStdString(failure);
    return failure.empty();
}

bool MainWindow::exportPng(const QString& path, QString* error) const {
    if (!instruction()) {
        if (error)
            *error = tr("no instruction is open");
        return false;
    }
    const QImage image = m_area->picture();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        if (error)
            *error = tr("could not encode the PNG (%1x%2)").arg(image.width()).arg(image.height());
        return false;
    }
    const std::string failure = writeFile(
        path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    if (!failure.empty() && error)
        *error = QString::fromStdString(failure);
    return failure.empty();
}

void MainWindow::copyImage() {
    if (!instruction())
        return;
    QApplication::clipboard()->setImage(m_area->picture());
    statusBar()->showMessage(m_area->comparing()
                                 ? tr("Copied the comparison of %1 with %2")
                                       .arg(currentSpec(), specText(*m_state->compareInstance()))
                                 : tr("Copied the picture of %1").arg(currentSpec()),
                             3000);
}

} // namespace lanemap::gui
