// Every lanemap-cli example of the documentation runs, with the exit code it says (README.md, docs/, the man
// page): an example that exits 2 (`feeds mma.sp.m16n8k32.f16 3 11`, D being 16x8) is a bug of the docs.
#include "cli_run.hpp"
#include "doc_examples.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <unistd.h>

namespace test_cli_doc_examples {

namespace fs = std::filesystem;
using lanemap::test::DocExample;

namespace {

// Runs with the working directory in a fresh folder (examples write out/, d.svg, ...), put back after.
class InFolder {
  public:
    explicit InFolder(const fs::path& dir) : m_previous(fs::current_path()) { fs::current_path(dir); }
    ~InFolder() { fs::current_path(m_previous); }
    InFolder(const InFolder&) = delete;
    InFolder& operator=(const InFolder&) = delete;

  private:
    fs::path m_previous;
};

TEST(DocExamples, EveryCommandLineExampleRunsWithTheExitCodeItSays) {
    const fs::path source(LANEMAP_SOURCE_DIR);
    const std::vector<DocExample> examples = lanemap::test::docExamples(source);
    const fs::path dir = lanemap::test::freshTempDir("doc-examples");
    fs::create_directories(dir);
    // What the examples read: the recorded reports (--expect), and the report a GPU run would have written.
    fs::create_directory_symlink(source / "resources", dir / "resources");
    fs::copy_file(source / "resources" / "discovery" / "h100-wmma.json", dir / "my-gpu-wmma.json");
    std::size_t run = 0;
    std::vector<std::string> synopses;
    {
        const InFolder inside(dir);
        for (const DocExample& e : examples) {
            if (e.program != "lanemap-cli")
                continue;
            if (e.synopsis) {
                synopses.push_back(e.where);
                continue;
            }
            std::vector<std::string> args = e.args;
            if (!args.empty() && args[0] == "export") {
                // export --all writes the whole catalog (400-800 MB per format; CliSvg.AllWritesOneWellFormed
                // SvgPerVariant and CliExport.AllJsonWritesOneParsableFilePerSpec run it): here one spec,
                // into the folder --all creates, with the same options.
                const auto all = std::find(args.begin(), args.end(), "--all");
                const auto output = std::find(args.begin(), args.end(), "-o");
                if (all != args.end()) {
                    *all = "mma.m16n8k16.f16";
                    if (output != args.end() && output + 1 != args.end())
                        fs::create_directories(*(output + 1));
                }
            }
            const bool gpu = !args.empty() && (args[0] == "probe" || args[0] == "discover") &&
                             std::find(args.begin(), args.end(), "--validate") == args.end();
            const lanemap::test::CliResult r = lanemap::test::runCli(args);
            ++run;
            if (gpu) // without a GPU: exit 3 once the arguments are checked
                EXPECT_TRUE(r.code == e.expectedCode || r.code == 3) << e.where << ": exit " << r.code << "\n"
                                                                     << r.err;
            else
                EXPECT_EQ(r.code, e.expectedCode) << e.where << "\n" << r.err;
        }
    }
    fs::remove_all(dir);
    // Guards the reader: a change of the docs' layout must not leave nothing to run.
    EXPECT_GE(run, 90u);
    // Synopses (SPEC, FILE, csv|md|tex) show a form; the few there are stay few.
    EXPECT_LE(synopses.size(), 2u) << ::testing::PrintToString(synopses);
}

TEST(DocExamples, TheReaderFindsQuotedArgumentsCommentsAndExitCodes) {
    std::vector<DocExample> out;
    ASSERT_TRUE(lanemap::test::doc_examples_detail::parseExample(
        "  $ LANEMAP_X=1 build/app/lanemap-cli show 'a b' \"c\" d   # exit 2: why", "x:1", out));
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].program, "lanemap-cli");
    EXPECT_EQ(out[0].args, (std::vector<std::string>{"show", "a b", "c", "d"}));
    EXPECT_EQ(out[0].expectedCode, 2);
    EXPECT_FALSE(out[0].synopsis);
    ASSERT_TRUE(lanemap::test::doc_examples_detail::parseExample("lanemap-cli export SPEC -o F", "x:2", out));
    EXPECT_TRUE(out[1].synopsis);
    EXPECT_FALSE(lanemap::test::doc_examples_detail::parseExample("cmake --build build", "x:3", out));
}

} // namespace

} // namespace test_cli_doc_examples
