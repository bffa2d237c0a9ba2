#pragma once
// What the app remembers between runs: view preferences and the last view. Stored with QSettings; tests point
// QSettings at a temporary folder (QSettings::setPath) so a test run never touches the user's settings.

#include "lanemap/diagram.hpp"

#include <QByteArray>
#include <QString>

class QSettings;

namespace lanemap::gui {

enum class Theme { Light, Dark };

QString toString(Theme theme);
Theme themeFromString(const QString& name, Theme fallback = Theme::Light);

struct Preferences {
    Theme theme = Theme::Light;
    bool themeFollowsSystem = true; // the desktop's light or dark, until the user picks one
    ColorBy colorBy =
        ColorBy::Lane; // what a cell's fill says: owner lane, register or groupID (core Diagram)
    Palette palette = Palette::Default;
    double zoom = 1.0;      // diagram scale; 1.0 = the Diagram's own cell size
    bool fitToPane = true;  // zoom follows the pane size until the user zooms
    bool showLabels = true; // cell labels (level of detail still hides them when cells are tiny)
    // Last view
    QString spec = QStringLiteral("mma.m16n8k16.f16");
    int selector = 0;   // sparse metadata selector
    QString laneFilter; // "" = all lanes; else e.g. "0-3,13"
    int pinnedThread = -1;
    QString compareSpec;    // second variant of the compare view; "" = compare off
    QByteArray geometry;    // QMainWindow::saveGeometry
    QByteArray windowState; // QMainWindow::saveState

    bool operator==(const Preferences&) const = default;
};

// Values that fail validation (a window geometry that does not fit the screens, an out-of-range selector, a
// megabyte-long spec) are dropped with a warning and take their defaults: a bad file is never fatal.
Preferences loadPreferences(QSettings& settings);
// Returns empty on success, else why the settings could not be saved (for the status bar and the log).
QString savePreferences(QSettings& settings, const Preferences& preferences);

} // namespace lanemap::gui
