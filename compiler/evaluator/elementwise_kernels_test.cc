// The unary elementwise kernels: each op on the element types it accepts,
// with edge values (NaN, +-inf, +-0, INT_MIN, sub-byte wrap) and rounding
// of narrow floats. Expected values are worked out by hand from the spec's
// definitions and IEEE 754 (the comments say how where it is not obvious).
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToText;

// Runs `op` on one argument given as literal text "type[dims] {...}"; the
// result type is `result` (the operand's shape when empty).
std::string Unary(const std::string& op, const std::string& argument,
                  std::string result = "") {
  const std::string shape = argument.substr(0, argument.find(' '));
  if (result.empty()) result = shape;
  return RunToText(
      EntryModule({shape}, absl::StrCat("ROOT r = ", result, " ", op, "(p0)")),
      {argument});
}

TEST(UnaryTest, AbsWrapsIntMinAndTakesComplexMagnitudes) {
  EXPECT_EQ(Unary("abs", "s32[4] {-5, -2147483648, 0, 7}"),
            "s32[4] {5, -2147483648, 0, 7}");
  EXPECT_EQ(Unary("abs", "s4[3] {-8, -3, 7}"), "s4[3] {-8, 3, 7}");
  EXPECT_EQ(Unary("abs", "f32[3] {-0, -inf, -1.5}"), "f32[3] {0, inf, 1.5}");
  EXPECT_EQ(Unary("abs", "c64[2] {(3, -4), (-0, 0)}", "f32[2]"),
            "f32[2] {5, 0}");
  EXPECT_EQ(Unary("abs", "c128[1] {(-5, 12)}", "f64[1]"), "f64[1] {13}");
}

TEST(UnaryTest, NegateWrapsIntegersAndFlipsZeroSign) {
  EXPECT_EQ(Unary("negate", "s8[3] {-128, 1, 0}"), "s8[3] {-128, -1, 0}");
  EXPECT_EQ(Unary("negate", "u8[2] {1, 0}"), "u8[2] {255, 0}");
  EXPECT_EQ(Unary("negate", "s4[2] {-8, 7}"), "s4[2] {-8, -7}");
  EXPECT_EQ(Unary("negate", "f32[3] {0, -inf, 2}"), "f32[3] {-0, inf, -2}");
  EXPECT_EQ(Unary("negate", "c64[1] {(1, -2)}"), "c64[1] {(-1, 2)}");
}

TEST(UnaryTest, SignFollowsTheSpecTable) {
  // sgn: -1, -0, NaN, +0, 1 (operation_semantics.md, Sign).
  EXPECT_EQ(Unary("sign", "f32[5] {-2, -0, nan, 0, 3}"),
            "f32[5] {-1, -0, nan, 0, 1}");
  EXPECT_EQ(Unary("sign", "s32[3] {-7, 0, 9}"), "s32[3] {-1, 0, 1}");
  EXPECT_EQ(Unary("sign", "bf16[2] {-inf, 1e-30}"), "bf16[2] {-1, 1}");
  // z / |z|: (3, 4) / 5.
  EXPECT_EQ(Unary("sign", "c64[2] {(3, 4), (0, 0)}"),
            "c64[2] {(0.6, 0.8), (0, 0)}");
}

TEST(UnaryTest, RoundingOps) {
  const std::string x = "f32[6] {-2.5, -0.5, 0.5, 1.5, 2.5, -0}";
  EXPECT_EQ(Unary("round-nearest-afz", x), "f32[6] {-3, -1, 1, 2, 3, -0}");
  EXPECT_EQ(Unary("round-nearest-even", x), "f32[6] {-2, -0, 0, 2, 2, -0}");
  EXPECT_EQ(Unary("floor", x), "f32[6] {-3, -1, 0, 1, 2, -0}");
  EXPECT_EQ(Unary("ceil", x), "f32[6] {-2, -0, 1, 2, 3, -0}");
  EXPECT_EQ(Unary("floor", "f16[2] {nan, -inf}"), "f16[2] {nan, -inf}");
  EXPECT_EQ(Unary("round-nearest-even", "f64[2] {4.5, 5.5}"), "f64[2] {4, 6}");
}

// An invalid operation in an x86 instruction (sqrt(-1), log(-1), cos(inf))
// gives the default NaN, whose sign bit is set: "-nan"; libm's acos and
// acosh return +nan. The evaluator passes the host's NaN on (pred prints
// as 0/1).
TEST(UnaryTest, RootsAndExponentials) {
  EXPECT_EQ(Unary("sqrt", "f32[4] {4, -1, -0, inf}"),
            "f32[4] {2, -nan, -0, inf}");
  EXPECT_EQ(Unary("rsqrt", "f32[3] {4, 0, inf}"), "f32[3] {0.5, inf, 0}");
  EXPECT_EQ(Unary("cbrt", "f32[3] {-8, 27, -0}"), "f32[3] {-2, 3, -0}");
  EXPECT_EQ(Unary("exponential", "f32[3] {0, -inf, inf}"),
            "f32[3] {1, 0, inf}");
  EXPECT_EQ(Unary("log", "f32[4] {1, 0, -1, inf}"),
            "f32[4] {0, -inf, -nan, inf}");
  // expm1 and log1p keep tiny arguments exact where exp/log would not.
  EXPECT_EQ(Unary("exponential-minus-one", "f64[2] {1e-20, -inf}"),
            "f64[2] {1e-20, -1}");
  EXPECT_EQ(Unary("log-plus-one", "f64[2] {1e-20, -1}"),
            "f64[2] {1e-20, -inf}");
  EXPECT_EQ(Unary("logistic", "f32[3] {0, -1000, 1000}"), "f32[3] {0.5, 0, 1}");
  // Below -88.7, e^-x overflows f32; the result is still the correctly
  // rounded tiny value (27 * 2^-149 for -100), found by the conformance
  // suite (spec_tests/elementwise/logistic.hlotest).
  EXPECT_EQ(Unary("logistic", "f32[2] {-100, -20}"),
            "f32[2] {3.8e-44, 2.0611537e-09}");
}

TEST(UnaryTest, NarrowFloatsRoundTheF32ResultToNearestEven) {
  // e = 2.71828...: bf16 (8 significant bits) and f16 (11) both round it
  // to 2.71875 = 87/32; f8e4m3fn (4 bits) to 2.75. Literals print the
  // shortest text that reads back to the same value: bf16 2.71875 prints
  // "2.72" (its neighbours are 2.703125 and 2.734375), f8e4m3fn 2.75
  // prints "2.8" (neighbours 2.5 and 3).
  EXPECT_EQ(Unary("exponential", "bf16[1] {1}"), "bf16[1] {2.72}");
  EXPECT_EQ(Unary("exponential", "f16[1] {1}"), "f16[1] {2.719}");
  EXPECT_EQ(Unary("exponential", "f8e4m3fn[1] {1}"), "f8e4m3fn[1] {2.8}");
  // sqrt(2) = 1.41421...: f8e5m2 (3 bits) has 1.25 and 1.5 nearby -> 1.5.
  EXPECT_EQ(Unary("sqrt", "f8e5m2[1] {2}"), "f8e5m2[1] {1.5}");
  // exp(12) = 162754.8 overflows f16 (max 65504) to inf.
  EXPECT_EQ(Unary("exponential", "f16[1] {12}"), "f16[1] {inf}");
}

TEST(UnaryTest, EveryNarrowFloatFamily) {
  EXPECT_EQ(Unary("negate", "f4e2m1fn[2] {1.5, -6}"), "f4e2m1fn[2] {-1.5, 6}");
  EXPECT_EQ(Unary("abs", "f8e4m3fnuz[2] {-2, 0.5}"), "f8e4m3fnuz[2] {2, 0.5}");
  EXPECT_EQ(Unary("floor", "f6e3m2fn[2] {2.5, -2.5}"), "f6e3m2fn[2] {2, -3}");
  EXPECT_EQ(Unary("ceil", "f6e2m3fn[1] {1.25}"), "f6e2m3fn[1] {2}");
  EXPECT_EQ(Unary("sign", "f8e3m4[2] {-3, 0}"), "f8e3m4[2] {-1, 0}");
  EXPECT_EQ(Unary("sqrt", "f8e8m0fnu[2] {4, 0.25}"), "f8e8m0fnu[2] {2, 0.5}");
  EXPECT_EQ(Unary("negate", "f8e4m3b11fnuz[1] {0.125}"),
            "f8e4m3b11fnuz[1] {-0.125}");
  EXPECT_EQ(Unary("exponential", "f64[1] {1}"), "f64[1] {2.718281828459045}");
}

TEST(UnaryTest, Trigonometric) {
  EXPECT_EQ(Unary("sine", "f32[2] {0, -0}"), "f32[2] {0, -0}");
  EXPECT_EQ(Unary("cosine", "f32[2] {0, inf}"), "f32[2] {1, -nan}");
  EXPECT_EQ(Unary("tan", "f32[1] {0}"), "f32[1] {0}");
  EXPECT_EQ(Unary("tanh", "f32[3] {inf, -inf, 0}"), "f32[3] {1, -1, 0}");
  EXPECT_EQ(Unary("erf", "f32[3] {inf, -inf, 0}"), "f32[3] {1, -1, 0}");
  EXPECT_EQ(Unary("acos", "f32[2] {1, 2}"), "f32[2] {0, nan}");
  EXPECT_EQ(Unary("asin", "f32[1] {0}"), "f32[1] {0}");
  // atan(inf) = pi/2, rounded to f32.
  EXPECT_EQ(Unary("atan", "f32[1] {inf}"), "f32[1] {1.5707964}");
  EXPECT_EQ(Unary("cosh", "f32[2] {0, -inf}"), "f32[2] {1, inf}");
  EXPECT_EQ(Unary("sinh", "f32[2] {-0, -inf}"), "f32[2] {-0, -inf}");
  EXPECT_EQ(Unary("acosh", "f32[2] {1, 0}"), "f32[2] {0, -nan}");
  EXPECT_EQ(Unary("asinh", "f32[1] {-inf}"), "f32[1] {-inf}");
  EXPECT_EQ(Unary("atanh", "f32[3] {0, 1, -1}"), "f32[3] {0, inf, -inf}");
}

TEST(UnaryTest, ComplexFunctions) {
  EXPECT_EQ(Unary("exponential", "c64[1] {(0, 0)}"), "c64[1] {(1, 0)}");
  EXPECT_EQ(Unary("log", "c64[1] {(1, 0)}"), "c64[1] {(0, 0)}");
  // The principal square root of -4 is 2i.
  EXPECT_EQ(Unary("sqrt", "c128[1] {(-4, 0)}"), "c128[1] {(0, 2)}");
  EXPECT_EQ(Unary("rsqrt", "c64[1] {(4, 0)}"), "c64[1] {(0.5, 0)}");
  EXPECT_EQ(Unary("exponential-minus-one", "c128[1] {(0, 0)}"),
            "c128[1] {(0, 0)}");
  EXPECT_EQ(Unary("log-plus-one", "c128[1] {(0, 0)}"), "c128[1] {(0, 0)}");
  EXPECT_EQ(Unary("cbrt", "c128[1] {(8, 0)}"), "c128[1] {(2, 0)}");
  EXPECT_EQ(Unary("tanh", "c64[1] {(0, 0)}"), "c64[1] {(0, 0)}");
  EXPECT_EQ(Unary("logistic", "c64[1] {(0, 0)}"), "c64[1] {(0.5, 0)}");
}

TEST(UnaryTest, RealImagAndIsFinite) {
  EXPECT_EQ(Unary("real", "c64[2] {(1, 2), (-3, nan)}", "f32[2]"),
            "f32[2] {1, -3}");
  EXPECT_EQ(Unary("imag", "c64[2] {(1, 2), (-3, nan)}", "f32[2]"),
            "f32[2] {2, nan}");
  EXPECT_EQ(Unary("real", "f32[2] {1.5, -0}"), "f32[2] {1.5, -0}");
  EXPECT_EQ(Unary("imag", "f32[2] {1.5, nan}"), "f32[2] {0, 0}");
  EXPECT_EQ(Unary("is-finite", "f16[4] {inf, nan, 65504, -0}", "pred[4]"),
            "pred[4] {0, 0, 1, 1}");
  EXPECT_EQ(Unary("is-finite", "f8e4m3fn[2] {448, nan}", "pred[2]"),
            "pred[2] {1, 0}");
}

TEST(UnaryTest, BitOps) {
  EXPECT_EQ(Unary("not", "pred[2] {1, 0}"), "pred[2] {0, 1}");
  EXPECT_EQ(Unary("not", "s32[2] {0, -1}"), "s32[2] {-1, 0}");
  EXPECT_EQ(Unary("not", "u4[2] {5, 0}"), "u4[2] {10, 15}");
  EXPECT_EQ(Unary("not", "s4[1] {-8}"), "s4[1] {7}");
  EXPECT_EQ(Unary("popcnt", "s32[3] {-1, 7, 0}"), "s32[3] {32, 3, 0}");
  EXPECT_EQ(Unary("popcnt", "s4[2] {-1, -8}"), "s4[2] {4, 1}");
  EXPECT_EQ(Unary("popcnt", "u64[1] {18446744073709551615}"), "u64[1] {64}");
  EXPECT_EQ(Unary("count-leading-zeros", "s32[3] {0, 1, -1}"),
            "s32[3] {32, 31, 0}");
  EXPECT_EQ(Unary("count-leading-zeros", "s4[3] {1, 0, -8}"),
            "s4[3] {3, 4, 0}");
  EXPECT_EQ(Unary("count-leading-zeros", "u64[1] {1}"), "u64[1] {63}");
  EXPECT_EQ(Unary("count-leading-zeros", "u8[1] {16}"), "u8[1] {3}");
}

TEST(UnaryTest, ScalarsAndEmptyArrays) {
  EXPECT_EQ(Unary("negate", "f32[] 2"), "f32[] -2");
  EXPECT_EQ(Unary("exponential", "f32[0] {}"), "f32[0] {}");
}

TEST(UnaryTest, UnsupportedTypeIsAnErrorNotACrash) {
  // The parser's shape checks refuse this first; the message names the op.
  const std::string result = Unary("floor", "s32[1] {1}");
  EXPECT_TRUE(absl::StartsWith(result, "error:")) << result;
}

}  // namespace
}  // namespace kiln
