#pragma once
// The catalog as a Qt tree: family -> shape -> types, each node with its minimum SM (the badge the tree
// shows), and a filter proxy that takes search words or a whole PTX instruction string.

#include "lanemap/selection.hpp"

#include <QAbstractItemModel>
#include <QSortFilterProxyModel>

#include <memory>
#include <vector>

namespace lanemap {
class Catalog;
struct Variant;
} // namespace lanemap

namespace lanemap::gui {

class CatalogModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Role {
        SpecRole = Qt::UserRole + 1, // canonical spec of a leaf; empty for family and shape nodes
        MinSmRole,                   // minimum SM of the node (lowest of its leaves)
        PtxRole,                     // canonical PTX string of a leaf
        SearchTextRole,              // everything a search word may match (spec, PTX, aliases), lower case
        LeafCountRole,               // variants under the node
        VariantRole,                 // the leaf's variant (const Variant*, as quintptr); 0 for inner nodes
    };

    explicit CatalogModel(const Catalog& catalog, QObject* parent = nullptr);
    ~CatalogModel() override;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;

    // The leaf of a canonical spec, or of a variant; invalid when unknown.
    QModelIndex indexOfSpec(const QString& spec) const;
    QModelIndex indexOf(const Variant* variant) const;
    // The variant of a leaf (of this model or a proxy over it); nullptr for inner nodes.
    static const Variant* variantOf(const QModelIndex& index);
    int variantCount() const { return m_variantCount; }

  private:
    struct Node;
    Node* node(const QModelIndex& index) const;
    std::unique_ptr<Node> m_root;
    int m_variantCount = 0;
};

// Filters the catalog tree. The text is either search words (all must occur in a leaf's spec or PTX string,
// e.g. "mma m16n8k16 bf16"; also "sm_90" for the SM badge, "sparse"/"dense", "f16 acc" for the accumulator
// type, everyday spellings such as fp16 or int8) or a spec / full PTX instruction string: when
// lanemap::parseSpec accepts it, exactly that variant remains. parseError() says why a spec-like text names
// no variant (empty otherwise); when nothing matches, hint() and nearestSpecs() say what would.
class CatalogFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit CatalogFilterModel(const Catalog& catalog, QObject* parent = nullptr);

    void setFilterText(const QString& text);
    QString filterText() const { return m_text; }
    // The variant the text names exactly (a spec or PTX string), or empty; and the selection it names
    // (parsed once, here: the view opens it as it is).
    QString parsedSpec() const { return m_parsedSpec; }
    const Selection& parsedSelection() const { return m_parsed; }
    // What opening `variant` from this search takes: the N a shape word names ("tcgen05 m128n16" opens the
    // m128 entry at N = 16); the variant's defaults otherwise.
    Selection selectionFor(const Variant* variant) const;
    // The parser's message when the text looks like an instruction but names none; empty otherwise.
    QString parseError() const { return m_parseError; }
    // Number of leaves that pass the filter.
    int matchingVariants() const;
    // With zero matches: a sentence naming the likely typo ("bf61 → bf16"), and up to three specs to open.
    QString hint() const { return m_hint; }
    QStringList nearestSpecs() const { return m_nearest; }
    // The words the filter searches for, after synonyms ("fp16" -> "f16", "f16 acc" -> "acc:f16").
    QStringList words() const { return m_words; }

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    void suggest();

    const Catalog& m_catalog;
    QString m_text;
    QStringList m_words;
    QString m_parsedSpec;
    Selection m_parsed;
    QString m_parseError;
    QString m_hint;
    QStringList m_nearest;
};

} // namespace lanemap::gui
