// The monoid path of reduce-window (reduction_window_monoid.h) against the
// general path (one combiner call per window cell, the spec's fold) on
// random shapes, windows, strides, dilations and padding, for every monoid
// and a spread of element types. The values are chosen so that both paths
// compute exactly (small integers, powers of two): the results must agree
// value for value (NaNs as NaNs, -0 as 0).
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/evaluator/evaluator.h"
#include "compiler/ir/literal.h"
#include "compiler/text/parser.h"
#include "gtest/gtest.h"

namespace kiln {
namespace {

struct Case {
  std::string type;
  std::string op;
};

// reduce-window of p0 with `window` folding with `op`: with `slow`, the
// combiner has a dead second op, which keeps it off every fast path.
std::string WindowHlo(const std::string& type, const std::string& op,
                      const std::string& in_shape, const std::string& out_shape,
                      const std::string& init, const std::string& window,
                      bool slow) {
  const std::string dead =
      slow ? absl::StrCat("  d = ", type, "[] ", op, "(b, a)\n") : "";
  return absl::StrCat(
      "HloModule m\nf {\n  a = ", type, "[] parameter(0)\n", "  b = ", type,
      "[] parameter(1)\n", dead, "  ROOT r = ", type, "[] ", op,
      "(a, b)\n}\nENTRY e {\n  p = ", in_shape, " parameter(0)\n  i = ", type,
      "[] constant(", init, ")\n  ROOT w = ", out_shape,
      " reduce-window(p, i), window={", window, "}, to_apply=f\n}\n");
}

// A value both paths compute exactly with: small integers for add and the
// integer ops, powers of two (and -1) for multiply, anything small for
// max/min (with an occasional NaN and -0 for floats).
double DrawValue(const Case& c, std::mt19937_64& gen, bool is_float) {
  if (c.op == "multiply") {
    const double choices[] = {0.5, 1, 2, -1};
    return is_float ? choices[gen() % 4] : static_cast<double>(gen() % 3) - 1;
  }
  if (is_float && (c.op == "maximum" || c.op == "minimum")) {
    const uint64_t pick = gen() % 20;
    if (pick == 0) return std::nan("");
    if (pick == 1) return -0.0;
  }
  return static_cast<double>(gen() % 5) - 2;
}

bool SameValue(const Literal& a, const Literal& b, int64_t i) {
  if (a.element_type() == ElementType::kPred ||
      !IsFloatType(a.element_type())) {
    return a.GetBits(i) == b.GetBits(i);
  }
  const double x = a.GetDouble(i), y = b.GetDouble(i);
  return (std::isnan(x) && std::isnan(y)) || x == y;
}

TEST(ReduceWindowMonoidTest, MatchesTheGeneralPathOnRandomWindows) {
  const std::vector<Case> cases = {
      {"f32", "add"},       {"f32", "maximum"}, {"f32", "minimum"},
      {"f32", "multiply"},  {"bf16", "add"},    {"bf16", "maximum"},
      {"bf16", "multiply"}, {"f16", "add"},     {"f64", "add"},
      {"f64", "multiply"},  {"f64", "minimum"}, {"s32", "add"},
      {"s32", "multiply"},  {"s32", "maximum"}, {"s8", "minimum"},
      {"u16", "and"},       {"s64", "or"},      {"s4", "add"},
      {"pred", "and"},      {"pred", "or"},     {"pred", "maximum"}};
  std::mt19937_64 gen(13);
  int compared = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const Case& c = cases[trial % cases.size()];
    const int rank = 1 + static_cast<int>(gen() % 3);
    std::vector<int64_t> dims, out_dims;
    std::vector<std::string> size, stride, pad, lhs, rhs;
    bool valid = true;
    for (int d = 0; d < rank; ++d) {
      const int64_t n = static_cast<int64_t>(gen() % (rank == 1 ? 40 : 6));
      const int64_t w = 1 + static_cast<int64_t>(gen() % 4);
      const int64_t s = 1 + static_cast<int64_t>(gen() % 3);
      const int64_t bd = 1 + static_cast<int64_t>(gen() % 3);
      const int64_t wd = 1 + static_cast<int64_t>(gen() % 3);
      const int64_t lo = static_cast<int64_t>(gen() % 6) - 1;
      const int64_t hi = static_cast<int64_t>(gen() % 6) - 1;
      const int64_t base = n == 0 ? 0 : (n - 1) * bd + 1;
      const int64_t padded = base + lo + hi;
      const int64_t span = (w - 1) * wd + 1;
      if (padded < 0) valid = false;
      dims.push_back(n);
      out_dims.push_back(padded < span ? 0 : (padded - span) / s + 1);
      size.push_back(absl::StrCat(w));
      stride.push_back(absl::StrCat(s));
      pad.push_back(absl::StrCat(lo, "_", hi));
      lhs.push_back(absl::StrCat(bd));
      rhs.push_back(absl::StrCat(wd));
    }
    if (!valid) continue;
    const std::string window =
        absl::StrCat("size=", absl::StrJoin(size, "x"),
                     " stride=", absl::StrJoin(stride, "x"),
                     " pad=", absl::StrJoin(pad, "x"),
                     " lhs_dilate=", absl::StrJoin(lhs, "x"),
                     " rhs_dilate=", absl::StrJoin(rhs, "x"));
    const std::string in_shape =
        absl::StrCat(c.type, "[", absl::StrJoin(dims, ","), "]");
    const std::string out_shape =
        absl::StrCat(c.type, "[", absl::StrJoin(out_dims, ","), "]");
    const bool is_float = c.type[0] == 'f' || c.type == "bf16";
    const bool pred = c.type == "pred";
    const double init_value = DrawValue(c, gen, is_float);
    std::string init =
        std::isnan(init_value)
            ? std::string("nan")
            : absl::StrCat(init_value == 0 && std::signbit(init_value)
                               ? "-0"
                               : absl::StrCat(init_value));
    if (pred) init = gen() % 2 ? "true" : "false";
    absl::StatusOr<std::unique_ptr<Module>> fast = ParseModule(
        WindowHlo(c.type, c.op, in_shape, out_shape, init, window, false));
    absl::StatusOr<std::unique_ptr<Module>> slow = ParseModule(
        WindowHlo(c.type, c.op, in_shape, out_shape, init, window, true));
    if (!fast.ok() || !slow.ok()) continue;  // A window the rule refuses.
    absl::StatusOr<Literal> argument =
        Literal::Create((*fast)->entry()->parameter(0)->shape());
    ASSERT_TRUE(argument.ok());
    for (int64_t i = 0; i < argument->element_count(); ++i) {
      if (pred) {
        argument->SetBits(i, gen() % 2);
      } else {
        argument->SetDouble(i, DrawValue(c, gen, is_float));
      }
    }
    std::vector<Literal> arguments;
    arguments.push_back(std::move(*argument));
    absl::StatusOr<Literal> expected = Evaluate(**slow, arguments);
    absl::StatusOr<Literal> actual = Evaluate(**fast, arguments);
    ASSERT_TRUE(expected.ok()) << expected.status();
    ASSERT_TRUE(actual.ok()) << actual.status();
    ASSERT_EQ(expected->element_count(), actual->element_count());
    for (int64_t i = 0; i < expected->element_count(); ++i) {
      ASSERT_TRUE(SameValue(*expected, *actual, i))
          << c.type << " " << c.op << " " << in_shape << " window={" << window
          << "} init=" << init << " element " << i << ": expected "
          << expected->GetDouble(i) << ", actual " << actual->GetDouble(i);
    }
    ++compared;
  }
  EXPECT_GT(compared, 300);
}

// The cost does not depend on the overlap: a cumulative sum (window n,
// padding n-1 low) over 200k elements, and a 255-wide moving max, are
// exact and quick (the general path would take n^2/2 combiner steps).
TEST(ReduceWindowMonoidTest, CumulativeSumAndWideWindows) {
  constexpr int64_t n = 200000;
  const std::string shape = absl::StrCat("s64[", n, "]");
  absl::StatusOr<std::unique_ptr<Module>> cumsum = ParseModule(
      WindowHlo("s64", "add", shape, shape, "0",
                absl::StrCat("size=", n, " pad=", n - 1, "_0"), false));
  ASSERT_TRUE(cumsum.ok()) << cumsum.status();
  std::vector<Literal> arguments;
  arguments.push_back(*Literal::Create(Shape::Array(ElementType::kS64, {n})));
  for (int64_t i = 0; i < n; ++i) arguments[0].SetInt64(i, i % 7 - 3);
  absl::StatusOr<Literal> sums = Evaluate(**cumsum, arguments);
  ASSERT_TRUE(sums.ok()) << sums.status();
  int64_t running = 0;
  for (int64_t i = 0; i < n; ++i) {
    running += i % 7 - 3;
    ASSERT_EQ(sums->GetInt64(i), running) << i;
  }
  absl::StatusOr<std::unique_ptr<Module>> moving_max = ParseModule(WindowHlo(
      "s64", "maximum", shape, shape, "-100", "size=255 pad=127_127", false));
  ASSERT_TRUE(moving_max.ok()) << moving_max.status();
  for (int64_t i = 0; i < n; ++i) arguments[0].SetInt64(i, (i * 7919) % 1000);
  absl::StatusOr<Literal> maxima = Evaluate(**moving_max, arguments);
  ASSERT_TRUE(maxima.ok()) << maxima.status();
  for (int64_t i = 0; i < n; i += 997) {
    int64_t expected = -100;
    for (int64_t j = std::max<int64_t>(0, i - 127);
         j <= std::min<int64_t>(n - 1, i + 127); ++j) {
      expected = std::max(expected, (j * 7919) % 1000);
    }
    ASSERT_EQ(maxima->GetInt64(i), expected) << i;
  }
}

// Float add accumulates in f64 and rounds once: a moving sum of 300 bf16
// ones is 300 (exact in bf16), where folding in bf16 sticks at 256
// (256 + 1 rounds back to 256).
TEST(ReduceWindowMonoidTest, FloatAddRoundsOnce) {
  absl::StatusOr<std::unique_ptr<Module>> sum = ParseModule(WindowHlo(
      "bf16", "add", "bf16[600]", "bf16[301]", "0", "size=300", false));
  ASSERT_TRUE(sum.ok()) << sum.status();
  std::vector<Literal> arguments;
  arguments.push_back(
      *Literal::Create(Shape::Array(ElementType::kBF16, {600})));
  for (int64_t i = 0; i < 600; ++i) arguments[0].SetDouble(i, 1.0);
  absl::StatusOr<Literal> result = Evaluate(**sum, arguments);
  ASSERT_TRUE(result.ok()) << result.status();
  for (int64_t i = 0; i < 301; ++i) ASSERT_EQ(result->GetDouble(i), 300.0);
}

}  // namespace
}  // namespace kiln
