#pragma once
// The lanemap program: command line, QApplication set-up, the window, and screenshot mode
// (`lanemap --spec SPEC --screenshot FILE.png`: open, save the window as PNG, exit).

class QElapsedTimer;
class QRect;
class QWidget;

namespace lanemap::gui {

// Loads the icon and resources compiled into lanemap_gui_lib (a static library needs this once).
void initResources();

// Where a first start (no saved geometry) opens on a screen whose available area is `available`: maximized
// on a laptop-sized screen (under 1600 px wide), where every pixel counts; else 90 % of it, centred.
void placeFirstWindow(QWidget& window, const QRect& available);

// Runs the app; returns the process exit code (0 ok, 2 bad arguments or spec, or the screenshot
// not written; docs/guarantees.md). A bad settings value is dropped with a warning, never fatal.
int runApp(int argc, char** argv, const QElapsedTimer* startTimer = nullptr);

} // namespace lanemap::gui
