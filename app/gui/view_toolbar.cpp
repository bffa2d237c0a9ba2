#include "view_toolbar.hpp"

#include "gui_text.hpp"
#include "selections.hpp"
#include "view_state.hpp"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>

#include <tuple>

namespace lanemap::gui {

ViewToolBar::ViewToolBar(ViewState* state, const Zoom& zoom, QWidget* parent)
    : QToolBar(tr("View"), parent), m_state(state) {
    setObjectName(QStringLiteral("viewToolbar"));
    setMovable(false);
    addWidget(new QLabel(tr(" Color by "), this));
    m_colorBox = new QComboBox(this);
    m_colorBox->setObjectName(QStringLiteral("colorBy"));
    for (ColorBy c : {ColorBy::Lane, ColorBy::Register, ColorBy::ThreadGroup, ColorBy::Warp,
                      ColorBy::Warpgroup, ColorBy::Thread})
        m_colorBox->addItem(qs(toString(c)), static_cast<int>(c));
    connect(m_colorBox, &QComboBox::activated, this,
            [this](int i) { m_state->setColorBy(static_cast<ColorBy>(m_colorBox->itemData(i).toInt())); });
    addWidget(m_colorBox);
    addSeparator();
    m_laneLabel = new QLabel(tr(" Lanes "), this);
    m_laneLabel->setObjectName(QStringLiteral("laneFilterLabel"));
    addWidget(m_laneLabel);
    m_laneEdit = new QLineEdit(this);
    m_laneEdit->setObjectName(QStringLiteral("laneFilter"));
    m_laneEdit->setPlaceholderText(tr("all, or e.g. 0-3,13"));
    m_laneEdit->setClearButtonEnabled(true);
    m_laneEdit->setMaximumWidth(150);
    connect(m_laneEdit, &QLineEdit::editingFinished, this,
            [this] { emit laneFilterEdited(m_laneEdit->text()); });
    addWidget(m_laneEdit);
    addSeparator();
    auto* selectorLabel = new QLabel(tr(" Selector "), this);
    m_selectorBox = new QComboBox(this);
    m_selectorBox->setObjectName(QStringLiteral("selector"));
    m_selectorBox->setToolTip(tr("Sparsity selector: which threads hold the metadata"));
    connect(m_selectorBox, &QComboBox::activated, this,
            [this](int i) { m_state->setSelector(m_selectorBox->itemData(i).toInt()); });
    addWidget(selectorLabel);
    addWidget(m_selectorBox);
    addSeparator();
    // Short words on the buttons; the menu's words and shortcuts in their tooltips.
    for (const auto& [text, tip, action] :
         {std::tuple{tr("+"), tr("Zoom in (Ctrl++, or Ctrl+wheel over a pane)"), zoom.in},
          std::tuple{tr("−"), tr("Zoom out (Ctrl+-)"), zoom.out},
          std::tuple{tr("Fit"), tr("Fit readable, every pane (Ctrl+0)"), zoom.fit},
          std::tuple{tr("Fit all"), tr("Whole diagram in every pane (Ctrl+9)"), zoom.whole}})
        addAction(text, action, &QAction::trigger)->setToolTip(tip);
    addSeparator();
    addWidget(new QLabel(tr(" Compare with "), this));
    m_compareEdit = new QLineEdit(this);
    m_compareEdit->setObjectName(QStringLiteral("compare"));
    m_compareEdit->setPlaceholderText(tr("spec, e.g. mma.m16n8k8.f16"));
    m_compareEdit->setClearButtonEnabled(true);
    m_compareEdit->setMaximumWidth(220);
    connect(m_compareEdit, &QLineEdit::editingFinished, this,
            [this] { emit compareEdited(m_compareEdit->text()); });
    // The clear button (×) ends compare at once, as Enter on an empty box does.
    connect(m_compareEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        if (text.isEmpty() && m_state->compareInstance())
            emit compareEdited(QString());
    });
    addWidget(m_compareEdit);
    m_compareOperandBox = new QComboBox(this);
    m_compareOperandBox->setObjectName(QStringLiteral("compareOperand"));
    for (const Operand o : {Operand::A, Operand::B, Operand::C, Operand::D})
        m_compareOperandBox->addItem(qs(toString(o)), static_cast<int>(o));
    connect(m_compareOperandBox, &QComboBox::activated, this, [this](int i) {
        m_state->setCompareOperand(static_cast<Operand>(m_compareOperandBox->itemData(i).toInt()));
    });
    addWidget(m_compareOperandBox);
    addSeparator();

    // The controls follow the state, whoever changed it.
    connect(state, &ViewState::colorByChanged, this, [this](ColorBy colorBy) {
        m_colorBox->setCurrentIndex(m_colorBox->findData(static_cast<int>(colorBy)));
    });
    connect(state, &ViewState::lanesChanged, this, [this] {
        if (m_laneEdit->text() != m_state->lanesText())
            m_laneEdit->setText(m_state->lanesText());
    });
    connect(state, &ViewState::selectorChanged, this, &ViewToolBar::updateSelectorBox);
    connect(state, &ViewState::instanceChanged, this, &ViewToolBar::followInstance);
    connect(state, &ViewState::compareChanged, this, [this] {
        const QString partner =
            m_state->compareInstance() ? specText(*m_state->compareInstance()) : QString();
        if (m_compareEdit->text() != partner)
            m_compareEdit->setText(partner);
    });
    connect(state, &ViewState::compareOperandChanged, this, [this](Operand operand) {
        m_compareOperandBox->setCurrentIndex(m_compareOperandBox->findData(static_cast<int>(operand)));
    });
}

void ViewToolBar::setLaneError(const QString& why) {
    if (why.isEmpty()) {
        m_laneEdit->setStyleSheet(QString());
        m_laneEdit->setToolTip(tr("Lanes drawn in color; the others are grey. E.g. 0-3,13"));
        return;
    }
    m_laneEdit->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #d23c3c; }"));
    m_laneEdit->setToolTip(why);
}

void ViewToolBar::followInstance() {
    updateSelectorBox();
    const Instruction& in = *m_state->instance();
    // The filter takes what the labels show: lanes of a warp, or a warpgroup's threads 0..127 (the legend's
    // colours are lanes = thread % 32 in both).
    if (in.scope != Scope::Warp) { // a warpgroup, or a tile's CTA
        m_laneLabel->setText(tr(" Threads "));
        m_laneEdit->setPlaceholderText(tr("all, or e.g. 0-31,64 (0..%1)").arg(in.threads - 1));
        m_laneEdit->setToolTip(tr("Warpgroup threads 0..%1 as the cell labels show them (T77 = warp 2, lane "
                                  "13); colours are lanes, thread % 32")
                                   .arg(in.threads - 1));
    } else {
        m_laneLabel->setText(tr(" Lanes "));
        m_laneEdit->setPlaceholderText(tr("all, or e.g. 0-3,13"));
        m_laneEdit->setToolTip(tr("Lanes 0..31 (%laneid) drawn in colour; the others are greyed"));
    }
}

void ViewToolBar::updateSelectorBox() {
    const QSignalBlocker block(m_selectorBox);
    m_selectorBox->clear();
    const Instruction* in = m_state->instance().get();
    const bool sparse = in && in->metadata;
    if (sparse)
        for (const MetadataSelector& s : in->metadata->selectors) {
            m_selectorBox->addItem(QString::number(s.value), s.value);
            if (s.value == m_state->selector())
                m_selectorBox->setCurrentIndex(m_selectorBox->count() - 1);
        }
    m_selectorBox->setEnabled(sparse && m_selectorBox->count() > 1);
    m_selectorBox->setToolTip(sparse ? tr("Sparsity selector: which threads of each group hold the metadata")
                                     : tr("Dense instruction: no sparsity selector"));
}

} // namespace lanemap::gui
