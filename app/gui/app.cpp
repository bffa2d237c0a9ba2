#include "app.hpp"

#include "main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QSettings>
#include <QStyleFactory>
#include <QTextStream>
#include <QTimer>

#include <cstdio>
#include <memory>

static void lanemapInitResources() {
    Q_INIT_RESOURCE(lanemap);
    Q_INIT_RESOURCE(lanemap_probe);
}

namespace lanemap::gui {

void initResources() { lanemapInitResources(); }

namespace {

// The offscreen platform (screenshots, CI) warns about every top-level window: noise, not a problem.
QtMessageHandler g_defaultHandler = nullptr;
void quietOffscreen(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QLatin1String("propagateSizeHints"))) return;
    if (g_defaultHandler) g_defaultHandler(type, context, message);
}

void printErr(const QString& text) {
    QTextStream err(stderr);
    err << text << Qt::endl;
}

} // namespace

int runApp(int argc, char** argv, const QElapsedTimer* startTimer) {
    QApplication::setApplicationName(QStringLiteral("lanemap"));
    QApplication::setOrganizationName(QStringLiteral("lanemap"));
    QApplication::setApplicationVersion(QStringLiteral(LANEMAP_VERSION));
    QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    g_defaultHandler = qInstallMessageHandler(quietOffscreen);
    QApplication app(argc, argv);
    initResources();
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/lanemap/lanemap.svg")));
    QApplication::setDesktopFileName(QStringLiteral("lanemap"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Tensor-core fragment layouts: which lane, register and bits hold "
                                                    "each element of PTX mma, mma.sp and wgmma operands."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption specOpt(QStringLiteral("spec"), QStringLiteral("Open SPEC (a spec or a PTX instruction)."),
                                     QStringLiteral("SPEC"));
    const QCommandLineOption shotOpt(QStringLiteral("screenshot"),
                                     QStringLiteral("Save the window as a PNG to FILE and exit."), QStringLiteral("FILE"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"), QStringLiteral("Window size WxH (screenshot default 1600x1000)."),
                                     QStringLiteral("WxH"));
    const QCommandLineOption themeOpt(QStringLiteral("theme"), QStringLiteral("light or dark."), QStringLiteral("THEME"));
    const QCommandLineOption colorOpt(QStringLiteral("color-by"), QStringLiteral("lane, register or group."),
                                      QStringLiteral("COLOR"));
    const QCommandLineOption lanesOpt(QStringLiteral("lanes"), QStringLiteral("Lane filter, e.g. 0-3,13."),
                                      QStringLiteral("LANES"));
    const QCommandLineOption hoverOpt(QStringLiteral("hover"),
                                      QStringLiteral("Screenshot: hover the cell of OPERAND at ROW,COL (e.g. A:9,3)."),
                                      QStringLiteral("OPERAND:ROW,COL"));
    const QCommandLineOption compareOpt(QStringLiteral("compare"), QStringLiteral("Compare with SPEC."), QStringLiteral("SPEC"));
    const QCommandLineOption timingOpt(QStringLiteral("timing"),
                                       QStringLiteral("Print start-to-first-paint, select-to-first-paint and hover frame times."));
    parser.addOptions({specOpt, shotOpt, sizeOpt, themeOpt, colorOpt, lanesOpt, hoverOpt, compareOpt, timingOpt});
    parser.process(app);

    const bool screenshot = parser.isSet(shotOpt);
    // Screenshots are reproducible: they ignore and never change the stored preferences.
    std::unique_ptr<QSettings> settings;
    if (!screenshot) settings = std::make_unique<QSettings>();
    MainWindow::Options options;
    options.settings = settings.get();
    options.restore = !screenshot && !parser.isSet(specOpt);
    MainWindow window(options);
    window.setStartTimer(startTimer);

    if (parser.isSet(specOpt)) {
        QString error;
        if (!window.openSpec(parser.value(specOpt), &error)) {
            printErr(QStringLiteral("lanemap: %1").arg(error));
            return 2;
        }
    }
    if (parser.isSet(themeOpt)) {
        const QString t = parser.value(themeOpt);
        if (t != QLatin1String("light") && t != QLatin1String("dark")) {
            printErr(QStringLiteral("lanemap: unknown theme '%1'; valid themes: light, dark").arg(t));
            return 2;
        }
        window.setTheme(themeFromString(t));
    }
    if (parser.isSet(colorOpt)) {
        const auto c = parseColorBy(parser.value(colorOpt).toStdString());
        if (!c) {
            printErr(QStringLiteral("lanemap: unknown --color-by '%1'; valid: lane, register, group").arg(parser.value(colorOpt)));
            return 2;
        }
        window.setColorBy(*c);
    }
    if (parser.isSet(lanesOpt)) {
        QString error;
        if (!window.setLaneFilter(parser.value(lanesOpt), &error)) {
            printErr(QStringLiteral("lanemap: %1").arg(error));
            return 2;
        }
    }
    if (parser.isSet(compareOpt)) {
        QString error;
        if (!window.setCompare(parser.value(compareOpt), &error)) {
            printErr(QStringLiteral("lanemap: --compare: %1").arg(error));
            return 2;
        }
    }
    QSize size(1600, 1000);
    if (parser.isSet(sizeOpt)) {
        const QStringList wh = parser.value(sizeOpt).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2) size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || size.width() < 200 || size.height() < 150) {
            printErr(QStringLiteral("lanemap: bad --size '%1'; expected WxH, e.g. 1600x1000").arg(parser.value(sizeOpt)));
            return 2;
        }
    }
    if (screenshot || parser.isSet(sizeOpt)) window.resize(size);
    window.show();

    if (screenshot) {
        // Let layouts settle and the panes paint once, then grab.
        for (int i = 0; i < 5; ++i) QApplication::processEvents();
        window.fitAll();
        QApplication::processEvents();
        if (parser.isSet(hoverOpt)) {
            const QString h = parser.value(hoverOpt);
            const QString operand = h.section(QLatin1Char(':'), 0, 0);
            const QStringList rc = h.section(QLatin1Char(':'), 1).split(QLatin1Char(','));
            DiagramView* view = window.pane(operand);
            bool ok = view && rc.size() == 2;
            if (ok) {
                const int row = rc[0].toInt(), col = rc[1].toInt();
                int found = -1;
                const Diagram* d = view->diagram();
                for (std::size_t i = 0; d && i < d->cells.size() && found < 0; ++i)
                    if (d->cells[i].row == row && d->cells[i].col <= col && col <= d->cells[i].colLast) found = static_cast<int>(i);
                ok = found >= 0;
                if (ok) {
                    view->setCursorCell(found);
                    window.hoverCell(view, found);
                }
            }
            if (!ok) {
                printErr(QStringLiteral("lanemap: --hover '%1' names no cell; panes: %2").arg(h, window.paneNames().join(QStringLiteral(", "))));
                return 2;
            }
            QApplication::processEvents();
        }
        const QImage image = window.grab().toImage();
        if (image.isNull() || !image.save(parser.value(shotOpt), "PNG")) {
            printErr(QStringLiteral("lanemap: could not write the screenshot to '%1'").arg(parser.value(shotOpt)));
            return 1;
        }
        if (parser.isSet(timingOpt)) printErr(window.timingReport());
        return 0;
    }
    const int code = QApplication::exec();
    if (parser.isSet(timingOpt)) printErr(window.timingReport());
    return code;
}

} // namespace lanemap::gui
