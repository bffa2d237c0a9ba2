#pragma once
// The probe's corner of the status bar: where the layout shown was confirmed (or discovered), the progress
// of a probe run with its Cancel button, and the non-modal notice that says in plain words why the probe
// cannot run here (the technical reason under Show Details).

#include <QObject>

class QLabel;
class QMessageBox;
class QProgressBar;
class QStatusBar;
class QToolButton;

namespace lanemap::gui {

class ProbeController;

class ProbeStatus : public QObject {
    Q_OBJECT
  public:
    // Adds its widgets to the right of `bar`, one by one (as permanent widgets: the bar keeps its height).
    ProbeStatus(ProbeController* probe, QStatusBar* bar);

    // What the status says of the instance shown (kept while a run reports its progress).
    void setProvenance(const QString& text, const QString& toolTip);
    // A run starts over `total` variants.
    void started(int total);

  private:
    ProbeController* m_probe;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    QMessageBox* m_notice = nullptr; // "no GPU here", created when first needed
};

} // namespace lanemap::gui
