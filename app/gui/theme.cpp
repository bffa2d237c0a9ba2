#include "theme.hpp"

#include <QGuiApplication>

#include "lanemap/diagram.hpp"

namespace lanemap::gui {

ViewColors viewColors(Theme theme) {
    ViewColors c;
    if (theme == Theme::Dark) {
        c.dark = true;
        c.background = QColor(0x1e, 0x21, 0x27);
        c.ink = QColor(0xe8, 0xea, 0xed);
        c.muted = QColor(0x9a, 0xa0, 0xa6);
        c.gridLine = QColor(0x12, 0x14, 0x18);
        c.dimFill = QColor(0x33, 0x37, 0x3e);
        c.dimText = QColor(0x70, 0x76, 0x7e);
        c.shade = QColor(0x1e, 0x21, 0x27, 170);
        c.highlight = QColor(0xff, 0xff, 0xff);
        c.pinned = QColor(0xff, 0xb0, 0x20);
        c.cursor = QColor(0x4d, 0xa3, 0xff);
        c.diff = QColor(0xff, 0x45, 0x3a);
        c.confirmed = QColor(0x30, 0xd1, 0x58);
        c.mismatch = QColor(0xff, 0x45, 0x3a);
        c.bitBox = QColor(0x2a, 0x2e, 0x35);
    } else {
        c.background = QColor(0xff, 0xff, 0xff);
        c.ink = QColor(0x22, 0x22, 0x22);
        c.muted = QColor(0x55, 0x55, 0x55);
        c.gridLine = QColor(0x44, 0x44, 0x44);
        c.dimFill = QColor(0xf0, 0xf0, 0xf0);
        c.dimText = QColor(0xa0, 0xa0, 0xa0);
        c.shade = QColor(0xff, 0xff, 0xff, 165);
        c.highlight = QColor(0x11, 0x11, 0x11);
        c.pinned = QColor(0xe0, 0x70, 0x00);
        c.cursor = QColor(0x00, 0x66, 0xdd);
        c.diff = QColor(0xd0, 0x10, 0x10);
        c.confirmed = QColor(0x1a, 0x8f, 0x3a);
        c.mismatch = QColor(0xd0, 0x10, 0x10);
        c.bitBox = QColor(0xff, 0xff, 0xff);
    }
    return c;
}

QColor themed(const Rgb& rgb, const ViewColors& colors) {
    if (!colors.dark || rgb.r != rgb.g || rgb.g != rgb.b)
        return QColor(rgb.r, rgb.g, rgb.b);
    // Greys: ink and muted text get lighter, light fills (dimmed cells) get darker.
    const int v = rgb.r;
    if (v < 0x40)
        return colors.ink;
    if (v < 0x90)
        return colors.muted;
    if (v < 0xc0)
        return colors.dimText;
    if (v < 0xfa)
        return colors.dimFill;
    return colors.bitBox;
}

Theme systemTheme() {
    static const QPalette desktop = QGuiApplication::palette();
    return desktop.color(QPalette::Window).lightness() < 128 ? Theme::Dark : Theme::Light;
}

Theme currentDesktopTheme() {
    // The app has set its own palette; an empty one resolves to the platform's (the desktop's now).
    const QPalette own = QGuiApplication::palette();
    QGuiApplication::setPalette(QPalette());
    const bool dark = QGuiApplication::palette().color(QPalette::Window).lightness() < 128;
    QGuiApplication::setPalette(own);
    return dark ? Theme::Dark : Theme::Light;
}

QPalette windowPalette(Theme theme) {
    QPalette p;
    if (theme == Theme::Dark) {
        const QColor window(0x2b, 0x2e, 0x34), base(0x1e, 0x21, 0x27), text(0xe8, 0xea, 0xed);
        p.setColor(QPalette::Window, window);
        p.setColor(QPalette::WindowText, text);
        p.setColor(QPalette::Base, base);
        p.setColor(QPalette::AlternateBase, window);
        p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3e, 0x45));
        p.setColor(QPalette::ToolTipText, text);
        p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x90, 0x96));
        p.setColor(QPalette::Text, text);
        p.setColor(QPalette::Button, window);
        p.setColor(QPalette::ButtonText, text);
        p.setColor(QPalette::BrightText, QColor(0xff, 0x55, 0x55));
        p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
        p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xc4));
        p.setColor(QPalette::HighlightedText, Qt::white);
        p.setColor(QPalette::Mid, QColor(0x45, 0x49, 0x50));
        p.setColor(QPalette::Dark, QColor(0x18, 0x1a, 0x1e));
        p.setColor(QPalette::Light, QColor(0x45, 0x49, 0x50));
        p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
        p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
        p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    } else {
        const QColor window(0xf3, 0xf4, 0xf6), text(0x1f, 0x23, 0x28);
        p.setColor(QPalette::Window, window);
        p.setColor(QPalette::WindowText, text);
        p.setColor(QPalette::Base, Qt::white);
        p.setColor(QPalette::AlternateBase, QColor(0xf7, 0xf8, 0xfa));
        p.setColor(QPalette::ToolTipBase, QColor(0xff, 0xff, 0xee));
        p.setColor(QPalette::ToolTipText, text);
        p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x90, 0x96));
        p.setColor(QPalette::Text, text);
        p.setColor(QPalette::Button, QColor(0xfa, 0xfb, 0xfc));
        p.setColor(QPalette::ButtonText, text);
        p.setColor(QPalette::BrightText, QColor(0xc0, 0x10, 0x10));
        p.setColor(QPalette::Link, QColor(0x0b, 0x5c, 0xc4));
        p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xc4));
        p.setColor(QPalette::HighlightedText, Qt::white);
        p.setColor(QPalette::Mid, QColor(0xc8, 0xcc, 0xd2));
        p.setColor(QPalette::Dark, QColor(0xa0, 0xa4, 0xaa));
        p.setColor(QPalette::Light, Qt::white);
        p.setColor(QPalette::Disabled, QPalette::Text, QColor(0xa0, 0xa0, 0xa0));
        p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0xa0, 0xa0, 0xa0));
        p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0xa0, 0xa0, 0xa0));
    }
    return p;
}

} // namespace lanemap::gui
