#pragma once
// The SASS target picker for wmma (docs/discovery.md): wmma layouts are observed per target, so while a wmma
// variant is current and reports for several targets hold it (built in, from the user's discovery folder, or
// opened with File > Open discovery report), the picker offers them; choosing one shows that target's
// layouts, whose notes and captions say where they were observed.

#include "lanemap/model.hpp"

#include <QComboBox>
#include <QString>

namespace lanemap::gui {

class WmmaTargetPicker : public QComboBox {
    Q_OBJECT
  public:
    explicit WmmaTargetPicker(QWidget* parent = nullptr);

    // Follows the instruction the window shows: the targets of a wmma variant, the one it was observed on
    // selected; hidden for other families and when fewer than two targets hold it.
    void setInstruction(const Instruction* shown);
    QString target() const; // the chosen target, "sm_90"; empty when hidden
    // Adds a discovery report file, validated as `lanemap-cli discover --validate` validates it; false with
    // a plain message when it is refused. The picker then offers its target.
    bool addReport(const QString& path, QString* error);
    // Opens a file dialog and adds the chosen report; a refusal is said in a message box.
    void openReportDialog();

  signals:
    // The target chosen: the window opens the variant with it (Params::target).
    void targetChosen(const QString& target);
    void reportAdded(const QString& target);

  private:
    const Variant* m_variant = nullptr;
};

} // namespace lanemap::gui
