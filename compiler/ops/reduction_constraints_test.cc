// One invalid case per constraint the spec states for the reduction family
// and its friends (operation_semantics.md: Reduce, ReduceWindow,
// SelectAndScatter, Sort, TopK, Map, Scan), each checking that the error
// names the op's section, plus a valid case per op. The table in
// docs/shape_rule_coverage_compute_control.md maps constraints to tests.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "compiler/ops/testing/rule_cases.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::ExpectRuleErrors;
using shape_test::InferError;
using shape_test::InferText;
using shape_test::Rule;
using shape_test::RuleCase;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Computations: add (f32, f32) -> f32, add_s32, argmax ((f32, s32) pairs),
// gt (f32, f32) -> pred, lt_pair (f32, f32, s32, s32) -> pred, step
// ((f32, f32) -> (f32, f32)): one input and one carry, step2: the same with
// two inputs. The entry has p = f32[4,6], q = s32[4,6], v = f32[8],
// w = f32[4], src = f32[2,3], z = f32[], zi = s32[], t = token[].
std::string Module(absl::string_view root) {
  return absl::StrCat(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
add_s32 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] add(a, b)
}
argmax {
  a = f32[] parameter(0)
  ai = s32[] parameter(1)
  b = f32[] parameter(2)
  bi = s32[] parameter(3)
  m = f32[] maximum(a, b)
  ROOT t = (f32[], s32[]) tuple(m, ai)
}
gt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GT
}
lt_pair {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ai = s32[] parameter(2)
  bi = s32[] parameter(3)
  ROOT c = pred[] compare(a, b), direction=LT
}
step {
  x = f32[] parameter(0)
  c = f32[] parameter(1)
  n = f32[] add(x, c)
  ROOT t = (f32[], f32[]) tuple(n, n)
}
step2 {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  c = f32[] parameter(2)
  n = f32[] add(x, c)
  ROOT t = (f32[], f32[]) tuple(n, n)
}
ENTRY e {
  w = f32[4] parameter(4)
  p = f32[4,6] parameter(0)
  q = s32[4,6] parameter(1)
  v = f32[8] parameter(2)
  src = f32[2,3] parameter(3)
  z = f32[] constant(0)
  zi = s32[] constant(0)
  t = token[] after-all()
  ROOT r = )",
                      root, "\n}\n");
}

TEST(ReduceConstraintsTest, EachConstraint) {
  EXPECT_EQ(
      *InferText(Module("(f32[4], s32[4]) reduce(p, q, z, zi), dimensions={1}, "
                        "to_apply=argmax")),
      "(f32[4], s32[4])");
  ExpectRuleErrors({
      {"N >= 1: operands then as many init values",
       Module("f32[4] reduce(p, q, z), dimensions={1}, to_apply=add"),
       Rule("takes N inputs then N init values, got 3 operands", "Reduce")},
      {"all inputs have the same dimensions",
       Module("(f32[4], f32[]) reduce(p, v, z, z), dimensions={1}, "
              "to_apply=argmax"),
       Rule("input 1 is f32[8], expected the dimensions of input 0 f32[4,6]",
            "Reduce")},
      {"init values are scalars of T_i",
       Module("f32[4] reduce(p, zi), dimensions={1}, to_apply=add"),
       Rule("init value 0 is s32[], expected a scalar of input 0's type",
            "Reduce")},
      {"computation is T_0.., T_0.. -> Collate(T_0..)",
       Module("f32[4] reduce(p, z), dimensions={1}, to_apply=add_s32"),
       Rule("to_apply=add_s32 has signature (s32[], s32[]) -> s32[], "
            "expected (f32[], f32[]) -> f32[]",
            "Reduce")},
      {"dimensions_to_reduce in range",
       Module("f32[4] reduce(p, z), dimensions={2}, to_apply=add"),
       Rule("dimensions {2} has dimension 2 out of range [0, 2)", "Reduce")},
      {"dimensions_to_reduce name a dimension once",
       Module("f32[4] reduce(p, z), dimensions={1,1}, to_apply=add"),
       Rule("dimensions {1,1}", "Reduce")},
  });
}

TEST(ReduceWindowConstraintsTest, EachConstraint) {
  // Size 2 stride 2, pad 1_1 and window dilation 2 on dim 1: padded 8,
  // dilated window 3 -> (8 - 3) / 2 + 1 = 3; base dilation 2 on dim 0:
  // 7 -> (7 - 2) / 1 + 1 = 6.
  EXPECT_EQ(*InferText(Module("f32[6,3] reduce-window(p, z), "
                              "window={size=2x2 stride=1x2 pad=0_0x1_1 "
                              "lhs_dilate=2x1 rhs_dilate=1x2}, to_apply=add")),
            "f32[6,3]");
  ExpectRuleErrors({
      {"N inputs then N init values",
       Module("f32[4,6] reduce-window(p, q, z), window={size=1x1}, "
              "to_apply=add"),
       Rule("takes N inputs then N init values, got 3 operands",
            "ReduceWindow")},
      {"all inputs have the same dimensions",
       Module("(f32[4,6], f32[8]) reduce-window(p, v, z, z), "
              "window={size=1x1}, to_apply=argmax"),
       Rule("input 1 is f32[8], expected the dimensions of input 0 f32[4,6]",
            "ReduceWindow")},
      {"init values are scalars of T_i",
       Module("f32[4,6] reduce-window(p, zi), window={size=1x1}, "
              "to_apply=add"),
       Rule("init value 0 is s32[], expected a scalar of input 0's type",
            "ReduceWindow")},
      {"computation signature",
       Module("f32[4,6] reduce-window(p, z), window={size=1x1}, "
              "to_apply=add_s32"),
       Rule("to_apply=add_s32 has signature", "ReduceWindow")},
      {"window_dimensions: one per dimension",
       Module("f32[4,6] reduce-window(p, z), window={size=1}, to_apply=add"),
       Rule("window has 1 dimensions, expected 2", "ReduceWindow")},
      {"window size >= 1",
       Module("f32[4,6] reduce-window(p, z), window={size=0x1}, "
              "to_apply=add"),
       Rule("window dimension 0 has size 0, expected >= 1", "ReduceWindow")},
      {"window stride >= 1",
       Module("f32[4,6] reduce-window(p, z), window={size=1x1 stride=1x0}, "
              "to_apply=add"),
       Rule("window dimension 1 has stride 0, expected >= 1", "ReduceWindow")},
      {"base dilation >= 1",
       Module("f32[4,6] reduce-window(p, z), window={size=1x1 "
              "lhs_dilate=0x1}, to_apply=add"),
       Rule("window dimension 0 has lhs_dilate 0, expected >= 1",
            "ReduceWindow")},
      {"window dilation >= 1",
       Module("f32[4,6] reduce-window(p, z), window={size=1x1 "
              "rhs_dilate=1x0}, to_apply=add"),
       Rule("window dimension 1 has rhs_dilate 0, expected >= 1",
            "ReduceWindow")},
      {"padding leaves a non-negative base",
       Module("f32[4,6] reduce-window(p, z), window={size=1x1 pad=-3_-2x0_0}, "
              "to_apply=add"),
       Rule("window dimension 0: padding makes the input size -1, expected "
            ">= 0",
            "ReduceWindow")},
  });
}

TEST(SelectAndScatterConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("f32[4,6] select-and-scatter(p, src, z), "
                              "window={size=2x2 stride=2x2}, select=gt, "
                              "scatter=add")),
            "f32[4,6]");
  ExpectRuleErrors({
      {"source has the ReduceWindow result shape",
       Module("f32[4,6] select-and-scatter(p, v, z), "
              "window={size=2x2 stride=2x2}, select=gt, scatter=add"),
       Rule("source is f32[8], expected the windowed operand shape f32[2,3]",
            "SelectAndScatter")},
      {"init_value is a scalar of the operand type",
       Module("f32[4,6] select-and-scatter(p, src, zi), "
              "window={size=2x2 stride=2x2}, select=gt, scatter=add"),
       Rule("init value is s32[], expected f32[]", "SelectAndScatter")},
      {"select is (T, T) -> pred",
       Module("f32[4,6] select-and-scatter(p, src, z), "
              "window={size=2x2 stride=2x2}, select=add, scatter=add"),
       Rule("select=add has signature (f32[], f32[]) -> f32[], expected "
            "(f32[], f32[]) -> pred[]",
            "SelectAndScatter")},
      {"scatter is (T, T) -> T",
       Module("f32[4,6] select-and-scatter(p, src, z), "
              "window={size=2x2 stride=2x2}, select=gt, scatter=gt"),
       Rule("scatter=gt has signature", "SelectAndScatter")},
      {"window has one dimension per operand dimension",
       Module("f32[4,6] select-and-scatter(p, src, z), window={size=2}, "
              "select=gt, scatter=add"),
       Rule("window has 1 dimensions, expected 2", "SelectAndScatter")},
  });
}

TEST(SortConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("(f32[4,6], s32[4,6]) sort(p, q), "
                              "dimensions={1}, to_apply=lt_pair")),
            "(f32[4,6], s32[4,6])");
  ExpectRuleErrors({
      {"n operands have the same dimensions",
       Module("(f32[4,6], f32[8]) sort(p, v), dimensions={0}, "
              "to_apply=lt_pair"),
       Rule("operand 1 is f32[8], expected the dimensions of operand 0",
            "Sort")},
      {"dimension in range",
       Module("f32[4,6] sort(p), dimensions={2}, to_apply=gt"),
       Rule("dimensions {2} has dimension 2 out of range [0, 2)", "Sort")},
      {"one sort dimension",
       Module("f32[4,6] sort(p), dimensions={0,1}, to_apply=gt"),
       Rule("dimensions={0,1} must name exactly one dimension", "Sort")},
      {"comparator takes 2n scalars, returns pred",
       Module("f32[4,6] sort(p), dimensions={1}, to_apply=add"),
       Rule("to_apply=add has signature (f32[], f32[]) -> f32[], expected "
            "(f32[], f32[]) -> pred[]",
            "Sort")},
      {"comparator parameter 2k, 2k+1 take operand k's type",
       Module("(f32[4,6], s32[4,6]) sort(p, q), dimensions={1}, "
              "to_apply=argmax"),
       Rule("to_apply=argmax has signature", "Sort")},
  });
}

TEST(TopKConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("(f32[4,2], s32[4,2]) topk(p), k=2, "
                              "largest=true")),
            "(f32[4,2], s32[4,2])");
  ExpectRuleErrors({
      {"operand has >= 1 dimension", Module("(f32[], s32[]) topk(z), k=0"),
       Rule("operand is f32[], expected at least one dimension", "TopK")},
      {"last dimension >= k", Module("(f32[4,7], s32[4,7]) topk(p), k=7"),
       Rule("k=7 must be in [0, size of the last dimension 6]", "TopK")},
      {"k is not negative", Module("(f32[4,1], s32[4,1]) topk(p), k=-1"),
       Rule("k=-1 must be in [0, size of the last dimension 6]", "TopK")},
  });
}

TEST(MapConstraintsTest, EachConstraint) {
  EXPECT_EQ(*InferText(Module("pred[4,6] map(p, p), dimensions={0,1}, "
                              "to_apply=gt")),
            "pred[4,6]");
  ExpectRuleErrors({
      {"operands have the same dimensions",
       Module("f32[4,6] map(p, v), dimensions={0,1}, to_apply=add"),
       Rule("operand 1 is f32[8] but operand 0 is f32[4,6]; map operands "
            "need equal dimensions",
            "Map")},
      {"computation takes N parameters",
       Module("f32[4,6] map(p), dimensions={0,1}, to_apply=add"),
       Rule("to_apply takes 2 parameters but map has 1 operands", "Map")},
      {"parameters are scalars of the operands' types",
       Module("s32[4,6] map(p, p), dimensions={0,1}, to_apply=add_s32"),
       Rule("to_apply parameter 0 is s32[] but must be a scalar f32 like "
            "operand 0's elements",
            "Map")},
      {"computation returns a scalar S",
       Module("f32[4,6] map(p, p), dimensions={0,1}, to_apply=step"),
       Rule("to_apply must return a scalar, got (f32[], f32[])", "Map")},
  });
}

TEST(ScanConstraintsTest, EachConstraint) {
  // One input, one carry: outputs f32[8] then the carry f32[].
  EXPECT_EQ(*InferText(Module("(f32[8], f32[]) scan(v, z), dimensions={0}, "
                              "num_carries=1, to_apply=step")),
            "(f32[8], f32[])");
  ExpectRuleErrors({
      {"inputs match to_apply's first m parameters with the scan dimension",
       Module("(f32[4,6], f32[]) scan(q, z), dimensions={0}, num_carries=1, "
              "to_apply=step"),
       Rule("to_apply=step has signature", "Scan")},
      {"inits match the last k parameters",
       Module("(f32[8], f32[]) scan(v, zi), dimensions={0}, num_carries=1, "
              "to_apply=step"),
       Rule("to_apply=step has signature", "Scan")},
      {"to_apply returns outputs then k carries",
       Module("(f32[8], f32[]) scan(v, z), dimensions={0}, num_carries=1, "
              "to_apply=add"),
       Rule("to_apply returns f32[], expected a tuple of outputs then 1 "
            "carries",
            "Scan")},
      {"the scan dimension has one size N over all inputs",
       Module("(f32[8], f32[]) scan(v, w, z), dimensions={0}, num_carries=1, "
              "to_apply=step2"),
       Rule("operand 1 is f32[4], expected the dimensions of operand 0 f32[8]",
            "Scan")},
      {"at least one input to scan",
       Module("(f32[]) scan(z), dimensions={0}, num_carries=1, to_apply=step"),
       Rule("num_carries=1 with 1 operands leaves no input to scan", "Scan")},
      {"scan dimension in range",
       Module("(f32[8], f32[]) scan(v, z), dimensions={1}, num_carries=1, "
              "to_apply=step"),
       Rule("dimensions {1} has dimension 1 out of range [0, 1)", "Scan")},
  });
}

}  // namespace
}  // namespace kiln
