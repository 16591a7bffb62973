// bitcast through tiled layouts (/work/shared/spec/tiled_layout.md): the
// operand's elements go to their memory slots, partial tiles padded (with
// zeros here), and the result reads its elements from theirs. Expected
// values come from the spec's figures and its linear-index formula, worked
// out by hand in the comments.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;

std::string Eval(const std::string& parameter_shape, const std::string& body,
                 const std::string& argument) {
  absl::StatusOr<Literal> result =
      eval_test::Run(EntryModule({parameter_shape}, body), {argument});
  if (!result.ok()) return absl::StrCat("error: ", result.status().message());
  return LiteralToString(*result);
}

std::string Printed(const std::string& text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  if (!literal.ok()) return absl::StrCat("bad literal ", text);
  return LiteralToString(*literal);
}

// "f32[rows,cols] {{0, 1, ...}, ...}" holding each element's row-major index.
std::string Iota2d(int rows, int cols) {
  std::vector<std::string> lines;
  for (int r = 0; r < rows; ++r) {
    std::vector<int> row;
    for (int c = 0; c < cols; ++c) row.push_back(r * cols + c);
    lines.push_back(absl::StrCat("{", absl::StrJoin(row, ", "), "}"));
  }
  return absl::StrCat("f32[", rows, ",", cols, "] {",
                      absl::StrJoin(lines, ", "), "}");
}

TEST(TiledBitcastTest, SpecFigure1) {
  // F32[3,5]{1,0:T(2,2)}: 2x3 tiles of 2x2, in row-major order, each tile
  // row-major inside; the last tile column and the last row are padding.
  // The spec's worked example: element (2,3) = 13 is at slot 17.
  EXPECT_EQ(Eval("f32[3,5]{1,0:T(2,2)}", "ROOT b = f32[24]{0} bitcast(p0)",
                 Iota2d(3, 5)),
            Printed("f32[24] {0, 1, 5, 6, 2, 3, 7, 8, 4, 0, 9, 0, "
                    "10, 11, 0, 0, 12, 13, 0, 0, 14, 0, 0, 0}"));
}

TEST(TiledBitcastTest, SpecFigure2RepeatedTiling) {
  // 4x8 tiled (2,4)(2,1): element (r, c) lies at slot
  // (2*(r/2) + c/4) * 8 + 2*(c%4) + r%2: a 2x4 tile is 8 slots and inside
  // it the 2x1 tiles pair an even row's element with the odd row's below.
  std::vector<int> expected(32);
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 8; ++c) {
      expected[(2 * (r / 2) + c / 4) * 8 + 2 * (c % 4) + r % 2] = r * 8 + c;
    }
  }
  EXPECT_EQ(
      Eval("f32[4,8]{1,0:T(2,4)(2,1)}", "ROOT b = f32[32]{0} bitcast(p0)",
           Iota2d(4, 8)),
      Printed(absl::StrCat("f32[32] {", absl::StrJoin(expected, ", "), "}")));
  // The first slots by hand: (0,0), (1,0), (0,1), (1,1), (0,2), ...
  EXPECT_EQ(expected[0], 0);
  EXPECT_EQ(expected[1], 8);
  EXPECT_EQ(expected[2], 1);
  EXPECT_EQ(expected[3], 9);
}

TEST(TiledBitcastTest, IntoATiledResult) {
  // f32[16] read as f32[4,4]{1,0:T(2,2)}: slot s of tile k holds the
  // element at tile k's (s/2, s%2).
  EXPECT_EQ(Eval("f32[16]", "ROOT b = f32[4,4]{1,0:T(2,2)} bitcast(p0)",
                 "f32[16] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, "
                 "15}"),
            Printed("f32[4,4] {{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, "
                    "{10, 11, 14, 15}}"));
}

TEST(TiledBitcastTest, ColumnMajorTiledAndCombinedDimensions) {
  // {0,1:T(2,2)}: dimension 0 is minor, so memory holds the transpose,
  // tiled. f32[2,4] (rows {0..3}, {4..7}) is f32[4,2] {{0,4},{1,5},{2,6},
  // {3,7}} in memory order, tiled 2x2: {0,4,1,5} then {2,6,3,7}.
  EXPECT_EQ(Eval("f32[2,4]{0,1:T(2,2)}", "ROOT b = f32[8]{0} bitcast(p0)",
                 Iota2d(2, 4)),
            Printed("f32[8] {0, 4, 1, 5, 2, 6, 3, 7}"));
  // T(*,4) merges the two dimensions of f32[2,3] into 6 and tiles by 4:
  // slots 0..5 hold the elements in row-major order, 6 and 7 are padding.
  EXPECT_EQ(Eval("f32[2,3]{1,0:T(*,4)}", "ROOT b = f32[8]{0} bitcast(p0)",
                 Iota2d(2, 3)),
            Printed("f32[8] {0, 1, 2, 3, 4, 5, 0, 0}"));
}

TEST(TiledBitcastTest, MemorySizesMustAgree) {
  // f32[3,5] tiled by 2x2 takes 24 slots, not 15: the rule refuses it.
  const std::string result = Eval(
      "f32[3,5]{1,0:T(2,2)}", "ROOT b = f32[15]{0} bitcast(p0)", Iota2d(3, 5));
  EXPECT_TRUE(absl::StrContains(result, "changes the byte size")) << result;
}

}  // namespace
}  // namespace kiln
