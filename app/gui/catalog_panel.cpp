#include "catalog_panel.hpp"

#include "catalog_delegate.hpp"
#include "catalog_model.hpp"
#include "selections.hpp"
#include "view_state.hpp"

#include "lanemap/catalog.hpp"

#include <QLabel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace lanemap::gui {

CatalogPanel::CatalogPanel(ViewState* state, QWidget* parent) : QWidget(parent), m_state(state) {
    const Catalog& catalog = Catalog::instance();
    auto* cl = new QVBoxLayout(this);
    cl->setContentsMargins(6, 6, 6, 6);
    cl->setSpacing(4);
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("filter"));
    m_filter->setPlaceholderText(tr("Filter, e.g. m16n8k16 bf16 — or paste a PTX instruction"));
    m_filter->setClearButtonEnabled(true);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("filterError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #d23c3c; }"));
    m_error->hide();
    // Texts under the filter wrap to the dock's width; they never widen it (a long PTX string did, for good).
    m_error->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // Zero hits: what was probably meant, and the nearest specs as links that open them.
    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("filterHint"));
    m_hint->setWordWrap(true);
    m_hint->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_hint->hide();
    connect(m_hint, &QLabel::linkActivated, this, [this](const QString& spec) {
        if (const Selection s = parseSelection(spec))
            emit selectionChosen(s);
    });
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("filterCount"));
    m_count->setEnabled(false);
    m_model = new CatalogModel(catalog, this);
    m_filterModel = new CatalogFilterModel(catalog, this);
    m_filterModel->setSourceModel(m_model);
    m_tree = new QTreeView(this);
    m_tree->setObjectName(QStringLiteral("catalogTree"));
    m_tree->setModel(m_filterModel);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setItemDelegate(new CatalogDelegate(m_tree));
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setMinimumWidth(250);
    cl->addWidget(m_filter);
    cl->addWidget(m_error);
    // The family and shape of the rows at the top of the tree, once their own rows scrolled out of sight
    // (a list of "f16, bf16, ..." says nothing by itself).
    m_path = new QLabel(this);
    m_path->setObjectName(QStringLiteral("catalogPath"));
    m_path->setEnabled(false); // secondary text
    m_path->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_path->hide();
    connect(m_tree->verticalScrollBar(), &QScrollBar::valueChanged, this, &CatalogPanel::updatePath);
    connect(m_tree, &QTreeView::expanded, this, &CatalogPanel::updatePath);
    connect(m_tree, &QTreeView::collapsed, this, &CatalogPanel::updatePath);
    cl->addWidget(m_hint);
    cl->addWidget(m_path);
    cl->addWidget(m_tree, 1);
    cl->addWidget(m_count);
    connect(m_filter, &QLineEdit::textChanged, this, &CatalogPanel::onFilterChanged);
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        // Enter opens the only match (or the instruction the text names, with what it says: a tcgen05.mma's
        // N).
        if (m_filterModel->parsedSelection())
            emit selectionChosen(m_filterModel->parsedSelection());
        else if (m_filterModel->matchingVariants() >= 1) {
            QModelIndex idx = m_filterModel->index(0, 0);
            while (m_filterModel->hasChildren(idx))
                idx = m_filterModel->index(0, 0, idx);
            if (const Variant* v = CatalogModel::variantOf(idx))
                emit selectionChosen(m_filterModel->selectionFor(v));
        }
    });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& at) {
                // Only a pick opens: the tree's current row moving because the filter hid it is none.
                if (m_filtering)
                    return;
                const Variant* v = CatalogModel::variantOf(at);
                if (v && v != m_state->selection().variant)
                    emit selectionChosen(m_filterModel->selectionFor(v));
            });
    connect(state, &ViewState::instanceChanged, this, [this] { selectInTree(m_state->selection().variant); });
    connect(state, &ViewState::themeChanged, this, [this](Theme theme) {
        m_error->setStyleSheet(theme == Theme::Dark ? QStringLiteral("QLabel { color: #ff7b72; }")
                                                    : QStringLiteral("QLabel { color: #c62828; }"));
    });
    onFilterChanged(QString());
}

void CatalogPanel::focusFilter() {
    m_filter->setFocus();
    m_filter->selectAll();
}

void CatalogPanel::onFilterChanged(const QString& text) {
    {
        // Typing filters; it opens only what the text names exactly (below).
        const QScopedValueRollback guard(m_filtering, true);
        m_filterModel->setFilterText(text);
        if (text.trimmed().isEmpty()) {
            m_tree->collapseAll();
            for (int r = 0; r < m_filterModel->rowCount(); ++r)
                m_tree->expand(m_filterModel->index(r, 0));
        } else if (m_filterModel->matchingVariants() <= 60)
            m_tree->expandAll();
        selectInTree(m_state->selection().variant);
        updatePath();
    }
    const QString error = m_filterModel->parseError();
    // A dotted spec wraps at its dots (a zero-width space after each) instead of running out of the dock.
    m_error->setText(QString(error).replace(QLatin1Char('.'), QStringLiteral(".\u200B")));
    m_error->setVisible(!error.isEmpty());
    QString hint = m_filterModel->hint().toHtmlEscaped();
    if (!hint.isEmpty() && !m_filterModel->nearestSpecs().isEmpty()) {
        QStringList links;
        for (const QString& spec : m_filterModel->nearestSpecs())
            links << QStringLiteral("<a href='%1'>%1</a>").arg(spec);
        hint += QStringLiteral("<br/>") + tr("Nearest: %1").arg(links.join(QStringLiteral(", ")));
    }
    m_hint->setText(hint);
    m_hint->setVisible(!hint.isEmpty() && error.isEmpty());
    const int matches = m_filterModel->matchingVariants();
    m_count->setText(tr("%1 of %2 variants").arg(matches).arg(m_model->variantCount()));
    if (m_filterModel->parsedSelection())
        emit selectionChosen(m_filterModel->parsedSelection());
}

void CatalogPanel::updatePath() {
    QStringList path;
    for (QModelIndex at = m_tree->indexAt(QPoint(2, 2)).parent(); at.isValid(); at = at.parent())
        path.prepend(at.data(Qt::DisplayRole).toString());
    m_path->setText(path.join(QStringLiteral(" › ")));
    m_path->setVisible(!path.isEmpty());
}

void CatalogPanel::selectInTree(const Variant* variant) {
    const QModelIndex idx = m_filterModel->mapFromSource(m_model->indexOf(variant));
    const QSignalBlocker block(m_tree->selectionModel());
    if (!idx.isValid()) {
        // Filtered out: no other row looks open.
        m_tree->selectionModel()->clear();
        return;
    }
    m_tree->setCurrentIndex(idx);
    m_tree->scrollTo(idx);
}

} // namespace lanemap::gui
