// The wmma target picker: with a second discovery report (a synthetic sm_80 one, the H100's with one fragment
// permuted) the picker appears for wmma, switching it changes who owns a drawn cell and every "observed on"
// caption, and a malformed report is refused with a plain message.
#include "gui_test_support.hpp"
#include "wmma_targets.hpp"

#include "lanemap/wmma.hpp"

#include <gtest/gtest.h>

#include <QLabel>
#include <QTemporaryDir>

#include <fstream>
#include <set>
#include <utility>

namespace test_wmma_targets {

using namespace lanemap;
using namespace lanemap::gui;
using lanemap::gui::test::named;
using lanemap::gui::test::view;
using lanemap::gui::test::Window;

namespace {
constexpr const char* kSpec = "wmma.m16n16k16.row.col.f16.f32";
constexpr const char* kPermuted = "m16n16k16.a.row.f16";

// The (lane, element) pairs the A pane draws at (row, col).
std::set<std::pair<int, int>> holders(MainWindow* w, Cell at) {
    std::set<std::pair<int, int>> out;
    const DiagramView* a = view(*w, Operand::A);
    if (!a || !a->diagram())
        return out;
    for (const DiagramCell& c : a->diagram()->cells)
        if (c.row == at.row && c.col == at.col)
            out.emplace(c.thread, c.element);
    return out;
}

bool captionSays(MainWindow* w, const std::string& words) {
    const DiagramView* a = view(*w, Operand::A);
    for (const std::string& line : a->diagram()->caption)
        if (line.find(words) != std::string::npos)
            return true;
    return false;
}

void choose(WmmaTargetPicker* picker, const QString& target) {
    const int at = picker->findText(target);
    ASSERT_GE(at, 0) << target.toStdString();
    picker->setCurrentIndex(at);
    emit picker->activated(at);
}
} // namespace

TEST(WmmaTargets, ASecondReportBringsThePickerWhichSwitchesLayoutAndCaptions) {
    QTemporaryDir dir;
    // A malformed report is refused with a message naming the file and what is wrong.
    const QString bad = dir.filePath(QStringLiteral("broken.json"));
    std::ofstream(bad.toStdString()) << "{\"format\": \"lanemap-discovery/1\", \"device\": ";
    Window w;
    ASSERT_TRUE(w->openSpec(QString::fromLatin1(kSpec)));
    WmmaTargetPicker* picker = w->findChild<WmmaTargetPicker*>();
    ASSERT_TRUE(picker);
    EXPECT_TRUE(picker->isHidden()) << "one target: nothing to pick";
    QString error;
    EXPECT_FALSE(picker->addReport(bad, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("broken.json is not a usable discovery report: ")))
        << error.toStdString();
    EXPECT_TRUE(picker->isHidden());

    // The synthetic sm_80 report: lane 0's x[0] and lane 1's x[0] of A swapped.
    wmma::DiscoveryReport report = wmma::recordedFor("sm_90")->report;
    report.sassTarget = "sm_80";
    report.device.name = "NVIDIA A100 (synthetic)";
    report.device.sm = 80;
    wmma::DiscoveredFragment* a = nullptr;
    for (wmma::DiscoveredFragment& f : report.fragments)
        if (f.form.key() == kPermuted)
            a = &f;
    ASSERT_TRUE(a);
    const Cell lane0 = a->cell(0, 0);
    std::swap(a->cells[0], a->cells[static_cast<std::size_t>(a->numElements())]);
    const QString good = dir.filePath(QStringLiteral("a100-wmma.json"));
    std::ofstream(good.toStdString()) << wmma::toJson(report);
    ASSERT_TRUE(picker->addReport(good, &error)) << error.toStdString();
    EXPECT_FALSE(picker->isHidden());
    ASSERT_EQ(picker->count(), 2);
    EXPECT_EQ(picker->itemText(0), QStringLiteral("sm_90")) << "the built-in default first";
    EXPECT_EQ(picker->target(), QStringLiteral("sm_90"));
    // The same target twice is refused.
    EXPECT_FALSE(picker->addReport(good, &error));
    EXPECT_TRUE(error.contains(QStringLiteral("already loaded"))) << error.toStdString();

    // Multiplicity is drawn: on sm_90 the f16 A fragment holds every element twice (x[i] and x[i+8]), and the
    // cell shows both holders side by side.
    EXPECT_EQ(holders(w.window.get(), lane0), (std::set<std::pair<int, int>>{{0, 0}, {0, 8}}));
    EXPECT_TRUE(captionSays(w.window.get(), "SASS sm_90"));
    choose(picker, QStringLiteral("sm_80"));
    EXPECT_EQ(w->currentSpec(), QString::fromLatin1(kSpec));
    EXPECT_FALSE(holders(w.window.get(), lane0).count({0, 0})) << "lane 0's x[0] moved on sm_80";
    EXPECT_TRUE(holders(w.window.get(), lane0).count({1, 0}));
    EXPECT_TRUE(captionSays(w.window.get(), "observed on NVIDIA A100 (synthetic), SASS sm_80"));
    EXPECT_FALSE(captionSays(w.window.get(), "SASS sm_90"));
    const auto* notes = w->findChild<QLabel*>(QStringLiteral("notes"));
    ASSERT_TRUE(notes);
    EXPECT_TRUE(notes->text().contains(QStringLiteral("SASS sm_80"))) << notes->text().toStdString();
    EXPECT_EQ(picker->target(), QStringLiteral("sm_80")) << "the picker says what is shown";

    choose(picker, QStringLiteral("sm_90"));
    EXPECT_TRUE(holders(w.window.get(), lane0).count({0, 0}));
    EXPECT_TRUE(captionSays(w.window.get(), "SASS sm_90"));

    // Other families have no target to pick.
    ASSERT_TRUE(w->openSpec(QStringLiteral("mma.m16n8k16.f16")));
    EXPECT_TRUE(picker->isHidden());
    ASSERT_TRUE(w->openSpec(QString::fromLatin1(kSpec)));
    EXPECT_FALSE(picker->isHidden());
    EXPECT_EQ(picker->target(), QStringLiteral("sm_90"))
        << "the catalog's instruction is the default target's";
}

// wmma's placements come from a discovery report, not a probe report: the status bar and the verdict line say
// where they were discovered (device, SASS target, date, the product check), never "not confirmed on
// hardware", and follow the target picked.
TEST(WmmaTargets, TheStatusSaysWhereTheCellsWereDiscovered) {
    Window w;
    ASSERT_TRUE(w->openSpec(QString::fromLatin1(kSpec)));
    const QString status = named(*w, "probeStatus")->text();
    EXPECT_TRUE(status.startsWith(
        QStringLiteral("discovered on NVIDIA H100 80GB HBM3 (SASS sm_90), driver 580.159.04, "
                       "CUDA 13.0, 2026-11-24")))
        << status.toStdString();
    EXPECT_TRUE(status.endsWith(QStringLiteral("wmma.mma through it: matches the CPU product")))
        << status.toStdString();
    const QLabel* verdict = named(*w, "verdictLegend");
    EXPECT_FALSE(verdict->isHidden());
    EXPECT_TRUE(verdict->text().contains(QStringLiteral(
        "Every cell discovered on NVIDIA H100 80GB HBM3, SASS sm_90, 2026-11-24 (recorded report "
        "h100-wmma.json, not this machine)")))
        << verdict->text().toStdString();

    QTemporaryDir dir;
    wmma::DiscoveryReport report = wmma::recordedFor("sm_90")->report;
    report.sassTarget = "sm_86"; // a target of its own: added reports stay for the process
    report.device.name = "NVIDIA RTX A6000 (synthetic)";
    report.device.sm = 86;
    report.checks.clear();
    const QString file = dir.filePath(QStringLiteral("a6000-wmma.json"));
    std::ofstream(file.toStdString()) << wmma::toJson(report);
    QString error;
    ASSERT_TRUE(w->findChild<WmmaTargetPicker*>()->addReport(file, &error)) << error.toStdString();
    choose(w->findChild<WmmaTargetPicker*>(), QStringLiteral("sm_86"));
    EXPECT_TRUE(named(*w, "probeStatus")
                    ->text()
                    .startsWith(QStringLiteral("discovered on NVIDIA RTX A6000 (synthetic) (SASS sm_86)")))
        << named(*w, "probeStatus")->text().toStdString();
    EXPECT_TRUE(
        named(*w, "probeStatus")->text().endsWith(QStringLiteral("wmma.mma through it: not checked")));
    EXPECT_TRUE(
        named(*w, "verdictLegend")->text().contains(QStringLiteral("(recorded report a6000-wmma.json")));

    // A variant without a report of either kind (Blackwell's, never run here) still says so.
    ASSERT_TRUE(w->openSpec(QStringLiteral("tcgen05.ld.32x32b.x2")));
    EXPECT_TRUE(named(*w, "probeStatus")->text().contains(QStringLiteral("not confirmed")));
}

} // namespace test_wmma_targets
