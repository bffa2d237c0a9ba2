#pragma once
// The Tensor Memory space: where a tcgen05.mma places D (or A) over the TMEM lanes and columns of its N,
// composed with the access a warpgroup issues (a tcgen05.ld of D, a tcgen05.st of A: a second panel of the
// threads' registers), with the block-scaled kinds' scale factors and the .sp forms' metadata. The picture
// is core's (buildDiagram of the instance), the same the SVG export writes. Its tools — the operand, the
// access, the block scale — are parameters of the instance (N is the header's, as for wgmma). Hovering a cell
// lights the thread holding it (composed) or its TMEM lane, and frames the cell holding the same element in
// the other panel.

#include "pane.hpp"

class QComboBox;
class QLabel;

namespace lanemap::gui {

class TensorMemoryPane : public Pane {
    Q_OBJECT
  public:
    explicit TensorMemoryPane(const Context& context, QWidget* parent = nullptr);

    QString label() const override { return QStringLiteral("Tensor Memory"); }
    CellInfo describe(int cell) const override;

  protected:
    void rebuild() override;
    QString heading() const override { return QStringLiteral("<b>%1</b>").arg(label()); }
    void updateTools() override;

  private:
    QWidget* makeTools();
    const TensorMemorySource* source() const;
    // The tools' choice, as parameters of the instance; refused (and said) where the variant does not take
    // it.
    void applyView();
    void applyScale();
    void request(Params params);

    QComboBox* m_operandBox = nullptr;
    QComboBox* m_accessBox = nullptr;
    QLabel* m_accessLabel = nullptr;
    QWidget* m_scaleTools = nullptr; // block-scaled kinds only
    QComboBox* m_scaleVecBox = nullptr;
    QComboBox* m_sfaIdBox = nullptr;
    QComboBox* m_sfbIdBox = nullptr;
    Params m_drawn; // what the picture shows: another N, operand or access is a different picture
};

} // namespace lanemap::gui
