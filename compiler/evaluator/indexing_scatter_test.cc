// scatter. Expected values are worked out by hand from the spec's index
// formulas (operation_semantics.md, Scatter); the comments show the
// arithmetic.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::LiteralText;
using eval_test::RunToText;

// An expected value written as literal text, in RunToText's form.
std::string Norm(const std::string& text) {
  absl::StatusOr<Literal> literal = ParseLiteral(text);
  return literal.ok()
             ? LiteralText(*literal)
             : "bad expectation: " + std::string(literal.status().message());
}

// Combiners over scalars of `type`: add, keep the update (last write wins),
// and 2 * old + update (not commutative, so it shows the order).
std::string Combiners(const std::string& type) {
  const std::string t = type + "[]";
  return "add {\n  a = " + t + " parameter(0)\n  b = " + t +
         " parameter(1)\n  ROOT r = " + t + " add(a, b)\n}\n" +
         "keep {\n  a = " + t + " parameter(0)\n  ROOT b = " + t +
         " parameter(1)\n}\n" + "twice {\n  a = " + t +
         " parameter(0)\n  b = " + t + " parameter(1)\n  s = " + t +
         " add(a, a)\n  ROOT r = " + t + " add(s, b)\n}\n";
}

std::string ScatterModule(const std::string& type, const std::string& operand,
                          const std::string& indices,
                          const std::string& updates, const std::string& dims) {
  return EntryModule({operand, indices, updates},
                     "ROOT s = " + operand + " scatter(p0, p1, p2), " + dims,
                     Combiners(type));
}

constexpr char kRows[] =
    "update_window_dims={1}, inserted_window_dims={0}, "
    "scatter_dims_to_operand_dims={0}, index_vector_dim=1";
constexpr char kM[] = "s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}";

// Rows 0 and 2 get the updates added.
TEST(ScatterTest, AddsRows) {
  EXPECT_EQ(
      RunToText(ScatterModule("s32", "s32[3,3]", "s32[2]", "s32[2,3]",
                              std::string(kRows) + ", to_apply=add"),
                {kM, "s32[2] {0, 2}", "s32[2,3] {{10, 20, 30}, {70, 80, 90}}"}),
      Norm("s32[3,3] {{11, 22, 33}, {4, 5, 6}, {77, 88, 99}}"));
}

// Three updates to row 1, combined in order: add sums them, keep leaves the
// last, twice gives ((4*2+1)*2+2)*2+3 = 43 (and 51, 59 for 5 and 6).
TEST(ScatterTest, RepeatedIndicesCombineInOrder) {
  const std::vector<std::string> args = {
      kM, "s32[3] {1, 1, 1}", "s32[3,3] {{1, 1, 1}, {2, 2, 2}, {3, 3, 3}}"};
  auto run = [&](const std::string& combiner) {
    return RunToText(
        ScatterModule("s32", "s32[3,3]", "s32[3]", "s32[3,3]",
                      std::string(kRows) + ", to_apply=" + combiner),
        args);
  };
  EXPECT_EQ(run("add"), Norm("s32[3,3] {{1, 2, 3}, {10, 11, 12}, {7, 8, 9}}"));
  EXPECT_EQ(run("keep"), Norm("s32[3,3] {{1, 2, 3}, {3, 3, 3}, {7, 8, 9}}"));
  EXPECT_EQ(run("twice"),
            Norm("s32[3,3] {{1, 2, 3}, {43, 51, 59}, {7, 8, 9}}"));
}

// Starts are not clamped and each window element is checked on its own
// (the spec's "if O is a valid index for output"): (0,1) writes columns 1-2
// of row 0; (1,2) writes column 2 of row 1 and drops its column-3 element
// (XLA would drop the whole window); (-1,0) and (3,0) are outside.
TEST(ScatterTest, OutOfBoundsElementsAreSkipped) {
  EXPECT_EQ(RunToText(ScatterModule("s32", "s32[3,3]", "s32[4,2]", "s32[4,2]",
                                    "update_window_dims={1}, "
                                    "inserted_window_dims={0}, "
                                    "scatter_dims_to_operand_dims={0,1}, "
                                    "index_vector_dim=1, to_apply=keep"),
                      {kM, "s32[4,2] {{0, 1}, {1, 2}, {-1, 0}, {3, 0}}",
                       "s32[4,2] {{50, 60}, {70, 80}, {90, 91}, {92, 93}}"}),
            Norm("s32[3,3] {{1, 50, 60}, {4, 5, 70}, {7, 8, 9}}"));
  // Unsigned indices beyond int64 are out of bounds too.
  EXPECT_EQ(
      RunToText(ScatterModule("s32", "s32[3,3]", "u64[1]", "s32[1,3]",
                              std::string(kRows) + ", to_apply=keep"),
                {kM, "u64[1] {18446744073709551615}", "s32[1,3] {{0, 0, 0}}"}),
      Norm(kM));
}

// Batching dims: update j goes to batch j of the operand.
TEST(ScatterTest, BatchingDimensions) {
  EXPECT_EQ(RunToText(ScatterModule("s32", "s32[2,3]", "s32[2,1]", "s32[2]",
                                    "update_window_dims={}, "
                                    "inserted_window_dims={1}, "
                                    "input_batching_dims={0}, "
                                    "scatter_indices_batching_dims={0}, "
                                    "scatter_dims_to_operand_dims={1}, "
                                    "index_vector_dim=1, to_apply=keep"),
                      {"s32[2,3] {{0, 0, 0}, {0, 0, 0}}", "s32[2,1] {{2}, {0}}",
                       "s32[2] {5, 7}"}),
            Norm("s32[2,3] {{0, 0, 5}, {7, 0, 0}}"));
}

// index_vector_dim = 0: the index vectors are the columns, (1,0) and (0,2).
TEST(ScatterTest, IndexVectorDimFirst) {
  EXPECT_EQ(RunToText(ScatterModule("s32", "s32[3,3]", "s32[2,2]", "s32[2]",
                                    "update_window_dims={}, "
                                    "inserted_window_dims={0,1}, "
                                    "scatter_dims_to_operand_dims={0,1}, "
                                    "index_vector_dim=0, to_apply=add"),
                      {kM, "s32[2,2] {{1, 0}, {0, 2}}", "s32[2] {100, 200}"}),
            Norm("s32[3,3] {{1, 2, 203}, {104, 5, 6}, {7, 8, 9}}"));
}

// Two operands scattered together; the combiner sees (old0, old1, up0,
// up1) and returns (old0 + up0, up1).
TEST(ScatterTest, VariadicOperands) {
  const std::string prelude =
      "pair {\n  a0 = f32[] parameter(0)\n  a1 = s8[] parameter(1)\n"
      "  b0 = f32[] parameter(2)\n  b1 = s8[] parameter(3)\n"
      "  s = f32[] add(a0, b0)\n  ROOT r = (f32[], s8[]) tuple(s, b1)\n}\n";
  const std::string hlo = EntryModule(
      {"f32[3]", "s8[3]", "s32[2]", "f32[2]", "s8[2]"},
      "ROOT s = (f32[3], s8[3]) scatter(p0, p1, p2, p3, p4), "
      "update_window_dims={}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=pair",
      prelude);
  EXPECT_EQ(
      RunToText(hlo, {"f32[3] {1, 2, 3}", "s8[3] {0, 0, 0}", "s32[2] {2, 2}",
                      "f32[2] {0.5, 0.25}", "s8[2] {-1, -2}"}),
      Norm("(f32[3], s8[3]) ({1, 2, 3.75}, {0, 0, -2})"));
}

TEST(ScatterTest, SubByteAndComplexElements) {
  // s4: 6 + 1 + 1 = 8 wraps to -8.
  EXPECT_EQ(RunToText(ScatterModule("s4", "s4[2]", "s32[2]", "s4[2]",
                                    "update_window_dims={}, "
                                    "inserted_window_dims={0}, "
                                    "scatter_dims_to_operand_dims={0}, "
                                    "index_vector_dim=1, to_apply=add"),
                      {"s4[2] {6, 0}", "s32[2] {0, 0}", "s4[2] {1, 1}"}),
            Norm("s4[2] {-8, 0}"));
  EXPECT_EQ(RunToText(ScatterModule("c64", "c64[2]", "s32[1]", "c64[1]",
                                    "update_window_dims={}, "
                                    "inserted_window_dims={0}, "
                                    "scatter_dims_to_operand_dims={0}, "
                                    "index_vector_dim=1, to_apply=add"),
                      {"c64[2] {(1, 1), (2, 2)}", "s32[1] {1}",
                       "c64[1] {(0.5, -3)}"}),
            Norm("c64[2] {(1, 1), (2.5, -1)}"));
}

TEST(ScatterTest, CombinerErrorsPropagate) {
  const std::string prelude =
      "bad {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = f32[] custom-call(a, b), custom_call_target=\"nowhere\"\n}\n";
  const std::string hlo =
      EntryModule({"f32[2]", "s32[1]", "f32[1]"},
                  "ROOT s = f32[2] scatter(p0, p1, p2), update_window_dims={}, "
                  "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
                  "index_vector_dim=1, to_apply=bad",
                  prelude);
  const std::string result =
      RunToText(hlo, {"f32[2] {1, 2}", "s32[1] {0}", "f32[1] {3}"});
  EXPECT_TRUE(absl::StartsWith(result, "error: ")) << result;
  EXPECT_TRUE(absl::StrContains(result, "c: ")) << result;
}

}  // namespace
}  // namespace kiln
