// Shape rules of the reduction family: reduce, reduce-window,
// select-and-scatter, sort, topk, scan.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "compiler/ops/testing/family_shape_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using shape_test::InferError;
using shape_test::InferText;
using ::testing::HasSubstr;

constexpr absl::string_view kAddF32 = R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
)";

// A module with `add` and an entry whose ROOT line is `root` over
// parameter p = f32[2,3,4].
std::string ReduceModule(absl::string_view root) {
  return absl::StrCat("HloModule m\n", kAddF32, R"(
ENTRY e {
  p = f32[2,3,4] parameter(0)
  z = f32[] constant(0)
  i = s32[] constant(0)
  ROOT r = )",
                      root, "\n}\n");
}

TEST(ReduceShapeTest, DropsReducedDimensions) {
  EXPECT_EQ(*InferText(ReduceModule(
                "f32[3] reduce(p, z), dimensions={0,2}, to_apply=add")),
            "f32[3]");
  EXPECT_EQ(*InferText(ReduceModule(
                "f32[] reduce(p, z), dimensions={2,0,1}, to_apply=add")),
            "f32[]");
}

TEST(ReduceShapeTest, RejectsBadDimensions) {
  EXPECT_THAT(InferError(ReduceModule(
                  "f32[3] reduce(p, z), dimensions={0,3}, to_apply=add")),
              HasSubstr("r: dimensions"));
  EXPECT_THAT(InferError(ReduceModule(
                  "f32[3] reduce(p, z), dimensions={0,0}, to_apply=add")),
              HasSubstr("Reduce"));
}

TEST(ReduceShapeTest, RejectsInitOfAnotherType) {
  EXPECT_THAT(InferError(ReduceModule(
                  "f32[3] reduce(p, i), dimensions={0}, to_apply=add")),
              HasSubstr("init value 0 is s32[], expected a scalar"));
}

TEST(ReduceShapeTest, RejectsReducerSignature) {
  const std::string hlo = absl::StrCat("HloModule m\n", R"(
max {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT s = s32[] maximum(a, b)
}
ENTRY e {
  p = f32[2] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=max
})");
  EXPECT_THAT(InferError(hlo),
              HasSubstr("to_apply=max has signature (s32[], s32[]) -> s32[], "
                        "expected (f32[], f32[]) -> f32[]"));
}

constexpr absl::string_view kVariadicReduce = R"(HloModule m
argmax {
  a = f32[] parameter(0)
  ai = s32[] parameter(1)
  b = f32[] parameter(2)
  bi = s32[] parameter(3)
  m = f32[] maximum(a, b)
  ROOT t = (f32[], s32[]) tuple(m, ai)
}
ENTRY e {
  v = f32[4,5] parameter(0)
  ix = s32[4,5] parameter(1)
  z = f32[] constant(0)
  zi = s32[] constant(0)
  ROOT r = (f32[4], s32[4]) reduce(v, IX, z, zi), dimensions={1}, to_apply=argmax
})";

TEST(ReduceShapeTest, VariadicGivesTuple) {
  EXPECT_EQ(*InferText(absl::StrReplaceAll(kVariadicReduce, {{"IX", "ix"}})),
            "(f32[4], s32[4])");
}

TEST(ReduceShapeTest, VariadicNeedsSameDimensions) {
  std::string hlo = absl::StrReplaceAll(
      kVariadicReduce,
      {{"IX", "ix2"}, {"zi = ", "ix2 = s32[5,4] parameter(2)\n  zi = "}});
  EXPECT_THAT(InferError(hlo),
              HasSubstr("input 1 is s32[5,4], expected the dimensions"));
}

TEST(ReduceShapeTest, OddOperandCount) {
  EXPECT_THAT(InferError(ReduceModule(
                  "f32[3] reduce(p, z, z), dimensions={0}, to_apply=add")),
              HasSubstr("N inputs then N init values, got 3"));
}

TEST(ReduceWindowShapeTest, WindowFormula) {
  // Size 2 stride 2 over 2 -> 1; size 3 pad 1_1 over 3 -> 3; size 2
  // rhs_dilate 2 lhs_dilate 2 over 4 -> dilated base 7, window 3 -> 5.
  EXPECT_EQ(*InferText(ReduceModule(
                "f32[1,3,5] reduce-window(p, z), window={size=2x3x2 "
                "stride=2x1x1 pad=0_0x1_1x0_0 lhs_dilate=1x1x2 "
                "rhs_dilate=1x1x2}, to_apply=add")),
            "f32[1,3,5]");
}

TEST(ReduceWindowShapeTest, SpecExample) {
  // operation_semantics.md ReduceWindow example 2: [4,6] input, window 2x3,
  // stride 2x3 -> [2,2].
  const std::string hlo = absl::StrCat("HloModule m\n", kAddF32, R"(
ENTRY e {
  p = f32[4,6] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[2,2] reduce-window(p, z), window={size=2x3 stride=2x3}, to_apply=add
})");
  EXPECT_EQ(*InferText(hlo), "f32[2,2]");
}

TEST(ReduceWindowShapeTest, RejectsWindowRank) {
  EXPECT_THAT(
      InferError(ReduceModule("f32[1] reduce-window(p, z), window={size=2}, "
                              "to_apply=add")),
      HasSubstr("window has 1 dimensions, expected 3"));
}

TEST(ReduceWindowShapeTest, RejectsZeroStrideAndNegativePaddedSize) {
  EXPECT_THAT(InferError(ReduceModule(
                  "f32[1,3,4] reduce-window(p, z), window={size=1x1x1 "
                  "stride=1x0x1}, to_apply=add")),
              HasSubstr("window dimension 1 has stride 0, expected >= 1"));
  EXPECT_THAT(InferError(ReduceModule(
                  "f32[1,3,4] reduce-window(p, z), window={size=1x1x1 "
                  "pad=0_0x0_0x-3_-3}, to_apply=add")),
              HasSubstr("padding makes the input size -2"));
}

constexpr absl::string_view kSelectAndScatter = R"(HloModule m
ge {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=GE
}
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  op = f32[4,6] parameter(0)
  src = SRC parameter(1)
  z = f32[] constant(0)
  ROOT r = f32[4,6] select-and-scatter(op, src, z), window={size=2x3 stride=2x3}, select=SELECT, scatter=add
})";

TEST(SelectAndScatterShapeTest, ResultIsOperandShape) {
  EXPECT_EQ(*InferText(absl::StrReplaceAll(
                kSelectAndScatter, {{"SRC", "f32[2,2]"}, {"SELECT", "ge"}})),
            "f32[4,6]");
}

TEST(SelectAndScatterShapeTest, RejectsSourceShape) {
  EXPECT_THAT(InferError(absl::StrReplaceAll(
                  kSelectAndScatter, {{"SRC", "f32[2,3]"}, {"SELECT", "ge"}})),
              HasSubstr("source is f32[2,3], expected the windowed operand "
                        "shape f32[2,2]"));
}

TEST(SelectAndScatterShapeTest, RejectsSelectNotReturningPred) {
  EXPECT_THAT(InferError(absl::StrReplaceAll(
                  kSelectAndScatter, {{"SRC", "f32[2,2]"}, {"SELECT", "add"}})),
              HasSubstr("select=add has signature"));
}

constexpr absl::string_view kSort = R"(HloModule m
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  c = s32[] parameter(2)
  d = s32[] parameter(3)
  ROOT r = pred[] compare(a, b), direction=LT
}
lt1 {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = pred[] compare(a, b), direction=LT
}
ENTRY e {
  k = f32[3,5] parameter(0)
  v = s32[3,5] parameter(1)
  w = s32[5,3] parameter(2)
  ROOT r = ROOT_LINE
})";

std::string SortModule(absl::string_view root) {
  return absl::StrReplaceAll(kSort, {{"ROOT_LINE", root}});
}

TEST(SortShapeTest, SingleAndMultipleOperands) {
  EXPECT_EQ(
      *InferText(SortModule("f32[3,5] sort(k), dimensions={1}, to_apply=lt1")),
      "f32[3,5]");
  EXPECT_EQ(
      *InferText(SortModule("(f32[3,5], s32[3,5]) sort(k, v), dimensions={0}, "
                            "to_apply=lt")),
      "(f32[3,5], s32[3,5])");
}

TEST(SortShapeTest, RejectsViolations) {
  EXPECT_THAT(
      InferError(SortModule("f32[3,5] sort(k), dimensions={2}, to_apply=lt1")),
      HasSubstr("dimensions"));
  EXPECT_THAT(
      InferError(SortModule("(f32[3,5], s32[5,3]) sort(k, w), dimensions={0}, "
                            "to_apply=lt")),
      HasSubstr("operand 1 is s32[5,3], expected the dimensions"));
  EXPECT_THAT(
      InferError(SortModule("(f32[3,5], s32[3,5]) sort(k, v), dimensions={0}, "
                            "to_apply=lt1")),
      HasSubstr("to_apply=lt1 has signature (f32[], f32[]) -> "
                "pred[], expected (f32[], f32[], s32[], s32[])"));
  EXPECT_THAT(InferError(SortModule(
                  "f32[3,5] sort(k), dimensions={0,1}, to_apply=lt1")),
              HasSubstr("must name exactly one dimension"));
}

TEST(TopKShapeTest, ValuesAndIndices) {
  EXPECT_EQ(*InferText(SortModule("(f32[3,2], s32[3,2]) topk(k), k=2")),
            "(f32[3,2], s32[3,2])");
  EXPECT_EQ(
      *InferText(SortModule("(f32[3,2], s32[3,2]) topk(k), k=2, to_apply=lt1")),
      "(f32[3,2], s32[3,2])");
}

TEST(TopKShapeTest, RejectsKAboveLastDimension) {
  EXPECT_THAT(InferError(SortModule("(f32[3,6], s32[3,6]) topk(k), k=6")),
              HasSubstr("k=6 must be in [0, size of the last dimension 5]"));
  EXPECT_THAT(
      InferError(SortModule("(f32[3,2], s32[3,2]) topk(v), k=2, to_apply=lt1")),
      HasSubstr("to_apply=lt1 has signature"));
}

constexpr absl::string_view kScan = R"(HloModule m
step {
  x = f32[4] parameter(0)
  c = f32[4] parameter(1)
  s = f32[4] add(x, c)
  ROOT t = (f32[4], f32[4]) tuple(s, s)
}
ENTRY e {
  xs = f32[4,3] parameter(0)
  ys = f32[3,4] parameter(1)
  c0 = f32[4] parameter(2)
  ROOT r = ROOT_LINE
})";

TEST(ScanShapeTest, OutputsGetTheScanDimensionBack) {
  EXPECT_EQ(*InferText(absl::StrReplaceAll(
                kScan, {{"ROOT_LINE",
                         "(f32[4,3], f32[4]) scan(xs, c0), dimensions={1}, "
                         "num_carries=1, to_apply=step"}})),
            "(f32[4,3], f32[4])");
  EXPECT_EQ(*InferText(absl::StrReplaceAll(
                kScan, {{"ROOT_LINE",
                         "(f32[3,4], f32[4]) scan(ys, c0), dimensions={0}, "
                         "num_carries=1, to_apply=step"}})),
            "(f32[3,4], f32[4])");
}

TEST(ScanShapeTest, RejectsMismatchedStep) {
  EXPECT_THAT(InferError(absl::StrReplaceAll(
                  kScan, {{"ROOT_LINE",
                           "(f32[4,3], f32[4]) scan(xs, c0), dimensions={0}, "
                           "num_carries=1, to_apply=step"}})),
              HasSubstr("to_apply=step has signature (f32[4], f32[4])"));
  EXPECT_THAT(InferError(absl::StrReplaceAll(
                  kScan, {{"ROOT_LINE",
                           "(f32[4,3], f32[4]) scan(xs, c0), dimensions={1}, "
                           "num_carries=2, to_apply=step"}})),
              HasSubstr("leaves no input to scan"));
}

TEST(ReduceShapeTest, KeepsDynamicDimensionsOfKeptDims) {
  const std::string hlo = absl::StrCat("HloModule m\n", kAddF32, R"(
ENTRY e {
  p = f32[<=4,3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[<=4] reduce(p, z), dimensions={1}, to_apply=add
})");
  EXPECT_EQ(*InferText(hlo), "f32[<=4]");
}

TEST(ReduceShapeTest, RejectsTupleInput) {
  const std::string hlo = absl::StrCat("HloModule m\n", kAddF32, R"(
ENTRY e {
  p = f32[2] parameter(0)
  t = (f32[2]) tuple(p)
  z = f32[] constant(0)
  ROOT r = f32[] reduce(t, z), dimensions={0}, to_apply=add
})");
  EXPECT_THAT(InferError(hlo),
              HasSubstr("operand 0 is (f32[2]), expected an array"));
}

TEST(ReduceWindowShapeTest, VariadicGivesTuple) {
  const std::string hlo = absl::StrReplaceAll(kVariadicReduce, {{"IX", "ix"}});
  const std::string windowed = absl::StrReplaceAll(
      hlo, {{"(f32[4], s32[4]) reduce(v, ix, z, zi), dimensions={1}",
             "(f32[2,5], s32[2,5]) reduce-window(v, ix, z, zi), "
             "window={size=2x1 stride=2x1}"}});
  EXPECT_EQ(*InferText(windowed), "(f32[2,5], s32[2,5])");
}

TEST(ScanShapeTest, SeveralInputsWithoutCarries) {
  const std::string hlo = R"(HloModule m
step {
  x = f32[] parameter(0)
  y = s32[] parameter(1)
  ROOT t = (s32[], f32[]) tuple(y, x)
}
ENTRY e {
  xs = f32[6] parameter(0)
  ys = s32[6] parameter(1)
  ROOT r = (s32[6], f32[6]) scan(xs, ys), dimensions={0}, to_apply=step
})";
  EXPECT_EQ(*InferText(hlo), "(s32[6], f32[6])");
}

TEST(ReduceWindowShapeTest, RejectsOverflowingDilation) {
  const std::string hlo = absl::StrCat("HloModule m\n", kAddF32, R"(
ENTRY e {
  p = f32[3] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[3] reduce-window(p, z), window={size=1 lhs_dilate=4611686018427387904}, to_apply=add
})");
  EXPECT_THAT(InferError(hlo), HasSubstr("overflows int64"));
}

}  // namespace
}  // namespace kiln
