// The tcgen05 descriptor decoder dialog: typed fields from core, strings only for the table and the status.
#include "descriptor_decoder.hpp"

#include "lanemap/smem.hpp"
#include "lanemap/tcgen05_desc.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>

#include <optional>

namespace lanemap::gui {

namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

constexpr tcgen05::Kind kKinds[] = {tcgen05::Kind::F16,     tcgen05::Kind::TF32,     tcgen05::Kind::F8F6F4,
                                    tcgen05::Kind::I8,      tcgen05::Kind::MXF8F6F4, tcgen05::Kind::MXF4,
                                    tcgen05::Kind::MXF4NVF4};

} // namespace

DescriptorDecoder::DescriptorDecoder(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Decode descriptor"));
    setObjectName(QStringLiteral("descriptorDecoder"));
    m_type = new QComboBox(this);
    m_type->addItem(tr("Shared-memory descriptor (64-bit)"));
    m_type->addItem(tr("Instruction descriptor (32-bit)"));
    m_type->addItem(tr("wgmma matrix descriptor (64-bit, sm_90)"));
    m_type->setToolTip(tr("tcgen05 (sm_100) shared-memory or instruction descriptor, or wgmma's (sm_90) "
                          "matrix descriptor"));
    m_value = new QLineEdit(this);
    m_value->setPlaceholderText(tr("hex, e.g. 0x4000404000010040"));
    m_value->setClearButtonEnabled(true);
    m_kind = new QComboBox(this);
    for (const tcgen05::Kind k : kKinds)
        m_kind->addItem(QStringLiteral("kind::") + qs(tcgen05::toString(k)), static_cast<int>(k));
    m_ctaGroup = new QComboBox(this);
    m_ctaGroup->addItem(tr("either"), 0);
    m_ctaGroup->addItem(QStringLiteral("cta_group::1"), 1);
    m_ctaGroup->addItem(QStringLiteral("cta_group::2"), 2);
    m_ws = new QComboBox(this);
    m_ws->addItem(tr("either"), -1);
    m_ws->addItem(tr("not .ws"), 0);
    m_ws->addItem(QStringLiteral(".ws"), 1);
    m_ctaGroup->setObjectName(QStringLiteral("ctaGroup"));
    m_ws->setObjectName(QStringLiteral("ws"));
    m_ctaGroup->setToolTip(
        tr("The instruction's .cta_group: the idesc does not carry it, the shape rules need it"));
    m_ws->setToolTip(
        tr("Whether the instruction is .ws: the idesc does not carry it, the shape rules need it"));

    auto* form = new QFormLayout;
    form->addRow(tr("Descriptor"), m_type);
    form->addRow(tr("Value"), m_value);
    form->addRow(tr("Kind"), m_kind);
    form->addRow(tr("CTA group"), m_ctaGroup);
    form->addRow(QStringLiteral(".ws"), m_ws);

    m_fields = new QTableWidget(0, 4, this);
    m_fields->setHorizontalHeaderLabels({tr("Bits"), tr("Field"), tr("Raw"), tr("Meaning")});
    m_fields->verticalHeader()->hide();
    m_fields->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_fields->horizontalHeader()->setStretchLastSection(true);
    m_fields->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_fields, 1);
    layout->addWidget(m_status);
    resize(760, 560);

    connect(m_value, &QLineEdit::textChanged, this, &DescriptorDecoder::decode);
    for (QComboBox* box : {m_type, m_kind, m_ctaGroup, m_ws})
        connect(box, &QComboBox::currentIndexChanged, this, &DescriptorDecoder::decode);
    decode();
}

void DescriptorDecoder::setValue(const QString& text) {
    m_value->setText(text);
}
void DescriptorDecoder::setDescriptorType(int index) {
    m_type->setCurrentIndex(index);
}
void DescriptorDecoder::setKind(const QString& kind) {
    const std::optional<tcgen05::Kind> k = tcgen05::parseKind(kind.toStdString());
    if (k)
        m_kind->setCurrentIndex(m_kind->findData(static_cast<int>(*k)));
}

QString DescriptorDecoder::status() const {
    return m_status->text();
}

void DescriptorDecoder::decode() {
    const bool instr = m_type->currentIndex() == 1;
    const bool wgmma = m_type->currentIndex() == 2;
    for (QWidget* w : std::initializer_list<QWidget*>{m_kind, m_ctaGroup, m_ws})
        w->setEnabled(instr);
    m_fields->setRowCount(0);
    m_valid = false;
    auto fail = [this](const QString& why) {
        m_status->setText(why);
        m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
    };
    if (m_value->text().trimmed().isEmpty()) {
        m_status->setText(tr("Paste a value to see its fields."));
        m_status->setStyleSheet(QString());
        return;
    }
    const std::optional<std::uint64_t> bits =
        tcgen05::parseValue(m_value->text().toStdString(), instr ? 32 : 64);
    if (!bits) {
        fail(instr ? tr("Not a 32-bit hex value (up to 8 hex digits, 0x optional).")
                   : tr("Not a 64-bit hex value (up to 16 hex digits, 0x optional)."));
        return;
    }
    std::vector<tcgen05::Field> fields;
    std::vector<tcgen05::Violation> violations;
    QString shape;
    if (instr) {
        tcgen05::Context context;
        if (const int cta = m_ctaGroup->currentData().toInt(); cta != 0)
            context.ctaGroup = cta;
        if (const int ws = m_ws->currentData().toInt(); ws >= 0)
            context.ws = ws == 1;
        const auto kind = static_cast<tcgen05::Kind>(m_kind->currentData().toInt());
        tcgen05::DecodedInstrDescriptor d =
            tcgen05::decodeInstrDescriptor(static_cast<std::uint32_t>(*bits), kind, context);
        fields = std::move(d.fields);
        violations = std::move(d.violations);
        shape = tr("M = %1, N = %2, K = %3 (%4). ")
                    .arg(d.descriptor.m)
                    .arg(d.descriptor.n)
                    .arg(tcgen05::kOf(d.descriptor))
                    .arg(d.descriptor.sparse ? tr("sparse") : tr("dense"));
    } else if (wgmma) {
        // core's wgmma decoder (smem::decodeDescriptor), the one `lanemap show` describes a tile with.
        std::vector<std::string> broken;
        for (smem::DescriptorField& f : smem::descriptorFields(*bits, &broken))
            fields.push_back({f.name, f.name, f.lowBit, f.highBit, f.raw, std::move(f.meaning)});
        for (const std::string& rule : broken)
            violations.push_back({"reserved", rule});
    } else {
        tcgen05::DecodedSmemDescriptor d = tcgen05::decodeSmemDescriptor(*bits);
        fields = std::move(d.fields);
        violations = std::move(d.violations);
        // wgmma's descriptor has no version field: a value whose bits 46-48 are 0 is probably one.
        if (((*bits >> 46) & 0x7) == 0)
            shape = tr("Bits [48..46] are 0: a wgmma (sm_90) descriptor? Pick the wgmma matrix descriptor. ");
    }
    m_fields->setRowCount(static_cast<int>(fields.size()));
    for (int row = 0; row < static_cast<int>(fields.size()); ++row) {
        const tcgen05::Field& f = fields[static_cast<std::size_t>(row)];
        // [high..low], as every bit range of the window reads (the Cell dock's [31..16]).
        const QString range = f.highBit == f.lowBit ? QStringLiteral("[%1]").arg(f.lowBit)
                                                    : QStringLiteral("[%1..%2]").arg(f.highBit).arg(f.lowBit);
        const QString cells[] = {range, qs(f.name), QString::number(f.raw), qs(f.meaning)};
        for (int col = 0; col < 4; ++col)
            m_fields->setItem(row, col, new QTableWidgetItem(cells[col]));
    }
    m_fields->resizeColumnsToContents();
    if (violations.empty()) {
        m_valid = true;
        m_status->setText(shape + tr("valid: no rule broken"));
        m_status->setStyleSheet(QString());
        return;
    }
    QStringList lines;
    for (const tcgen05::Violation& v : violations)
        lines << tr("rule broken: %1: %2").arg(qs(v.field), qs(v.rule));
    fail(shape + lines.join(QLatin1Char('\n')));
}

} // namespace lanemap::gui
