#pragma once
// A window as the app opens one, for the tests of what a user sees at first sight.
#include "gui_test_support.hpp"

#include <QApplication>

#include <gtest/gtest.h>

namespace lanemap::gui::test {

// Sized, the instruction opened, then shown; the splitters and the band choice (a short timer) settled.
struct OpenedAt {
    QTemporaryDir dir;
    std::unique_ptr<QSettings> settings;
    std::unique_ptr<MainWindow> window;
    OpenedAt(QSize size, const QString& spec) {
        settings =
            std::make_unique<QSettings>(dir.filePath(QStringLiteral("lanemap.ini")), QSettings::IniFormat);
        MainWindow::Options o;
        o.settings = settings.get();
        o.restore = false;
        window = std::make_unique<MainWindow>(o);
        window->resize(size);
        EXPECT_TRUE(window->openSpec(spec));
        window->show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(window.get()));
        QApplication::processEvents();
        QTest::qWait(300);
        QApplication::processEvents();
    }
};

} // namespace lanemap::gui::test
