#include "paste_layout_pane.hpp"

#include "diagram_view.hpp"
#include "view_state.hpp"

#include "lanemap/diagram.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

namespace lanemap::gui {

PasteLayoutPane::PasteLayoutPane(ViewState* state, QWidget* parent) : QWidget(parent), m_state(state) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("pasteLayoutText"));
    m_text->setAccessibleName(tr("Layout text"));
    m_text->setPlaceholderText(
        tr("Paste a layout: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128)), "
           "Layout<Shape<...>, Stride<...>>, Sw<3,4,3> o smem_ptr[16b](unset) o "
           "(_8,_64):(_64,_1), #ttg.linear<{...}>, or an IR dump's #mma = ... line then "
           "#ttg.dot_op<{...}>"));
    m_text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_text->setMaximumHeight(76); // a few lines: the picture gets the height
    layout->addWidget(m_text);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Shape"), this));
    m_shape = new QLineEdit(this);
    m_shape->setObjectName(QStringLiteral("pasteLayoutShape"));
    m_shape->setAccessibleName(tr("Layout shape"));
    m_shape->setPlaceholderText(tr("16x16 (CuTe: A MxK, B NxK, C MxN; Triton: [dim0, dim1])"));
    m_shape->setToolTip(tr("The tensor the layout maps into, in the notation's own convention. Empty: the "
                           "layout's own (a Triton layout's bases, a swizzled layout's modes)"));
    row->addWidget(m_shape, 1);
    auto* drawButton = new QPushButton(tr("&Draw"), this);
    drawButton->setObjectName(QStringLiteral("pasteLayoutDraw"));
    drawButton->setToolTip(tr("Read the layout and draw it (Ctrl+Return)"));
    row->addWidget(drawButton);
    layout->addLayout(row);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("pasteLayoutStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_view = new DiagramView(this);
    m_view->setObjectName(QStringLiteral("pasteLayoutView"));
    m_view->setAccessibleName(tr("pasted layout"));
    m_view->setViewState(state);
    layout->addWidget(m_view, 1);
    auto* compareRow = new QHBoxLayout;
    m_compare = new QPushButton(tr("&Compare with"), this);
    m_compare->setObjectName(QStringLiteral("pasteLayoutCompare"));
    m_compare->setToolTip(tr("Compare the layout with this operand of the instruction shown, cell by cell"));
    compareRow->addWidget(m_compare);
    m_operand = new QComboBox(this);
    m_operand->setObjectName(QStringLiteral("pasteLayoutOperand"));
    m_operand->setAccessibleName(tr("Operand to compare with"));
    compareRow->addWidget(m_operand, 1);
    layout->addLayout(compareRow);
    m_verdict = new QLabel(this);
    m_verdict->setObjectName(QStringLiteral("pasteLayoutVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_verdict);

    connect(drawButton, &QPushButton::clicked, this, &PasteLayoutPane::draw);
    connect(m_shape, &QLineEdit::returnPressed, this, &PasteLayoutPane::draw);
    auto* shortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), m_text);
    shortcut->setContext(Qt::WidgetShortcut);
    connect(shortcut, &QShortcut::activated, this, &PasteLayoutPane::draw);
    connect(m_compare, &QPushButton::clicked, this, &PasteLayoutPane::compare);
    connect(state, &ViewState::instanceChanged, this, &PasteLayoutPane::followInstance);
    followInstance();
}

void PasteLayoutPane::setText(const QString& text, const QString& shape) {
    m_text->setPlainText(text);
    m_shape->setText(shape);
}

void PasteLayoutPane::draw() {
    m_pasted = readPasted(m_text->toPlainText(), m_shape->text());
    m_comparison = {};
    m_verdict->clear();
    QList<QTextEdit::ExtraSelection> marks;
    if (!m_pasted.ok) {
        m_status->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_status->setText(m_pasted.error);
        m_view->setDiagram(nullptr);
        if (m_pasted.errorOffset >= 0) {
            // The character read when it stopped, underlined, and the cursor put there.
            QTextCursor at(m_text->document());
            // The reader counts bytes of UTF-8; the editor, characters.
            const QString text = m_text->toPlainText();
            at.setPosition(
                static_cast<int>(QString::fromUtf8(text.toUtf8().left(m_pasted.errorOffset)).size()));
            at.movePosition(QTextCursor::NextCharacter, QTextCursor::KeepAnchor);
            QTextEdit::ExtraSelection mark;
            mark.cursor = at;
            mark.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
            mark.format.setUnderlineColor(QColor(0xc6, 0x28, 0x28));
            mark.format.setBackground(QColor(0xff, 0xcd, 0xd2));
            marks.push_back(mark);
            QTextCursor cursor(m_text->document());
            cursor.setPosition(at.anchor());
            m_text->setTextCursor(cursor);
        }
        m_text->setExtraSelections(marks);
        followInstance();
        return;
    }
    m_text->setExtraSelections(marks);
    m_status->setStyleSheet(QString());
    m_status->setText(QString(m_pasted.summary).toHtmlEscaped().prepend(QStringLiteral("<span>")) +
                      QStringLiteral("</span>"));
    if (m_pasted.shared) {
        SharedMemoryDiagramOptions o;
        o.palette = m_state->palette();
        m_view->setDiagram(std::make_shared<const Diagram>(
            buildSharedMemoryDiagram(m_pasted.drawn->placements.front(), nullptr, o)));
    } else
        m_view->setDiagram(std::make_shared<const Diagram>(buildDiagram(*m_pasted.drawn)));
    // The whole layout at once, once the dock has laid the view out.
    // (A swizzled layout's rows of 64 chunks read at the readable fit, scrolled.)
    QTimer::singleShot(0, m_view, [view = m_view, shared = m_pasted.shared] {
        view->fit(shared ? DiagramView::FitMode::Readable : DiagramView::FitMode::All);
    });
    followInstance();
}

void PasteLayoutPane::followInstance() {
    const QVariant previous = m_operand->currentData();
    m_operand->clear();
    const std::shared_ptr<const Instruction>& current = m_state->instance();
    if (current)
        for (Operand o : comparableOperands(m_pasted, *current))
            m_operand->addItem(
                QStringLiteral("%1 of %2")
                    .arg(QString::fromUtf8(toString(o).data()), QString::fromStdString(current->spec)),
                static_cast<int>(o));
    if (const int i = m_operand->findData(previous); i >= 0)
        m_operand->setCurrentIndex(i);
    m_compare->setEnabled(m_operand->count() > 0);
}

bool PasteLayoutPane::compare() {
    const std::shared_ptr<const Instruction>& current = m_state->instance();
    if (!m_pasted.ok || !current || m_operand->currentIndex() < 0) {
        m_verdict->setText(tr("Draw a layout and open an instruction to compare them."));
        return false;
    }
    const auto operand = static_cast<Operand>(m_operand->currentData().toInt());
    m_comparison = comparePasted(m_pasted, *current, operand);
    if (!m_comparison.ok) {
        m_verdict->setStyleSheet(QStringLiteral("color: #c62828;"));
        m_verdict->setText(m_comparison.error);
        return false;
    }
    m_verdict->setStyleSheet(m_comparison.differing ? QStringLiteral("color: #c62828;") : QString());
    m_verdict->setText(m_comparison.text);
    if (m_comparison.partner) { // the compare page: the instruction's operand beside the layout
        m_state->setCompareOperand(operand);
        m_state->setCompare(m_state->selection(), m_comparison.partner);
    }
    return true;
}

} // namespace lanemap::gui
