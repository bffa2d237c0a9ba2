// Edit > Copy as and File > Export as (copy_as_menu.hpp): the text comes from copyAsText and the exporters.
#include "copy_as_menu.hpp"

#include "copy_as.hpp"
#include "diagram_view.hpp"
#include "main_window.hpp"
#include "view_state.hpp"

#include "lanemap/export.hpp"
#include "lanemap/export_formats.hpp"
#include "lanemap/write.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>

namespace lanemap::gui {

QString currentOperand(const MainWindow& window) {
    for (const QString& name : window.paneNames())
        if (const DiagramView* view = window.pane(name); view && view->hasFocus())
            return name;
    return QString::fromUtf8(toString(window.viewState()->compareOperand()).data());
}

void installCopyAs(MainWindow& window, QMenu& edit, QMenu& file) {
    QMenu* copyAs = edit.addMenu(QObject::tr("Copy &as"));
    copyAs->setObjectName(QStringLiteral("copyAsMenu"));
    const std::pair<CopyFormat, QString> copies[] = {{CopyFormat::Cute, QObject::tr("CuTe layout")},
                                                     {CopyFormat::Triton, QObject::tr("Triton LinearLayout")},
                                                     {CopyFormat::Cuda, QObject::tr("CUDA header")},
                                                     {CopyFormat::Markdown, QObject::tr("Markdown table")}};
    for (const auto& [format, label] : copies) {
        QAction* act = copyAs->addAction(label, &window, [&window, format] {
            const Instruction* in = window.instruction();
            if (!in)
                return;
            const QString operand = currentOperand(window);
            const QString text = copyAsText(*in, operand, format);
            if (text.isEmpty()) {
                window.statusBar()->showMessage(
                    QObject::tr("%1 has nothing to copy in this format").arg(operand), 5000);
                return;
            }
            QApplication::clipboard()->setText(text);
            window.statusBar()->showMessage(QObject::tr("Copied %1 of %2").arg(operand, window.currentSpec()),
                                            5000);
        });
        act->setObjectName(QStringLiteral("actionCopyAs%1").arg(static_cast<int>(format)));
    }

    QMenu* exportMenu = file.addMenu(QObject::tr("E&xport as"));
    exportMenu->setObjectName(QStringLiteral("exportAsMenu"));
    for (const char* name : {"cuda", "cute", "triton", "csv", "md", "tex"}) {
        const ExportFormat format = *parseExportFormat(name);
        exportMenu->addAction(
            QStringLiteral("%1…").arg(QString::fromLatin1(name)), &window, [&window, format] {
                const Instruction* in = window.instruction();
                if (!in)
                    return;
                const QString extension = QString::fromUtf8(fileExtension(format).data());
                const QString path = QFileDialog::getSaveFileName(
                    &window, QObject::tr("Export"), window.currentSpec() + QLatin1Char('.') + extension);
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
