#include "app.hpp"

#include "banks_pane.hpp"
#include "main_window.hpp"
#include "selections.hpp"
#include "view_state.hpp"

#include "lanemap/catalog.hpp"
#include "lanemap/excerpt.hpp"
#include "lanemap/write.hpp"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QRect>
#include <QScreen>
#include <QSettings>
#include <QSocketNotifier>
#include <QStyleFactory>
#include <QTextStream>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <memory>
#include <pwd.h>
#include <string_view>
#include <unistd.h>

static void lanemapInitResources() {
    Q_INIT_RESOURCE(lanemap);
    Q_INIT_RESOURCE(lanemap_probe);
}

namespace lanemap::gui {

void initResources() {
    lanemapInitResources();
}

namespace {

// The offscreen platform (screenshots, CI) warns about every top-level window: noise, not a problem.
QtMessageHandler g_defaultHandler = nullptr;
void quietOffscreen(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (message.contains(QLatin1String("propagateSizeHints")))
        return;
    if (g_defaultHandler)
        g_defaultHandler(type, context, message);
}

void printErr(const QString& text) {
    QTextStream err(stderr);
    err << text << Qt::endl;
}

QString quoted(const QString& text) {
    return QString::fromStdString(excerpt(text.toStdString()));
}

// SIGTERM/SIGINT/SIGHUP end the app like closing the window (so the view is saved): the handler only writes a
// byte to a pipe, the event loop does the rest.
int g_signalPipe[2] = {-1, -1};
void onQuitSignal(int) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &byte, 1);
}
void installQuitSignals() {
    if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    struct sigaction action {};
    action.sa_handler = onQuitSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int signal : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(signal, &action, nullptr);
}

// The settings file: where Qt puts it ($XDG_CONFIG_HOME/lanemap/lanemap.conf, else $HOME/.config/...), with
// the home folder of the user's passwd entry when HOME is unset or relative: Qt took "/" then, and the app
// wrote /.config/lanemap/lanemap.conf at the filesystem root. Empty, with `why`, when there is no usable
// place, or when the file is larger than lanemap ever writes: Qt parses all of it at start and writes all
// of it back on every save (a 20 MB file took seconds to save on SIGTERM); it is left as it is, unused.
constexpr qint64 kMaxSettingsBytes = 1 << 20; // the app writes ~1 KB; a window layout at most ~130 KB
QString settingsFile(QString& why) {
    const QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME"), home = qEnvironmentVariable("HOME");
    QString config;
    if (QDir::isAbsolutePath(xdg))
        config = xdg;
    else if (QDir::isAbsolutePath(home))
        config = home + QStringLiteral("/.config");
    else if (const passwd* pw = ::getpwuid(::geteuid());
             pw && pw->pw_dir && pw->pw_dir[0] == '/' && pw->pw_dir[1] != '\0')
        config = QString::fromLocal8Bit(pw->pw_dir) + QStringLiteral("/.config");
    else {
        why = QStringLiteral("HOME is not set and the user has no home folder: the view is not saved");
        return {};
    }
    const QString file = QDir::cleanPath(config + QStringLiteral("/lanemap/lanemap.conf"));
    if (const QFileInfo info(file); info.exists() && info.size() > kMaxSettingsBytes) {
        why = QStringLiteral(
                  "%1 is %2 bytes, more than lanemap ever writes (at most %3): not read, and the view "
                  "is not saved to it (remove it to start afresh)")
                  .arg(quoted(file))
                  .arg(info.size())
                  .arg(kMaxSettingsBytes);
        return {};
    }
    return file;
}

// Largest window side the screenshot and --size accept: the grab is a w*h*4-byte image, and past this Qt's
// painting runs out of memory or coordinates (100000x100000 crashed).
constexpr int kMaxSide = 8192;

// `OPERAND:ROW,COL` with ROW and COL non-negative decimal integers that fit an int.
// Whether the command line asks only for text (--help, --version): then no window, and no display needed.
bool asksOnlyForText(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h" || a == "-?" || a == "--help-all" || a == "--version" || a == "-v")
            return true;
    }
    return false;
}

bool parseHover(const QString& text, QString& operand, int& row, int& col) {
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    if (colon <= 0)
        return false;
    operand = text.left(colon);
    const QStringList rc = text.mid(colon + 1).split(QLatin1Char(','));
    if (rc.size() != 2)
        return false;
    bool okRow = false, okCol = false;
    row = rc[0].toInt(&okRow);
    col = rc[1].toInt(&okCol);
    return okRow && okCol && row >= 0 && col >= 0;
}

} // namespace

void placeFirstWindow(QWidget& window, const QRect& available) {
    if (available.width() < 1600) {
        window.setGeometry(available);
        window.setWindowState(window.windowState() | Qt::WindowMaximized);
        return;
    }
    const QSize size = available.size() * 0.9;
    window.setGeometry(QRect(available.center() - QPoint(size.width() / 2, size.height() / 2), size));
}

int runApp(int argc, char** argv, const QElapsedTimer* startTimer) {
    QApplication::setApplicationName(QStringLiteral("lanemap"));
    QApplication::setOrganizationName(QStringLiteral("lanemap"));
    QApplication::setApplicationVersion(QStringLiteral(LANEMAP_VERSION));
    QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    g_defaultHandler = qInstallMessageHandler(quietOffscreen);
    // --help and --version need no display: without one, QApplication would abort before printing them.
    std::unique_ptr<QCoreApplication> app;
    if (asksOnlyForText(argc, argv))
        app = std::make_unique<QCoreApplication>(argc, argv);
    else
        app = std::make_unique<QApplication>(argc, argv);

    QCommandLineParser parser;
    // The families from the catalog's tables: a family added there is named here too.
    parser.setApplicationDescription(
        QStringLiteral("Tensor-core fragment layouts: which lane, register and bits (for tcgen05, which "
                       "Tensor Memory lane and column) hold each element of PTX %1 operands.")
            .arg(QString::fromStdString(familyNames(" and "))));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption specOpt(QStringLiteral("spec"),
                                     QStringLiteral("Open SPEC (a spec or a PTX instruction)."),
                                     QStringLiteral("SPEC"));
    const QCommandLineOption shotOpt(QStringLiteral("screenshot"),
                                     QStringLiteral("Save the window as a PNG to FILE and exit."),
                                     QStringLiteral("FILE"));
    const QCommandLineOption sizeOpt(QStringLiteral("size"),
                                     QStringLiteral("Window size WxH (screenshot default 1600x1000)."),
                                     QStringLiteral("WxH"));
    const QCommandLineOption themeOpt(QStringLiteral("theme"), QStringLiteral("light or dark."),
                                      QStringLiteral("THEME"));
    const QCommandLineOption colorOpt(QStringLiteral("color-by"),
                                      QStringLiteral("lane, register, group, warp, warpgroup or thread."),
                                      QStringLiteral("COLOR"));
    const QCommandLineOption lanesOpt(QStringLiteral("lanes"), QStringLiteral("Lane filter, e.g. 0-3,13."),
                                      QStringLiteral("LANES"));
    const QCommandLineOption hoverOpt(
        QStringLiteral("hover"),
        QStringLiteral("Screenshot: hover the cell of OPERAND at ROW,COL (e.g. A:9,3)."),
        QStringLiteral("OPERAND:ROW,COL"));
    const QCommandLineOption compareOpt(QStringLiteral("compare"), QStringLiteral("Compare with SPEC."),
                                        QStringLiteral("SPEC"));
    const QCommandLineOption atomLayoutOpt(
        QStringLiteral("atom-layout"),
        QStringLiteral(
            "With --spec: tile the MMA atom over warps along M,N,K, CuTe's notation (e.g. (2,2,1); "
            "docs/tiles.md)."),
        QStringLiteral("LAYOUT"));
    const QCommandLineOption permutationOpt(
        QStringLiteral("permutation"),
        QStringLiteral("With --spec: the tile's permutation per mode, CuTe's notation (e.g. _32,_32,_16)."),
        QStringLiteral("TILE"));
    const QCommandLineOption feedsOpt(
        QStringLiteral("feeds"),
        QStringLiteral(
            "With an ldmatrix/stmatrix --spec: the Shared memory & banks pane checks the move against "
            "this MMA operand (e.g. mma.m16n8k16.f16:A); with --atom-layout it draws the whole tiled "
            "copy."),
        QStringLiteral("SPEC:OPERAND"));
    const QCommandLineOption timingOpt(
        QStringLiteral("timing"),
        QStringLiteral("Print start-to-first-paint, select-to-first-paint and hover frame times."));
    parser.addOptions({specOpt, shotOpt, sizeOpt, themeOpt, colorOpt, lanesOpt, hoverOpt, compareOpt,
                       timingOpt, atomLayoutOpt, permutationOpt, feedsOpt});
    // parse(), not process(): process() exits 1 on a bad option, and 1 means "mismatch" here.
    if (!parser.parse(QCoreApplication::arguments())) {
        printErr(QStringLiteral("lanemap: %1; see lanemap --help").arg(quoted(parser.errorText())));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    initResources();
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/lanemap/lanemap.svg")));
    QApplication::setDesktopFileName(QStringLiteral("lanemap"));

    const bool screenshot = parser.isSet(shotOpt);
    // An interactive window closes (and saves) on SIGTERM; a screenshot run just stops, leaving no temp file.
    // Either way SIGQUIT (and whatever the window does not handle) removes the temp files of writes in
    // flight.
    if (!screenshot)
        installQuitSignals();
    installWriteSignalCleanup();
    // Check what can be checked before building the window: the screenshot's path, --size and --hover.
    if (screenshot) {
        if (const std::string failure = checkWritable(parser.value(shotOpt).toStdString());
            !failure.empty()) {
            printErr(QStringLiteral("lanemap: --screenshot: %1").arg(QString::fromStdString(failure)));
            return 2;
        }
    }
    QSize size(1600, 1000);
    if (parser.isSet(sizeOpt)) {
        const QStringList wh = parser.value(sizeOpt).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || size.width() < 200 || size.height() < 150 || size.width() > kMaxSide ||
            size.height() > kMaxSide) {
            printErr(
                QStringLiteral("lanemap: bad --size '%1'; expected WxH from 200x150 to %2x%2, e.g. 1600x1000")
                    .arg(quoted(parser.value(sizeOpt)))
                    .arg(kMaxSide));
            return 2;
        }
    }
    QString hoverOperand;
    int hoverRow = 0, hoverCol = 0;
    if (parser.isSet(hoverOpt) && !parseHover(parser.value(hoverOpt), hoverOperand, hoverRow, hoverCol)) {
        printErr(QStringLiteral("lanemap: bad --hover '%1'; expected OPERAND:ROW,COL with ROW and COL "
                                "non-negative integers, e.g. A:9,3")
                     .arg(quoted(parser.value(hoverOpt))));
        return 2;
    }
    // Screenshots are reproducible: they ignore and never change the stored preferences.
    std::unique_ptr<QSettings> settings;
    if (!screenshot) {
        QString why;
        if (const QString file = settingsFile(why); !file.isEmpty())
            settings = std::make_unique<QSettings>(file, QSettings::IniFormat); // on Unix, Qt's native format
        else
            printErr(QStringLiteral("lanemap: settings: %1").arg(why));
    }
    MainWindow::Options options;
    options.settings = settings.get();
    options.restore = !screenshot && !parser.isSet(specOpt);
    MainWindow window(options);
    window.setStartTimer(startTimer);

    std::optional<tile::TileLayout> tileLayout;
    if (parser.isSet(atomLayoutOpt) || parser.isSet(permutationOpt)) {
        std::string error;
        if (!parser.isSet(specOpt)) {
            printErr(QStringLiteral("lanemap: --atom-layout and --permutation tile the atom --spec names"));
            return 2;
        }
        const QString atoms =
            parser.isSet(atomLayoutOpt) ? parser.value(atomLayoutOpt) : QStringLiteral("(1,1,1)");
        tileLayout =
            tile::parseTileLayout(atoms.toStdString(), parser.value(permutationOpt).toStdString(), error);
        if (!tileLayout) {
            printErr(QStringLiteral("lanemap: %1").arg(QString::fromStdString(error)));
            return 2;
        }
    }
    if (parser.isSet(feedsOpt) && !parser.isSet(specOpt)) {
        printErr(
            QStringLiteral("lanemap: --feeds checks the ldmatrix or stmatrix --spec names against an MMA "
                           "operand; give --spec (e.g. --spec ldmatrix.m8n8.x4.b16 --feeds "
                           "mma.m16n8k16.f16:A)"));
        return 2;
    }
    if (parser.isSet(specOpt)) {
        // A matrix move is not tiled itself: its tile is the Feeds consumer's, the whole tiled copy.
        const Selection named = parseSelection(parser.value(specOpt));
        const bool copy = parser.isSet(feedsOpt) || (named && BanksPane::appliesTo(named.variant));
        QString error;
        if (!window.openSpec(parser.value(specOpt), &error, copy ? std::nullopt : tileLayout) ||
            (copy && !window.setTiledCopy(parser.value(feedsOpt), tileLayout, &error))) {
            printErr(QStringLiteral("lanemap: %1").arg(error));
            return 2;
        }
    }
    if (parser.isSet(themeOpt)) {
        const QString t = parser.value(themeOpt);
        if (t != QLatin1String("light") && t != QLatin1String("dark")) {
            printErr(QStringLiteral("lanemap: unknown theme '%1'; valid themes: light, dark").arg(quoted(t)));
            return 2;
        }
        window.setTheme(themeFromString(t));
    }
    if (parser.isSet(colorOpt)) {
        const auto c = parseColorBy(parser.value(colorOpt).toStdString());
        if (!c) {
            printErr(
                QStringLiteral(
                    "lanemap: unknown --color-by '%1'; valid: lane, register, group, warp, warpgroup, thread")
                    .arg(quoted(parser.value(colorOpt))));
            return 2;
        }
        window.viewState()->setColorBy(*c);
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
    if (screenshot || parser.isSet(sizeOpt))
        window.resize(size);
    else if (!settings || !settings->contains(QStringLiteral("last/geometry")))
        placeFirstWindow(window, window.screen()->availableGeometry());
    window.show();

    if (screenshot) {
        // Let layouts settle and the panes paint once, then grab.
        for (int i = 0; i < 5; ++i)
            QApplication::processEvents();
        window.fitAll();
        QApplication::processEvents();
        if (parser.isSet(hoverOpt)) {
            QString panes;
            if (!window.hover(hoverOperand, hoverRow, hoverCol, &panes)) {
                printErr(QStringLiteral("lanemap: --hover '%1' names no cell; panes: %2")
                             .arg(quoted(parser.value(hoverOpt)), panes));
                return 2;
            }
            QApplication::processEvents();
        }
        // Encoded in memory, then through the same writer as every export: atomic, links followed, old file
        // kept on failure.
        const QImage image = window.grab().toImage();
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        if (image.isNull() || !image.save(&buffer, "PNG")) {
            printErr(QStringLiteral("lanemap: --screenshot: could not render the window as PNG"));
            return 2;
        }
        const std::string failure =
            writeFile(parser.value(shotOpt).toStdString(),
                      std::string_view(png.constData(), static_cast<std::size_t>(png.size())));
        if (!failure.empty()) {
            printErr(QStringLiteral("lanemap: --screenshot: %1").arg(QString::fromStdString(failure)));
            return 2;
        }
        if (parser.isSet(timingOpt))
            printErr(window.timingReport());
        return 0;
    }
    std::unique_ptr<QSocketNotifier> quitNotifier;
    if (g_signalPipe[0] >= 0) {
        quitNotifier = std::make_unique<QSocketNotifier>(g_signalPipe[0], QSocketNotifier::Read);
        QObject::connect(quitNotifier.get(), &QSocketNotifier::activated, &window, [&window] {
            char byte = 0;
            while (::read(g_signalPipe[0], &byte, 1) > 0) {
            }
            window.close(); // saves the view, like a user closing the window
        });
    }
    const int code = QApplication::exec();
    if (parser.isSet(timingOpt))
        printErr(window.timingReport());
    return code;
}

} // namespace lanemap::gui
