#include "preferences.hpp"

#include <QSettings>

namespace lanemap::gui {

QString toString(Theme theme) { return theme == Theme::Dark ? QStringLiteral("dark") : QStringLiteral("light"); }

Theme themeFromString(const QString& name, Theme fallback) {
    if (name == QLatin1String("dark")) return Theme::Dark;
    if (name == QLatin1String("light")) return Theme::Light;
    return fallback;
}

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
} // namespace

Preferences loadPreferences(QSettings& s) {
    const Preferences d;
    Preferences p;
    s.beginGroup(QStringLiteral("view"));
    p.theme = themeFromString(s.value(QStringLiteral("theme")).toString(), d.theme);
    p.colorBy = parseColorBy(s.value(QStringLiteral("colorBy")).toString().toStdString()).value_or(d.colorBy);
    p.palette = parsePalette(s.value(QStringLiteral("palette")).toString().toStdString()).value_or(d.palette);
    p.zoom = s.value(QStringLiteral("zoom"), d.zoom).toDouble();
    if (!(p.zoom > 0.05 && p.zoom < 20.0)) p.zoom = d.zoom; // a corrupt value must not make the view unusable
    p.fitToPane = s.value(QStringLiteral("fitToPane"), d.fitToPane).toBool();
    p.showLabels = s.value(QStringLiteral("showLabels"), d.showLabels).toBool();
    s.endGroup();
    s.beginGroup(QStringLiteral("last"));
    p.spec = s.value(QStringLiteral("spec"), d.spec).toString();
    p.selector = s.value(QStringLiteral("selector"), d.selector).toInt();
    p.laneFilter = s.value(QStringLiteral("laneFilter"), d.laneFilter).toString();
    p.pinnedThread = s.value(QStringLiteral("pinnedThread"), d.pinnedThread).toInt();
    p.compareSpec = s.value(QStringLiteral("compareSpec"), d.compareSpec).toString();
    p.geometry = s.value(QStringLiteral("geometry")).toByteArray();
    p.windowState = s.value(QStringLiteral("windowState")).toByteArray();
    s.endGroup();
    return p;
}

void savePreferences(QSettings& s, const Preferences& p) {
    s.beginGroup(QStringLiteral("view"));
    s.setValue(QStringLiteral("theme"), toString(p.theme));
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
}

} // namespace lanemap::gui
