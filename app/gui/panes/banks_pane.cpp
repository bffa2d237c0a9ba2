#include "banks_pane.hpp"

#include "diagram_view.hpp"
#include "selections.hpp"
#include "tile_picker.hpp"
#include "view_state.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/matrix_move.hpp"
#include "lanemap/selection.hpp"
#include "lanemap/smem.hpp"
#include "lanemap/spec.hpp"
#include "lanemap/svg.hpp"
#include "lanemap/vocabulary.hpp"
#include "lanemap/write.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace lanemap::gui {

namespace {

QSpinBox* spinBox(int min, int max, int step, QWidget* parent) {
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setSingleStep(step);
    box->setKeyboardTracking(false); // one analysis per committed value, not per keystroke
    return box;
}

QLabel* messageLabel(const char* color, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(QStringLiteral("color: %1").arg(QLatin1String(color)));
    return label;
}

} // namespace

BanksPane::BanksPane(ViewState* state, QWidget* parent) : QWidget(parent), m_state(state) {
    setObjectName(QStringLiteral("banksPane"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    // The placement editor: every field maps onto one banks::Placement member (no text round trip).
    auto* form = new QFormLayout;
    m_major = new QComboBox(this);
    m_major->addItem(tr("row-major"), static_cast<int>(banks::TileMajor::Row));
    m_major->addItem(tr("col-major"), static_cast<int>(banks::TileMajor::Col));
    m_major->setToolTip(tr("Which lines of the tile are contiguous: rows (row-major) or columns"));
    form->addRow(tr("Layout"), m_major);
    m_pitch = spinBox(0, 64 * 1024, 16, this);
    m_pitch->setSpecialValueText(tr("tile line"));
    m_pitch->setSuffix(tr(" B"));
    m_pitch->setToolTip(
        tr("Bytes of one line's data; 'tile line': the tile's own line (columns x element bytes)"));
    form->addRow(tr("Pitch"), m_pitch);
    m_pad = spinBox(0, 4096, 16, this);
    m_pad->setSuffix(tr(" B"));
    m_pad->setToolTip(tr("Bytes of padding after each line"));
    form->addRow(tr("Padding"), m_pad);
    m_mode = new QComboBox(this);
    for (smem::Swizzle s :
         {smem::Swizzle::None, smem::Swizzle::B32, smem::Swizzle::B64, smem::Swizzle::B128}) {
        const std::string_view name = toString(s);
        m_mode->addItem(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())),
                        static_cast<int>(s));
    }
    m_mode->setToolTip(tr("wgmma/TMA swizzle mode: Swizzle<1|2|3,4,3> on byte addresses"));
    form->addRow(tr("Swizzle mode"), m_mode);
    auto* cuteRow = new QHBoxLayout;
    m_cute = new QCheckBox(tr("Swizzle<B,M,S>"), this);
    m_cute->setToolTip(
        tr("CuTe Swizzle<B,M,S> on element offsets: offset ^ ((offset >> S) & (((1 << B) - 1) << M))"));
    m_cuteB = spinBox(0, 7, 1, this);
    m_cuteM = spinBox(0, 7, 1, this);
    m_cuteS = spinBox(0, 10, 1, this);
    m_cuteB->setValue(3);
    m_cuteM->setValue(3);
    m_cuteS->setValue(3);
    cuteRow->addWidget(m_cute);
    for (QSpinBox* b : {m_cuteB, m_cuteM, m_cuteS})
        cuteRow->addWidget(b);
    form->addRow(tr("CuTe swizzle"), cuteRow);
    m_start = spinBox(0, 232448, 16, this);
    m_start->setSuffix(tr(" B"));
    m_start->setToolTip(tr("Byte address of the tile's first element (16-byte aligned)"));
    form->addRow(tr("Start"), m_start);
    auto* feedsRow = new QHBoxLayout;
    m_feeds = new QLineEdit(this);
    m_feeds->setPlaceholderText(tr("mma spec, e.g. mma.m16n8k16.f16"));
    m_feeds->setClearButtonEnabled(true);
    m_feedsOperand = new QComboBox(this);
    for (Operand o : {Operand::A, Operand::B, Operand::C, Operand::D}) {
        const std::string_view name = toString(o);
        m_feedsOperand->addItem(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())),
                                static_cast<int>(o));
    }
    feedsRow->addWidget(m_feeds, 1);
    feedsRow->addWidget(m_feedsOperand);
    form->addRow(tr("Feeds"), feedsRow);
    // The tile of the Feeds consumer: the whole tiled copy (docs/tiles.md#tiled-copy).
    m_tilePicker = new TilePicker(TilePicker::Style::Stacked, this);
    m_tilePicker->setObjectName(QStringLiteral("banksTilePicker"));
    m_tilePicker->atomLayoutEdit()->setObjectName(QStringLiteral("banksTileAtomLayout"));
    m_tilePicker->permutationEdit()->setObjectName(QStringLiteral("banksTilePermutation"));
    m_tilePicker->errorLabel()->setObjectName(QStringLiteral("banksTileError"));
    m_tilePicker->setToolTip(tr("The Feeds consumer's tile: with it the pane draws the whole tiled copy"));
    auto* tileBox = new QVBoxLayout;
    tileBox->setSpacing(2);
    tileBox->addWidget(m_tilePicker);
    tileBox->addWidget(m_tilePicker->errorLabel());
    form->addRow(tr("Tile"), tileBox);
    m_move = new QComboBox(this);
    m_move->setObjectName(QStringLiteral("banksMove"));
    m_move->setToolTip(tr("What moves the operand in the tiled copy: the matrix move shown, or each "
                          "thread's own fragment by plain ld.shared of 4, 8 or 16 bytes (needs a tile)"));
    m_move->addItem(QString(), QString());
    for (const tiled_copy::SharedLoad load : tiled_copy::kSharedLoads) {
        const QString name = QString::fromStdString(tiled_copy::toString(load));
        m_move->addItem(name, name);
    }
    form->addRow(tr("Move"), m_move);
    layout->addLayout(form);

    m_errorLabel = messageLabel("#c62828", this);
    m_summaryLabel = new QLabel(this);
    m_summaryLabel->setWordWrap(true);
    m_summaryLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_feedLabel = new QLabel(this);
    m_feedLabel->setWordWrap(true);
    m_feedLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_errorLabel);
    layout->addWidget(m_summaryLabel);
    layout->addWidget(m_feedLabel);
    m_export = new QPushButton(tr("Export SVG…"), this);
    m_export->setObjectName(QStringLiteral("banksExportSvg"));
    m_export->setToolTip(tr("Save this picture (banks and the feeds overlay) as SVG"));
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Export SVG"), QString(), tr("SVG images (*.svg)"));
        QString error;
        if (!path.isEmpty() && !exportSvg(path, &error))
            QMessageBox::warning(this, tr("Export SVG"), error);
    });
    layout->addWidget(m_export, 0, Qt::AlignLeft);

    m_view = new DiagramView(this);
    m_view->setObjectName(QStringLiteral("banksView"));
    m_view->setChrome(true, false);
    m_view->setViewState(state);
    layout->addWidget(m_view, 1);
    // A hovered chunk lights its supplying lane in every pane (and the register panes light it back here).
    // A chunk or an address also fills the Cell dock: its address, chunk, banks, swizzle and lanes. The
    // keyboard cursor (arrows) does the same as the mouse.
    auto hovered = [this](int cell) {
        const Diagram* d = m_view->diagram();
        if (m_copy) {
            // A tiled copy's cells are the CTA's threads: the status bar names the cell (its tooltip); an
            // ldmatrix row lights the lane that supplies it in the one-instruction register panes.
            const DiagramCell* c = d && cell >= 0 ? &d->cells[static_cast<std::size_t>(cell)] : nullptr;
            m_state->setHoverText(c ? QString::fromStdString(d->tooltip(*c)) : QString());
            m_state->setHoveredLane(c && !m_copy->sharedLoad ? c->thread % 32 : -1);
            if (CellInfo info = describeTiledCopyCell(QString::fromStdString(m_copy->consumer), *d, cell);
                info.valid)
                m_state->setCell(info); // the Cell dock
            return;
        }
        m_state->setHoveredLane(d && cell >= 0 ? d->cells[static_cast<std::size_t>(cell)].thread : -1);
        if (d && cell >= 0 && m_variant && m_analysis)
            if (CellInfo info =
                    describeBanksCell(Catalog::instance().instruction(*m_variant), *m_analysis, *d, cell);
                info.valid)
                m_state->setCell(info);
    };
    connect(m_view, &DiagramView::cellHovered, this, hovered);
    connect(m_view, &DiagramView::cursorMoved, this, [hovered](int cell) {
        if (cell >= 0)
            hovered(cell);
    });

    for (QComboBox* box : {m_major, m_mode, m_feedsOperand, m_move})
        connect(box, &QComboBox::currentIndexChanged, this, &BanksPane::rebuild);
    for (QSpinBox* box : {m_pitch, m_pad, m_cuteB, m_cuteM, m_cuteS, m_start})
        connect(box, &QSpinBox::valueChanged, this, &BanksPane::rebuild);
    connect(m_cute, &QCheckBox::toggled, this, &BanksPane::rebuild);
    connect(m_feeds, &QLineEdit::editingFinished, this, &BanksPane::rebuild);
    connect(m_state, &ViewState::paletteChanged, this, &BanksPane::rebuild);
    connect(m_tilePicker, &TilePicker::tileEntered, this, &BanksPane::setTile);
    m_move->setEnabled(false);
}

bool BanksPane::setFeeds(const QString& feeds, QString* error) {
    const qsizetype colon = feeds.lastIndexOf(QLatin1Char(':'));
    const std::optional<Operand> operand =
        colon < 0 ? std::nullopt : parseOperand(feeds.mid(colon + 1).trimmed().toStdString());
    const int index = operand ? m_feedsOperand->findData(static_cast<int>(*operand)) : -1;
    if (index < 0) {
        if (error)
            *error = tr("--feeds '%1' is not SPEC:OPERAND (e.g. mma.m16n8k16.f16:A; operands A, B, C, D)")
                         .arg(feeds);
        return false;
    }
    const QSignalBlocker blockEdit(m_feeds), blockBox(m_feedsOperand);
    m_feeds->setText(feeds.left(colon).trimmed());
    m_feedsOperand->setCurrentIndex(index);
    rebuild();
    return true;
}

void BanksPane::setTile(const std::optional<tile::TileLayout>& t) {
    m_tile = t;
    m_tilePicker->showTile(t);
    m_move->setEnabled(t.has_value());
    rebuild();
}

bool BanksPane::appliesTo(const Variant* variant) {
    return variant && banks::applies(*variant);
}

void BanksPane::setVariant(const Variant* variant) {
    m_variant = variant;
    m_move->setItemText(0, variant ? QString::fromStdString(variant->spec) : QString());
    rebuild();
}

banks::Placement BanksPane::placement() const {
    banks::Placement p;
    p.major = static_cast<banks::TileMajor>(m_major->currentData().toInt());
    p.pitchBytes = m_pitch->value();
    p.padBytes = m_pad->value();
    p.mode = static_cast<smem::Swizzle>(m_mode->currentData().toInt());
    if (m_cute->isChecked())
        p.cute = banks::CuteSwizzle{m_cuteB->value(), m_cuteM->value(), m_cuteS->value()};
    p.start = static_cast<std::uint32_t>(m_start->value());
    return p;
}

void BanksPane::rebuild() {
    m_analysis.reset();
    m_copy.reset();
    m_error.clear();
    m_feedVerdict.clear();
    for (QSpinBox* b : {m_cuteB, m_cuteM, m_cuteS})
        b->setEnabled(m_cute->isChecked());
    if (!applies()) {
        m_view->setDiagram(nullptr);
        m_errorLabel->clear();
        m_summaryLabel->clear();
        m_feedLabel->clear();
        emit analysisChanged();
        return;
    }
    const QString feeds = m_feeds->text().trimmed();
    if (m_tile && !feeds.isEmpty()) {
        rebuildTiledCopy();
        return;
    }
    banks::Placement p = placement();
    std::string error;
    std::optional<banks::FeedCheck> feed; // drawn over the memory when it could be checked
    // Feeds: the consumer's operand is also the default tile (what `lanemap-cli banks --feeds` does).
    if (m_tile) {
        m_feedVerdict = tr("A tiled copy moves an operand of the tiled MMA: give Feeds, its spec and operand "
                           "(e.g. mma.m16n8k16.f16 and A)");
    } else if (!feeds.isEmpty()) {
        const ParsedSpec consumer = parseSpec(feeds.toStdString(), Catalog::instance());
        const auto operand = static_cast<Operand>(m_feedsOperand->currentData().toInt());
        if (!consumer) {
            m_feedVerdict = tr("Feeds: %1").arg(QString::fromStdString(consumer.error));
        } else {
            const Instruction& in = Catalog::instance().instruction(*consumer.variant);
            if (const FragmentLayout* fed = in.operand(operand)) {
                p.tileRows = fed->rows();
                p.tileCols = fed->cols();
            }
            std::string feedError;
            feed = banks::checkFeed(*m_variant, in, operand, placement(), feedError);
            const std::optional<banks::FeedCheck>& check = feed;
            if (!check)
                m_feedVerdict = tr("Feeds: %1").arg(QString::fromStdString(feedError));
            else if (check->mismatches == 0)
                m_feedVerdict = tr("Feeds %1: every register slot holds what the operand wants")
                                    .arg(QString::fromStdString(check->consumer));
            else
                m_feedVerdict = tr("Feeds %1: MISMATCH in %2 of %3 register slots")
                                    .arg(QString::fromStdString(check->consumer))
                                    .arg(check->mismatches)
                                    .arg(check->cells.size());
        }
    }
    // The editor can set both swizzles at once; `--smem` text cannot (parsePlacement refuses it), so the
    // analysis never sees that combination: refuse it here in the same words.
    if (p.cute && p.mode != smem::Swizzle::None)
        m_error = tr("Placement: choose a swizzle mode or a CuTe Swizzle<B,M,S>, not both");
    else if (m_analysis = banks::analyze(*m_variant, p, error); !m_analysis)
        m_error = QString::fromStdString(error);
    m_errorLabel->setText(m_error);
    m_errorLabel->setVisible(!m_error.isEmpty());
    m_summaryLabel->setText(summary());
    m_feedLabel->setText(m_feedVerdict);
    m_feedLabel->setVisible(!m_feedVerdict.isEmpty());
    m_feedLabel->setStyleSheet(
        m_feedVerdict.contains(QLatin1String("MISMATCH")) ||
                (!m_feedVerdict.isEmpty() && !m_feedVerdict.contains(QLatin1String("every")))
            ? QStringLiteral("color: #c62828")
            : QString());
    if (m_analysis && feed)
        m_view->setDiagram(std::make_shared<const Diagram>(
            buildBanksDiagram(*m_variant, *m_analysis, *feed, m_state->palette())));
    else if (m_analysis)
        m_view->setDiagram(
            std::make_shared<const Diagram>(buildBanksDiagram(*m_variant, *m_analysis, m_state->palette())));
    else
        m_view->setDiagram(nullptr);
    m_export->setEnabled(m_view->diagram() != nullptr);
    emit analysisChanged();
}

void BanksPane::rebuildTiledCopy() {
    const QString feeds = m_feeds->text().trimmed();
    const auto operand = static_cast<Operand>(m_feedsOperand->currentData().toInt());
    std::string error;
    if (const ParsedSpec consumer = parseSpec(feeds.toStdString(), Catalog::instance()); !consumer) {
        m_error = tr("Feeds: %1").arg(QString::fromStdString(consumer.error));
    } else {
        Selection selection = selectionOf(consumer);
        selection.params.tile = m_tile;
        if (const std::string why = validate(selection); !why.empty()) {
            m_error = QString::fromStdString(why);
        } else {
            const std::shared_ptr<const Instruction> tiled = instantiate(selection);
            const QString move = m_move->currentData().toString();
            if (move.isEmpty()) {
                m_copy = tiled_copy::analyze(*m_variant, *tiled, operand, placement(), error);
            } else if (const std::optional<tiled_copy::SharedLoad> load =
                           tiled_copy::parseSharedLoad(move.toStdString(), error)) {
                m_copy = tiled_copy::analyze(*load, *tiled, operand, placement(), error);
            }
            if (!m_copy)
                m_error = QString::fromStdString(error);
        }
    }
    if (m_copy) {
        const tiled_copy::Result& r = *m_copy;
        const QString consumer = QString::fromStdString(r.consumer);
        if (r.mismatches == 0)
            m_feedVerdict =
                r.store
                    ? tr("Drains %1: every register slot is stored where its element belongs").arg(consumer)
                    : tr("Feeds %1: every register slot of every thread holds what the tiled "
                         "MMA wants there")
                          .arg(consumer);
        else
            m_feedVerdict = tr("Feeds %1: MISMATCH in %2 register slots").arg(consumer).arg(r.mismatches);
    }
    m_errorLabel->setText(m_error);
    m_errorLabel->setVisible(!m_error.isEmpty());
    m_summaryLabel->setText(summary());
    m_feedLabel->setText(m_feedVerdict);
    m_feedLabel->setVisible(!m_feedVerdict.isEmpty());
    m_feedLabel->setStyleSheet(m_copy && m_copy->mismatches ? QStringLiteral("color: #c62828") : QString());
    m_view->setDiagram(
        m_copy ? std::make_shared<const Diagram>(buildTiledCopyDiagram(*m_copy, m_state->palette()))
               : nullptr);
    m_export->setEnabled(m_view->diagram() != nullptr);
    emit analysisChanged();
}

bool BanksPane::exportSvg(const QString& path, QString* error) const {
    const Diagram* d = m_view->diagram();
    if (!d) {
        if (error)
            *error =
                m_error.isEmpty() ? tr("no shared-memory picture: open an ldmatrix or stmatrix") : m_error;
        return false;
    }
    const std::string failure = writeFile(path.toStdString(), toSvg(*d));
    if (!failure.empty()) {
        if (error)
            *error = QString::fromStdString(failure);
        return false;
    }
    return true;
}

QString BanksPane::error() const {
    return m_error;
}

QString BanksPane::feedVerdict() const {
    return m_feedVerdict;
}

int BanksPane::worstDegree() const {
    if (m_copy)
        return m_copy->worstDegree();
    int worst = 0;
    if (m_analysis)
        for (const banks::Phase& ph : m_analysis->phases)
            worst = std::max(worst, ph.degree);
    return worst;
}

QString BanksPane::summary() const {
    if (m_copy) {
        const int worst = m_copy->worstDegree();
        return tr("%1: L1 Wavefronts Shared %2, Ideal %3, L1 Wavefronts Shared Excessive %4 — %5 "
                  "instructions (%6 per warp, %7 warps)")
            .arg(worst > 1 ? tr("%1-way bank conflict").arg(worst) : tr("conflict-free"))
            .arg(m_copy->wavefronts)
            .arg(m_copy->idealWavefronts)
            .arg(m_copy->excessive())
            .arg(m_copy->copies.size())
            .arg(m_copy->perWarp)
            .arg(m_copy->warps);
    }
    if (!m_analysis)
        return {};
    const int worst = worstDegree();
    const QString verdict = worst > 1 ? tr("%1-way bank conflict").arg(worst) : tr("conflict-free");
    return tr("%1: L1 Wavefronts Shared %2, Ideal %3, L1 Wavefronts Shared Excessive %4")
        .arg(verdict)
        .arg(m_analysis->wavefronts)
        .arg(m_analysis->idealWavefronts)
        .arg(m_analysis->excessive());
}

} // namespace lanemap::gui
