#include "preferences.hpp"

#include <QDataStream>
#include <QGuiApplication>
#include <QRect>
#include <QScreen>
#include <QSettings>
#include <QtGlobal>

namespace lanemap::gui {

QString toString(Theme theme) {
    return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light");
}

Theme themeFromString(const QString& name, Theme fallback) {
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    if (name == QLatin1String("light"))
        return Theme::Light;
    return fallback;
}

namespace {
QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// The screens' union, or a generous default before any screen is known.
QRect desktop() {
    QRect all;
    for (const QScreen* screen : QGuiApplication::screens())
        all = all.united(screen->geometry());
    return all.isValid() ? all : QRect(0, 0, 3840, 2160);
}

// QWidget::saveGeometry's rectangles must fit the screens we have: a window of 99999x99999 from a corrupt or
// foreign file crashed every start. Allows twice the desktop (a monitor unplugged since), never more.
QString checkGeometry(const QByteArray& bytes) {
    if (bytes.isEmpty())
        return {};
    if (bytes.size() > 256)
        return QStringLiteral("too long for a window geometry");
    QDataStream in(bytes);
    in.setVersion(QDataStream::Qt_4_0);
    quint32 magic = 0;
    quint16 major = 0, minor = 0;
    QRect frame, normal;
    in >> magic >> major >> minor >> frame >> normal;
    if (in.status() != QDataStream::Ok || magic != 0x1D9D0CB)
        return QStringLiteral("not a window geometry");
    const QRect screens = desktop();
    const int maxW = 2 * screens.width(), maxH = 2 * screens.height();
    for (const QRect& r : {frame, normal}) {
        if (r.width() < 1 || r.height() < 1 || r.width() > maxW || r.height() > maxH)
            return QStringLiteral("window size %1x%2 does not fit the screens (%3x%4)")
                .arg(r.width())
                .arg(r.height())
                .arg(screens.width())
                .arg(screens.height());
        if (!r.intersects(screens.adjusted(-maxW, -maxH, maxW, maxH)))
            return QStringLiteral("window position %1,%2 is far off every screen").arg(r.x()).arg(r.y());
    }
    return {};
}

void dropped(const QString& key, const QString& why) {
    qWarning("lanemap: settings: ignoring %s: %s", qPrintable(key), qPrintable(why));
}

// A text setting longer than any spec or lane list could be (a 1 MB spec froze start-up).
QString boundedText(QSettings& s, const QString& key, const QString& fallback) {
    const QString value = s.value(key, fallback).toString();
    if (value.size() <= 4096)
        return value;
    dropped(s.group() + QLatin1Char('/') + key,
            QStringLiteral("%1 characters (at most 4096)").arg(value.size()));
    return fallback;
}

int boundedInt(QSettings& s, const QString& key, int fallback, int lowest, int highest) {
    bool ok = false;
    const int value = s.value(key, fallback).toInt(&ok);
    if (ok && value >= lowest && value <= highest)
        return value;
    dropped(s.group() + QLatin1Char('/') + key, QStringLiteral("'%1' is not an integer from %2 to %3")
                                                    .arg(s.value(key).toString().left(40))
                                                    .arg(lowest)
                                                    .arg(highest));
    return fallback;
}
} // namespace

Preferences loadPreferences(QSettings& s) {
    const Preferences d;
    Preferences p;
    s.beginGroup(QStringLiteral("view"));
    p.theme = themeFromString(s.value(QStringLiteral("theme")).toString(), d.theme);
    // Older files stored a theme the user never chose: without this key the desktop's is followed.
    p.themeFollowsSystem = s.value(QStringLiteral("themeFollowsSystem"), d.themeFollowsSystem).toBool();
    p.colorBy = parseColorBy(s.value(QStringLiteral("colorBy")).toString().toStdString()).value_or(d.colorBy);
    p.palette = parsePalette(s.value(QStringLiteral("palette")).toString().toStdString()).value_or(d.palette);
    p.zoom = s.value(QStringLiteral("zoom"), d.zoom).toDouble();
    if (!(p.zoom > 0.05 && p.zoom < 20.0))
        p.zoom = d.zoom; // a corrupt value must not make the view unusable
    p.fitToPane = s.value(QStringLiteral("fitToPane"), d.fitToPane).toBool();
    p.showLabels = s.value(QStringLiteral("showLabels"), d.showLabels).toBool();
    s.endGroup();
    s.beginGroup(QStringLiteral("last"));
    p.spec = boundedText(s, QStringLiteral("spec"), d.spec);
    p.selector = boundedInt(s, QStringLiteral("selector"), d.selector, 0, 3);
    p.laneFilter = boundedText(s, QStringLiteral("laneFilter"), d.laneFilter);
    p.pinnedThread = boundedInt(s, QStringLiteral("pinnedThread"), d.pinnedThread, -1, 127);
    p.compareSpec = boundedText(s, QStringLiteral("compareSpec"), d.compareSpec);
    p.geometry = s.value(QStringLiteral("geometry")).toByteArray();
    if (const QString why = checkGeometry(p.geometry); !why.isEmpty()) {
        dropped(QStringLiteral("last/geometry"), why);
        p.geometry.clear();
    }
    p.windowState = s.value(QStringLiteral("windowState")).toByteArray();
    // The dock layout stores sizes too; without a sane geometry it is not restored either.
    if ((p.geometry.isEmpty() && !p.windowState.isEmpty()) || p.windowState.size() > 64 * 1024) {
        if (!p.geometry.isEmpty())
            dropped(QStringLiteral("last/windowState"), QStringLiteral("too long"));
        p.windowState.clear();
    }
    s.endGroup();
    return p;
}

QString savePreferences(QSettings& s, const Preferences& p) {
    s.beginGroup(QStringLiteral("view"));
    s.setValue(QStringLiteral("theme"), toString(p.theme));
    s.setValue(QStringLiteral("themeFollowsSystem"), p.themeFollowsSystem);
    s.setValue(QStringLiteral("colorBy"), qs(lanemap::toString(p.colorBy)));
    s.setValue(QStringLiteral("palette"), qs(lanemap::toString(p.palette)));
    s.setValue(QStringLiteral("zoom"), p.zoom);
    s.setValue(QStringLiteral("fitToPane"), p.fitToPane);
    s.setValue(QStringLiteral("showLabels"), p.showLabels);
    s.endGroup();
    s.beginGroup(QStringLiteral("last"));
    s.setValue(QStringLiteral("spec"), p.spec);
    s.setValue(QStringLiteral("selector"), p.selector);
    s.setValue(QStringLiteral("laneFilter"), p.laneFilter);
    s.setValue(QStringLiteral("pinnedThread"), p.pinnedThread);
    s.setValue(QStringLiteral("compareSpec"), p.compareSpec);
    s.setValue(QStringLiteral("geometry"), p.geometry);
    s.setValue(QStringLiteral("windowState"), p.windowState);
    s.endGroup();
    s.sync();
    switch (s.status()) {
    case QSettings::NoError:
        return {};
    case QSettings::AccessError:
        return QStringLiteral("could not save the settings to %1: access denied or disk full")
            .arg(s.fileName());
    case QSettings::FormatError:
        return QStringLiteral("could not save the settings to %1: the file is malformed").arg(s.fileName());
    }
    return QStringLiteral("could not save the settings to %1").arg(s.fileName());
}

} // namespace lanemap::gui
