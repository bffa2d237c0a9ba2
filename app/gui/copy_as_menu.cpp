// Edit > Copy as and File > Export as (copy_as_menu.hpp): the text comes from copyAsText and the exporters.
#include "copy_as_menu.hpp"

#include "compare.hpp"
#include "copy_as.hpp"
#include "gui_text.hpp"
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

void installCopyAs(QMainWindow& window, QMenu& edit, QMenu& file, const ViewState& state) {
    QMenu* copyAs = edit.addMenu(QObject::tr("Copy whole atom &as"));
    copyAs->setObjectName(QStringLiteral("copyAsMenu"));
    const std::pair<CopyFormat, QString> copies[] = {{CopyFormat::Cute, QObject::tr("CuTe layout")},
                                                     {CopyFormat::Triton, QObject::tr("Triton LinearLayout")},
                                                     {CopyFormat::Cuda, QObject::tr("CUDA header")},
                                                     {CopyFormat::Markdown, QObject::tr("Markdown table")}};
    for (const auto& [format, label] : copies) {
        QAction* act = copyAs->addAction(label, &window, [&window, &state, format, label] {
            const Instruction* in = state.instance().get();
            if (!in)
                return;
            // The whole atom, every operand, as `lanemap-cli export` writes it: never one operand picked
            // by where the keyboard focus was.
            const QString text = copyAsText(*in, OperandSet{}, format);
            if (text.isEmpty()) {
                window.statusBar()->showMessage(
                    QObject::tr("%1 has nothing to copy in this format").arg(specText(*in)), 5000);
                return;
            }
            QApplication::clipboard()->setText(text);
            window.statusBar()->showMessage(
                QObject::tr("Copied %1 (%2) as %3").arg(specText(*in), operandList(*in), label), 5000);
        });
        act->setObjectName(QStringLiteral("actionCopyAs%1").arg(static_cast<int>(format)));
    }

    // With the other exports, above Quit (the File menu's last entry, after its separator).
    auto* exportMenu = new QMenu(QObject::tr("E&xport as"), &file);
    exportMenu->setObjectName(QStringLiteral("exportAsMenu"));
    const QList<QAction*> fileActions = file.actions();
    QAction* before = fileActions.size() >= 2 ? fileActions[fileActions.size() - 2] : nullptr;
    file.insertMenu(before, exportMenu);
    const std::pair<const char*, QString> formats[] = {
        {"cuda", QObject::tr("CUDA header…")},      {"cute", QObject::tr("CuTe layouts…")},
        {"triton", QObject::tr("Triton layouts…")}, {"csv", QObject::tr("CSV table…")},
        {"md", QObject::tr("Markdown tables…")},    {"tex", QObject::tr("LaTeX document…")}};
    for (const auto& [name, text] : formats) {
        const ExportFormat format = *parseExportFormat(name);
        exportMenu->addAction(text, &window, [&window, &state, format] {
            const Instruction* in = state.instance().get();
            if (!in)
                return;
            const QString extension = QString::fromUtf8(fileExtension(format).data());
            const QString path = QFileDialog::getSaveFileName(&window, QObject::tr("Export"),
                                                              specText(*in) + QLatin1Char('.') + extension);
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
