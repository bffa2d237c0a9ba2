// The Tensor Memory pane of a tcgen05.mma entry: N, the operand (D, or A in Tensor Memory) and the access it
// is composed with, picked in the pane's tools; the picture is core's (buildTensorMemoryDiagram), the same
// the SVG export writes. Hover goes through the shared ViewState like every register pane: the hovered
// cell's hover group is the thread holding it (composed) or its TMEM lane, and the view frames the cell
// holding the same element in the other panel (Diagram::partner).
#include "main_window.hpp"

#include "pane_frame.hpp"
#include "view_state.hpp"

#include "lanemap/tmem.hpp"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace lanemap::gui {

namespace {
QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

bool sameView(const TensorMemoryOptions& a, const TensorMemoryOptions& b) {
    return a.palette == b.palette && a.n == b.n && a.operand == b.operand && a.access == b.access &&
           a.extras == b.extras && a.blockScale == b.blockScale;
}

// The setters' one way to refuse: the reason where the caller asked for it, and false.
bool failWith(QString* error, const QString& why) {
    if (error)
        *error = why;
    return false;
}

std::vector<int> validNs(const tmem::MmaShape& shape) {
    const tmem::NRange r = tmem::validN(shape);
    if (!r.only.empty())
        return r.only;
    std::vector<int> out;
    for (int n = r.first; n <= r.last; n += r.step)
        out.push_back(n);
    return out;
}
} // namespace

void MainWindow::resetTensorMemoryView(int n) {
    m_tmem = TensorMemoryOptions{};
    if (!m_instruction || !tmem::mmaOf(*m_instruction))
        return;
    m_tmem.n = n > 0 ? n : m_instruction->n;
    if (!tmem::validN(shapeOf(*m_instruction, m_tmem)).contains(m_tmem.n))
        m_tmem.n = m_instruction->n;
    // Composed from the start: who holds D[m][n] after the load an epilogue would issue.
    m_tmem.access = defaultAccess(shapeOf(*m_instruction, m_tmem), tmem::Op::Ld);
    updateTensorMemoryTools();
}

bool MainWindow::setTensorMemoryView(int n, const QString& operand, const QString& access, QString* error) {
    const auto fail = [error](const QString& why) { return failWith(error, why); };
    if (!m_instruction || !tmem::mmaOf(*m_instruction))
        return fail(tr("the open entry is not a tcgen05.mma form"));
    TensorMemoryOptions o = m_tmem;
    o.n = n > 0 ? n : m_instruction->n;
    if (operand == QLatin1String("D"))
        o.operand = TmemOperand::D;
    else if (operand == QLatin1String("A"))
        o.operand = TmemOperand::A;
    else
        return fail(tr("operand '%1' is not D or A").arg(operand));
    o.access.reset();
    if (!access.isEmpty() && access != QLatin1String("none")) {
        std::string why;
        const tmem::Op op = o.operand == TmemOperand::D ? tmem::Op::Ld : tmem::Op::St;
        const std::optional<tmem::Access> a = tmem::parseAccess(access.toStdString(), op, why);
        if (!a)
            return fail(QString::fromStdString(why));
        o.access = a;
    }
    return applyTensorMemoryOptions(o, true, error);
}

bool MainWindow::setTensorMemoryBlockScale(const QString& vec, int sfaId, int sfbId, QString* error) {
    const auto fail = [error](const QString& why) { return failWith(error, why); };
    if (!m_instruction || !tmem::mmaOf(*m_instruction))
        return fail(tr("the open entry is not a tcgen05.mma form"));
    const tmem::MmaShape shape = shapeOf(*m_instruction, m_tmem);
    if (!tcgen05::defaultBlockScale(shape.kind))
        return fail(tr("kind::%1 is not block-scaled").arg(text(tcgen05::toString(shape.kind))));
    const std::optional<tcgen05::ScaleVec> v = tcgen05::parseScaleVec(vec.toStdString(), shape.kind);
    if (!v) {
        QStringList valid; // what this kind takes
        for (const tcgen05::ScaleVec each : tcgen05::scaleVecsOf(shape.kind))
            valid << text(tcgen05::toString(each));
        return fail(tr("'%1' is not a scale vector size of kind::%2; valid: %3")
                        .arg(vec, text(tcgen05::toString(shape.kind)), valid.join(QStringLiteral(", "))));
    }
    TensorMemoryOptions o = m_tmem;
    o.blockScale = tcgen05::BlockScale{*v, sfaId, sfbId};
    return applyTensorMemoryOptions(o, false, error);
}

bool MainWindow::applyTensorMemoryOptions(const TensorMemoryOptions& o, bool refit, QString* error) {
    if (const std::string why = validate(*m_instruction, o); !why.empty())
        return failWith(error, QString::fromStdString(why));
    m_tmem = o;
    updateTensorMemoryTools();
    updateHeader();
    rebuildPanes();
    if (DiagramView* v = pane(tensorMemoryPane()); v && refit)
        v->fit(DiagramView::FitMode::Readable); // a different picture: fitted afresh
    return true;
}

std::shared_ptr<const Diagram> MainWindow::tensorMemoryDiagram() const {
    if (!m_instruction || !tmem::mmaOf(*m_instruction))
        return nullptr;
    TensorMemoryOptions o = m_tmem;
    o.palette = m_state->palette();
    if (m_tmemDiagram && m_tmemDiagramOf == m_instruction && sameView(o, m_tmemDiagramOptions))
        return m_tmemDiagram;
    try {
        m_tmemDiagram = std::make_shared<const Diagram>(buildTensorMemoryDiagram(*m_instruction, o));
    } catch (const std::invalid_argument&) {
        // A view the entry does not take (restored settings): the entry as the catalog has it.
        o = TensorMemoryOptions{};
        o.palette = m_state->palette();
        m_tmemDiagram = std::make_shared<const Diagram>(buildTensorMemoryDiagram(*m_instruction, o));
    }
    m_tmemDiagramOf = m_instruction;
    m_tmemDiagramOptions = o;
    return m_tmemDiagram;
}

QWidget* MainWindow::makeTensorMemoryTools() {
    auto* tools = new QWidget;
    tools->setObjectName(QStringLiteral("tmemTools"));
    auto* rows = new QVBoxLayout(tools);
    rows->setContentsMargins(4, 0, 4, 2);
    rows->setSpacing(2);
    auto* hl = new QHBoxLayout;
    rows->addLayout(hl);
    // A labelled box in `row` of `parent`; its label goes to `labelOut` where asked.
    auto addBox = [](QWidget* parent, QHBoxLayout* row, const QString& label, const QString& objectName,
                     const QString& tip, QLabel** labelOut = nullptr) {
        auto* l = new QLabel(label, parent);
        auto* b = new QComboBox(parent);
        b->setObjectName(objectName);
        b->setToolTip(tip);
        b->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        l->setBuddy(b);
        row->addWidget(l);
        row->addWidget(b);
        if (labelOut)
            *labelOut = l;
        return b;
    };
    auto box = [&](const QString& label, const QString& objectName, const QString& tip, QLabel** labelOut) {
        return addBox(tools, hl, label, objectName, tip, labelOut);
    };
    m_tmemNBox =
        box(tr("&N"), QStringLiteral("tmemN"),
            tr("N of the mma (it lives in the instruction descriptor): how many columns D takes"), nullptr);
    m_tmemOperandBox =
        box(tr("O&perand"), QStringLiteral("tmemOperand"),
            tr("D, the accumulator; or A, where the form reads A from Tensor Memory"), nullptr);
    QLabel* accessLabel = nullptr;
    m_tmemAccessBox = box(tr("tcgen05.&ld"), QStringLiteral("tmemAccess"),
                          tr("Compose with the access every warp of the warpgroup issues: who holds each "
                             "element in which register. Every shape and .num that composes with this mma"),
                          &accessLabel);
    m_tmemAccessLabel = accessLabel;
    // The block scale: its own group, shown for the block-scaled kinds only.
    m_tmemScaleTools = new QWidget(tools);
    auto* sl = new QHBoxLayout(m_tmemScaleTools);
    sl->setContentsMargins(0, 0, 0, 0);
    auto scaleBox = [&](const QString& label, const QString& objectName, const QString& tip) {
        return addBox(m_tmemScaleTools, sl, label, objectName, tip);
    };
    m_tmemScaleVecBox =
        scaleBox(tr("Scale &vec"), QStringLiteral("tmemScaleVec"),
                 tr("The scale vector size (.scale_vec::NX, alias .block32 / .block16): scale "
                    "factors per row of A and column of B"));
    m_tmemSfaIdBox =
        scaleBox(tr("SF&A ID"), QStringLiteral("tmemSfaId"),
                 tr("The instruction descriptor's scale factor A ID: which bytes of the TMEM word "
                    "hold A's scale factors"));
    m_tmemSfbIdBox =
        scaleBox(tr("SF&B ID"), QStringLiteral("tmemSfbId"),
                 tr("The instruction descriptor's scale factor B ID: which bytes of the TMEM word "
                    "hold B's scale factors"));
    sl->addStretch(1);
    // A row of its own: beside the others, seven boxes made the window wider than a 1280-pixel screen.
    rows->addWidget(m_tmemScaleTools);
    auto applyScale = [this] {
        if (!m_tmemScaleVecBox || !m_tmemSfaIdBox || !m_tmemSfbIdBox)
            return;
        const QString vec = m_tmemScaleVecBox->currentData().toString();
        int sfa = m_tmemSfaIdBox->currentData().toInt(), sfb = m_tmemSfbIdBox->currentData().toInt();
        // A new vector size keeps the IDs it takes, else opens with 0.
        if (m_instruction && tmem::mmaOf(*m_instruction)) {
            const tmem::MmaShape shape = shapeOf(*m_instruction, m_tmem);
            if (const std::optional<tcgen05::ScaleVec> v =
                    tcgen05::parseScaleVec(vec.toStdString(), shape.kind)) {
                const std::vector<int>& ids = tcgen05::ruleOf(*v).ids;
                if (std::find(ids.begin(), ids.end(), sfa) == ids.end())
                    sfa = 0;
                if (std::find(ids.begin(), ids.end(), sfb) == ids.end())
                    sfb = 0;
            }
        }
        QString error;
        if (!setTensorMemoryBlockScale(vec, sfa, sfb, &error)) {
            updateTensorMemoryTools();
            statusBar()->showMessage(error, 8000);
        }
    };
    for (QComboBox* b : {m_tmemScaleVecBox.data(), m_tmemSfaIdBox.data(), m_tmemSfbIdBox.data()})
        connect(b, &QComboBox::activated, this, applyScale);
    hl->addStretch(1);
    auto apply = [this] {
        if (!m_tmemNBox || !m_tmemOperandBox || !m_tmemAccessBox)
            return;
        const QString operand = m_tmemOperandBox->currentData().toString();
        // A new operand opens with its default access; otherwise the chosen one.
        const bool operandChanged =
            operand != (m_tmem.operand == TmemOperand::A ? QStringLiteral("A") : QStringLiteral("D"));
        QString access = m_tmemAccessBox->currentData().toString();
        const int n = m_tmemNBox->currentData().toInt();
        if (operandChanged && m_instruction && tmem::mmaOf(*m_instruction)) {
            TensorMemoryOptions probe = m_tmem;
            probe.n = n;
            const tmem::Op op = operand == QLatin1String("A") ? tmem::Op::St : tmem::Op::Ld;
            access = text(tmem::specOf(defaultAccess(shapeOf(*m_instruction, probe), op)));
        }
        QString error;
        if (!setTensorMemoryView(n, operand, access, &error)) {
            // An access that does not fit the new N: the default one.
            if (m_instruction && tmem::mmaOf(*m_instruction) && access != QLatin1String("none")) {
                TensorMemoryOptions probe = m_tmem;
                probe.n = n;
                const tmem::Op op = operand == QLatin1String("A") ? tmem::Op::St : tmem::Op::Ld;
                if (setTensorMemoryView(n, operand,
                                        text(tmem::specOf(defaultAccess(shapeOf(*m_instruction, probe), op))),
                                        &error))
                    return;
            }
            updateTensorMemoryTools(); // back to what is shown
            statusBar()->showMessage(error, 8000);
        }
    };
    for (QComboBox* b : {m_tmemNBox.data(), m_tmemOperandBox.data(), m_tmemAccessBox.data()})
        connect(b, &QComboBox::activated, this, apply);
    updateTensorMemoryTools();
    return tools;
}

void MainWindow::updateTensorMemoryTools() {
    if (!m_tmemNBox || !m_tmemOperandBox || !m_tmemAccessBox || !m_instruction ||
        !tmem::mmaOf(*m_instruction))
        return;
    const tmem::MmaShape shape = shapeOf(*m_instruction, m_tmem);
    const QSignalBlocker b1(m_tmemNBox), b2(m_tmemOperandBox), b3(m_tmemAccessBox);
    m_tmemNBox->clear();
    for (const int n : validNs(shape))
        m_tmemNBox->addItem(QString::number(n), n);
    m_tmemNBox->setCurrentIndex(m_tmemNBox->findData(shape.n));

    m_tmemOperandBox->clear();
    m_tmemOperandBox->addItem(tr("D (accumulator)"), QStringLiteral("D"));
    m_tmemOperandBox->addItem(tr("A in Tensor Memory"), QStringLiteral("A"));
    const bool aModelled = modelsAInTensorMemory(shape);
    if (auto* model = qobject_cast<QStandardItemModel*>(m_tmemOperandBox->model()))
        if (QStandardItem* item = model->item(1)) {
            item->setEnabled(aModelled);
            item->setToolTip(aModelled
                                 ? QString()
                                 : tr("A in Tensor Memory is modelled for data-path layouts A, D and F"));
        }
    const bool a = m_tmem.operand == TmemOperand::A;
    m_tmemOperandBox->setCurrentIndex(a ? 1 : 0);

    const tmem::Op op = a ? tmem::Op::St : tmem::Op::Ld;
    if (m_tmemAccessLabel)
        m_tmemAccessLabel->setText(a ? tr("tcgen05.s&t") : tr("tcgen05.&ld"));
    m_tmemAccessBox->clear();
    m_tmemAccessBox->addItem(a ? tr("none (A alone)") : tr("none (D alone)"), QStringLiteral("none"));
    const tmem::Access preferred = defaultAccess(shape, op);
    for (const tmem::Access& access : composableAccesses(shape, op)) {
        const QString spec = text(tmem::specOf(access));
        m_tmemAccessBox->addItem(access == preferred ? spec + tr("  (epilogue default)") : spec, spec);
    }
    m_tmemAccessBox->setCurrentIndex(
        m_tmem.access ? m_tmemAccessBox->findData(text(tmem::specOf(*m_tmem.access))) : 0);

    const std::optional<tcgen05::BlockScale> bs = blockScaleOf(shape, m_tmem);
    if (m_tmemScaleTools)
        m_tmemScaleTools->setVisible(bs.has_value());
    if (!bs || !m_tmemScaleVecBox || !m_tmemSfaIdBox || !m_tmemSfbIdBox)
        return;
    const QSignalBlocker b4(m_tmemScaleVecBox), b5(m_tmemSfaIdBox), b6(m_tmemSfbIdBox);
    m_tmemScaleVecBox->clear();
    for (const tcgen05::ScaleVec v : tcgen05::scaleVecsOf(shape.kind)) {
        const QString name = text(tcgen05::toString(v));
        m_tmemScaleVecBox->addItem(name.mid(name.indexOf(QLatin1String("::")) + 2), name);
    }
    m_tmemScaleVecBox->setCurrentIndex(m_tmemScaleVecBox->findData(text(tcgen05::toString(bs->vec))));
    const tcgen05::ScaleVecRule& rule = tcgen05::ruleOf(bs->vec);
    for (auto [box, id] :
         {std::pair{m_tmemSfaIdBox.data(), bs->sfaId}, std::pair{m_tmemSfbIdBox.data(), bs->sfbId}}) {
        box->clear();
        for (const int valid : rule.ids)
            box->addItem(QString::number(valid), valid);
        box->setCurrentIndex(box->findData(id));
    }
}

} // namespace lanemap::gui
