#include "instruction_header.hpp"

#include "cell_info.hpp"
#include "gui_text.hpp"
#include "legend_bar.hpp"
#include "selections.hpp"
#include "tile_picker.hpp"
#include "view_state.hpp"
#include "wmma_targets.hpp"

#include "lanemap/evidence.hpp"
#include "lanemap/model.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/tile_ctas.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace lanemap::gui {

namespace {
QLabel* makeLabel(const QString& objectName, QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    return l;
}
} // namespace

InstructionHeader::InstructionHeader(ViewState* state, QWidget* parent) : QWidget(parent), m_state(state) {
    auto* vl = new QVBoxLayout(this);
    vl->setContentsMargins(0, 0, 0, 0);
    vl->setSpacing(2);
    m_title = makeLabel(QStringLiteral("title"), this);
    QFont tf = m_title->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.45);
    tf.setBold(true);
    m_title->setFont(tf);
    m_ptx = makeLabel(QStringLiteral("ptx"), this);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setStyleHint(QFont::Monospace);
    mono.setPointSizeF(m_ptx->font().pointSizeF());
    m_ptx->setFont(mono);
    // Beside a long spec (a block-scaled tcgen05.mma) the PTX string wraps, then clips: it never makes the
    // window wider than a laptop's screen.
    m_ptx->setWordWrap(true);
    m_ptx->setMinimumWidth(1);
    m_ptx->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_facts = makeLabel(QStringLiteral("facts"), this);
    m_facts->setOpenExternalLinks(true);
    m_notes = makeLabel(QStringLiteral("notes"), this);
    m_notes->setWordWrap(true);
    m_notes->setOpenExternalLinks(true);
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(m_title);
    // N, for every family whose N varies: a wgmma's sibling rows and a tcgen05.mma entry's parameter alike.
    m_nLabel = new QLabel(tr("&N"), this);
    m_n = new QComboBox(this);
    m_n->setObjectName(QStringLiteral("instructionN"));
    m_n->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_n->setToolTip(tr("N of the instruction: how many columns B and D have (wgmma: one instruction per N; "
                       "tcgen05.mma: a field of the instruction descriptor)"));
    m_nLabel->setBuddy(m_n);
    titleRow->addSpacing(12);
    titleRow->addWidget(m_nLabel);
    titleRow->addWidget(m_n);
    connect(m_n, &QComboBox::activated, this, [this](int index) {
        if (const int n = m_n->itemData(index).toInt(); n != nOf(m_state->selection()))
            emit nChosen(n);
    });
    // The tile: an atom layout and a permutation turn the atom into the CTA's tile (docs/tiles.md).
    m_tile = new TilePicker(TilePicker::Style::Compact, this);
    // No taller than the title: the panes keep their height.
    m_tile->setMaximumHeight(m_title->sizeHint().height());
    m_tile->setObjectName(QStringLiteral("tilePicker"));
    titleRow->addSpacing(12);
    titleRow->addWidget(m_tile, 0);
    connect(m_tile, &TilePicker::tileEntered, this, &InstructionHeader::tileChosen);
    titleRow->addSpacing(12);
    titleRow->addWidget(m_ptx, 1);
    vl->addLayout(titleRow);
    vl->addWidget(m_tile->errorLabel());
    // Notes and errata fold into one button on the facts line: provenance is never above the grids unless
    // asked for (a sparse variant has six to nine lines of it).
    m_notesToggle = new QToolButton(this);
    m_notesToggle->setObjectName(QStringLiteral("notesToggle"));
    m_notesToggle->setCheckable(true);
    m_notesToggle->setAutoRaise(true);
    m_notesToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_notesToggle->setArrowType(Qt::RightArrow);
    connect(m_notesToggle, &QToolButton::toggled, this, [this](bool on) {
        m_notesToggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
        m_notes->setVisible(on && !m_notes->text().isEmpty());
    });
    auto* factsRow = new QHBoxLayout;
    factsRow->addWidget(m_facts);
    factsRow->addSpacing(12);
    factsRow->addWidget(m_notesToggle);
    // wmma: which SASS target's discovered layout is shown, when reports for several exist.
    m_target = new WmmaTargetPicker(this);
    factsRow->addWidget(m_target);
    factsRow->addStretch(1);
    vl->addLayout(factsRow);
    vl->addWidget(m_notes);
    m_legend = new LegendBar(this);
    m_legend->setObjectName(QStringLiteral("legend"));
    vl->addWidget(m_legend);
    m_verdict = makeLabel(QStringLiteral("verdictLegend"), this);
    m_verdict->setWordWrap(true);
    m_verdict->hide();
    vl->addWidget(m_verdict);
    connect(m_legend, &LegendBar::laneHovered, state, &ViewState::setHoveredLane);
    connect(m_legend, &LegendBar::laneClicked, this,
            [this](int lane) { m_state->setPinnedLane(lane == m_state->pinnedLane() ? -1 : lane); });
    connect(state, &ViewState::themeChanged, this,
            [this](Theme theme) { m_legend->setColors(viewColors(theme)); });
    connect(state, &ViewState::instanceChanged, this,
            [this](const std::shared_ptr<const Instruction>& instance) { showFacts(*instance); });
}

void InstructionHeader::setVerdictLine(const QString& text) {
    m_verdict->setText(text);
    m_verdict->setVisible(!text.isEmpty());
}

void InstructionHeader::showFacts(const Instruction& in) {
    m_title->setText(specText(in)); // a tcgen05.mma entry stands for every N: the title names the one drawn
    m_ptx->setText(QString::fromStdString(in.ptx));
    // A tile of tcgen05.mma atoms is held by the CTAs of a cluster (lanemap/tile_ctas.hpp), not by threads.
    const bool ctas = tile::overCtas(in);
    m_facts->setText(tr("%1 (%2) · %3 · min <b>sm_%4</b> · PTX ISA 9.1 <a href='%5'>§%6</a>")
                         .arg(ctas              ? tr("%1 CTAs").arg(in.tile->threads)
                              : in.threads == 1 ? tr("1 thread")
                                                : tr("%1 threads").arg(in.threads))
                         .arg(ctas ? tr("cluster") : qs(toString(in.scope)))
                         .arg(QString::fromStdString(shapeName(in)))
                         .arg(in.minSm)
                         .arg(manualUrl(qs(in.anchor)), qs(in.section)));
    QStringList notes;
    if (in.tile) // what the tile is made of, in CuTe's words (docs/tiles.md)
        notes << tr("<b>tile</b>: atom layout %1%2; %3")
                     .arg(QString::fromStdString(in.tile->atomLayout).toHtmlEscaped(),
                          in.tile->permutation.empty()
                              ? QString()
                              : tr(", permutation %1")
                                    .arg(QString::fromStdString(in.tile->permutation).toHtmlEscaped()),
                          QString::fromStdString(tile::factLine(*in.tile)).toHtmlEscaped());
    for (const std::string& n : in.notes)
        notes << QString::fromStdString(n).toHtmlEscaped();
    for (const Erratum& e : in.errata)
        notes << QStringLiteral(
                     "<span style='color:#c0392b'><b>erratum %1</b> (%2)</span>: %3 — <i>lanemap: %4</i>")
                     .arg(qs(e.id), qs(toString(statusOf(in, e))), qs(e.summary).toHtmlEscaped(),
                          qs(e.lanemap).toHtmlEscaped());
    if (in.metadata)
        for (const std::string& n : in.metadata->notes)
            notes << tr("metadata: %1").arg(QString::fromStdString(n).toHtmlEscaped());
    m_notes->setText(notes.join(QStringLiteral("<br/>")));
    m_notes->setVisible(m_notesToggle->isChecked() && !notes.isEmpty());
    QString summary = tr("%n note(s)", nullptr, static_cast<int>(notes.size() - in.errata.size()));
    for (const Erratum& e : in.errata)
        summary += tr(" · erratum %1 (%2)").arg(qs(e.id), qs(toString(statusOf(in, e))));
    m_notesToggle->setText(summary);
    m_notesToggle->setToolTip(tr("Where this layout comes from: notes, errata and metadata evidence"));
    m_notesToggle->setVisible(!notes.isEmpty());
    m_target->setInstruction(&in);
    showN();
    m_tile->showTile(m_state->selection().params.tile);
    m_tile->setRefusal(whyNoTile(m_state->selection()));
}

void InstructionHeader::showN() {
    const Selection& selection = m_state->selection();
    const std::vector<int> ns = nValues(selection);
    const QSignalBlocker blocker(m_n);
    m_n->clear();
    for (const int n : ns)
        m_n->addItem(QString::number(n), n);
    m_n->setCurrentIndex(m_n->findData(nOf(selection)));
    m_nLabel->setVisible(!ns.empty());
    m_n->setVisible(!ns.empty());
}

} // namespace lanemap::gui
