#include <string>

#include "absl/strings/match.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

std::string RoundTrip(absl::string_view text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  if (!literal.ok()) return std::string(literal.status().message());
  return literal->shape().ToString() + " " + LiteralValueToString(*literal);
}

TEST(LiteralParserTest, ShapeThenValue) {
  EXPECT_EQ(RoundTrip("f32[2] {1, 2}"), "f32[2] {1, 2}");
  EXPECT_EQ(RoundTrip("  s32[2,2] { {1, 2}, {3, 4} } "),
            "s32[2,2] { { 1, 2 }, { 3, 4 } }");
  EXPECT_EQ(RoundTrip("pred[] true"), "pred[] true");
  EXPECT_EQ(RoundTrip("f32[] -1.5"), "f32[] -1.5");
  EXPECT_EQ(RoundTrip("f32[]{} 2"), "f32[] 2");
}

TEST(LiteralParserTest, BraceGroupAfterDimsIsTheValueUnlessAValueFollows) {
  EXPECT_EQ(RoundTrip("f32[2]{1,2}"), "f32[2] {1, 2}");
  EXPECT_EQ(RoundTrip("f32[2]{0} {1, 2}"), "f32[2]{0} {1, 2}");
  EXPECT_EQ(RoundTrip("f32[2,2]{0,1} {{1,2},{3,4}}"),
            "f32[2,2]{0,1} { { 1, 2 }, { 3, 4 } }");
}

TEST(LiteralParserTest, Tuples) {
  EXPECT_EQ(RoundTrip("(f32[], s32[2]) (1.5, {1, 2})"),
            "(f32[], s32[2]) ( 1.5, {1, 2} )");
}

TEST(LiteralParserTest, Errors) {
  EXPECT_TRUE(absl::StrContains(RoundTrip("f32[2] {1, 2, 3}"), "literal"));
  EXPECT_TRUE(absl::StrContains(RoundTrip("f32[2] {1, 2} x"),
                                "unexpected text after literal"));
  EXPECT_TRUE(absl::StrContains(RoundTrip("nonsense"), "expected a shape"));
  EXPECT_TRUE(absl::StrContains(RoundTrip("s8[] 300"), "out of range"));
  EXPECT_FALSE(ParseLiteral("f32[1000000] {...}").ok());
  EXPECT_FALSE(ParseLiteral("f32[100000000] {1}", /*max_bytes=*/1024).ok());
}

}  // namespace
}  // namespace kiln
