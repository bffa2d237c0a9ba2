// Issue 14.12 leftovers and the --timing fix: the lane filter says what it takes, the theme follows the
// desktop until the user picks one, About names the licence, compare mode times what the user sees.
#include "gui_test_support.hpp"

#include "lanemap/catalog.hpp"

#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QSignalSpy>

#include <gtest/gtest.h>

namespace test_daily_driver {

using namespace lanemap;
using namespace lanemap::gui;
using namespace lanemap::gui::test;

namespace {

TEST(DailyDriver, TheLaneFilterSaysThreadsForAWarpgroupAsItsLabelsAndLegendDo) {
    Window w;
    auto* label = w->findChild<QLabel*>(QStringLiteral("laneFilterLabel"));
    ASSERT_NE(label, nullptr);
    ASSERT_TRUE(w->openSpec(QStringLiteral("wgmma.m64n8k16.f16")));
    // Labels are T<thread> 0..127 and the legend says colour = lane (thread % 32): the filter takes threads
    // and says so.
    EXPECT_EQ(label->text().trimmed(), QStringLiteral("Threads"));
    auto* edit = w->findChild<QLineEdit*>(QStringLiteral("laneFilter"));
    ASSERT_NE(edit, nullptr);
    EXPECT_TRUE(edit->placeholderText().contains(QStringLiteral("0..127")))
        << edit->placeholderText().toStdString();
    EXPECT_TRUE(edit->toolTip().contains(QStringLiteral("thread % 32"))) << edit->toolTip().toStdString();
    const Diagram* a = view(*w, Operand::A)->diagram();
    ASSERT_FALSE(a->legends.empty());
    EXPECT_NE(a->legends.front().title.find("thread % 32"), std::string::npos);
    // Back on a warp instruction: lanes.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    EXPECT_EQ(label->text().trimmed(), QStringLiteral("Lanes"));
}

TEST(DailyDriver, TheThemeFollowsTheDesktopUntilTheUserPicksOne) {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("lanemap.ini")), QSettings::IniFormat);
    MainWindow::Options o;
    o.settings = &settings;
    o.systemTheme = Theme::Dark; // a dark desktop
    {
        MainWindow w(o);
        EXPECT_EQ(w.theme(), Theme::Dark) << "a first start follows the desktop";
        EXPECT_TRUE(w.themeFollowsSystem());
        EXPECT_LT(qApp->palette().color(QPalette::Window).lightness(), 128);
        // The user picks light: kept, and no longer following.
        w.setTheme(Theme::Light);
        EXPECT_FALSE(w.themeFollowsSystem());
        w.savePreferences();
    }
    {
        MainWindow w(o);
        EXPECT_EQ(w.theme(), Theme::Light) << "an explicit choice overrides the desktop";
        w.setThemeFollowsSystem(true);
        EXPECT_EQ(w.theme(), Theme::Dark);
        w.savePreferences();
    }
    o.systemTheme = Theme::Light; // the desktop went light
    MainWindow w(o);
    EXPECT_EQ(w.theme(), Theme::Light);
    EXPECT_TRUE(w.themeFollowsSystem());
}

TEST(DailyDriver, AboutNamesTheLicence) {
    Window w;
    const QString about = w->aboutText();
    EXPECT_TRUE(about.contains(QStringLiteral("MIT licence"))) << about.toStdString();
    EXPECT_TRUE(about.contains(QStringLiteral("About Qt"))) << about.toStdString();
    // Every family of the catalog, tcgen05's included.
    EXPECT_TRUE(about.contains(QString::fromStdString(lanemap::familyNames()))) << about.toStdString();
    EXPECT_TRUE(about.contains(QStringLiteral("tcgen05.mma"))) << about.toStdString();
}

TEST(DailyDriver, CompareModeTimesThePaintTheUserSees) {
    Window w;
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    ASSERT_TRUE(w->setCompare(QStringLiteral("mma.m16n8k16.bf16")));
    QSignalSpy painted(w.window.get(), &MainWindow::firstPaint);
    // Opening another instruction while comparing: the panes behind the compare page never paint, so the
    // first paint is the compare views'.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k8.f16")));
    EXPECT_TRUE(painted.wait(5000) || painted.count() > 0) << "select -> first paint never completed";
    EXPECT_GE(w->selectToFirstPaintMs(), 0.0);
    EXPECT_FALSE(w->timingReport().contains(QStringLiteral("select -> first paint -1")))
        << w->timingReport().toStdString();
}

} // namespace

} // namespace test_daily_driver
