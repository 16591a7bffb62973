#include "tools/cli/canonical.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

constexpr char kModule[] = R"(HloModule m

ENTRY %main (p: s32[2,3]) -> s32[3,2] {
  %p = s32[2,3]{1,0}   parameter(0)
  ROOT %t = s32[3,2]{1,0} transpose(s32[2,3]{1,0} %p), dimensions={1,0}
}
)";

TEST(FirstDifferentLineTest, CountsLinesUpToTheFirstDifference) {
  EXPECT_EQ(FirstDifferentLine("a\nb\nc", "a\nb\nc"), 0);
  EXPECT_EQ(FirstDifferentLine("a\nb\nc", "a\nx\nc"), 2);
  EXPECT_EQ(FirstDifferentLine("x", "y"), 1);
  EXPECT_EQ(FirstDifferentLine("a\nb\n", "a\nb\nc\n"), 3);
  EXPECT_EQ(FirstDifferentLine("", "a"), 1);
}

TEST(CanonicalTextTest, CanonicalPrintIsAFixedPoint) {
  absl::StatusOr<std::string> once = CanonicalText(kModule, "m.hlo");
  ASSERT_TRUE(once.ok()) << once.status();
  EXPECT_NE(*once, kModule);  // The extra spaces are gone.
  EXPECT_THAT(*once, HasSubstr("transpose("));
  absl::StatusOr<std::string> twice = CanonicalText(*once, "m.hlo");
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_EQ(*twice, *once);
}

TEST(CanonicalTextTest, ParseErrorsNameFileLineAndColumn) {
  absl::StatusOr<std::string> result = CanonicalText(
      "HloModule m\n\nENTRY %e () -> f32[] {\n  ROOT %x = f32[] bogus()\n}\n",
      "bad.hlo");
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(std::string(result.status().message()),
              MatchesRegex("bad\\.hlo:4:[0-9]+: error: .*"));
}

}  // namespace
}  // namespace kiln::cli
