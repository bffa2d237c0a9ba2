#pragma once
// "Shared memory & banks": for an ldmatrix / stmatrix, the tile's placement in shared memory (core's
// buildBanksDiagram, painted by a DiagramView), a placement editor (layout, pitch, padding, swizzle mode or
// CuTe Swizzle<B,M,S>, start), the conflict summary in Nsight Compute's words, and a "feeds" picker that
// checks the moved registers against an mma operand (banks::checkFeed) and draws it cell by cell over the
// memory (addresses, operand as loaded and as wanted, mismatches framed). Hovering a chunk lights its
// supplying lane in every register pane through the shared ViewState, and the other way round.

#include "lanemap/banks.hpp"
#include "lanemap/diagram.hpp"
#include "lanemap/tile.hpp"
// Qt's `slots` keyword (a macro) would eat tiled_copy::Result::slots.
#pragma push_macro("slots")
#undef slots
#include "lanemap/tiled_copy.hpp"
#pragma pop_macro("slots")

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
class TilePicker;
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
    TilePicker* tilePicker() const { return m_tilePicker; }
    // What moves the operand in a tiled copy: the instruction shown (data "") or "ld.shared.b32",
    // "ld.shared.v2.b32", "ld.shared.v4.b32"; enabled while a tile is set.
    QComboBox* moveBox() const { return m_move; }

    // Feeds as the CLI's --feeds writes it, "SPEC:OPERAND" (mma.m16n8k16.f16:A); false with `error` naming
    // what is wrong, nothing changed.
    bool setFeeds(const QString& feeds, QString* error);
    // The tile of the Feeds consumer (nullopt: one instruction); shown in the pane's tile picker.
    void setTile(const std::optional<tile::TileLayout>& tile);
    const std::optional<tile::TileLayout>& tile() const { return m_tile; }
    // The whole tiled copy drawn (nullopt when the pane draws one instruction or the copy is refused).
    const std::optional<tiled_copy::Result>& tiledCopy() const { return m_copy; }

    // Writes the pane's picture (placement, banks and the feeds overlay) as SVG: the same Diagram the pane
    // paints, the same writer as `lanemap-cli banks --format svg`. False with `error` set when there is no
    // picture or the file cannot be written.
    bool exportSvg(const QString& path, QString* error) const;

  signals:
    void analysisChanged();

  private:
    void rebuild();
    banks::Placement placement() const;
    // The tiled copy of the Feeds consumer's tile: fills m_copy, or m_error with why not.
    void rebuildTiledCopy();

    ViewState* m_state;
    const Variant* m_variant = nullptr;
    std::optional<banks::Analysis> m_analysis;
    std::optional<tile::TileLayout> m_tile;
    std::optional<tiled_copy::Result> m_copy;
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
    TilePicker* m_tilePicker = nullptr;
    QComboBox* m_move = nullptr;
    QLabel* m_errorLabel = nullptr;
    QLabel* m_summaryLabel = nullptr;
    QLabel* m_feedLabel = nullptr;
    QPushButton* m_export = nullptr;
};

} // namespace lanemap::gui
