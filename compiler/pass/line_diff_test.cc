#include "compiler/pass/line_diff.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(UnifiedLineDiffTest, EqualTextsGiveNoDiff) {
  EXPECT_EQ(UnifiedLineDiff("a\nb\n", "a\nb\n", "x", "y"), "");
  EXPECT_EQ(UnifiedLineDiff("", "", "x", "y"), "");
}

TEST(UnifiedLineDiffTest, OneChangedLineWithContext) {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n";
  const std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n";
  EXPECT_EQ(UnifiedLineDiff(before, after, "before", "after"),
            "--- before\n+++ after\n"
            "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
}

TEST(UnifiedLineDiffTest, InsertAndDeleteAtTheEdges) {
  EXPECT_EQ(UnifiedLineDiff("a\nb\n", "x\na\nb\n", "p", "q"),
            "--- p\n+++ q\n@@ -1,2 +1,3 @@\n+x\n a\n b\n");
  EXPECT_EQ(UnifiedLineDiff("a\nb\n", "a\n", "p", "q"),
            "--- p\n+++ q\n@@ -1,2 +1,1 @@\n a\n-b\n");
  EXPECT_EQ(UnifiedLineDiff("", "a\n", "p", "q"),
            "--- p\n+++ q\n@@ -0,0 +1,1 @@\n+a\n");
}

TEST(UnifiedLineDiffTest, FarApartChangesMakeTwoHunks) {
  std::string before, after;
  for (int i = 0; i < 20; ++i) {
    absl::StrAppend(&before, i, "\n");
    absl::StrAppend(&after,
                    i == 2    ? "two"
                    : i == 15 ? "fifteen"
                              : absl::StrCat(i),
                    "\n");
  }
  EXPECT_EQ(UnifiedLineDiff(before, after, "p", "q"),
            "--- p\n+++ q\n"
            "@@ -1,6 +1,6 @@\n 0\n 1\n-2\n+two\n 3\n 4\n 5\n"
            "@@ -13,7 +13,7 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n 17\n 18\n");
}

TEST(UnifiedLineDiffTest, InterleavedEditsAreMinimal) {
  // a b c a b b a -> c b a b a c (Myers' paper example): 5 edits.
  const std::string diff =
      UnifiedLineDiff("a\nb\nc\na\nb\nb\na\n", "c\nb\na\nb\na\nc\n", "p", "q");
  int edits = 0;
  for (absl::string_view line : absl::StrSplit(diff, '\n')) {
    if (!line.empty() && (line[0] == '+' || line[0] == '-')) ++edits;
  }
  EXPECT_EQ(edits, 2 + 5);  // The two header lines and five edits.
}

TEST(UnifiedLineDiffTest, SmallEditOfALargeTextIsFast) {
  std::string before, after;
  for (int i = 0; i < 200000; ++i) {
    absl::StrAppend(&before, "line ", i, "\n");
    absl::StrAppend(&after, i == 100000 ? "changed" : absl::StrCat("line ", i),
                    "\n");
  }
  const std::string diff = UnifiedLineDiff(before, after, "p", "q");
  EXPECT_NE(diff.find("-line 100000\n+changed\n"), std::string::npos);
}

}  // namespace
}  // namespace kiln
