#include "compiler/text/lexer.h"

#include <string>

#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(LexerTest, SkipsWhitespaceAndComments) {
  Lexer lexer("  // line comment\n /* block\n comment */ %x");
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_EQ(lexer.Peek(), '%');
  EXPECT_EQ(lexer.LexName(), "x");
  EXPECT_TRUE(lexer.AtEnd());
}

TEST(LexerTest, UnterminatedBlockCommentIsAnError) {
  Lexer lexer("  /* never closed");
  absl::Status status = lexer.SkipTrivia();
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(lexer.error_offset(), 2u);
  EXPECT_NE(status.message().find("unterminated"), absl::string_view::npos);
}

TEST(LexerTest, LoneSlashIsNotTrivia) {
  Lexer lexer("/x");
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_EQ(lexer.pos(), 0u);
}

TEST(LexerTest, NamesWithAndWithoutPercent) {
  Lexer lexer("%add.1-x foo_2 % 3");
  EXPECT_EQ(lexer.LexName(), "add.1-x");
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_EQ(lexer.LexName(), "foo_2");
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  // A '%' not followed by an identifier is not a name and is not consumed.
  const size_t before = lexer.pos();
  EXPECT_EQ(lexer.LexName(), "");
  EXPECT_EQ(lexer.pos(), before);
}

TEST(LexerTest, AttributeNamesStopAtDot) {
  Lexer lexer("control-predecessors={");
  EXPECT_EQ(lexer.LexAttributeName(), "control-predecessors");
  EXPECT_EQ(lexer.Peek(), '=');
}

TEST(LexerTest, Keywords) {
  Lexer lexer("ROOT ROOTS");
  EXPECT_TRUE(lexer.AtKeyword("ROOT"));
  lexer.set_pos(5);
  EXPECT_FALSE(lexer.AtKeyword("ROOT"));
}

TEST(LexerTest, Integers) {
  Lexer lexer(
      "42 -7 9223372036854775807 -9223372036854775808 "
      "9223372036854775808");
  EXPECT_EQ(*lexer.LexInt64(), 42);
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_EQ(*lexer.LexInt64(), -7);
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_EQ(*lexer.LexInt64(), INT64_MAX);
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_EQ(*lexer.LexInt64(), INT64_MIN);
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_FALSE(lexer.LexInt64().ok());
  Lexer not_a_number("x");
  EXPECT_FALSE(not_a_number.LexInt64().ok());
}

TEST(LexerTest, QuotedStrings) {
  Lexer lexer(R"("a\"b" "open)");
  absl::StatusOr<absl::string_view> s = lexer.LexQuotedString();
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, R"("a\"b")");
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_FALSE(lexer.LexQuotedString().ok());
}

TEST(LexerTest, RawValues) {
  Lexer lexer(R"({a={b="}"}, c=1} "q" token, {)");
  absl::StatusOr<absl::string_view> braced = lexer.LexRawValue(8);
  ASSERT_TRUE(braced.ok());
  EXPECT_EQ(*braced, R"({a={b="}"}, c=1})");
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_EQ(*lexer.LexRawValue(8), "\"q\"");
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_EQ(*lexer.LexRawValue(8), "token");
  EXPECT_TRUE(lexer.TryConsume(','));
  ASSERT_TRUE(lexer.SkipTrivia().ok());
  EXPECT_FALSE(lexer.LexRawValue(8).ok());  // unbalanced
}

TEST(LexerTest, RawValueBackslashOutsideStrings) {
  Lexer lexer(R"({mesh = #sdy.mesh<[\"x\"=2]>}} rest)");
  absl::StatusOr<absl::string_view> raw = lexer.LexRawValue(8);
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(*raw, R"({mesh = #sdy.mesh<[\"x\"=2]>})");
}

TEST(LexerTest, RawValueDepthLimit) {
  std::string deep(1000, '{');
  deep += std::string(1000, '}');
  Lexer lexer(deep);
  EXPECT_FALSE(lexer.LexRawValue(256).ok());
  Lexer ok_lexer(deep);
  EXPECT_TRUE(ok_lexer.LexRawValue(1000).ok());
}

TEST(LexerTest, Positions) {
  Lexer lexer("ab\ncd\n\nef");
  EXPECT_EQ(lexer.Position(0).line, 1);
  EXPECT_EQ(lexer.Position(1).column, 2);
  EXPECT_EQ(lexer.Position(4).line, 2);
  EXPECT_EQ(lexer.Position(4).column, 2);
  EXPECT_EQ(lexer.Position(8).line, 4);
  EXPECT_EQ(lexer.Position(8).column, 2);
  // Going backwards works too.
  EXPECT_EQ(lexer.Position(3).line, 2);
  EXPECT_EQ(lexer.Position(3).column, 1);
  // Past the end clamps.
  EXPECT_EQ(lexer.Position(100).line, 4);
}

}  // namespace
}  // namespace kiln
