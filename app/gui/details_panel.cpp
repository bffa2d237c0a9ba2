#include "details_panel.hpp"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace lanemap::gui {

DetailsPanel::DetailsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("detailsText"));
    m_browser->setOpenExternalLinks(true);
    m_browser->setFrameShape(QFrame::NoFrame);
    layout->addWidget(m_browser, 1);
    auto* buttons = new QHBoxLayout;
    m_copy = new QPushButton(tr("Copy cell info"), this);
    m_copy->setToolTip(tr("Copy the details of this cell as text (Ctrl+Shift+C)"));
    m_copy->setEnabled(false);
    connect(m_copy, &QPushButton::clicked, this, &DetailsPanel::copyToClipboard);
    buttons->addStretch(1);
    buttons->addWidget(m_copy);
    layout->addLayout(buttons);
    clear();
}

void DetailsPanel::setCell(const CellInfo& info) {
    m_info = info;
    if (!info.valid) {
        clear();
        return;
    }
    m_browser->setHtml(info.toHtml());
    m_copy->setEnabled(true);
}

void DetailsPanel::clear(const QString& hint) {
    m_info = {};
    m_copy->setEnabled(false);
    m_browser->setHtml(QStringLiteral("<p style='color:gray'>%1</p>")
                           .arg(hint.isEmpty()
                                    ? tr("Hover a cell to see its lane, register and bits. Click to pin "
                                         "a lane; arrows move the cell cursor, Tab the pane.")
                                    : hint.toHtmlEscaped()));
}

QString DetailsPanel::shownText() const {
    return m_browser->toPlainText();
}

void DetailsPanel::copyToClipboard() const {
    if (m_info.valid)
        QApplication::clipboard()->setText(m_info.toPlainText());
}

} // namespace lanemap::gui
