#include "pane_frame.hpp"

#include "diagram_view.hpp"

#include <QHBoxLayout>
#include <QLabel>
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

void PaneFrame::setTitle(const QString& text) {
    m_title->setText(text);
}

void PaneFrame::setBadge(const QString& text, bool ok, const QString& toolTip) {
    m_badge->setText(text);
    m_badge->setToolTip(toolTip);
    m_badge->setStyleSheet(ok ? QStringLiteral("QLabel { color: #2e7d32; }")
                              : QStringLiteral("QLabel { color: #c62828; font-weight: bold; }"));
    m_badge->setVisible(!text.isEmpty());
}

} // namespace lanemap::gui
