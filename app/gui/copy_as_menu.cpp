// Edit > Copy as and File > Export as (copy_as_menu.hpp): the text comes from copyAsText and the exporters.
#include "copy_as_menu.hpp"

#include "copy_as.hpp"
#include "diagram_view.hpp"
#include "gui_text.hpp"
#include "pane_area.hpp"
#include "selections.hpp"
#include "view_state.hpp"

#include "lanemap/export.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/write.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

namespace lanemap::gui {

CopiedOperands currentOperands(const PaneArea& area, const ViewState& state) {
    for (const Pane* pane : area.panes())
        if (pane->view()->hasFocus())
            return {pane->key().operands, pane->label()};
    return {state.compareOperand(), qs(toString(state.compareOperand()))};
}

void installCopyAs(QMainWindow& window, QMenu& edit, QMenu& file, const PaneArea& area,
                   const ViewState& state) {
    QMenu* copyAs = edit.addMenu(QObject::tr("Copy &as"));
    copyAs->setObjectName(QStringLiteral("copyAsMenu"));
    const std::pair<CopyFormat, QString> copies[] = {{CopyFormat::Cute, QObject::tr("CuTe layout")},
                                                     {CopyFormat::Triton, QObject::tr("Triton LinearLayout")},
                                                     {CopyFormat::Cuda, QObject::tr("CUDA header")},
                                                     {CopyFormat::Markdown, QObject::tr("Markdown table")}};
    for (const auto& [format, label] : copies) {
        QAction* act = copyAs->addAction(label, &window, [&window, &area, &state, format] {
            const Instruction* in = state.instance().get();
            if (!in)
                return;
            const CopiedOperands copied = currentOperands(area, state);
            const QString text = copyAsText(*in, copied.operands, format);
            if (text.isEmpty()) {
                window.statusBar()->showMessage(
                    QObject::tr("%1 has nothing to copy in this format").arg(copied.label), 5000);
                return;
            }
            QApplication::clipboard()->setText(text);
            window.statusBar()->showMessage(QObject::tr("Copied %1 of %2").arg(copied.label, specText(*in)),
                                            5000);
        });
        act->setObjectName(QStringLiteral("actionCopyAs%1").arg(static_cast<int>(format)));
    }

    QMenu* exportMenu = file.addMenu(QObject::tr("E&xport as"));
    exportMenu->setObjectName(QStringLiteral("exportAsMenu"));
    for (const char* name : {"cuda", "cute", "triton", "csv", "md", "tex"}) {
        const ExportFormat format = *parseExportFormat(name);
        exportMenu->addAction(
            QStringLiteral("%1…").arg(QString::fromLatin1(name)), &window, [&window, &state, format] {
                const Instruction* in = state.instance().get();
                if (!in)
                    return;
                const QString extension = QString::fromUtf8(fileExtension(format).data());
                const QString path = QFileDialog::getSaveFileName(
                    &window, QObject::tr("Export"), specText(*in) + QLatin1Char('.') + extension);
                if (path.isEmpty())
                    return;
                std::string document, error;
                if (exportInstruction(*in, format, ExportOptions{}, document, error))
                    error = writeFile(path.toStdString(), document);
                if (!error.empty())
                    QMessageBox::warning(&window, QObject::tr("Export"), QString::fromStdString(error));
                else
                    window.statusBar()->showMessage(QObject::tr("Wrote %1").arg(path), 5000);
            });
    }
}

} // namespace lanemap::gui
