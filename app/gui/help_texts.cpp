#include "help_texts.hpp"

#include "gui_text.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/version.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QUrl>

#include <functional>

namespace lanemap::gui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("lanemap::gui::MainWindow", text);
}
} // namespace

QString quickGuideText() {
    return tr("<p><b>Open</b> an instruction from the catalog, or type words (<i>mma m16n8k16 bf16</i>, "
              "<i>sm_90</i>, "
              "<i>sparse</i>, <i>f16 acc</i>) or paste a whole PTX instruction into the filter.</p>"
              "<p><b>Hover</b> a cell: its lane lights up in every pane and the Cell panel says which "
              "register and "
              "bits hold it; <b>click</b> pins the lane (a legend swatch too). Arrows move a cell cursor, "
              "Tab "
              "moves between panes.</p><p><b>Panes</b> each have their own zoom: Fit readable (Ctrl+0), Fit "
              "all "
              "(Ctrl+9), Ctrl+wheel. <b>Compare</b> shows which positions another variant holds "
              "differently.</p>"
              "<p><b>Hardware verdicts</b> come from the probe (Tools → Probe hardware) or from recorded "
              "reports; "
              "only cells the hardware placed differently are framed in red.</p>");
}

QString shortcutsText(const QMenuBar& menus) {
    QString rows;
    auto row = [&rows](const QString& keys, const QString& what) {
        rows += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    const std::function<void(const QList<QAction*>&)> walk = [&](const QList<QAction*>& actions) {
        for (QAction* a : actions) {
            if (a->menu())
                walk(a->menu()->actions());
            else if (!a->shortcut().isEmpty())
                row(a->shortcut().toString(QKeySequence::NativeText),
                    QString(a->text()).remove(QLatin1Char('&')));
        }
    };
    walk(menus.actions());
    row(tr("Arrows"), tr("move the cell cursor in the focused pane"));
    row(tr("Tab / Shift+Tab"), tr("next / previous pane"));
    row(tr("Space, click"), tr("pin the lane under the cursor (again to unpin)"));
    row(tr("Esc"), tr("unpin, hide the cursor"));
    row(tr("+ / − / 0 in a pane, Ctrl+wheel"), tr("zoom that pane / fit it"));
    return QStringLiteral("<table>%1</table>").arg(rows);
}

QString aboutText() {
    return tr("<b>lanemap %1</b><p>Which lane, register and bits (for tcgen05, which Tensor Memory lane and "
              "column) hold each element of the PTX tensor-core instructions (%3).</p><p>Layouts from the "
              "PTX ISA 9.1; "
              "the hardware probe confirms them on a GPU. The probe sees A, B and D only through "
              "D = A·B + C: it proves their consistency with each other, and absolute K positions "
              "only where metadata or a memory layout anchors them.</p><p>Free software under the MIT "
              "licence (the LICENSE file of the source). Built with Qt %2 (LGPLv3): Help &rarr; About "
              "Qt.</p>")
        .arg(qs(kVersionLine), QString::fromLatin1(qVersion()), QString::fromStdString(familyNames()));
}

void openLink(QWidget* parent, const QString& url) {
    if (QDesktopServices::openUrl(QUrl(url)))
        return;
    auto* box = new QMessageBox(QMessageBox::Information, QObject::tr("No browser started"),
                                QObject::tr("No web browser could be started for the PTX manual. The section "
                                            "is at:<br/><a href='%1'>%1</a>")
                                    .arg(url.toHtmlEscaped()),
                                QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("linkDialog"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

} // namespace lanemap::gui
