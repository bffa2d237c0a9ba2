#pragma once
// A pane draws the placements of the instance shown in one space (lanemap/placement.hpp): the registers
// (one pane per operand set), shared memory or Tensor Memory. Its header (PaneFrame) says what it shows and
// what the hardware said; its tools, where the space has parameters, change them by signalling the new
// Params (never text). Hover, click and the cell description go through the shared ViewState; the window
// only hosts the panes (PaneArea arranges them).

#include "pane_frame.hpp"

#include "cell_info.hpp"
#include "diagram_painter.hpp"

#include "lanemap/params.hpp"
#include "lanemap/placement.hpp"

#include <memory>

namespace lanemap::gui {

class DiagramCache;
class ProbeController;
class ViewState;

// What a pane shows: a space and, in registers, the operands ({A}, {C, D} merged, {metadata}; empty: every
// operand, the quad-pair products) and the part of the picture (a metadata grid, or its per-lane registers).
struct PaneKey {
    Space space = Space::Registers;
    OperandSet operands;
    DiagramPart part = DiagramPart::Whole;
    friend bool operator==(const PaneKey&, const PaneKey&) = default;
};

class Pane : public PaneFrame {
    Q_OBJECT
  public:
    // What every pane shares with the others.
    struct Context {
        ViewState* state = nullptr;
        DiagramCache* cache = nullptr;
        const ProbeController* probe = nullptr;
    };
    // Where it sits in the window's arrangement, the shape of D = A·B + C: with A (the metadata grid and the
    // products too), with B and C/D, or where the width is (the wide metadata registers).
    enum class Group { A, Others, Wide };

    const PaneKey& key() const { return m_key; }
    Space space() const { return m_key.space; }
    // The words its header names it by, which `lanemap --hover OPERAND:ROW,COL` takes: "A", C/D (C and D
    // merged), "metadata registers", "products", "shared memory", "Tensor Memory".
    virtual QString label() const = 0;

    // Shows `instance` (it has a placement in this pane's space) and syncs the tools to its parameters.
    void show(std::shared_ptr<const Instruction> instance);
    using PaneFrame::show;
    const std::shared_ptr<const Instruction>& instance() const { return m_instance; }
    // Draws the picture again after a shared choice changed (coloring, palette, lanes, selector).
    void refresh();

    // What the Cell dock says of `cell` of the picture shown.
    virtual CellInfo describe(int cell) const = 0;
    // As the mouse would: lights the cell's lane (or its chunk), describes it.
    void hoverCell(int cell);

    // Frames the cells the hardware placed differently (when `marksShown`) and says the verdict in the
    // header's badge.
    virtual void applyVerdict(bool marksShown);
    // Wraps (or unwraps) a fitted long grid into bands of columns where that shows it larger; true when the
    // picture changed.
    bool updateBands(bool on);

    virtual Group group() const { return Group::Others; }
    // The picture's size at zoom 1, and its share of the window's split: less for a pane meant to scroll.
    QSizeF naturalSize() const;
    virtual QSizeF splitSize(const QSizeF& /*aSize*/) const { return naturalSize(); }
    // What File > Export adds to the picture of the whole instance (the shared-memory operand shown).
    virtual void addToExport(Diagram&) const {}

  signals:
    // The tools chose other parameters of the instance (already validated against its variant).
    void paramsChanged(const lanemap::Params& params);
    // Something to say in the status bar (a choice refused), for `timeout` ms.
    void message(const QString& text, int timeout);
    void hovered();

  protected:
    // Lanes: a hovered cell lights its lane in every pane; Own: its hover group in this pane only (a
    // shared-memory chunk is not a lane).
    enum class Lights { Lanes, Own };
    Pane(const PaneKey& key, Lights lights, const Context& context, QWidget* parent);

    // Builds the picture of the instance shown and syncs the tools to it.
    virtual void rebuild() = 0;
    // Whether the header says what the picture's one panel's title and subtitle say (then not drawn).
    virtual bool headerNamesPanel() const { return false; }
    // Shows `picture`, titled by its axes where it names them, else by heading() and compactHeading().
    void setPicture(std::shared_ptr<const Diagram> picture);
    virtual QString heading() const = 0;
    virtual QString compactHeading() const { return heading(); }
    // Refuses a choice of the tools: said in the status bar, the tools back to what is shown.
    void refuse(const QString& why);
    virtual void updateTools() {}
    // Whether a long grid of it may be wrapped into bands (a shared-memory picture is not).
    virtual bool wrapsBands() const { return true; }

    ViewState& state() const { return *m_context.state; }
    const Context m_context;
    std::shared_ptr<const Instruction> m_instance;

  private:
    void onHover(int cell);
    void onClick(int cell);

    PaneKey m_key;
    Lights m_lights;
    std::shared_ptr<const Diagram> m_unwrapped; // the picture before long rows were wrapped into bands
    int m_bandColumns = 0;                      // columns per band; 0: not wrapped
};

} // namespace lanemap::gui
