#pragma once
// Tools → "Decode descriptor…": paste a tcgen05 64-bit shared-memory descriptor or 32-bit instruction
// descriptor (with its kind, and optionally the instruction's cta_group and .ws), or a wgmma (sm_90) matrix
// descriptor, see every field with its bits, raw value and meaning, and every rule of the PTX ISA the value
// breaks (core's tcgen05::decode* and smem::descriptorFields; the CLI's `decode` and `show`).

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace lanemap::gui {

class DescriptorDecoder : public QDialog {
    Q_OBJECT
  public:
    explicit DescriptorDecoder(QWidget* parent = nullptr);

    // What the user would type and pick; each call re-decodes.
    void setValue(const QString& text);
    // 0: tcgen05 shared-memory descriptor, 1: tcgen05 instruction descriptor, 2: wgmma matrix descriptor.
    void setDescriptorType(int index);
    void setKind(const QString& kind); // "f16", "mxf8f6f4", ...

    QTableWidget* fieldTable() const { return m_fields; }
    // "valid: no rule broken", one line per broken rule, or why the text is not a value.
    QString status() const;
    bool valid() const { return m_valid; }

  private:
    void decode();

    QComboBox* m_type = nullptr;
    QLineEdit* m_value = nullptr;
    QComboBox* m_kind = nullptr;
    QComboBox* m_ctaGroup = nullptr;
    QComboBox* m_ws = nullptr;
    QTableWidget* m_fields = nullptr;
    QLabel* m_status = nullptr;
    bool m_valid = false;
};

} // namespace lanemap::gui
