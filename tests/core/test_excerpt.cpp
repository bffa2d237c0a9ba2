// excerpt(): how user input is quoted in every message (docs/guarantees.md): control characters escaped,
// C1 controls and bytes that are not UTF-8 too (a terminal reads U+009B and a raw 0x9b as CSI), cut between
// characters.
#include "lanemap/excerpt.hpp"

#include <gtest/gtest.h>

#include <string>

namespace test_excerpt {

using lanemap::excerpt;

TEST(Excerpt, C0ControlsAndBackslashAreEscaped) {
    EXPECT_EQ(excerpt("a\x1b[31mb\x07\n\t\r\\\x7f"), "a\\x1b[31mb\\x07\\n\\t\\r\\\\\\x7f");
}

TEST(Excerpt, C1ControlsAndBidiOverridesAreEscaped) {
    EXPECT_EQ(excerpt("\xc2\x9b"
                      "31m"),
              "\\u009b31m"); // CSI
    EXPECT_EQ(excerpt("\xc2\x80\xc2\x9f"), "\\u0080\\u009f");
    EXPECT_EQ(excerpt("x\xe2\x80\xaey"), "x\\u202ey"); // RIGHT-TO-LEFT OVERRIDE
    EXPECT_EQ(excerpt("\xc2\xa0\xc3\xa9"), "\xc2\xa0\xc3\xa9") << "U+00A0 and é are printable";
    EXPECT_EQ(excerpt("\xe2\x9c\x93 \xf0\x9f\x98\x80"), "\xe2\x9c\x93 \xf0\x9f\x98\x80");
}

TEST(Excerpt, BytesThatAreNotUtf8AreEscaped) {
    EXPECT_EQ(excerpt("\x9b"
                      "31m"),
              "\\x9b31m");                                          // a raw CSI byte
    EXPECT_EQ(excerpt("\xc0\xaf"), "\\xc0\\xaf");                   // overlong '/'
    EXPECT_EQ(excerpt("\xed\xa0\x80"), "\\xed\\xa0\\x80");          // a surrogate
    EXPECT_EQ(excerpt("\xe2\x9c"), "\\xe2\\x9c");                   // cut short
    EXPECT_EQ(excerpt("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80"); // past U+10FFFF
}

TEST(Excerpt, LongTextIsCutBetweenCharacters) {
    EXPECT_EQ(excerpt(std::string(100, 'x'), 10), "xxxxxxxxxx... (100 bytes)");
    // 9 ASCII bytes, then a 2-byte character that would end past byte 10: cut before it.
    EXPECT_EQ(excerpt(std::string(9, 'x') + "\xc3\xa9" + "yy", 10), "xxxxxxxxx... (13 bytes)");
    EXPECT_EQ(excerpt("short", 10), "short");
}

} // namespace test_excerpt
