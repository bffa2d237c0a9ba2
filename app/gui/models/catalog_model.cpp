#include "catalog_model.hpp"

#include "selections.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/model.hpp"
#include "lanemap/search.hpp"
#include "lanemap/spec.hpp"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <climits>

namespace lanemap::gui {

struct CatalogModel::Node {
    QString text;
    QString spec; // leaves only
    QString ptx;
    QString search;
    const Variant* variant = nullptr; // leaves only
    int minSm = INT_MAX;
    int leaves = 0;
    int row = 0;
    Node* parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;

    Node* child(const QString& label) {
        for (auto& c : children)
            if (c->text == label)
                return c.get();
        auto n = std::make_unique<Node>();
        n->text = label;
        n->parent = this;
        n->row = static_cast<int>(children.size());
        children.push_back(std::move(n));
        return children.back().get();
    }
};

namespace {

// core's shape name: "m16n8k16", matrix moves "m8n8" (they have no k).
QString shapeOf(const Variant& v) {
    return QString::fromStdString(shapeName(v));
}

// Leaf label: the spec after "<family>.<shape>." — e.g. "f16", "f16.f16", "row.col.f16". A family prefix that
// differs from the tree's family name (mma.sp::ordered_metadata) is kept in parentheses.
QString leafLabel(const Variant& v) {
    const QString spec = QString::fromStdString(v.spec);
    const QString shape = shapeOf(v);
    const qsizetype at = spec.indexOf(QLatin1Char('.') + shape + QLatin1Char('.'));
    if (at < 0)
        return spec;
    QString label = spec.mid(at + shape.size() + 2);
    const QString prefix = spec.left(at);
    const QString family =
        QString::fromUtf8(v.family->name.data(), static_cast<qsizetype>(v.family->name.size()));
    if (prefix != family && prefix.startsWith(family))
        label += QStringLiteral("  (%1)").arg(prefix.mid(family.size()));
    return label;
}

} // namespace

CatalogModel::CatalogModel(const Catalog& catalog, QObject* parent)
    : QAbstractItemModel(parent), m_root(std::make_unique<Node>()) {
    for (const Variant* v : catalog.variants()) {
        const auto family = v->family->name;
        Node* fam = m_root->child(QString::fromUtf8(family.data(), static_cast<qsizetype>(family.size())));
        Node* shape = fam->child(shapeOf(*v));
        Node* leaf = shape->child(leafLabel(*v));
        leaf->spec = QString::fromStdString(v->spec);
        leaf->variant = v;
        leaf->ptx = QString::fromStdString(v->ptx);
        // What a search word may match (lanemap/search.hpp: the same text the static site's index searches).
        leaf->search = QString::fromStdString(searchText(*v));
        leaf->minSm = v->minSm;
        leaf->leaves = 1;
        for (Node* n = shape; n; n = n->parent) {
            n->minSm = std::min(n->minSm, v->minSm);
            ++n->leaves;
        }
        ++m_variantCount;
    }
}

CatalogModel::~CatalogModel() = default;

CatalogModel::Node* CatalogModel::node(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : m_root.get();
}

QModelIndex CatalogModel::index(int row, int column, const QModelIndex& parent) const {
    if (column != 0 || row < 0 || (parent.isValid() && parent.column() != 0))
        return {};
    const Node* p = node(parent);
    if (row >= static_cast<int>(p->children.size()))
        return {};
    return createIndex(row, column, p->children[static_cast<std::size_t>(row)].get());
}

QModelIndex CatalogModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    const Node* p = node(child)->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, const_cast<Node*>(p));
}

int CatalogModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return static_cast<int>(node(parent)->children.size());
}

int CatalogModel::columnCount(const QModelIndex&) const {
    return 1;
}

QVariant CatalogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Node* n = node(index);
    switch (role) {
    case Qt::DisplayRole:
        return n->text;
    case Qt::ToolTipRole:
        if (!n->spec.isEmpty())
            return QStringLiteral("%1\n%2\nneeds sm_%3").arg(n->spec, n->ptx).arg(n->minSm);
        return QStringLiteral("%1 variant%2, from sm_%3")
            .arg(n->leaves)
            .arg(n->leaves == 1 ? "" : "s")
            .arg(n->minSm);
    case SpecRole:
        return n->spec;
    case MinSmRole:
        return n->minSm == INT_MAX ? QVariant() : QVariant(n->minSm);
    case PtxRole:
        return n->ptx;
    case SearchTextRole:
        return n->search;
    case LeafCountRole:
        return n->leaves;
    case VariantRole:
        return QVariant::fromValue(reinterpret_cast<quintptr>(n->variant));
    default:
        return {};
    }
}

Qt::ItemFlags CatalogModel::flags(const QModelIndex& index) const {
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

QHash<int, QByteArray> CatalogModel::roleNames() const {
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names[SpecRole] = "spec";
    names[MinSmRole] = "minSm";
    names[PtxRole] = "ptx";
    return names;
}

QModelIndex CatalogModel::indexOfSpec(const QString& spec) const {
    for (const auto& fam : m_root->children)
        for (const auto& shape : fam->children)
            for (const auto& leaf : shape->children)
                if (leaf->spec == spec)
                    return createIndex(leaf->row, 0, leaf.get());
    return {};
}

QModelIndex CatalogModel::indexOf(const Variant* variant) const {
    for (const auto& fam : m_root->children)
        for (const auto& shape : fam->children)
            for (const auto& leaf : shape->children)
                if (variant && leaf->variant == variant)
                    return createIndex(leaf->row, 0, leaf.get());
    return {};
}

const Variant* CatalogModel::variantOf(const QModelIndex& index) {
    return reinterpret_cast<const Variant*>(index.data(VariantRole).value<quintptr>());
}

// ---------------------------------------------------------------------------------------------------------

CatalogFilterModel::CatalogFilterModel(const Catalog& catalog, QObject* parent)
    : QSortFilterProxyModel(parent), m_catalog(catalog) {
    setRecursiveFilteringEnabled(true);
}

namespace {

// The core matcher's words (lanemap/search.hpp) as Qt strings.
QStringList searchWords(const QString& text) {
    QStringList words;
    for (const std::string& w : lanemap::searchWords(text.toStdString()))
        words << QString::fromStdString(w);
    return words;
}

int editDistance(const QString& a, const QString& b) {
    return lanemap::editDistance(a.toStdString(), b.toStdString());
}

} // namespace

void CatalogFilterModel::setFilterText(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    m_words = searchWords(trimmed);
    m_parsedSpec.clear();
    m_parsed = {};
    m_parseError.clear();
    m_hint.clear();
    m_nearest.clear();
    // A whole instruction ("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 d, a, b, c;") names one
    // variant.
    // Any family's instruction: tcgen05's (with a tcgen05.mma's N), the matrix moves', not only mma's.
    bool specLike = false;
    for (const Family* family : families())
        specLike = specLike || trimmed.startsWith(QLatin1String(family->name.data(),
                                                                static_cast<qsizetype>(family->name.size())),
                                                  Qt::CaseInsensitive);
    if (specLike) {
        QString error;
        m_parsed = parseSelection(trimmed, &error);
        if (m_parsed) {
            m_parsedSpec = QString::fromStdString(m_parsed.variant->spec);
            m_words.clear();
        } else {
            // A PTX instruction with operands ("mma.sync... {%f0,...}, ...;"): only the opcode is a search
            // word. Plain words ("mma m16n8k16 bf16") are all search words.
            const QString opcode = trimmed.section(QLatin1Char(' '), 0, 0);
            if (opcode.contains(QLatin1Char('.')) &&
                trimmed.contains(QRegularExpression(QStringLiteral("[{%;]|,\\s"))))
                m_words = QStringList{opcode.toLower().remove(QLatin1Char(';'))};
            m_parseError = error;
        }
    }
    invalidateFilter();
    // Words that still match something (a prefix such as "mma.m16n8k16") are a search, not an error.
    const int matches = matchingVariants();
    if (!m_parseError.isEmpty() && matches > 0)
        m_parseError.clear();
    if (matches == 0 && m_parsedSpec.isEmpty() && !m_words.isEmpty())
        suggest();
}

void CatalogFilterModel::suggest() {
    // Vocabulary: every dot-separated part of every spec, plus the extra words leaves answer to.
    QSet<QString> vocabulary;
    for (const Variant* v : m_catalog.variants()) {
        const QString spec = QString::fromStdString(v->spec);
        for (const QString& part :
             spec.split(QRegularExpression(QStringLiteral("[.:]+")), Qt::SkipEmptyParts))
            vocabulary.insert(part);
    }
    vocabulary.insert(QStringLiteral("sparse"));
    vocabulary.insert(QStringLiteral("dense"));
    // A word that matches nothing is replaced by the closest vocabulary word (at most 2 edits).
    QStringList corrected = m_words;
    QStringList replacements;
    for (QString& w : corrected) {
        if (w.startsWith(QLatin1String("acc:")) || w.startsWith(QLatin1String("sm_")))
            continue;
        if (vocabulary.contains(w))
            continue;
        QString best;
        int bestDistance = 3;
        for (const QString& candidate : vocabulary) {
            const int d = editDistance(w, candidate);
            if (d < bestDistance || (d == bestDistance && !best.isEmpty() && candidate < best)) {
                bestDistance = d;
                best = candidate;
            }
        }
        if (best.isEmpty())
            continue;
        replacements << QStringLiteral("%1 → %2").arg(w, best);
        w = best;
    }
    for (const Variant* v : m_catalog.variants()) {
        const QModelIndex leaf =
            static_cast<const CatalogModel*>(sourceModel())->indexOfSpec(QString::fromStdString(v->spec));
        const QString haystack = leaf.data(CatalogModel::SearchTextRole).toString();
        if (!replacements.isEmpty() && std::all_of(corrected.begin(), corrected.end(),
                                                   [&](const QString& w) { return haystack.contains(w); }))
            m_nearest << QString::fromStdString(v->spec);
        if (m_nearest.size() >= 3)
            break;
    }
    if (m_nearest.isEmpty()) {
        // No single-word fix: the specs closest to the whole text, as the CLI names them (a spec one
        // dot-separated component away first: e5m9 -> e5m2).
        for (const std::string& spec :
             lanemap::nearestSpecs(m_words.join(QLatin1Char('.')).toStdString(), m_catalog, 3))
            m_nearest << QString::fromStdString(spec);
    }
    m_hint = replacements.isEmpty() ? tr("No variant matches all of “%1”.").arg(m_text)
                                    : tr("No variant matches “%1”. Did you mean %2?")
                                          .arg(m_text, replacements.join(QStringLiteral(", ")));
}

Selection CatalogFilterModel::selectionFor(const Variant* variant) const {
    static const QRegularExpression shape(QStringLiteral("^m(\\d+)n(\\d+)$"));
    Selection s{variant, {}};
    for (const QString& word : m_words)
        if (const QRegularExpressionMatch m = shape.match(word);
            variant && m.hasMatch() && m.captured(1).toInt() == variant->m) {
            const Selection at = atN(s, m.captured(2).toInt());
            if (validate(at).empty())
                s = at;
        }
    return s;
}

bool CatalogFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex idx = sourceModel()->index(sourceRow, 0, sourceParent);
    const QString spec = idx.data(CatalogModel::SpecRole).toString();
    if (spec.isEmpty())
        return m_text.isEmpty(); // inner node: shown when a leaf below passes (recursive)
    if (!m_parsedSpec.isEmpty())
        return spec == m_parsedSpec;
    std::vector<std::string> words;
    words.reserve(static_cast<std::size_t>(m_words.size()));
    for (const QString& w : m_words)
        words.push_back(w.toStdString());
    return matchesSearch(idx.data(CatalogModel::SearchTextRole).toString().toStdString(), words);
}

int CatalogFilterModel::matchingVariants() const {
    int count = 0;
    std::vector<QModelIndex> stack{QModelIndex()};
    while (!stack.empty()) {
        const QModelIndex p = stack.back();
        stack.pop_back();
        const int rows = rowCount(p);
        for (int r = 0; r < rows; ++r) {
            const QModelIndex c = index(r, 0, p);
            if (hasChildren(c))
                stack.push_back(c);
            else if (!c.data(CatalogModel::SpecRole).toString().isEmpty())
                ++count;
        }
    }
    return count;
}

} // namespace lanemap::gui
