#pragma once
// The command examples of the documentation, for the tests that run every one of them
// (tests/cli/test_cli_doc_examples.cpp, tests/gui/test_app_doc_examples.cpp): the lines of README.md's and
// docs/**/*.md's fenced code blocks that run lanemap-cli or lanemap (after an optional "$ " prompt and
// VAR=value assignments), and the lines of the man pages' EXAMPLES sections that do. A README example that
// exited 2 (`feeds mma.sp.m16n8k32.f16 3 11`: D is 16x8) went unnoticed.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace lanemap::test {

struct DocExample {
    std::string where;             // "README.md:165"
    std::string program;           // "lanemap-cli" or "lanemap"
    std::vector<std::string> args; // after the program, shell quotes removed
    std::string comment;           // what follows " #"
    int expectedCode = 0;          // the comment starts "exit N": N; else 0
    bool synopsis = false;         // names a placeholder (SPEC, FILE, csv|md|tex): shows a form, not a run
};

namespace doc_examples_detail {

// Splits a shell command line: blanks separate words, '...' and "..." quote, a word starting with '#' starts
// the comment. False when a quote is left open.
inline bool shellSplit(const std::string& line, std::vector<std::string>& words, std::string& comment) {
    std::string word;
    bool inWord = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == ' ' || c == '\t') {
            if (inWord)
                words.push_back(word);
            word.clear();
            inWord = false;
        } else if (c == '#' && !inWord) {
            comment = line.substr(i + 1);
            comment.erase(0, comment.find_first_not_of(' '));
            break;
        } else if (c == '\'' || c == '"') {
            const std::size_t close = line.find(c, i + 1);
            if (close == std::string::npos)
                return false;
            word += line.substr(i + 1, close - i - 1);
            inWord = true;
            i = close;
        } else if (c == '\\' && i + 1 < line.size()) {
            word += line[++i];
            inWord = true;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words.push_back(word);
    return true;
}

inline bool placeholder(const std::string& word) {
    static const char* const kWords[] = {"SPEC", "SPEC1", "SPEC2", "FILE",   "F",       "DIR", "PATH",
                                         "MMA",  "SHAPE", "VALUE", "FOLDER", "OPERAND", "N"};
    return std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords) ||
           (word.find('|') != std::string::npos && word.find('=') == std::string::npos);
}

// `line` as an example, when it runs lanemap-cli or lanemap.
inline bool parseExample(std::string line, const std::string& where, std::vector<DocExample>& out) {
    line.erase(0, line.find_first_not_of(" \t"));
    if (line.rfind("$ ", 0) == 0)
        line.erase(0, 2);
    std::vector<std::string> words;
    std::string comment;
    if (!shellSplit(line, words, comment))
        return false;
    std::size_t first = 0;
    while (first < words.size() && words[first].find('=') != std::string::npos &&
           std::all_of(words[first].begin(), words[first].begin() + static_cast<long>(words[first].find('=')),
                       [](char c) { return (c >= 'A' && c <= 'Z') || c == '_'; }))
        ++first; // VAR=value before the program
    if (first >= words.size())
        return false;
    std::string program = words[first];
    if (program.rfind("build/app/", 0) == 0)
        program.erase(0, 10);
    if (program != "lanemap-cli" && program != "lanemap")
        return false;
    DocExample e;
    e.where = where;
    e.program = program;
    e.args.assign(words.begin() + static_cast<long>(first) + 1, words.end());
    e.comment = comment;
    if (comment.rfind("exit ", 0) == 0 && comment.size() > 5 && comment[5] >= '0' && comment[5] <= '9')
        e.expectedCode = comment[5] - '0';
    e.synopsis = std::any_of(e.args.begin(), e.args.end(), placeholder);
    out.push_back(std::move(e));
    return true;
}

} // namespace doc_examples_detail

// Every example, in the order of the files (README.md, docs/ sorted, packaging/man/ sorted) and lines.
inline std::vector<DocExample> docExamples(const std::filesystem::path& source) {
    namespace fs = std::filesystem;
    std::vector<fs::path> markdown{source / "README.md"}, man;
    std::vector<fs::path> docs;
    for (const auto& e : fs::recursive_directory_iterator(source / "docs"))
        if (e.path().extension() == ".md")
            docs.push_back(e.path());
    std::sort(docs.begin(), docs.end());
    markdown.insert(markdown.end(), docs.begin(), docs.end());
    for (const auto& e : fs::directory_iterator(source / "packaging" / "man"))
        man.push_back(e.path());
    std::sort(man.begin(), man.end());

    std::vector<DocExample> out;
    for (const fs::path& file : markdown) {
        std::ifstream in(file);
        std::string line;
        bool fenced = false;
        for (int number = 1; std::getline(in, line); ++number) {
            if (line.find_first_not_of(' ') != std::string::npos &&
                line.compare(line.find_first_not_of(' '), 3, "```") == 0) {
                fenced = !fenced;
                continue;
            }
            if (fenced)
                doc_examples_detail::parseExample(
                    line, fs::relative(file, source).string() + ":" + std::to_string(number), out);
        }
    }
    for (const fs::path& file : man) {
        std::ifstream in(file);
        std::string line;
        bool examples = false;
        for (int number = 1; std::getline(in, line); ++number) {
            if (line.rfind(".SH", 0) == 0)
                examples = line.find("EXAMPLES") != std::string::npos;
            else if (examples && line.rfind("lanemap", 0) == 0) {
                std::string plain; // roff writes a hyphen as \-
                for (std::size_t i = 0; i < line.size(); ++i)
                    if (!(line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '-'))
                        plain += line[i];
                doc_examples_detail::parseExample(
                    plain, fs::relative(file, source).string() + ":" + std::to_string(number), out);
            }
        }
    }
    return out;
}

} // namespace lanemap::test
