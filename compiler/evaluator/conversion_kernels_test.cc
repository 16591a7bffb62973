// convert, bitcast-convert, reduce-precision and stochastic-convert.
// Expected values are worked out by hand from the rules in
// docs/evaluator_elementwise.md (comments show the arithmetic); where bits
// matter, the result goes through bitcast-convert to an integer so that the
// test states the exact bit pattern.
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/ir/literal_text.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
using eval_test::RunToText;

std::string ShapeOf(const std::string& literal) {
  return literal.substr(0, literal.find(' '));
}

// `op`(argument) with result shape `result` and optional attributes.
std::string Op(const std::string& op, const std::string& argument,
               const std::string& result, const std::string& attrs = "") {
  return RunToText(
      EntryModule({ShapeOf(argument)},
                  absl::StrCat("ROOT r = ", result, " ", op, "(p0)", attrs)),
      {argument});
}

std::string Convert(const std::string& argument, const std::string& result) {
  return Op("convert", argument, result);
}

// convert to `via`, then bitcast-convert to `bits` (an integer type of the
// same width): the exact pattern the conversion produced.
std::string ConvertBits(const std::string& argument, const std::string& via,
                        const std::string& bits) {
  return RunToText(
      EntryModule({ShapeOf(argument)},
                  absl::StrCat("c = ", via, " convert(p0)\n  ROOT r = ", bits,
                               " bitcast-convert(c)")),
      {argument});
}

TEST(ConvertTest, SpecExample) {
  EXPECT_EQ(Convert("s32[3] {0, 1, 2}", "f32[3]"), "f32[3] {0, 1, 2}");
}

TEST(ConvertTest, EmptyArrayToItsOwnTypeCopiesNothing) {
  // kiln fuzz (module_fuzzer under UBSan) found memcpy given an empty
  // array's null storage.
  EXPECT_EQ(Convert("f32[0,3] {}", "f32[0,3]"), "f32[0,3] { }");
}

TEST(ConvertTest, FloatToIntegerTruncatesSaturatesAndMapsNaNToZero) {
  EXPECT_EQ(Convert("f32[8] {nan, inf, -inf, 1e10, -1e10, 2.9, -2.9, -0.5}",
                    "s32[8]"),
            "s32[8] {0, 2147483647, -2147483648, 2147483647, -2147483648, 2, "
            "-2, 0}");
  EXPECT_EQ(Convert("f32[4] {-1, 255.9, 256, nan}", "u8[4]"),
            "u8[4] {0, 255, 255, 0}");
  EXPECT_EQ(Convert("f32[4] {7.9, 8, -9, -8.5}", "s4[4]"),
            "s4[4] {7, 7, -8, -8}");
  EXPECT_EQ(Convert("f64[2] {1e300, -1e300}", "u64[2]"),
            "u64[2] {18446744073709551615, 0}");
  EXPECT_EQ(Convert("f64[2] {9.3e18, -9.3e18}", "s64[2]"),
            "s64[2] {9223372036854775807, -9223372036854775808}");
  EXPECT_EQ(Convert("bf16[2] {-inf, 3.5}", "u4[2]"), "u4[2] {0, 3}");
}

TEST(ConvertTest, IntegerToIntegerWraps) {
  // 300 = 256 + 44; -129 = -256 + 127.
  EXPECT_EQ(Convert("s32[2] {300, -129}", "s8[2]"), "s8[2] {44, 127}");
  EXPECT_EQ(Convert("u32[1] {4294967295}", "s32[1]"), "s32[1] {-1}");
  EXPECT_EQ(Convert("s32[2] {-1, 17}", "u4[2]"), "u4[2] {15, 1}");
  EXPECT_EQ(Convert("s4[1] {-8}", "s32[1]"), "s32[1] {-8}");
  EXPECT_EQ(Convert("u4[1] {15}", "s4[1]"), "s4[1] {-1}");
  EXPECT_EQ(Convert("s8[1] {-1}", "u64[1]"), "u64[1] {18446744073709551615}");
  EXPECT_EQ(Convert("pred[2] {true, false}", "s32[2]"), "s32[2] {1, 0}");
}

TEST(ConvertTest, AnythingToPredIsNonZero) {
  EXPECT_EQ(Convert("s32[3] {2, 0, -1}", "pred[3]"), "pred[3] {1, 0, 1}");
  EXPECT_EQ(Convert("f32[3] {nan, -0, 0.5}", "pred[3]"), "pred[3] {1, 0, 1}");
}

TEST(ConvertTest, IntegerToFloatRoundsOnceToNearestEven) {
  // 2^24 + 1 ties to 2^24; 2^24 + 3 ties to 2^24 + 4.
  EXPECT_EQ(Convert("s32[2] {16777217, 16777219}", "f32[2]"),
            "f32[2] {16777216, 16777220}");
  // 2^53 + 1 -> 2^53 in f64.
  EXPECT_EQ(Convert("s64[1] {9007199254740993}", "f64[1]"),
            "f64[1] {9007199254740992}");
  // 2^62 + 2^54 + 1 is just above the midpoint of bf16's 2^62 and
  // 2^62 + 2^55, so it rounds up: bits 0x5E81 = 24193. (Rounding through
  // f64 first would lose the +1, tie, and give 0x5E80.) The negative
  // value differs in the sign bit only: 0xDE81 = 56961.
  EXPECT_EQ(ConvertBits("s64[2] {4629700416936869889, -4629700416936869889}",
                        "bf16[2]", "u16[2]"),
            "u16[2] {24193, 56961}");
  // u64 max = 2^64 - 1 rounds up to 2^64 in f32.
  EXPECT_EQ(Convert("u64[1] {18446744073709551615}", "f32[1]"),
            "f32[1] {1.8446744e+19}");
  // f16 max is 65504; 65520 and above round to inf.
  EXPECT_EQ(Convert("s32[3] {65519, 65520, -70000}", "f16[3]"),
            "f16[3] {65504, inf, -inf}");
  EXPECT_EQ(Convert("s32[1] {1000}", "f8e4m3fn[1]"), "f8e4m3fn[1] {nan}");
  EXPECT_EQ(Convert("u8[2] {0, 17}", "c64[2]"), "c64[2] {(0, 0), (17, 0)}");
}

TEST(ConvertTest, FloatToFloatRoundsOnceWithTheTargetsRules) {
  // 1 + 2^-8 + 2^-30 is above bf16's midpoint 1 + 2^-8, so it rounds up to
  // 1 + 2^-7 (0x3F81 = 16257); through f32 it would lose 2^-30 and tie
  // down to 1.
  EXPECT_EQ(ConvertBits("f64[1] {1.0039062509313226}", "bf16[1]", "u16[1]"),
            "u16[1] {16257}");
  // f16: 65520 ties up to inf; 3e-8 is above half the smallest subnormal
  // (2^-24 = 5.96e-8) and gives it (bits 1); -1e-8 flushes to -0.
  EXPECT_EQ(
      ConvertBits("f32[4] {65520, 65519, 3e-8, -1e-8}", "f16[4]", "u16[4]"),
      "u16[4] {31744, 31743, 1, 32768}");
  // f8e4m3fn: max 448, no inf; 464 rounds down, 480 (the midpoint to the
  // missing 512) and inf become NaN (0x7F = 127; -inf 0xFF = 255).
  EXPECT_EQ(
      ConvertBits("f32[5] {448, 464, 480, inf, -inf}", "f8e4m3fn[5]", "u8[5]"),
      "u8[5] {126, 126, 127, 127, 255}");
  // fnuz: no -0 (it is the NaN pattern 0x80), so -0 becomes +0.
  EXPECT_EQ(ConvertBits("f32[2] {-0, nan}", "f8e4m3fnuz[2]", "u8[2]"),
            "u8[2] {0, 128}");
  EXPECT_EQ(Convert("f32[2] {1e6, -1e-30}", "f8e5m2[2]"),
            "f8e5m2[2] {inf, -0}");
  EXPECT_EQ(Convert("f16[2] {65504, -6e-08}", "f32[2]"),
            "f32[2] {65504, -5.9604645e-08}");
  EXPECT_EQ(Convert("f64[1] {3.4028235677973366e38}", "f32[1]"),
            "f32[1] {inf}");
}

// Complex -> real: the shape rule refuses it ("use real or imag"), but a
// module parsed without shape checks reaches the kernel, which takes the
// real part as XLA's evaluator does.
std::string ConvertUnchecked(const std::string& argument,
                             const std::string& result) {
  ParseOptions options;
  options.check_shapes = false;
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(
      EntryModule({ShapeOf(argument)},
                  absl::StrCat("ROOT r = ", result, " convert(p0)")),
      options);
  if (!module.ok()) return std::string(module.status().message());
  absl::StatusOr<Literal> value = ParseLiteral(argument);
  if (!value.ok()) return std::string(value.status().message());
  absl::StatusOr<Literal> out = Evaluate(**module, {*value});
  if (!out.ok()) return std::string(out.status().message());
  return eval_test::LiteralText(*out);
}

TEST(ConvertTest, ComplexToRealTakesTheRealPart) {
  EXPECT_EQ(ConvertUnchecked("c64[3] {(0, 1), (-2.5, 1), (nan, 0)}", "s32[3]"),
            "s32[3] {0, -2, 0}");
  EXPECT_EQ(ConvertUnchecked("c128[2] {(0, 1), (1e300, 0)}", "f32[2]"),
            "f32[2] {0, inf}");
  EXPECT_EQ(ConvertUnchecked("c64[2] {(0, 1), (3, 0)}", "pred[2]"),
            "pred[2] {0, 1}");
}

TEST(ConvertTest, ComplexConversions) {
  EXPECT_EQ(Convert("f32[2] {1.5, nan}", "c64[2]"),
            "c64[2] {(1.5, 0), (nan, 0)}");
  EXPECT_EQ(Convert("c128[1] {(1e300, 0.1)}", "c64[1]"), "c64[1] {(inf, 0.1)}");
  EXPECT_EQ(Convert("c64[1] {(1.5, 2)}", "c128[1]"), "c128[1] {(1.5, 2)}");
}

TEST(BitcastConvertTest, EqualWidths) {
  EXPECT_EQ(Op("bitcast-convert", "f32[2] {1, -0}", "s32[2]"),
            "s32[2] {1065353216, -2147483648}");
  EXPECT_EQ(Op("bitcast-convert", "u16[1] {16256}", "bf16[1]"), "bf16[1] {1}");
  EXPECT_EQ(Op("bitcast-convert", "s4[2] {-1, 7}", "u4[2]"), "u4[2] {15, 7}");
}

// Found by kiln fuzz under UBSan: a zero-sized value has no storage, and
// copying zero bytes from a null pointer is undefined.
TEST(BitcastConvertTest, ZeroSized) {
  EXPECT_EQ(Op("bitcast-convert", "f32[0] {}", "s32[0]"), "s32[0] {}");
  EXPECT_EQ(Op("bitcast-convert", "u16[0,2] {}", "f16[0,2]"), "f16[0,2] { }");
}

TEST(BitcastConvertTest, DifferentWidthsChangeTheMinorDimension) {
  // Little-endian: element 0 of the new minor dimension is the low half.
  // f32 1 = 0x3F800000 -> f16 0x0000 = 0 and 0x3F80 = 1.875.
  EXPECT_EQ(Op("bitcast-convert", "f32[] 1", "f16[2]"), "f16[2] {0, 1.875}");
  EXPECT_EQ(Op("bitcast-convert", "u8[4] {1, 2, 3, 4}", "u32[]"),
            "u32[] 67305985");  // 0x04030201.
  EXPECT_EQ(Op("bitcast-convert", "s32[1] {305419896}", "s4[1,8]"),
            "s4[1,8] { { -8, 7, 6, 5, 4, 3, 2, 1 } }");  // 0x12345678.
  EXPECT_EQ(Op("bitcast-convert", "s4[2] {-1, 1}", "u8[]"),
            "u8[] 31");  // 0x1F.
  EXPECT_EQ(Op("bitcast-convert", "c64[1] {(1, 2)}", "f32[1,2]"),
            "f32[1,2] { { 1, 2 } }");
  EXPECT_EQ(Op("bitcast-convert", "f64[] 1", "u32[2]"),
            "u32[2] {0, 1072693248}");  // 0x3FF00000_00000000.
  EXPECT_EQ(Op("bitcast-convert", "u32[2] {0, 1072693248}", "f64[]"),
            "f64[] 1");
  EXPECT_EQ(Op("bitcast-convert", "u2[2,2] {{1, 2}, {3, 0}}", "u4[2]"),
            "u4[2] {9, 3}");  // 0b1001 and 0b0011.
}

TEST(ReducePrecisionTest, RoundsToNearestEvenAndClampsTheRange) {
  const std::string attrs = ", exponent_bits=5, mantissa_bits=10";
  // As f16: 1 + 2^-11 ties to 1; 1 + 3*2^-11 ties to 1 + 2^-9; 65520 is
  // past f16's range (inf); 1e-6 is below its smallest normal (zero).
  EXPECT_EQ(Op("reduce-precision",
               "f32[7] {1.00048828125, 1.00146484375, 65520, 1e-6, -0, nan, "
               "-inf}",
               "f32[7]", attrs),
            "f32[7] {1, 1.0019531, inf, 0, -0, nan, -inf}");
  // bf16's layout (8, 7): 1 + 2^-8 ties to 1; 1 + 3*2^-8 to 1 + 2^-6.
  EXPECT_EQ(Op("reduce-precision", "f32[2] {1.00390625, 1.01171875}", "f32[2]",
               ", exponent_bits=8, mantissa_bits=7"),
            "f32[2] {1, 1.015625}");
  // Wider than the type: no change. mantissa_bits=0 keeps powers of two
  // (1.5 ties to 2, 1.25 goes to 1).
  EXPECT_EQ(Op("reduce-precision", "f64[1] {0.1}", "f64[1]",
               ", exponent_bits=11, mantissa_bits=60"),
            "f64[1] {0.1}");
  EXPECT_EQ(Op("reduce-precision", "f32[2] {1.5, 1.25}", "f32[2]",
               ", exponent_bits=8, mantissa_bits=0"),
            "f32[2] {2, 1}");
  EXPECT_EQ(Op("reduce-precision", "bf16[1] {1.5}", "bf16[1]",
               ", exponent_bits=8, mantissa_bits=0"),
            "bf16[1] {2}");
}

TEST(StochasticConvertTest, RandomBitsDecideTheRounding) {
  // 2.25 has fraction 1/4 = 2^30 / 2^32: random bits below 2^30 round the
  // magnitude up.
  const std::string hlo = EntryModule(
      {"f32[8]", "u32[8]"}, "ROOT r = s32[8] stochastic-convert(p0, p1)");
  EXPECT_EQ(RunToText(hlo, {"f32[8] {2.25, 2.25, -2.25, -2.25, nan, inf, "
                            "-inf, 1e10}",
                            "u32[8] {0, 1073741824, 1073741823, 2147483648, "
                            "0, 0, 0, 0}"}),
            "s32[8] {3, 2, -3, -2, 0, 2147483647, -2147483648, 2147483647}");
  // f16 -> u8 with 16 random bits: 0.5 rounds up below 32768; negatives
  // saturate to 0, 300 to 255.
  const std::string narrow = EntryModule(
      {"f16[4]", "u16[4]"}, "ROOT r = u8[4] stochastic-convert(p0, p1)");
  EXPECT_EQ(RunToText(narrow, {"f16[4] {0.5, 0.5, -3, 300}",
                               "u16[4] {32767, 32768, 0, 0}"}),
            "u8[4] {1, 0, 0, 255}");
}

TEST(ConversionErrorsTest, BadInputIsAClearError) {
  const std::string bitcast = Op("bitcast-convert", "u8[3] {1, 2, 3}", "u32[]");
  EXPECT_TRUE(absl::StartsWith(bitcast, "error:")) << bitcast;
}

}  // namespace
}  // namespace kiln
