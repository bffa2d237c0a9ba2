#include "shared_memory_pane.hpp"

#include "diagram_view.hpp"
#include "flow_layout.hpp"
#include "gui_text.hpp"
#include "view_state.hpp"

#include "lanemap/diagram_pair.hpp"
#include "lanemap/smem.hpp"

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace lanemap::gui {

SharedMemoryPane::SharedMemoryPane(const Context& context, QWidget* parent)
    : Pane({Space::SharedMemory, {}, DiagramPart::Whole}, Lights::Own, context, parent) {
    setObjectName(QStringLiteral("frame_smem"));
    view()->setObjectName(QStringLiteral("pane_smem"));
    view()->setAccessibleName(tr("shared memory"));
    setTools(makeTools());
}

QWidget* SharedMemoryPane::makeTools() {
    auto* tools = new QWidget;
    tools->setObjectName(QStringLiteral("smemTools"));
    auto* vl = new QVBoxLayout(tools);
    vl->setContentsMargins(4, 0, 4, 2);
    vl->setSpacing(2);
    // The boxes wrap onto a second line in a narrow pane rather than widen the window.
    auto* hl = new FlowLayout;
    vl->addLayout(hl);
    auto box = [&](const QString& label, const QString& objectName, const QString& tip) {
        auto* pair = new QWidget(tools);
        auto* pl = new QHBoxLayout(pair);
        pl->setContentsMargins(0, 0, 0, 0);
        auto* l = new QLabel(label, pair);
        auto* b = new QComboBox(pair);
        b->setObjectName(objectName);
        b->setToolTip(tip);
        l->setBuddy(b);
        pl->addWidget(l);
        pl->addWidget(b);
        hl->addWidget(pair);
        return b;
    };
    m_operandBox = box(tr("&Operand"), QStringLiteral("smemOperand"),
                       tr("B always comes from shared memory; A does in the SS form"));
    for (const Operand o : {Operand::B, Operand::A})
        m_operandBox->addItem(qs(toString(o)), static_cast<int>(o));
    m_majorBox = box(tr("&Major"), QStringLiteral("smemMajor"),
                     tr("Which index is contiguous in memory (imm-trans = 0: K-major; 1: M- or N-major)"));
    for (const smem::Major m : {smem::Major::K, smem::Major::MN})
        m_majorBox->addItem(qs(smem::toString(m)), static_cast<int>(m));
    m_swizzleBox = box(tr("S&wizzle"), QStringLiteral("smemSwizzle"),
                       tr("The descriptor's swizzle mode (bits [63..62])"));
    for (const smem::Swizzle s :
         {smem::Swizzle::None, smem::Swizzle::B32, smem::Swizzle::B64, smem::Swizzle::B128})
        m_swizzleBox->addItem(qs(smem::toString(s)), static_cast<int>(s));
    m_showBox = box(
        tr("S&how"), QStringLiteral("smemShow"),
        tr("addresses: the byte address of each 16-byte chunk, on its first element (hover an element for "
           "its own); memory: the 128-byte lines (32 banks), "
           "each 16-byte chunk where the swizzle put it"));
    m_showBox->addItem(tr("addresses"), static_cast<int>(Show::Addresses));
    m_showBox->addItem(tr("memory"), static_cast<int>(Show::Memory));
    m_showBox->addItem(tr("both"), static_cast<int>(Show::Both));
    connect(m_showBox, &QComboBox::activated, this,
            [this] { setShown(static_cast<Show>(m_showBox->currentData().toInt())); });
    // The matrix descriptor decoded (core's smem::describe, as `lanemap show` prints it), wrapped to the
    // pane's width, and a button that copies it with the tile's CuTe layout and swizzle rule.
    auto* dl = new QHBoxLayout;
    vl->addLayout(dl);
    m_note = new QLabel(tools);
    m_note->setObjectName(QStringLiteral("smemNote"));
    m_note->setMinimumWidth(1);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    dl->addWidget(m_note, 1);
    m_copyDescriptor = new QToolButton(tools);
    QToolButton* copy = m_copyDescriptor;
    copy->setObjectName(QStringLiteral("smemCopyDescriptor"));
    copy->setText(tr("Copy"));
    copy->setToolTip(tr("Copy the descriptor, its fields, the CuTe layout and the swizzle rule as text"));
    connect(copy, &QToolButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(descriptorText());
        emit message(tr("Copied the matrix descriptor, its fields and its layout"), 3000);
    });
    dl->addWidget(copy, 0, Qt::AlignTop);
    for (QComboBox* b : {m_operandBox, m_majorBox, m_swizzleBox})
        connect(b, &QComboBox::activated, this, &SharedMemoryPane::applyTools);
    return tools;
}

smem::Choice SharedMemoryPane::choice() const {
    return m_instance ? m_instance->params.smem.value_or(smem::Choice{}) : smem::Choice{};
}

const smem::SharedOperand* SharedMemoryPane::tile() const {
    if (!m_instance)
        return nullptr;
    if (const Placement* p = m_instance->placement(Space::SharedMemory, m_operand))
        return p->shared();
    // The operand chosen is not in shared memory here (A of an RS form): the one that is.
    for (const Placement& p : m_instance->placements)
        if (p.space() == Space::SharedMemory)
            return p.shared();
    return m_parts ? &m_parts->part : nullptr;
}

void SharedMemoryPane::setOperand(Operand operand) {
    if (operand == m_operand)
        return;
    m_operand = operand;
    refresh();
}

void SharedMemoryPane::setShown(Show show) {
    m_show = show;
    refresh();
    view()->fit(DiagramView::FitMode::Readable); // a different picture: fitted afresh
}

void SharedMemoryPane::applyTools() {
    setOperand(static_cast<Operand>(m_operandBox->currentData().toInt()));
    const smem::Choice chosen{static_cast<smem::Major>(m_majorBox->currentData().toInt()),
                              static_cast<smem::Swizzle>(m_swizzleBox->currentData().toInt())};
    if (!m_instance || chosen == choice())
        return;
    Selection next{state().selection().variant, m_instance->params};
    next.params.smem = chosen == smem::Choice{} ? std::nullopt : std::optional(chosen);
    if (const std::string why = next ? validate(next) : std::string("no catalog variant"); !why.empty())
        return refuse(QString::fromStdString(why));
    emit paramsChanged(next.params);
}

const Placement* SharedMemoryPane::placement() const {
    if (!m_instance)
        return nullptr;
    for (const Placement& p : m_instance->placements)
        if (p.space() == Space::SharedMemory)
            return &p;
    return nullptr;
}

void SharedMemoryPane::rebuild() {
    // A tcgen05.mma reads A and B from the shared memory of each CTA of its group: one part per CTA.
    m_parts.reset();
    if (m_instance && !placement()) {
        std::optional<CtaParts> parts = ctaParts(*m_instance, m_operand);
        if (!parts) // A in Tensor Memory: B
            parts = ctaParts(*m_instance, Operand::B);
        if (parts)
            m_parts = std::make_shared<const CtaParts>(std::move(*parts));
    }
    const smem::SharedOperand* shared = tile();
    SharedMemoryDiagramOptions o;
    o.palette = state().palette();
    o.addressGrid = m_show != Show::Memory;
    o.memoryMap = m_show != Show::Addresses;
    if (m_parts) {
        Diagram d;
        d.title = d.spec = m_instance->spec;
        d.palette = o.palette;
        appendCtaSharedMemory(d, *m_instance, m_parts->part.operand, o);
        setPicture(std::make_shared<const Diagram>(std::move(d)));
    } else if (shared) {
        setPicture(std::make_shared<const Diagram>(buildSharedMemoryDiagram(*shared, o)));
    } else if (const Placement* p = placement()) {
        // A placement stated cell by cell (a TMA box), with its global placement's holes drawn as fill.
        const Placement* global = nullptr;
        for (const Placement& g : m_instance->placements)
            if (g.space() == Space::Global && g.rows() == p->rows() && g.cols() == p->cols())
                global = &g;
        setPicture(std::make_shared<const Diagram>(buildSharedMemoryDiagram(*p, global, o)));
    } else {
        return;
    }
    updateTools();
}

void SharedMemoryPane::updateTools() {
    if (!m_instance)
        return;
    const smem::Choice c = choice();
    const smem::SharedOperand* shared = tile();
    auto select = [](QComboBox* box, int value) { box->setCurrentIndex(box->findData(value)); };
    select(m_operandBox, static_cast<int>(shared ? shared->operand : m_operand));
    // Operand and major-ness choose among a wgmma's operand tiles; a placement stated cell by cell has one.
    m_operandBox->setEnabled(shared != nullptr);
    // A tcgen05.mma's parts are K-major with the 128B swizzle (the layout `where` names): no pickers.
    m_majorBox->setEnabled(shared != nullptr && !m_parts);
    m_swizzleBox->setEnabled(!m_parts);
    select(m_majorBox, static_cast<int>(c.major));
    select(m_swizzleBox, static_cast<int>(c.swizzle));
    select(m_showBox, static_cast<int>(m_show));
    auto offer = [](QComboBox* box, int row, bool on, const QString& why) {
        if (auto* model = qobject_cast<QStandardItemModel*>(box->model()))
            if (QStandardItem* item = model->item(row)) {
                item->setEnabled(on);
                item->setToolTip(on ? QString() : why);
            }
    };
    // MN-major exists only for 16-bit types, A only where the form reads it from shared memory: offered
    // only where they apply.
    std::string why;
    const bool mn = !smem::operands(*m_instance, smem::Choice{smem::Major::MN, c.swizzle}, why).empty();
    offer(m_majorBox, 1, mn, QString::fromStdString(why));
    offer(m_operandBox, 1,
          m_instance->placement(Space::SharedMemory, Operand::A) != nullptr ||
              (m_parts && ctaParts(*m_instance, Operand::A)),
          tr("This form reads A from registers"));
    m_copyDescriptor->setVisible(shared != nullptr); // a TMA box has no descriptor to copy
    if (shared) {
        const smem::SmemLayout& l = shared->layout;
        m_note->setText(tr("<b>descriptor</b> %1<br/><b>layout</b> %2")
                            .arg(qs(smem::describe(l.descriptor())).toHtmlEscaped(),
                                 qs(l.canonicalFormula()).toHtmlEscaped()));
    } else if (const Placement* p = placement()) {
        m_note->setText(qs(p->presentation().extentFact).toHtmlEscaped());
    }
}

QString SharedMemoryPane::descriptorText() const {
    const smem::SharedOperand* shared = tile();
    if (!shared)
        return {};
    const smem::SmemLayout& l = shared->layout;
    QStringList lines{tr("%1, operand %2 in shared memory")
                          .arg(m_instance ? qs(m_instance->spec) : QString(), qs(toString(shared->operand))),
                      tr("descriptor: %1").arg(qs(smem::describe(l.descriptor())))};
    for (const smem::DescriptorField& f : smem::descriptorFields(l.encodedDescriptor()))
        if (f.name != "reserved")
            lines << QStringLiteral("  [%1..%2] %3: %4")
                         .arg(f.highBit)
                         .arg(f.lowBit)
                         .arg(qs(f.name), qs(f.meaning));
    lines << tr("layout: %1").arg(qs(l.canonicalFormula())) << tr("swizzle: %1").arg(qs(l.swizzleRule()));
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

CellInfo SharedMemoryPane::describe(int cell) const {
    const Diagram* d = view()->diagram();
    const smem::SharedOperand* shared = tile();
    if (!d || !m_instance)
        return {};
    if (!shared) // a placement stated cell by cell (a TMA box)
        return placement() ? describePlacementCell(*m_instance, *d, cell) : CellInfo{};
    return describeSharedMemoryCell(*m_instance, *shared, *d, cell);
}

QSizeF SharedMemoryPane::splitSize(const QSizeF& aSize) const {
    // It scrolls: the accumulator beside it keeps the larger share.
    const QSizeF s = naturalSize();
    return {std::min(s.width(), 0.6 * aSize.width()), 0.8 * aSize.height()};
}

void SharedMemoryPane::addToExport(Diagram& diagram) const {
    // The operand the pane shows, under the register operands (a tcgen05.mma's: each CTA's part).
    if (m_parts) {
        SharedMemoryDiagramOptions o;
        o.palette = state().palette();
        appendCtaSharedMemory(diagram, *m_instance, m_parts->part.operand, o);
    } else if (const smem::SharedOperand* shared = tile()) {
        SharedMemoryDiagramOptions o;
        o.palette = state().palette();
        appendSharedMemory(diagram, *shared, o);
    }
}

QString SharedMemoryPane::compactHeading() const {
    const smem::SharedOperand* shared = tile();
    return shared && shared->operand == Operand::A ? tr("<b>A in shared memory</b>")
                                                   : tr("<b>B in shared memory</b>");
}

QString SharedMemoryPane::heading() const {
    const smem::SharedOperand* shared = tile();
    if (m_instance && !shared)
        if (const Placement* p = placement(); p && !p->presentation().extentTitle.empty())
            return tr("<b>shared memory</b> &nbsp;%1").arg(qs(p->presentation().extentTitle).toHtmlEscaped());
    if (!m_instance || !shared)
        return label();
    if (m_parts)
        return tr("<b>%1 in shared memory</b> &nbsp;each CTA's part, %2 × %3, in %4 CTA%5; memory: 128-byte "
                  "lines")
            .arg(qs(toString(shared->operand)))
            .arg(shared->rows)
            .arg(shared->cols)
            .arg(m_parts->ctas)
            .arg(m_parts->ctas == 1 ? QString() : QStringLiteral("s"));
    const Instruction& in = *m_instance;
    return shared->operand == Operand::B
               ? tr("<b>B in shared memory</b> &nbsp;rows K = %1, columns N = %2; memory: 128-byte lines")
                     .arg(in.k)
                     .arg(in.n)
               : tr("<b>A in shared memory</b> (SS form) &nbsp;rows M = %1, columns K = %2; memory: "
                    "128-byte lines")
                     .arg(in.m)
                     .arg(in.metadata ? in.k / 2 : in.k);
}

} // namespace lanemap::gui
