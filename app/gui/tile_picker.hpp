#pragma once
// The tile picker (docs/tiles.md): an atom layout and a permutation in CuTe's notation, read when Enter is
// pressed by the parser the CLI's --atom-layout and --permutation use (readTile, selections.hpp). A good
// value is announced as a typed tile (nullopt: both fields cleared, the atom again); a bad one is named under
// the fields in the parser's words and announced to no one, so the view stays. Where nothing can be tiled
// the fields are disabled and say why.

#include "lanemap/tile.hpp"

#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;

namespace lanemap::gui {

class TilePicker : public QWidget {
    Q_OBJECT
  public:
    // Compact: one row ("Tile", the two fields named by their placeholders), beside the spec; Stacked: a
    // labelled row per field, in a pane's form.
    enum class Style { Compact, Stacked };
    explicit TilePicker(Style style, QWidget* parent = nullptr);

    QLineEdit* atomLayoutEdit() const { return m_atoms; }
    QLineEdit* permutationEdit() const { return m_permutation; }
    // The line that names a bad value; the owner places it (under the fields, full width).
    QLabel* errorLabel() const { return m_error; }

    // Shows `tile` (the one in effect) as CuTe writes it, and clears the error.
    void showTile(const std::optional<tile::TileLayout>& tile);
    // Names why the value entered was refused (the parser's or the tile's words); "" clears it.
    void setError(const QString& error);
    QString error() const;
    // Disabled with `why` as the tooltip; "" enables.
    void setRefusal(const QString& why);

  signals:
    void tileEntered(const std::optional<lanemap::tile::TileLayout>& tile);

  private:
    void enter();

    QLineEdit* m_atoms = nullptr;
    QLineEdit* m_permutation = nullptr;
    QLabel* m_error = nullptr;
};

} // namespace lanemap::gui
