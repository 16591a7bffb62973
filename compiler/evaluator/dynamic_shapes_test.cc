// Dynamic sizes through the evaluator (docs/evaluator_dynamic.md). Every
// dynamic value here comes from set-dimension-size on an argument whose
// padding holds large "garbage" values (100, 1000, -9, ...): a result that
// depended on the padding would show them. Expected values are worked out
// by hand from the valid elements; results print as XLA's
// Literal::ToString does ("f32[<=4](2) {1, 2}": shape, sizes, valid
// elements).
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/literal_text.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::WithSize;

// Runs the module and prints the result with its dynamic sizes.
std::string Eval(const std::vector<std::string>& parameter_shapes,
                 const std::string& body,
                 const std::vector<std::string>& arguments,
                 const std::string& prelude = "") {
  return eval_test::RunToText(EntryModule(parameter_shapes, body, prelude),
                              arguments);
}

constexpr char kAdd[] =
    "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT r = f32[] add(a, b)\n}\n";
constexpr char kMax[] =
    "max {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT r = f32[] maximum(a, b)\n}\n";
constexpr char kLess[] =
    "less {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
    "  ROOT r = pred[] compare(a, b), direction=LT\n}\n";

// Rows {1, 2 | 100, 1000} and {3, 4 | 100, 1000}: two valid columns.
constexpr char kMatrix[] = "f32[2,4] {{1, 2, 100, 1000}, {3, 4, 100, 1000}}";

TEST(DynamicSizeTest, GetDimensionSizeReadsTheSizeSetBefore) {
  for (int size : {0, 2, 4}) {
    EXPECT_EQ(Eval({"f32[4]"},
                   WithSize("f32[<=4]", 0, size,
                            "ROOT g = s32[] get-dimension-size(d), "
                            "dimensions={0}"),
                   {"f32[4] {1, 2, 3, 4}"}),
              absl::StrCat("s32[] ", size));
  }
  // The other, static dimension reads its bound.
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 3,
                          "ROOT g = s32[] get-dimension-size(d), "
                          "dimensions={0}"),
                 {kMatrix}),
            "s32[] 2");
}

TEST(DynamicSizeTest, SetDimensionSizeKeepsPaddingAndChecksTheSize) {
  EXPECT_EQ(
      Eval({"f32[4]"}, WithSize("f32[<=4]", 0, 2, "ROOT r = f32[<=4] copy(d)"),
           {"f32[4] {1, 2, 3, 4}"}),
      "f32[<=4](2) {1, 2}");
  // Raising the size again uncovers what the padding held (as in XLA).
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 1,
                          "m = s32[] constant(3)\n"
                          "  ROOT r = f32[<=4] set-dimension-size(d, m), "
                          "dimensions={0}"),
                 {"f32[4] {1, 2, 3, 4}"}),
            "f32[<=4](3) {1, 2, 3}");
  const std::string bad =
      Eval({"f32[4]"}, WithSize("f32[<=4]", 0, 5, "ROOT r = f32[<=4] copy(d)"),
           {"f32[4] {1, 2, 3, 4}"});
  EXPECT_TRUE(absl::StrContains(bad, "size 5 of dimension 0 is outside [0, 4]"))
      << bad;
}

TEST(DynamicSizeTest, ElementwiseOpsKeepTheSize) {
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 2, "ROOT r = f32[<=4] add(d, d)"),
                 {"f32[4] {1, 2, 100, 1000}"}),
            "f32[<=4](2) {2, 4}");
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 3, "ROOT r = f32[<=4] negate(d)"),
                 {"f32[4] {1, 2, 3, 1000}"}),
            "f32[<=4](3) {-1, -2, -3}");
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 2,
                          "ROOT r = pred[<=4] compare(d, d), direction=EQ"),
                 {"f32[4] {1, 2, 100, 1000}"}),
            "pred[<=4](2) {1, 1}");
}

TEST(DynamicSizeTest, StaticOperandOfTheSameBoundFollowsTheDynamicOne) {
  EXPECT_EQ(Eval({"f32[4]", "f32[4]"},
                 WithSize("f32[<=4]", 0, 2, "ROOT r = f32[<=4] add(d, p1)"),
                 {"f32[4] {1, 2, 100, 1000}", "f32[4] {10, 20, 30, 40}"}),
            "f32[<=4](2) {11, 22}");
  EXPECT_EQ(
      Eval({"f32[4]", "f32[4]", "pred[4]"},
           WithSize("f32[<=4]", 0, 3, "ROOT r = f32[<=4] select(p2, p1, d)"),
           {"f32[4] {1, 2, 3, 1000}", "f32[4] {10, 20, 30, 40}",
            "pred[4] {1, 0, 1, 0}"}),
      "f32[<=4](3) {10, 2, 30}");
}

TEST(DynamicSizeTest, DifferentSizesOfTheSameBoundAreAnError) {
  const std::string bad =
      Eval({"f32[4]"},
           WithSize("f32[<=4]", 0, 2,
                    "m = s32[] constant(3)\n"
                    "  e = f32[<=4] set-dimension-size(p0, m), dimensions={0}\n"
                    "  ROOT r = f32[<=4] add(d, e)"),
           {"f32[4] {1, 2, 3, 4}"});
  EXPECT_TRUE(absl::StrContains(
      bad, "r: operands of the same bounds have different dynamic sizes"))
      << bad;
}

TEST(DynamicSizeTest, ReduceSeesOnlyTheValidElements) {
  const std::string init = "z = f32[] constant(0)\n  ";
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2,
                          init + "ROOT r = f32[2] reduce(d, z), "
                                 "dimensions={1}, to_apply=add"),
                 {kMatrix}, kAdd),
            "f32[2] {3, 7}");
  // The kept dynamic dimension keeps its size.
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2,
                          init + "ROOT r = f32[<=4] reduce(d, z), "
                                 "dimensions={0}, to_apply=add"),
                 {kMatrix}, kAdd),
            "f32[<=4](2) {4, 6}");
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2,
                          init + "ROOT r = f32[] reduce(d, z), "
                                 "dimensions={0,1}, to_apply=max"),
                 {kMatrix}, kMax),
            "f32[] 4");
  // Size 0: the reduction of nothing is the init value.
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 0,
                          init + "ROOT r = f32[2] reduce(d, z), "
                                 "dimensions={1}, to_apply=add"),
                 {kMatrix}, kAdd),
            "f32[2] {0, 0}");
}

TEST(DynamicSizeTest, SortOrdersOnlyTheValidElements) {
  EXPECT_EQ(Eval({"f32[5]"},
                 WithSize("f32[<=5]", 0, 3,
                          "ROOT r = f32[<=5] sort(d), dimensions={0}, "
                          "to_apply=less"),
                 {"f32[5] {3, 1, 2, -9, -8}"}, kLess),
            "f32[<=5](3) {1, 2, 3}");
}

TEST(DynamicSizeTest, ReduceWindowWindowsOverTheValidElements) {
  // The shape rule keeps the dynamic dimension (as XLA's inference does):
  // 2 windows over the 3 valid elements.
  EXPECT_EQ(Eval({"f32[5]"},
                 WithSize("f32[<=5]", 0, 3,
                          "z = f32[] constant(0)\n"
                          "  ROOT r = f32[<=4] reduce-window(d, z), "
                          "window={size=2}, to_apply=add"),
                 {"f32[5] {1, 2, 3, 100, 1000}"}, kAdd),
            "f32[<=4](2) {3, 5}");
}

TEST(DynamicSizeTest, SlicesReadTheBoundedArray) {
  // A partial slice drops the size and reads the bounded array, padding
  // included (as XLA does); a whole dynamic dimension keeps its size
  // (dynamic_kernels_test.cc).
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 2,
                          "ROOT r = f32[2] slice(d), slice={[1:3]}"),
                 {"f32[4] {1, 2, 100, 1000}"}),
            "f32[2] {2, 100}");
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2,
                          "i = s32[] constant(1)\n  j = s32[] constant(1)\n"
                          "  ROOT r = f32[1,3] dynamic-slice(d, i, j), "
                          "dynamic_slice_sizes={1,3}"),
                 {kMatrix}),
            "f32[1,3] { { 4, 100, 1000 } }");
  // A slice that keeps its operand's dynamic size: the whole dynamic
  // dimension of a dynamic-update-slice's operand.
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 3,
                          "u = f32[1] constant({7})\n  i = s32[] constant(0)\n"
                          "  ROOT r = f32[<=4] dynamic-update-slice(d, u, i)"),
                 {"f32[4] {1, 2, 3, 1000}"}),
            "f32[<=4](3) {7, 2, 3}");
}

TEST(DynamicSizeTest, DynamicReshapeReshapesTheValidElements) {
  // Valid elements 1..4 of a f32[<=6] fill 2x2 inside bounds 2x3.
  EXPECT_EQ(Eval({"f32[6]"},
                 WithSize("f32[<=6]", 0, 4,
                          "a = s32[] constant(2)\n"
                          "  ROOT r = f32[2,<=3] dynamic-reshape(d, a, a)"),
                 {"f32[6] {1, 2, 3, 4, 100, 1000}"}),
            "f32[2,<=3](2,2) { { 1, 2 }, { 3, 4 } }");
  const std::string bad =
      Eval({"f32[6]"},
           WithSize("f32[<=6]", 0, 4,
                    "a = s32[] constant(2)\n  b = s32[] constant(3)\n"
                    "  ROOT r = f32[2,<=3] dynamic-reshape(d, a, b)"),
           {"f32[6] {1, 2, 3, 4, 100, 1000}"});
  EXPECT_TRUE(absl::StrContains(bad,
                                "the sizes hold 6 elements but the "
                                "operand f32[4] holds 4"))
      << bad;
}

TEST(DynamicSizeTest, ReshapeInfersTheDynamicSize) {
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2, "ROOT r = f32[<=8] reshape(d)"),
                 {kMatrix}),
            "f32[<=8](4) {1, 2, 3, 4}");
  // Valid elements 1, 2 | 3, 4 refill a 2-wide array: 2 rows.
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2, "ROOT r = f32[<=4,2] reshape(d)"),
                 {kMatrix}),
            "f32[<=4,2](2,2) { { 1, 2 }, { 3, 4 } }");
}

TEST(DynamicSizeTest, DataMovementOnTheValidElements) {
  const std::string v = "f32[4] {1, 2, 3, 1000}";
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 3,
                          "ROOT r = f32[<=4] reverse(d), "
                          "dimensions={0}"),
                 {v}),
            "f32[<=4](3) {3, 2, 1}");
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 3,
                          "ROOT r = f32[<=8] concatenate(d, d), "
                          "dimensions={0}"),
                 {v}),
            "f32[<=8](6) {1, 2, 3, 1, 2, 3}");
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 2,
                          "z = f32[] constant(0)\n"
                          "  ROOT r = f32[<=6] pad(d, z), padding=1_1"),
                 {v}),
            "f32[<=6](4) {0, 1, 2, 0}");
  EXPECT_EQ(Eval({"f32[2,4]"},
                 WithSize("f32[2,<=4]", 1, 2,
                          "ROOT r = f32[<=4,2] transpose(d), "
                          "dimensions={1,0}"),
                 {kMatrix}),
            "f32[<=4,2](2,2) { { 1, 3 }, { 2, 4 } }");
  EXPECT_EQ(Eval({"f32[4]"},
                 WithSize("f32[<=4]", 0, 2,
                          "ROOT r = f32[2,<=4] broadcast(d), dimensions={1}"),
                 {v}),
            "f32[2,<=4](2,2) { { 1, 2 }, { 1, 2 } }");
}

}  // namespace
}  // namespace kiln
