#include "probe_status.hpp"

#include "probe_controller.hpp"

#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>

namespace lanemap::gui {

ProbeStatus::ProbeStatus(ProbeController* probe, QStatusBar* bar) : QObject(bar), m_probe(probe) {
    m_status = new QLabel(bar);
    m_status->setObjectName(QStringLiteral("probeStatus"));
    bar->addPermanentWidget(m_status);
    m_progress = new QProgressBar(bar);
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(true);
    m_progress->hide();
    bar->addPermanentWidget(m_progress);
    m_cancel = new QToolButton(bar);
    m_cancel->setText(tr("Cancel"));
    m_cancel->hide();
    bar->addPermanentWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, probe, &ProbeController::cancel);
    connect(probe, &ProbeController::progress, this, [this](int done, int total, const QString& spec) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        m_status->setText(tr("probing %1 (%2/%3)").arg(spec).arg(done).arg(total));
    });
    connect(probe, &ProbeController::unavailable, this, [this](const QString& reason) {
        // A non-modal notice in plain words (the technical reason under "Show Details"); the status keeps the
        // variant's provenance.
        if (!m_notice) {
            m_notice = new QMessageBox(QMessageBox::Information, tr("Probe hardware"), QString(),
                                       QMessageBox::Close, m_status->window());
            m_notice->setObjectName(QStringLiteral("probeNotice"));
            m_notice->setWindowModality(Qt::NonModal);
            m_notice->setModal(false);
        }
        m_notice->setText(plainUnavailable(reason));
        m_notice->setDetailedText(reason);
        m_notice->show();
    });
    connect(probe, &ProbeController::finished, this, [this] {
        m_progress->hide();
        m_cancel->hide();
    });
}

void ProbeStatus::setProvenance(const QString& text, const QString& toolTip) {
    if (m_probe->running())
        return;
    m_status->setText(text);
    m_status->setToolTip(toolTip);
}

void ProbeStatus::started(int total) {
    m_progress->setRange(0, total);
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_status->setText(tr("looking for a GPU…"));
}

} // namespace lanemap::gui
