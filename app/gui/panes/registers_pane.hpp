#pragma once
// The registers space: one pane per operand set of the instance's register fragments — A, B, C/D merged
// where C and D share a layout (else C and D), the metadata grid over A and, beside it, the per-lane
// metadata registers; or one pane for every operand of the quad-pair products (m8n8k4 .f16), a row of
// A | B | C | D per product as the SVG draws them. Hovering a cell lights its lane in every pane.

#include "pane.hpp"

#include <vector>

namespace lanemap::gui {

class RegistersPane : public Pane {
    Q_OBJECT
  public:
    RegistersPane(OperandSet operands, DiagramPart part, const Context& context, QWidget* parent = nullptr);

    // The register panes of `instance`, in the order of its fragments (metadata last).
    static std::vector<PaneKey> keysFor(const std::shared_ptr<const Instruction>& instance,
                                        const Context& context);

    OperandSet operands() const { return key().operands; }
    DiagramPart part() const { return key().part; }
    QString label() const override;
    CellInfo describe(int cell) const override;
    Group group() const override;
    QSizeF splitSize(const QSizeF& aSize) const override;

  protected:
    void rebuild() override;
    bool headerNamesPanel() const override { return true; }
    QString heading() const override;
    QString compactHeading() const override;

  private:
    bool m_mergedCD = false; // C and D drawn as one C/D: the lane's registers list them once
};

} // namespace lanemap::gui
