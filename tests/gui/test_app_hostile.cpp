// The app against hostile flags, settings and disks: usage errors exit 2 and say why, screenshots are written
// like every export (atomic, old file kept), a corrupt settings file never crashes the start, and a failed or
// signalled save is not silent.
#include "gui_test_support.hpp"
#include "preferences.hpp"

#include "lanemap/catalog.hpp"

#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <grp.h>
#include <pwd.h>
#include <set>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace test_app_hostile {

namespace fs = std::filesystem;
using namespace lanemap::gui;
using lanemap::Operand;
using lanemap::gui::test::compareView;

namespace {

struct AppRun {
    int code;
    std::string err;
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), {}};
}

class AppHostile : public ::testing::Test {
  protected:
    void SetUp() override {
        m_dir = fs::temp_directory_path() / ("lanemap-app-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    // The app binary through the shell (offscreen, settings in the test folder), stderr captured.
    AppRun app(const std::string& arguments, const std::string& prefix = {}) const {
        const fs::path errFile = m_dir / "stderr.txt";
        const std::string command = "cd '" + m_dir.string() + "' && " + prefix +
                                    " QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME='" + m_dir.string() +
                                    "/config' " + LANEMAP_GUI_BINARY + " " + arguments + " 2>'" +
                                    errFile.string() + "'";
        const int status = std::system(("sh -c \"" + command + "\"").c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), slurp(errFile)};
    }
    fs::path m_dir;
};

TEST_F(AppHostile, UsageErrorsExit2AndSayWhy) {
    AppRun r = app("--bogus-option");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("bogus-option"), std::string::npos) << r.err;
    fs::create_directories(m_dir / "folder");
    for (const auto& [target, reason] : {std::pair{std::string("missing/s.png"), std::string("No such file")},
                                         std::pair{std::string("folder"), std::string("is a directory")},
                                         std::pair{std::string("''"), std::string("empty file name")}}) {
        r = app("--spec mma.m16n8k16.f16 --screenshot " + target);
        EXPECT_EQ(r.code, 2) << target << ": " << r.err;
        EXPECT_NE(r.err.find(reason), std::string::npos) << target << ": " << r.err;
    }
}

TEST_F(AppHostile, HelpNamesEveryFamilyOfTheCatalog) {
    const AppRun r = app("--help >help.txt");
    EXPECT_EQ(r.code, 0) << r.err;
    const std::string help = slurp(m_dir / "help.txt");
    // The description lists the catalog's families ("..., tcgen05.st and tcgen05.mma operands").
    EXPECT_NE(help.find("PTX " + lanemap::familyNames(" and ") + " operands"), std::string::npos) << help;
    for (const char* family : {"wgmma.sp", "ldmatrix", "movmatrix", "wmma", "tcgen05.ld", "tcgen05.mma"})
        EXPECT_NE(help.find(family), std::string::npos) << family << " missing from:\n" << help;
    EXPECT_NE(help.find("Tensor Memory"), std::string::npos) << help;
}

TEST_F(AppHostile, OversizedWindowIsRejectedNotCrashed) {
    for (const char* size : {"100000x100000", "16777215x200", "60000x60000"}) {
        const AppRun r = app(std::string("--spec mma.m16n8k16.f16 --size ") + size + " --screenshot s.png");
        EXPECT_EQ(r.code, 2) << size << ": " << r.err;
        EXPECT_NE(r.err.find("bad --size"), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(m_dir / "s.png"));
}

TEST_F(AppHostile, HoverMustNameNumbers) {
    for (const char* hover : {"A:foo,bar", "A:4294967296,0", "A:-1,0", "A:1"}) {
        const AppRun r = app(std::string("--spec mma.m16n8k16.f16 --hover ") + hover + " --screenshot s.png");
        EXPECT_EQ(r.code, 2) << hover;
        EXPECT_NE(r.err.find("bad --hover"), std::string::npos) << hover << ": " << r.err;
    }
}

// A file-size limit stands in for a full disk: the write fails part-way, as on a full tmpfs. SIGXFSZ keeps
// its default action (ending the process), as in a user's shell: the writer must keep it from killing the
// app.
TEST_F(AppHostile, ScreenshotOnAFullDiskKeepsTheOldFile) {
    std::ofstream(m_dir / "old.png") << "the old picture";
    const AppRun r = app("--spec mma.m16n8k16.f16 --screenshot old.png", "ulimit -f 16;");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(m_dir / "old.png"), "the old picture");
    for (const auto& e : fs::directory_iterator(m_dir))
        EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

// --screenshot /dev/stdout is the stream the shell opened: `>> log` appends the PNG to the log, it does not
// replace the log with it.
TEST_F(AppHostile, ScreenshotToStandardOutputAppendsWhereTheShellAppends) {
    std::ofstream(m_dir / "log") << "LOG\n";
    const AppRun r = app("--spec mma.m16n8k16.f16 --screenshot /dev/stdout >>log");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(slurp(m_dir / "log").substr(0, 8), "LOG\n\x89PNG");
}

TEST_F(AppHostile, ScreenshotThroughALinkKeepsTheLink) {
    std::ofstream(m_dir / "real.png") << "old";
    fs::create_symlink("real.png", m_dir / "link.png");
    const AppRun r = app("--spec mma.m16n8k16.f16 --screenshot link.png");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(m_dir / "link.png"));
    EXPECT_EQ(slurp(m_dir / "real.png").substr(1, 3), "PNG");
}

QByteArray geometryOf(int width, int height) {
    QByteArray bytes;
    QDataStream out(&bytes, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_4_0);
    const QRect rect(10, 10, width, height);
    out << quint32(0x1D9D0CB) << quint16(3) << quint16(0) << rect << rect << qint32(0) << quint8(0)
        << quint8(0) << qint32(1920) << rect;
    return bytes;
}

TEST(SettingsHostile, ImpossibleValuesAreDroppedNotFatal) {
    QTemporaryDir dir;
    QSettings s(dir.filePath(QStringLiteral("p.ini")), QSettings::IniFormat);
    s.setValue(QStringLiteral("last/geometry"), geometryOf(99999, 99999));
    s.setValue(QStringLiteral("last/windowState"), QByteArray("state"));
    s.setValue(QStringLiteral("last/spec"), QString(1 << 20, QLatin1Char('m')));
    s.setValue(QStringLiteral("last/selector"), 99);
    s.setValue(QStringLiteral("last/pinnedThread"), QStringLiteral("notanint"));
    const Preferences p = loadPreferences(s);
    EXPECT_TRUE(p.geometry.isEmpty());
    EXPECT_TRUE(p.windowState.isEmpty());
    EXPECT_EQ(p.spec, Preferences().spec);
    EXPECT_EQ(p.selector, 0);
    EXPECT_EQ(p.pinnedThread, -1);
    s.setValue(QStringLiteral("last/geometry"), geometryOf(800, 600));
    EXPECT_EQ(loadPreferences(s).geometry, geometryOf(800, 600)) << "a sane geometry is kept";
}

TEST(SettingsHostile, FailedSaveIsReportedAndShown) {
    QTemporaryDir dir;
    // The settings path is a folder: nothing can be written there, not even by root.
    ASSERT_TRUE(QDir(dir.path()).mkdir(QStringLiteral("lanemap.ini")));
    QSettings s(dir.filePath(QStringLiteral("lanemap.ini")), QSettings::IniFormat);
    EXPECT_NE(savePreferences(s, Preferences()).indexOf(QStringLiteral("could not save the settings")), -1);
    MainWindow::Options o;
    o.settings = &s;
    o.restore = false;
    MainWindow window(o);
    window.show();
    window.close();
    EXPECT_NE(window.statusBar()->currentMessage().indexOf(QStringLiteral("could not save the settings")),
              -1);
}

// A start with a crash-grade geometry in the settings, then SIGTERM: no crash, and the view is saved.
TEST_F(AppHostile, CorruptGeometryStartsAndSigtermSaves) {
    fs::create_directories(m_dir / "config" / "lanemap");
    {
        QSettings s(QString::fromStdString((m_dir / "config" / "lanemap" / "lanemap.conf").string()),
                    QSettings::IniFormat);
        s.setValue(QStringLiteral("last/geometry"), geometryOf(99999, 99999));
        s.setValue(QStringLiteral("last/spec"), QStringLiteral("mma.m16n8k8.tf32"));
    }
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
        ::setenv("XDG_CONFIG_HOME", (m_dir / "config").c_str(), 1);
        const int devnull = ::open("/dev/null", O_WRONLY);
        ::dup2(devnull, STDERR_FILENO);
        ::execl(LANEMAP_GUI_BINARY, LANEMAP_GUI_BINARY, static_cast<char*>(nullptr));
        ::_exit(127);
    }
    // Wait until the app catches SIGTERM (its SigCgt mask in /proc), or until it is gone.
    const std::string statusFile = "/proc/" + std::to_string(child) + "/status";
    int status = 0;
    bool exited = false;
    // At most 20 s: an app that never catches SIGTERM gets it anyway (and the test fails on how it ended).
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(child, &status, WNOHANG) == child) {
            exited = true;
            break;
        }
        std::istringstream lines(slurp(statusFile));
        std::string line;
        unsigned long long caught = 0;
        while (std::getline(lines, line))
            if (line.rfind("SigCgt:", 0) == 0)
                caught = std::stoull(line.substr(7), nullptr, 16);
        if (caught & (1ull << (SIGTERM - 1)))
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!exited) {
        std::this_thread::sleep_for(
            std::chrono::milliseconds(500)); // let it reach the event loop (not required)
        ::kill(child, SIGTERM);
        ASSERT_EQ(::waitpid(child, &status, 0), child);
    }
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    EXPECT_EQ(WEXITSTATUS(status), 0);
    QSettings saved(QString::fromStdString((m_dir / "config" / "lanemap" / "lanemap.conf").string()),
                    QSettings::IniFormat);
    EXPECT_EQ(saved.value(QStringLiteral("last/spec")).toString(), QStringLiteral("mma.m16n8k8.tf32"));
    EXPECT_NE(saved.value(QStringLiteral("last/geometry")).toByteArray(), geometryOf(99999, 99999))
        << "the corrupt geometry was not replaced on SIGTERM";
}

// Starts the app in a child (offscreen, stderr to `errFile`, `setup` run first in the child), waits until it
// catches SIGTERM, sends it; how it ended (128 + signal when killed).
int startAndTerminate(const std::function<void()>& setup, const fs::path& errFile) {
    const pid_t child = ::fork();
    if (child == 0) {
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
        setup();
        const int log = ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
        ::dup2(log, STDERR_FILENO);
        ::execl(LANEMAP_GUI_BINARY, LANEMAP_GUI_BINARY, static_cast<char*>(nullptr));
        ::_exit(127);
    }
    const std::string statusFile = "/proc/" + std::to_string(child) + "/status";
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        if (::waitpid(child, &status, WNOHANG) == child)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::istringstream lines(slurp(statusFile));
        std::string line;
        unsigned long long caught = 0;
        while (std::getline(lines, line))
            if (line.rfind("SigCgt:", 0) == 0)
                caught = std::stoull(line.substr(7), nullptr, 16);
        if (caught & (1ull << (SIGTERM - 1)))
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500)); // let it reach the event loop
    ::kill(child, SIGTERM);
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Qt parses the whole settings file at start and writes all of it back on every save: with 20 MB of it,
// SIGTERM took seconds to save. A file larger than lanemap ever writes is left as it is and not used.
TEST_F(AppHostile, AHugeSettingsFileIsLeftAloneAndUnused) {
    const fs::path file = m_dir / "config" / "lanemap" / "lanemap.conf";
    fs::create_directories(file.parent_path());
    {
        std::ofstream out(file);
        out << "[last]\nspec=mma.m16n8k8.tf32\n[junk]\n";
        for (int i = 0; out.tellp() < (20 << 20); ++i)
            out << "key" << i << "=value" << i << '\n';
    }
    const std::string before = slurp(file);
    const int code = startAndTerminate([&] { ::setenv("XDG_CONFIG_HOME", (m_dir / "config").c_str(), 1); },
                                       m_dir / "err.txt");
    EXPECT_EQ(code, 0);
    const std::string err = slurp(m_dir / "err.txt");
    EXPECT_NE(err.find("more than lanemap ever writes"), std::string::npos) << err;
    EXPECT_TRUE(slurp(file) == before) << "the settings file was rewritten";
}

// Whether user 65534 can run the app binary: a checkout inside a folder only its owner may enter (mktemp -d)
// keeps it out, and exec then fails as nobody (exit 127) — a fact of the machine, not of lanemap.
bool runnableAsNobody() {
    const pid_t child = ::fork();
    if (child == 0) {
        if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0)
            ::_exit(2);
        ::_exit(::access(LANEMAP_GUI_BINARY, X_OK) == 0 ? 0 : 1);
    }
    int status = 0;
    return child > 0 && ::waitpid(child, &status, 0) == child && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
}

// With HOME unset Qt placed the settings at the filesystem root, /.config/lanemap/lanemap.conf; the home
// folder of the user's passwd entry is used instead. Run as nobody, whose home does not exist, so nothing of
// this machine's users is touched: the failed save names the file it tried.
TEST_F(AppHostile, WithoutHomeTheSettingsGoToThePasswdHome) {
    const passwd* nobody = ::getpwuid(65534);
    if (::geteuid() != 0 || !nobody || !nobody->pw_dir || fs::exists(nobody->pw_dir))
        GTEST_SKIP() << "needs root and a user 65534 whose home folder does not exist";
    if (!runnableAsNobody())
        GTEST_SKIP() << "user 65534 cannot run " << LANEMAP_GUI_BINARY
                     << " (a folder above it is closed to other users)";
    const std::string home = nobody->pw_dir;
    fs::permissions(m_dir, fs::perms::all); // the child, as nobody, writes its log here
    const int code = startAndTerminate(
        [&] {
            ::unsetenv("HOME");
            ::unsetenv("XDG_CONFIG_HOME");
            if (::chdir(m_dir.c_str()) != 0 || ::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 ||
                ::setuid(65534) != 0)
                ::_exit(126);
        },
        m_dir / "err.txt");
    EXPECT_EQ(code, 0);
    const std::string err = slurp(m_dir / "err.txt");
    EXPECT_NE(err.find("could not save the settings to " + home + "/.config/lanemap/lanemap.conf"),
              std::string::npos)
        << err;
    EXPECT_EQ(err.find("to /.config/"), std::string::npos) << err;
}

// Compare draws one operand on both sides: a pair where one side lacks the operand picked (ldmatrix and
// tcgen05.ld hold only D, a tcgen05.mma view none) threw std::invalid_argument and ended the app, 40 of the
// 121 family pairs. Now the operand both hold is compared, or the summary says there is none.
TEST(CompareHostile, EveryFamilyPairComparesWhatBothHold) {
    std::vector<std::string> specs; // the first variant of each family
    std::set<const lanemap::Family*> seen;
    for (const lanemap::Variant* v : lanemap::Catalog::instance().variants())
        if (seen.insert(v->family).second)
            specs.push_back(v->spec);
    ASSERT_GE(specs.size(), 11u);
    lanemap::gui::test::Window w;
    for (const std::string& mine : specs)
        for (const std::string& other : specs) {
            ASSERT_TRUE(w->openSpec(QString::fromStdString(mine))) << mine;
            w->viewState()->setCompareOperand(Operand::A);
            // Compared, or refused with why (issue 38: no compare of nothing).
            QString error;
            bool compared = false;
            ASSERT_NO_THROW(compared = w->setCompare(QString::fromStdString(other), &error))
                << mine << " vs " << other;
            const QString summary = w->findChild<QLabel*>(QStringLiteral("compareSummary"))->text();
            // A TMA box and a wgmma/tcgen05.mma compare in shared memory (docs/tma.md#feeds).
            EXPECT_TRUE(compared ? summary.contains(QStringLiteral("Comparing operand")) ||
                                       summary.contains(QStringLiteral("Comparing in shared memory"))
                                 : error.contains(QStringLiteral("no operand in common")))
                << mine << " vs " << other << ": " << summary.toStdString() << error.toStdString();
            ASSERT_TRUE(w->setCompare(QString()));
        }
    ASSERT_TRUE(w->openSpec(QStringLiteral("ldmatrix.m8n8.x4.b16")));
    ASSERT_TRUE(w->setCompare(QStringLiteral("mma.m16n8k16.f16")));
    EXPECT_TRUE(
        w->findChild<QLabel*>(QStringLiteral("compareSummary"))->text().contains(QStringLiteral("<b>D</b>")));
    ASSERT_NE(compareView(*w, 0), nullptr);
    QString error;
    EXPECT_FALSE(w->setCompare(QStringLiteral("tcgen05.mma.cta_group::1.kind::f16.m128n16"), &error));
    EXPECT_TRUE(error.contains(QStringLiteral("no operand in common"))) << error.toStdString();
}

// Settings are never fatal: a saved pair that shares no operand A (each spec valid alone) crashed every
// start.
TEST(CompareHostile, ASavedPairWithoutOperandAStarts) {
    lanemap::gui::test::Window w;
    w.window.reset();
    w.settings->setValue(QStringLiteral("last/spec"), QStringLiteral("ldmatrix.m8n8.x4.b16"));
    w.settings->setValue(QStringLiteral("last/compareSpec"), QStringLiteral("tcgen05.ld.32x32b.x1"));
    w.settings->sync();
    ASSERT_NO_THROW(w.open(true));
    EXPECT_NE(compareView(*w, 0), nullptr);
}

TEST_F(AppHostile, CompareScreenshotOfAPairWithoutOperandA) {
    const AppRun r = app("--spec ldmatrix.m8n8.x4.b16 --compare mma.m16n8k16.f16 --screenshot x.png");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(m_dir / "x.png"));
}

} // namespace

} // namespace test_app_hostile
