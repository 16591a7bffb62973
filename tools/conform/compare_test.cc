#include "tools/conform/compare.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "compiler/ir/float_convert.h"
#include "compiler/text/parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/conform/tolerance.h"

namespace kiln::conform {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

uint64_t Bits(ElementType type, double v) { return FloatToBits(type, v); }

TEST(UlpDistanceTest, F32Neighbours) {
  const ElementType f32 = ElementType::kF32;
  EXPECT_EQ(UlpDistance(f32, Bits(f32, 1.0), Bits(f32, 1.0)), 0u);
  EXPECT_EQ(
      UlpDistance(f32, Bits(f32, 1.0), Bits(f32, std::nextafter(1.0f, 2.0f))),
      1u);
  EXPECT_EQ(UlpDistance(f32, Bits(f32, 1.0), Bits(f32, 2.0)), 1u << 23);
}

TEST(UlpDistanceTest, ZerosAndCrossingZero) {
  const ElementType f32 = ElementType::kF32;
  EXPECT_EQ(UlpDistance(f32, Bits(f32, 0.0), Bits(f32, -0.0)), 0u);
  const double tiny = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(UlpDistance(f32, Bits(f32, -tiny), Bits(f32, tiny)), 2u);
}

TEST(UlpDistanceTest, NaNHasNoDistance) {
  const ElementType f32 = ElementType::kF32;
  EXPECT_FALSE(UlpDistance(f32, Bits(f32, NAN), Bits(f32, 1.0)).has_value());
  EXPECT_FALSE(UlpDistance(ElementType::kS32, 1, 2).has_value());
}

TEST(UlpDistanceTest, NarrowFloats) {
  // bf16: 7 fraction bits, so 1 and 1 + 2^-7 are neighbours.
  EXPECT_EQ(UlpDistance(ElementType::kBF16, Bits(ElementType::kBF16, 1.0),
                        Bits(ElementType::kBF16, 1.0078125)),
            1u);
  // f8e4m3fn: 3 fraction bits; 448 is the largest value, 416 below it.
  EXPECT_EQ(
      UlpDistance(ElementType::kF8E4M3FN, Bits(ElementType::kF8E4M3FN, 416),
                  Bits(ElementType::kF8E4M3FN, 448)),
      1u);
  // f8e4m3fnuz: a single zero, and the "negative zero" pattern is NaN.
  EXPECT_FALSE(UlpDistance(ElementType::kF8E4M3FNUZ, 0x80, 0x00).has_value());
  EXPECT_EQ(UlpDistance(ElementType::kF8E4M3FNUZ, 0x01, 0x81), 2u);
  // f8e8m0fnu: unsigned powers of two; 1 -> 2 -> 4 are neighbours.
  EXPECT_EQ(
      UlpDistance(ElementType::kF8E8M0FNU, Bits(ElementType::kF8E8M0FNU, 1),
                  Bits(ElementType::kF8E8M0FNU, 4)),
      2u);
  // f4e2m1fn: 0.5, 1, 1.5 are consecutive.
  EXPECT_EQ(
      UlpDistance(ElementType::kF4E2M1FN, Bits(ElementType::kF4E2M1FN, 0.5),
                  Bits(ElementType::kF4E2M1FN, 1.5)),
      2u);
}

TEST(FloatElementMatchesTest, ExactIsBitwiseWithNaNMatchingAnyNaN) {
  const ElementType f32 = ElementType::kF32;
  const Tolerance exact = Tolerance::Exact();
  EXPECT_TRUE(FloatElementMatches(f32, Bits(f32, 1.5), Bits(f32, 1.5), exact));
  EXPECT_FALSE(
      FloatElementMatches(f32, Bits(f32, 0.0), Bits(f32, -0.0), exact));
  EXPECT_TRUE(FloatElementMatches(f32, 0x7fc00000, 0xffc00001, exact));
  EXPECT_FALSE(FloatElementMatches(f32, 0x7fc00000, Bits(f32, 1.0), exact));
  EXPECT_FALSE(FloatElementMatches(f32, Bits(f32, 1.0), 0x7fc00000,
                                   Tolerance::Ulps(1000)));
}

TEST(FloatElementMatchesTest, UlpAndAbsRel) {
  const ElementType f32 = ElementType::kF32;
  const uint64_t one = Bits(f32, 1.0);
  EXPECT_TRUE(FloatElementMatches(f32, one, one + 2, Tolerance::Ulps(2)));
  EXPECT_FALSE(FloatElementMatches(f32, one, one + 3, Tolerance::Ulps(2)));
  EXPECT_TRUE(FloatElementMatches(f32, Bits(f32, 0.0), Bits(f32, -0.0),
                                  Tolerance::Ulps(0)));
  EXPECT_TRUE(FloatElementMatches(f32, Bits(f32, 100), Bits(f32, 100.5),
                                  Tolerance::AbsRel(0, 0.01)));
  EXPECT_FALSE(FloatElementMatches(f32, Bits(f32, 100), Bits(f32, 102),
                                   Tolerance::AbsRel(1, 0.001)));
  // Infinity matches only itself, however loose the tolerance.
  EXPECT_FALSE(FloatElementMatches(f32, Bits(f32, INFINITY),
                                   Bits(f32, 3.4028234663852886e38),
                                   Tolerance::Ulps(4)));
}

ToleranceFor Fixed(Tolerance t) {
  return [t](ElementType) { return t; };
}

TEST(CompareLiteralsTest, ReportsFirstDifferenceAndUlps) {
  Literal expected = Literal::VectorF32({1, 2, 3});
  Literal actual = Literal::VectorF32({1, std::nextafter(2.0f, 3.0f), 5});
  Comparison c = CompareLiterals(expected, actual, Fixed(Tolerance::Exact()));
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.elements, 3);
  EXPECT_THAT(c.report, HasSubstr("2 of 3 elements differ (tolerance exact)"));
  EXPECT_THAT(c.report, HasSubstr("expected: f32[3] {1, 2, 3}"));
  EXPECT_THAT(c.report, HasSubstr("first difference at [1]: expected 2, "
                                  "actual 2.0000002, 1 ULP"));
  EXPECT_THAT(c.report, Not(HasSubstr("histogram")));
  EXPECT_TRUE(
      CompareLiterals(expected, expected, Fixed(Tolerance::Exact())).ok);
}

TEST(CompareLiteralsTest, HistogramOnLargeArrays) {
  std::vector<float> e(20, 1.0f);
  std::vector<float> a(20, 1.0f);
  a[3] = std::nextafter(1.0f, 2.0f);
  a[4] = std::nextafter(a[3], 2.0f);
  a[5] = 10.0f;
  Comparison c = CompareLiterals(Literal::VectorF32(e), Literal::VectorF32(a),
                                 Fixed(Tolerance::Ulps(1)));
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.ulp_histogram[0], 17);
  EXPECT_EQ(c.ulp_histogram[1], 1);
  EXPECT_EQ(c.ulp_histogram[2], 1);
  EXPECT_EQ(c.ulp_histogram[4], 1);
  EXPECT_THAT(c.report, HasSubstr("first difference at [4]"));
  EXPECT_THAT(c.report,
              HasSubstr("ULP histogram: 0: 17  1: 1  2: 1  3: 0  >=4: 1"));
}

TEST(CompareLiteralsTest, IntegersShapesAndTuples) {
  Comparison ints =
      CompareLiterals(Literal::VectorS32({1, 2}), Literal::VectorS32({1, 3}),
                      Fixed(Tolerance::Ulps(5)));
  EXPECT_FALSE(ints.ok);
  EXPECT_THAT(ints.report, HasSubstr("expected 2, actual 3"));
  Comparison shape =
      CompareLiterals(Literal::VectorS32({1, 2}), Literal::VectorS32({1}),
                      Fixed(Tolerance::Exact()));
  EXPECT_FALSE(shape.ok);
  EXPECT_THAT(shape.report, HasSubstr("shape: expected s32[2], actual s32[1]"));
  Literal e = Literal::Tuple({Literal::ScalarF32(1), Literal::ScalarS32(2)});
  Literal a = Literal::Tuple({Literal::ScalarF32(1), Literal::ScalarS32(3)});
  Comparison tuple = CompareLiterals(e, a, Fixed(Tolerance::Exact()));
  EXPECT_FALSE(tuple.ok);
  EXPECT_THAT(tuple.report, HasSubstr("{1}: 1 of 1 elements differ"));
}

TEST(CompareLiteralsTest, ComplexByPartsOrRelativeError) {
  absl::StatusOr<Literal> e = ParseLiteral("c64[1] {(1000, 0.001)}");
  absl::StatusOr<Literal> a = ParseLiteral("c64[1] {(1000, 0.0010001)}");
  ASSERT_TRUE(e.ok() && a.ok());
  // The imaginary part is far off in its own ULPs, but the value is within
  // 4 epsilon of |e|.
  EXPECT_TRUE(CompareLiterals(*e, *a, Fixed(Tolerance::Ulps(4))).ok);
  EXPECT_FALSE(CompareLiterals(*e, *a, Fixed(Tolerance::Exact())).ok);
}

std::unique_ptr<Module> Parse(const char* text) {
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(text);
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : nullptr;
}

TEST(ToleranceTest, Parse) {
  EXPECT_TRUE(ParseTolerance("exact")->exact);
  EXPECT_EQ(ParseTolerance("ulp=3")->ulps, 3);
  absl::StatusOr<Tolerance> t = ParseTolerance("abs=1e-6 rel=0.5");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->abs, 1e-6);
  EXPECT_EQ(t->rel, 0.5);
  EXPECT_EQ(t->ToString(), "abs=1e-06 rel=0.5");
  EXPECT_FALSE(ParseTolerance("").ok());
  EXPECT_FALSE(ParseTolerance("ulps=2").ok());
  EXPECT_FALSE(ParseTolerance("abs=x").ok());
}

TEST(ToleranceTest, DefaultsPerOpAndType) {
  std::unique_ptr<Module> exp = Parse(R"(HloModule m
ENTRY e {
  a = f32[4] parameter(0)
  ROOT r = f32[4] exponential(a)
})");
  ASSERT_NE(exp, nullptr);
  EXPECT_EQ(DefaultTolerance(*exp, ElementType::kF32).ToString(), "ulp=2");
  EXPECT_EQ(DefaultTolerance(*exp, ElementType::kBF16).ToString(), "ulp=1");
  EXPECT_TRUE(DefaultTolerance(*exp, ElementType::kS32).exact);
  EXPECT_EQ(TranscendentalUlps("add", ElementType::kF32), -1);
  EXPECT_EQ(TranscendentalUlps("sqrt", ElementType::kF32), -1);
  EXPECT_EQ(TranscendentalUlps("sqrt", ElementType::kC64), 4);

  std::unique_ptr<Module> reduce = Parse(R"(HloModule m
sum {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  a = f32[8,100] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[8] reduce(a, z), dimensions={1}, to_apply=sum
})");
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(LongestReduction(*reduce), 100);
  Tolerance t = DefaultTolerance(*reduce, ElementType::kF32);
  EXPECT_FALSE(t.exact);
  EXPECT_DOUBLE_EQ(t.rel, 100 * std::ldexp(1.0, -23));

  std::unique_ptr<Module> dot = Parse(R"(HloModule m
ENTRY e {
  a = f32[2,30] parameter(0)
  b = f32[30,3] parameter(1)
  ROOT r = f32[2,3] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
})");
  ASSERT_NE(dot, nullptr);
  EXPECT_EQ(LongestReduction(*dot), 30);
}

}  // namespace
}  // namespace kiln::conform
