#include "tensor_memory_pane.hpp"

#include "diagram_cache.hpp"
#include "diagram_view.hpp"
#include "flow_layout.hpp"
#include "gui_text.hpp"
#include "view_state.hpp"

#include "lanemap/diagram_tmem.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>

namespace lanemap::gui {

namespace {
// The op an operand in Tensor Memory is composed with: D is loaded, A stored.
tmem::Op opOf(Operand operand) {
    return operand == Operand::A ? tmem::Op::St : tmem::Op::Ld;
}
} // namespace

TensorMemoryPane::TensorMemoryPane(const Context& context, QWidget* parent)
    : Pane({Space::TensorMemory, {}, DiagramPart::Whole}, Lights::Lanes, context, parent) {
    setObjectName(QStringLiteral("frame_Tensor Memory"));
    view()->setObjectName(QStringLiteral("pane_Tensor Memory"));
    view()->setAccessibleName(tr("Tensor Memory operand"));
    setTools(makeTools());
}

const TensorMemorySource* TensorMemoryPane::source() const {
    if (m_instance)
        for (const Placement& p : m_instance->placements)
            if (const TensorMemorySource* tensor = p.tensor())
                return tensor;
    return nullptr;
}

QWidget* TensorMemoryPane::makeTools() {
    auto* tools = new QWidget;
    tools->setObjectName(QStringLiteral("tmemTools"));
    auto* rows = new QVBoxLayout(tools);
    rows->setContentsMargins(4, 0, 4, 2);
    rows->setSpacing(2);
    // The boxes wrap onto a second line in a narrow pane rather than widen the window.
    auto* hl = new FlowLayout;
    rows->addLayout(hl);
    // A labelled box in `row` of `parent`; its label goes to `labelOut` where asked.
    auto addBox = [](QWidget* parent, QLayout* row, const QString& label, const QString& objectName,
                     const QString& tip, QLabel** labelOut = nullptr) {
        auto* pair = new QWidget(parent);
        auto* pl = new QHBoxLayout(pair);
        pl->setContentsMargins(0, 0, 0, 0);
        auto* l = new QLabel(label, pair);
        auto* b = new QComboBox(pair);
        b->setObjectName(objectName);
        b->setToolTip(tip);
        b->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        l->setBuddy(b);
        pl->addWidget(l);
        pl->addWidget(b);
        row->addWidget(pair);
        if (labelOut)
            *labelOut = l;
        return b;
    };
    m_operandBox = addBox(tools, hl, tr("O&perand"), QStringLiteral("tmemOperand"),
                          tr("D, the accumulator; or A, where the form reads A from Tensor Memory"));
    m_accessBox = addBox(tools, hl, tr("tcgen05.&ld"), QStringLiteral("tmemAccess"),
                         tr("Compose with the access every warp of the warpgroup issues: who holds each "
                            "element in which register. Every shape and .num that composes with this mma"),
                         &m_accessLabel);
    // The block scale: its own row (beside the others, seven boxes made the window wider than a 1280-pixel
    // screen), shown for the block-scaled kinds only.
    m_scaleTools = new QWidget(tools);
    auto* sl = new FlowLayout(m_scaleTools);
    sl->setContentsMargins(0, 0, 0, 0);
    m_scaleVecBox = addBox(m_scaleTools, sl, tr("Scale &vec"), QStringLiteral("tmemScaleVec"),
                           tr("The scale vector size (.scale_vec::NX, alias .block32 / .block16): scale "
                              "factors per row of A and column of B"));
    m_sfaIdBox = addBox(m_scaleTools, sl, tr("SF&A ID"), QStringLiteral("tmemSfaId"),
                        tr("The instruction descriptor's scale factor A ID: which bytes of the TMEM word "
                           "hold A's scale factors"));
    m_sfbIdBox = addBox(m_scaleTools, sl, tr("SF&B ID"), QStringLiteral("tmemSfbId"),
                        tr("The instruction descriptor's scale factor B ID: which bytes of the TMEM word "
                           "hold B's scale factors"));
    rows->addWidget(m_scaleTools);
    for (QComboBox* b : {m_operandBox, m_accessBox})
        connect(b, &QComboBox::activated, this, &TensorMemoryPane::applyView);
    for (QComboBox* b : {m_scaleVecBox, m_sfaIdBox, m_sfbIdBox})
        connect(b, &QComboBox::activated, this, &TensorMemoryPane::applyScale);
    return tools;
}

void TensorMemoryPane::request(Params params) {
    const Selection next{state().selection().variant, std::move(params)};
    if (const std::string why = next ? validate(next) : std::string("no catalog variant"); !why.empty())
        return refuse(QString::fromStdString(why));
    emit paramsChanged(next.params);
}

void TensorMemoryPane::applyView() {
    const TensorMemorySource* tensor = source();
    const Variant* variant = state().selection().variant;
    if (!tensor || !variant)
        return;
    Params p = m_instance->params;
    const auto operand = static_cast<Operand>(m_operandBox->currentData().toInt());
    const tmem::MmaShape& shape = tensor->mma; // at the instance's N (the header's N box chooses it)
    // A new operand opens with its default access; otherwise the chosen one ("none": the operand alone).
    const QVariant access = m_accessBox->currentData();
    p.access = operand != p.tensorOperand ? std::optional(defaultAccess(shape, opOf(operand)))
               : access.isValid()         ? std::optional(access.value<tmem::Access>())
                                          : std::nullopt;
    p.tensorOperand = operand;
    request(p);
}

void TensorMemoryPane::applyScale() {
    if (!m_instance)
        return;
    const auto vec = static_cast<tcgen05::ScaleVec>(m_scaleVecBox->currentData().toInt());
    int sfa = m_sfaIdBox->currentData().toInt(), sfb = m_sfbIdBox->currentData().toInt();
    // A new vector size keeps the IDs it takes, else opens with 0.
    const std::vector<int>& ids = tcgen05::ruleOf(vec).ids;
    if (std::find(ids.begin(), ids.end(), sfa) == ids.end())
        sfa = 0;
    if (std::find(ids.begin(), ids.end(), sfb) == ids.end())
        sfb = 0;
    Params p = m_instance->params;
    p.blockScale = tcgen05::BlockScale{vec, sfa, sfb};
    request(p);
}

void TensorMemoryPane::rebuild() {
    // Only the palette changes its picture; the instance's parameters say the rest.
    DiagramOptions o;
    o.palette = state().palette();
    setPicture(m_context.cache->get(m_instance, o));
    updateTools();
    const Params& p = m_instance->params;
    const bool different =
        p.n != m_drawn.n || p.tensorOperand != m_drawn.tensorOperand || p.access != m_drawn.access;
    if (different)
        view()->fit(DiagramView::FitMode::Readable); // a different picture: fitted afresh
    m_drawn = p;
}

void TensorMemoryPane::updateTools() {
    const TensorMemorySource* tensor = source();
    if (!tensor)
        return;
    const tmem::MmaShape& shape = tensor->mma; // at the instance's N
    const Params& params = m_instance->params;
    const QSignalBlocker b2(m_operandBox), b3(m_accessBox);

    m_operandBox->clear();
    m_operandBox->addItem(tr("D (accumulator)"), static_cast<int>(Operand::D));
    m_operandBox->addItem(tr("A in Tensor Memory"), static_cast<int>(Operand::A));
    const bool aModelled = modelsAInTensorMemory(shape);
    if (auto* model = qobject_cast<QStandardItemModel*>(m_operandBox->model()))
        if (QStandardItem* item = model->item(1)) {
            item->setEnabled(aModelled);
            item->setToolTip(aModelled
                                 ? QString()
                                 : tr("A in Tensor Memory is modelled for data-path layouts A, D and F"));
        }
    const bool a = params.tensorOperand == Operand::A;
    m_operandBox->setCurrentIndex(a ? 1 : 0);

    const tmem::Op op = opOf(params.tensorOperand);
    m_accessLabel->setText(a ? tr("tcgen05.s&t") : tr("tcgen05.&ld"));
    m_accessBox->clear();
    m_accessBox->addItem(a ? tr("none (A alone)") : tr("none (D alone)"));
    const tmem::Access preferred = defaultAccess(shape, op);
    for (const tmem::Access& access : composableAccesses(shape, op)) {
        const QString spec = qs(tmem::specOf(access));
        m_accessBox->addItem(access == preferred ? spec + tr("  (epilogue default)") : spec,
                             QVariant::fromValue(access));
    }
    m_accessBox->setCurrentIndex(params.access ? m_accessBox->findData(QVariant::fromValue(*params.access))
                                               : 0);

    TensorMemoryOptions view;
    view.params.blockScale = params.blockScale;
    const std::optional<tcgen05::BlockScale> bs = blockScaleOf(shape, view);
    m_scaleTools->setVisible(bs.has_value());
    if (!bs)
        return;
    const QSignalBlocker b4(m_scaleVecBox), b5(m_sfaIdBox), b6(m_sfbIdBox);
    m_scaleVecBox->clear();
    for (const tcgen05::ScaleVec v : tcgen05::scaleVecsOf(shape.kind)) {
        const QString name = qs(tcgen05::toString(v));
        m_scaleVecBox->addItem(name.mid(name.indexOf(QLatin1String("::")) + 2), static_cast<int>(v));
    }
    m_scaleVecBox->setCurrentIndex(m_scaleVecBox->findData(static_cast<int>(bs->vec)));
    const tcgen05::ScaleVecRule& rule = tcgen05::ruleOf(bs->vec);
    for (auto [box, id] : {std::pair{m_sfaIdBox, bs->sfaId}, std::pair{m_sfbIdBox, bs->sfbId}}) {
        box->clear();
        for (const int valid : rule.ids)
            box->addItem(QString::number(valid), valid);
        box->setCurrentIndex(box->findData(id));
    }
}

CellInfo TensorMemoryPane::describe(int cell) const {
    const Diagram* d = view()->diagram();
    if (!d || !m_instance || cell < 0 || static_cast<std::size_t>(cell) >= d->cells.size())
        return {};
    if (CellInfo info = describeTensorMemoryCell(*m_instance, *d, cell); info.valid)
        return info;
    // Not a D or A cell of the view (a scale factor, metadata): the hover line's words.
    const DiagramCell& c = d->cells[static_cast<std::size_t>(cell)];
    const DiagramPanel& panel = d->panels[c.panel];
    CellInfo info;
    fillInstructionFacts(info, *m_instance);
    info.valid = true;
    info.operand = qs(panel.name);
    info.summary = qs(d->tooltip(c));
    info.panelTitle = qs(panel.title);
    return info;
}

} // namespace lanemap::gui
