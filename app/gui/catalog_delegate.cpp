// The catalog tree's rows with their minimum-SM badge (catalog_delegate.hpp).
#include "catalog_delegate.hpp"

#include "catalog_model.hpp"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace lanemap::gui {

namespace {
QString badgeText(const QModelIndex& index) {
    const QVariant sm = index.data(CatalogModel::MinSmRole);
    return sm.isValid() ? QStringLiteral("sm_%1").arg(sm.toInt()) : QString();
}

// Badge colors by generation: Volta/Turing grey, Ampere green, Ada teal, Hopper blue, Blackwell purple.
QColor badgeColor(int sm) {
    if (sm >= 120)
        return QColor(0x8e, 0x44, 0xad);
    if (sm >= 100)
        return QColor(0x6c, 0x3f, 0xc4);
    if (sm >= 90)
        return QColor(0x1f, 0x6f, 0xd1);
    if (sm >= 89)
        return QColor(0x13, 0x8a, 0x8a);
    if (sm >= 80)
        return QColor(0x2e, 0x8b, 0x3e);
    return QColor(0x70, 0x70, 0x70);
}
} // namespace

void CatalogDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                            const QModelIndex& index) const {
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const bool leaf = !index.data(CatalogModel::SpecRole).toString().isEmpty();
    QString badge = badgeText(index);
    if (!badge.isEmpty() && !leaf)
        badge += QLatin1Char('+');
    QFont badgeFont = opt.font;
    badgeFont.setPointSizeF(std::max(6.0, badgeFont.pointSizeF() * 0.8));
    const QFontMetrics bfm(badgeFont);
    const int badgeW = badge.isEmpty() ? 0 : bfm.horizontalAdvance(badge) + 10;

    // Row background (selection, hover) from the style, then our own text and badge.
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    const QString text = opt.text;
    opt.text.clear();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);
    opt.text = text;

    painter->save();
    const QRect textRect =
        style->subElementRect(QStyle::SE_ItemViewItemText, &opt, widget).adjusted(0, 0, -(badgeW + 6), 0);
    QFont textFont = opt.font;
    if (!index.parent().isValid())
        textFont.setBold(true);
    painter->setFont(textFont);
    painter->setPen(
        opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
                      QFontMetrics(textFont).elidedText(text, Qt::ElideRight, textRect.width()));
    if (!badge.isEmpty()) {
        const int sm = index.data(CatalogModel::MinSmRole).toInt();
        const int h = std::min(opt.rect.height() - 2, bfm.height() + 2);
        const QRect r(opt.rect.right() - badgeW - 4, opt.rect.center().y() - h / 2, badgeW, h);
        painter->setRenderHint(QPainter::Antialiasing);
        QPainterPath path;
        path.addRoundedRect(QRectF(r), r.height() / 2.0, r.height() / 2.0);
        QColor fill = badgeColor(sm);
        if (!leaf)
            fill.setAlpha(140);
        painter->fillPath(path, fill);
        painter->setPen(Qt::white);
        painter->setFont(badgeFont);
        painter->drawText(r, Qt::AlignCenter, badge);
    }
    painter->restore();
}

QSize CatalogDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(s.width() + 60);
    s.setHeight(std::max(s.height(), option.fontMetrics.height() + 6));
    return s;
}

} // namespace lanemap::gui
