// The man page and the shell completions are written by hand; these tests keep them in step with the
// command line the program actually parses, so a user never meets a subcommand or option that `man
// lanemap-cli` and Tab do not know.
#include "cli_run.hpp"

#include "lanemap/catalog.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace test_cli_packaging_docs {

namespace {

using lanemap::test::runCli;

std::string readSource(const std::string& relative) {
    std::ifstream in(std::string(LANEMAP_SOURCE_DIR) + "/" + relative, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The first word of every entry in one section ("Subcommands:", "Options:") of CLI11's help; option entries
// like "--lane,--thread INT" give each name.
std::vector<std::string> helpEntries(const std::string& help, const std::string& section) {
    std::vector<std::string> names;
    std::istringstream lines(help);
    std::string line;
    bool inside = false;
    while (std::getline(lines, line)) {
        if (!line.empty() && line[0] != ' ') {
            inside = line == section;
            continue;
        }
        // Entries start two spaces in; continuation lines of long descriptions start further in.
        if (!inside || line.size() < 3 || line[2] == ' ')
            continue;
        std::string word = line.substr(2, line.find(' ', 2) - 2);
        std::istringstream parts(word);
        std::string name;
        while (std::getline(parts, name, ','))
            if (name != "-h" && name != "--help")
                names.push_back(name);
    }
    return names;
}

// The man page writes a hyphen as "\-".
std::string manEscaped(const std::string& word) {
    std::string out;
    for (char c : word)
        out += c == '-' ? std::string("\\-") : std::string(1, c);
    return out;
}

std::vector<std::string> subcommands() {
    const auto help = runCli({"--help"});
    EXPECT_EQ(help.code, 0);
    return helpEntries(help.out, "Subcommands:");
}

TEST(PackagingDocs, HelpListsTheSubcommandsThisTestChecks) {
    // Guards the parser above: if CLI11's help layout changed, the checks below would pass on nothing.
    const std::vector<std::string> names = subcommands();
    for (const char* expected :
         {"list", "show", "export", "probe", "banks", "where", "what", "feeds", "diff", "discover"})
        EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
    const auto what = runCli({"what", "--help"});
    const std::vector<std::string> options = helpEntries(what.out, "Options:");
    EXPECT_NE(std::find(options.begin(), options.end(), "--thread"), options.end()) << what.out;
}

TEST(PackagingDocs, ManPageNamesEverySubcommandAndOption) {
    const std::string man = readSource("packaging/man/lanemap-cli.1");
    ASSERT_FALSE(man.empty());
    for (const std::string& command : subcommands()) {
        EXPECT_NE(man.find(".B lanemap-cli " + command), std::string::npos) << "SYNOPSIS lacks " << command;
        EXPECT_NE(man.find(".B " + command + "\n"), std::string::npos) << "COMMANDS lacks " << command;
        const auto help = runCli({command, "--help"});
        for (const std::string& option : helpEntries(help.out, "Options:"))
            EXPECT_NE(man.find(manEscaped(option)), std::string::npos)
                << "the man page never mentions " << command << ' ' << option;
    }
}

TEST(PackagingDocs, BashAndZshCompletionOfferEverySubcommandAndOption) {
    const std::string bash = readSource("packaging/completion/lanemap-cli.bash");
    const std::string zsh = readSource("packaging/completion/_lanemap-cli");
    ASSERT_FALSE(bash.empty());
    ASSERT_FALSE(zsh.empty());
    for (const std::string& command : subcommands()) {
        EXPECT_NE(bash.find("        " + command + ") options=\""), std::string::npos)
            << "bash completion has no options for " << command;
        EXPECT_NE(zsh.find("        " + command + ")\n"), std::string::npos)
            << "zsh completion has no case for " << command;
        EXPECT_NE(zsh.find(command + "\\:\""), std::string::npos) << "zsh does not offer " << command;
        // The bash line of this command's options.
        const std::size_t at = bash.find("        " + command + ") options=\"");
        std::string bashOptions = at == std::string::npos ? "" : bash.substr(at, bash.find('\n', at) - at);
        std::replace(bashOptions.begin(), bashOptions.end(), '"', ' '); // the list sits between quotes
        const auto help = runCli({command, "--help"});
        for (const std::string& option : helpEntries(help.out, "Options:")) {
            EXPECT_NE(bashOptions.find(" " + option + " "), std::string::npos)
                << "bash does not complete " << command << ' ' << option;
            // zsh spells an option `--x[...]` or, with aliases, `{-o,--output}'[...]`.
            const bool inZsh = zsh.find(option + "[") != std::string::npos ||
                               zsh.find(option + ",") != std::string::npos ||
                               zsh.find(option + "}") != std::string::npos;
            EXPECT_TRUE(inZsh) << "zsh does not complete " << command << ' ' << option;
        }
    }
}

// What the man pages, the desktop entry and the AppStream description say lanemap covers: every family of the
// catalog, by its PTX name (a family added to the catalog and not to them fails here).
TEST(PackagingDocs, TheDescriptionsNameEveryFamilyOfTheCatalog) {
    for (const std::string file : {"packaging/man/lanemap.1", "packaging/man/lanemap-cli.1",
                                   "packaging/lanemap.metainfo.xml.in", "resources/lanemap.desktop"}) {
        const std::string text = readSource(file);
        ASSERT_FALSE(text.empty()) << file;
        for (const lanemap::Family* family : lanemap::families()) {
            std::string name(family->name);
            std::string escaped;
            for (const char c : name)
                escaped += c == '.' ? std::string("\\.") : std::string(1, c);
            // The name as a word: not inside wgmma, not the start of mma.sp.
            const std::regex word("(^|[^A-Za-z0-9_.])" + escaped + "(?![A-Za-z0-9_:]|\\.[A-Za-z0-9])");
            EXPECT_TRUE(std::regex_search(text, word)) << file << " does not name " << name;
        }
    }
    EXPECT_NE(lanemap::familyNames().find("tcgen05.mma"), std::string::npos);
}

} // namespace

} // namespace test_cli_packaging_docs
