#pragma once
// The window's central area: the panes of the instance shown, one per space its placements live in (the
// registers one per operand set), arranged in the shape of D = A·B + C, or the compare page while a compare
// partner is set. It follows the shared ViewState: a new instance plans the panes again (reusing those that
// show the same, with their zoom), a new coloring, lane filter or selector redraws them.

#include "diagram_cache.hpp"
#include "diagram_view.hpp"
#include "pane.hpp"

#include <QStackedWidget>

#include <memory>
#include <vector>

class QSplitter;
class QTimer;

namespace lanemap::gui {

class ComparePage;

class PaneArea : public QStackedWidget {
    Q_OBJECT
  public:
    PaneArea(ViewState* state, const ProbeController* probe, QWidget* parent = nullptr);
    ~PaneArea() override;

    // The panes which `instance` gets: one per space its placements live in, in the order of its
    // placements (registers: one per operand set). Decided by the spaces, never by the family.
    static std::vector<PaneKey> planFor(const std::shared_ptr<const Instruction>& instance,
                                        const Pane::Context& context);

    const std::vector<Pane*>& panes() const { return m_panes; }
    // The pane whose header names it `label` ("A", C/D for C and D merged, "Tensor Memory"), or nullptr.
    Pane* pane(const QString& label) const;
    ComparePage* comparePage() const { return m_compare; }
    // Every view the zoom and fit actions act on: the panes', then the compare sides'.
    std::vector<DiagramView*> views() const;

    void zoomBy(double factor);
    // A saved zoom, every pane from its top-left corner (where the headers are), as a newly opened one.
    void restoreZoom(double zoom);
    void fit(DiagramView::FitMode mode);
    // View -> Wrap long rows into bands (on by default).
    void setWrapBands(bool on);
    bool wrapBands() const { return m_bands; }
    // View -> Probe marks; the verdicts again after a probe run.
    void setMarksShown(bool on);
    void applyVerdicts();
    // The picture File > Export writes: every operand of the instance as the panes draw them.
    Diagram exportDiagram() const;
    // Whether the compare page is shown in place of the panes.
    bool comparing() const;
    // What Edit > Copy image and File > Export PNG take: while comparing, the comparison (both sides, their
    // differences marked); else exportDiagram() painted in the theme, with its title, captions and legends.
    // Null when no instruction is open.
    QImage picture() const;

  signals:
    // A pane's tools chose other parameters of the instance shown.
    void paramsChanged(const lanemap::Params& params);
    void message(const QString& text, int timeout);
    void painted(const QObject* view, double ms);
    void hovered();
    // The first pane's picture, whose colours the legend explains.
    void legendChanged(const std::shared_ptr<const lanemap::Diagram>& diagram);

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void showInstance(const std::shared_ptr<const Instruction>& instance, bool newVariant);
    void refresh();
    void showCompare();
    Pane* makePane(const PaneKey& key);
    void arrange();
    // How the panes are arranged: A over the others (rows), where the wide panes go, B and C/D in one row.
    struct Shape {
        QSizeF aSize{1, 1};
        bool rows = false, widesFirst = false, oneRow = false;
        bool inFirst(const Pane* p) const {
            return p->group() == Pane::Group::A || (widesFirst && p->group() == Pane::Group::Wide);
        }
    };
    Shape shape() const;
    void updateBands();
    void onTab(DiagramView* view, bool backward);

    ViewState* m_state;
    DiagramCache m_cache;
    Pane::Context m_context;
    std::vector<Pane*> m_panes;
    QSplitter* m_splitter = nullptr; // the two groups, side by side or A over the others
    QSplitter* m_first = nullptr;    // A (and the metadata grid, the products)
    QSplitter* m_second = nullptr;   // B and C/D, shared memory, Tensor Memory
    ComparePage* m_compare = nullptr;
    QTimer* m_bandTimer = nullptr; // a resize settles before the bands are chosen again
    bool m_bands = true;
    bool m_oneRow = false; // B and C/D beside A in one row (arrange)
    bool m_marks = true;
};

} // namespace lanemap::gui
