#pragma once
// Internal: the scanner the layout readers share (lanemap/layout_in.hpp). It walks the pasted text once and
// throws a Failure naming the byte offset and what would have been valid there; read() turns it into a
// ReadError with the line and column.

#include "lanemap/excerpt.hpp"
#include "lanemap/layout_in.hpp"

#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace lanemap::layout_in::detail {

struct Failure {
    std::size_t offset = std::string_view::npos;
    std::string message;
};

// The error a reader reports for `failure` in `text`: its message, offset, and 1-based line and column.
ReadError readError(std::string_view text, const Failure& failure);

class Scanner {
  public:
    explicit Scanner(std::string_view text) : m_text(text) {}

    std::size_t pos() const { return m_pos; }
    void seek(std::size_t pos) { m_pos = pos; }
    std::size_t here() { // where the next token starts
        skipSpace();
        return m_pos;
    } // to an alias's definition and back
    std::string_view text() const { return m_text; }
    bool atEnd() {
        skipSpace();
        return m_pos >= m_text.size();
    }
    // Blanks, line breaks and C++ comments (a type copied from CUTLASS's sources keeps them).
    void skipSpace() {
        for (;;) {
            while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
                ++m_pos;
            if (m_text.substr(m_pos, 2) == "//") {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n')
                    ++m_pos;
            } else if (m_text.substr(m_pos, 2) == "/*") {
                const std::size_t end = m_text.find("*/", m_pos + 2);
                m_pos = end == std::string_view::npos ? m_text.size() : end + 2;
            } else
                return;
        }
    }
    char peek() {
        skipSpace();
        return m_pos < m_text.size() ? m_text[m_pos] : '\0';
    }
    bool eat(std::string_view token) {
        skipSpace();
        if (m_text.substr(m_pos, token.size()) != token)
            return false;
        m_pos += token.size();
        return true;
    }
    void expect(std::string_view token, std::string_view what) {
        if (!eat(token))
            fail("expected " + std::string(what));
    }
    // [A-Za-z_][A-Za-z0-9_]*, or "" (nothing consumed).
    std::string_view identifier() {
        skipSpace();
        const std::size_t start = m_pos;
        if (m_pos < m_text.size() &&
            (std::isalpha(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
            while (m_pos < m_text.size() &&
                   (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
                ++m_pos;
        return m_text.substr(start, m_pos - start);
    }
    // An optionally signed decimal integer of at most 9 digits; nullopt (nothing consumed) when none is here.
    std::optional<long> integer() {
        skipSpace();
        std::size_t p = m_pos;
        const bool negative = p < m_text.size() && m_text[p] == '-';
        if (negative)
            ++p;
        const std::size_t digits = p;
        long value = 0;
        while (p < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[p]))) {
            if (p - digits >= 9)
                throw Failure{m_pos, "the number " + excerpt(m_text.substr(m_pos, 16), 16) +
                                         " is too large (at most 9 digits)"};
            value = value * 10 + (m_text[p] - '0');
            ++p;
        }
        if (p == digits)
            return std::nullopt;
        m_pos = p;
        return negative ? -value : value;
    }
    // What is at the current position, for messages: "']'", "the end of the text".
    std::string found() {
        skipSpace();
        if (m_pos >= m_text.size())
            return "the end of the text";
        std::size_t n = 1;
        while (m_pos + n < m_text.size() && n < 12 &&
               (std::isalnum(static_cast<unsigned char>(m_text[m_pos + n])) || m_text[m_pos + n] == '_') &&
               (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
            ++n;
        return "'" + excerpt(m_text.substr(m_pos, n), 16) + "'";
    }
    [[noreturn]] void fail(const std::string& expected) {
        const std::string what = found();
        throw Failure{m_pos, expected + ", found " + what};
    }
    [[noreturn]] void failAt(std::size_t offset, const std::string& message) const {
        throw Failure{offset, message};
    }

  private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

// Readers of one notation each (read_cute.cpp, read_triton.cpp); they throw Failure.
Layout readCuteLayout(std::string_view text);
Layout readCuteType(std::string_view text);
Layout readTritonLinear(std::string_view text, const std::optional<Extent>& extent);
Layout readTritonJson(std::string_view text, const ReadOptions& options);

// The image of a Triton layout from its bases (read_triton.cpp): register, lane, warp bases [dim0, dim1].
struct Bases {
    std::vector<Coord> reg, lane, warp;
};
Layout fromBases(const Bases& bases, Notation notation);

// Where the attribute to read starts in a Triton text (read_triton.cpp): after an IR dump's alias lines
// (`#mma = #ttg.nvidia_mma<...>`, each name's definition put in `aliases`), or the last alias's definition
// when nothing follows them.
std::size_t attributeAfterAliases(std::string_view text,
                                  std::map<std::string, std::size_t, std::less<>>& aliases);

// Triton's shared-memory encodings (read_triton_shared.cpp): #ttg.nvmma_shared, #ttg.swizzled_shared,
// #ttg.shared_linear, alone or in a !ttg.memdesc<...> type. Throws Failure.
SharedLayout readTritonShared(std::string_view text, const SharedReadOptions& options);
// Whether the Triton attribute to read (after alias lines) is a shared-memory one.
bool isTritonShared(std::string_view text);

} // namespace lanemap::layout_in::detail
