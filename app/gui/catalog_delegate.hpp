#pragma once
// How the catalog tree draws a row: the node's text and a rounded "sm_80" badge at the right edge, coloured
// by GPU generation. A widget delegate, kept out of the catalog model (which knows no widgets).

#include <QStyledItemDelegate>

namespace lanemap::gui {

// Paints tree rows with a rounded "sm_80" badge at the right edge.
class CatalogDelegate : public QStyledItemDelegate {
    Q_OBJECT
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace lanemap::gui
