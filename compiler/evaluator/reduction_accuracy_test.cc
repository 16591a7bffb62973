// reduce's recognised float sums and products accumulate wide and round
// once (reduction_wide.h): results are checked against the exact value
// rounded to the element type, on inputs where a sequential fold in the
// element type is far off. Any other reducer still folds in the spec's
// sequential order in the element type.
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "compiler/evaluator/typed.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

// `f` = (a, b) -> op(a, b) on T[] (recognised); `f_slow` computes the same
// with an extra instruction, so it is not recognised and folds in order.
std::string Combiners(const std::string& type, const std::string& op) {
  return absl::StrCat("f {\n  a = ", type, "[] parameter(0)\n  b = ", type,
                      "[] parameter(1)\n  ROOT r = ", type, "[] ", op,
                      "(a, b)\n}\nf_slow {\n  a = ", type,
                      "[] parameter(0)\n  b = ", type,
                      "[] parameter(1)\n  unused = ", type, "[] ", op,
                      "(b, a)\n  ROOT r = ", type, "[] ", op, "(a, b)\n}\n");
}

// reduce(p0, init) over dimension 0 of a vector, `input`'s type, with
// `combiner` ("f" or "f_slow") of `op`; returns the scalar result.
Literal ReduceVector(const Literal& input, const std::string& op,
                     const std::string& init, const std::string& combiner) {
  const std::string type(ElementTypeName(input.element_type()));
  const std::string hlo = eval_test::EntryModule(
      {input.shape().ToString(false)},
      absl::StrCat("init = ", type, "[] constant(", init,
                   ")\n  ROOT r = ", type,
                   "[] reduce(p0, init), dimensions={0}, to_apply=", combiner),
      Combiners(type, op));
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return Literal();
  absl::StatusOr<Literal> result = Evaluate(**module, {input});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : Literal();
}

// A vector of `type` holding `values` (each exactly representable).
Literal Vector(ElementType type, const std::vector<double>& values) {
  absl::StatusOr<Literal> literal = Literal::Create(
      Shape::Array(type, {static_cast<int64_t>(values.size())}));
  EXPECT_TRUE(literal.ok());
  for (size_t i = 0; i < values.size(); ++i) literal->SetDouble(i, values[i]);
  return *std::move(literal);
}

// `value` rounded once to `type`, as a literal's bits.
uint64_t RoundedBits(ElementType type, double value) {
  Literal scalar = *Literal::Create(Shape::Scalar(type));
  scalar.SetDouble(0, value);
  return scalar.GetBits(0);
}

TEST(ReduceAccuracyTest, F32SumOfOnesPastTwoToThe24IsExact) {
  // A sequential f32 sum of ones stops at 2^24 (16777216 + 1 rounds back);
  // the wide sum is exact.
  constexpr int64_t kCount = (int64_t{1} << 24) + 1000;
  const Literal ones =
      Literal::VectorF32(std::vector<float>(static_cast<size_t>(kCount), 1.0f));
  EXPECT_EQ(eval::Get<float>(ReduceVector(ones, "add", "0", "f"), 0),
            static_cast<float>(kCount));
}

TEST(ReduceAccuracyTest, InitValueJoinsTheWideSum) {
  const Literal ones = Literal::VectorF32(std::vector<float>(1000, 1.0f));
  EXPECT_EQ(eval::Get<float>(ReduceVector(ones, "add", "16777216", "f"), 0),
            16778216.0f);
  // The non-recognised combiner folds in order in f32, as the spec says:
  // 2^24 + 1 rounds back to 2^24 every time.
  EXPECT_EQ(
      eval::Get<float>(ReduceVector(ones, "add", "16777216", "f_slow"), 0),
      16777216.0f);
}

TEST(ReduceAccuracyTest, EachOutputElementRoundsOnceAcrossRuns) {
  // Reducing dimension 0 of [n, 2] visits each output element once per
  // row (a separate run each time): the accumulator must persist.
  constexpr int64_t kRows = 3000;
  std::vector<float> values(2 * kRows, 1.0f);
  const std::string hlo = eval_test::EntryModule(
      {absl::StrCat("f32[", kRows, ",2]")},
      "init = f32[] constant(16777216)\n  ROOT r = f32[2] reduce(p0, init), "
      "dimensions={0}, to_apply=f",
      Combiners("f32", "add"));
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  Literal input = Literal::VectorF32(values);
  absl::StatusOr<Literal> shaped =
      Literal::Create(Shape::Array(ElementType::kF32, {kRows, 2}));
  ASSERT_TRUE(shaped.ok());
  for (int64_t i = 0; i < 2 * kRows; ++i) shaped->SetDouble(i, 1.0);
  absl::StatusOr<Literal> result = Evaluate(**module, {*shaped});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(eval::Get<float>(*result, 0), 16777216.0f + kRows);
  EXPECT_EQ(eval::Get<float>(*result, 1), 16777216.0f + kRows);
}

// Narrow floats: `count` small values whose exact sum fits the type; the
// result is the exact sum rounded once. With `sequential`, also checks
// that the non-recognised combiner's fold in the type is far off (it
// calls the combiner per element, so only on short inputs).
void ExpectNarrowSumCorrectlyRounded(ElementType type, double scale,
                                     int64_t count, bool sequential) {
  std::vector<double> values(count);
  double exact = 0;  // Exact: every partial sum has few significant bits.
  uint32_t state = 12345;
  for (int64_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    values[i] = static_cast<double>((state >> 16) % 64 + 1) * scale;
    exact += values[i];
  }
  const Literal input = Vector(type, values);
  const Literal sum = ReduceVector(input, "add", "0", "f");
  EXPECT_EQ(sum.GetBits(0), RoundedBits(type, exact))
      << ElementTypeName(type) << ": got " << sum.GetDouble(0) << ", exact "
      << exact;
  if (!sequential) return;
  const Literal folded = ReduceVector(input, "add", "0", "f_slow");
  EXPECT_GT(std::fabs(folded.GetDouble(0) - exact), 0.01 * exact)
      << ElementTypeName(type);
}

TEST(ReduceAccuracyTest, F16SumOfAMillionIsCorrectlyRounded) {
  // Values k/2048, k in 1..64: the exact sum of 2^20 is about 16,600.
  ExpectNarrowSumCorrectlyRounded(ElementType::kF16, 1.0 / 2048, 1 << 20,
                                  false);
  ExpectNarrowSumCorrectlyRounded(ElementType::kF16, 1.0 / 2048, 1 << 14, true);
}

TEST(ReduceAccuracyTest, Bf16SumOfAMillionIsCorrectlyRounded) {
  ExpectNarrowSumCorrectlyRounded(ElementType::kBF16, 1.0 / 64, 1 << 20, false);
  ExpectNarrowSumCorrectlyRounded(ElementType::kBF16, 1.0 / 64, 1 << 14, true);
}

TEST(ReduceAccuracyTest, F64SumIsCompensated) {
  // 1e16 + 1 - 1e16, repeated: each 1 is lost in a plain f64 sum.
  std::vector<double> values;
  for (int i = 0; i < 1000; ++i) {
    values.push_back(1e16);
    values.push_back(1.0);
    values.push_back(-1e16);
  }
  const Literal input = Vector(ElementType::kF64, values);
  EXPECT_EQ(ReduceVector(input, "add", "0", "f").GetDouble(0), 1000.0);
  EXPECT_EQ(ReduceVector(input, "add", "0", "f_slow").GetDouble(0), 0.0);
}

TEST(ReduceAccuracyTest, F64ProductIsCompensated) {
  // (1 + 3 * 2^-27)^4 = (2^27 + 3)^4 / 2^108: exact in 128-bit integers,
  // rounded once to double.
  const double x = 1.0 + 3.0 * std::ldexp(1.0, -27);
  const unsigned __int128 base = (static_cast<unsigned __int128>(1) << 27) + 3;
  const unsigned __int128 power = base * base * base * base;
  const double expected = std::ldexp(static_cast<double>(power), -108);
  const Literal input = Vector(ElementType::kF64, {x, x, x, x});
  EXPECT_EQ(ReduceVector(input, "multiply", "1", "f").GetDouble(0), expected);
}

TEST(ReduceAccuracyTest, WideProductsDoNotOverflowMidway) {
  // 2^100 * 2^100 overflows f32 midway; the product of all is 3.
  const std::vector<double> values = {
      std::ldexp(1.0, 100), std::ldexp(1.0, 100), std::ldexp(1.0, -100),
      std::ldexp(1.0, -100), 3.0};
  for (ElementType type : {ElementType::kF32, ElementType::kBF16}) {
    const Literal input = Vector(type, values);
    EXPECT_EQ(ReduceVector(input, "multiply", "1", "f").GetDouble(0), 3.0)
        << ElementTypeName(type);
    EXPECT_TRUE(
        std::isinf(ReduceVector(input, "multiply", "1", "f_slow").GetDouble(0)))
        << ElementTypeName(type);
  }
}

TEST(ReduceAccuracyTest, SpecialValuesKeepTheirMeaning) {
  const double inf = INFINITY;
  EXPECT_EQ(
      ReduceVector(Vector(ElementType::kF64, {1, inf, 2}), "add", "0", "f")
          .GetDouble(0),
      inf);
  EXPECT_TRUE(std::isnan(
      ReduceVector(Vector(ElementType::kF64, {inf, -inf}), "add", "0", "f")
          .GetDouble(0)));
  EXPECT_TRUE(std::isnan(
      ReduceVector(Vector(ElementType::kF32, {1, NAN}), "add", "0", "f")
          .GetDouble(0)));
  // -0 + -0 stays -0 in every accumulator.
  for (ElementType type :
       {ElementType::kF16, ElementType::kF32, ElementType::kF64}) {
    const Literal sum =
        ReduceVector(Vector(type, {-0.0, -0.0}), "add", "-0", "f");
    EXPECT_TRUE(std::signbit(sum.GetDouble(0))) << ElementTypeName(type);
  }
}

TEST(ReduceAccuracyTest, ComplexSumsAccumulateEachPartWide) {
  // c64: 2^24 + 1000 in each part; c128: the 1e16 cancellation per part.
  for (ElementType type : {ElementType::kC64, ElementType::kC128}) {
    const bool c64 = type == ElementType::kC64;
    std::vector<std::complex<double>> values;
    if (c64) {
      values.push_back({16777216.0, -16777216.0});
      for (int i = 0; i < 1000; ++i) values.push_back({1.0, -1.0});
    } else {
      for (int i = 0; i < 100; ++i) {
        values.push_back({1e16, -1e16});
        values.push_back({1.0, 2.0});
        values.push_back({-1e16, 1e16});
      }
    }
    absl::StatusOr<Literal> input = Literal::Create(
        Shape::Array(type, {static_cast<int64_t>(values.size())}));
    ASSERT_TRUE(input.ok());
    for (size_t i = 0; i < values.size(); ++i) {
      input->SetComplex(i, values[i]);
    }
    const Literal sum = ReduceVector(*input, "add", "(0, 0)", "f");
    const std::complex<double> expected =
        c64 ? std::complex<double>(16778216.0, -16778216.0)
            : std::complex<double>(100.0, 200.0);
    EXPECT_EQ(sum.GetComplex(0), expected) << ElementTypeName(type);
  }
}

TEST(ReduceAccuracyTest, OtherReducersFoldSequentiallyInTheType) {
  // A combiner computing a + b + 0 is not recognised: it folds in the
  // spec's order in f32, and gets stuck at 2^24.
  const std::string prelude =
      "g {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  s = f32[] add(a, b)\n  z = f32[] constant(0)\n"
      "  ROOT r = f32[] add(s, z)\n}\n";
  const std::string hlo = eval_test::EntryModule(
      {"f32[1000]"},
      "init = f32[] constant(16777216)\n  ROOT r = f32[] reduce(p0, init), "
      "dimensions={0}, to_apply=g",
      prelude);
  absl::StatusOr<std::unique_ptr<Module>> module = ParseModule(hlo);
  ASSERT_TRUE(module.ok()) << module.status();
  absl::StatusOr<Literal> result =
      Evaluate(**module, {Literal::VectorF32(std::vector<float>(1000, 1.0f))});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(eval::Get<float>(*result, 0), 16777216.0f);
}

}  // namespace
}  // namespace kiln
