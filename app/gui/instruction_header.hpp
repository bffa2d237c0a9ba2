#pragma once
// The header over the panes: the spec and PTX string of the instance shown, its facts line (threads, scope,
// shape, minimum SM, the PTX ISA section), its notes and errata folded into one button, the wmma target
// picker, the N box (every family whose N varies), the tile picker (atom layout and permutation), the legend
// strip (hover or click a lane) and the line saying where the layout was confirmed.

#include "lanemap/tile.hpp"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QToolButton;

namespace lanemap {
struct Diagram;
struct Instruction;
} // namespace lanemap

namespace lanemap::gui {

class LegendBar;
class TilePicker;
class ViewState;
class WmmaTargetPicker;

class InstructionHeader : public QWidget {
    Q_OBJECT
  public:
    explicit InstructionHeader(ViewState* state, QWidget* parent = nullptr);

    WmmaTargetPicker* targetPicker() const { return m_target; }
    LegendBar* legend() const { return m_legend; }
    TilePicker* tilePicker() const { return m_tile; }
    // The verdict line (HTML); empty hides it.
    void setVerdictLine(const QString& text);

  signals:
    // The N box: N is a parameter of every instruction whose N varies (wgmma, wgmma.sp, tcgen05.mma); the
    // window opens the selection at that N (lanemap::atN).
    void nChosen(int n);
    // The tile picker: a tile of the atom shown (nullopt: the atom itself), read by the CLI's parser.
    void tileChosen(const std::optional<lanemap::tile::TileLayout>& tile);

  private:
    void showFacts(const Instruction& instance);
    void showN();

    ViewState* m_state;
    QLabel* m_title = nullptr;
    QLabel* m_ptx = nullptr;
    QLabel* m_facts = nullptr;
    QLabel* m_notes = nullptr;
    QToolButton* m_notesToggle = nullptr;
    WmmaTargetPicker* m_target = nullptr;
    QLabel* m_nLabel = nullptr;
    QComboBox* m_n = nullptr;
    TilePicker* m_tile = nullptr;
    LegendBar* m_legend = nullptr;
    QLabel* m_verdict = nullptr;
};

} // namespace lanemap::gui
