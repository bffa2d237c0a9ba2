#pragma once
// Light and dark themes: the Qt palette of the window and the colors the diagram painter adds (background,
// highlights, cursor, compare and probe marks). Cell fills come from the core Diagram in both themes; only
// its greys (ink, muted text, grid lines, dimmed cells) are mapped for the dark background.

#include "preferences.hpp"

#include <QColor>
#include <QPalette>

namespace lanemap {
struct Rgb;
}

namespace lanemap::gui {

struct ViewColors {
    bool dark = false;
    QColor background; // behind the diagram
    QColor ink;        // titles
    QColor muted;      // headers, subtitles
    QColor gridLine;   // cell borders
    QColor dimFill;    // cells outside the lane filter
    QColor dimText;
    QColor shade;     // laid over every cell that is not lit while a lane is hovered
    QColor highlight; // outline of the hovered lane's cells
    QColor pinned;    // outline of the pinned lane's cells
    QColor cursor;    // keyboard cursor / hovered cell
    QColor diff;      // compare: cell differs from the other variant
    QColor confirmed; // probe ✓
    QColor mismatch;  // probe ✗
    QColor bitBox;    // unused metadata bits
};

ViewColors viewColors(Theme theme);
// The desktop's theme: dark when the palette the application started with has a dark window colour. The
// first call remembers that palette (before the app sets its own), so call it early.
Theme systemTheme();
// The desktop's theme now (the platform palette, read past the palette the app set): what a live theme change
// is followed to.
Theme currentDesktopTheme();
QPalette windowPalette(Theme theme);

// A Diagram color as drawn in `colors`' theme: greys are mapped for dark backgrounds, hues are kept.
QColor themed(const Rgb& rgb, const ViewColors& colors);

} // namespace lanemap::gui
