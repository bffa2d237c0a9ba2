// The repository stands alone: no source, help text, caption, test or document cites a file it does not
// contain (the design notes and the PTX catalog the project started from, or the folder beside the checkout
// that held them), and every relative Markdown link in README.md and docs/ reaches an existing file and, for
// Markdown targets, an existing heading. A reader who clones lanemap must be able to follow every citation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace test_self_contained {

namespace fs = std::filesystem;

// lanemap-core-tests defines it; the fallback lets the file compile on its own.
#ifndef LANEMAP_SOURCE_DIR
#define LANEMAP_SOURCE_DIR "."
#endif

namespace {

const fs::path kRoot = fs::path(LANEMAP_SOURCE_DIR);

// Spelled in pieces so this file does not cite them itself.
const std::vector<std::string>& foreignNames() {
    static const std::vector<std::string> names{
        std::string("design") + ".md", std::string("ptx-catalog") + ".md", std::string("..") + "/shared"};
    return names;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in.good()) << "cannot open " << path;
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string relPath(const fs::path& path) {
    return fs::relative(path, kRoot).generic_string();
}

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

// Every file of the tree the product ships or tests with, except data that cannot hold a citation a reader
// follows: JSON (recorded reports, the tests' fixtures), images, and the golden SVGs (byte copies of output).
std::vector<fs::path> textFiles() {
    std::vector<fs::path> files{kRoot / "README.md"};
    for (const char* top : {"core", "gpu", "app", "tests", "docs", "resources"}) {
        const fs::path dir = kRoot / top;
        if (!fs::is_directory(dir))
            continue;
        for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator();
             ++it) {
            const fs::path& p = it->path();
            const std::string name = p.filename().string();
            if (it->is_directory()) {
                if (!name.empty() && name[0] == '.')
                    it.disable_recursion_pending();
                continue;
            }
            if (!it->is_regular_file())
                continue;
            std::string ext = p.extension().string();
            std::transform(ext.begin(), ext.end(), ext.begin(),
                           [](unsigned char c) { return std::tolower(c); });
            if (ext == ".json" || ext == ".png" || ext == ".jpg" || ext == ".ico")
                continue;
            if (ext == ".svg" && relPath(p).rfind("tests/data/golden/", 0) == 0)
                continue;
            files.push_back(p);
        }
    }
    return files;
}

// Markdown files whose links a reader follows.
std::vector<fs::path> markdownFiles() {
    std::vector<fs::path> files{kRoot / "README.md"};
    for (auto it = fs::recursive_directory_iterator(kRoot / "docs"); it != fs::recursive_directory_iterator();
         ++it)
        if (it->is_regular_file() && it->path().extension() == ".md")
            files.push_back(it->path());
    std::sort(files.begin(), files.end());
    return files;
}

// GitHub's heading anchor: lower case, spaces to '-', punctuation dropped (letters, digits, '-' and '_' kept;
// non-ASCII characters are dropped too, which is exact for every heading these documents link to), and "-1",
// "-2", ... for repeated headings.
std::string slug(std::string_view heading) {
    std::string out;
    for (char c : heading) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80)
            continue;
        if (std::isalnum(u) || c == '-' || c == '_')
            out += static_cast<char>(std::tolower(u));
        else if (c == ' ')
            out += '-';
    }
    return out;
}

// The anchors a Markdown file defines: one per ATX heading outside fenced code, and explicit <a
// id|name="...">.
std::set<std::string> anchorsOf(const fs::path& file) {
    std::set<std::string> anchors;
    std::map<std::string, int> seen;
    std::istringstream in(readFile(file));
    std::string line;
    bool fenced = false;
    static const std::regex heading(R"re(^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$)re");
    static const std::regex html(R"re(<a\s+(?:id|name)\s*=\s*"([^"]+)")re");
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0 || line.rfind("~~~", 0) == 0) {
            fenced = !fenced;
            continue;
        }
        if (fenced)
            continue;
        std::smatch m;
        if (std::regex_match(line, m, heading)) {
            const std::string base = slug(m[1].str());
            const int n = seen[base]++;
            anchors.insert(n == 0 ? base : base + "-" + std::to_string(n));
        }
        for (std::sregex_iterator it(line.begin(), line.end(), html), end; it != end; ++it)
            anchors.insert((*it)[1].str());
    }
    return anchors;
}

struct Link {
    int line = 0;
    std::string target; // as written: path[#anchor]
};

// Inline links and images `[text](target)` outside fenced code and inline code spans.
std::vector<Link> linksOf(const fs::path& file) {
    std::vector<Link> links;
    std::istringstream in(readFile(file));
    std::string line;
    bool fenced = false;
    int number = 0;
    static const std::regex link(R"re(\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\))re");
    static const std::regex code("`[^`]*`");
    while (std::getline(in, line)) {
        ++number;
        if (line.rfind("```", 0) == 0 || line.rfind("~~~", 0) == 0) {
            fenced = !fenced;
            continue;
        }
        if (fenced)
            continue;
        const std::string text = std::regex_replace(line, code, "``");
        for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it)
            links.push_back({number, (*it)[1].str()});
    }
    return links;
}

} // namespace

TEST(SelfContained, NothingCitesAFileOutsideTheRepository) {
    std::vector<std::string> found;
    std::size_t scanned = 0;
    for (const fs::path& file : textFiles()) {
        const std::string text = readFile(file);
        if (text.find('\0') != std::string::npos)
            continue; // binary
        ++scanned;
        int number = 1;
        std::size_t lineStart = 0;
        for (std::size_t i = 0; i <= text.size(); ++i) {
            if (i < text.size() && text[i] != '\n')
                continue;
            const std::string_view line(text.data() + lineStart, i - lineStart);
            for (const std::string& name : foreignNames()) {
                for (std::size_t at = line.find(name); at != std::string_view::npos;
                     at = line.find(name, at + 1)) {
                    // The name on its own, not the tail of a longer one ("re" + name is someone else's file).
                    if (name[0] != '.' && at > 0 && isWordChar(line[at - 1]))
                        continue;
                    found.push_back(relPath(file) + ":" + std::to_string(number) + ": " +
                                    std::string(line.substr(0, 200)));
                    break;
                }
            }
            ++number;
            lineStart = i + 1;
        }
    }
    EXPECT_GT(scanned, 100u) << "the walk found too few files under " << kRoot
                             << "; is LANEMAP_SOURCE_DIR right?";
    std::string list;
    for (const std::string& f : found)
        list += "\n  " + f;
    EXPECT_TRUE(found.empty())
        << found.size()
        << " citation(s) of files the repository does not contain; cite docs/reference/ "
           "instead:"
        << list;
}

TEST(SelfContained, EveryRelativeMarkdownLinkResolves) {
    std::map<fs::path, std::set<std::string>> anchorCache;
    auto anchors = [&](const fs::path& file) -> const std::set<std::string>& {
        auto it = anchorCache.find(file);
        if (it == anchorCache.end())
            it = anchorCache.emplace(file, anchorsOf(file)).first;
        return it->second;
    };
    const fs::path root = fs::weakly_canonical(kRoot);
    std::vector<std::string> broken;
    std::size_t checked = 0;
    for (const fs::path& file : markdownFiles()) {
        for (const Link& l : linksOf(file)) {
            const std::string& t = l.target;
            if (t.find("://") != std::string::npos || t.rfind("mailto:", 0) == 0)
                continue; // not relative
            ++checked;
            const std::size_t hash = t.find('#');
            const std::string path = t.substr(0, hash);
            const std::string anchor = hash == std::string::npos ? "" : t.substr(hash + 1);
            const fs::path target = path.empty() ? file : fs::weakly_canonical(file.parent_path() / path);
            const std::string where = relPath(file) + ":" + std::to_string(l.line) + ": (" + t + ")";
            const std::string rel = fs::relative(target, root).generic_string();
            if (rel.empty() || rel.rfind("..", 0) == 0) {
                broken.push_back(where + " points outside the repository");
                continue;
            }
            if (!fs::exists(target)) {
                broken.push_back(where + " names a missing file");
                continue;
            }
            if (!anchor.empty() && target.extension() == ".md" && !anchors(target).count(anchor))
                broken.push_back(where + " names a missing heading in " + rel);
        }
    }
    EXPECT_GT(checked, 0u) << "too few links found; is the Markdown scan broken?";
    std::string list;
    for (const std::string& b : broken)
        list += "\n  " + b;
    EXPECT_TRUE(broken.empty()) << broken.size() << " broken link(s):" << list;
}

// Code comments, help texts and captions cite documents by path and anchor ("docs/reference/ptx-facts.md#
// sparse-metadata", "README.md#the-command-line"): each must still exist after a heading is renamed.
TEST(SelfContained, EveryCitedDocumentAndAnchorExists) {
    std::map<fs::path, std::set<std::string>> anchorCache;
    static const std::regex cited(R"re((?:^|[^\w./-])((?:docs/[\w./-]*[\w-]|README)\.md)(?:#([\w-]+))?)re");
    std::vector<std::string> broken;
    std::size_t checked = 0;
    for (const fs::path& file : textFiles()) {
        const std::string text = readFile(file);
        if (text.find('\0') != std::string::npos)
            continue;
        std::istringstream in(text);
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            for (std::sregex_iterator it(line.begin(), line.end(), cited), end; it != end; ++it) {
                ++checked;
                const fs::path target = kRoot / (*it)[1].str();
                const std::string anchor = (*it)[2].str();
                const std::string where = relPath(file) + ":" + std::to_string(number) + ": " +
                                          (*it)[1].str() + (anchor.empty() ? "" : "#" + anchor);
                if (!fs::exists(target)) {
                    broken.push_back(where + " (no such file)");
                    continue;
                }
                if (anchor.empty())
                    continue;
                auto found = anchorCache.find(target);
                if (found == anchorCache.end())
                    found = anchorCache.emplace(target, anchorsOf(target)).first;
                if (!found->second.count(anchor))
                    broken.push_back(where + " (no such heading)");
            }
        }
    }
    EXPECT_GT(checked, 0u);
    std::string list;
    for (const std::string& b : broken)
        list += "\n  " + b;
    EXPECT_TRUE(broken.empty()) << broken.size() << " citation(s) of a missing document or heading:" << list;
}

namespace {

// "a.{json,txt}.gz" -> "a.json.gz", "a.txt.gz" (every brace group, left to right).
std::vector<std::string> expandBraces(const std::string& pattern) {
    const std::size_t open = pattern.find('{');
    const std::size_t close = open == std::string::npos ? open : pattern.find('}', open);
    if (close == std::string::npos)
        return {pattern};
    std::vector<std::string> out;
    std::string alternatives = pattern.substr(open + 1, close - open - 1) + ",";
    for (std::size_t from = 0, comma; (comma = alternatives.find(',', from)) != std::string::npos;
         from = comma + 1)
        for (const std::string& rest : expandBraces(pattern.substr(close + 1)))
            out.push_back(pattern.substr(0, open) + alternatives.substr(from, comma - from) + rest);
    return out;
}

// A file name with '*' wildcards matched whole.
bool globMatches(std::string_view glob, std::string_view name) {
    if (glob.empty())
        return name.empty();
    if (glob[0] == '*')
        return globMatches(glob.substr(1), name) || (!name.empty() && globMatches(glob, name.substr(1)));
    return !name.empty() && glob[0] == name[0] && globMatches(glob.substr(1), name.substr(1));
}

} // namespace

// docs/probe-runs holds the untouched output of the runs the documents cite, and nothing else: every
// "docs/probe-runs/<name>" written in the tree (<name> may hold '*' and {a,b} groups) names at least one file
// there, and every file there is named by one such citation. A run renamed (compressed to .gz) without its
// citation, or kept after its last citation went, fails here.
TEST(SelfContained, EveryProbeRunIsCitedAndEveryCitedRunExists) {
    const fs::path dir = kRoot / "docs" / "probe-runs";
    ASSERT_TRUE(fs::is_directory(dir)) << dir;
    std::map<std::string, int> cited; // file name -> citations naming it
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file())
            cited[entry.path().filename().string()] = 0;

    static const std::regex citation(R"re(docs/probe-runs/((?:[\w.*-]|\{[\w.,-]*\})+))re");
    std::vector<std::string> broken;
    std::size_t citations = 0;
    for (const fs::path& file : textFiles()) {
        if (relPath(file).rfind("docs/probe-runs/", 0) == 0)
            continue; // a record does not cite itself into the folder
        const std::string text = readFile(file);
        if (text.find('\0') != std::string::npos)
            continue;
        std::istringstream in(text);
        std::string line;
        int number = 0;
        while (std::getline(in, line)) {
            ++number;
            for (std::sregex_iterator it(line.begin(), line.end(), citation), end; it != end; ++it) {
                std::string pattern = (*it)[1].str();
                while (!pattern.empty() && pattern.back() == '.')
                    pattern.pop_back(); // the sentence's full stop
                if (pattern.empty())
                    continue;
                ++citations;
                for (const std::string& glob : expandBraces(pattern)) {
                    bool matched = false;
                    for (auto& [name, count] : cited)
                        if (globMatches(glob, name)) {
                            ++count;
                            matched = true;
                        }
                    if (!matched)
                        broken.push_back(relPath(file) + ":" + std::to_string(number) + ": docs/probe-runs/" +
                                         glob + " names no file");
                }
            }
        }
    }
    EXPECT_GT(citations, 10u) << "too few citations of docs/probe-runs found; is the scan broken?";
    for (const auto& [name, count] : cited)
        if (count == 0)
            broken.push_back("docs/probe-runs/" + name + " is cited nowhere (cite it where its finding is "
                                                          "stated, or remove it)");
    std::string list;
    for (const std::string& b : broken)
        list += "\n  " + b;
    EXPECT_TRUE(broken.empty()) << broken.size() << " problem(s):" << list;
}

// The anchor rule itself, on headings these documents use: a wrong slug would let broken links pass.
TEST(SelfContained, HeadingAnchorsFollowGitHub) {
    EXPECT_EQ(slug("E1"), "e1");
    EXPECT_EQ(slug("wgmma and wgmma.sp"), "wgmma-and-wgmmasp");
    EXPECT_EQ(slug("Against what users use today (CuTe `print_svg`)"),
              "against-what-users-use-today-cute-print_svg");
    EXPECT_EQ(slug("Method: observe, don't assume"), "method-observe-dont-assume");
}

} // namespace test_self_contained
