#pragma once
// The lanemap window, a shell (as KDAB hotspot's): menus and the toolbar, the Catalog, Cell and "Shared
// memory & banks" docks, the header and the pane area in the middle, the status bar, and QSettings
// persistence. What is drawn lives in the panes (panes/, one per space), what is shared in the ViewState
// and the other models (models/); the window reads text at the edges (a spec, a lane list, a compare spec)
// into selections and opens them.

#include "history.hpp"
#include "paint_timing.hpp"
#include "preferences.hpp"

#include "lanemap/diagram.hpp"
#include "lanemap/selection.hpp"

#include <QMainWindow>

#include <functional>
#include <optional>
#include <vector>

class QAction;
class QActionGroup;
class QDockWidget;
class QMenu;
class QSettings;

namespace lanemap::gui {

class CatalogPanel;
class DetailsPanel;
class InstructionHeader;
class PaneArea;
class ProbeController;
class ProbeStatus;
class ViewState;
class ViewToolBar;

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

    // Opens what a spec or a whole PTX instruction names, with the view's defaults (selections.hpp); text
    // naming what is shown leaves the view as the user set it. On failure the view is unchanged and *error
    // says why.
    // `tile`: a tile of the atom the text names (lanemap/tile.hpp).
    bool openSpec(const QString& text, QString* error = nullptr,
                  const std::optional<tile::TileLayout>& tile = std::nullopt);
    // The Shared memory & banks pane's Feeds ("SPEC:OPERAND", "" keeps it) and tile (the whole tiled copy;
    // nullopt: one instruction), as `lanemap --feeds ... --atom-layout ...` gives them for a matrix move.
    // False with *error set when no matrix move is shown or Feeds is not SPEC:OPERAND.
    bool setTiledCopy(const QString& feeds, const std::optional<tile::TileLayout>& tile,
                      QString* error = nullptr);
    // Opens `selection` as it is (Back / Forward, Recent, a pane's tools): validated, instantiated, shown.
    bool open(const Selection& selection, QString* error = nullptr);
    // Shows an instruction made elsewhere (a test's synthetic one; copied).
    void showInstruction(const Instruction& instruction);
    // The instance shown, and its catalog spec.
    const Instruction* instruction() const;
    QString currentSpec() const;
    // What every pane shares: the instance and selection, hovered and pinned lane, coloring, lane filter,
    // selector, compare partner.
    ViewState* viewState() const { return m_state; }

    // An explicit theme: the desktop's is no longer followed (View -> Follow system theme turns it back on).
    void setTheme(Theme theme);
    Theme theme() const;
    void setThemeFollowsSystem(bool on);
    bool themeFollowsSystem() const { return m_themeFollowsSystem; }
    // The lane filter as typed ("0-3,13"; "" or "all": every lane), for the instance's threads.
    bool setLaneFilter(const QString& lanes, QString* error = nullptr);
    // Compares with what `spec` names; empty turns compare off.
    bool setCompare(const QString& spec, QString* error = nullptr);
    // `lanemap --hover`: hovers, as the mouse would, the cell at (row, col) of the pane its header names
    // `pane`. False with *panes naming the panes there are when there is no such cell.
    bool hover(const QString& pane, int row, int col, QString* panes = nullptr);
    // View -> Wrap long rows into bands: a grid much wider than its pane (wgmma m64n256's D) is drawn as
    // bands of columns stacked down the pane when that shows it larger. On by default.
    void setWrapBands(bool on);
    bool wrapBands() const;

    // Current preferences and last view (what closing the window saves).
    Preferences preferences() const;
    void applyPreferences(const Preferences& preferences);
    void savePreferences();

    // Exports the instance shown, every operand, with the current coloring, lane filter and selector.
    bool exportSvg(const QString& path, QString* error = nullptr) const;
    bool exportPng(const QString& path, QString* error = nullptr) const;
    Diagram exportDiagram() const; // the diagram that export writes

    // Timing (ms) for the --timing report: start->first paint, select->first paint, last hover frame.
    void setStartTimer(const QElapsedTimer* timer) { m_timing.setStartTimer(timer); }
    double startToFirstPaintMs() const { return m_timing.startToFirstPaintMs(); }
    double selectToFirstPaintMs() const { return m_timing.selectToFirstPaintMs(); }
    QString timingReport() const { return m_timing.report(); }
    // What Help -> About says: what lanemap is, its licence, the Qt it runs on.
    QString aboutText() const;

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
    void firstPaint();

  protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void buildUi();
    void buildActions();
    bool openChosen(const Selection& selection, QString* error = nullptr);
    void followInstance(bool newVariant);
    void updateProvenance();
    void applyTheme(Theme theme);
    QString exportFolder() const; // where the export dialogs open: the last folder written to
    void rememberExportFolder(const QString& path);

    Options m_options;
    Preferences m_prefs; // what was loaded: the zoom a view not fitted restores
    ViewState* m_state = nullptr;
    ProbeController* m_probe = nullptr;
    History m_history;
    PaintTiming m_timing;
    bool m_themeFollowsSystem = true;

    CatalogPanel* m_catalog = nullptr;
    DetailsPanel* m_details = nullptr;
    QDockWidget* m_banks = nullptr;     // shown while the instance is a matrix move
    bool m_banksWidened = false;        // widened for the tiled copy it shows
    QDockWidget* m_pasteDock = nullptr; // Tools > Paste a layout
    std::vector<QDockWidget*> m_docks;  // listed in View -> Panels
    InstructionHeader* m_header = nullptr;
    PaneArea* m_area = nullptr;
    ViewToolBar* m_toolbar = nullptr;
    ProbeStatus* m_probeStatus = nullptr;

    QMenu* m_recentMenu = nullptr;
    QAction* m_actBack = nullptr;
    QAction* m_actForward = nullptr;
    QAction* m_actLabels = nullptr;
    QAction* m_actColorBlind = nullptr;
    QActionGroup* m_colorGroup = nullptr;
    QAction* m_actMarks = nullptr;
    QAction* m_actBands = nullptr;
    QAction* m_actDark = nullptr;
    QAction* m_actSystemTheme = nullptr;
    QAction* m_actProbe = nullptr;
};

} // namespace lanemap::gui
