#include "tile_picker.hpp"

#include "selections.hpp"

#include <QAction>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>

namespace lanemap::gui {

TilePicker::TilePicker(Style style, QWidget* parent) : QWidget(parent) {
    const bool compact = style == Style::Compact;
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(2);
    // Compact (beside the spec): one label, the fields named by their placeholders; stacked: a row each.
    auto* atomsLabel = new QLabel(compact ? tr("&Tile") : tr("&Atom layout"), this);
    m_atoms = new QLineEdit(this);
    m_atoms->setObjectName(QStringLiteral("tileAtomLayout"));
    m_atoms->setPlaceholderText(compact ? tr("atom layout") : tr("(2,2,1)"));
    m_atoms->setClearButtonEnabled(true);
    m_atoms->setToolTip(tr("CuTe's AtomLayoutMNK: the atoms along M, N and K, optionally with strides — "
                           "(2,2,1), (2,2,1):(2,1,0). Enter tiles the atom; clear both fields for the atom"));
    atomsLabel->setBuddy(m_atoms);
    auto* permLabel = compact ? nullptr : new QLabel(tr("&Permutation"), this);
    m_permutation = new QLineEdit(this);
    m_permutation->setObjectName(QStringLiteral("tilePermutation"));
    m_permutation->setPlaceholderText(compact ? tr("permutation") : tr("_32,(_8,_2,_2):(_1,_16,_8),_16"));
    m_permutation->setClearButtonEnabled(true);
    m_permutation->setToolTip(tr("CuTe's Tile<...> (PermutationMNK): up to three modes, each a CuTe layout "
                                 "or _ for none — _64,_128,_32 or _32,(_8,_2,_2):(_1,_16,_8),_16"));
    if (permLabel)
        permLabel->setBuddy(m_permutation);
    // Wide enough for the usual values where there is room; they shrink rather than widen the window.
    const QFontMetrics fm = m_atoms->fontMetrics();
    m_atoms->setMinimumWidth(fm.horizontalAdvance(compact ? tr("atom layout") : QStringLiteral("(2,2,1)")) +
                             fm.horizontalAdvance(QStringLiteral("MM")));
    m_atoms->setMaximumWidth(fm.horizontalAdvance(QStringLiteral("(2,2,1):(2,1,0)MMM")));
    m_permutation->setMinimumWidth(
        fm.horizontalAdvance(compact ? tr("permutation") : QStringLiteral("_32,_32,_16")) +
        fm.horizontalAdvance(QStringLiteral("MM")));
    m_permutation->setMaximumWidth(fm.horizontalAdvance(QStringLiteral("_32,(_8,_2,_2):(_1,_16,_8),_16MMM")));
    grid->addWidget(atomsLabel, 0, 0);
    grid->addWidget(m_atoms, 0, 1);
    if (compact) {
        grid->addWidget(m_permutation, 0, 2);
        grid->setColumnStretch(1, 1);
        grid->setColumnStretch(2, 2);
    } else {
        grid->addWidget(permLabel, 1, 0);
        grid->addWidget(m_permutation, 1, 1);
        grid->setColumnStretch(1, 1);
        grid->setColumnStretch(2, 1); // the fields stay beside their labels in a wide pane
    }
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("tileError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #c62828"));
    m_error->hide();
    for (QLineEdit* edit : {m_atoms, m_permutation}) {
        connect(edit, &QLineEdit::returnPressed, this, &TilePicker::enter);
        // The clear buttons apply at once (typing applies on Enter): the atom layout's returns to the atom,
        // the permutation's drops the permutation. Queued: the button clears the text after its action.
        if (auto* clear = edit->findChild<QAction*>(QStringLiteral("_q_qlineeditclearaction")))
            connect(
                clear, &QAction::triggered, this,
                [this, edit] {
                    if (edit == m_atoms)
                        m_permutation->clear();
                    enter();
                },
                Qt::QueuedConnection);
    }
}

void TilePicker::enter() {
    QString error;
    const std::optional<tile::TileLayout> t = readTile(m_atoms->text(), m_permutation->text(), &error);
    setError(error);
    if (error.isEmpty())
        emit tileEntered(t);
}

void TilePicker::showTile(const std::optional<tile::TileLayout>& t) {
    // Not signal-blocked: the line edit shows its clear button from its own textChanged.
    m_atoms->setText(t ? QString::fromStdString(t->atomLayoutText()) : QString());
    m_permutation->setText(t ? QString::fromStdString(t->permutationText()) : QString());
    // A long permutation in a narrow field reads from its start.
    m_atoms->setCursorPosition(0);
    m_permutation->setCursorPosition(0);
    setError({});
}

void TilePicker::setError(const QString& error) {
    m_error->setText(error);
    m_error->setVisible(!error.isEmpty());
}

QString TilePicker::error() const {
    return m_error->text();
}

void TilePicker::setRefusal(const QString& why) {
    setEnabled(why.isEmpty());
    const QString tip = why.isEmpty() ? QString() : tr("No tile: %1").arg(why);
    // A disabled field still shows its tooltip: each says why, the labels too.
    for (QWidget* w : findChildren<QWidget*>()) {
        if (!w->property("helpTip").isValid())
            w->setProperty("helpTip", w->toolTip());
        w->setToolTip(why.isEmpty() ? w->property("helpTip").toString() : tip);
    }
    setToolTip(tip);
}

} // namespace lanemap::gui
