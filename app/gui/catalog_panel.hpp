#pragma once
// The Catalog dock: the filter box (search words, or a spec or whole PTX instruction, parsed once into a
// selection), its error line and nearest-spec hint, the tree with each node's minimum SM, and the count of
// what matches. It says which selection to open; it follows the instance shown (its leaf is selected).

#include "lanemap/selection.hpp"

#include <QWidget>

class QLabel;
class QLineEdit;
class QTreeView;

namespace lanemap::gui {

class CatalogModel;
class CatalogFilterModel;
class ViewState;

class CatalogPanel : public QWidget {
    Q_OBJECT
  public:
    explicit CatalogPanel(ViewState* state, QWidget* parent = nullptr);

    CatalogModel* model() const { return m_model; }
    CatalogFilterModel* filterModel() const { return m_filterModel; }
    // Edit > Find instruction.
    void focusFilter();

  signals:
    // A leaf clicked, a filter text that names an instruction, Enter on the only match, a hint's link.
    void selectionChosen(const lanemap::Selection& selection);

  private:
    void onFilterChanged(const QString& text);
    void selectInTree(const Variant* variant);
    void updatePath(); // the parents of the top row, where they scrolled out of sight

    ViewState* m_state;
    CatalogModel* m_model = nullptr;
    CatalogFilterModel* m_filterModel = nullptr;
    QLineEdit* m_filter = nullptr;
    QLabel* m_error = nullptr;
    QLabel* m_hint = nullptr;
    QLabel* m_count = nullptr;
    QLabel* m_path = nullptr;
    QTreeView* m_tree = nullptr;
    bool m_filtering = false; // the filter is hiding rows: the tree's current row moves by itself
};

} // namespace lanemap::gui
