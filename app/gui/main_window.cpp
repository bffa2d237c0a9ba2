#include "main_window.hpp"

#include "banks_pane.hpp"
#include "catalog_delegate.hpp"
#include "catalog_model.hpp"
#include "cell_info.hpp"
#include "compare.hpp"
#include "copy_as_menu.hpp"
#include "descriptor_decoder.hpp"
#include "details_panel.hpp"
#include "legend_bar.hpp"
#include "pane_frame.hpp"
#include "probe_controller.hpp"
#include "theme.hpp"
#include "view_state.hpp"
#include "wmma_targets.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/diagram_bands.hpp"
#include "lanemap/evidence.hpp"
#include "lanemap/export.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/verdict.hpp"
#include "lanemap/version.hpp"
#include "lanemap/wmma.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>

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
} // namespace

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// "A, B, C, D", or "none" for a view with no register operand.
QString operandList(const Instruction& in) {
    QStringList names;
    for (const FragmentLayout& op : in.operands)
        names << qs(op.name());
    return names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", "));
}

QLabel* makeLabel(const QString& objectName, QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    return l;
}

} // namespace

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
    connectViewState();
    connect(m_probe, &ProbeController::progress, this, [this](int done, int total, const QString& spec) {
        m_probeProgress->setRange(0, total);
        m_probeProgress->setValue(done);
        m_probeStatus->setText(tr("probing %1 (%2/%3)").arg(spec).arg(done).arg(total));
    });
    connect(m_probe, &ProbeController::unavailable, this, [this](const QString& reason) {
        // A non-modal notice in plain words (the technical reason under "Show Details"); the status area
        // keeps the variant's provenance.
        if (!m_probeNotice) {
            m_probeNotice = new QMessageBox(QMessageBox::Information, tr("Probe hardware"), QString(),
                                            QMessageBox::Close, this);
            m_probeNotice->setObjectName(QStringLiteral("probeNotice"));
            m_probeNotice->setWindowModality(Qt::NonModal);
            m_probeNotice->setModal(false);
        }
        m_probeNotice->setText(plainUnavailable(reason));
        m_probeNotice->setDetailedText(reason);
        m_probeNotice->show();
        updateProbeStatus();
    });
    connect(m_probe, &ProbeController::finished, this, [this](bool cancelled) {
        m_probeProgress->hide();
        m_probeCancel->hide();
        m_actProbe->setEnabled(true);
        if (cancelled)
            statusBar()->showMessage(tr("Probe cancelled"), 5000);
        if (m_probe->hasLiveReport()) {
            applyVerdictMarks();
            updateProbeStatus();
        }
    });
    if (!reportErrors.isEmpty())
        statusBar()->showMessage(
            tr("Skipped recorded probe reports: %1").arg(reportErrors.join(QStringLiteral("; "))), 10000);

    Preferences prefs;
    if (m_options.settings && m_options.restore)
        prefs = loadPreferences(*m_options.settings);
    applyPreferences(prefs);
    if (!m_instruction)
        openSpec(Preferences().spec);
}

MainWindow::~MainWindow() = default;

// --- UI --------------------------------------------------------------------------------------------------

void MainWindow::buildUi() {
    const Catalog& catalog = Catalog::instance();

    // Catalog dock: filter box, inline parse error, tree with min-SM badges.
    auto* catalogWidget = new QWidget(this);
    auto* cl = new QVBoxLayout(catalogWidget);
    cl->setContentsMargins(6, 6, 6, 6);
    cl->setSpacing(4);
    m_filter = new QLineEdit(catalogWidget);
    m_filter->setObjectName(QStringLiteral("filter"));
    m_filter->setPlaceholderText(tr("Filter, e.g. m16n8k16 bf16 — or paste a PTX instruction"));
    m_filter->setClearButtonEnabled(true);
    m_filterError = new QLabel(catalogWidget);
    m_filterError->setObjectName(QStringLiteral("filterError"));
    m_filterError->setWordWrap(true);
    m_filterError->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filterError->setStyleSheet(QStringLiteral("QLabel { color: #d23c3c; }"));
    m_filterError->hide();
    // Zero hits: what was probably meant, and the nearest specs as links that open them.
    m_filterHint = new QLabel(catalogWidget);
    m_filterHint->setObjectName(QStringLiteral("filterHint"));
    m_filterHint->setWordWrap(true);
    m_filterHint->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_filterHint->hide();
    connect(m_filterHint, &QLabel::linkActivated, this, [this](const QString& spec) { openSpec(spec); });
    m_filterCount = new QLabel(catalogWidget);
    m_filterCount->setObjectName(QStringLiteral("filterCount"));
    m_filterCount->setEnabled(false);
    m_catalogModel = new CatalogModel(catalog, this);
    m_filterModel = new CatalogFilterModel(catalog, this);
    m_filterModel->setSourceModel(m_catalogModel);
    m_tree = new QTreeView(catalogWidget);
    m_tree->setObjectName(QStringLiteral("catalogTree"));
    m_tree->setModel(m_filterModel);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setItemDelegate(new CatalogDelegate(m_tree));
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setMinimumWidth(250);
    cl->addWidget(m_filter);
    cl->addWidget(m_filterError);
    cl->addWidget(m_filterHint);
    cl->addWidget(m_tree, 1);
    cl->addWidget(m_filterCount);
    auto* catalogDock = new QDockWidget(tr("Catalog"), this);
    catalogDock->setObjectName(QStringLiteral("catalogDock"));
    catalogDock->setWidget(catalogWidget);
    catalogDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                             QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, catalogDock);
    connect(m_filter, &QLineEdit::textChanged, this, &MainWindow::onFilterChanged);
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        // Enter opens the only match (or the parsed instruction: the text itself, which may name a
        // tcgen05.mma's N).
        if (!m_filterModel->parsedSpec().isEmpty())
            openSpec(m_filter->text());
        else if (m_filterModel->matchingVariants() >= 1) {
            QModelIndex idx = m_filterModel->index(0, 0);
            while (m_filterModel->hasChildren(idx))
                idx = m_filterModel->index(0, 0, idx);
            openSpec(idx.data(CatalogModel::SpecRole).toString());
        }
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { onTreeCurrentChanged(current); });
    onFilterChanged(QString());

    // Details dock.
    m_details = new DetailsPanel(this);
    connect(m_state, &ViewState::cellChanged, m_details, &DetailsPanel::setCell);
    auto* detailsDock = new QDockWidget(tr("Cell"), this);
    detailsDock->setObjectName(QStringLiteral("detailsDock"));
    detailsDock->setWidget(m_details);
    detailsDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                             QDockWidget::DockWidgetClosable);
    // Under the catalog by default: the panes get the window's whole width, which a 1280 px laptop needs.
    addDockWidget(Qt::LeftDockWidgetArea, detailsDock);
    splitDockWidget(catalogDock, detailsDock, Qt::Vertical);
    // Shared memory & banks: shown while the current instruction is an ldmatrix / stmatrix (banks_pane.hpp).
    auto* banksPane = new BanksPane(m_state, this);
    auto* banksDock = new QDockWidget(tr("Shared memory & banks"), this);
    banksDock->setObjectName(QStringLiteral("banksDock"));
    banksDock->setWidget(banksPane);
    banksDock->setFeatures(detailsDock->features());
    addDockWidget(Qt::RightDockWidgetArea, banksDock);
    resizeDocks({banksDock}, {620}, Qt::Horizontal);
    banksDock->hide();
    m_docks = {catalogDock, detailsDock, banksDock};
    connect(this, &MainWindow::instructionChanged, banksPane, [banksPane, banksDock](const QString& spec) {
        banksPane->setVariant(Catalog::instance().variant(spec.toStdString()));
        banksDock->setVisible(banksPane->applies());
    });

    // Central: header, legend strip, panes (or compare page).
    auto* central = new QWidget(this);
    auto* vl = new QVBoxLayout(central);
    vl->setContentsMargins(8, 6, 8, 4);
    vl->setSpacing(2);
    m_title = makeLabel(QStringLiteral("title"), central);
    QFont tf = m_title->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.45);
    tf.setBold(true);
    m_title->setFont(tf);
    m_ptx = makeLabel(QStringLiteral("ptx"), central);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(m_ptx->font().pointSizeF());
    m_ptx->setFont(mono);
    m_facts = makeLabel(QStringLiteral("facts"), central);
    m_facts->setOpenExternalLinks(true);
    m_notes = makeLabel(QStringLiteral("notes"), central);
    m_notes->setWordWrap(true);
    m_notes->setOpenExternalLinks(true);
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title);
    titleRow->addSpacing(12);
    titleRow->addWidget(m_ptx, 1);
    vl->addLayout(titleRow);
    // Notes and errata fold into one button on the facts line: provenance is never above the grids unless
    // asked for (a sparse variant has six to nine lines of it).
    m_notesToggle = new QToolButton(central);
    m_notesToggle->setObjectName(QStringLiteral("notesToggle"));
    m_notesToggle->setCheckable(true);
    m_notesToggle->setAutoRaise(true);
    m_notesToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_notesToggle->setArrowType(Qt::RightArrow);
    connect(m_notesToggle, &QToolButton::toggled, this, [this](bool on) {
        m_notesToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        m_notes->setVisible(on && !m_notes->text().isEmpty());
    });
    auto* factsRow = new QHBoxLayout;
    factsRow->addWidget(m_facts);
    factsRow->addSpacing(12);
    factsRow->addWidget(m_notesToggle);
    // wmma: which SASS target's discovered layout is shown, when reports for several exist.
    m_wmmaTarget = new WmmaTargetPicker(central);
    factsRow->addWidget(m_wmmaTarget);
    connect(this, &MainWindow::instructionChanged, m_wmmaTarget,
            [this] { m_wmmaTarget->setInstruction(m_instruction); });
    connect(m_wmmaTarget, &WmmaTargetPicker::instructionChosen, this,
            [this](const Instruction& in) { showInstruction(in); });
    connect(m_wmmaTarget, &WmmaTargetPicker::reportAdded, this, [this](const QString& target) {
        statusBar()->showMessage(tr("Discovery report for %1 added").arg(target), 5000);
    });
    factsRow->addStretch(1);
    vl->addLayout(factsRow);
    vl->addWidget(m_notes);
    m_legend = new LegendBar(central);
    m_legend->setObjectName(QStringLiteral("legend"));
    vl->addWidget(m_legend);
    m_verdictLine = makeLabel(QStringLiteral("verdictLegend"), central);
    m_verdictLine->setWordWrap(true);
    m_verdictLine->hide();
    vl->addWidget(m_verdictLine);
    connect(m_legend, &LegendBar::laneHovered, m_state, &ViewState::setHoveredLane);
    connect(m_legend, &LegendBar::laneClicked, this,
            [this](int lane) { setPinnedThread(lane == m_state->pinnedLane() ? -1 : lane); });

    m_stack = new QStackedWidget(central);
    m_paneSplitter = new QSplitter(Qt::Horizontal, m_stack);
    m_paneSplitter->setObjectName(QStringLiteral("panes"));
    m_paneSplitter->setChildrenCollapsible(false);
    m_leftColumn = new QSplitter(Qt::Vertical, m_paneSplitter);
    m_rightColumn = new QSplitter(Qt::Vertical, m_paneSplitter);
    m_leftColumn->setChildrenCollapsible(false);
    m_rightColumn->setChildrenCollapsible(false);
    m_stack->addWidget(m_paneSplitter);

    m_comparePage = new QWidget(m_stack);
    auto* cpl = new QVBoxLayout(m_comparePage);
    cpl->setContentsMargins(0, 0, 0, 0);
    m_compareSummary = makeLabel(QStringLiteral("compareSummary"), m_comparePage);
    m_compareSummary->setWordWrap(true);
    cpl->addWidget(m_compareSummary);
    m_compareSplitter = new QSplitter(Qt::Horizontal, m_comparePage);
    m_compareSplitter->setChildrenCollapsible(false);
    cpl->addWidget(m_compareSplitter, 1);
    m_stack->addWidget(m_comparePage);
    vl->addWidget(m_stack, 1);
    setCentralWidget(central);

    // Status bar: hover summary left; zoom, probe status and progress right.
    m_hoverStatus = new QLabel(this);
    m_hoverStatus->setObjectName(QStringLiteral("hoverStatus"));
    statusBar()->addWidget(m_hoverStatus, 1);
    m_probeStatus = new QLabel(this);
    m_probeStatus->setObjectName(QStringLiteral("probeStatus"));
    statusBar()->addPermanentWidget(m_probeStatus);
    m_probeProgress = new QProgressBar(this);
    m_probeProgress->setMaximumWidth(160);
    m_probeProgress->setTextVisible(true);
    m_probeProgress->hide();
    statusBar()->addPermanentWidget(m_probeProgress);
    m_probeCancel = new QToolButton(this);
    m_probeCancel->setText(tr("Cancel"));
    m_probeCancel->hide();
    connect(m_probeCancel, &QToolButton::clicked, m_probe, &ProbeController::cancel);
    statusBar()->addPermanentWidget(m_probeCancel);
}

void MainWindow::buildActions() {
    // File
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* exportSvgAct = file->addAction(tr("Export &SVG…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export SVG"),
            exportFolder() + QLatin1Char('/') + currentSpec() + QStringLiteral(".svg"), tr("SVG (*.svg)"));
        QString error;
        if (!path.isEmpty() && !exportSvg(path, &error))
            QMessageBox::warning(this, tr("Export SVG"), error);
        else if (!path.isEmpty()) {
            rememberExportFolder(path);
            statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
        }
    });
    exportSvgAct->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction* exportPngAct = file->addAction(tr("Export &PNG…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export PNG"),
            exportFolder() + QLatin1Char('/') + currentSpec() + QStringLiteral(".png"), tr("PNG (*.png)"));
        QString error;
        if (!path.isEmpty() && !exportPng(path, &error))
            QMessageBox::warning(this, tr("Export PNG"), error);
        else if (!path.isEmpty()) {
            rememberExportFolder(path);
            statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
        }
    });
    exportPngAct->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    file->addAction(tr("Open &discovery report…"), this, [this] { m_wmmaTarget->openReportDialog(); });
    m_recentMenu = file->addMenu(tr("&Recent instructions"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    // Edit
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Copy cell info"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                    &MainWindow::copyCellInfo);
    QAction* copyImage = edit->addAction(tr("Copy &image"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_C),
                                         this, &MainWindow::copyImage);
    copyImage->setObjectName(QStringLiteral("actionCopyImage"));
    edit->addAction(tr("&Find instruction"), QKeySequence::Find, this, [this] {
        m_filter->setFocus();
        m_filter->selectAll();
    });
    installCopyAs(*this, *edit, *file); // Copy as CuTe/Triton/CUDA/Markdown, File > Export as (copy_as.cpp)

    // View
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this, &MainWindow::zoomIn);
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, &MainWindow::zoomOut);
    view->addAction(tr("&Fit readable"), QKeySequence(Qt::CTRL | Qt::Key_0), this, &MainWindow::fitAll)
        ->setToolTip(tr("Whole diagram where its labels stay readable, else the smallest zoom that keeps "
                        "every label; the pane scrolls"));
    view->addAction(tr("Fit &all"), QKeySequence(Qt::CTRL | Qt::Key_9), this, &MainWindow::fitWhole)
        ->setToolTip(
            tr("Whole diagram in every pane; colour alone shows the pattern when labels cannot fit"));
    view->addSeparator();
    QMenu* colorMenu = view->addMenu(tr("&Color by"));
    m_colorGroup = new QActionGroup(this);
    for (ColorBy c : {ColorBy::Lane, ColorBy::Register, ColorBy::ThreadGroup}) {
        QAction* a = colorMenu->addAction(qs(toString(c)));
        a->setCheckable(true);
        a->setData(static_cast<int>(c));
        m_colorGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, c] { setColorBy(c); });
    }
    m_actColorBlind = view->addAction(tr("Color-&blind palette"));
    m_actColorBlind->setCheckable(true);
    connect(m_actColorBlind, &QAction::toggled, this,
            [this](bool on) { setPalette(on ? Palette::ColorBlind : Palette::Default); });
    m_actLabels = view->addAction(tr("Cell &labels"));
    m_actLabels->setCheckable(true);
    m_actLabels->setChecked(true);
    connect(m_actLabels, &QAction::toggled, this, &MainWindow::setShowLabels);
    m_actMarks = view->addAction(tr("Probe &marks"));
    m_actMarks->setObjectName(QStringLiteral("actionProbeMarks"));
    m_actMarks->setCheckable(true);
    m_actMarks->setChecked(true);
    m_actMarks->setToolTip(tr("Frame the cells where the hardware report disagrees with the layout"));
    connect(m_actMarks, &QAction::toggled, this, [this] { applyVerdictMarks(); });
    m_actBands = view->addAction(tr("&Wrap long rows into bands"));
    m_actBands->setObjectName(QStringLiteral("actionWrapBands"));
    m_actBands->setCheckable(true);
    m_actBands->setChecked(true);
    m_actBands->setToolTip(tr("Draw a grid much wider than its pane as bands of columns, one under the "
                              "other, each with its column numbers, where that shows it larger"));
    connect(m_actBands, &QAction::toggled, this, [this] { updateBands(); });
    m_bandTimer = new QTimer(this);
    m_bandTimer->setSingleShot(true);
    m_bandTimer->setInterval(120);
    connect(m_bandTimer, &QTimer::timeout, this, &MainWindow::updateBands);
    QMenu* panels = view->addMenu(tr("&Panels"));
    panels->setObjectName(QStringLiteral("panelsMenu"));
    for (QDockWidget* dock : m_docks)
        panels->addAction(dock->toggleViewAction());
    m_actDark = view->addAction(tr("&Dark theme"));
    m_actDark->setCheckable(true);
    m_actDark->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_actDark, &QAction::toggled, this,
            [this](bool on) { setTheme(on ? Theme::Dark : Theme::Light); });
    m_actSystemTheme = view->addAction(tr("Follow &system theme"));
    m_actSystemTheme->setObjectName(QStringLiteral("actionSystemTheme"));
    m_actSystemTheme->setCheckable(true);
    m_actSystemTheme->setChecked(m_themeFollowsSystem);
    m_actSystemTheme->setToolTip(tr("Light or dark as the desktop is; choosing a theme turns this off"));
    connect(m_actSystemTheme, &QAction::toggled, this, &MainWindow::setThemeFollowsSystem);

    // Tools
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    m_actProbe = tools->addAction(tr("&Probe hardware"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this,
                                  &MainWindow::probeHardware);
    m_actProbe->setToolTip(
        tr("Run every variant on the GPU and check each cell against the layout (needs CUDA and a GPU)"));
    tools->addAction(tr("&Decode tcgen05 descriptor…"), this, [this] {
        // One decoder per window, kept open beside the diagram (non-modal).
        auto* decoder = findChild<DescriptorDecoder*>();
        if (!decoder)
            decoder = new DescriptorDecoder(this);
        decoder->show();
        decoder->activateWindow(); // brings an open one forward
    });

    // Help
    // Go: a browsing tool's history.
    QMenu* go = menuBar()->addMenu(tr("&Go"));
    m_actBack = go->addAction(tr("&Back"), QKeySequence::Back, this, &MainWindow::goBack);
    m_actBack->setObjectName(QStringLiteral("actionBack"));
    m_actForward = go->addAction(tr("&Forward"), QKeySequence::Forward, this, &MainWindow::goForward);
    m_actForward->setObjectName(QStringLiteral("actionForward"));
    m_actBack->setEnabled(false);
    m_actForward->setEnabled(false);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* keys = help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, [this] {
        auto* box = new QMessageBox(QMessageBox::NoIcon, tr("Keyboard shortcuts"), shortcutsText(),
                                    QMessageBox::Close, this);
        box->setObjectName(QStringLiteral("shortcutsDialog"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setModal(false);
        box->show();
    });
    keys->setObjectName(QStringLiteral("actionShortcuts"));
    help->addAction(tr("Quick &guide"), this, [this] {
        QMessageBox::information(
            this, tr("lanemap quick guide"),
            tr("<p><b>Open</b> an instruction from the catalog, or type words (<i>mma m16n8k16 bf16</i>, "
               "<i>sm_90</i>, "
               "<i>sparse</i>, <i>f16 acc</i>) or paste a whole PTX instruction into the filter.</p>"
               "<p><b>Hover</b> a cell: its lane lights up in every pane and the Cell panel says which "
               "register and "
               "bits hold it; <b>click</b> pins the lane (a legend swatch too). Arrows move a cell cursor, "
               "Tab "
               "moves between panes.</p><p><b>Panes</b> each have their own zoom: Fit readable (Ctrl+0), Fit "
               "all "
               "(Ctrl+9), Ctrl+wheel. <b>Compare</b> shows which positions another variant holds "
               "differently.</p>"
               "<p><b>Hardware verdicts</b> come from the probe (Tools → Probe hardware) or from recorded "
               "reports; "
               "only cells the hardware placed differently are framed in red.</p>"));
    });
    help->addAction(tr("PTX manual section of this instruction"), this, [this] {
        if (m_instruction)
            QDesktopServices::openUrl(QUrl(manualUrl(qs(m_instruction->anchor))));
    });
    help->addAction(tr("&About lanemap"), this,
                    [this] { QMessageBox::about(this, tr("About lanemap"), aboutText()); });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    // Toolbar
    QToolBar* tb = addToolBar(tr("View"));
    tb->setObjectName(QStringLiteral("viewToolbar"));
    tb->setMovable(false);
    tb->addWidget(new QLabel(tr(" Color by "), tb));
    m_colorBox = new QComboBox(tb);
    m_colorBox->setObjectName(QStringLiteral("colorBy"));
    for (ColorBy c : {ColorBy::Lane, ColorBy::Register, ColorBy::ThreadGroup})
        m_colorBox->addItem(qs(toString(c)), static_cast<int>(c));
    connect(m_colorBox, &QComboBox::activated, this,
            [this](int i) { setColorBy(static_cast<ColorBy>(m_colorBox->itemData(i).toInt())); });
    tb->addWidget(m_colorBox);
    tb->addSeparator();
    m_laneLabel = new QLabel(tr(" Lanes "), tb);
    m_laneLabel->setObjectName(QStringLiteral("laneFilterLabel"));
    tb->addWidget(m_laneLabel);
    m_laneEdit = new QLineEdit(tb);
    m_laneEdit->setObjectName(QStringLiteral("laneFilter"));
    m_laneEdit->setPlaceholderText(tr("all, or e.g. 0-3,13"));
    m_laneEdit->setClearButtonEnabled(true);
    m_laneEdit->setMaximumWidth(150);
    connect(m_laneEdit, &QLineEdit::editingFinished, this, [this] { setLaneFilter(m_laneEdit->text()); });
    tb->addWidget(m_laneEdit);
    tb->addSeparator();
    m_selectorLabel = new QLabel(tr(" Selector "), tb);
    m_selectorBox = new QComboBox(tb);
    m_selectorBox->setObjectName(QStringLiteral("selector"));
    m_selectorBox->setToolTip(tr("Sparsity selector: which threads hold the metadata"));
    connect(m_selectorBox, &QComboBox::activated, this,
            [this](int i) { setSelector(m_selectorBox->itemData(i).toInt()); });
    tb->addWidget(m_selectorLabel);
    tb->addWidget(m_selectorBox);
    tb->addSeparator();
    QAction* zin = tb->addAction(tr("+"), this, &MainWindow::zoomIn);
    zin->setToolTip(tr("Zoom in (Ctrl++, or Ctrl+wheel over a pane)"));
    QAction* zout = tb->addAction(tr("−"), this, &MainWindow::zoomOut);
    zout->setToolTip(tr("Zoom out (Ctrl+-)"));
    QAction* zfit = tb->addAction(tr("Fit"), this, &MainWindow::fitAll);
    QAction* zall = tb->addAction(tr("Fit all"), this, &MainWindow::fitWhole);
    zall->setToolTip(tr("Whole diagram in every pane (Ctrl+9)"));
    zfit->setToolTip(tr("Fit readable, every pane (Ctrl+0)"));
    tb->addSeparator();
    tb->addWidget(new QLabel(tr(" Compare with "), tb));
    m_compareEdit = new QLineEdit(tb);
    m_compareEdit->setObjectName(QStringLiteral("compare"));
    m_compareEdit->setPlaceholderText(tr("spec, e.g. mma.m16n8k8.f16"));
    m_compareEdit->setClearButtonEnabled(true);
    m_compareEdit->setMaximumWidth(220);
    connect(m_compareEdit, &QLineEdit::editingFinished, this, [this] {
        QString error;
        if (!setCompare(m_compareEdit->text(), &error))
            statusBar()->showMessage(error, 10000);
        else
            statusBar()->clearMessage(); // an earlier error no longer applies
    });
    tb->addWidget(m_compareEdit);
    m_compareOperandBox = new QComboBox(tb);
    m_compareOperandBox->setObjectName(QStringLiteral("compareOperand"));
    for (const char* op : {"A", "B", "C", "D"})
        m_compareOperandBox->addItem(QString::fromLatin1(op));
    connect(m_compareOperandBox, &QComboBox::activated, this,
            [this](int i) { setCompareOperand(m_compareOperandBox->itemText(i)); });
    tb->addWidget(m_compareOperandBox);
    tb->addSeparator();
    tb->addAction(exportSvgAct);
    tb->addAction(exportPngAct);
    tb->addSeparator();
    tb->addAction(m_actProbe);
    tb->addAction(m_actDark);
}

// --- catalog -----------------------------------------------------------------------------------------------

void MainWindow::onFilterChanged(const QString& text) {
    m_filterModel->setFilterText(text);
    const QString error = m_filterModel->parseError();
    m_filterError->setText(error);
    m_filterError->setVisible(!error.isEmpty());
    QString hint = m_filterModel->hint().toHtmlEscaped();
    if (!hint.isEmpty() && !m_filterModel->nearestSpecs().isEmpty()) {
        QStringList links;
        for (const QString& spec : m_filterModel->nearestSpecs())
            links << QStringLiteral("<a href='%1'>%1</a>").arg(spec);
        hint += QStringLiteral("<br/>") + tr("Nearest: %1").arg(links.join(QStringLiteral(", ")));
    }
    m_filterHint->setText(hint);
    m_filterHint->setVisible(!hint.isEmpty() && error.isEmpty());
    const int matches = m_filterModel->matchingVariants();
    m_filterCount->setText(tr("%1 of %2 variants").arg(matches).arg(m_catalogModel->variantCount()));
    if (!text.trimmed().isEmpty() && matches <= 60)
        m_tree->expandAll();
    else if (text.trimmed().isEmpty()) {
        m_tree->collapseAll();
        for (int r = 0; r < m_filterModel->rowCount(); ++r)
            m_tree->expand(m_filterModel->index(r, 0));
        if (m_instruction)
            selectInTree(currentSpec());
    }
    if (!m_filterModel->parsedSpec().isEmpty())
        openSpec(text);
}

void MainWindow::onTreeCurrentChanged(const QModelIndex& current) {
    const QString spec = current.data(CatalogModel::SpecRole).toString();
    if (!spec.isEmpty() && spec != currentSpec())
        openSpec(spec);
}

void MainWindow::selectInTree(const QString& spec) {
    const QModelIndex source = m_catalogModel->indexOfSpec(spec);
    const QModelIndex idx = m_filterModel->mapFromSource(source);
    if (!idx.isValid())
        return;
    const QSignalBlocker block(m_tree->selectionModel());
    m_tree->setCurrentIndex(idx);
    m_tree->scrollTo(idx);
}

bool MainWindow::openSpec(const QString& text, QString* error) {
    const ParsedSpec parsed = parseSpec(text.toStdString(), Catalog::instance());
    if (!parsed) {
        if (error)
            *error = QString::fromStdString(parsed.error);
        return false;
    }
    const Instruction& in = Catalog::instance().instruction(*parsed.variant);
    if (tmem::mmaOf(in)) { // tcgen05.mma: one entry stands for every N; the spec's N sizes the grid
        const int n = parsed.n > 0 ? parsed.n : in.n;
        if (&in == m_instruction) {
            if (n != shapeOf(in, m_tmem).n) {
                resetTensorMemoryView(n);
                updateHeader();
                rebuildPanes();
            }
        } else {
            m_tmemPendingN = n;
            showInstruction(in);
        }
        // A pasted block-scaled string's vector size is the one drawn (IDs 0).
        if (const std::optional<tcgen05::ScaleVec> typed = tcgen05::fromForm(parsed.form.scaleVec)) {
            TensorMemoryOptions o = m_tmem;
            o.blockScale = tcgen05::BlockScale{*typed, 0, 0};
            if (o.blockScale != m_tmem.blockScale)
                applyTensorMemoryOptions(o, false, nullptr);
        }
        return true;
    }
    if (&in != m_instruction)
        showInstruction(in);
    return true;
}

QString MainWindow::currentSpec() const {
    return m_instruction ? QString::fromStdString(m_instruction->spec) : QString();
}

void MainWindow::showInstruction(const Instruction& instruction) {
    m_selectTimer.start();
    m_waitingFirstPaint = true;
    // An instruction from outside the catalog may reuse a freed one's address: never serve its cached
    // diagrams.
    if (Catalog::instance().instruction(instruction.spec) != &instruction)
        m_cache.forget(instruction);
    m_instruction = &instruction;
    m_prefs.spec = QString::fromStdString(instruction.spec);
    // Keep view choices that still apply; drop those that do not (a selector of another instruction, lanes
    // beyond its thread count). The panes are rebuilt once below, not per dropped choice.
    const bool restoring = std::exchange(m_restoring, true);
    bool selectorValid = false;
    if (instruction.metadata)
        for (const MetadataSelector& s : instruction.metadata->selectors)
            selectorValid = selectorValid || s.value == m_state->selector();
    if (!selectorValid)
        m_state->setSelector(instruction.metadata && !instruction.metadata->selectors.empty()
                                 ? instruction.metadata->selectors.front().value
                                 : 0);
    if (!m_state->lanes().empty() && m_state->lanes().back() >= instruction.threads) {
        m_state->setLanes(QString(), {});
        m_laneEdit->clear();
    }
    if (m_state->pinnedLane() >= instruction.threads)
        m_state->setPinnedLane(-1);
    m_state->setHoveredLane(-1);
    m_restoring = restoring;
    if (smem::hasSharedMemoryOperands(instruction)) {
        // MN-major exists for 16-bit types only: another type falls back to K-major, said in the pickers.
        std::string why;
        if (smem::operands(instruction, m_smemChoice, why).empty())
            m_smemChoice.major = smem::Major::K;
    }
    m_lastView = nullptr;
    m_lastCell = -1;
    if (tmem::mmaOf(instruction))
        resetTensorMemoryView(std::exchange(m_tmemPendingN, 0));
    // Nothing of the previous instruction stays on screen: its cell, its hover text.
    m_state->setCell(CellInfo{});
    m_details->clear();
    m_hoverStatus->clear();
    rebuildPanes(true);
    m_unpainted.clear();
    for (const Pane& p : m_panes)
        m_unpainted.insert(p.view.data());
    updateHeader();
    updateSelectorBox();
    updateSharedMemoryTools();
    // The filter takes what the labels show: lanes of a warp, or a warpgroup's threads 0..127 (the legend's
    // colours are lanes = thread % 32 in both).
    if (instruction.scope == Scope::Warpgroup) {
        m_laneLabel->setText(tr(" Threads "));
        m_laneEdit->setPlaceholderText(tr("all, or e.g. 0-31,64 (0..%1)").arg(instruction.threads - 1));
        m_laneEdit->setToolTip(tr("Warpgroup threads 0..%1 as the cell labels show them (T77 = warp 2, lane "
                                  "13); colours are lanes, thread % 32")
                                   .arg(instruction.threads - 1));
    } else {
        m_laneLabel->setText(tr(" Lanes "));
        m_laneEdit->setPlaceholderText(tr("all, or e.g. 0-3,13"));
        m_laneEdit->setToolTip(tr("Lanes 0..31 (%laneid) drawn in colour; the others are greyed"));
    }
    updateProbeStatus();
    if (!m_state->compareSpec().isEmpty())
        rebuildCompare();
    selectInTree(m_prefs.spec);
    rememberVisit(m_prefs.spec);
    emit instructionChanged(m_prefs.spec);
}

// --- panes -------------------------------------------------------------------------------------------------

std::shared_ptr<const Diagram> MainWindow::diagramFor(const Instruction& in, const DiagramOptions& o) const {
    return m_cache.get(in, o);
}

std::vector<std::pair<QString, std::shared_ptr<const Diagram>>> MainWindow::paneDiagrams() const {
    std::vector<std::pair<QString, std::shared_ptr<const Diagram>>> panes;
    if (!m_instruction)
        return panes;
    // tcgen05.mma: D lives in Tensor Memory, not in registers; one pane draws where the layout puts it,
    // composed with the registers of a tcgen05.ld (main_window_tmem.cpp).
    if (tmem::mmaOf(*m_instruction)) {
        panes.emplace_back(tensorMemoryPane(), tensorMemoryDiagram());
        return panes;
    }
    // Quad-pair products: four small products per operand. One pane draws them as the SVG does, a row of
    // A | B | C/D per product, so one zoom serves all of them and every product row reads left to right
    // (an operand per pane fitted each to its own zoom and cut the products mid-row).
    const bool quadPair = !matrixMoveOf(*m_instruction) &&
                          std::any_of(m_instruction->operands.begin(), m_instruction->operands.end(),
                                      [](const FragmentLayout& op) { return op.matrices() > 1; });
    if (quadPair) {
        panes.emplace_back(productsPane(), diagramFor(*m_instruction, diagramOptions({})));
        return panes;
    }
    // One C/D pane when C and D have the same layout. The Diagram decides: asked for C/D it draws one
    // merged C/D panel, or separate C and D panels when the layouts differ (then each gets its own pane).
    std::shared_ptr<const Diagram> cd;
    if (m_instruction->operand(Operand::C) && m_instruction->operand(Operand::D)) {
        cd = diagramFor(*m_instruction, diagramOptions(kAccumulator));
        const bool merged = std::any_of(cd->panels.begin(), cd->panels.end(),
                                        [](const DiagramPanel& p) { return p.operands == kAccumulator; });
        if (!merged)
            cd.reset();
    }
    for (const FragmentLayout& op : m_instruction->operands) {
        const QString name = qs(op.name());
        if (cd && name == QLatin1String("D"))
            continue;
        if (cd && name == QLatin1String("C"))
            panes.emplace_back(qs(toString(kAccumulator)), cd);
        else
            panes.emplace_back(name, diagramFor(*m_instruction, diagramOptions(op.operand())));
    }
    if (m_instruction->metadata) {
        auto metadata = diagramFor(*m_instruction, diagramOptions(Operand::Metadata));
        panes.emplace_back(qs(toString(Operand::Metadata)), metadata);
        if (!metadata->bitFields.empty()) // the same diagram, its registers part (rebuildPanes)
            panes.emplace_back(metadataRegistersPane(), metadata);
    }
    if (smem::hasSharedMemoryOperands(*m_instruction))
        if (std::shared_ptr<const Diagram> d = sharedMemoryDiagram())
            panes.emplace_back(sharedMemoryPane(), std::move(d));
    return panes;
}

std::shared_ptr<const Diagram> MainWindow::sharedMemoryDiagram(QString* error) const {
    if (!m_instruction || !smem::hasSharedMemoryOperands(*m_instruction))
        return nullptr;
    std::string why;
    const std::vector<smem::SharedOperand> ops = smem::operands(*m_instruction, m_smemChoice, why);
    for (const smem::SharedOperand& op : ops)
        if (op.operand == m_smemOperand) {
            SharedMemoryDiagramOptions o;
            o.palette = m_state->palette();
            o.addressGrid = m_smemAddresses;
            o.memoryMap = m_smemMap;
            return std::make_shared<const Diagram>(buildSharedMemoryDiagram(op, o));
        }
    if (error)
        *error = QString::fromStdString(why);
    return nullptr;
}

bool MainWindow::setSharedMemoryView(const QString& operand, const QString& major, const QString& swizzle,
                                     QString* error) {
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    const std::optional<Operand> op = parseOperand(operand.toStdString());
    if (!op || (*op != Operand::A && *op != Operand::B))
        return fail(tr("shared-memory operand '%1' is not A or B").arg(operand));
    const std::optional<smem::Major> mj = smem::parseMajor(major.toStdString());
    if (!mj)
        return fail(tr("major-ness '%1' is not one of %2").arg(major, qs(smem::majorList())));
    const std::optional<smem::Swizzle> sw = smem::parseSwizzle(swizzle.toStdString());
    if (!sw)
        return fail(tr("swizzle '%1' is not one of %2").arg(swizzle, qs(smem::swizzleList())));
    if (m_instruction && smem::hasSharedMemoryOperands(*m_instruction)) {
        std::string why;
        if (smem::operands(*m_instruction, smem::Choice{*mj, *sw}, why).empty())
            return fail(QString::fromStdString(why));
    }
    m_smemOperand = *op;
    m_smemChoice = smem::Choice{*mj, *sw};
    updateSharedMemoryTools();
    if (m_instruction)
        rebuildPanes();
    return true;
}

bool MainWindow::setSharedMemoryShow(const QString& what) {
    if (what == QLatin1String("addresses"))
        m_smemAddresses = true, m_smemMap = false;
    else if (what == QLatin1String("memory"))
        m_smemAddresses = false, m_smemMap = true;
    else if (what == QLatin1String("both"))
        m_smemAddresses = m_smemMap = true;
    else
        return false;
    updateSharedMemoryTools();
    if (m_instruction)
        rebuildPanes();
    // A different picture: fitted afresh.
    if (DiagramView* v = pane(sharedMemoryPane()))
        v->fit(DiagramView::FitMode::Readable);
    return true;
}

QWidget* MainWindow::makeSharedMemoryTools() {
    auto* tools = new QWidget;
    tools->setObjectName(QStringLiteral("smemTools"));
    auto* hl = new QHBoxLayout(tools);
    hl->setContentsMargins(4, 0, 4, 2);
    auto box = [&](const QString& label, const QString& objectName, const QStringList& items,
                   const QString& tip) {
        auto* l = new QLabel(label, tools);
        auto* b = new QComboBox(tools);
        b->setObjectName(objectName);
        b->addItems(items);
        b->setToolTip(tip);
        l->setBuddy(b);
        hl->addWidget(l);
        hl->addWidget(b);
        return b;
    };
    m_smemOperandBox =
        box(tr("&Operand"), QStringLiteral("smemOperand"), {QStringLiteral("B"), QStringLiteral("A")},
            tr("B always comes from shared memory; A does in the SS form"));
    m_smemMajorBox =
        box(tr("&Major"), QStringLiteral("smemMajor"), {QStringLiteral("K"), QStringLiteral("MN")},
            tr("Which index is contiguous in memory (imm-trans = 0: K-major; 1: M- or N-major)"));
    m_smemSwizzleBox =
        box(tr("S&wizzle"), QStringLiteral("smemSwizzle"),
            {QStringLiteral("none"), QStringLiteral("32B"), QStringLiteral("64B"), QStringLiteral("128B")},
            tr("The descriptor's swizzle mode (bits [63..62])"));
    m_smemShowBox = box(
        tr("S&how"), QStringLiteral("smemShow"),
        {QStringLiteral("addresses"), QStringLiteral("memory"), QStringLiteral("both")},
        tr("addresses: the byte address of each 16-byte chunk, on its first element (hover an element for "
           "its own); memory: the 128-byte lines (32 banks), "
           "each 16-byte chunk where the swizzle put it"));
    connect(m_smemShowBox, &QComboBox::activated, this,
            [this] { setSharedMemoryShow(m_smemShowBox->currentText()); });
    m_smemNote = new QLabel(tools);
    m_smemNote->setObjectName(QStringLiteral("smemNote"));
    m_smemNote->setMinimumWidth(1);
    m_smemNote->setEnabled(false); // secondary text
    hl->addWidget(m_smemNote, 1);
    auto apply = [this] {
        if (!m_smemOperandBox || !m_smemMajorBox || !m_smemSwizzleBox)
            return;
        QString error;
        if (!setSharedMemoryView(m_smemOperandBox->currentText(), m_smemMajorBox->currentText(),
                                 m_smemSwizzleBox->currentText(), &error)) {
            updateSharedMemoryTools(); // back to what is shown
            statusBar()->showMessage(error, 8000);
        }
    };
    for (QComboBox* b : {m_smemOperandBox.data(), m_smemMajorBox.data(), m_smemSwizzleBox.data()})
        connect(b, &QComboBox::activated, this, apply);
    updateSharedMemoryTools();
    return tools;
}

void MainWindow::updateSharedMemoryTools() {
    if (!m_smemOperandBox || !m_smemMajorBox || !m_smemSwizzleBox)
        return;
    m_smemOperandBox->setCurrentText(qs(toString(m_smemOperand)));
    m_smemMajorBox->setCurrentText(qs(smem::toString(m_smemChoice.major)));
    m_smemSwizzleBox->setCurrentText(qs(smem::toString(m_smemChoice.swizzle)));
    if (m_smemShowBox)
        m_smemShowBox->setCurrentText(m_smemAddresses && m_smemMap ? QStringLiteral("both")
                                      : m_smemMap                  ? QStringLiteral("memory")
                                                                   : QStringLiteral("addresses"));
    // MN-major exists only for 16-bit types: offered only where it applies.
    std::string why;
    const bool mnValid =
        m_instruction &&
        !smem::operands(*m_instruction, smem::Choice{smem::Major::MN, m_smemChoice.swizzle}, why).empty();
    if (auto* model = qobject_cast<QStandardItemModel*>(m_smemMajorBox->model()))
        if (QStandardItem* item = model->item(1)) {
            item->setEnabled(mnValid);
            item->setToolTip(mnValid ? QString() : QString::fromStdString(why));
        }
    if (m_smemNote && m_instruction) {
        std::string error;
        const auto ops = smem::operands(*m_instruction, m_smemChoice, error);
        for (const smem::SharedOperand& op : ops)
            if (op.operand == m_smemOperand)
                m_smemNote->setText(tr("descriptor %1").arg(qs(smem::hex(op.layout.encodedDescriptor()))));
    }
}

void MainWindow::onSharedMemoryHover(DiagramView* view, int cell) {
    // A chunk lights in both of the pane's panels; the register panes' lanes are not involved.
    const Diagram* d = view->diagram();
    if (cell < 0 || !d) {
        view->setHighlightThread(-1);
        m_hoverStatus->clear();
        return;
    }
    const DiagramCell& c = d->cells[static_cast<std::size_t>(cell)];
    view->setHighlightThread(c.thread);
    m_hoverStatus->setText(QString::fromStdString(d->tooltip(c)));
    // A register pane's lane no longer describes what is under the mouse; the Cell dock gives the chunk's
    // address, banks and swizzle.
    m_state->setHoveredLane(-1);
    m_state->setCell(describe(view, cell));
}

DiagramOptions MainWindow::diagramOptions(OperandSet operands) const {
    return m_state->diagramOptions(operands, m_instruction && m_instruction->metadata);
}

DiagramView* MainWindow::makeView(const QString& name) {
    auto* view = new DiagramView;
    view->setObjectName(QStringLiteral("pane_") + QString(name).replace(QLatin1Char('/'), QString()));
    view->setAccessibleName(tr("%1 operand").arg(name));
    attachView(view);
    return view;
}

void MainWindow::attachView(DiagramView* view) {
    view->setViewState(m_state);
    connect(view, &DiagramView::cellHovered, this, [this, view](int cell) { onHover(view, cell); });
    connect(view, &DiagramView::cursorMoved, this, [this, view](int cell) {
        if (cell >= 0)
            onHover(view, cell);
    });
    connect(view, &DiagramView::cellClicked, this, [this, view](int cell) { onClick(view, cell); });
    connect(view, &DiagramView::tabPressed, this, [this, view](bool backward) { onPaneTab(view, backward); });
    connect(view, &DiagramView::painted, this, &MainWindow::onPainted);
    // A fitted pane resized (a splitter dragged): the bands that show its grid best may differ now.
    connect(view, &DiagramView::zoomChanged, this, [this, view] {
        if (view->fitting() && m_bandTimer)
            m_bandTimer->start();
    });
}

void MainWindow::rebuildPanes(bool newInstruction) {
    const auto diagrams = paneDiagrams();
    // Reuse views by name (keeps zoom and scroll when switching between similar instructions).
    std::vector<Pane> old = std::move(m_panes);
    m_panes.clear();
    for (const auto& [name, diagram] : diagrams) {
        Pane pane;
        pane.name = name;
        pane.instruction = m_instruction;
        for (Pane& o : old)
            if (o.name == name && o.view) {
                pane.view = o.view;
                pane.frame = o.frame;
                o.view = nullptr;
                o.frame = nullptr;
            }
        if (!pane.view && name == sharedMemoryPane()) {
            // Its own hover (chunks, not lanes): it follows the theme, labels and palette, not the lanes.
            auto* view = new DiagramView;
            view->setObjectName(QStringLiteral("pane_smem"));
            view->setAccessibleName(tr("shared memory"));
            view->setColors(viewColors(m_state->theme()));
            view->setShowLabels(m_state->showLabels());
            connect(m_state, &ViewState::showLabelsChanged, view, &DiagramView::setShowLabels);
            connect(m_state, &ViewState::themeChanged, view,
                    [view](Theme theme) { view->setColors(viewColors(theme)); });
            connect(view, &DiagramView::cellHovered, this,
                    [this, view](int cell) { onSharedMemoryHover(view, cell); });
            connect(view, &DiagramView::cursorMoved, this, [this, view](int cell) {
                if (cell >= 0)
                    onSharedMemoryHover(view, cell);
            });
            connect(view, &DiagramView::painted, this, &MainWindow::onPainted);
            pane.view = view;
            pane.frame = new PaneFrame(view);
            pane.frame->setObjectName(QStringLiteral("frame_smem"));
            pane.frame->setTools(makeSharedMemoryTools());
        }
        if (!pane.view) {
            pane.view = makeView(name);
            pane.frame = new PaneFrame(pane.view);
            pane.frame->setObjectName(QStringLiteral("frame_") +
                                      QString(name).replace(QLatin1Char('/'), QString()));
            if (name == tensorMemoryPane())
                pane.frame->setTools(makeTensorMemoryTools());
        }
        if (const auto axes = axisTitles(name, *diagram)) // the Diagram names its axes: say the same
            pane.frame->setTitle(axes->first, axes->second);
        else
            pane.frame->setTitle(paneTitle(name), paneTitleCompact(name));
        pane.unwrapped = diagram;
        pane.view->setPart(name == metadataRegistersPane()     ? DiagramPart::Registers
                           : name == QLatin1String("metadata") ? DiagramPart::Grids
                                                               : DiagramPart::Whole);
        pane.view->setDiagram(diagram);
        m_panes.push_back(pane);
    }
    for (Pane& o : old)
        if (o.frame) {
            // Out of the splitter now (deleteLater alone leaves it visible until the event loop runs again).
            o.frame->hide();
            o.frame->setParent(nullptr);
            o.frame->deleteLater();
        }

    // Arrangement, the shape of D = A·B + C: A (and metadata) in one group, B and C/D in the other. Side by
    // side (A left, B over C/D) unless A is much wider than tall (large K): then A on top and B, C/D below
    // it.
    auto natural = [](const DiagramView* v) {
        const QRectF r = contentRect(*v->diagram(), v->paintOptions());
        return QSizeF(r.width(), r.height());
    };
    QSizeF aSize(1, 1);
    for (const Pane& pane : m_panes)
        if (pane.name == QLatin1String("A"))
            aSize = natural(pane.view);
    const bool rows = aSize.width() > 2.6 * aSize.height();
    // A pane's size for the split: its natural size, less for the panes that are meant to scroll.
    auto splitSize = [&](const Pane& pane) {
        QSizeF s = natural(pane.view);
        // The metadata grid and registers scroll (labelled: Fit readable) and A opens whole: with the three
        // stacked in one column, A takes about half its height, a few rows and registers are enough at
        // first sight.
        if (pane.name == QLatin1String("metadata"))
            s = QSizeF(s.width(), std::min(s.height(), 0.6 * aSize.height()));
        // The metadata registers (one per lane that holds metadata): a few are enough at first sight.
        if (pane.name == metadataRegistersPane())
            s = QSizeF(s.width(), std::min(s.height(), 0.6 * aSize.height()));
        // The shared-memory pane scrolls too: the accumulator beside it keeps the larger share.
        if (pane.name == sharedMemoryPane())
            s = QSizeF(std::min(s.width(), 0.6 * aSize.width()), 0.8 * aSize.height());
        return s;
    };
    auto aGroup = [](const Pane& p) {
        return p.name == QLatin1String("A") || p.name == QLatin1String("metadata") ||
               p.name == productsPane();
    };
    // The metadata registers are wide (32 bits a line): in the group that has the width. Under a wide A
    // (rows) that is the row of B and C/D; side by side, the wider column.
    bool registersFirst = false;
    if (!rows) {
        double extent[2] = {0, 0};
        for (const Pane& pane : m_panes)
            if (pane.name != metadataRegistersPane()) {
                double& e = extent[aGroup(pane) ? 0 : 1];
                e = std::max(e, splitSize(pane).width());
            }
        registersFirst = extent[0] >= extent[1];
    }
    auto isFirstGroup = [&](const Pane& p) {
        return aGroup(p) || (registersFirst && p.name == metadataRegistersPane());
    };
    m_paneSplitter->setOrientation(rows ? Qt::Vertical : Qt::Horizontal);
    m_leftColumn->setOrientation(rows ? Qt::Horizontal : Qt::Vertical);
    m_rightColumn->setOrientation(rows ? Qt::Horizontal : Qt::Vertical);
    int li = 0, ri = 0;
    for (const Pane& pane : m_panes) {
        const bool first = isFirstGroup(pane);
        (first ? m_leftColumn : m_rightColumn)->insertWidget(first ? li++ : ri++, pane.frame);
    }
    // One pane (the quad-pair products) takes the whole width: an empty column would keep its share.
    m_leftColumn->setVisible(li > 0);
    m_rightColumn->setVisible(ri > 0);
    // Split sizes follow the diagrams' natural sizes, so a 16x8 B does not get as much room as a 64x256 D.
    QList<int> firstSizes, secondSizes;
    double firstExtent = 0, secondExtent = 0; // along the main splitter
    for (const Pane& pane : m_panes) {
        const QSizeF s = splitSize(pane);
        const bool first = isFirstGroup(pane);
        const double inGroup = rows ? s.width() : s.height();
        const double across = rows ? s.height() : s.width();
        (first ? firstSizes : secondSizes) << std::max(120, static_cast<int>(inGroup));
        double& extent = first ? firstExtent : secondExtent;
        extent = std::max(extent, across);
    }
    m_leftColumn->setSizes(firstSizes);
    m_rightColumn->setSizes(secondSizes);
    // A wide A on top gets half the height: enough to read its labels while B and C/D scroll below.
    const double share =
        rows ? 0.5 : std::clamp(firstExtent / std::max(1.0, firstExtent + secondExtent), 0.25, 0.7);
    const int total = std::max(600, rows ? m_paneSplitter->height() : m_paneSplitter->width());
    m_paneSplitter->setSizes({static_cast<int>(total * share), total - static_cast<int>(total * share)});
    // Stretch factors keep that share when the window is resized (or first shown).
    m_paneSplitter->setStretchFactor(0, static_cast<int>(std::lround(share * 100)));
    m_paneSplitter->setStretchFactor(1, 100 - static_cast<int>(std::lround(share * 100)));

    if (!m_panes.empty())
        m_legend->setDiagram(m_panes.front().view->sharedDiagram());
    applyVerdictMarks();
    // A newly opened instruction starts fitted; a rebuild of the same one (coloring, palette, selector, lane
    // filter) keeps each pane's zoom, fitted or explicit.
    if (newInstruction)
        for (const Pane& pane : m_panes) {
            pane.view->fit(DiagramView::FitMode::Readable);
            // From the top-left corner, where the row and column headers are.
            pane.view->horizontalScrollBar()->setValue(0);
            pane.view->verticalScrollBar()->setValue(0);
        }
    updateBands();
    if (m_bandTimer)
        m_bandTimer->start(); // again once the splitters have settled
}

namespace {
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

void MainWindow::updateBands() {
    const bool on = m_actBands && m_actBands->isChecked();
    bool changed = false;
    for (Pane& pane : m_panes) {
        if (!pane.view || !pane.unwrapped || pane.name == sharedMemoryPane())
            continue;
        const Diagram& full = *pane.unwrapped;
        int best = 0;
        std::shared_ptr<const Diagram> bestDiagram = pane.unwrapped;
        if (!pane.view->fitting() && (on || pane.bandColumns == 0))
            continue; // the user's own zoom stays as it is, on the grid it was chosen on
        if (on && canWrapColumns(full) && full.panels.front().cols >= 32) {
            const QSize vp = pane.view->maximumViewportSize();
            if (vp.width() < 80 || vp.height() < 80)
                continue;
            const int cols = full.panels.front().cols;
            BandScore top = bandScore(full, contentRect(full, pane.view->paintOptions()), *pane.view, vp);
            for (const int bands : {2, 3, 4, 6, 8, 12, 16}) {
                const int width = (cols + bands - 1) / bands;
                if (width < 8)
                    continue;
                const BandScore s = bandScore(full, wrappedContent(full, width), *pane.view, vp);
                // Bands only where they show clearly more (or the same, larger).
                if (s.cells > top.cells * 1.1 || (s.cells >= top.cells * 0.99 && s.zoom > top.zoom * 1.1)) {
                    top = s;
                    best = width;
                }
            }
            if (best > 0 && best != pane.bandColumns)
                bestDiagram = std::make_shared<const Diagram>(wrapColumns(full, best));
        }
        if (best == pane.bandColumns)
            continue;
        pane.bandColumns = best;
        const bool fitting = pane.view->fitting();
        pane.view->setDiagram(bestDiagram);
        if (fitting) {
            pane.view->fit(pane.view->fitMode());
            pane.view->horizontalScrollBar()->setValue(0);
            pane.view->verticalScrollBar()->setValue(0);
        }
        changed = true;
    }
    if (changed)
        applyVerdictMarks(); // marks index the cells of the diagram shown
}

void MainWindow::setWrapBands(bool on) {
    m_actBands->setChecked(on);
}

bool MainWindow::wrapBands() const {
    return m_actBands->isChecked();
}

void MainWindow::rebuildCompare() {
    for (Pane& p : m_compareViews)
        if (p.view) {
            // The box around the view leaves the splitter now, not when the event loop next runs.
            QWidget* box = p.view->parentWidget();
            box->hide();
            box->setParent(nullptr);
            box->deleteLater();
        }
    m_compareViews.clear();
    m_compareDifferences = 0;
    if (!m_instruction || !m_compareInstruction) {
        m_stack->setCurrentWidget(m_paneSplitter);
        return;
    }
    // The operand picked, where both hold it; else the first both hold (ldmatrix and tcgen05.ld hold only D,
    // a tcgen05.mma view none): drawing one that a side lacks threw and ended the app, at every start when
    // the pair came from the settings.
    std::optional<Operand> which;
    for (const Operand o : {m_state->compareOperand(), Operand::A, Operand::B, Operand::C, Operand::D})
        if (!which && m_instruction->operand(o) && m_compareInstruction->operand(o))
            which = o;
    if (!which) {
        m_compareSummary->setText(
            tr("%1 and %2 hold no operand in common (%1: %3; %2: %4): nothing to compare.")
                .arg(QString::fromStdString(m_instruction->spec),
                     QString::fromStdString(m_compareInstruction->spec), operandList(*m_instruction),
                     operandList(*m_compareInstruction)));
        m_stack->setCurrentWidget(m_comparePage);
        return;
    }
    const Operand operand = *which;
    const Instruction* sides[2] = {m_instruction, m_compareInstruction};
    CompareResult results[2];
    int positions = 0;
    for (int side = 0; side < 2; ++side) {
        const Instruction& in = *sides[side];
        DiagramOptions o = diagramOptions(operand);
        o.threads.clear();
        for (int t : m_state->lanes())
            if (t < in.threads)
                o.threads.push_back(t);
        o.selector.reset();
        auto diagram = diagramFor(in, o);
        results[side] = compareDiagram(*diagram, in, *sides[1 - side]);
        if (side == 0) {
            m_compareDifferences = results[side].differing;
            positions = results[side].positions;
        }
        auto* box = new QWidget;
        auto* bl = new QVBoxLayout(box);
        bl->setContentsMargins(0, 0, 0, 0);
        auto* head = makeLabel(QStringLiteral("compareTitle%1").arg(side), box);
        head->setText(
            QStringLiteral("<b>%1</b> &nbsp; <span style='color:gray'>%2</span>")
                .arg(QString::fromStdString(in.spec), QString::fromStdString(in.ptx).toHtmlEscaped()));
        head->setWordWrap(true);
        head->setMinimumWidth(1); // a long PTX string wraps instead of widening the window
        bl->addWidget(head);
        auto* view = makeView(QStringLiteral("compare%1").arg(side));
        view->setDiagram(diagram);
        CellMarks marks;
        marks.diff = results[side].marks;
        view->setMarks(std::move(marks));
        bl->addWidget(view, 1);
        m_compareSplitter->addWidget(box);
        Pane pane;
        pane.name = QStringLiteral("compare%1").arg(side);
        pane.view = view;
        pane.instruction = &in;
        pane.compare = true;
        m_compareViews.push_back(pane);
        if (m_waitingFirstPaint)
            m_unpainted.insert(view); // shown in place of the panes: its paint is the one the user sees
        // The box owns the view; deleting the box deletes both.
        connect(view, &QObject::destroyed, box, &QObject::deleteLater);
    }
    m_compareSummary->setText(tr("Comparing operand <b>%1</b>: %2 of %3 positions of %4 are held by a "
                                 "different lane or element in %5 "
                                 "(marked in red on both sides).")
                                  .arg(qs(toString(operand)))
                                  .arg(m_compareDifferences)
                                  .arg(positions)
                                  .arg(QString::fromStdString(m_instruction->spec),
                                       QString::fromStdString(m_compareInstruction->spec)));
    m_stack->setCurrentWidget(m_comparePage);
    // One zoom for both sides (the smaller fit), from the top-left: compared cells line up side by side.
    m_compareSplitter->setSizes({1, 1});
    if (QLayout* l = centralWidget()->layout())
        l->activate();
    m_comparePage->layout()->activate();
    double zoom = 0;
    for (const Pane& p : m_compareViews) {
        p.view->fit();
        zoom = zoom == 0 ? p.view->fitZoom() : std::min(zoom, p.view->fitZoom());
    }
    for (const Pane& p : m_compareViews) {
        p.view->setZoom(zoom);
        p.view->horizontalScrollBar()->setValue(0);
        p.view->verticalScrollBar()->setValue(0);
    }
}

bool MainWindow::setCompare(const QString& spec, QString* error) {
    const QString text = spec.trimmed();
    if (text.isEmpty()) {
        m_compareInstruction = nullptr;
        m_state->setCompareSpec(QString());
        if (m_compareEdit->text() != text)
            m_compareEdit->setText(text);
        rebuildCompare();
        return true;
    }
    const ParsedSpec parsed = parseSpec(text.toStdString(), Catalog::instance());
    if (!parsed) {
        if (error)
            *error = QString::fromStdString(parsed.error);
        return false;
    }
    m_compareInstruction = &Catalog::instance().instruction(*parsed.variant);
    m_state->setCompareSpec(QString::fromStdString(m_compareInstruction->spec));
    if (m_compareEdit->text() != m_state->compareSpec())
        m_compareEdit->setText(m_state->compareSpec());
    rebuildCompare();
    return true;
}

void MainWindow::setCompareOperand(const QString& operand) {
    const std::optional<Operand> parsed = parseOperand(operand.toStdString());
    if (!parsed)
        return;
    m_state->setCompareOperand(*parsed);
    const int i = m_compareOperandBox->findText(operand);
    if (i >= 0)
        m_compareOperandBox->setCurrentIndex(i);
    if (m_compareInstruction)
        rebuildCompare();
}

QStringList MainWindow::paneNames() const {
    QStringList names;
    for (const Pane& p : m_panes)
        names << p.name;
    return names;
}

DiagramView* MainWindow::pane(const QString& name) const {
    for (const Pane& p : m_panes)
        if (p.name == name)
            return p.view;
    return nullptr;
}

QMessageBox* MainWindow::probeNotice() const {
    return m_probeNotice.data();
}

PaneFrame* MainWindow::paneFrame(const QString& name) const {
    for (const Pane& p : m_panes)
        if (p.name == name)
            return p.frame;
    return nullptr;
}

QList<DiagramView*> MainWindow::panes() const {
    QList<DiagramView*> out;
    for (const Pane& p : m_panes)
        out << p.view;
    return out;
}

DiagramView* MainWindow::compareView(int side) const {
    if (side < 0 || side >= static_cast<int>(m_compareViews.size()))
        return nullptr;
    return m_compareViews[static_cast<std::size_t>(side)].view;
}

std::vector<DiagramView*> MainWindow::allViews() const {
    std::vector<DiagramView*> out;
    for (const Pane& p : m_panes)
        if (p.view)
            out.push_back(p.view);
    for (const Pane& p : m_compareViews)
        if (p.view)
            out.push_back(p.view);
    return out;
}

const MainWindow::Pane* MainWindow::paneOf(const DiagramView* view) const {
    for (const Pane& p : m_panes)
        if (p.view == view)
            return &p;
    for (const Pane& p : m_compareViews)
        if (p.view == view)
            return &p;
    return nullptr;
}

// --- header and status
// ---------------------------------------------------------------------------------------

void MainWindow::updateHeader() {
    if (!m_instruction)
        return;
    const Instruction& in = *m_instruction;
    // tcgen05.mma: the entry stands for every N; the title names the one drawn.
    const std::string spec = tmem::mmaOf(in) ? tmem::specOf(shapeOf(in, m_tmem), true) : in.spec;
    m_title->setText(QString::fromStdString(spec));
    m_ptx->setText(QString::fromStdString(in.ptx));
    setWindowTitle(QStringLiteral("%1 — lanemap").arg(QString::fromStdString(spec)));
    // core's shape name: matrix moves have no k ("m8n8", never "m8n8k0").
    QString facts =
        tr("%1 threads (%2) · %3 · min <b>sm_%4</b> · PTX ISA 9.1 <a href='%5'>§%6</a>")
            .arg(in.threads)
            .arg(qs(toString(in.scope)))
            .arg(tmem::mmaOf(in) ? QStringLiteral("m%1n%2k%3").arg(in.m).arg(shapeOf(in, m_tmem).n).arg(in.k)
                                 : QString::fromStdString(shapeName(in)))
            .arg(in.minSm)
            .arg(manualUrl(qs(in.anchor)), qs(in.section));
    m_facts->setText(facts);
    QStringList notes;
    for (const std::string& n : in.notes)
        notes << QString::fromStdString(n).toHtmlEscaped();
    for (const Erratum& e : in.errata)
        notes << QStringLiteral(
                     "<span style='color:#c0392b'><b>erratum %1</b> (%2)</span>: %3 — <i>lanemap: %4</i>")
                     .arg(qs(e.id), qs(toString(statusOf(in, e))), qs(e.summary).toHtmlEscaped(),
                          qs(e.lanemap).toHtmlEscaped());
    if (in.metadata)
        for (const std::string& n : in.metadata->notes)
            notes << tr("metadata: %1").arg(QString::fromStdString(n).toHtmlEscaped());
    m_notes->setText(notes.join(QStringLiteral("<br/>")));
    m_notes->setVisible(m_notesToggle->isChecked() && !notes.isEmpty());
    QString summary = tr("%n note(s)", nullptr, static_cast<int>(notes.size() - in.errata.size()));
    for (const Erratum& e : in.errata)
        summary += tr(" · erratum %1 (%2)").arg(qs(e.id), qs(toString(statusOf(in, e))));
    m_notesToggle->setText(summary);
    m_notesToggle->setToolTip(tr("Where this layout comes from: notes, errata and metadata evidence"));
    m_notesToggle->setVisible(!notes.isEmpty());
}

void MainWindow::updateSelectorBox() {
    const QSignalBlocker block(m_selectorBox);
    m_selectorBox->clear();
    const bool sparse = m_instruction && m_instruction->metadata;
    if (sparse)
        for (const MetadataSelector& s : m_instruction->metadata->selectors) {
            m_selectorBox->addItem(QString::number(s.value), s.value);
            if (s.value == m_state->selector())
                m_selectorBox->setCurrentIndex(m_selectorBox->count() - 1);
        }
    m_selectorBox->setEnabled(sparse && m_selectorBox->count() > 1);
    m_selectorBox->setToolTip(sparse ? tr("Sparsity selector: which threads of each group hold the metadata")
                                     : tr("Dense instruction: no sparsity selector"));
}

void MainWindow::updateProbeStatus() {
    if (!m_instruction || m_probe->running())
        return;
    const ProbeReport* report = nullptr;
    const ProbeResult* result = m_probe->resultFor(m_instruction->spec, &report);
    if (result && report) {
        // Which report speaks: this machine's probe run, or a file recorded elsewhere (a user without a GPU
        // must not take it for their own hardware).
        QString origin = tr("probe run on this machine");
        for (const RecordedReport& rec : m_probe->recorded())
            if (&rec.report == report)
                origin = tr("recorded report %1, not this machine").arg(QFileInfo(rec.file).fileName());
        // One line at laptop widths: device and date here; driver, CUDA and counts are in the status bar.
        const QString where = QStringLiteral("%1, %2").arg(
            QString::fromStdString(report->device.name.empty() ? "unknown device" : report->device.name),
            QString::fromStdString(report->date).left(10));
        m_verdictLine->setText(
            result->cellsMismatched == 0
                ? tr("✓ Every cell confirmed on %1 (%2).").arg(where.toHtmlEscaped(), origin)
                : tr("<span style='color:#c62828'>✗ Red frame: the hardware placed that cell "
                     "differently</span> (%1): %2.")
                      .arg(origin, describeReport(*report, *result).toHtmlEscaped()));
        m_verdictLine->show();
        m_probeStatus->setText(describeReport(*report, *result));
        m_probeStatus->setToolTip(
            tr("Hardware report (%1 of %2 cells mismatched). The probe proves that A, B and D "
               "are consistent with each other; K positions only where metadata or a memory "
               "layout anchors them.")
                .arg(result->cellsMismatched)
                .arg(result->cellsChecked));
    } else if (const wmma::RecordedDiscovery* found = m_instruction->discovery;
               found && !m_instruction->operands.empty()) {
        // wmma: no probe report covers it, but its placements were read off a GPU by discovery (the documents
        // leave them unspecified): say where, not "not confirmed on hardware".
        const wmma::DiscoveryReport& r = found->report;
        const wmma::DiscoveryCheck* check = r.check(m_instruction->spec);
        const bool checked = check && check->store == Verdict::Pass && check->mma == Verdict::Pass;
        const QString where =
            QStringLiteral("%1, SASS %2, %3")
                .arg(QString::fromStdString(r.device.name.empty() ? "unknown device" : r.device.name),
                     QString::fromStdString(r.sassTarget), QString::fromStdString(r.date).left(10));
        const QString file = QFileInfo(QString::fromStdString(found->file)).fileName();
        // One line at laptop widths, as a probe report's: driver, CUDA and the product check are in the
        // status bar.
        m_verdictLine->setText(tr("✓ Every cell discovered on %1 (recorded report %2, not this machine).")
                                   .arg(where.toHtmlEscaped(), file.toHtmlEscaped()));
        m_verdictLine->show();
        m_probeStatus->setText(
            tr("discovered on %1 (SASS %2), driver %3, CUDA %4, %5; wmma.mma through it: %6")
                .arg(QString::fromStdString(r.device.name), QString::fromStdString(r.sassTarget),
                     QString::fromStdString(r.device.driver), QString::fromStdString(r.device.cudaRuntime),
                     QString::fromStdString(r.date).left(10),
                     checked ? tr("matches the CPU product")
                     : check ? QString::fromStdString(std::string(toString(check->mma)))
                             : tr("not checked")));
        m_probeStatus->setToolTip(
            tr("The PTX ISA leaves wmma's fragment layout unspecified: these placements were read off that "
               "GPU (%1). Tools → Probe hardware discovers them again on this machine's GPU and compares.")
                .arg(file));
    } else {
        m_verdictLine->clear();
        m_verdictLine->hide();
        m_probeStatus->setText(tr("not confirmed on hardware yet"));
        m_probeStatus->setToolTip(
            tr("No recorded or live probe report covers %1. Tools → Probe hardware runs it on "
               "this machine's GPU.")
                .arg(currentSpec()));
    }
}

QString MainWindow::aboutText() const {
    return tr("<b>lanemap %1</b><p>Which lane, register and bits (for tcgen05, which Tensor Memory lane and "
              "column) hold each element of the PTX tensor-core instructions (%3).</p><p>Layouts from the "
              "PTX ISA 9.1; "
              "the hardware probe confirms them on a GPU. The probe sees A, B and D only through "
              "D = A·B + C: it proves their consistency with each other, and absolute K positions "
              "only where metadata or a memory layout anchors them.</p><p>Free software under the MIT "
              "licence (the LICENSE file of the source). Built with Qt %2 (LGPLv3): Help &rarr; About "
              "Qt.</p>")
        .arg(QString::fromUtf8(kVersionLine.data(), static_cast<qsizetype>(kVersionLine.size())),
             QString::fromLatin1(qVersion()), QString::fromStdString(familyNames()));
}

QString MainWindow::paneTitleCompact(const QString& name) const {
    if (!m_instruction)
        return name;
    const Instruction& in = *m_instruction;
    // The operand and its shape, the axes in order (rows x columns).
    if (name == QLatin1String("A"))
        return tr("<b>A</b> &nbsp;M×K %1×%2").arg(in.m).arg(in.k);
    if (name == QLatin1String("B"))
        return tr("<b>B</b> &nbsp;K×N %1×%2").arg(in.k).arg(in.n);
    if (name == QLatin1String("metadata"))
        return tr("<b>metadata</b> &nbsp;M×K %1×%2").arg(in.m).arg(in.k);
    if (name == metadataRegistersPane())
        return tr("<b>e</b> per lane");
    if (name == productsPane())
        return tr("<b>%1 products</b>").arg(in.operands.front().matrices());
    if (name == sharedMemoryPane())
        return m_smemOperand == Operand::B ? tr("<b>B in shared memory</b>")
                                           : tr("<b>A in shared memory</b>");
    return tr("<b>%1</b> &nbsp;M×N %2×%3").arg(name).arg(in.m).arg(in.n);
}

QString MainWindow::paneTitle(const QString& name) const {
    if (!m_instruction)
        return name;
    const Instruction& in = *m_instruction;
    // Which matrix axis runs down the rows and which across the columns.
    if (name == QLatin1String("A"))
        return tr("<b>A</b> &nbsp;rows M = %1, columns K = %2").arg(in.m).arg(in.k);
    if (name == QLatin1String("B"))
        return tr("<b>B</b> &nbsp;rows K = %1, columns N = %2").arg(in.k).arg(in.n);
    if (name == QLatin1String("metadata"))
        return tr("<b>metadata</b> &nbsp;on A: rows M = %1, columns K = %2").arg(in.m).arg(in.k);
    if (name == metadataRegistersPane())
        return tr("<b>metadata register e</b> &nbsp;per lane, bit 31 left");
    if (name == productsPane())
        return tr("<b>%1 products</b>, one per row: A rows M, columns K &nbsp;·&nbsp; B rows K, columns N "
                  "&nbsp;·&nbsp; C, D rows M, columns N")
            .arg(in.operands.front().matrices());
    if (name == sharedMemoryPane())
        return m_smemOperand == Operand::B
                   ? tr("<b>B in shared memory</b> &nbsp;rows K = %1, columns N = %2; memory: 128-byte lines")
                         .arg(in.k)
                         .arg(in.n)
                   : tr("<b>A in shared memory</b> (SS form) &nbsp;rows M = %1, columns K = %2; memory: "
                        "128-byte lines")
                         .arg(in.m)
                         .arg(in.metadata ? in.k / 2 : in.k);
    return tr("<b>%1</b> &nbsp;rows M = %2, columns N = %3").arg(name).arg(in.m).arg(in.n);
}

void MainWindow::applyVerdictMarks() {
    if (!m_instruction)
        return;
    const ProbeReport* report = nullptr;
    const ProbeResult* result = m_probe->resultFor(m_instruction->spec, &report);
    const bool showMarks = !m_actMarks || m_actMarks->isChecked();
    for (const Pane& pane : m_panes) {
        const Diagram* d = pane.view->diagram();
        if (!d || pane.name == sharedMemoryPane()) // the probe checks registers, not shared memory
            continue;
        CellMarks marks;
        int mismatched = 0;
        if (result) {
            // Only disagreement is marked in the grid; agreement is said once, in the pane's badge.
            marks.verdict.assign(d->cells.size(), CellMarks::NoVerdict);
            std::vector<OperandSet> panelOperands;
            for (const DiagramPanel& panel : d->panels)
                panelOperands.push_back(panel.operands);
            for (std::size_t i = 0; i < d->cells.size(); ++i) {
                const DiagramCell& c = d->cells[i];
                if (cellVerdict(result, panelOperands[c.panel], c.matrix, c.row, c.col) !=
                    CellVerdict::Mismatch)
                    continue;
                marks.verdict[i] = CellMarks::Mismatch;
                ++mismatched;
            }
        }
        if (!showMarks || mismatched == 0)
            marks.verdict.clear();
        pane.view->setMarks(std::move(marks));
        if (!pane.frame)
            continue;
        if (!result || !report)
            pane.frame->setBadge(QString(), true);
        else if (mismatched == 0)
            pane.frame->setBadge(tr("✓ confirmed on hardware"), true, describeReport(*report, *result),
                                 QStringLiteral("✓"));
        else
            pane.frame->setBadge(tr("✗ %n cell(s) placed differently", nullptr, mismatched), false,
                                 describeReport(*report, *result), QStringLiteral("✗ %1").arg(mismatched));
    }
}

// --- hover, click, keyboard
// ----------------------------------------------------------------------------------

CellInfo MainWindow::describe(const DiagramView* view, int cell) const {
    const Pane* pane = paneOf(view);
    const Diagram* d = view ? view->diagram() : nullptr;
    if (!pane || !d || cell < 0 || static_cast<std::size_t>(cell) >= d->cells.size())
        return {};
    const Instruction& in = *pane->instruction;
    const DiagramCell& c = d->cells[static_cast<std::size_t>(cell)];
    const DiagramPanel& panel = d->panels[c.panel];
    CellInfo info;
    // Tensor Memory and shared-memory cells: their fields (cell_info.hpp), from the options the picture was
    // built with; the hover line's words alone where those are not at hand.
    if ((panel.kind == PanelKind::TensorMemory || panel.kind == PanelKind::TensorMemoryRegisters) &&
        d == m_tmemDiagram.get() && m_tmemDiagramOf == &in)
        return describeTensorMemoryCell(in, m_tmemDiagramOptions, *d, cell);
    if ((panel.kind == PanelKind::SharedMemory || panel.kind == PanelKind::SharedMemoryMap) &&
        &in == m_instruction) {
        std::string why;
        for (const smem::SharedOperand& op : smem::operands(in, m_smemChoice, why))
            if (op.operand == m_smemOperand)
                return describeSharedMemoryCell(in, op, *d, cell);
    }
    if (panel.kind == PanelKind::SharedMemory || panel.kind == PanelKind::SharedMemoryMap ||
        panel.kind == PanelKind::TensorMemory || panel.kind == PanelKind::TensorMemoryRegisters) {
        info.valid = true;
        info.spec = QString::fromStdString(in.spec);
        info.operand = QString::fromStdString(panel.name);
        info.summary = QString::fromStdString(d->tooltip(c));
        info.panelTitle = QString::fromStdString(panel.title);
        return info;
    }
    if (panel.kind == PanelKind::Metadata) {
        if (!in.metadata)
            return {};
        for (const MetadataSelector& s : in.metadata->selectors) {
            if (!d->selector || s.value != *d->selector)
                continue;
            for (const MetadataField& f : s.fields)
                if (f.thread == c.thread && f.bitLo == c.bitLo && f.row == c.row && f.colFirst == c.col)
                    info = describeMetadataField(in, s.value, f);
        }
    } else {
        const FragmentLayout* op = panel.operands.empty() ? nullptr : in.operand(panel.operands.first());
        if (!op)
            return {};
        info = describeCell(in, *op, c.matrix, c.row, c.col);
        info.operand = QString::fromStdString(panel.name);
        // The hovered owner first when several share the position.
        std::stable_partition(info.owners.begin(), info.owners.end(), [&](const OwnerInfo& o) {
            return o.thread == c.thread && o.index == c.element;
        });
    }
    if (!info.owners.empty()) {
        const bool mergedCD = std::any_of(d->panels.begin(), d->panels.end(),
                                          [](const DiagramPanel& p) { return p.operands == kAccumulator; }) ||
                              std::any_of(m_panes.begin(), m_panes.end(),
                                          [](const Pane& p) { return p.name == qs(toString(kAccumulator)); });
        addLaneRegisters(info, in, info.owners.front().thread, mergedCD && !pane->compare,
                         d->selector.value_or(m_state->selector()));
    }
    if (!pane->compare) {
        const ProbeReport* report = nullptr;
        if (const ProbeResult* result = m_probe->resultFor(in.spec, &report); result && report) {
            const CellVerdict v = cellVerdict(result, panel.operands, c.matrix, c.row, c.col);
            info.probe = v == CellVerdict::Mismatch ? tr("✗ the hardware placed this cell differently (%1)")
                                                          .arg(describeReport(*report, *result))
                                                    : QStringLiteral("✓ ") + describeReport(*report, *result);
        }
    }
    return info;
}

void MainWindow::onHover(DiagramView* view, int cell) {
    m_hoverPending = true;
    if (cell < 0) {
        m_state->setHoveredLane(-1);
        m_hoverStatus->clear();
        // Fall back to the keyboard cursor's cell, if any.
        if (m_lastView && m_lastView->cursorCell() >= 0)
            m_state->setCell(describe(m_lastView, m_lastView->cursorCell()));
        return;
    }
    const Diagram* d = view->diagram();
    const DiagramCell& c = d->cells[static_cast<std::size_t>(cell)];
    m_state->setHoveredLane(c.thread);
    m_state->setCell(describe(view, cell));
    m_hoverStatus->setText(QString::fromStdString(d->tooltip(c)));
    m_lastView = view;
    m_lastCell = cell;
}

void MainWindow::hoverCell(DiagramView* view, int cell) {
    if (view && view == pane(sharedMemoryPane())) { // chunks, not lanes (as the mouse there does)
        onSharedMemoryHover(view, cell);
        return;
    }
    onHover(view, cell);
}

void MainWindow::onClick(DiagramView* view, int cell) {
    if (cell < 0) {
        setPinnedThread(-1);
        return;
    }
    const int thread = view->diagram()->cells[static_cast<std::size_t>(cell)].thread;
    setPinnedThread(thread == m_state->pinnedLane() ? -1 : thread);
    m_lastView = view;
    m_lastCell = cell;
    m_state->setCell(describe(view, cell));
}

void MainWindow::setPinnedThread(int thread) {
    m_state->setPinnedLane(thread);
    if (thread >= 0)
        statusBar()->showMessage(tr("Pinned lane %1 (click it again or press Esc to unpin)").arg(thread),
                                 4000);
}

void MainWindow::onPaneTab(DiagramView* view, bool backward) {
    std::vector<DiagramView*> views;
    for (DiagramView* v : allViews())
        if (v->isVisible())
            views.push_back(v);
    if (views.empty())
        return;
    auto it = std::find(views.begin(), views.end(), view);
    std::ptrdiff_t i = it == views.end() ? 0 : it - views.begin();
    const auto n = static_cast<std::ptrdiff_t>(views.size());
    i = ((i + (backward ? -1 : 1)) % n + n) % n;
    views[static_cast<std::size_t>(i)]->setFocus(backward ? Qt::BacktabFocusReason : Qt::TabFocusReason);
}

void MainWindow::onPainted(double ms) {
    if (m_startTimer && !m_startPainted) {
        m_startPainted = true;
        m_startToFirstPaint = static_cast<double>(m_startTimer->nsecsElapsed()) / 1e6;
    }
    if (m_waitingFirstPaint && m_selectTimer.isValid()) {
        // Selected -> painted means every pane of the new instruction the user can see has painted once.
        // The panes behind the compare page (or in a hidden dock) never paint: they do not count, or compare
        // mode reports the time until the user leaves it.
        m_unpainted.remove(sender());
        QSet<const QObject*> visible;
        for (const DiagramView* v : allViews())
            if (m_unpainted.contains(v) && v->isVisible())
                visible.insert(v);
        m_unpainted = visible;
        if (m_unpainted.isEmpty()) {
            m_waitingFirstPaint = false;
            m_selectToFirstPaint = static_cast<double>(m_selectTimer.nsecsElapsed()) / 1e6;
            emit firstPaint();
        }
    } else if (m_hoverPending) {
        m_maxHoverFrame = std::max(m_maxHoverFrame, ms);
        m_sumHoverFrame += ms;
        ++m_hoverFrames;
    }
}

QString MainWindow::timingReport() const {
    return tr("start -> first paint %1 ms; select -> first paint %2 ms; hover frames: %3, mean %4 ms, max %5 "
              "ms")
        .arg(m_startToFirstPaint, 0, 'f', 1)
        .arg(m_selectToFirstPaint, 0, 'f', 1)
        .arg(m_hoverFrames)
        .arg(m_hoverFrames ? m_sumHoverFrame / m_hoverFrames : 0.0, 0, 'f', 2)
        .arg(m_maxHoverFrame, 0, 'f', 2);
}

// --- view state
// ----------------------------------------------------------------------------------------------

void MainWindow::connectViewState() {
    // The window's own controls follow the state; views and the details panel connect to it themselves.
    connect(m_state, &ViewState::diagramOptionsChanged, this, [this] {
        if (m_restoring)
            return;
        if (m_instruction)
            rebuildPanes();
        if (m_compareInstruction)
            rebuildCompare();
    });
    // setCompare and setCompareOperand rebuild the compare page themselves (once).
    connect(m_state, &ViewState::colorByChanged, this, [this](ColorBy colorBy) {
        m_colorBox->setCurrentIndex(m_colorBox->findData(static_cast<int>(colorBy)));
        for (QAction* a : m_colorGroup->actions())
            a->setChecked(a->data().toInt() == static_cast<int>(colorBy));
    });
    connect(m_state, &ViewState::paletteChanged, this, [this](Palette palette) {
        const QSignalBlocker block(m_actColorBlind);
        m_actColorBlind->setChecked(palette == Palette::ColorBlind);
    });
    connect(m_state, &ViewState::showLabelsChanged, this, [this](bool on) {
        const QSignalBlocker block(m_actLabels);
        m_actLabels->setChecked(on);
    });
    connect(m_state, &ViewState::selectorChanged, this, [this] { updateSelectorBox(); });
    connect(m_state, &ViewState::compareChanged, this, [this] {
        const int i = m_compareOperandBox->findText(qs(toString(m_state->compareOperand())));
        if (i >= 0)
            m_compareOperandBox->setCurrentIndex(i);
    });
}

void MainWindow::setTheme(Theme theme) {
    m_themeFollowsSystem = false;
    if (m_actSystemTheme) {
        const QSignalBlocker block(m_actSystemTheme);
        m_actSystemTheme->setChecked(false);
    }
    applyTheme(theme);
}

void MainWindow::setThemeFollowsSystem(bool on) {
    m_themeFollowsSystem = on;
    if (m_actSystemTheme) {
        const QSignalBlocker block(m_actSystemTheme);
        m_actSystemTheme->setChecked(on);
    }
    if (on)
        applyTheme(m_options.systemTheme.value_or(systemTheme()));
}

void MainWindow::applyTheme(Theme theme) {
    m_state->setTheme(theme);
    qApp->setPalette(windowPalette(theme));
    {
        const QSignalBlocker block(m_actDark);
        m_actDark->setChecked(theme == Theme::Dark);
    }
    m_filterError->setStyleSheet(theme == Theme::Dark ? QStringLiteral("QLabel { color: #ff7b72; }")
                                                      : QStringLiteral("QLabel { color: #c62828; }"));
    m_legend->setColors(viewColors(theme));
}

Theme MainWindow::theme() const {
    return m_state->theme();
}

int MainWindow::pinnedThread() const {
    return m_state->pinnedLane();
}

void MainWindow::setColorBy(ColorBy colorBy) {
    m_state->setColorBy(colorBy);
}

void MainWindow::setPalette(Palette palette) {
    m_state->setPalette(palette);
}

bool MainWindow::setLaneFilter(const QString& lanes, QString* error) {
    const QString text = lanes.trimmed();
    std::vector<int> threads;
    if (!text.isEmpty() && text != QLatin1String("all")) {
        std::string message;
        const int limit = m_instruction ? m_instruction->threads : 128;
        const auto parsed = parseLaneList(text.toStdString(), limit, message);
        if (!parsed) {
            m_laneEdit->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #d23c3c; }"));
            m_laneEdit->setToolTip(QString::fromStdString(message));
            statusBar()->showMessage(QString::fromStdString(message), 8000);
            if (error)
                *error = QString::fromStdString(message);
            return false;
        }
        threads = *parsed;
    }
    m_laneEdit->setStyleSheet(QString());
    m_laneEdit->setToolTip(tr("Lanes drawn in color; the others are grey. E.g. 0-3,13"));
    if (m_laneEdit->text() != text)
        m_laneEdit->setText(text);
    m_state->setLanes(text, std::move(threads));
    return true;
}

bool MainWindow::setSelector(int selector) {
    if (!m_instruction || !m_instruction->metadata)
        return false;
    bool valid = false;
    for (const MetadataSelector& s : m_instruction->metadata->selectors)
        valid = valid || s.value == selector;
    if (!valid)
        return false;
    m_state->setSelector(selector);
    return true;
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

void MainWindow::copyImage() {
    if (!m_instruction)
        return;
    PaintOptions o;
    o.colors = viewColors(m_state->theme());
    o.labels = m_state->showLabels();
    const Diagram d = exportDiagram();
    QApplication::clipboard()->setImage(renderDiagram(d, o, nullptr, d.width * d.height > 4.0e6 ? 1.0 : 2.0));
    statusBar()->showMessage(tr("Copied the picture of %1").arg(currentSpec()), 3000);
}

void MainWindow::rememberVisit(const QString& spec) {
    if (!m_navigating && (m_history.isEmpty() || m_history[m_historyPos] != spec)) {
        m_history.resize(m_history.isEmpty() ? 0 : m_historyPos + 1); // a new visit drops the forward part
        m_history << spec;
        m_historyPos = static_cast<int>(m_history.size()) - 1;
    }
    m_actBack->setEnabled(m_historyPos > 0);
    m_actForward->setEnabled(m_historyPos + 1 < m_history.size());
    m_recent.removeAll(spec);
    m_recent.prepend(spec);
    while (m_recent.size() > 10)
        m_recent.removeLast();
    m_recentMenu->clear();
    for (const QString& s : m_recent)
        m_recentMenu->addAction(s, this, [this, s] { openSpec(s); });
}

void MainWindow::goBack() {
    if (m_historyPos <= 0)
        return;
    m_navigating = true;
    openSpec(m_history[--m_historyPos]);
    m_navigating = false;
    rememberVisit(currentSpec());
}

void MainWindow::goForward() {
    if (m_historyPos + 1 >= m_history.size())
        return;
    m_navigating = true;
    openSpec(m_history[++m_historyPos]);
    m_navigating = false;
    rememberVisit(currentSpec());
}

QString MainWindow::shortcutsText() const {
    QString rows;
    auto row = [&rows](const QString& keys, const QString& what) {
        rows += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    const std::function<void(const QList<QAction*>&)> walk = [&](const QList<QAction*>& actions) {
        for (QAction* a : actions) {
            if (a->menu())
                walk(a->menu()->actions());
            else if (!a->shortcut().isEmpty())
                row(a->shortcut().toString(QKeySequence::NativeText),
                    QString(a->text()).remove(QLatin1Char('&')));
        }
    };
    walk(menuBar()->actions());
    row(tr("Arrows"), tr("move the cell cursor in the focused pane"));
    row(tr("Tab / Shift+Tab"), tr("next / previous pane"));
    row(tr("Space, click"), tr("pin the lane under the cursor (again to unpin)"));
    row(tr("Esc"), tr("unpin, hide the cursor"));
    row(tr("+ / − / 0 in a pane, Ctrl+wheel"), tr("zoom that pane / fit it"));
    return QStringLiteral("<table>%1</table>").arg(rows);
}

void MainWindow::setShowLabels(bool on) {
    m_state->setShowLabels(on);
}

void MainWindow::zoomIn() {
    for (DiagramView* v : allViews())
        v->zoomBy(1.25);
}
void MainWindow::zoomOut() {
    for (DiagramView* v : allViews())
        v->zoomBy(0.8);
}
void MainWindow::fitAll() {
    for (DiagramView* v : allViews())
        v->fit(DiagramView::FitMode::Readable);
    updateBands(); // the bands that show a long grid largest at this pane size
}
void MainWindow::fitWhole() {
    for (DiagramView* v : allViews())
        v->fit(DiagramView::FitMode::All);
    updateBands(); // bands make a whole long grid's cells larger
}

void MainWindow::copyCellInfo() {
    m_details->copyToClipboard();
    if (m_details->cell().valid)
        statusBar()->showMessage(tr("Copied the cell's details"), 3000);
}

Preferences MainWindow::preferences() const {
    Preferences p = m_prefs;
    p.spec = currentSpec();
    p.theme = m_state->theme();
    p.themeFollowsSystem = m_themeFollowsSystem;
    p.colorBy = m_state->colorBy();
    p.palette = m_state->palette();
    p.showLabels = m_state->showLabels();
    p.selector = m_state->selector();
    p.laneFilter = m_state->lanesText();
    p.pinnedThread = m_state->pinnedLane();
    p.compareSpec = m_state->compareSpec();
    bool fit = true;
    double zoom = p.zoom;
    for (const Pane& pane : m_panes) {
        fit = fit && pane.view->fitting();
        if (!pane.view->fitting())
            zoom = pane.view->zoom();
    }
    p.fitToPane = fit;
    p.zoom = zoom;
    p.geometry = saveGeometry();
    p.windowState = saveState();
    return p;
}

void MainWindow::applyPreferences(const Preferences& prefs) {
    m_restoring = true;
    m_prefs = prefs;
    if (prefs.themeFollowsSystem)
        setThemeFollowsSystem(true);
    else
        setTheme(prefs.theme);
    setShowLabels(prefs.showLabels);
    setColorBy(prefs.colorBy);
    setPalette(prefs.palette);
    m_state->setSelector(prefs.selector);
    m_restoring = false;
    if (!prefs.geometry.isEmpty())
        restoreGeometry(prefs.geometry);
    if (!prefs.windowState.isEmpty())
        restoreState(prefs.windowState);
    // The lane filter is validated against the instruction it applies to.
    QString error;
    if (!openSpec(prefs.spec, &error)) {
        statusBar()->showMessage(
            tr("Last instruction '%1' is not in this catalog: %2").arg(prefs.spec, error), 8000);
        openSpec(Preferences().spec);
    }
    if (!prefs.laneFilter.isEmpty())
        setLaneFilter(prefs.laneFilter);
    if (m_instruction && m_instruction->metadata)
        setSelector(prefs.selector);
    setPinnedThread(prefs.pinnedThread);
    if (!prefs.compareSpec.isEmpty())
        setCompare(prefs.compareSpec);
    if (!prefs.fitToPane)
        for (DiagramView* v : panes())
            v->setZoom(prefs.zoom);
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

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    // The desktop switched light/dark while the app runs: follow it, unless the user picked a theme.
    if (event->type() == QEvent::ThemeChange && m_themeFollowsSystem && m_state) {
        const Theme desktop = m_options.desktopTheme ? m_options.desktopTheme() : currentDesktopTheme();
        if (desktop != theme())
            applyTheme(desktop);
    }
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    if (m_bandTimer)
        m_bandTimer->start(); // the bands that show a grid largest depend on its pane's size
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (m_probe->running())
        m_probe->cancel();
    savePreferences();
    QMainWindow::closeEvent(event);
}

// --- probe
// ---------------------------------------------------------------------------------------------------

void MainWindow::probeHardware() {
    if (m_probe->running())
        return;
    const std::vector<const Variant*>& variants = Catalog::instance().variants();
    m_probeProgress->setRange(0, static_cast<int>(variants.size()));
    m_probeProgress->setValue(0);
    m_probeProgress->show();
    m_probeCancel->show();
    m_actProbe->setEnabled(false);
    m_probeStatus->setText(tr("looking for a GPU…"));
    m_probe->start(variants);
}

// --- export
// --------------------------------------------------------------------------------------------------

Diagram MainWindow::exportDiagram() const {
    if (!m_instruction)
        return {};
    if (tmem::mmaOf(*m_instruction)) // what the Tensor Memory pane shows
        if (std::shared_ptr<const Diagram> tmemView = tensorMemoryDiagram())
            return *tmemView;
    Diagram d = buildDiagram(*m_instruction, diagramOptions({}));
    // wgmma: the shared-memory operand the pane shows, under the register operands.
    if (smem::hasSharedMemoryOperands(*m_instruction)) {
        std::string why;
        for (const smem::SharedOperand& op : smem::operands(*m_instruction, m_smemChoice, why))
            if (op.operand == m_smemOperand) {
                SharedMemoryDiagramOptions o;
                o.palette = m_state->palette();
                appendSharedMemory(d, op, o);
            }
    }
    return d;
}

bool MainWindow::exportSvg(const QString& path, QString* error) const {
    if (!m_instruction) {
        if (error)
            *error = tr("no instruction is open");
        return false;
    }
    const std::string svg = toSvg(exportDiagram());
    const std::string failure = writeFileAtomic(path.toStdString(), svg);
    if (!failure.empty()) {
        if (error)
            *error = QString::fromStdString(failure);
        return false;
    }
    return true;
}

bool MainWindow::exportPng(const QString& path, QString* error) const {
    if (!m_instruction) {
        if (error)
            *error = tr("no instruction is open");
        return false;
    }
    PaintOptions o;
    o.colors = viewColors(m_state->theme());
    o.labels = m_state->showLabels();
    o.chrome = true;
    o.legends = true;
    const Diagram d = exportDiagram();
    // 2 px per unit: sharp in documents and on high-DPI screens; very large diagrams get 1.
    const double scale = d.width * d.height > 4.0e6 ? 1.0 : 2.0;
    const QImage image = renderDiagram(d, o, nullptr, scale);
    QByteArray bytes;
    {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!image.save(&buffer, "PNG")) {
            if (error)
                *error = tr("could not encode the PNG (%1x%2)").arg(image.width()).arg(image.height());
            return false;
        }
    }
    const std::string failure = writeFileAtomic(
        path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    if (!failure.empty()) {
        if (error)
            *error = QString::fromStdString(failure);
        return false;
    }
    return true;
}

} // namespace lanemap::gui
