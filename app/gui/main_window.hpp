#pragma once
// The lanemap window: catalog tree with a filter box (search words or a pasted PTX instruction), one pane per
// operand (A, B, C/D and, for sparse, the metadata grid with its per-lane bit diagrams), the details panel,
// hover cross-highlighting, compare mode, export, themes, the probe status area, and QSettings persistence.

#include "diagram_cache.hpp"
#include "diagram_view.hpp"
#include "preferences.hpp"

#include "lanemap/diagram.hpp"
#include "lanemap/diagram_tmem.hpp"
#include "lanemap/smem.hpp"

#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QMainWindow>
#include <QPointer>
#include <QSet>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QActionGroup;
class QComboBox;
class QLabel;
class QDockWidget;
class QLineEdit;
class QMenu;
class QMessageBox;
class QProgressBar;
class QSettings;
class QSplitter;
class QStackedWidget;
class QTimer;
class QToolButton;
class QTreeView;

namespace lanemap {
struct Instruction;
}

namespace lanemap::gui {

class CatalogModel;
class CatalogFilterModel;
class DetailsPanel;
class LegendBar;
class PaneFrame;
class ProbeController;
class ViewState;
class WmmaTargetPicker;
struct CellInfo;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    struct Options {
        QSettings* settings = nullptr; // where preferences and the last view persist; nullptr = nowhere
        bool restore = true;           // apply the stored preferences and last view at start
        QString recordedReports = QStringLiteral(":/lanemap/probe"); // folder of recorded probe reports
        std::optional<Theme> systemTheme; // the desktop's theme; unset: read from the starting palette
        // The desktop's theme now, asked when the platform says its theme or palette changed (tests stand in
        // for a desktop here); unset: read from the platform palette.
        std::function<Theme()> desktopTheme;
    };

    explicit MainWindow(const Options& options, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a spec or a full PTX instruction string. On failure the view is unchanged and *error says why.
    bool openSpec(const QString& text, QString* error = nullptr);
    // Shows an instruction that is not (necessarily) in the catalog; it must outlive the window's use of it.
    void showInstruction(const Instruction& instruction);
    const Instruction* instruction() const { return m_instruction; }
    QString currentSpec() const;

    // Panes: "A", "B", C/D (or "C" and "D"), "metadata" and "metadata registers" for sparse instructions,
    // "shared memory" for wgmma.
    QStringList paneNames() const;
    DiagramView* pane(const QString& name) const;
    // The pane's frame: its title (operand and axes), hardware verdict badge and zoom.
    PaneFrame* paneFrame(const QString& name) const;
    QLabel* verdictLegend() const { return m_verdictLine; }
    QList<DiagramView*> panes() const;
    // Compare views (left = current instruction, right = the compared one); nullptr when compare is off.
    DiagramView* compareView(int side) const;

    DetailsPanel* details() const { return m_details; }
    WmmaTargetPicker* wmmaTargetPicker() const { return m_wmmaTarget; } // wmma: the SASS target shown
    QLineEdit* filterEdit() const { return m_filter; }
    QLabel* filterError() const { return m_filterError; }
    QLabel* filterHint() const { return m_filterHint; }
    QTreeView* catalogTree() const { return m_tree; }
    CatalogFilterModel* filterModel() const { return m_filterModel; }
    CatalogModel* catalogModel() const { return m_catalogModel; }
    ProbeController* probeController() const { return m_probe; }
    QComboBox* selectorBox() const { return m_selectorBox; }
    QLabel* probeStatus() const { return m_probeStatus; }
    // The non-modal notice the probe action shows when it cannot run here; nullptr before that.
    QMessageBox* probeNotice() const;
    LegendBar* legendBar() const { return m_legend; }
    // What every view shares (hovered and pinned lane, coloring, filter, selector, compare).
    ViewState* viewState() const { return m_state; }
    const DiagramCache& diagramCache() const { return m_cache; }

    // View state (what the toolbar and menus change).
    // An explicit theme: the desktop's is no longer followed (View -> Follow system theme turns it back on).
    void setTheme(Theme theme);
    Theme theme() const;
    void setThemeFollowsSystem(bool on);
    bool themeFollowsSystem() const { return m_themeFollowsSystem; }
    void setColorBy(ColorBy colorBy);
    void setPalette(Palette palette);
    bool setLaneFilter(const QString& lanes, QString* error = nullptr);
    bool setSelector(int selector);
    void setShowLabels(bool on);
    void setPinnedThread(int thread);
    int pinnedThread() const;
    // Compare the current instruction's `operand` with the same operand of `spec`; empty spec turns compare
    // off.
    bool setCompare(const QString& spec, QString* error = nullptr);
    void setCompareOperand(const QString& operand);
    int compareDifferences() const { return m_compareDifferences; }

    // wgmma: the "shared memory" pane draws B (or A, the SS form) as it sits in shared memory for a
    // major-ness and swizzle (the CLI's `show --major --swizzle` model). Operand "A" or "B", major "K" or
    // "MN", swizzle "none", "32B", "64B", "128B"; false with *error naming what is not valid here.
    static QString sharedMemoryPane() { return QStringLiteral("shared memory"); }
    // Quad-pair instructions (m8n8k4 .f16) show one pane with every operand, a row of A | B | C/D per
    // product.
    static QString productsPane() { return QStringLiteral("products"); }
    // Sparse instructions: the metadata diagram in two panes, the grid over A ("metadata") and the per-lane
    // 32-bit registers (this one), so both are readable at first sight on a laptop.
    static QString metadataRegistersPane() { return QStringLiteral("metadata registers"); }
    bool setSharedMemoryView(const QString& operand, const QString& major, const QString& swizzle,
                             QString* error = nullptr);
    smem::Choice sharedMemoryChoice() const { return m_smemChoice; }
    // What the pane shows: "addresses" (the element grid), "memory" (the 128-byte lines) or "both". Each
    // alone is readable at fit in a laptop-sized pane; the SVG export carries both.
    bool setSharedMemoryShow(const QString& what);
    QComboBox* smemShowBox() const { return m_smemShowBox; }
    Operand sharedMemoryOperand() const { return m_smemOperand; }
    QComboBox* smemOperandBox() const { return m_smemOperandBox; }
    QComboBox* smemMajorBox() const { return m_smemMajorBox; }
    QComboBox* smemSwizzleBox() const { return m_smemSwizzleBox; }

    // tcgen05.mma: the Tensor Memory pane (main_window_tmem.cpp). N (0: the entry's largest, or what the
    // spec named), the operand ("D", or "A" where the layout models A in Tensor Memory) and the access it is
    // composed with: a tcgen05.ld of D or a tcgen05.st of A, in spec words ("tcgen05.ld.32x32b.x32"), or
    // "none" for the operand alone. False with *error naming what is not valid (and nothing changed).
    static QString tensorMemoryPane() { return QStringLiteral("Tensor Memory"); }
    bool setTensorMemoryView(int n, const QString& operand, const QString& access, QString* error = nullptr);
    const TensorMemoryOptions& tensorMemoryOptions() const { return m_tmem; }
    QComboBox* tmemNBox() const { return m_tmemNBox; }
    QComboBox* tmemOperandBox() const { return m_tmemOperandBox; }
    QComboBox* tmemAccessBox() const { return m_tmemAccessBox; }
    // Block-scaled kinds: the vector size ("2X", "block16", ...) and the SFA / SFB IDs the scale-factor
    // panels draw (main_window_tmem.cpp); false with `error` naming the valid values.
    bool setTensorMemoryBlockScale(const QString& vec, int sfaId, int sfbId, QString* error = nullptr);
    QComboBox* tmemScaleVecBox() const { return m_tmemScaleVecBox; }
    QComboBox* tmemSfaIdBox() const { return m_tmemSfaIdBox; }
    QComboBox* tmemSfbIdBox() const { return m_tmemSfbIdBox; }

    // Hover as the mouse would (tests, and the legend strip): lights the cell's lane everywhere.
    void hoverCell(DiagramView* view, int cell);

    // Current preferences and last view (what closing the window saves).
    Preferences preferences() const;
    void applyPreferences(const Preferences& preferences);
    void savePreferences();

    // Exports the current instruction, every operand, with the current coloring, lane filter and selector.
    bool exportSvg(const QString& path, QString* error = nullptr) const;
    bool exportPng(const QString& path, QString* error = nullptr) const;
    // The diagram that export writes.
    Diagram exportDiagram() const;

    // Timing (ms) for the --timing report: start->first paint, select->first paint, last hover frame.
    void setStartTimer(const QElapsedTimer* timer) { m_startTimer = timer; }
    double startToFirstPaintMs() const { return m_startToFirstPaint; }
    double selectToFirstPaintMs() const { return m_selectToFirstPaint; }
    QString timingReport() const;
    // What Help -> About says: what lanemap is, its licence, the Qt it runs on.
    QString aboutText() const;

    // View -> Wrap long rows into bands: a grid much wider than its pane (wgmma m64n256's D) is drawn as
    // bands of columns stacked down the pane when that shows it larger. On by default.
    void setWrapBands(bool on);
    bool wrapBands() const;

  public slots:
    void probeHardware();
    void zoomIn();
    void zoomOut();
    void fitAll();   // every pane: fit readable (the default for a newly opened instruction)
    void fitWhole(); // every pane: fit all (the whole diagram)
    void copyCellInfo();
    // History of opened instructions (Alt+Left / Alt+Right).
    void goBack();
    void goForward();
    void copyImage(); // the whole picture (as exported) to the clipboard

  signals:
    void instructionChanged(const QString& spec);
    void firstPaint();

  protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    struct Pane {
        QString name;
        QPointer<DiagramView> view;
        QPointer<PaneFrame> frame; // header (axes, verdict badge, zoom) over the view; null for compare views
        const Instruction* instruction = nullptr;
        bool compare = false;
        std::shared_ptr<const Diagram> unwrapped; // the diagram before long rows were wrapped into bands
        int bandColumns = 0;                      // columns per band; 0: not wrapped
    };
    void updateBands(); // wraps (or unwraps) each fitted pane's grid where bands show it larger

    void buildUi();
    void buildActions();
    void onFilterChanged(const QString& text);
    void onTreeCurrentChanged(const QModelIndex& current);
    void selectInTree(const QString& spec);
    void rebuildPanes(bool newInstruction = false);
    void rebuildCompare();
    std::vector<std::pair<QString, std::shared_ptr<const Diagram>>> paneDiagrams() const;
    std::shared_ptr<const Diagram> diagramFor(const Instruction& instruction,
                                              const DiagramOptions& options) const;
    DiagramOptions diagramOptions(OperandSet operands) const;
    DiagramView* makeView(const QString& name);
    std::shared_ptr<const Diagram> sharedMemoryDiagram(QString* error = nullptr) const;
    QWidget* makeSharedMemoryTools();
    void updateSharedMemoryTools();
    void onSharedMemoryHover(DiagramView* view, int cell);
    std::shared_ptr<const Diagram> tensorMemoryDiagram() const;
    QWidget* makeTensorMemoryTools();
    void updateTensorMemoryTools();
    void resetTensorMemoryView(int n); // a newly opened tcgen05.mma entry: its N, D, the default ld
    // Both setters end here: validated against the entry, then shown (refit: a different picture).
    bool applyTensorMemoryOptions(const TensorMemoryOptions& o, bool refit, QString* error);
    void attachView(DiagramView* view);
    const Pane* paneOf(const DiagramView* view) const;
    void updateHeader();
    void applyTheme(Theme theme);
    void updateSelectorBox();
    void updateProbeStatus();
    void applyVerdictMarks();
    QString paneTitle(const QString& name) const;
    QString paneTitleCompact(const QString& name) const; // when the pane is narrow
    void rememberVisit(const QString& spec);
    QString exportFolder() const; // where the export dialogs open: the last folder written to
    void rememberExportFolder(const QString& path);
    QString shortcutsText() const;
    void onHover(DiagramView* view, int cell);
    void onClick(DiagramView* view, int cell);
    void onPaneTab(DiagramView* view, bool backward);
    void onPainted(double ms);
    CellInfo describe(const DiagramView* view, int cell) const;
    std::vector<DiagramView*> allViews() const;
    void connectViewState();

    Options m_options;
    Preferences m_prefs;
    const Instruction* m_instruction = nullptr;
    const Instruction* m_compareInstruction = nullptr;
    int m_compareDifferences = 0;
    ViewState* m_state = nullptr;
    std::vector<Pane> m_panes;
    std::vector<Pane> m_compareViews;
    mutable DiagramCache m_cache;
    DiagramView* m_lastView = nullptr;
    int m_lastCell = -1;

    TensorMemoryOptions m_tmem; // the Tensor Memory pane's view (n 0: the entry's)
    int m_tmemPendingN = 0;     // the N a spec named, for the entry about to open
    // The last Tensor Memory diagram and what it was built from (a composed m128n256 has 65,536 cells).
    mutable std::shared_ptr<const Diagram> m_tmemDiagram;
    mutable const Instruction* m_tmemDiagramOf = nullptr;
    mutable TensorMemoryOptions m_tmemDiagramOptions;
    QPointer<QComboBox> m_tmemNBox, m_tmemOperandBox, m_tmemAccessBox;
    QPointer<QComboBox> m_tmemScaleVecBox, m_tmemSfaIdBox, m_tmemSfbIdBox; // block-scaled kinds only
    QPointer<QWidget> m_tmemScaleTools;
    QPointer<QLabel> m_tmemAccessLabel;

    // Widgets
    QLineEdit* m_filter = nullptr;
    QLabel* m_filterError = nullptr;
    QLabel* m_filterHint = nullptr;
    QLabel* m_filterCount = nullptr;
    QTreeView* m_tree = nullptr;
    CatalogModel* m_catalogModel = nullptr;
    CatalogFilterModel* m_filterModel = nullptr;
    DetailsPanel* m_details = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_ptx = nullptr;
    QLabel* m_facts = nullptr;
    QLabel* m_notes = nullptr;
    QToolButton* m_notesToggle = nullptr;     // shows or hides m_notes
    WmmaTargetPicker* m_wmmaTarget = nullptr; // wmma_targets.hpp
    LegendBar* m_legend = nullptr;
    QLabel* m_verdictLine = nullptr;
    std::vector<QDockWidget*> m_docks; // listed in View -> Panels
    QStackedWidget* m_stack = nullptr;
    QSplitter* m_paneSplitter = nullptr;
    QSplitter* m_leftColumn = nullptr;
    QSplitter* m_rightColumn = nullptr;
    QWidget* m_comparePage = nullptr;
    QLabel* m_compareSummary = nullptr;
    QSplitter* m_compareSplitter = nullptr;
    QComboBox* m_colorBox = nullptr;
    QLineEdit* m_laneEdit = nullptr;
    QLabel* m_laneLabel = nullptr;
    QComboBox* m_selectorBox = nullptr;
    QLabel* m_selectorLabel = nullptr;
    QLineEdit* m_compareEdit = nullptr;
    QComboBox* m_compareOperandBox = nullptr;
    QLabel* m_hoverStatus = nullptr;
    QLabel* m_probeStatus = nullptr;
    QProgressBar* m_probeProgress = nullptr;
    QToolButton* m_probeCancel = nullptr;
    QPointer<QMessageBox> m_probeNotice; // "no GPU here", non-modal
    ProbeController* m_probe = nullptr;
    // The shared-memory pane's choice (kept across instructions where it applies) and its pickers.
    smem::Choice m_smemChoice;
    Operand m_smemOperand = Operand::B;
    QPointer<QComboBox> m_smemOperandBox, m_smemMajorBox, m_smemSwizzleBox, m_smemShowBox;
    bool m_smemAddresses = true, m_smemMap = false;
    QPointer<QLabel> m_smemNote;

    // Actions
    QAction* m_actLabels = nullptr;
    QAction* m_actDark = nullptr;
    QAction* m_actSystemTheme = nullptr;
    bool m_themeFollowsSystem = true;
    QAction* m_actMarks = nullptr;
    QAction* m_actBands = nullptr;
    QTimer* m_bandTimer = nullptr; // a resize settles before the bands are chosen again
    QAction* m_actBack = nullptr;
    QAction* m_actForward = nullptr;
    QMenu* m_recentMenu = nullptr;
    QStringList m_history; // opened specs, oldest first
    int m_historyPos = -1;
    bool m_navigating = false;
    QStringList m_recent; // newest first
    QAction* m_actColorBlind = nullptr;
    QAction* m_actProbe = nullptr;
    QActionGroup* m_colorGroup = nullptr;

    // Timing
    const QElapsedTimer* m_startTimer = nullptr;
    QElapsedTimer m_selectTimer;
    bool m_waitingFirstPaint = false;
    QSet<const QObject*> m_unpainted; // panes not yet painted since the instruction was selected
    bool m_startPainted = false;
    double m_startToFirstPaint = -1;
    double m_selectToFirstPaint = -1;
    double m_maxHoverFrame = 0;
    double m_sumHoverFrame = 0;
    int m_hoverFrames = 0;
    bool m_hoverPending = false;
    bool m_restoring = false;
};

} // namespace lanemap::gui
