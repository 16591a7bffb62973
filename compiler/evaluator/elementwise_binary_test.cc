// The binary elementwise kernels: arithmetic with wrapping and XLA's
// integer division rules, NaN-propagating max/min, power, atan2, the
// bitwise ops and shifts (including amounts >= the bit width), complex,
// narrow-float rounding, and client-form broadcasting (broadcasting.md's
// examples). Expected values are worked out by hand; comments say how.
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

// The printer writes nested literals as "{ { 1, 2 }, { 3 } }"; tests
// write them as "{{1, 2}, {3}}".
std::string Compact(std::string text) {
  for (size_t at; (at = text.find("{ ")) != std::string::npos;) {
    text.erase(at + 1, 1);
  }
  for (size_t at; (at = text.find(" }")) != std::string::npos;) {
    text.erase(at, 1);
  }
  return text;
}

// Runs `op` on two literal texts. `result` is the result shape (lhs's when
// empty); `attrs` is appended (", broadcast_dimensions={1}").
std::string Binary(const std::string& op, const std::string& lhs,
                   const std::string& rhs, std::string result = "",
                   const std::string& attrs = "") {
  if (result.empty()) result = ShapeOf(lhs);
  return Compact(RunToText(EntryModule({ShapeOf(lhs), ShapeOf(rhs)},
                                       absl::StrCat("ROOT r = ", result, " ",
                                                    op, "(p0, p1)", attrs)),
                           {lhs, rhs}));
}

TEST(BinaryTest, AddSubtractMultiplyWrapIntegers) {
  EXPECT_EQ(Binary("add", "s32[2] {2147483647, -5}", "s32[2] {1, 3}"),
            "s32[2] {-2147483648, -2}");
  EXPECT_EQ(Binary("add", "u8[1] {255}", "u8[1] {1}"), "u8[1] {0}");
  EXPECT_EQ(Binary("add", "s4[2] {7, -8}", "s4[2] {1, -1}"), "s4[2] {-8, 7}");
  EXPECT_EQ(Binary("subtract", "s64[1] {-9223372036854775808}", "s64[1] {1}"),
            "s64[1] {9223372036854775807}");
  EXPECT_EQ(Binary("multiply", "u16[1] {65535}", "u16[1] {65535}"),
            "u16[1] {1}");
  EXPECT_EQ(Binary("multiply", "s32[1] {65536}", "s32[1] {65536}"),
            "s32[1] {0}");
  // pred: add is or, multiply is and.
  EXPECT_EQ(Binary("add", "pred[2] {true, false}", "pred[2] {true, false}"),
            "pred[2] {1, 0}");
  EXPECT_EQ(Binary("multiply", "pred[2] {true, true}", "pred[2] {true, false}"),
            "pred[2] {1, 0}");
}

TEST(BinaryTest, FloatArithmeticEdgeValues) {
  EXPECT_EQ(
      Binary("add", "f32[3] {inf, -0, 1e-45}", "f32[3] {-inf, -0, 1e-45}"),
      "f32[3] {-nan, -0, 3e-45}");
  EXPECT_EQ(Binary("divide", "f32[3] {1, -1, 0}", "f32[3] {0, 0, 0}"),
            "f32[3] {inf, -inf, -nan}");
  EXPECT_EQ(Binary("subtract", "f64[1] {0}", "f64[1] {0}"), "f64[1] {0}");
}

TEST(BinaryTest, NarrowFloatsRoundToNearestEven) {
  // f16 has 11 significant bits: 2049 is halfway between 2048 and 2050 and
  // goes to the even 2048; 2051 goes to 2052.
  EXPECT_EQ(Binary("add", "f16[2] {2048, 2050}", "f16[2] {1, 1}"),
            "f16[2] {2048, 2052}");
  // bf16 (8 bits): 256 + 1 = 257 is a tie between 256 and 258 -> 256.
  EXPECT_EQ(Binary("add", "bf16[1] {256}", "bf16[1] {1}"), "bf16[1] {256}");
  // f8e4m3fn (4 bits): 1 + 1/16 ties to 1, 1.125 + 1/16 ties to 1.25.
  EXPECT_EQ(
      Binary("add", "f8e4m3fn[2] {1, 1.125}", "f8e4m3fn[2] {0.0625, 0.0625}"),
      "f8e4m3fn[2] {1, 1.2}");
  // f8e5m2 max is 57344; 57344 + 8192 rounds past it to inf.
  EXPECT_EQ(Binary("add", "f8e5m2[1] {57344}", "f8e5m2[1] {8192}"),
            "f8e5m2[1] {inf}");
}

TEST(BinaryTest, EveryNarrowFloatFamily) {
  EXPECT_EQ(Binary("add", "f8e4m3b11fnuz[2] {1, 2}", "f8e4m3b11fnuz[2] {1, 2}"),
            "f8e4m3b11fnuz[2] {2, 4}");
  EXPECT_EQ(Binary("multiply", "f8e8m0fnu[2] {2, 4}", "f8e8m0fnu[2] {8, 0.5}"),
            "f8e8m0fnu[2] {16, 2}");
  EXPECT_EQ(Binary("subtract", "f4e2m1fn[2] {6, 0.5}", "f4e2m1fn[2] {2, 1}"),
            "f4e2m1fn[2] {4, -0.5}");
  EXPECT_EQ(Binary("divide", "f6e2m3fn[1] {3}", "f6e2m3fn[1] {2}"),
            "f6e2m3fn[1] {1.5}");
  // fnuz's only NaN is the pattern of -0 (sign bit set): it prints "-nan".
  EXPECT_EQ(Binary("maximum", "f8e5m2fnuz[2] {nan, 1}", "f8e5m2fnuz[2] {1, 2}"),
            "f8e5m2fnuz[2] {-nan, 2}");
}

TEST(BinaryTest, IntegerDivisionFollowsXla) {
  // x / 0 = -1 (all ones), INT_MIN / -1 = INT_MIN, truncation toward zero.
  EXPECT_EQ(Binary("divide", "s32[5] {7, -7, 5, -2147483648, 0}",
                   "s32[5] {2, 2, 0, -1, 0}"),
            "s32[5] {3, -3, -1, -2147483648, -1}");
  EXPECT_EQ(Binary("divide", "u32[2] {5, 9}", "u32[2] {0, 4}"),
            "u32[2] {4294967295, 2}");
  EXPECT_EQ(Binary("divide", "s4[2] {-8, 7}", "s4[2] {-1, 0}"),
            "s4[2] {-8, -1}");
  EXPECT_EQ(Binary("divide", "u4[1] {9}", "u4[1] {0}"), "u4[1] {15}");
  EXPECT_EQ(Binary("divide", "s8[1] {-128}", "s8[1] {-1}"), "s8[1] {-128}");
}

TEST(BinaryTest, RemainderFollowsXla) {
  // x % 0 = x, INT_MIN % -1 = 0; the sign follows the dividend.
  EXPECT_EQ(Binary("remainder", "s32[5] {7, -7, 5, -2147483648, 7}",
                   "s32[5] {3, 3, 0, -1, -3}"),
            "s32[5] {1, -1, 5, 0, 1}");
  EXPECT_EQ(Binary("remainder", "u8[2] {7, 200}", "u8[2] {0, 7}"),
            "u8[2] {7, 4}");
  EXPECT_EQ(
      Binary("remainder", "f32[4] {5.5, -5.5, inf, 1}", "f32[4] {2, 2, 1, 0}"),
      "f32[4] {1.5, -1.5, -nan, -nan}");
}

TEST(BinaryTest, MaximumMinimumPropagateNaN) {
  EXPECT_EQ(
      Binary("maximum", "f32[4] {nan, 1, -0, 0}", "f32[4] {1, nan, 0, -0}"),
      "f32[4] {nan, nan, -0, 0}");
  EXPECT_EQ(
      Binary("minimum", "f32[4] {nan, 1, -inf, 2}", "f32[4] {1, nan, 0, -3}"),
      "f32[4] {nan, nan, -inf, -3}");
  EXPECT_EQ(Binary("maximum", "s32[2] {-2147483648, 5}", "s32[2] {0, -5}"),
            "s32[2] {0, 5}");
  EXPECT_EQ(Binary("minimum", "u32[1] {4294967295}", "u32[1] {1}"),
            "u32[1] {1}");
  EXPECT_EQ(
      Binary("maximum", "pred[2] {true, false}", "pred[2] {false, false}"),
      "pred[2] {1, 0}");
  EXPECT_EQ(Binary("maximum", "bf16[1] {nan}", "bf16[1] {1}"), "bf16[1] {nan}");
}

TEST(BinaryTest, PowerFollowsXla) {
  // Negative exponents give 0 unless the base is 1; 3^40 wraps modulo 2^32
  // to 689956897 (3^40 = 12157665459056928801).
  EXPECT_EQ(Binary("power", "s32[7] {2, 2, 1, -1, 0, 3, -2}",
                   "s32[7] {10, -1, -5, -1, 0, 40, 3}"),
            "s32[7] {1024, 0, 1, 0, 1, 689956897, -8}");
  EXPECT_EQ(Binary("power", "u8[2] {2, 3}", "u8[2] {8, 5}"), "u8[2] {0, 243}");
  // 1^NaN = NaN^0 = 1; (-8)^(1/3) is NaN for reals.
  EXPECT_EQ(Binary("power", "f32[4] {1, nan, -8, 2}",
                   "f32[4] {nan, 0, 0.33333334, 0.5}"),
            "f32[4] {1, 1, -nan, 1.4142135}");
  // Complex: 1^z = z^0 = 1 even for NaN; 0^z = 0 when Re(z) > 0.
  EXPECT_EQ(Binary("power", "c64[3] {(1, 0), (5, 5), (0, 0)}",
                   "c64[3] {(nan, nan), (0, 0), (2, 1)}"),
            "c64[3] {(1, 0), (1, 0), (0, 0)}");
}

TEST(BinaryTest, Atan2) {
  // atan2(1, 0) = pi/2; atan2(+-0, -1) = +-pi.
  EXPECT_EQ(Binary("atan2", "f32[3] {1, -0, 0}", "f32[3] {0, -1, -1}"),
            "f32[3] {1.5707964, -3.1415927, 3.1415927}");
  EXPECT_EQ(Binary("atan2", "f64[1] {1}", "f64[1] {1}"),
            "f64[1] {0.7853981633974483}");
}

TEST(BinaryTest, BitwiseOps) {
  EXPECT_EQ(Binary("and", "pred[2] {true, true}", "pred[2] {true, false}"),
            "pred[2] {1, 0}");
  EXPECT_EQ(Binary("or", "s32[1] {12}", "s32[1] {3}"), "s32[1] {15}");
  EXPECT_EQ(Binary("xor", "u4[1] {12}", "u4[1] {10}"), "u4[1] {6}");
  EXPECT_EQ(Binary("xor", "pred[2] {true, false}", "pred[2] {true, true}"),
            "pred[2] {0, 1}");
}

TEST(BinaryTest, ShiftsByTheBitWidthOrMoreShiftEverythingOut) {
  EXPECT_EQ(
      Binary("shift-left", "s32[4] {1, 1, -8, -8}", "s32[4] {31, 32, 1, -1}"),
      "s32[4] {-2147483648, 0, -16, 0}");
  EXPECT_EQ(Binary("shift-right-arithmetic", "s32[4] {-8, -8, 8, -1}",
                   "s32[4] {1, 40, 33, -1}"),
            "s32[4] {-4, -1, 0, -1}");
  EXPECT_EQ(
      Binary("shift-right-logical", "s32[3] {-8, 8, -1}", "s32[3] {28, 32, 0}"),
      "s32[3] {15, 0, -1}");
  // Sub-byte types shift at their own width: s4 -8 is 0b1000.
  EXPECT_EQ(Binary("shift-right-logical", "s4[2] {-8, -8}", "s4[2] {1, 4}"),
            "s4[2] {4, 0}");
  EXPECT_EQ(Binary("shift-right-arithmetic", "s4[2] {-8, -8}", "s4[2] {1, 4}"),
            "s4[2] {-4, -1}");
  // u4 8 = 0b1000: the arithmetic shift copies the top bit -> 0b1100.
  EXPECT_EQ(Binary("shift-right-arithmetic", "u4[1] {8}", "u4[1] {1}"),
            "u4[1] {12}");
  EXPECT_EQ(Binary("shift-left", "u4[2] {15, 1}", "u4[2] {1, 4}"),
            "u4[2] {14, 0}");
  EXPECT_EQ(Binary("shift-left", "u64[1] {1}", "u64[1] {63}"),
            "u64[1] {9223372036854775808}");
}

TEST(BinaryTest, ComplexBuildsFromParts) {
  EXPECT_EQ(Binary("complex", "f32[2] {1, 2}", "f32[2] {3, -0}", "c64[2]"),
            "c64[2] {(1, 3), (2, -0)}");
  EXPECT_EQ(Binary("complex", "f64[] 1.5", "f64[] nan", "c128[]"),
            "c128[] (1.5, nan)");
  EXPECT_EQ(Binary("multiply", "c64[1] {(1, 2)}", "c64[1] {(3, 4)}"),
            "c64[1] {(-5, 10)}");
}

// broadcasting.md: a vector matched to dimension 1 is a row repeated for
// each row of the matrix; to dimension 0, a column repeated.
TEST(BroadcastTest, InDimBroadcasting) {
  EXPECT_EQ(
      Binary("add", "f32[2,3] {{1, 2, 3}, {4, 5, 6}}", "f32[3] {10, 20, 30}",
             "f32[2,3]", ", broadcast_dimensions={1}"),
      "f32[2,3] {{11, 22, 33}, {14, 25, 36}}");
  EXPECT_EQ(Binary("add", "f32[3] {7, 8, 9}",
                   "f32[3,3] {{0, 0, 0}, {0, 0, 0}, "
                   "{0, 0, 0}}",
                   "f32[3,3]", ", broadcast_dimensions={0}"),
            "f32[3,3] {{7, 7, 7}, {8, 8, 8}, {9, 9, 9}}");
  // A 3x2 matrix matched to dimensions 1 and 2 of a 2x3x2 cuboid.
  EXPECT_EQ(Binary("subtract",
                   "s32[2,3,2] {{{1, 2}, {3, 4}, {5, 6}}, "
                   "{{7, 8}, {9, 10}, {11, 12}}}",
                   "s32[3,2] {{1, 2}, {3, 4}, {5, 6}}", "s32[2,3,2]",
                   ", broadcast_dimensions={1,2}"),
            "s32[2,3,2] {{{0, 0}, {0, 0}, {0, 0}}, {{6, 6}, {6, 6}, {6, 6}}}");
}

TEST(BroadcastTest, ScalarsAndDegenerateDimensions) {
  EXPECT_EQ(
      Binary("multiply", "f32[] 2", "f32[2,2] {{1, 2}, {3, 4}}", "f32[2,2]"),
      "f32[2,2] {{2, 4}, {6, 8}}");
  // (2,1) and (1,3): the "outer operation".
  EXPECT_EQ(Binary("add", "s32[2,1] {{10}, {20}}", "s32[1,3] {{1, 2, 3}}",
                   "s32[2,3]"),
            "s32[2,3] {{11, 12, 13}, {21, 22, 23}}");
  // broadcasting.md, Broadcast composition: |1 2 3 4| + [5 6] with
  // broadcast_dimensions={0} is a 4x2 matrix.
  EXPECT_EQ(Binary("add", "f32[4] {1, 2, 3, 4}", "f32[1,2] {{5, 6}}",
                   "f32[4,2]", ", broadcast_dimensions={0}"),
            "f32[4,2] {{6, 7}, {7, 8}, {8, 9}, {9, 10}}");
  // A 1x2 matrix and a 2x3x1 array with broadcast_dimensions={1,2}.
  EXPECT_EQ(Binary("add", "f32[1,2] {{1, 2}}",
                   "f32[2,3,1] {{{10}, {20}, {30}}, {{40}, {50}, {60}}}",
                   "f32[2,3,2]", ", broadcast_dimensions={1,2}"),
            "f32[2,3,2] {{{11, 12}, {21, 22}, {31, 32}}, "
            "{{41, 42}, {51, 52}, {61, 62}}}");
  EXPECT_EQ(Binary("add", "f16[0,3] {}", "f16[3] {1, 2, 3}", "f16[0,3]",
                   ", broadcast_dimensions={1}"),
            "f16[0,3] {}");
}

TEST(BroadcastTest, IncompatibleShapesAreErrors) {
  const std::string result =
      Binary("add", "f32[2,3] {{1, 2, 3}, {4, 5, 6}}", "f32[2] {1, 2}",
             "f32[2,3]", ", broadcast_dimensions={1}");
  EXPECT_TRUE(absl::StartsWith(result, "error:")) << result;
}

TEST(BinaryTest, LargeEqualShapesTakeTheFastPath) {
  // The same values through the span loop (equal shapes) and the general
  // path (a degenerate dimension): both must agree.
  std::string values;
  for (int i = 0; i < 64; ++i) absl::StrAppend(&values, i ? ", " : "", i);
  const std::string lhs = absl::StrCat("f32[64] {", values, "}");
  std::string doubled;
  for (int i = 0; i < 64; ++i) absl::StrAppend(&doubled, i ? ", " : "", 2 * i);
  EXPECT_EQ(Binary("add", lhs, lhs), absl::StrCat("f32[64] {", doubled, "}"));
  EXPECT_EQ(Binary("multiply", lhs, "f32[] 2", "f32[64]"),
            absl::StrCat("f32[64] {", doubled, "}"));
}

}  // namespace
}  // namespace kiln
