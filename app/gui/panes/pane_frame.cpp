#include "pane_frame.hpp"

#include "diagram_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QShowEvent>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include <cmath>

namespace lanemap::gui {

PaneFrame::PaneFrame(DiagramView* view, QWidget* parent) : QWidget(parent), m_view(view) {
    auto* vl = new QVBoxLayout(this);
    vl->setContentsMargins(0, 0, 0, 0);
    vl->setSpacing(1);
    auto* header = new QHBoxLayout;
    header->setContentsMargins(4, 0, 4, 0);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("paneTitle"));
    m_badge = new QLabel(this);
    m_badge->setObjectName(QStringLiteral("paneBadge"));
    m_badge->hide();
    // Header texts give way when the pane is narrow (a laptop, half a screen): the grid matters more.
    for (QLabel* l : {m_title, m_badge})
        l->setMinimumWidth(1); // below the text's width: clipped rather than widening the window
    m_zoom = new QLabel(this);
    m_zoom->setObjectName(QStringLiteral("paneZoom"));
    m_zoom->setEnabled(false); // secondary text
    header->addWidget(m_title, 1);
    header->addWidget(m_badge);
    header->addSpacing(8);
    header->addWidget(m_zoom);
    vl->addLayout(header);
    view->setParent(this);
    vl->addWidget(view, 1);
    auto showZoom = [this](double zoom) {
        const QString mode = !m_view->fitting()                               ? QString()
                             : m_view->fitMode() == DiagramView::FitMode::All ? tr("fit all ")
                                                                              : tr("fit ");
        m_zoom->setText(tr("%1%2 %").arg(mode).arg(std::lround(zoom * 100)));
    };
    connect(view, &DiagramView::zoomChanged, this, showZoom);
    showZoom(view->zoom());
}

void PaneFrame::setTools(QWidget* tools) {
    auto* vl = static_cast<QVBoxLayout*>(layout());
    if (m_tools) {
        vl->removeWidget(m_tools);
        m_tools->deleteLater();
    }
    m_tools = tools;
    if (tools) {
        tools->setParent(this);
        vl->insertWidget(1, tools); // under the header line, over the view
    }
}

void PaneFrame::setTitle(const QString& text, const QString& compact, const QString& detail) {
    m_titleText = text;
    m_titleCompact = compact.isEmpty() ? text : compact;
    m_titleDetail = detail;
    if (m_laidOut) {
        fitHeader();
    } else {
        m_title->setText(text);
        m_title->setToolTip(detail);
    }
}

void PaneFrame::setBadge(const QString& text, bool ok, const QString& toolTip, const QString& icon) {
    m_badgeText = text;
    m_badgeIcon = icon.isEmpty() ? text.section(QLatin1Char(' '), 0, 0) : icon;
    m_badgeToolTip = toolTip;
    m_badge->setStyleSheet(ok ? QStringLiteral("QLabel { color: #2e7d32; }")
                              : QStringLiteral("QLabel { color: #c62828; font-weight: bold; }"));
    m_badge->setVisible(!text.isEmpty());
    if (m_laidOut)
        fitHeader();
    else
        m_badge->setText(text);
}

void PaneFrame::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // The first resize of a new frame comes from its layout; before it the width is a placeholder.
    if (isVisible())
        m_laidOut = true;
    if (m_laidOut && event->size().width() != event->oldSize().width())
        fitHeader();
}

void PaneFrame::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // Shown at the size its layout gave it (a resize before showing may not come again).
    m_laidOut = true;
    fitHeader();
}

void PaneFrame::fitHeader() {
    // Room for the title and the badge: the header line less its margins, spacing and the zoom label.
    const int room = width() - 8 - 8 - 2 * 6 - m_zoom->sizeHint().width() - 10; // 10: the layout's slack
    auto widthOf = [this](QLabel* label, const QString& text) {
        if (Qt::mightBeRichText(text)) {
            QTextDocument doc;
            doc.setDefaultFont(label->font());
            doc.setDocumentMargin(0);
            doc.setHtml(text);
            return static_cast<int>(std::ceil(doc.idealWidth())) + 4;
        }
        return label->fontMetrics().horizontalAdvance(text) + 4;
    };
    const bool badge = !m_badgeText.isEmpty();
    const int fullBadge = badge ? widthOf(m_badge, m_badgeText) : 0;
    const int iconBadge = badge ? widthOf(m_badge, m_badgeIcon) : 0;
    const int fullTitle = widthOf(m_title, m_titleText);
    // Shrink the badge to its icon first (the tooltip keeps its words), then say the title shorter.
    m_badgeCompact = badge && fullTitle + fullBadge > room;
    const bool compactTitle = fullTitle + (m_badgeCompact ? iconBadge : fullBadge) > room;
    m_title->setText(compactTitle ? m_titleCompact : m_titleText);
    m_badge->setText(m_badgeCompact ? m_badgeIcon : m_badgeText);
    // The icon never gives way to the title (the words may: then the icon shows at the next fit).
    m_badge->setMinimumWidth(badge ? iconBadge : 1);
    QString tip = QTextDocumentFragment::fromHtml(m_titleText).toPlainText();
    if (badge)
        tip += QStringLiteral("\n") + m_badgeText;
    if (!m_titleDetail.isEmpty())
        tip += QStringLiteral("\n") + m_titleDetail;
    m_title->setToolTip(compactTitle || m_badgeCompact ? tip : m_titleDetail);
    m_badge->setToolTip(
        m_badgeCompact
            ? m_badgeText + (m_badgeToolTip.isEmpty() ? QString() : QStringLiteral("\n") + m_badgeToolTip)
            : m_badgeToolTip);
}

} // namespace lanemap::gui
