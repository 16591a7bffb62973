// compare (every direction and comparison type, the total order of
// floats, complex EQ/NE), select (the spec's examples, scalar pred,
// tuples) and clamp (the spec's example, array bounds, NaN), with
// client-form broadcasting. Expected values are worked out by hand.
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToText;

std::string ShapeOf(const std::string& literal) {
  return literal.substr(0, literal.find(' '));
}

std::string Dims(const std::string& shape) {
  return shape.substr(shape.find('['));
}

// compare(lhs, rhs) with `attrs` ("direction=LT, type=TOTALORDER").
std::string Compare(const std::string& lhs, const std::string& rhs,
                    const std::string& attrs, std::string result = "") {
  if (result.empty()) result = "pred" + Dims(ShapeOf(lhs));
  return RunToText(EntryModule({ShapeOf(lhs), ShapeOf(rhs)},
                               absl::StrCat("ROOT r = ", result,
                                            " compare(p0, p1), ", attrs)),
                   {lhs, rhs});
}

std::string Ternary(const std::string& op, const std::string& a,
                    const std::string& b, const std::string& c,
                    const std::string& result, const std::string& attrs = "") {
  return RunToText(EntryModule({ShapeOf(a), ShapeOf(b), ShapeOf(c)},
                               absl::StrCat("ROOT r = ", result, " ", op,
                                            "(p0, p1, p2)", attrs)),
                   {a, b, c});
}

TEST(CompareTest, FloatComparisonsTreatNaNAsUnordered) {
  const std::string lhs = "f32[4] {1, nan, -0, -inf}";
  const std::string rhs = "f32[4] {2, nan, 0, -inf}";
  EXPECT_EQ(Compare(lhs, rhs, "direction=EQ"), "pred[4] {0, 0, 1, 1}");
  EXPECT_EQ(Compare(lhs, rhs, "direction=NE"), "pred[4] {1, 1, 0, 0}");
  EXPECT_EQ(Compare(lhs, rhs, "direction=LT"), "pred[4] {1, 0, 0, 0}");
  EXPECT_EQ(Compare(lhs, rhs, "direction=LE"), "pred[4] {1, 0, 1, 1}");
  EXPECT_EQ(Compare(lhs, rhs, "direction=GT"), "pred[4] {0, 0, 0, 0}");
  EXPECT_EQ(Compare(lhs, rhs, "direction=GE"), "pred[4] {0, 0, 1, 1}");
  EXPECT_EQ(
      Compare("bf16[2] {1, 2}", "bf16[2] {1.00390625, 2}", "direction=EQ"),
      "pred[2] {1, 1}");  // 1 + 2^-8 rounds to 1 in bf16.
}

TEST(CompareTest, TotalOrderOrdersEveryBitPattern) {
  // -NaN < -inf < -1 < -0 < +0 < 1 < inf < NaN.
  const std::string lhs = "f32[7] {-nan, -inf, -1, -0, 0, 1, inf}";
  const std::string rhs = "f32[7] {-inf, -1, -0, 0, 1, inf, nan}";
  EXPECT_EQ(Compare(lhs, rhs, "direction=LT, type=TOTALORDER"),
            "pred[7] {1, 1, 1, 1, 1, 1, 1}");
  EXPECT_EQ(Compare(rhs, lhs, "direction=GT, type=TOTALORDER"),
            "pred[7] {1, 1, 1, 1, 1, 1, 1}");
  // EQ tells -0 from +0 and finds a NaN equal to itself.
  EXPECT_EQ(Compare("f64[3] {-0, nan, 1}", "f64[3] {0, nan, 1}",
                    "direction=EQ, type=TOTALORDER"),
            "pred[3] {0, 1, 1}");
  EXPECT_EQ(Compare("f16[2] {-0, -nan}", "f16[2] {0, nan}",
                    "direction=LE, type=TOTALORDER"),
            "pred[2] {1, 1}");
  EXPECT_EQ(Compare("f8e4m3fn[2] {-448, nan}", "f8e4m3fn[2] {-nan, 448}",
                    "direction=GT, type=TOTALORDER"),
            "pred[2] {1, 1}");
}

TEST(CompareTest, IntegersCompareByTheirSignedness) {
  EXPECT_EQ(Compare("s32[2] {-1, 5}", "s32[2] {1, 5}", "direction=LT"),
            "pred[2] {1, 0}");
  EXPECT_EQ(Compare("u32[2] {4294967295, 5}", "u32[2] {1, 5}", "direction=GT"),
            "pred[2] {1, 0}");
  EXPECT_EQ(Compare("s32[1] {-1}", "s32[1] {1}", "direction=LT, type=SIGNED"),
            "pred[1] {1}");
  EXPECT_EQ(Compare("s4[2] {-8, 7}", "s4[2] {7, -8}", "direction=LT"),
            "pred[2] {1, 0}");
  EXPECT_EQ(Compare("pred[2] {true, false}", "pred[2] {false, false}",
                    "direction=GT"),
            "pred[2] {1, 0}");
}

TEST(CompareTest, ComplexComparesEqualityOnly) {
  EXPECT_EQ(Compare("c64[3] {(1, 2), (1, 2), (nan, 0)}",
                    "c64[3] {(1, 2), (1, -2), (nan, 0)}", "direction=EQ"),
            "pred[3] {1, 0, 0}");
  EXPECT_EQ(Compare("c128[1] {(1, 2)}", "c128[1] {(1, 3)}", "direction=NE"),
            "pred[1] {1}");
}

TEST(CompareTest, BroadcastsAScalarAndInDim) {
  EXPECT_EQ(Compare("s32[3] {1, 2, 3}", "s32[] 2", "direction=GE"),
            "pred[3] {0, 1, 1}");
  EXPECT_EQ(Compare("f32[2,2] {{1, 5}, {3, 0}}", "f32[2] {2, 4}",
                    "direction=LT, broadcast_dimensions={1}"),
            "pred[2,2] { { 1, 0 }, { 0, 1 } }");
}

TEST(SelectTest, SpecExamples) {
  EXPECT_EQ(
      Ternary("select", "pred[4] {true, false, false, true}",
              "s32[4] {1, 2, 3, 4}", "s32[4] {100, 200, 300, 400}", "s32[4]"),
      "s32[4] {1, 200, 300, 4}");
  EXPECT_EQ(Ternary("select", "pred[] true", "s32[4] {1, 2, 3, 4}",
                    "s32[4] {100, 200, 300, 400}", "s32[4]"),
            "s32[4] {1, 2, 3, 4}");
  EXPECT_EQ(Ternary("select", "pred[] false", "s32[4] {1, 2, 3, 4}",
                    "s32[4] {100, 200, 300, 400}", "s32[4]"),
            "s32[4] {100, 200, 300, 400}");
}

TEST(SelectTest, EveryElementTypeAndBroadcasting) {
  EXPECT_EQ(
      Ternary("select", "pred[2] {false, true}", "c128[2] {(1, 2), (3, 4)}",
              "c128[2] {(5, 6), (7, 8)}", "c128[2]"),
      "c128[2] {(5, 6), (3, 4)}");
  EXPECT_EQ(Ternary("select", "pred[2] {true, false}", "u4[2] {15, 1}",
                    "u4[2] {2, 3}", "u4[2]"),
            "u4[2] {15, 3}");
  EXPECT_EQ(Ternary("select", "pred[2] {true, false}", "f8e5m2[2] {-inf, 1}",
                    "f8e5m2[] 2", "f8e5m2[2]"),
            "f8e5m2[2] {-inf, 2}");
  // A pred per row, matched to dimension 0.
  EXPECT_EQ(Ternary("select", "pred[2] {true, false}",
                    "f32[2,2] {{1, 2}, {3, 4}}", "f32[2,2] {{5, 6}, {7, 8}}",
                    "f32[2,2]", ", broadcast_dimensions={0}"),
            "f32[2,2] { { 1, 2 }, { 7, 8 } }");
}

TEST(SelectTest, TuplesSelectAsAWhole) {
  const std::string hlo =
      EntryModule({"pred[]", "(s32[], f32[2])", "(s32[], f32[2])"},
                  "ROOT r = (s32[], f32[2]) select(p0, p1, p2)");
  EXPECT_EQ(RunToText(hlo, {"pred[] false", "(s32[], f32[2]) (1, {2, 3})",
                            "(s32[], f32[2]) (4, {5, 6})"}),
            "(s32[], f32[2]) ( 4, {5, 6} )");
}

TEST(ClampTest, SpecExampleAndArrayBounds) {
  EXPECT_EQ(
      Ternary("clamp", "s32[] 0", "s32[3] {-1, 5, 9}", "s32[] 6", "s32[3]"),
      "s32[3] {0, 5, 6}");
  EXPECT_EQ(Ternary("clamp", "f32[3] {0, 1, 2}", "f32[3] {-5, 5, 2.5}",
                    "f32[3] {1, 3, 2}", "f32[3]"),
            "f32[3] {0, 3, 2}");
  EXPECT_EQ(
      Ternary("clamp", "u8[] 10", "u8[3] {0, 100, 255}", "u8[] 200", "u8[3]"),
      "u8[3] {10, 100, 200}");
  EXPECT_EQ(Ternary("clamp", "pred[] false", "pred[2] {true, false}",
                    "pred[] false", "pred[2]"),
            "pred[2] {0, 0}");
}

TEST(ClampTest, NaNPropagatesAndNarrowFloatsWork) {
  EXPECT_EQ(Ternary("clamp", "f32[] 0", "f32[3] {nan, -inf, inf}", "f32[] 1",
                    "f32[3]"),
            "f32[3] {nan, 0, 1}");
  EXPECT_EQ(
      Ternary("clamp", "bf16[] -1", "bf16[2] {-3, 0.5}", "bf16[] 1", "bf16[2]"),
      "bf16[2] {-1, 0.5}");
}

TEST(CompareTest, WrongComparisonTypeIsAnError) {
  const std::string result =
      Compare("u32[1] {1}", "u32[1] {2}", "direction=LT, type=SIGNED");
  EXPECT_TRUE(absl::StartsWith(result, "error:")) << result;
  const std::string complex =
      Compare("c64[1] {(1, 2)}", "c64[1] {(1, 2)}", "direction=LT");
  EXPECT_TRUE(absl::StartsWith(complex, "error:")) << complex;
}

}  // namespace
}  // namespace kiln
