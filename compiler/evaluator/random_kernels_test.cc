// rng (uniform / normal), rng-get-and-update-state and rng-bit-generator's
// error paths. (rng-bit-generator's values: random_rng_golden_test.cc.)
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/evaluator/testing/eval_test_util.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

using eval_test::EntryModule;
absl::StatusOr<Literal> RunHlo(absl::string_view hlo,
                               const std::vector<std::string>& arguments = {},
                               const EvalOptions& options = {}) {
  return eval_test::Run(hlo, arguments, options);
}
using eval_test::RunToText;

std::string UniformModule(const std::string& type, const std::string& a,
                          const std::string& b, int64_t n) {
  return EntryModule(
      {}, absl::StrCat("a = ", type, "[] constant(", a, ")\n  b = ", type,
                       "[] constant(", b, ")\n  ROOT r = ", type, "[", n,
                       "] rng(a, b), distribution=rng_uniform"));
}

TEST(RngTest, UniformFloatsStayInHalfOpenRange) {
  for (const char* type : {"f32", "f64", "bf16", "f16"}) {
    SCOPED_TRACE(type);
    absl::StatusOr<Literal> r = RunHlo(UniformModule(type, "-2", "3", 4000));
    ASSERT_TRUE(r.ok()) << r.status();
    double low = 1e9, high = -1e9, sum = 0;
    for (int64_t i = 0; i < r->element_count(); ++i) {
      const double v = r->GetDouble(i);
      ASSERT_GE(v, -2.0);
      ASSERT_LT(v, 3.0);
      low = std::min(low, v);
      high = std::max(high, v);
      sum += v;
    }
    // 4000 draws cover the interval: both ends within 1% and the mean
    // (0.5) within a few standard errors (sd 5/sqrt(12)/sqrt(4000) ~ 0.023).
    EXPECT_LT(low, -1.95);
    EXPECT_GT(high, 2.95);
    EXPECT_NEAR(sum / 4000, 0.5, 0.1);
  }
}

TEST(RngTest, ValuesThatRoundUpToTheBoundAreDrawnAgain) {
  // bf16 has nothing between 1 and 1.0078125 (2^-7 above), so about half
  // the draws round up to b; every element must still be 1.
  absl::StatusOr<Literal> r =
      RunHlo(UniformModule("bf16", "1", "1.0078125", 200));
  ASSERT_TRUE(r.ok()) << r.status();
  for (int64_t i = 0; i < r->element_count(); ++i) {
    ASSERT_EQ(r->GetDouble(i), 1.0) << i;
  }
}

TEST(RngTest, UniformIntegersCoverEveryValueOfTheRange) {
  for (const char* type : {"s32", "u8", "s64", "u64", "s8", "s4"}) {
    SCOPED_TRACE(type);
    absl::StatusOr<Literal> r = RunHlo(UniformModule(type, "1", "6", 500));
    ASSERT_TRUE(r.ok()) << r.status();
    std::set<int64_t> seen;
    for (int64_t i = 0; i < r->element_count(); ++i) {
      const int64_t v = r->GetInt64(i);
      ASSERT_GE(v, 1);
      ASSERT_LT(v, 6);
      seen.insert(v);
    }
    EXPECT_EQ(seen.size(), 5u);
  }
}

TEST(RngTest, UniformOverTheWholeSignedRange) {
  absl::StatusOr<Literal> r = RunHlo(UniformModule(
      "s64", "-9223372036854775808", "9223372036854775807", 1000));
  ASSERT_TRUE(r.ok()) << r.status();
  int negatives = 0;
  for (int64_t i = 0; i < r->element_count(); ++i) {
    negatives += r->GetInt64(i) < 0;
    ASSERT_NE(r->GetInt64(i), INT64_MAX);
  }
  EXPECT_GT(negatives, 400);
  EXPECT_LT(negatives, 600);
}

TEST(RngTest, EmptyIntervalGivesTheLowerBound) {
  // b <= a is implementation-defined; Kiln fills with a.
  EXPECT_EQ(RunToText(UniformModule("f32", "2.5", "2.5", 3)),
            "f32[3] {2.5, 2.5, 2.5}");
  EXPECT_EQ(RunToText(UniformModule("s32", "7", "-1", 2)), "s32[2] {7, 7}");
  // pred in [false, true) can only be false.
  EXPECT_EQ(RunToText(UniformModule("pred", "false", "true", 3)),
            "pred[3] {0, 0, 0}");
}

TEST(RngTest, SameSeedSameValuesOtherSeedOtherValues) {
  const std::string hlo = UniformModule("f32", "0", "1", 16);
  EvalOptions seed1;
  seed1.rng_seed = 1;
  EvalOptions seed2;
  seed2.rng_seed = 2;
  const std::string first = RunToText(hlo, {}, seed1);
  EXPECT_EQ(first, RunToText(hlo, {}, seed1));
  EXPECT_NE(first, RunToText(hlo, {}, seed2));
}

TEST(RngTest, UniformFollowsTheDocumentedAlgorithm) {
  // docs/evaluator_random_collectives.md: u = (draw >> 11) * 2^-53 from
  // std::mt19937_64 seeded with rng_seed, value a + (b - a) * u rounded.
  EvalOptions options;
  options.rng_seed = 42;
  absl::StatusOr<Literal> r =
      RunHlo(UniformModule("f64", "10", "20", 3), {}, options);
  ASSERT_TRUE(r.ok()) << r.status();
  std::mt19937_64 generator(42);
  for (int64_t i = 0; i < 3; ++i) {
    const double u = static_cast<double>(generator() >> 11) * 0x1p-53;
    EXPECT_EQ(r->GetDouble(i), 10 + 10 * u);
  }
  absl::StatusOr<Literal> ints =
      RunHlo(UniformModule("s32", "-3", "4", 3), {}, options);
  ASSERT_TRUE(ints.ok()) << ints.status();
  generator.seed(42);
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ints->GetInt64(i), -3 + static_cast<int64_t>(generator() % 7));
  }
}

TEST(RngTest, SuccessiveRngOpsContinueTheSequence) {
  const std::string hlo =
      EntryModule({},
                  "a = f32[] constant(0)\n  b = f32[] constant(1)\n"
                  "  x = f32[4] rng(a, b), distribution=rng_uniform\n"
                  "  y = f32[4] rng(a, b), distribution=rng_uniform\n"
                  "  ROOT t = (f32[4], f32[4]) tuple(x, y)");
  absl::StatusOr<Literal> r = RunHlo(hlo);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NE(r->tuple_elements()[0], r->tuple_elements()[1]);
}

TEST(RngTest, NormalHasTheRequestedMeanAndDeviation) {
  const std::string hlo = EntryModule(
      {},
      "mu = f64[] constant(5)\n  sigma = f64[] constant(2)\n"
      "  ROOT r = f64[20000] rng(mu, sigma), distribution=rng_normal");
  absl::StatusOr<Literal> r = RunHlo(hlo);
  ASSERT_TRUE(r.ok()) << r.status();
  double sum = 0, squares = 0;
  for (int64_t i = 0; i < r->element_count(); ++i) {
    const double v = r->GetDouble(i);
    ASSERT_TRUE(std::isfinite(v));
    sum += v;
    squares += v * v;
  }
  const double mean = sum / 20000;
  const double deviation = std::sqrt(squares / 20000 - mean * mean);
  EXPECT_NEAR(mean, 5, 0.06);  // standard error 2/sqrt(20000) ~ 0.014
  EXPECT_NEAR(deviation, 2, 0.06);
}

TEST(RngTest, NormalFollowsTheDocumentedAlgorithm) {
  EvalOptions options;
  options.rng_seed = 7;
  const std::string hlo =
      EntryModule({},
                  "mu = f64[] constant(1)\n  sigma = f64[] constant(3)\n"
                  "  ROOT r = f64[2] rng(mu, sigma), distribution=rng_normal");
  absl::StatusOr<Literal> r = RunHlo(hlo, {}, options);
  ASSERT_TRUE(r.ok()) << r.status();
  std::mt19937_64 generator(7);
  for (int64_t i = 0; i < 2; ++i) {
    const double u1 = static_cast<double>((generator() >> 11) + 1) * 0x1p-53;
    const double u2 = static_cast<double>(generator() >> 11) * 0x1p-53;
    const double z = std::sqrt(-2 * std::log(u1)) *
                     std::cos(6.283185307179586476925286766559 * u2);
    EXPECT_EQ(r->GetDouble(i), 1 + 3 * z);
  }
}

TEST(RngGetAndUpdateStateTest, ReturnsTheOldStateAndAdvancesByDelta) {
  const std::string hlo =
      EntryModule({},
                  "a = u64[2] rng-get-and-update-state(), delta=5\n"
                  "  b = u64[2] rng-get-and-update-state(), delta=7\n"
                  "  c = u64[2] rng-get-and-update-state(), delta=1\n"
                  "  ROOT t = (u64[2], u64[2], u64[2]) tuple(a, b, c)");
  EvalOptions options;
  options.rng_seed = 100;
  EXPECT_EQ(RunToText(hlo, {}, options),
            "(u64[2], u64[2], u64[2]) ( {100, 0}, {105, 0}, {112, 0} )");
}

TEST(RngGetAndUpdateStateTest, CounterWrapsAt64Bits) {
  const std::string hlo =
      EntryModule({},
                  "a = u64[2] rng-get-and-update-state(), delta=2\n"
                  "  b = u64[2] rng-get-and-update-state(), delta=1\n"
                  "  ROOT t = (u64[2], u64[2]) tuple(a, b)");
  EvalOptions options;
  options.rng_seed = UINT64_MAX;
  EXPECT_EQ(RunToText(hlo, {}, options),
            "(u64[2], u64[2]) ( {18446744073709551615, 0}, {1, 0} )");
}

TEST(RngBitGeneratorTest, PhiloxStateOfWrongSizeIsAnError) {
  const std::string hlo =
      EntryModule({"u64[4]"},
                  "ROOT r = (u64[4], u32[2]) rng-bit-generator(p0), "
                  "algorithm=rng_default");
  const std::string text = RunToText(hlo, {"u64[4] {1, 2, 3, 4}"});
  EXPECT_NE(text.find("error:"), std::string::npos) << text;
  EXPECT_NE(text.find("u64[4]"), std::string::npos) << text;
}

TEST(RngBitGeneratorTest, SubByteTypesTakeTheLowBits) {
  // u4 takes the low 4 bits of the 32-bit expansion (as u8 takes 8).
  const std::string u8 =
      EntryModule({"u64[2]"},
                  "ROOT r = (u64[2], u8[6]) rng-bit-generator(p0), "
                  "algorithm=rng_philox");
  const std::string u4 =
      EntryModule({"u64[2]"},
                  "ROOT r = (u64[2], u4[6]) rng-bit-generator(p0), "
                  "algorithm=rng_philox");
  absl::StatusOr<Literal> bytes = RunHlo(u8, {"u64[2] {3, 9}"});
  absl::StatusOr<Literal> nibbles = RunHlo(u4, {"u64[2] {3, 9}"});
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ASSERT_TRUE(nibbles.ok()) << nibbles.status();
  for (int64_t i = 0; i < 6; ++i) {
    EXPECT_EQ(nibbles->tuple_elements()[1].GetBits(i),
              bytes->tuple_elements()[1].GetBits(i) & 0xF);
  }
}

}  // namespace
}  // namespace kiln
