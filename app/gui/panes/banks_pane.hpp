#pragma once
// "Shared memory & banks": for an ldmatrix / stmatrix, the tile's placement in shared memory (core's
// buildBanksDiagram, painted by a DiagramView), a placement editor (layout, pitch, padding, swizzle mode or
// CuTe Swizzle<B,M,S>, start), the conflict summary in Nsight Compute's words, and a "feeds" picker that
// checks the moved registers against an mma operand (banks::checkFeed) and draws it cell by cell over the
// memory (addresses, operand as loaded and as wanted, mismatches framed). Hovering a chunk lights its
// supplying lane in every register pane through the shared ViewState, and the other way round.

#include "lanemap/banks.hpp"
#include "lanemap/diagram.hpp"

#include <QWidget>

#include <memory>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace lanemap {
struct Variant;
}

namespace lanemap::gui {

class DiagramView;
class ViewState;

class BanksPane : public QWidget {
    Q_OBJECT
  public:
    explicit BanksPane(ViewState* state, QWidget* parent = nullptr);

    // The current instruction; the pane applies only to matrix moves that read or write shared memory.
    void setVariant(const Variant* variant);
    static bool appliesTo(const Variant* variant);
    bool applies() const { return appliesTo(m_variant); }

    // The placement the editor describes (nullopt with error() set when the analysis rejects it).
    const std::optional<banks::Analysis>& analysis() const { return m_analysis; }
    QString error() const;
    // "4-way bank conflict: L1 Wavefronts Shared 16, Ideal 4, ..." or "conflict-free: ...".
    QString summary() const;
    QString feedVerdict() const;
    int worstDegree() const; // the largest wavefront count of one phase; 0 when there is no analysis

    DiagramView* view() const { return m_view; }
    QSpinBox* pitchBox() const { return m_pitch; }
    QSpinBox* padBox() const { return m_pad; }
    QSpinBox* startBox() const { return m_start; }
    QComboBox* majorBox() const { return m_major; }
    QComboBox* modeBox() const { return m_mode; }
    QCheckBox* cuteBox() const { return m_cute; }
    QLineEdit* feedsEdit() const { return m_feeds; }
    QComboBox* feedsOperandBox() const { return m_feedsOperand; }

    // Writes the pane's picture (placement, banks and the feeds overlay) as SVG: the same Diagram the pane
    // paints, the same writer as `lanemap-cli banks --format svg`. False with `error` set when there is no
    // picture or the file cannot be written.
    bool exportSvg(const QString& path, QString* error) const;

  signals:
    void analysisChanged();

  private:
    void rebuild();
    banks::Placement placement() const;

    ViewState* m_state;
    const Variant* m_variant = nullptr;
    std::optional<banks::Analysis> m_analysis;
    QString m_error;
    QString m_feedVerdict;

    DiagramView* m_view = nullptr;
    QComboBox* m_major = nullptr;
    QSpinBox* m_pitch = nullptr;
    QSpinBox* m_pad = nullptr;
    QComboBox* m_mode = nullptr;
    QCheckBox* m_cute = nullptr;
    QSpinBox* m_cuteB = nullptr;
    QSpinBox* m_cuteM = nullptr;
    QSpinBox* m_cuteS = nullptr;
    QSpinBox* m_start = nullptr;
    QLineEdit* m_feeds = nullptr;
    QComboBox* m_feedsOperand = nullptr;
    QLabel* m_errorLabel = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QLabel* m_feedLabel = nullptr;
    QPushButton* m_export = nullptr;
};

} // namespace lanemap::gui
