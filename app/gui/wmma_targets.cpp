// The wmma target picker (wmma_targets.hpp).
#include "wmma_targets.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/wmma.hpp"

#include <QFileDialog>
#include <QMessageBox>

#include <algorithm>

namespace lanemap::gui {

WmmaTargetPicker::WmmaTargetPicker(QWidget* parent) : QComboBox(parent) {
    setObjectName(QStringLiteral("wmmaTarget"));
    setToolTip(tr("The SASS target whose discovered wmma layout is shown: the PTX ISA leaves the layout "
                  "unspecified, and other targets may place elements differently"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    hide();
    connect(this, &QComboBox::activated, this, [this](int index) {
        if (m_variant && index >= 0)
            emit targetChosen(itemText(index));
    });
}

void WmmaTargetPicker::setInstruction(const Instruction* shown) {
    m_variant = shown ? Catalog::instance().variant(shown->spec) : nullptr;
    const QSignalBlocker block(this);
    clear();
    if (!m_variant || !m_variant->family->discovered) { // layouts of a SASS target: wmma's
        hide();
        return;
    }
    for (const std::string& t : wmma::targetsOf(*m_variant))
        addItem(QString::fromStdString(t));
    if (shown->discovery)
        if (const int at = findText(QString::fromStdString(shown->discovery->report.sassTarget)); at >= 0)
            setCurrentIndex(at);
    setVisible(count() > 1);
}

QString WmmaTargetPicker::target() const {
    return isHidden() ? QString() : currentText();
}

bool WmmaTargetPicker::addReport(const QString& path, QString* error) {
    std::string why;
    if (!wmma::addDiscoveryReport(path.toStdString(), why)) {
        if (error)
            *error = tr("%1 is not a usable discovery report: %2").arg(path, QString::fromStdString(why));
        return false;
    }
    const wmma::RecordedDiscovery* added = wmma::availableDiscoveries().back();
    const QString kept = currentText();
    {
        const QSignalBlocker block(this);
        clear();
        if (m_variant)
            for (const std::string& t : wmma::targetsOf(*m_variant))
                addItem(QString::fromStdString(t));
        setCurrentIndex(std::max(0, findText(kept)));
    }
    setVisible(m_variant && count() > 1);
    emit reportAdded(QString::fromStdString(added->report.sassTarget));
    return true;
}

void WmmaTargetPicker::openReportDialog() {
    const QString path = QFileDialog::getOpenFileName(parentWidget(), tr("Open discovery report"),
                                                      QString::fromStdString(wmma::userDiscoveryFolder()),
                                                      tr("Discovery reports (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!addReport(path, &error))
        QMessageBox::warning(parentWidget(), tr("Open discovery report"), error);
}

} // namespace lanemap::gui
