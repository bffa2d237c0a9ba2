#pragma once
// The shared-memory space: a wgmma operand tile (B, and A in the SS form) as it sits in shared memory for
// the instance's major-ness and swizzle — the byte address of each element (the first of each 16-byte chunk
// labelled), the 128-byte lines with each chunk where the swizzle put it, or both — and the matrix descriptor
// that says so. Its tools pick the operand and what is drawn (a view of this pane) and the major-ness and
// swizzle (parameters of the instance). Hovering an element lights its chunk, in this pane only. A
// tcgen05.mma's A and B are drawn once per CTA of its group, each CTA's part titled with it.

#include "pane.hpp"

#include <memory>

class QComboBox;
class QLabel;
class QToolButton;

namespace lanemap {
struct CtaParts;
}
namespace lanemap::smem {
struct SharedOperand;
struct Choice;
} // namespace lanemap::smem

namespace lanemap::gui {

class SharedMemoryPane : public Pane {
    Q_OBJECT
  public:
    // What the pane draws: the element grid with byte addresses, the 128-byte lines, or both. Each alone is
    // readable at fit in a laptop-sized pane; the SVG export carries the addresses.
    enum class Show { Addresses, Memory, Both };

    explicit SharedMemoryPane(const Context& context, QWidget* parent = nullptr);

    QString label() const override { return QStringLiteral("shared memory"); }
    // The operand drawn: B, or A where the instance places it in shared memory (the SS form).
    Operand operand() const { return m_operand; }
    void setOperand(Operand operand);
    Show shown() const { return m_show; }
    void setShown(Show show); // a different picture: fitted afresh
    // The instance's major-ness and swizzle, and the operand tile drawn.
    smem::Choice choice() const;
    const smem::SharedOperand* tile() const;
    // The instance's first placement in shared memory (a wgmma operand, or a TMA box stated cell by cell).
    const Placement* placement() const;
    // What the tools' Copy button copies: the descriptor, each field, the CuTe layout and the swizzle rule.
    QString descriptorText() const;

    CellInfo describe(int cell) const override;
    void applyVerdict(bool) override {} // the probe checks registers, not shared memory
    QSizeF splitSize(const QSizeF& aSize) const override;
    void addToExport(Diagram& diagram) const override;

  protected:
    void rebuild() override;
    QString heading() const override;
    QString compactHeading() const override;
    void updateTools() override;
    bool wrapsBands() const override { return false; }

  private:
    QWidget* makeTools();
    void applyTools();

    Operand m_operand = Operand::B;
    Show m_show = Show::Addresses;
    QComboBox* m_operandBox = nullptr;
    QComboBox* m_majorBox = nullptr;
    QComboBox* m_swizzleBox = nullptr;
    QComboBox* m_showBox = nullptr;
    QToolButton* m_copyDescriptor = nullptr;
    QLabel* m_note = nullptr;
    // A tcgen05.mma's operand, drawn once per CTA of its group (lanemap/diagram_pair.hpp): it has no
    // placement in shared memory of its own (its D is in Tensor Memory), each CTA holds a part.
    std::shared_ptr<const CtaParts> m_parts;
};

} // namespace lanemap::gui
