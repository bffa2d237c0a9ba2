// Every example of the documentation that runs the app (`lanemap --spec ... --screenshot ...`) runs, with the
// exit code it says; the lanemap-cli examples are run by tests/cli/test_cli_doc_examples.cpp.
#include "doc_examples.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace test_app_doc_examples {

namespace fs = std::filesystem;
using lanemap::test::DocExample;

namespace {

// The app binary with `args`, offscreen, in `dir` (settings there too); its exit code and stderr.
int runApp(const std::vector<std::string>& args, const fs::path& dir, std::string& err) {
    const fs::path errFile = dir / "stderr.txt";
    const pid_t child = ::fork();
    if (child == 0) {
        if (::chdir(dir.c_str()) != 0)
            ::_exit(126);
        ::setenv("QT_QPA_PLATFORM", "offscreen", 1);
        ::setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
        if (!std::freopen(errFile.c_str(), "w", stderr))
            ::_exit(126);
        std::vector<char*> argv{const_cast<char*>(LANEMAP_GUI_BINARY)};
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(LANEMAP_GUI_BINARY, argv.data());
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    std::ifstream in(errFile);
    err.assign(std::istreambuf_iterator<char>(in), {});
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(AppDocExamples, EveryAppExampleRunsWithTheExitCodeItSays) {
    const fs::path dir =
        fs::temp_directory_path() / ("lanemap-app-doc-examples-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    std::size_t run = 0;
    for (const DocExample& e : lanemap::test::docExamples(LANEMAP_SOURCE_DIR)) {
        if (e.program != "lanemap" || e.synopsis)
            continue;
        std::string err;
        EXPECT_EQ(runApp(e.args, dir, err), e.expectedCode) << e.where << "\n" << err;
        ++run;
    }
    fs::remove_all(dir);
    EXPECT_GE(run, 1u) << "no app example found: the reader no longer matches the docs";
}

} // namespace

} // namespace test_app_doc_examples
